"""The bot connects, syncs its commands to the development guild and answers a command."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from bot.ai_pool import ThreadAiRunner
from bot.client import ShardedSeegaBot
from bot.results import Player
from bot.service import GameService, default_renderer
from bot.storage import Storage
from engine.ai import TurnRequest
from tests.discord.fake_discord import FakeDiscord
from tests.discord.harness import TOKEN, Harness, make_settings, running, start_bot, stop_bot


async def test_commands_synced_to_guild(h: Harness) -> None:
    names = h.fake.command_names()
    for name in (
        "place",
        "move",
        "remove",
        "seega challenge",
        "seega play-bot",
        "seega end-turn",
        "seega board",
        "seega resign",
        "seega offer-end",
        "seega draw",
        "seega leaderboard",
        "seega stats",
        "seega history",
        "seega record",
        "seega rules",
        "seega cancel",
        "seega settings",
    ):
        assert name in names
    assert None not in h.fake.commands, "without `seega-bot sync` nothing is published globally"


async def test_sharded_bot_serves_the_guild_from_its_shard(tmp_path: Path) -> None:
    async with running(tmp_path, shards="auto") as h:
        assert isinstance(h.bot, ShardedSeegaBot)
        assert any(r.path.endswith("/gateway/bot") for r in h.fake.requests), "auto asks Discord for the count"
        answer = await h.slash(h.alice, "seega rules")
        assert answer.reply.ephemeral and "Seega rules" in answer.reply.text
    (tmp_path / "two").mkdir()
    async with running(tmp_path / "two", shards=2) as h:
        await h.fake.wait_connected(2)
        shards = sorted(c.shard for c in h.fake.connections)
        assert shards == [(0, 2), (1, 2)]
        answer = await h.slash(h.bob, "seega play-bot", {"level": "easy", "color": "black"})
        assert "your turn" in answer.reply.text


async def test_commands_are_for_servers_only(h: Harness) -> None:
    for command in h.fake.commands[h.fake.guild_id]:
        assert command.get("dm_permission") is False or command.get("contexts") == [0], command["name"]


async def until(predicate: Callable[[], bool], timeout: float = 20.0) -> None:
    """Poll ``predicate`` (the AI and the scheduler do not tell the fake Discord)."""
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.01)


class GatedAi:
    """The real AI behind a gate the test opens one turn at a time; counts who waits."""

    def __init__(self) -> None:
        self.inner = ThreadAiRunner()
        self.gate = asyncio.Semaphore(0)
        self.waiting = 0
        self.most_waiting = 0
        self.answered = 0

    async def choose_turn(self, request: TurnRequest) -> list[str]:
        self.waiting += 1
        self.most_waiting = max(self.most_waiting, self.waiting)
        try:
            await self.gate.acquire()
        finally:
            self.waiting -= 1
        texts = await self.inner.choose_turn(request)
        self.answered += 1
        return texts

    def close(self) -> None:
        self.inner.close()


async def test_start_connects_before_overdue_bot_turns_and_posts_each_when_played(tmp_path: Path) -> None:
    """Five bot games wait for the bot when the process starts: the bot connects and answers
    commands before any is played, plays at most two at once, and posts each as it is played."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    alice = fake.add_user("alice")
    channels = [fake.add_channel(f"bot-{i}") for i in range(5)]
    settings = make_settings(fake, tmp_path / "seega.db")
    storage = await Storage.open(settings.db_path)
    for channel in channels:  # the bot plays Black: its first turn is due
        # each left due by a process that died before playing it (one process would keep
        # Alice to one bot turn due at a time: the AI line's per-person share)
        before = GameService(storage, ThreadAiRunner(), None)
        await before.play_bot(fake.guild_id, channel, Player(alice, "alice"), "easy", 5, None, "white", bot_reply=False)
        before.ai.close()
    ai = GatedAi()
    bot, task = await start_bot(fake, settings, service=GameService(storage, ai, default_renderer()))
    try:
        assert bot.scheduler is not None and not bot.scheduler.resumed.is_set()
        answer = await fake.slash(alice, "seega rules")  # connected and answering, nothing played yet
        assert answer.reply.ephemeral and ai.answered == 0
        await until(lambda: ai.waiting == 2)  # two bot turns ask the AI; the others wait their turn

        def boards() -> list[int]:
            return [m.channel_id for m in fake.messages.values() if m.channel_id in channels and m.attachments]

        assert boards() == []
        ai.gate.release()  # one turn is played: it is posted while the others still wait
        await until(lambda: len(boards()) == 1)
        assert ai.answered == 1 and not bot.scheduler.resumed.is_set()
        for _ in range(4):
            ai.gate.release()
        await asyncio.wait_for(bot.scheduler.resumed.wait(), 30)
        assert sorted(boards()) == sorted(channels) and ai.most_waiting == 2
    finally:
        await stop_bot(bot, task)
        await fake.close()
        ai.close()
        await storage.close()


async def test_what_lives_from_start_up_is_out_of_the_collectors_sight(h: Harness) -> None:
    """``bench.hostile``: under a flood of requests one full garbage collection stopped
    the event loop for 147 ms, walking the modules, classes and tables start-up made. The
    started bot has moved them to the permanent generation (``gc.freeze``), which no
    collection walks: they are in none of the three generations any more."""
    import gc

    from bot import client

    assert gc.get_freeze_count() > 10_000
    walked = {id(o) for generation in (0, 1, 2) for o in gc.get_objects(generation)}
    assert id(client.create_bot) not in walked and id(client.SeegaTranslator) not in walked
