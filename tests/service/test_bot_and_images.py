"""Bot turns through a real process pool, bot chains shown step by step, and real board images."""

from __future__ import annotations

import asyncio
import io
import random
from dataclasses import replace
from pathlib import Path

from bot import render
from bot.ai_jobs import encode
from bot.ai_pool import ProcessPoolAiRunner, ThreadAiRunner
from bot.clock import FakeClock
from bot.console.output import ConsoleOutput
from bot.results import Player
from bot.service import GameService, default_renderer
from bot.service.bot_turns import turn_seed
from bot.storage import Storage
from engine import BLACK, Position, parse_cell
from engine.ai import TurnRequest
from tests.service.helpers import ALICE, BOB, CAROL, GUILD, Db, close_service, insert_from, query, start_people

PNG = b"\x89PNG\r\n\x1a\n"
#: White (to move) captures with b3-c3 and may go on with c3-c4.
CHAIN_SPN = "bbwwb/wwbbw/bw1bb/bwbbb/wwwww w m 0/0 - 0 13"


async def test_process_pool_runner_plays_the_bot(db_path: Db) -> None:
    storage = await Storage.open(db_path)
    runner = ProcessPoolAiRunner(1)
    service = GameService(storage, runner, None, FakeClock(), random.Random(1))
    try:
        start = await service.play_bot(GUILD, 1, CAROL, "easy", 5, None, "white")
        assert start.events and start.events[0].player == Player.bot("easy")
        assert start.to_move == CAROL
        after = await service.place(1, CAROL.user_id, start.legal[0], start.legal[-1])
        assert [e.player.is_bot for e in after.events] == [False, True]
    finally:
        await storage.close()
        runner.close()


async def test_bot_chain_is_shown_step_by_step(service: GameService) -> None:
    bot = Player.bot("hard")
    await insert_from(service, 5, CHAIN_SPN, ALICE, bot)
    result = await service.bot_turn(5)
    steps = [e for e in result.events if any("-" in a for a in e.actions)]
    assert steps and all(len([a for a in e.actions if "-" in a]) == 1 for e in steps)  # one step per event
    assert result.events[0].actions[0] == "b3-c3" and result.events[0].captured  # the only legal step
    assert all(e.player == bot for e in result.events)
    assert result.events[-1].turn_complete
    assert [e.turn_complete for e in result.events[:-1]] == [False] * (len(result.events) - 1)
    assert result.to_move == ALICE or result.game_over is not None


async def test_board_images_and_replay(db_path: Db) -> None:
    assert default_renderer() is render
    storage = await Storage.open(db_path)
    service = GameService(storage, _NoAi(), render, FakeClock(), random.Random(2))
    try:
        start = await start_people(service, 1)
        assert start.png is not None and start.png.startswith(PNG)
        placed = await service.place(1, ALICE.user_id, "a1 b1")
        assert placed.png is not None and placed.png.startswith(PNG) and placed.events[0].png == placed.png
        await service.place(1, BOB.user_id, "a2 b2")
        resigned = await service.resign(1, BOB.user_id)
        assert resigned.png is not None and resigned.png.startswith(PNG) and resigned.png != placed.png
        rec = await service.record(GUILD, channel_id=1)
        assert rec.replay is not None and rec.replay[:3] == b"GIF"
        assert rec.replay_filename == f"seega-{resigned.game.id}.gif"
    finally:
        await storage.close()


async def test_a_replay_speaks_the_askers_language(db_path: Db) -> None:
    """The replay posted under an Arabic ``/seega record`` reply is drawn in Arabic, with
    the bot named in Arabic (stop 34 drew every replay in English); whoever asks in
    English gets English. The SGN file is the same for both."""
    from bot.results import player_name
    from engine.record import read_sgn

    storage = await Storage.open(db_path)
    service = GameService(storage, ThreadAiRunner(), render, FakeClock(), random.Random(3))
    try:
        start = await service.play_bot(GUILD, 1, CAROL, "easy", 5, None, "white")
        await service.place(1, CAROL.user_id, start.legal[0], start.legal[-1])
        await service.resign(1, CAROL.user_id)
        await service.set_language(CAROL.user_id, "ar")
        arabic = await service.record(GUILD, channel_id=1, user_id=CAROL.user_id)
        english = await service.record(GUILD, channel_id=1, user_id=ALICE.user_id)
        assert arabic.sgn == english.sgn and arabic.replay and english.replay
        record = read_sgn(arabic.sgn)
        bot = Player.bot("easy")
        in_arabic = render.render_replay(record, (player_name(bot, "ar"), CAROL.name), lang="ar")
        assert arabic.replay == in_arabic
        assert english.replay == render.render_replay(record, (player_name(bot, "en"), CAROL.name))
        assert in_arabic != english.replay
    finally:
        await storage.close()


