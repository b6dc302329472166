"""The coach's use cases through the service layer: real SQLite, real engine, real Pillow."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.ai_pool import ProcessPoolAiRunner, ThreadAiRunner
from bot.clock import FakeClock
from bot.coach_messages import hint_text, lesson_answer_text, puzzle_answer_text, review_text, wording
from bot.i18n import t
from bot.ratings import rate_game
from bot.render import coach_pictures
from bot.render.hint import HINT
from bot.render.theme import get_theme
from bot.results import (
    BadInputError,
    Moderator,
    NoGameError,
    NotAModeratorError,
    NotAPlayerError,
    NotYourTurnError,
)
from bot.service import GameService
from bot.service.coach import Coach
from bot.service.coach_puzzles import MAX_SWING, Puzzles, rate_answer
from bot.service.coach_results import LessonAnswer, PuzzleAnswer
from bot.service.coach_work import thread_work, work_for
from bot.storage import GameUpdate, NewGame, Storage
from bot.storage.coach import PuzzleRatingRow
from engine.actions import Action
from engine.coach.hints import advise_job
from engine.coach.lessons import LESSONS, lesson
from engine.coach.puzzles import Puzzle, check, load_bank
from engine.coach.review import REVIEW_VERSION, AnalysisJob, run_job
from engine.position import Position
from engine.rules import Ruleset
from tests.service.helpers import ALICE as ALICE_PLAYER
from tests.service.helpers import Db, close_service, execute, make_service, query

GUILD = 10
ALICE, BOB = 101, 102
MOD = Moderator(GUILD, 900)
RULES = Ruleset.make("standard", 5)
# White to move; c2-c3 takes two (see tests/coach/test_review.py), c2-b2 throws the game away.
SPN = "w3b/5/wb1bw/2w2/b3b w m 0/0 - 0 30"
BANK = load_bank()[:40]
PLAYED = get_theme("sand").move


@dataclass
class Env:
    storage: Storage
    clock: FakeClock
    coach: Coach


@pytest.fixture
async def env(db_path: Db) -> AsyncIterator[Env]:
    """The coach over a real database: a SQLite file and a PostgreSQL database (conftest)."""
    storage = await Storage.open(db_path)
    clock = FakeClock()
    work = thread_work()
    coach = Coach(storage, clock, work, coach_pictures, bank=BANK, review_nodes=3000)
    yield Env(storage, clock, coach)
    await storage.close()


async def insert(
    env: Env,
    channel: int,
    spn: str | None,
    white_level: str | None,
    actions: str = "",
    black_name: str = "Alice",
    black: int = ALICE,
) -> int:
    """An active game from ``spn`` (Alice, or ``black``, black; Bob or the bot white) with ``actions`` played."""
    pos = Position.from_spn(spn, RULES) if spn else Position(RULES)
    for a in actions.split():
        pos.play(a)
    row = await env.storage.insert_game(
        NewGame(
            GUILD,
            channel,
            "standard",
            5,
            "",
            black,
            black_name,
            None,
            BOB if white_level is None else 0,
            "Bob" if white_level is None else "Seega bot",
            white_level,
            pos.spn(),
            env.clock.now(),
            spn,
        )
    )
    if actions:
        assert await env.storage.update_game(GameUpdate(row.id, 0, actions, pos.spn(), env.clock.now()))
    return row.id


async def finish(env: Env, game_id: int, rated: bool = False) -> None:
    row = await env.storage.game(game_id)
    assert row is not None
    update = GameUpdate(
        game_id, row.version, row.actions, row.spn, env.clock.now(), "finished", "1-0", "resignation", env.clock.now()
    )
    applied, _ = await env.storage.finish_game(update, rate_game if rated else None, 1.0 if rated else None)
    assert applied


def colours(png: bytes) -> set[tuple[int, int, int]]:
    return {c for _n, c in Image.open(io.BytesIO(png)).convert("RGB").getcolors(1 << 20) or []}


def legend_colours(png: bytes) -> set[tuple[int, int, int]]:
    """The colours of the picture's bottom strip, below the footer: the legend's swatches."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    strip = img.crop((0, img.height - 40, img.width, img.height))
    return {c for _n, c in strip.getcolors(1 << 20) or []}


# ---------------------------------------------------------------------------- hints


async def test_a_hint_is_refused_in_a_rated_game_between_people(env: Env) -> None:
    await insert(env, 1, SPN.replace(" w m ", " b m "), None)  # Alice (black) to move, Bob is a person
    with pytest.raises(BadInputError) as err:
        await env.coach.hints.hint(GUILD, 1, ALICE)
    assert err.value.key == "coach_hint_rated"
    assert await env.storage.hint_counts([1]) == {}


async def test_a_hint_against_the_bot_shows_the_move_its_reason_and_counts(env: Env) -> None:
    spn = "w3b/5/bw1wb/2b2/w3w b m 0/0 - 0 30"  # colours swapped: Black's c2-c3 takes two
    gid = await insert(env, 2, spn, "hard")
    got = await env.coach.hints.hint(GUILD, 2, ALICE)
    assert got.actions == ("c2-c3",)
    assert ("captures", {"n": "2", "cells": "b3 d3"}) in got.reasons
    assert got.used == 1 and got.limit == 3
    assert got.image is not None and HINT in colours(got.image)
    assert HINT in legend_colours(got.image) and PLAYED not in legend_colours(got.image)  # "suggested" only
    assert await env.storage.hint_counts([gid]) == {gid: 1}
    assert await env.storage.games_with_hints(GUILD, ALICE) == 1
    sgn = (await GameService(env.storage, ThreadAiRunner(), None, env.clock).record(GUILD, gid, replay=False)).sgn
    assert '[Hints "1"]' in sgn  # the record says a hint was used
    assert await env.storage.games_with_hints(GUILD, BOB) == 0
    with pytest.raises(NotAPlayerError):
        await env.coach.hints.hint(GUILD, 2, BOB)


async def test_a_hint_draws_the_names_the_adapter_shows(env: Env) -> None:
    """Newcomer play-test: the console's game pictures said "You", its hint's "Player 1"."""
    spn = "w3b/5/bw1wb/2b2/w3w b m 0/0 - 0 30"  # Black's c2-c3 takes two
    await insert(env, 7, spn, "hard")
    words = wording("en")
    got = await env.coach.hints.hint(
        GUILD, 7, ALICE, words, names_shown=lambda names: ("You" if names[0] == "Alice" else names[0], names[1])
    )
    pos = Position.from_spn(spn, RULES)
    legend = (words("coach.legend.played"), words("coach.legend.hint"))
    drawn = [Action.parse(a) for a in got.actions]
    # The bot is named as the messages name it, with its level.
    assert got.image == coach_pictures.suggestion_image(pos, drawn, players=("You", "Seega bot (hard)"), legend=legend)
    assert got.image != coach_pictures.suggestion_image(pos, drawn, players=("Alice", "Seega bot"), legend=legend)


async def test_a_hint_at_an_arabic_table_draws_its_board_in_arabic(env: Env) -> None:
    """The hint's legend was in the reader's language, the board under it in English."""
    spn = "w3b/5/bw1wb/2b2/w3w b m 0/0 - 0 30"
    await insert(env, 8, spn, "hard")
    words = wording("ar")
    got = await env.coach.hints.hint(GUILD, 8, ALICE, words, lang="ar")
    pos = Position.from_spn(spn, RULES)
    legend = (words("coach.legend.played"), words("coach.legend.hint"))
    drawn = [Action.parse(a) for a in got.actions]
    # Console play-test: the hint's board named the bot in English at an Arabic table.
    names = ("Alice", "بوت سيجة الصعب")
    assert got.image == coach_pictures.suggestion_image(pos, drawn, players=names, legend=legend, lang="ar")
    english = ("Alice", "Seega bot (hard)")
    assert got.image != coach_pictures.suggestion_image(pos, drawn, players=english, legend=legend, lang="ar")
    assert got.image != coach_pictures.suggestion_image(pos, drawn, players=names, legend=legend)


async def test_a_hint_for_a_forced_turn_is_free_and_needs_no_search(env: Env) -> None:
    """Console play-test: "Hint (1 of 3): play b1-b2: the only legal move" took one of the
    three hints. A forced turn is read off the rules: not counted, no AI job, even after
    the last hint; a guild that turned hints off still refuses it."""
    spn = "3wb/4w/5/5/bw3 b m 0/0 - 0 30"  # Black's only step: a1-a2
    gid = await insert(env, 8, spn, "hard")
    await env.coach.hints.set_limit(GUILD, 1, MOD)
    jobs: list[object] = []

    async def killed(fn: Any, arg: Any) -> Any:  # every AI worker is dead
        jobs.append(arg)
        raise BrokenProcessPool("a worker was killed")

    env.coach.hints.work.run = killed  # type: ignore[method-assign]
    for _ in range(3):
        got = await env.coach.hints.hint(GUILD, 8, ALICE)
        assert got.free and got.actions == ("a1-a2",) and ("only", {}) in got.reasons
        assert got.used == 0 and got.limit == 1 and got.win_chance is None
        assert got.image is not None and HINT in colours(got.image)
    # The same request twice at once: both answered, neither counted.
    twice = await asyncio.gather(*(env.coach.hints.hint(GUILD, 8, ALICE) for _ in range(2)))
    assert [h.used for h in twice] == [0, 0] and all(h.free for h in twice)
    assert jobs == [] and await env.storage.hint_counts([gid]) == {}
    # Free does not mean open to anybody: not the opponent's, not from another server.
    with pytest.raises(NotAPlayerError):
        await env.coach.hints.hint(GUILD, 8, BOB)
    with pytest.raises(NoGameError):
        await env.coach.hints.hint(GUILD + 1, 8, ALICE)
    text = hint_text(got, "en")
    assert text.startswith("💡 **Hint** (free: you have no other move; 0 of 1 used): play **a1-a2**: the only legal")
    assert "chances" not in text and "مجاني" in hint_text(got, "ar")
    await env.coach.hints.set_limit(GUILD, 0, MOD)
    with pytest.raises(BadInputError) as err:
        await env.coach.hints.hint(GUILD, 8, ALICE)
    # said as what it is: "You have used all 0 hints allowed" read as a count (play-test)
    assert err.value.key == "coach_hints_off"
    assert err.value.text("en").startswith("Hints are turned off on this server")
    assert "settings hints:3)" in err.value.text("en"), "what to type, not a bare 'hints:' (re-check)"


