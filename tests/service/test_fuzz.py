"""Fuzzing the service: random sequences of commands with random and hostile values.

Hypothesis draws a sequence of service calls (every use case the adapters reach, from
players, onlookers and the bot's id) whose text and number arguments are legal values,
random text, hostile text (``tests/hostile_text.py``) or extreme numbers (ids past 2^63,
negative, zero). After every call:

* nothing but a :class:`~bot.results.ServiceError` escaped;
* no game row was lost, a finished game never changes again, and an active game's
  actions only ever grow (nothing is rewritten);
* every stored game replays, action by action from its setup, to its stored SPN (so
  each stored action was legal when it was played).

The examples are bounded (``max_examples``) to keep the suite's run time near a minute.
"""

from __future__ import annotations

import asyncio
import io
import sqlite3
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.results import ServiceError
from bot.service import GameService
from engine import Position, Ruleset
from tests.hostile_text import hostile_strings
from tests.service.helpers import ALICE, BOB, CAROL, GUILD, MOD, close_service, make_service

CHANNELS = (1, 2)
PEOPLE = (ALICE, BOB, CAROL)
USER_IDS = (ALICE.user_id, BOB.user_id, CAROL.user_id, 0)
CELL_NAMES = [f"{f}{r}" for f in "abcdefghi" for r in range(1, 10)]

HOSTILE = [t for t in hostile_strings(2000)] + ["", " ", "\x00", "b2 c2 d2", "a1-", "-a1", "ｂ２", "b٢"]
EXTREME_INTS = [0, -1, 1, 2, 3, 2**31, 2**63 - 1, 2**63, 2**64, 10**20, -(2**63) - 1, 10**400]

texts = st.one_of(
    st.sampled_from(CELL_NAMES),
    st.sampled_from(HOSTILE),
    st.text(max_size=12),
    st.lists(st.sampled_from(CELL_NAMES), min_size=2, max_size=3).map(" ".join),
    st.tuples(st.sampled_from(CELL_NAMES), st.sampled_from(["-", " ", ">", ","]), st.sampled_from(CELL_NAMES)).map(
        "".join
    ),
)
maybe_texts = st.one_of(st.none(), texts)
ints = st.one_of(st.sampled_from(EXTREME_INTS), st.integers(-5, 12), st.integers())
users = st.sampled_from(USER_IDS)
channels = st.sampled_from(CHANNELS)
people = st.sampled_from(PEOPLE)
levels = st.one_of(st.sampled_from(["easy", "medium"]), texts)
variants = st.one_of(st.sampled_from(["standard", "seejeh", "lane", "modern-3x3", "fouze"]), texts)
sizes = st.one_of(st.sampled_from([5, 7, 9]), ints)
colors = st.one_of(st.sampled_from(["black", "white", "random"]), texts)
durations = st.one_of(st.none(), st.sampled_from(["45s", "10m", "1h", "3d", "8d"]), texts, ints)

Call = Callable[[GameService], Awaitable[Any]]


def _call(name: str, *args: Any, **kwargs: Any) -> tuple[str, Call]:
    return name, lambda service: getattr(service, name)(*args, **kwargs)


async def _play_legal(service: GameService, channel: int, pick: int) -> Any:
    """A legal action of whoever is to move (so games get somewhere), through its command."""
    game = await service.game(channel)
    if game is None or game.to_move is None or game.to_move.is_bot:
        return None
    legal = (await service.board(channel)).legal
    if not legal:
        return None
    action = legal[pick % len(legal)]
    user = game.to_move.user_id
    if action in ("end", "pass"):
        return await service.end_turn(channel, user)
    if action.startswith("x"):
        return await service.remove(channel, user, action[1:])
    if "-" in action:
        return await service.move(channel, user, action)
    return await service.place(channel, user, action)


async def _start_game(service: GameService, channel: int, bot: bool) -> Any:
    """A game that starts for sure (a legal challenge accepted, or a bot game), so that
    the other commands have a game to act on."""
    if bot:
        return await service.play_bot(GUILD, channel, ALICE, "easy", 5, "standard", "black")
    made = await service.challenge(GUILD, channel, ALICE, BOB, 5, "standard", "black")
    return await service.accept_challenge(made.challenge.id, BOB.user_id)


starts = st.builds(lambda c, b: ("start", lambda service: _start_game(service, c, b)), channels, st.booleans())

legal_plays = st.builds(
    lambda c, i: ("play_legal", lambda service: _play_legal(service, c, i)), channels, st.integers(0, 1000)
)

