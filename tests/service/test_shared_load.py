"""What one member's request costs everybody else: a request about one server reads that
server's rows only, and one member's pictures do not queue in front of every board.

Costs are counted, not timed: SQLite's virtual-machine steps (a progress handler on the
bot's own connection) for the database's share of a request.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot import render
from bot.ai_pool import ThreadAiRunner
from bot.clock import FakeClock
from bot.render import coach_pictures
from bot.results import Player
from bot.service import GameService
from bot.service.coach import Coach
from bot.service.coach_work import thread_work
from bot.storage import Storage
from bot.storage.sqlite import SqliteStorage
from tests.service.helpers import ALICE, BOB, GUILD, NO_CAPS, insert_from

#: A position in the movement phase (any will do: the games are only listed).
CHAIN = "wbbbw/wwbwb/bb1ww/wbbbb/wbwww w m 0/0 - 0 25"


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    storage = await Storage.open(tmp_path / "shared.db")
    svc = GameService(storage, ThreadAiRunner(), None, FakeClock(), random.Random(1), limits=NO_CAPS)
    yield svc
    await svc.storage.close()
    svc.ai.close()


async def _vm_steps(service: GameService, guild_id: int) -> tuple[int, list[int]]:
    """(SQLite steps, in hundreds, of listing ``guild_id``'s games in progress; their ids)."""
    storage = service.storage
    assert isinstance(storage, SqliteStorage)
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0  # go on

    await storage._reader.set_progress_handler(count, 100)
    try:
        listed = await service.games_in_progress(guild_id)
    finally:
        await storage._reader.set_progress_handler(None, 100)
    return steps[0], [g.id for g in listed]


async def test_listing_a_servers_games_reads_no_other_servers_games(service: GameService) -> None:
    """``/seega games`` read every active game of every server the bot is in, built a row
    for each on the event loop and kept that server's: one member's request cost as much
    as the whole bot's games, and anyone could repeat it. Now it reads its own server's
    games in progress, at most the ones it lists."""
    ours = [await insert_from(service, channel, CHAIN) for channel in (1, 2, 3)]
    alone, listed = await _vm_steps(service, GUILD)
    assert listed == ours[::-1]
    for i in range(400):  # the rest of the bot: other servers' games in progress
        player = Player(1000 + i, f"P{i}")
        await insert_from(service, 100 + i, CHAIN, player, BOB, guild_id=20 + i % 7)
    crowded, listed = await _vm_steps(service, GUILD)
    assert listed == ours[::-1]
    assert crowded <= alone + 2, f"{alone}00 steps alone, {crowded}00 beside 400 games of other servers"
    many = [await insert_from(service, 1000 + i, CHAIN, ALICE, Player(5000 + i, "X")) for i in range(40)]
    _, listed = await _vm_steps(service, GUILD)
    assert listed == many[::-1][:20], "the newest twenty of the server"


# ---------------------------------------------------------------------------- pictures


class CountingPictures:
    """The real coach pictures, counting how many are being drawn at once; every drawing
    waits for ``release`` (the test opens it), so drawings that could overlap do."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.lock = threading.Lock()
        self.inside = 0
        self.most = 0
        self.calls = 0
        #: The language of each drawing started (a replay is drawn in the asker's).
        self.started: list[str | None] = []

    def _drawing(self, draw: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes:
        with self.lock:
            self.inside += 1
            self.calls += 1
            self.started.append(kwargs.get("lang"))
            self.most = max(self.most, self.inside)
        try:
            self.release.wait()
            return draw(*args, **kwargs)
        finally:
            with self.lock:
                self.inside -= 1

    def suggestion_image(self, *args: Any, **kwargs: Any) -> bytes:
        return self._drawing(coach_pictures.suggestion_image, *args, **kwargs)

    def evaluation_chart(self, *args: Any, **kwargs: Any) -> bytes:
        return self._drawing(coach_pictures.evaluation_chart, *args, **kwargs)

    def render_replay(self, *args: Any, **kwargs: Any) -> bytes:
        return self._drawing(render.render_replay, *args, **kwargs)

    def render_board(self, *args: Any, **kwargs: Any) -> bytes:
        return bytes(render.render_board(*args, **kwargs))

    def __getattr__(self, name: str) -> Any:  # chart_words and the rest, as they are
        return getattr(coach_pictures, name)


async def _overlap(pictures: CountingPictures, tasks: list[asyncio.Future[Any]]) -> int:
    """Let ``tasks`` run until two drawings overlap (or, for a second, cannot), then let
    every drawing finish; the most drawings that were under way at once."""
    await _until_two(pictures)
    pictures.release.set()
    await asyncio.gather(*tasks)
    return pictures.most


async def _until_two(pictures: CountingPictures) -> None:
    """Let the tasks run until two drawings are under way (or, for a second, cannot be)."""
    for _ in range(100):
        if pictures.most >= 2:
            return
        await asyncio.sleep(0.01)


#: White to move on 5x5: c2-b2 throws the game away (the review's blunder, a key moment).
REVIEWED = "w3b/5/wb1bw/2w2/b3b w m 0/0 - 0 30"


async def test_one_members_stored_reviews_are_drawn_one_at_a_time(tmp_path: Path) -> None:
    """A stored review is answered at once, but each answer draws its chart and a board per
    key moment in the default thread pool, the one every turn's board picture is drawn
    in. A member repeating ``/seega review`` of a reviewed game (no cooldown, no cap)
    queued six drawings a request in front of the board of every game of every server.
    Now one member's review pictures are drawn one request at a time; the others wait
    their turn, each still answered, and another member is not held up by them."""
    storage = await Storage.open(tmp_path / "reviews.db")
    pictures = CountingPictures()
    pictures.release.set()
    coach = Coach(storage, FakeClock(), thread_work(), pictures, review_nodes=3000)
    service = GameService(storage, ThreadAiRunner(), None, FakeClock(), random.Random(1), limits=NO_CAPS)
    try:
        game_id = await insert_from(service, 5, REVIEWED)
        for action, player in (("c2-b2", BOB), ("b3-c3", ALICE), ("a5-b5", BOB)):
            await service.move(5, player.user_id, action)
        await service.resign(5, ALICE.user_id)
        first = await coach.reviews.review(GUILD, 5, game_id, user_id=ALICE.user_id)
        assert first.moments and first.chart is not None
        per_request = pictures.calls
        pictures.release.clear()
        pictures.calls = pictures.most = 0
        flood = [
            asyncio.ensure_future(coach.reviews.review(GUILD, 5, game_id, user_id=ALICE.user_id)) for _ in range(8)
        ]
        most = await _overlap(pictures, flood)
        assert all(f.result().cached for f in flood) and pictures.calls == 8 * per_request
        assert most == 1, f"{most} of one member's review pictures drawn at once"
        pictures.release.clear()
        pictures.most = 0
        both = [
            asyncio.ensure_future(coach.reviews.review(GUILD, 5, game_id, user_id=who.user_id)) for who in (ALICE, BOB)
        ]
        assert await _overlap(pictures, both) == 2, "another member's review is drawn beside hers"
    finally:
        pictures.release.set()  # a failed check must not leave drawings waiting for ever
        service.ai.close()
        await storage.close()


async def test_one_members_replays_wait_for_each_other_not_in_everyones_line(tmp_path: Path) -> None:
    """``/seega record`` draws at most two replays at once for the whole process, the others
    waiting in one line: a member asking for forty replays (no cooldown) put forty
    drawings of most of a second each in front of every other member's replay. Now one
    member's replays are drawn one at a time, and wait for each other outside that line."""
    pictures = CountingPictures()
    storage = await Storage.open(tmp_path / "replays.db")
    service = GameService(storage, ThreadAiRunner(), pictures, FakeClock(), random.Random(1), limits=NO_CAPS)  # type: ignore[arg-type]
    try:
        await insert_from(service, 5, REVIEWED)
        await service.move(5, BOB.user_id, "c2-b2")
        flood = [asyncio.ensure_future(service.record(GUILD, None, 5, user_id=ALICE.user_id)) for _ in range(6)]
        most = await _overlap(pictures, flood)
        assert all(f.result().replay for f in flood), "every one of her replays arrives"
        assert most == 1, f"{most} of one member's replays drawn at once"
        pictures.release.clear()
        pictures.most = 0
        pictures.started = []
        await service.set_language(BOB.user_id, "ar")  # his replay is drawn in Arabic: his
        flood = [asyncio.ensure_future(service.record(GUILD, None, 5, user_id=ALICE.user_id)) for _ in range(6)]
        await asyncio.sleep(0.05)  # hers are in line first
        bob = asyncio.ensure_future(service.record(GUILD, None, 5, user_id=BOB.user_id))
        await _until_two(pictures)
        started = list(pictures.started)
        pictures.release.set()
        assert started == ["en", "ar"], "Bob's replay is drawn beside hers, not after them"
        assert all(r.replay for r in await asyncio.gather(*flood, bob))
    finally:
        pictures.release.set()  # a failed check must not leave drawings waiting for ever
        service.ai.close()
        await storage.close()