async def test_the_hint_limit_is_a_guild_setting_and_holds(env: Env) -> None:
    await insert(env, 3, None, "easy")
    assert await env.coach.hints.limit(GUILD) == 3
    with pytest.raises(NotAModeratorError):
        await env.coach.hints.set_limit(GUILD, 1)  # no capability
    with pytest.raises(NotAModeratorError):
        await env.coach.hints.set_limit(GUILD, 1, Moderator(GUILD + 1, ALICE))  # another server's
    await env.coach.hints.set_limit(GUILD, 1, MOD)
    assert await env.coach.hints.limit(GUILD) == 1
    first = await env.coach.hints.hint(GUILD, 3, ALICE)
    assert len(first.actions) == 2 and first.used == 1 and not first.again  # a placement pair
    # Asked again before anything is played: the same hint, not counted again (fresh-eyes
    # play-test, stop 36: three "hint" in a row said "play e1" three times and used all three)
    again = await env.coach.hints.hint(GUILD, 3, ALICE)
    assert again.actions == first.actions and again.used == 1 and again.again
    assert await env.storage.hint_counts([again.game_id]) == {again.game_id: 1}
    assert "asked again: not counted; 1 of 1 used" in hint_text(again, "en")
    row = await env.storage.game(again.game_id)
    assert row is not None
    pos = Position.from_spn(row.spn, RULES)
    reply = [c for c in ("a1", "a2", "a3", "a4") if c not in first.actions][:2]
    played = " ".join([*first.actions, *reply])  # Alice's pair, then the bot's
    for action in played.split():
        pos.play(action)
    assert await env.storage.update_game(GameUpdate(row.id, row.version, played, pos.spn(), env.clock.now()))
    with pytest.raises(BadInputError) as err:  # a new position: over the limit of 1
        await env.coach.hints.hint(GUILD, 3, ALICE)
    assert err.value.key == "coach_hint_limit" and err.value.params == {"limit": 1}
    for bad in (-1, 21, 10**12):
        with pytest.raises(BadInputError):
            await env.coach.hints.set_limit(GUILD, bad, MOD)


async def test_a_hint_is_for_your_own_turn_in_a_game_in_progress(env: Env) -> None:
    await insert(env, 4, SPN, "easy")  # White (the bot) to move
    with pytest.raises(NotYourTurnError):
        await env.coach.hints.hint(GUILD, 4, ALICE)
    with pytest.raises(NoGameError):
        await env.coach.hints.hint(GUILD, 99, ALICE)


# ---------------------------------------------------------------------------- reviews


async def test_a_review_finds_the_blunder_reports_progress_and_is_stored(env: Env) -> None:
    gid = await insert(env, 5, SPN, None, "c2-b2 b3-c3 a5-b5")
    with pytest.raises(BadInputError) as err:
        await env.coach.reviews.review(GUILD, 5)
    assert err.value.key == "coach_review_unfinished"
    await finish(env, gid)
    seen: list[tuple[int, int]] = []

    async def progress(done: int, total: int) -> None:
        seen.append((done, total))

    got = await env.coach.reviews.review(GUILD, 5, progress=progress)
    assert not got.cached and seen == [(1, 3), (2, 3), (3, 3)]  # each turn once, the last one too
    first = got.review.turns[0]
    assert first.label == "blunder" and first.best == ("c2-c3",) and first.played == ("c2-b2",)
    for locale in ("en", "ar"):
        bob = review_text(got, locale).splitlines()[2]  # title, Alice's line, Bob's line
        assert t(locale, "coach.review.count.blunder_one") in bob  # "1 blunder", not "1 blunders"
    assert review_text(got, "en").splitlines()[2].endswith("· 1 blunder")
    # Each key moment says why, as the board shows it (console play-test: "played a4-a3,
    # better b4-b5" left a newcomer asking why): what the turn played let the opponent
    # do with the engine's reply (the next verdict's best), and what the better one does.
    assert got.moments[0].played_why == (("allows_capture", {"n": "1", "cells": "b2", "reply": "a1-b1"}),)
    assert got.moments[0].best_why == (("captures", {"n": "2", "cells": "b3 d3"}), ("centre", {}))
    text = review_text(got, "en")
    assert (
        "Turn 30, Bob: **blunder**: played c2-b2 (lets Alice capture b2 with a1-b1), "
        "better c2-c3 (captures 2 on b3 and d3; takes the centre)" in text
    )
    assert "في b3 و d3" in review_text(got, "ar")  # the cells listed as the Arabic texts list cells
    # No reply captured: what the engine thinks b3-c3 cost is said instead ("played a2, b4,
    # better d2, b4" alone left a newcomer asking why it was a blunder).
    assert "played b3-c3 (the chances fall from 76% to 69%), better a1-b1 (captures 1 on b2)" in text
    assert "(تنخفض الحظوظ من 76% إلى 69%)" in review_text(got, "ar")
    assert "a1-b1" in review_text(got, "ar") and "coach.review" not in review_text(got, "ar")
    assert got.moments and got.moments[0].index == 0 and got.moments[0].player == "Bob"
    assert got.moments[0].image is not None and HINT in colours(got.moments[0].image)
    assert {HINT, PLAYED} <= legend_colours(got.moments[0].image)  # which colour is which, in words
    assert got.chart is not None and Image.open(io.BytesIO(got.chart)).size == (900, 460)
    again = await env.coach.reviews.review(GUILD, 5, gid)
    assert again.cached and again.review == got.review
    with pytest.raises(NoGameError):
        await env.coach.reviews.review(GUILD + 1, 5, gid)  # another server's game


async def test_one_person_computes_one_review_at_a_time(env: Env) -> None:
    """A thousand /seega review requests from one member, each for another finished game,
    each queued its analyses in the one coach slot, before every other member's hints and
    reviews. Now one review being computed per person: another is refused, naming the
    one still running; the same game again waits for it; other people are not held up,
    and a stored review is shown to anyone at once."""
    from bot.service.limits import LimitError

    games = []
    for channel in (40, 41, 42, 43):
        games.append(await insert(env, channel, SPN, None, "c2-b2 b3-c3 a5-b5"))
        await finish(env, games[-1])
    gate = asyncio.Event()
    real = env.coach.reviews.work

    class Held:
        async def run(self, fn: Any, arg: Any) -> Any:
            await gate.wait()
            return await real.run(fn, arg)

    env.coach.reviews.work = Held()
    first = asyncio.ensure_future(env.coach.reviews.review(GUILD, 40, games[0], user_id=ALICE))
    await asyncio.sleep(0.05)
    with pytest.raises(LimitError) as refused:
        await env.coach.reviews.review(GUILD, 41, games[1], user_id=ALICE)
    assert refused.value.key == "coach_review_busy" and refused.value.params["game_id"] == games[0]
    assert f"#{games[0]}" in t("en", "service.coach_review_busy", **refused.value.params)
    again = asyncio.ensure_future(env.coach.reviews.review(GUILD, 40, games[0], user_id=ALICE))  # waits for it
    other = asyncio.ensure_future(env.coach.reviews.review(GUILD, 42, games[2], user_id=BOB))  # not held up by Alice
    await asyncio.sleep(0.05)
    assert not first.done() and not again.done() and not other.done()
    gate.set()
    done = await asyncio.gather(first, again, other)
    assert [r.game_id for r in done] == [games[0], games[0], games[2]]
    # Alice's review done, she may ask for the next; a stored one is shown even while busy.
    assert (await env.coach.reviews.review(GUILD, 41, games[1], user_id=ALICE)).game_id == games[1]
    env.coach.reviews.work = Held()
    gate.clear()
    busy = asyncio.ensure_future(env.coach.reviews.review(GUILD, 43, games[3], user_id=ALICE))
    await asyncio.sleep(0.05)
    assert not busy.done() and (await env.coach.reviews.review(GUILD, 40, games[0], user_id=ALICE)).cached
    with pytest.raises(NoGameError):  # refused before any work: nothing held for Alice
        await env.coach.reviews.review(GUILD, 40, games[3] + 1000, user_id=ALICE)
    gate.set()
    assert (await busy).game_id == games[3]
    assert env.coach.reviews._asked == {}  # nobody is waiting: nothing is kept


async def test_a_review_whose_worker_dies_frees_its_place(env: Env) -> None:
    """The worker computing Alice's review dies (the pool's BrokenProcessPool, here a
    raised error): her request fails, nothing is stored, and her next request is not
    refused as busy; asked again, the review is computed and stored."""
    gid = await insert(env, 44, SPN, None, "c2-b2 b3-c3 a5-b5")
    await finish(env, gid)
    real = env.coach.reviews.work

    class Dying:
        async def run(self, fn: Any, arg: Any) -> Any:
            raise RuntimeError("the worker process died")

    env.coach.reviews.work = Dying()
    with pytest.raises(RuntimeError):
        await env.coach.reviews.review(GUILD, 44, gid, user_id=ALICE)
    assert env.coach.reviews._asked == {} and await env.storage.coach_review(gid) is None
    env.coach.reviews.work = real
    again = await env.coach.reviews.review(GUILD, 44, gid, user_id=ALICE)
    assert not again.cached and await env.storage.coach_review(gid) is not None