async def test_replays_are_drawn_two_at_a_time(db_path: Db) -> None:
    """Drawing a replay holds the GIL for most of its second or more (0.7 s for 130
    frames): six at once made the event loop answer 20 ms late at p95 and 86 ms at worst
    (stop 32's measure), and a member asking for many records at once kept it so. At
    most ``REPLAYS_AT_ONCE`` are drawn at a time; the others wait their turn, and every
    one arrives."""
    import threading
    import time

    from bot.service.queries import REPLAYS_AT_ONCE

    class Counting:
        """The real renderer, counting the replays being drawn at once."""

        def __init__(self) -> None:
            self.now = self.most = 0
            self.fail = False
            self.lock = threading.Lock()

        def __getattr__(self, name: str) -> object:
            return getattr(render, name)

        def render_replay(self, *args: object, **kwargs: object) -> bytes:
            with self.lock:
                self.now += 1
                self.most = max(self.most, self.now)
            try:
                time.sleep(0.2)  # as long as a long game's replay: the draws overlap if let
                if self.fail:
                    raise OSError("No space left on device")
                return render.render_replay(*args, **kwargs)  # type: ignore[arg-type]
            finally:
                with self.lock:
                    self.now -= 1

    counting = Counting()
    storage = await Storage.open(db_path)
    service = GameService(storage, _NoAi(), counting, FakeClock(), random.Random(2))  # type: ignore[arg-type]
    try:
        for channel in range(1, 7):
            await start_people(service, channel)
            await service.resign(channel, BOB.user_id)
        records = await asyncio.gather(*(service.record(GUILD, channel_id=c) for c in range(1, 7)))
        assert all(r.replay is not None and r.replay[:3] == b"GIF" for r in records)
        assert REPLAYS_AT_ONCE == 2 and counting.most == REPLAYS_AT_ONCE
        # Drawings that fail (a full disk, a Pillow error) give their place back: the
        # record's text still arrives, and the replays after them are drawn.
        counting.fail = True
        failed = await asyncio.gather(*(service.record(GUILD, channel_id=c) for c in range(1, 4)))
        assert all(r.replay is None and r.sgn for r in failed)
        counting.fail = False
        again = await asyncio.wait_for(asyncio.gather(*(service.record(GUILD, channel_id=c) for c in (1, 2))), 30)
        assert all(r.replay is not None for r in again)
    finally:
        await storage.close()


class _NoAi:
    """A runner for games between people: asking it for a turn is a bug."""

    async def choose_turn(self, request: object) -> list[str]:
        raise AssertionError("no bot in this game")

    def close(self) -> None:
        """Nothing to release."""


class Scripted:
    """An AI that plays ``steps``, one a turn, then fails as a dead AI would: the reply ends there."""

    def __init__(self, steps: list[str]) -> None:
        self.steps = steps

    async def choose_turn(self, request: object) -> list[str]:
        if not self.steps:
            raise RuntimeError("the script is over")
        return [self.steps.pop(0)]

    def close(self) -> None:
        """Nothing to release."""