hostile_calls = st.one_of(
    st.builds(lambda c: _call("cancel", c, moderator=MOD), channels),
    st.builds(
        lambda c, p, o, s, v, col: _call("challenge", GUILD, c, p, o, s, v, col),
        channels,
        people,
        people,
        sizes,
        variants,
        colors,
    ),
    st.builds(lambda i, u: _call("accept_challenge", i, u), st.one_of(st.integers(1, 4), ints), users),
    st.builds(lambda i, u: _call("decline_challenge", i, u), st.one_of(st.integers(1, 4), ints), users),
    st.builds(
        lambda c, p, lv, s, v, col: _call("play_bot", GUILD, c, p, lv, s, v, col),
        channels,
        people,
        levels,
        sizes,
        variants,
        colors,
    ),
    st.builds(lambda c, u, a, b: _call("place", c, u, a, b), channels, users, texts, maybe_texts),
    st.builds(lambda c, u, a, b: _call("move", c, u, a, b), channels, users, texts, maybe_texts),
    st.builds(lambda c, u, a: _call("remove", c, u, a), channels, users, texts),
    st.builds(lambda c, u: _call("end_turn", c, u), channels, users),
    st.builds(lambda c, u: _call("resign", c, u), channels, users),
    st.builds(lambda c, u: _call("offer_end", c, u), channels, users),
    st.builds(lambda c, u: _call("accept_end", c, u), channels, users),
    st.builds(lambda c, u: _call("decline_end", c, u), channels, users),
    st.builds(lambda c: _call("bot_turn", c), channels),
    st.builds(lambda c: _call("board", c), channels),
    st.builds(lambda c, u, t: _call("legal_to_cells", c, t, u), channels, users, maybe_texts),
    st.builds(lambda s, n: _call("leaderboard", GUILD, s, n), sizes, ints),
    st.builds(lambda u: _call("stats", GUILD, u), st.one_of(users, ints)),
    st.builds(lambda u, n: _call("history", GUILD, u, n), st.one_of(st.none(), users, ints), ints),
    st.builds(lambda i: _call("get_game", i, GUILD), st.one_of(st.integers(1, 4), ints)),
    st.builds(
        lambda i, c: _call("record", GUILD, i, c),
        st.one_of(st.none(), st.integers(1, 4), ints),
        st.one_of(st.none(), channels),
    ),
    st.builds(lambda i: _call("timeout", i), st.one_of(st.integers(1, 4), ints)),
    st.builds(lambda i: _call("reminder", i), st.one_of(st.integers(1, 4), ints)),
    st.builds(
        lambda a, b, v: _call("set_settings", GUILD, a, b, v, moderator=MOD),
        durations,
        durations,
        st.one_of(st.none(), variants),
    ),
)

#: Games that start, legal actions (so games get somewhere) and everything else, weighted
#: (``one_of`` would flatten the branches and pick among all of them alike.)
commands = st.integers(0, 5).flatmap(
    lambda k: (starts, legal_plays, legal_plays, legal_plays, hostile_calls, hostile_calls)[k]
)


def _games(path: Path) -> dict[int, tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT id, status, actions, spn, setup, variant, size, options FROM games").fetchall()
    finally:
        conn.close()
    return {row[0]: row[1:] for row in rows}


def _check_games(path: Path, before: dict[int, tuple[Any, ...]], what: str) -> dict[int, tuple[Any, ...]]:
    after = _games(path)
    assert set(before) <= set(after), f"{what}: a game was lost"
    for game_id, row in after.items():
        status, actions, spn, setup, variant, size, options = row
        assert status != "corrupt", f"{what}: game {game_id} was set aside as corrupt"
        old = before.get(game_id)
        if old is not None and old[0] != "active":
            assert row == old, f"{what}: finished game {game_id} changed"
        if old is not None:
            assert actions.startswith(old[1]), f"{what}: game {game_id}'s actions were rewritten"
        rules = Ruleset.make(variant, size, [o for o in options.split(",") if o])
        pos = Position.from_spn(setup, rules) if setup else Position(rules)
        for action in actions.split():
            pos.play(action)
        assert pos.spn() == spn, f"{what}: game {game_id} replays to {pos.spn()}, stored {spn}"
    return after


async def _run(sequence: list[tuple[str, Call]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.db"
        service = await make_service(path)
        try:
            before = _games(path)
            for i, (name, call) in enumerate(sequence):
                try:
                    await call(service)
                except ServiceError as exc:
                    assert exc.message, f"{name}: an empty error message"
                    assert len(exc.message) < 1000, f"{name}: an error message of {len(exc.message)} characters"
                before = _check_games(path, before, f"command {i} ({name})")
        finally:
            await close_service(service)


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(commands, min_size=20, max_size=60))
def test_random_service_commands_keep_every_game_sound(sequence: list[tuple[str, Call]]) -> None:
    asyncio.run(_run(sequence))


CONSOLE_WORDS = [
    "/seega play-bot level:easy",
    "/seega challenge size:5 color:black",
    "/place",
    "/move",
    "/remove",
    "/seega end-turn",
    "/seega board",
    "/seega resign",
    "yes",
    "/seega draw",
    "/seega accept-draw",
    "/seega decline-draw",
    "/seega games",
    "/seega language ",
    "/seega offer-end",
    "/seega accept-end",
    "/seega cancel",
    "/seega history",
    "/seega record game:",
    "/seega leaderboard size:",
    "/seega stats",
    "/seega settings turn_timeout:",
    "/seega rules variant:",
    "help",
]

console_lines = st.one_of(
    st.sampled_from(["/seega challenge size:5 color:black", "/seega play-bot level:easy"]),
    st.sampled_from([f"/place {c}" for c in CELL_NAMES[:45]] + [f"/move {c}" for c in CELL_NAMES[:45]]),
    st.tuples(st.sampled_from(CONSOLE_WORDS), st.one_of(texts, st.just(""))).map(lambda p: f"{p[0]}{p[1]}"),
    st.sampled_from(HOSTILE),
    st.text(max_size=20),
)


async def _run_console(lines: list[str]) -> None:
    from bot.console.commands import ConsoleTable

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "console.db"
        service = await make_service(path)
        out = io.StringIO()
        table = ConsoleTable(service, out, None)
        try:
            before = _games(path)
            for i, line in enumerate(lines):
                await table.handle(line)  # nothing may escape: every error is one Error: line
                before = _check_games(path, before, f"console line {i}")
            assert "Traceback" not in out.getvalue()
            assert "something went wrong" not in out.getvalue(), out.getvalue()[-2000:]
        finally:
            await close_service(service)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(console_lines, min_size=10, max_size=40))
def test_random_console_lines_never_end_the_table(lines: list[str]) -> None:
    asyncio.run(_run_console(lines))