async def test_a_review_says_the_names_the_adapter_shows_in_its_text_and_pictures(env: Env) -> None:
    """Newcomer play-test: the console's review said "You", its pictures "Player 1"."""
    gid = await insert(env, 6, SPN, None, "c2-b2 b3-c3 a5-b5")
    await finish(env, gid)
    words = wording("en")
    plain = await env.coach.reviews.review(GUILD, 6, wording=words)
    shown = await env.coach.reviews.review(
        GUILD, 6, wording=words, names_shown=lambda names: (names[0], "You" if names[1] == "Bob" else names[1])
    )
    assert plain.names == ("Alice", "Bob") and shown.names == ("Alice", "You")
    assert shown.cached and shown.review == plain.review  # the stored review holds no names
    assert plain.moments[0].player == "Bob" and shown.moments[0].player == "You"
    assert [m.player for m in shown.moments] == [{"Bob": "You"}.get(m.player, m.player) for m in plain.moments]
    pos = Position.from_spn(SPN, RULES)
    legend = (words("coach.legend.played"), words("coach.legend.better"))
    best, played = [Action.parse("c2-c3")], [Action.parse("c2-b2")]
    assert shown.moments[0].image == coach_pictures.suggestion_image(
        pos, best, played, players=("Alice", "You"), legend=legend
    )
    assert plain.moments[0].image == coach_pictures.suggestion_image(
        pos, best, played, players=("Alice", "Bob"), legend=legend
    )
    assert shown.chart is not None and plain.chart is not None and shown.chart != plain.chart  # the title
    assert words("coach.review.chart_title", black="Alice", white="You", id=gid) == f"Game #{gid}: Alice vs You"


async def test_an_arabic_reviews_chart_says_you_in_arabic_and_reads_from_the_right(env: Env) -> None:
    """Native play-test (stop 36): the Arabic review's chart was titled with the English
    "You" ("... You :المباراة رقم 1") and laid out left to right."""
    gid = await insert(env, 8, SPN, None, "c2-b2 b3-c3 a5-b5")
    await finish(env, gid)
    asked: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    class Recording:
        """The real pictures, noting the words each chart is drawn with."""

        def __getattr__(self, name: str) -> Any:
            return getattr(coach_pictures, name)

        def chart_words(self, *args: Any, **kwargs: Any) -> Any:
            asked.append((args, kwargs))
            return coach_pictures.chart_words(*args, **kwargs)

    env.coach.reviews.pictures = Recording()  # type: ignore[assignment]
    names_shown = lambda names: (names[0], "You" if names[1] == "Bob" else names[1])  # noqa: E731
    done = await env.coach.reviews.review(GUILD, 8, wording=wording("ar"), names_shown=names_shown, lang="ar")
    assert done.chart is not None and len(asked) == 1
    (title, *_), options = asked[0]
    assert "أنت" in title and "You" not in title and "Alice" in title, title
    assert coach_pictures.chart_words(*asked[0][0], **options).rtl and options.get("lang") == "ar"


async def test_a_game_with_a_hostile_name_is_reviewed_twice_at_once(env: Env) -> None:
    """Stored names are text from outside. A line break made every picture fail
    ("raqm_layout() failed"), and a 10,000-character name took minutes per picture to cut."""
    name = "Nour\n\x00\u200f" + "Amira " * 2000
    gid = await insert(env, 7, SPN, None, "c2-b2 b3-c3 a5-b5", black_name=name)
    await finish(env, gid)
    first, second = await asyncio.gather(env.coach.reviews.review(GUILD, 7), env.coach.reviews.review(GUILD, 7))
    assert first.review == second.review and [first.cached, second.cached] == [False, False]  # one shared analysis
    row = await env.storage.game(gid)
    assert row is not None and first.names == (row.black_name, "Bob")
    assert first.chart is not None and Image.open(io.BytesIO(first.chart)).size == (900, 460)
    assert all(m.image is not None for m in first.moments)


async def test_a_name_stored_behind_the_bots_back_stays_on_the_reviews_title_line(env: Env, db_path: Db) -> None:
    """A name the bot never wrote (an import, a hand edit) with line breaks and 10,000
    characters: the review's title is still one line, with the name cut short, its
    markdown escaped (a row of an older version is made message-safe when read)."""
    gid = await insert(env, 7, SPN, None, "c2-b2 b3-c3 a5-b5")
    await finish(env, gid)
    execute(db_path, "UPDATE games SET black_name = ? WHERE id = ?", ("Nour\n\n**@everyone**\n" * 800, gid))
    result = await env.coach.reviews.review(GUILD, 7)
    text = review_text(result, "en")
    title, player = text.split("\n")[:2]
    escaped = "\\*\\*@\u2060everyone\\*\\*"
    assert title.startswith(f"**Review of game #{gid}: Nour  {escaped} Nour") and title.endswith("\u2026 vs Bob**")
    assert len(title) < 150 and "Bob" not in player and player.count("Nour") == 3


def test_a_key_moment_speaks_to_the_reader_it_let_capture() -> None:
    """Console play-test: the bot's blunder "lets You capture b2 with a1-b1" put the
    console's "You" in mid-sentence. Told to that reader it is "lets you capture";
    public (Discord), the name stays."""
    from bot.service.coach_results import KeyMoment, ReviewResult
    from engine.coach.review import GameReview

    let = (("allows_capture", {"n": "1", "cells": "b2", "reply": "a1-b1"}),)
    moment = KeyMoment(0, 30, 0, "Seega bot (hard)", "blunder", ("c2-b2",), ("c2-c3",), 0.4, played_why=let)
    result = ReviewResult(
        4, ("Seega bot (hard)", "You"), GameReview((), (0.5,), (None, None), (), 1000), False, None, (moment,)
    )
    mine = review_text(result, "en", you=1)
    assert "played c2-b2 (lets you capture b2 with a1-b1)" in mine and "lets You" not in mine
    assert "lets You capture b2" in review_text(result, "en")  # public: the name as given
    assert "تسمح لك بأسر b2" in review_text(result, "ar", you=1)
    # The bot reading its own blunder's moment (you = 0) is told by name.
    assert "lets You capture" in review_text(result, "en", you=0)


def test_a_review_without_mistakes_of_a_lost_game_says_where_it_slid() -> None:
    """Console play-test: the bot lost every piece, and its review said "No big mistakes:
    a clean game". It now names the stretch where the loser's chances fell."""
    from bot.service.coach_results import ReviewResult
    from engine.coach.review import GameReview, TurnVerdict

    curve = [0.5, 0.55, 0.6, 0.7, 0.8, 0.9, 0.99]
    turns = tuple(TurnVerdict(i, i + 4, i % 2, ("a1-a2",), ("a1-a2",), 0.5, 0.5, 0.0, "best", False) for i in range(6))
    result = ReviewResult(
        3, ("You", "Seega bot (medium)"), GameReview(turns, tuple(curve), (99.0, 99.0), (), 1000), False, None, ()
    )
    text = review_text(result, "en")
    assert "No big mistakes" not in text
    assert (
        "Seega bot (medium): no single big mistake, but the chances fell a little at a time, from 50% after "
        "turn 3 to 1% after turn 9. Look there for better plans." in text
    )
    # At the console the person at the keyboard is "You": the sentence said "You's
    # chances fell" (play-test, stop 33), so it names the player before it, as the
    # accuracy lines above it do.
    mine = review_text(replace(result, names=("Seega bot (medium)", "You")), "en")
    assert "You: no single big mistake, but the chances fell" in mine and "You's" not in mine
    assert "Seega bot (medium)" in review_text(result, "ar") and "50%" in review_text(result, "ar")
    level = replace(result, review=GameReview(turns, (0.5,) * 7, (99.0, 99.0), (), 1000))
    assert "No big mistakes: a clean game." in review_text(level, "en")


# ---------------------------------------------------------------------------- puzzles


async def test_solve_answers_what_was_shown_last_and_it_survives_a_restart(env: Env) -> None:
    """``/seega solve``: the lesson or the puzzle shown last, remembered in the database
    (a new service over it answers the same); the puzzle of the day by default, and only
    on its own day."""
    daily, _day = env.coach.puzzles.daily(GUILD)
    # nothing shown to Bob: his answer is for the puzzle of the day (he saw Alice's)
    bobs = await env.coach.solve(GUILD, BOB, "Bob", " ".join(daily.solution))
    assert isinstance(bobs, PuzzleAnswer) and bobs.puzzle_id == daily.id and bobs.outcome == "solved"
    view = await env.coach.puzzles.show(GUILD, ALICE, "Alice", new=True)
    await env.coach.lessons.show(ALICE, 3, 7, guild_id=GUILD)
    lesson_try = await env.coach.solve(GUILD, ALICE, "Alice", LESSONS[2].model, 7)
    assert isinstance(lesson_try, LessonAnswer) and lesson_try.number == 3 and lesson_try.solved
    await env.coach.puzzles.show(GUILD, ALICE, "Alice", new=True)
    again = await env.coach.puzzles.storage.puzzle_rating(GUILD, ALICE)
    assert again is not None and again.current is not None and again.current != view.puzzle_id
    restarted = Coach(env.storage, env.clock, thread_work(), None, bank=BANK)
    puzzle = restarted.puzzles.by_id(again.current)
    assert puzzle is not None
    got = await restarted.solve(GUILD, ALICE, "Alice", " ".join(puzzle.solution))
    assert isinstance(got, PuzzleAnswer) and got.puzzle_id == puzzle.id and got.outcome == "solved"
    # in another server nothing was shown: that server's puzzle of the day
    elsewhere = await restarted.solve(GUILD + 1, ALICE, "Alice", "zz")
    assert isinstance(elsewhere, PuzzleAnswer) and elsewhere.puzzle_id == restarted.puzzles.daily(GUILD + 1)[0].id
    # the puzzle of the day answers as such on its day, and gives way to the next day's
    shown = await env.coach.puzzles.show(GUILD, ALICE, "Alice")
    assert (await env.coach.solve(GUILD, ALICE, "Alice", "zz")).puzzle_id == shown.puzzle_id  # type: ignore[union-attr]
    env.clock.advance(86_400)
    tomorrow, _ = env.coach.puzzles.daily(GUILD)
    assert (await env.coach.solve(GUILD, ALICE, "Alice", "zz")).puzzle_id == tomorrow.id  # type: ignore[union-attr]
    empty = Coach(env.storage, env.clock, thread_work(), None, bank=[])
    with pytest.raises(BadInputError) as err:
        await empty.solve(GUILD, ALICE + 50, "Carol", "b2 c2")
    assert err.value.key == "coach_nothing_to_solve"