async def test_after_a_walled_in_pass_the_picture_starts_again(db_path: Db) -> None:
    """Newcomer play-test (stop 35): walled in for five bot turns in a row, a newcomer
    got one picture of the whole reply, eight numbered arrows over one another (the bot
    shuffling c1-c2) and a footer that ran out of room. Each bot turn after the
    person's forced pass is drawn from that pass: the pass, then the turn."""
    seen: list[tuple[str, ...]] = []

    class Recording:
        """The real renderer, noting the turn each board picture marks."""

        def render_board(self, position, last_turn=None, **kwargs):  # type: ignore[no-untyped-def]
            seen.append(tuple(str(a) for a in last_turn.actions) if last_turn else ())
            return render.render_board(position, last_turn, **kwargs)

        def render_replay(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            return render.render_replay(*args, **kwargs)

    # The bot steps round a square of empty cells; Black's two corners stay walled in.
    scripted = Scripted(["d3-d2", "d2-c2", "c2-c3", "c3-d3"])
    storage = await Storage.open(db_path)
    service = GameService(storage, scripted, Recording(), FakeClock(), random.Random(4))  # type: ignore[arg-type]
    try:
        await insert_from(service, 1, "bw3/w4/3w1/w4/bw3 w m 0/0 - 0 30", ALICE, Player.bot("easy"))
        result = await service.bot_turn(1)
        bot_turns = [e.actions for e in result.events if e.player.is_bot]
        assert bot_turns[:4] == [("d3-d2",), ("d2-c2",), ("c2-c3",), ("c3-d3",)]
        assert [e.actions for e in result.events].count(("pass",)) >= 3
        assert seen[0] == ("d3-d2",)  # the first turn alone
        assert seen[1:4] == [("pass", "d2-c2"), ("pass", "c2-c3"), ("pass", "c3-d3")], seen
    finally:
        await storage.close()


async def test_a_capture_before_a_walled_in_pass_stays_crossed_out(db_path: Db) -> None:
    """Discord play-test (stop 40): the bot took d6, the person was walled in and passed,
    the bot stepped again: the one picture posted was drawn from the pass, and the
    capture was drawn nowhere. The pieces taken before the pass stay crossed out."""
    seen: list[tuple[tuple[str, ...], tuple[tuple[int, int], ...]]] = []

    class Recording:
        """The real renderer, noting the turn and the captures each board picture marks."""

        def render_board(self, position, last_turn=None, **kwargs):  # type: ignore[no-untyped-def]
            if last_turn is not None:
                seen.append((tuple(str(a) for a in last_turn.actions), last_turn.captured))
            return render.render_board(position, last_turn, **kwargs)

        def render_replay(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            return render.render_replay(*args, **kwargs)

    scripted = Scripted(["c3-d3", "d3-e3"])  # c3-d3 takes d2: Black's corners are then walled in
    storage = await Storage.open(db_path)
    service = GameService(storage, scripted, Recording(), FakeClock(), random.Random(4))  # type: ignore[arg-type]
    try:
        await insert_from(service, 1, "bw3/w4/2w2/w2b1/bw1w1 w m 0/0 - 0 30", ALICE, Player.bot("easy"))
        result = await service.bot_turn(1)
        assert [e.actions for e in result.events][:3] == [("c3-d3",), ("pass",), ("d3-e3",)], result.events
        d2 = Position().geo.index(parse_cell("d2"))
        assert seen[0] == (("c3-d3",), ((d2, BLACK),)), seen
        # drawn from the pass, with d2 still crossed out
        assert seen[1][0] == ("pass", "d3-e3") and (d2, BLACK) in seen[1][1], seen
    finally:
        await storage.close()


async def test_a_cancelled_games_picture_says_cancelled(db_path: Db) -> None:
    """Console play-test (stop 36): the last picture of a cancelled game still read
    "TO MOVE" and "Player 1 to place 2", as if the game went on. It is drawn with the
    cancellation: no badge on either card, "Game cancelled", "Not rated"."""
    from bot.render.panels import _badge
    from bot.render.words import reason_text, turn_text, winner_text
    from engine import Outcome, Position, Ruleset
    from tests.service.helpers import MOD

    outcomes: list[object] = []

    class Recording:
        """The real renderer, noting the outcome each board picture is drawn with."""

        def render_board(self, position, last_turn=None, **kwargs):  # type: ignore[no-untyped-def]
            outcomes.append(kwargs.get("outcome"))
            return render.render_board(position, last_turn, **kwargs)

    storage = await Storage.open(db_path)
    service = GameService(storage, _NoAi(), Recording(), FakeClock(), random.Random(4))  # type: ignore[arg-type]
    try:
        await start_people(service, 1)
        outcomes.clear()
        cancelled = await service.cancel(1, MOD)
        assert cancelled.png is not None and cancelled.png[:8] == b"\x89PNG\r\n\x1a\n"
        assert outcomes == [Outcome(None, "abandoned")], outcomes
    finally:
        await storage.close()
    pos = Position(Ruleset())
    done = Outcome(None, "abandoned")
    assert winner_text(done, ("Ann", "Bob")) == "Game cancelled"
    assert turn_text(pos, done) == "Not rated"
    assert _badge(pos, done, 0) == _badge(pos, done, 1) == ""  # neither "TO MOVE" nor "DRAW"
    assert reason_text(done, pos, ("Ann", "Bob")) == "it counts as if it had never been played"
    assert winner_text(done, ("Ann", "Bob"), "ar") == "أُلغيت المباراة"


async def test_walled_in_for_several_bot_turns_the_reply_says_what_the_person_can_do(db_path: Db) -> None:
    """Discord play-test (pt40b): walled in, a person read "is walled in (no piece can step)
    and passes" three or more times in one bot reply and nothing about what to do. The reply
    says it once: offer an end by count, or resign."""
    from bot import wording
    from bot.messages import turn_reply

    scripted = Scripted(["d3-d2", "d2-c2", "c2-c3", "c3-d3"])
    storage = await Storage.open(db_path)
    service = GameService(storage, scripted, None, FakeClock(), random.Random(4))  # type: ignore[arg-type]
    try:
        await insert_from(service, 1, "bw3/w4/3w1/w4/bw3 w m 0/0 - 0 30", ALICE, Player.bot("easy"))
        result = await service.bot_turn(1)
        assert [e.actions for e in result.events].count(("pass",)) >= 3
        english = (
            "You are walled in: you can offer an end by count with /seega offer-end, or resign with /seega resign."
        )
        assert wording.walled_advice(result, "en") == english
        assert "/seega offer-end" in wording.walled_advice(result, "ar")
        text = turn_reply(result, "en").embeds[0].description or ""
        assert text.count("You are walled in") == 1, text
        # and at the console, where it was not said (helper 76's note, stop 40)
        out = io.StringIO()
        ConsoleOutput(service, out).show(result)
        assert out.getvalue().count(english) == 1, out.getvalue()
        passes = [e for e in result.events if e.actions == ("pass",)]
        few = replace(result, events=[*(e for e in result.events if e not in passes), *passes[:2]])
        assert wording.walled_advice(few, "en") == ""
    finally:
        await storage.close()


class _Recording(ThreadAiRunner):
    """The real AI in a thread, remembering what it was asked."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[TurnRequest] = []

    async def choose_turn(self, request: TurnRequest) -> list[str]:
        self.asked.append(request)
        return await super().choose_turn(request)


async def test_two_games_at_one_position_ask_the_ai_two_different_jobs(tmp_path: Path) -> None:
    """The AI queue keys a job by its request and hands its stored answer to whoever asks
    the same: every bot game at a position and level got one search's answer for an hour,
    and every easy game of the hour opened alike (review atk41a, finding 8). A turn's
    request now names its game and version; the same turn asked again is the same job."""
    ai = _Recording()
    service = GameService(await Storage.open(tmp_path / "seega.db"), ai, None, FakeClock())
    try:
        for channel in (1, 2):
            await service.play_bot(GUILD, channel, CAROL, "easy", 5, None, "white")
        first, second = ai.asked
        assert first.actions == second.actions == () and first.level == second.level == "easy"
        assert encode(first)[0] != encode(second)[0], "two games, two jobs"
        (version,) = query(tmp_path / "seega.db", "SELECT version FROM games WHERE channel_id = 1")[0]
        # the request was made at the version before the bot's turn was stored
        assert first.seed == turn_seed(1, version - 1), "the same turn asked again (a resume) is the same job"
    finally:
        await close_service(service)