def test_a_wrong_puzzle_answer_says_what_it_does_wrong() -> None:
    """ "❌ Not this one." alone: the solver learnt nothing. A turn that takes nothing where
    the solution takes says so, and one that lets the opponent capture says which, in
    the words of a review's key moment (engine.coach.hints.moment_reasons)."""
    from engine.coach.puzzles import judge, turn_outcomes

    seen: set[str] = set()
    for puzzle in BANK:
        for actions, _after in turn_outcomes(puzzle.position()):
            typed = " ".join(str(a) for a in actions)
            verdict = judge(puzzle, typed)
            if verdict.outcome != "wrong":
                continue
            answer = PuzzleAnswer(
                puzzle.id,
                "wrong",
                solution=puzzle.solution,
                solution_captures=verdict.solution_captures,
                captured=verdict.captured,
                why=tuple((k, dict(p)) for k, p in verdict.why),
            )
            first = puzzle_answer_text(answer, "en").splitlines()[0]
            arabic = puzzle_answer_text(answer, "ar").splitlines()[0]
            if any(k == "allows_capture" for k, _ in verdict.why):
                assert "lets your opponent capture" in first and " with " in first, first
                assert "خصمك" in arabic, arabic
                seen.add("capture")
            if not verdict.captured and verdict.solution_captures:
                assert first.startswith("❌ Not this one: your turn captures nothing"), first
                seen.add("nothing")
            if 0 < verdict.captured < verdict.solution_captures:  # a capture, not the puzzle's (stop 37)
                assert "your turn captures fewer pieces than the solution (" in first, first
                seen.add("fewer")
            if not verdict.why and (verdict.captured >= verdict.solution_captures):
                assert first == "❌ Not this one.", first
    assert seen == {"capture", "nothing", "fewer"}


async def test_the_daily_puzzle_is_the_same_for_everyone_that_day(env: Env) -> None:
    a = await env.coach.puzzles.show(GUILD, ALICE, "Alice")
    b = await env.coach.puzzles.show(GUILD, BOB, "Bob")
    assert a.puzzle_id == b.puzzle_id and a.daily and a.day == b.day
    days = {(await env.coach.puzzles.show(GUILD, ALICE, "Alice")).puzzle_id}
    for _ in range(6):
        env.clock.advance(86_400)
        days.add((await env.coach.puzzles.show(GUILD, ALICE, "Alice")).puzzle_id)
    assert len(days) >= 3


async def test_answers_streaks_ratings_and_the_leaderboard(env: Env) -> None:
    with pytest.raises(BadInputError) as err:
        await env.coach.puzzles.answer(GUILD, ALICE, "Alice", "a1 a2")
    assert err.value.key == "coach_no_puzzle"
    view = await env.coach.puzzles.show(GUILD, ALICE, "Alice", new=True)
    puzzle = env.coach.puzzles.by_id(view.puzzle_id)
    assert puzzle is not None and not view.daily and view.image is not None
    typo = await env.coach.puzzles.answer(GUILD, ALICE, "Alice", "zz9")
    assert typo.outcome == "unreadable" and not typo.rated
    right = await env.coach.puzzles.answer(GUILD, ALICE, "Alice", " ".join(puzzle.solution))
    assert right.outcome == "solved" and right.rated and right.rating_after > right.rating_before
    assert right.streak == 1 and right.solution == puzzle.solution and right.image is not None
    # the solution's picture says under the board that it is the solution (native play-test)
    said = f"solution: {' '.join(puzzle.solution)}"
    solution = [Action.parse(a) for a in puzzle.solution]
    assert right.image == coach_pictures.suggestion_image(puzzle.position(), solution, legend=("", said))
    again = await env.coach.puzzles.answer(GUILD, ALICE, "Alice", " ".join(puzzle.solution))
    assert again.outcome == "solved" and not again.rated and again.rating_after == right.rating_after

    view2 = await env.coach.puzzles.show(GUILD, ALICE, "Alice", new=True)
    assert view2.puzzle_id != view.puzzle_id
    other = env.coach.puzzles.by_id(view2.puzzle_id)
    assert other is not None
    wrong_turn = _a_wrong_turn(other)
    wrong = await env.coach.puzzles.answer(GUILD, ALICE, "Alice", wrong_turn)
    assert wrong.outcome == "wrong" and wrong.rated and wrong.rating_after < wrong.rating_before
    assert wrong.streak == 0 and wrong.best_streak == 1 and wrong.solution == other.solution
    why = puzzle_answer_text(wrong, "en").splitlines()[2]  # after the verdict and the solution
    if other.theme == "win":
        assert wrong.solution_wins and why == t("en", "coach.puzzle.why_win")
    elif other.theme != "quiet":
        assert wrong.solution_captures >= 1 and "take" in why

    await env.coach.puzzles.show(GUILD, BOB, "Bob", new=True)
    board = await env.coach.puzzles.leaderboard(GUILD)
    assert [(e.name, e.solved, e.failed) for e in board] == [("Alice", 1, 1)]  # Bob has answered nothing


async def test_an_impossible_answer_is_explained_as_a_game_explains_it(env: Env) -> None:
    """Play-test: a puzzle's "a2 b1" (a diagonal) got "a2-b1 is not allowed in this
    position", where a game says the rule it breaks and the steps allowed; a lesson's
    the same. Now both say what a game says, and that nothing was counted."""
    view = await env.coach.puzzles.show(GUILD, ALICE, "Alice", new=True)
    puzzle = env.coach.puzzles.by_id(view.puzzle_id)
    assert puzzle is not None
    pos = puzzle.position()
    geo = pos.geo
    src, dst = next(
        (geo.names[c], geo.names[d])
        for c in range(geo.cells)
        if pos.piece_at(c) == pos.side and any(a.src == geo.to_global[c] for a in pos.legal_actions())
        for d in range(geo.cells)
        if pos.piece_at(d) is None and abs(c // geo.n - d // geo.n) == 1 and abs(c % geo.n - d % geo.n) == 1
    )
    diagonal = await env.coach.puzzles.answer(GUILD, ALICE, "Alice", f"{src} {dst}")
    assert diagonal.outcome == "illegal" and not diagonal.rated
    said = puzzle_answer_text(diagonal, "en")
    assert f"{src} cannot step to {dst}: pieces step up, down, left or right, never diagonally" in said, said
    assert f"; from {src} you can step to " in said and "Nothing was counted: try again." in said, said
    assert "غير مسموحة" not in puzzle_answer_text(diagonal, "ar") and "قطريًا" in puzzle_answer_text(diagonal, "ar")
    tried = await env.coach.lessons.answer(ALICE, 2, "b3 b2")  # lesson 2: only c2, b3, c4, d3 step, to c3
    said = lesson_answer_text(tried, "en")
    assert not tried.solved and said.startswith("📘 Lesson 2\nb2 is occupied by"), said  # the lesson's header first
    assert "you can step to c3" in said, said


async def test_a_new_puzzle_is_never_the_puzzle_of_the_day(env: Env) -> None:
    """A CI run (stop 39): a puzzle asked for with ``new`` happened to be today's, and its
    answer came headed "Puzzle of the day". A new one is another puzzle."""
    puzzles = Puzzles(env.storage, env.clock, None, load_bank())
    met = 0
    for guild in range(1, 100):  # each guild has its own puzzle of the day
        today = puzzles.daily(guild)[0]
        if today.size != 5:
            continue  # a beginner's new puzzles are 5x5 standard ones: nothing to check there
        met += 1
        for user in range(300, 306):
            assert (await puzzles.show(guild, user, f"u{user}", new=True)).puzzle_id != today.id
    assert met >= 5


async def test_new_puzzles_vary_start_standard_5x5_and_never_repeat_at_once(env: Env) -> None:
    puzzles = Puzzles(env.storage, env.clock, None, load_bank())
    firsts = set()
    for user in range(200, 212):
        shown = [(await puzzles.show(GUILD, user, f"u{user}", new=True)).puzzle_id for _ in range(4)]
        assert all(a != b for a, b in pairwise(shown))  # never the same puzzle twice in a row
        for pid in shown:
            p = puzzles.by_id(pid)
            assert p is not None and (p.variant, p.size) == ("standard", 5)  # a beginner's rules
        firsts.add(shown[0])
    assert len(firsts) >= 6  # players get different puzzles, not the alphabetically first ones


async def test_the_daily_puzzle_comes_from_the_standard_puzzles(env: Env) -> None:
    puzzles = Puzzles(env.storage, env.clock, None, load_bank())
    variants = set()
    for _ in range(20):
        puzzle, _day = puzzles.daily(GUILD)
        variants.add(puzzle.variant)
        env.clock.advance(86_400)
    assert variants == {"standard"}


def test_a_first_answer_moves_the_rating_by_at_most_the_cap() -> None:
    new = PuzzleRatingRow(GUILD, ALICE, "Alice")
    missed = rate_answer(new, 1100.0, solved=False)  # an easy puzzle missed
    assert new.rating - MAX_SWING <= missed.rating < new.rating and missed.rd < new.rd
    solved = rate_answer(new, 1900.0, solved=True)  # a hard one solved
    assert new.rating < solved.rating <= new.rating + MAX_SWING
    settled = replace(new, rd=60.0)
    assert 0 < settled.rating - rate_answer(settled, 1100.0, solved=False).rating < MAX_SWING / 2  # cap unused


def _a_wrong_turn(puzzle: Puzzle) -> str:
    return " ".join(check(puzzle).other)


# ---------------------------------------------------------------------------- lessons and charts


async def test_the_tutorial_lesson_by_lesson_with_wrong_tries(env: Env) -> None:
    first = await env.coach.lessons.show(ALICE)
    assert first.number == 1 and first.total == 8 and not first.done and first.image is not None
    wrong = await env.coach.lessons.answer(ALICE, 1, "c3 c2")
    assert not wrong.solved and wrong.key == "coach.learn.placement.illegal" and wrong.next_number is None
    for number, item in enumerate(LESSONS, 1):
        view = await env.coach.lessons.show(ALICE)
        assert view.number == number and view.done_count == number - 1
        got = await env.coach.lessons.answer(ALICE, number, item.model)
        assert got.solved and got.key == f"coach.learn.{item.id}.done"
        assert got.next_number == (number + 1 if number < 8 else None)
    assert (await env.coach.lessons.show(ALICE)).done_count == 8
    assert (await env.coach.lessons.show(BOB)).done_count == 0  # progress is per user
    with pytest.raises(BadInputError):
        await env.coach.lessons.show(ALICE, 9)
    chain = await env.coach.lessons.answer(BOB, 5, "c1 c2")
    assert chain.key == "coach.learn.chain.more" and lesson("chain").id == chain.lesson_id


async def test_an_unfinished_answer_is_continued_by_the_next_try_of_that_lesson(env: Env) -> None:
    """Play-test finding: "learn answer:c1 c2" was told the piece can capture again, and
    "learn answer:c2 d2" was then refused as a step outside the chain: the first capture
    was forgotten (only /move continued it). Now any try in the channel continues it;
    the whole chain typed again still counts, and another lesson's try starts afresh."""
    lessons, channel = env.coach.lessons, 70
    begun = await lessons.answer(BOB, 5, "c1 c2", channel)
    assert begun.key == "coach.learn.chain.more"
    done = await lessons.answer(BOB, 5, "c2 d2", channel)
    assert done.solved and done.key == "coach.learn.chain.done"
    await lessons.answer(BOB, 5, "c1 c2", channel)
    assert (await lessons.answer(BOB, 5, "c1 c2 d2", channel)).solved  # the whole chain again
    assert (await lessons.answer(BOB, 1, "c2", channel)).key == "coach.learn.incomplete"
    assert (await lessons.answer(BOB, 1, "a1", channel)).key == "coach.learn.placement.wrong_one"  # c2 a1
    await lessons.answer(BOB, 1, "c2", channel)
    assert (await lessons.answer(BOB, 1, "c4", channel)).solved  # c2 then c4: the pair
    await lessons.answer(BOB, 5, "c1 c2", channel)
    assert (await lessons.answer(BOB, 3, "d2 c2", channel)).solved  # lesson 3 on its own position
    assert (await lessons.answer(BOB, 5, "c2 d2", 71)).key == "coach.learn.chain.illegal"  # another channel
    assert (await lessons.answer(BOB, 5, "c2 d2")).key == "coach.learn.chain.illegal"  # no channel: no memory


async def test_a_lesson_answer_reads_the_same_by_solve_and_by_move_with_one_tick(env: Env) -> None:
    """Play-test (Arabic): lessons 3 and 4 answered "✅ ✅ أسرتَ القطعة في b2..." (the
    locale's words had a tick of their own), and ``/seega solve`` put a "📘 Lesson 3" header
    over the answer that ``/move``'s lacked. Now one tick, and the same header on both."""
    from bot.coach_messages import solve_text

    for locale in ("en", "ar"):
        for number, item in enumerate(LESSONS, 1):
            for answer in (item.model, "zz"):
                got = await env.coach.lessons.answer(103, number, answer)
                by_move, by_solve = lesson_answer_text(got, locale), solve_text(got, locale)
                assert by_move == by_solve, (locale, item.id, by_move, by_solve)
                assert by_move.startswith(t(locale, "coach.solve.lesson", number=number)), by_move
                assert by_move.count("✅") == (1 if got.solved else 0), (locale, item.id, by_move)


async def test_a_refused_step_inside_the_chain_keeps_the_first_capture(env: Env) -> None:
    """Play-test: lesson 5's "c1 c2" then a wrong "c2 c3" was answered "from c2 you can
    step to d2. Nothing was counted", and "c2 d2" then got "c2 is empty": the board had
    gone back to the start. A refused try inside the chain now keeps the chain where it
    was, as the answer says (Discord and the console both answer through here)."""
    lessons, channel = env.coach.lessons, 72
    assert (await lessons.answer(BOB, 5, "c1 c2", channel)).key == "coach.learn.chain.more"
    wrong = await lessons.answer(BOB, 5, "c2 c3", channel)
    assert not wrong.solved and wrong.refusal is not None
    assert "d2" in lesson_answer_text(wrong, "en") and "Nothing was counted" in lesson_answer_text(wrong, "en")
    unread = await lessons.answer(BOB, 5, "c2 zz", channel)  # unreadable: nothing counted either
    assert unread.key == "coach.answer.unreadable"
    done = await lessons.answer(BOB, 5, "c2 d2", channel)
    assert done.solved and done.key == "coach.learn.chain.done", done
    # a complete wrong turn (stopped after one) still starts again, as its answer says
    await lessons.answer(BOB, 5, "c1 c2", channel)
    assert (await lessons.answer(BOB, 5, "end", channel)).key == "coach.learn.chain.wrong"
    assert (await lessons.answer(BOB, 5, "c2 d2", channel)).refusal is not None  # c2 is empty again


async def test_the_open_exercises_are_bounded_and_a_solved_one_still_closes(env: Env) -> None:
    """The lessons open in each (user, channel) and their unfinished tries were kept in
    plain dicts for the life of the process, then in memory; stored now (migration 015),
    one row per user and channel, each user's newest ``LESSON_ROWS_PER_USER`` only, and
    rows idle for ``LESSON_ROW_DAYS`` days are not read and go at the next write. A
    forgotten one costs the user a ``/seega learn`` before ``/move`` answers it again."""
    from bot.storage.coach import LESSON_ROW_DAYS, LESSON_ROWS_PER_USER

    lessons, keep = env.coach.lessons, LESSON_ROWS_PER_USER
    assert 5 <= keep <= 100
    channels = range(100, 106 + keep)
    for channel in channels:
        await lessons.show(BOB, 5, channel)
        await lessons.answer(BOB, 5, "c1 c2", channel)  # a chain begun: an unfinished try
        env.clock.advance(1)
    await lessons.show(ALICE, 2, 100)  # another user's rows are their own
    rows = await _open_lesson_rows(env)
    assert sorted(c for u, c in rows if u == BOB) == list(channels[-keep:]) and (ALICE, 100) in rows
    assert await lessons.active(BOB, 100) is None and await lessons.active(BOB, channels[-1]) == 5
    assert (await lessons.answer(BOB, 5, "c2 d2", channels[-1])).solved  # continued, and closed everywhere
    assert [await lessons.active(BOB, c) for c in channels] == [None] * len(channels)
    assert await lessons.active(ALICE, 100) == 2
    # the solved lesson's open exercises are gone; the unfinished tries stay until replaced
    assert all(c != channels[-1] for u, c in await _open_lesson_rows(env) if u == BOB)
    env.clock.advance(LESSON_ROW_DAYS * 86_400 + 1)
    assert await lessons.active(ALICE, 100) is None  # idle too long: not read
    await lessons.show(BOB, 1, 7)  # any write drops everyone's idle rows
    assert await _open_lesson_rows(env) == {(BOB, 7)}


async def test_an_unfinished_try_stores_the_played_actions_never_the_typed_text(env: Env) -> None:
    """An answer is typed by anyone: a huge or hostile one is not stored. Only the actions
    played (a few cells of one turn) are kept, and the storage refuses a longer try."""
    from bot.storage.coach import MAX_TRY_TEXT
    from tests.hostile_text import hostile_strings

    lessons, channel = env.coach.lessons, 80
    await lessons.show(BOB, 5, channel)
    for text in ["c1 c2 " + "zz " * 50_000, "c1 c2 " + "\u202e" * 10_000, *hostile_strings()]:
        await lessons.answer(BOB, 5, text, channel)
        stored = await env.storage.lesson_exercise(BOB, channel, env.clock.now())
        assert stored is not None and stored.lesson == 5
        assert stored.tried is None or stored.tried == (5, "c1-c2"), stored
    assert (await lessons.answer(BOB, 5, "c1 c2" + " " * 100_000, channel)).key == "coach.learn.chain.more"
    stored = await env.storage.lesson_exercise(BOB, channel, env.clock.now())
    assert stored is not None and stored.tried == (5, "c1-c2")
    with pytest.raises(ValueError):
        await env.storage.save_lesson_try(BOB, channel, (5, "c1-c2 " * MAX_TRY_TEXT), env.clock.now())
    stored = await env.storage.lesson_exercise(BOB, channel, env.clock.now())
    assert stored is not None and stored.tried == (5, "c1-c2")  # unchanged


async def _open_lesson_rows(env: Env) -> set[tuple[int, int]]:
    rows = await env.storage._fetchall("SELECT user_id, channel_id FROM coach_open_lessons")
    return {(int(r[0]), int(r[1])) for r in rows}


async def test_an_open_exercise_and_an_unfinished_try_survive_a_restart(db_path: Db) -> None:
    """ "The bot restarts mid-game: nothing is lost". The open exercises and unfinished
    tries lived in the process's memory: after a restart a player half-way through lesson
    5's chain typed ``/move c2 d2`` and was told there is no game here. They are stored
    now (migration 015): a new service over the same database (a restarted bot, or
    another shard's process) still answers the exercise and goes on from the first capture."""
    clock = FakeClock()
    first = await make_service(db_path, clock)
    try:
        lessons = first.coach.lessons
        await lessons.show(BOB, 5, 73)
        assert (await first.lesson_try(73, BOB, "c1 c2")) is not None  # the chain's first capture
        await lessons.show(BOB, 1, 74)
        placed = await first.lesson_try(74, BOB, "c2")  # the pair's first cell
        assert placed is not None and placed.key == "coach.learn.incomplete"
        await lessons.show(BOB, 3, 75)  # opened, nothing tried yet
    finally:
        await close_service(first)
    again = await make_service(db_path, clock)  # the restarted bot
    try:
        chain = await again.lesson_try(73, BOB, "c2 d2")
        assert chain is not None and chain.solved and chain.key == "coach.learn.chain.done", chain
        pair = await again.lesson_try(74, BOB, "c4")
        assert pair is not None and pair.solved, pair
        capture = await again.lesson_try(75, BOB, "d2 c2")
        assert capture is not None and capture.solved, capture
        assert await again.lesson_try(73, BOB, "c1 c2") is None  # solved: closed, stored too
        assert await again.lesson_try(76, BOB, "c1 c2") is None  # never opened there
    finally:
        await close_service(again)


async def test_the_rating_history_chart(env: Env) -> None:
    assert await env.coach.rating_chart(GUILD, ALICE, "Alice") is None
    for channel in (20, 21, 22):
        await finish(env, await insert(env, channel, SPN, None, "c2-c3"), rated=True)
    png = await env.coach.rating_chart(GUILD, ALICE, "Alice")
    assert png is not None and Image.open(io.BytesIO(png)).size == (900, 460)


async def test_analyses_run_in_the_ai_worker_processes() -> None:
    """The production path: the AI runner's process pool runs the coach's jobs too, and a
    node-bounded analysis there equals the one made here."""
    runner = ProcessPoolAiRunner(1)
    try:
        work = work_for(runner)
        job = AnalysisJob("standard", 5, (), SPN, (), 3000)
        assert await work.run(run_job, job) == run_job(job)
        advice = await work.run(advise_job, job)
        assert advice.actions == ("c2-c3",)
    finally:
        runner.close()


def test_a_hint_that_stops_a_chain_says_how_instead_of_end() -> None:
    """Newcomer play-test: "play f4-e4, end" — "end" is nothing people type."""
    from bot.service.coach_results import HintResult

    stop = HintResult(1, ("f4-e4", "end"), (), 1, 3, 0.5)
    assert "play **f4-e4, then end your turn with /seega end-turn**" in hint_text(stop, "en")
    assert "‎/seega end-turn" in hint_text(stop, "ar")
    whole = HintResult(1, ("f4-e4", "e4-e3"), (), 1, 3, 0.5)
    assert "play **f4-e4, e4-e3**" in hint_text(whole, "en")


def test_a_reason_the_bot_has_no_words_for_is_left_out_not_shown_as_a_key() -> None:
    """AI workers may run a newer engine than the bot during an upgrade: the console
    showed "play b1, a2: coach.reason.edge" when the worker knew a reason the bot did not."""
    from bot.coach_messages import hint_text
    from bot.service.coach_results import HintResult

    newer = HintResult(1, ("b1", "a2"), (("from_the_future", {}), ("corner", {"cells": "a1"})), 1, 3, 0.5)
    for locale in ("en", "ar"):
        line = hint_text(newer, locale)
        assert "coach.reason" not in line and "from_the_future" not in line
        assert t(locale, "coach.reason.corner", cells="a1") in line
    only_new = HintResult(1, ("b1", "a2"), (("from_the_future", {}),), 1, 3, 0.5)
    assert t("en", "coach.reason.steady") in hint_text(only_new, "en")


def test_the_coach_promises_nothing_the_next_turn_can_break() -> None:
    """Fresh-eyes play-test (stop 35): a hint with no particular reason said "keeps your
    pieces safe and mobile", and the bot's reply captured; "your chances are about 6%"
    did not say of what; lesson 1's "well placed" next to the centre preceded a game in
    which the opponent's first step took five of those pieces."""
    from bot.coach_messages import hint_text
    from bot.service.coach_results import HintResult

    plain = HintResult(1, ("b1-a1",), (), 1, 3, 0.06)
    for locale in ("en", "ar"):
        assert t(locale, "coach.reason.steady") in hint_text(plain, locale)
    assert "safe" not in hint_text(plain, "en") and "آمنة" not in hint_text(plain, "ar")
    assert "your chances of winning at about 6% (a draw counts half)" in hint_text(plain, "en")
    assert "first step into the centre can capture" in t("en", "coach.learn.placement.done")
    assert "قد تأسر" in t("ar", "coach.learn.placement.done")


def test_the_chain_lesson_names_the_command_as_well_as_the_button() -> None:
    """Fresh-eyes play-test (stop 35): lesson 5 said "stop the chain with End turn", a
    Discord button the console does not have; its command is /seega end-turn."""
    for locale in ("en", "ar"):
        assert "/seega end-turn" in t(locale, "coach.learn.chain.text")
        assert t(locale, "button.end_turn") in t(locale, "coach.learn.chain.text")


def test_an_arabic_hint_joins_its_cells_and_reasons_with_the_arabic_marks() -> None:
    """Console play-test: "العب b3-c3: النقلة الوحيدة المسموحة; تهدّد b2; تحتل المركز", English
    semicolons between Arabic clauses (and English commas between a chain's steps)."""
    from bot.service.coach_results import HintResult

    reasons = (("captures", {"n": "1", "cells": "c2"}), ("threatens", {"cells": "b2"}), ("centre", {}))
    got = HintResult(8, ("d3-c3", "c3-c2"), reasons, 1, 3, 0.6)
    arabic = hint_text(got, "ar")
    assert "d3-c3،\u200f c3-c2" in arabic and arabic.count("؛ ") == 2
    assert ";" not in arabic and ", " not in arabic
    english = hint_text(got, "en")
    assert "d3-c3, c3-c2" in english and english.count("; ") == 2


def test_an_arabic_hint_names_a_pair_in_one_order_and_keeps_and_off_the_cell() -> None:
    """Native play-test: "العب a4،‏ b1: تضع b1 وa4" named the cells in two orders and
    glued "و" to a Latin cell; the reason lists them as the turn does, "a4 و b1"."""
    from bot.service.coach_results import HintResult

    got = HintResult(8, ("a4", "b1"), (("edge", {"cells": "b1 a4"}),), 1, 3, 0.5)
    arabic = hint_text(got, "ar")
    assert t("ar", "coach.reason.edge", cells="a4 و b1") in arabic, arabic
    assert "وa4" not in arabic and "وb1" not in arabic
    assert t("en", "coach.reason.edge", cells="a4 and b1") in hint_text(got, "en")
    # Arabic words keep the conjunction joined, as Arabic writes it
    from bot.texts import join

    assert join("ar", ["أحمد", "علي"], "and") == "أحمد وعلي"


async def test_a_key_moment_names_the_capture_the_opponent_played(env: Env) -> None:
    """Newcomer play-test (a game lost 0 to 12, turn 29): after c3-d3 the bot took three
    pieces with b1-a1, a1-a2, a2-b2, yet the key moment gave no reason: it read only the
    engine's answer, a quiet step that wins by force. The turn the opponent played is read
    too, and the moment (a mistake or worse once material counts: the win chance was
    already 6%) names the whole chain."""
    lost = "b1b2/1b1b1/bww2/wwbbb/1b1bw w m 0/0 - 0 29"
    gid = await insert(env, 8, lost, None, "c3-d3 b1-a1 a1-a2 a2-b2")
    await finish(env, gid)
    env.coach.reviews.nodes = 4000  # the 3000 of these tests sees c3-d3 as fine
    got = await env.coach.reviews.review(GUILD, 8)
    assert got.moments and got.moments[0].number == 29 and got.moments[0].label in ("mistake", "blunder")
    assert got.review.turns[1].best != got.review.turns[1].played  # the engine's answer was another turn
    assert got.moments[0].played_why == (
        ("allows_capture", {"n": "3", "cells": "a2 b2 b3", "reply": "b1-a1 a1-a2 a2-b2"}),
    )
    text = review_text(got, "en")
    assert "played c3-d3 (lets Alice capture a2, b2 and b3 with b1-a1 a1-a2 a2-b2)" in text


async def test_a_review_stored_by_an_earlier_judgement_is_computed_again(env: Env) -> None:
    """The newcomer asked again for the review of the game lost 0 to 12 and read the
    stored one, without the material floor. A review stored without the current
    judgement's version is computed again once, then answered from the table."""
    gid = await insert(env, 9, SPN, None, "c2-b2 b3-c3 a5-b5")
    await finish(env, gid)
    got = await env.coach.reviews.review(GUILD, 9)
    old = got.review.to_dict()
    del old["version"]
    old["accuracy"] = [1.0, 1.0]
    await env.storage.save_coach_review(gid, env.coach.reviews.nodes, json.dumps(old), env.clock.now())
    again = await env.coach.reviews.review(GUILD, 9)
    assert not again.cached and again.review == got.review
    stored = await env.storage.coach_review(gid)
    assert stored is not None and json.loads(stored[1])["version"] == REVIEW_VERSION
    assert (await env.coach.reviews.review(GUILD, 9)).cached


async def test_a_hint_to_stop_the_chain_says_how_and_draws_no_legend(env: Env) -> None:
    """Native re-check (stop 36): a hint to stop a chain read "play end" ("العب end"), and
    its picture, with nothing drawn in green, still had the legend "suggested"."""
    from bot.service.coach_results import HintResult
    from engine.actions import END_ACTION

    stop = HintResult(1, ("end",), (), 1, 3, 0.4, b"png")
    text = hint_text(stop, "en")
    assert "play **/seega end-turn (stop the chain here)**" in text and "**end**" not in text
    assert "drawn in green" not in text and "العب **‎/seega end-turn" in hint_text(stop, "ar")
    pos = Position.from_spn(SPN, RULES)
    image = await env.coach.hints._picture(pos, [END_ACTION], ("A", "B"), wording("en"), None)
    assert image is not None and Image.open(io.BytesIO(image)).height == 900  # no legend strip under it


async def test_the_same_hint_asked_twice_at_once_counts_once_and_a_dead_worker_counts_none(env: Env) -> None:
    """Hostile review of stop 36's repeated hint: two requests at once for the same
    position count one hint (the position check and the insert are one transaction);
    a worker that dies while thinking counts none; another person gets no hint of Alice's."""
    gid = await insert(env, 12, None, "easy")
    first, second = await asyncio.gather(env.coach.hints.hint(GUILD, 12, ALICE), env.coach.hints.hint(GUILD, 12, ALICE))
    assert first.actions == second.actions and {first.used, second.used} == {1}
    assert await env.storage.hint_counts([gid]) == {gid: 1}
    real = env.coach.hints.work

    class Dying:
        async def run(self, fn: Any, arg: Any) -> Any:
            raise RuntimeError("the worker process died")

    row = await env.storage.game(gid)
    assert row is not None
    pos = Position.from_spn(row.spn, RULES)
    played = [*first.actions, *[c for c in ("a1", "a2", "a3", "a4") if c not in first.actions][:2]]
    for action in played:
        pos.play(action)
    assert await env.storage.update_game(GameUpdate(row.id, row.version, " ".join(played), pos.spn(), env.clock.now()))
    env.coach.hints.work = Dying()  # type: ignore[assignment]
    with pytest.raises(RuntimeError):
        await env.coach.hints.hint(GUILD, 12, ALICE)
    assert await env.storage.hint_counts([gid]) == {gid: 1}, "a hint nobody got is not counted"
    env.coach.hints.work = real
    assert (await env.coach.hints.hint(GUILD, 12, ALICE)).used == 2
    with pytest.raises(NotAPlayerError):
        await env.coach.hints.hint(GUILD, 12, BOB)


async def test_a_hint_asked_again_later_is_not_searched_again(env: Env) -> None:
    """A hint asked again at the same position after its search finished (a second look,
    the next of three quick asks) ran the whole search again (helper review, stop 38):
    the node-limited search gives the same advice, so it is kept."""
    game_id = await insert(env, 53, None, "easy")
    real = env.coach.hints.work
    searches: list[tuple[str, ...]] = []

    class Counted:
        async def run(self, fn: Any, arg: Any) -> Any:
            searches.append(arg.actions)
            return await real.run(fn, arg)

    class Killed:
        async def run(self, fn: Any, arg: Any) -> Any:
            searches.append(arg.actions)
            raise BrokenProcessPool("a worker was killed")

    # A worker killed in the search: the asker is refused, nothing is kept or counted,
    # and the next ask searches again (a failure is never served from the cache).
    env.coach.hints.work = Killed()  # type: ignore[assignment]
    with pytest.raises(BrokenProcessPool, match="a worker was killed"):
        await env.coach.hints.hint(GUILD, 53, ALICE)
    assert env.coach.hints._running == {} and env.coach.hints._done == {}
    assert await env.storage.hint_counts([game_id]) == {}
    env.coach.hints.work = Counted()  # type: ignore[assignment]
    first = await env.coach.hints.hint(GUILD, 53, ALICE)
    again = await env.coach.hints.hint(GUILD, 53, ALICE)
    assert len(searches) == 2 and again.actions == first.actions and again.again
    assert await env.storage.hint_counts([game_id]) == {game_id: 1}


async def test_one_persons_hints_sent_at_once_run_one_search_at_a_time(env: Env) -> None:
    """Measured (bench/flood.py): fifty /seega hint at once from one member ran fifty
    searches of one position in the coach's one slot of the AI workers, and another
    member's hint waited 3.5 s behind them instead of 0.4 s. Now the same position's hint
    asked again while its search runs waits for that search; her hint in another game
    waits for her running one outside the coach's line; Bob's hint is not held up."""
    first_game = await insert(env, 50, None, "easy")
    await insert(env, 51, None, "easy")
    await insert(env, 52, None, "easy", black_name="Bob", black=BOB)
    gate = asyncio.Event()
    real = env.coach.hints.work
    searches: list[tuple[str, ...]] = []

    class Held:
        async def run(self, fn: Any, arg: Any) -> Any:
            searches.append(arg.actions)
            await gate.wait()
            return await real.run(fn, arg)

    env.coach.hints.work = Held()  # type: ignore[assignment]
    asked: list[int] = []
    taken_at = env.storage.hint_taken_at  # read just before the search

    async def counted(game_id: int, user_id: int, ply: int) -> Any:
        asked.append(user_id)
        return await taken_at(game_id, user_id, ply)

    env.storage.hint_taken_at = counted  # type: ignore[method-assign]

    async def until(done: Any) -> None:
        for _ in range(500):  # each request reads the database first (PostgreSQL under load: slow)
            if done():
                return
            await asyncio.sleep(0.01)

    try:
        flood = [asyncio.ensure_future(env.coach.hints.hint(GUILD, 50, ALICE)) for _ in range(20)]
        elsewhere = asyncio.ensure_future(env.coach.hints.hint(GUILD, 51, ALICE))
        await until(lambda: len(asked) == 21)
        await asyncio.sleep(0.05)
        assert len(searches) == 1, f"{len(searches)} searches started by one member's hints at once"
        bobs = asyncio.ensure_future(env.coach.hints.hint(GUILD, 52, BOB))
        await until(lambda: len(searches) == 2)
        assert len(searches) == 2, "another member's hint is not held behind hers"
    finally:
        gate.set()  # a failed check must not leave searches waiting for ever
    done = await asyncio.gather(*flood, elsewhere, bobs)
    assert len(searches) == 3 and len({r.actions for r in done[:20]}) == 1
    assert await env.storage.hint_counts([first_game]) == {first_game: 1}
    assert env.coach.hints._running == {}, "nothing is kept once the searches are done"


#: Game #1 of the Discord play-test database (Alice vs Bob, 5x5 standard): Alice's turn 9,
#: d3 c4, let Bob's c2-c3 take three pieces once the moves began, and c3-b3 a fourth.
PLACED_BLUNDER = (
    "a4 a5 d4 b1 d2 b3 c2 a2 e4 b2 c5 e3 a1 b5 e1 c1 d3 c4 e5 b4 d1 e2 d5 a3 "
    "c2-c3 c3-b3 d2-c2 b3-c3 d1-d2 c1-d1 d2-d3 d1-d2 pass b4-b3"
)


async def test_a_placement_blunder_names_what_it_let_the_opponent_capture(env: Env) -> None:
    """Fresh-eyes play-test (Discord, game #1): the review listed five placement turns as
    key moments, turn 9 (d3 c4) a blunder, and said of none what it allowed: a placement's
    reply is a placement, which takes nothing. The line the review's own search expects
    after the turn (Bob's best placements, Alice's, then the moves) has c2-c3 taking b3, d3
    and c4 and the chain going on: the moment names those captures and that line's steps.
    A placement mistake whose line takes nothing (turn 8: Alice is blocked and passes)
    keeps the fallback: the chances, and what the better turn does."""
    gid = await insert(env, 11, None, None, PLACED_BLUNDER)
    await finish(env, gid)
    env.coach.reviews.nodes = 8000  # the bot's budget (REVIEW_NODES), as in the play-test
    got = await env.coach.reviews.review(GUILD, 11)
    moments = {m.number: m for m in got.moments}
    blunder = moments[9]
    assert blunder.label == "blunder" and blunder.played == ("d3", "c4")
    assert got.review.turns[blunder.index].line[:8] == ("d5", "a3", "e5", "b4", "e2", "d1", "c2-c3", "c3-c2")
    ((key, params),) = blunder.played_why
    assert key == "allows_capture_moves" and params["reply"] == "c2-c3 c3-c2"
    assert {"b3", "d3", "c4"} <= set(params["cells"].split()) and params["n"] == str(len(params["cells"].split()))
    text = review_text(got, "en")
    assert "played d3, c4 (lets Bob capture b2, d2, b3, d3 and c4 once the moves begin, with c2-c3 c3-c2)" in text
    said_to_bob = review_text(got, "en", you=1)
    assert "(lets you capture b2, d2, b3, d3 and c4 once the moves begin, with c2-c3 c3-c2)" in said_to_bob
    arabic = review_text(got, "ar")
    assert "حين تبدأ النقلات، بالنقلة c2-c3\u200f c3-c2" in arabic and "once the moves" not in arabic
    # Turn 8 (Bob, e1 c1): a mistake whose line takes nothing of Bob's: the fallback.
    quiet = moments[8]
    assert quiet.label == "mistake" and got.review.turns[quiet.index].line and quiet.played_why == ()
    assert "played e1, c1 (the chances fall from" in text
    assert "better b4, d1 (places d1 on the edge" in text


def _off_the_loop(seen: list[bool], fn: Any) -> Any:
    """``fn``, recording at each call whether it ran outside the event loop's thread."""

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        try:
            asyncio.get_running_loop()
            seen.append(False)
        except RuntimeError:
            seen.append(True)
        return fn(*args, **kwargs)

    return wrapped


async def test_judging_an_answer_and_a_moments_reasons_run_off_the_event_loop(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both read the board without a search, but their walks are bounded per walk, not in
    all: a wrong answer to a 7x7 puzzle took 0.18 s, a 9x9 chain=any key moment's reasons
    0.3 s, and each ``/seega solve`` or ``/seega review`` (no cooldown) froze every server's
    games that long. They run in a thread, as the pictures do."""
    import bot.service.coach_puzzles as coach_puzzles
    import bot.service.coach_reviews as coach_reviews

    judged: list[bool] = []
    reasons: list[bool] = []
    monkeypatch.setattr(coach_puzzles, "judge", _off_the_loop(judged, coach_puzzles.judge))
    monkeypatch.setattr(coach_reviews, "moment_reasons", _off_the_loop(reasons, coach_reviews.moment_reasons))
    await env.coach.solve(GUILD, ALICE, "Alice", "b2 c2")
    gid = await insert(env, 5, SPN, None, "c2-b2 b3-c3 a5-b5")
    await finish(env, gid)
    got = await env.coach.reviews.review(GUILD, 5)
    assert got.moments and judged == [True] and reasons and all(reasons)


#: A real failure of the database in the hints' update (a trigger), for a write that
#: would otherwise succeed; each backend's own form.
FAIL_HINT_UPDATES = {
    "sqlite": ["CREATE TRIGGER fail_hints BEFORE UPDATE ON coach_hints BEGIN SELECT RAISE(ABORT, 'injected'); END"],
    "postgresql": [
        "CREATE FUNCTION fail_hints() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected'; END $$",
        "CREATE TRIGGER fail_hints BEFORE UPDATE ON coach_hints FOR EACH ROW EXECUTE FUNCTION fail_hints()",
    ],
}


async def test_a_takeback_and_its_hints_are_stored_together_or_not_at_all(db_path: Db) -> None:
    """A takeback unmarked the hints past it in a second write, after the game's: a
    failure between the two left the game taken back and its hints still marked as paid
    for (the next hint at that ply was free). Both are one transaction now: when the
    hints' update fails, the game is not taken back either; when it works, both are done."""
    backend = "sqlite" if isinstance(db_path, Path) else "postgresql"
    service = await make_service(db_path)
    try:
        await service.play_bot(GUILD, 7, ALICE_PLAYER, "easy", 5, "standard", "black")
        await service.place(7, ALICE_PLAYER.user_id, "a1", "b1")  # and the bot's reply
        await service.coach.hints.hint(GUILD, 7, ALICE_PLAYER.user_id)
        before = query(db_path, "SELECT actions, version FROM games")
        played = len(before[0][0].split())
        assert played == 4 and query(db_path, "SELECT ply FROM coach_hints") == [(played,)]
        for sql in FAIL_HINT_UPDATES[backend]:
            execute(db_path, sql)
        with pytest.raises(Exception, match="injected"):
            await service.takeback(7, ALICE_PLAYER.user_id)
        assert query(db_path, "SELECT actions, version FROM games") == before, "the game was taken back alone"
        assert query(db_path, "SELECT ply FROM coach_hints") == [(played,)]
        execute(db_path, "DROP TRIGGER fail_hints" + (" ON coach_hints" if backend == "postgresql" else ""))
        await service.takeback(7, ALICE_PLAYER.user_id)
        assert query(db_path, "SELECT actions, version FROM games") == [("", before[0][1] + 1)]
        assert query(db_path, "SELECT ply FROM coach_hints") == [(None,)], "the hint past the takeback is unmarked"
    finally:
        await close_service(service)


async def test_a_hint_after_a_takeback_and_another_turn_is_counted(db_path: Db) -> None:
    """Outside review (stop 38): "asked again at the same position" was decided by the
    number of actions played, so after a takeback and a different turn the new
    position's hint was taken as a repeat: every hint after the first was free."""
    service = await make_service(db_path)
    try:
        await service.play_bot(GUILD, 7, ALICE_PLAYER, "easy", 5, "standard", "black")
        await service.place(7, ALICE_PLAYER.user_id, "a1", "b1")
        hints = service.coach.hints
        used = [(await hints.hint(GUILD, 7, ALICE_PLAYER.user_id)).used]
        for cells in (("e5", "d5"), ("a5", "b5")):
            await service.takeback(7, ALICE_PLAYER.user_id)
            await service.place(7, ALICE_PLAYER.user_id, *cells)
            used.append((await hints.hint(GUILD, 7, ALICE_PLAYER.user_id)).used)
        assert used == [1, 2, 3]
        again = await hints.hint(GUILD, 7, ALICE_PLAYER.user_id)
        assert again.again and again.used == 3, "the same position asked again is still free"
    finally:
        await close_service(service)


async def test_a_cancelled_games_half_turn_is_not_reviewed_as_a_turn(env: Env) -> None:
    """Outside review (stop 39): a game cancelled after the first cell of a pair was
    reviewed as one whole turn ("a1", best, a clean game). The half turn is left out, and
    a game with nothing else is refused."""
    half = await insert(env, 62, None, None, "a1")
    await cancel_row(env, half)
    with pytest.raises(BadInputError) as err:
        await env.coach.reviews.review(GUILD, 62, half)
    assert err.value.key == "coach_review_cancelled"
    more = await insert(env, 63, None, None, "a1 b2 c1")  # a whole turn, then half of the next
    await cancel_row(env, more)
    got = await env.coach.reviews.review(GUILD, 63, more)
    assert [v.played for v in got.review.turns] == [("a1", "b2")]


async def test_a_hint_searched_across_a_takeback_counts_nothing(db_path: Db) -> None:
    """Outside review (stop 39): a hint was asked, and while it was searched its asker took
    the turn back; the hint was then marked at the old position's ply, which the takeback
    had just unmarked, so the next different position at that ply read as a repeat and
    was free. The hint is stored only if the game is still where it was asked."""
    service = await make_service(db_path)
    try:
        alice = ALICE_PLAYER.user_id
        await service.play_bot(GUILD, 7, ALICE_PLAYER, "easy", 5, "standard", "black")
        await service.place(7, alice, "a1", "b1")
        hints = service.coach.hints
        search = hints._advice
        gate = asyncio.Event()

        async def slow(row: Any, user_id: int) -> Any:  # a search that takes a while
            advice = await search(row, user_id)
            await gate.wait()
            return advice

        hints._advice = slow  # type: ignore[method-assign]
        asked = asyncio.ensure_future(hints.hint(GUILD, 7, alice))
        await asyncio.sleep(0.3)
        await service.takeback(7, alice)
        gate.set()
        with pytest.raises(BadInputError) as err:
            await asked
        assert err.value.key == "coach_hint_moved_on"
        hints._advice = search  # type: ignore[method-assign]
        assert query(db_path, "SELECT COUNT(*) FROM coach_hints") == [(0,)], "nothing counted"
        await service.place(7, alice, "e5", "d5")  # another position at the same ply
        fresh = await hints.hint(GUILD, 7, alice)
        assert fresh.used == 1 and not fresh.again
    finally:
        await close_service(service)


async def cancel_row(env: Env, game_id: int) -> None:
    """End a game as ``/seega cancel`` does: status cancelled, result ``*``, unrated."""
    row = await env.storage.game(game_id)
    assert row is not None
    now = env.clock.now()
    update = GameUpdate(game_id, row.version, row.actions, row.spn, now, "cancelled", "*", "abandoned", now)
    applied, _ = await env.storage.finish_game(update, None, None)
    assert applied


async def test_a_cancelled_game_with_turns_played_is_reviewed(env: Env) -> None:
    """Play-test: the review of a cancelled game answered "it ended unrated, so there is
    nothing to review" (unrated bot games are reviewed), and plain ``/seega review`` picked
    a cancelled game. A cancelled game with turns is reviewed and says it was cancelled;
    one cancelled before any turn is not, and the default passes over it."""
    played = await insert(env, 61, SPN, None, "c2-b2 b3-c3")
    await cancel_row(env, played)
    got = await env.coach.reviews.review(GUILD, 61, played)
    assert got.game_id == played and got.cancelled and len(got.review.turns) == 2
    assert "cancelled" in review_text(got, "en").splitlines()[0]
    assert "coach.review" not in review_text(got, "ar")
    empty = await insert(env, 61, None, None)
    await cancel_row(env, empty)
    assert await env.coach.reviews.check(GUILD, 61) == played  # the last game that can be reviewed
    with pytest.raises(BadInputError) as refused:
        await env.coach.reviews.check(GUILD, 61, empty)
    assert refused.value.key == "coach_review_cancelled" and "before a whole turn" in refused.value.message
    finished = await insert(env, 62, SPN, None, "c2-b2")
    await finish(env, finished)
    await insert(env, 62, None, None)  # a game in progress after it: the default is the finished one
    assert await env.coach.reviews.check(GUILD, 62) == finished


@pytest.mark.parametrize(
    ("lang", "title", "history"),
    [
        ("en", "Game #{id}: Black vs Bob", "Rating history"),
        ("ar", "المباراة رقم {id}: الأسود ضد Bob", "تاريخ التصنيف"),
    ],
)
async def test_a_chart_titles_a_name_of_emoji_only_by_its_colour(
    env: Env, monkeypatch: pytest.MonkeyPatch, lang: str, title: str, history: str
) -> None:
    """Discord play-test (pt40b): the font lacks emoji, so a name made only of them left
    "Game #4: Alexandria vs" in the review chart's title, and ": rating history" in the
    rating chart's. The review names the player by colour, as the board pictures do; the
    rating chart is titled without the name."""
    titles: list[str] = []
    real = coach_pictures.chart_words

    def recorded(title: str, *args: Any, **kwargs: Any) -> Any:
        titles.append(title)
        return real(title, *args, **kwargs)

    monkeypatch.setattr(coach_pictures, "chart_words", recorded)
    gid = await insert(env, 40, SPN, None, "c2-b2 b3-c3", black_name="🔥🐉")
    await finish(env, gid, rated=True)
    got = await env.coach.reviews.review(GUILD, 40, wording=wording(lang), lang=lang)
    assert got.chart is not None
    assert await env.coach.rating_chart(GUILD, ALICE, "🔥🐉", wording(lang), lang=lang) is not None
    assert titles == [title.format(id=gid), history], titles
