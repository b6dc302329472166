"""The bot connects, syncs its commands to the development guild and answers a command."""

from __future__ import annotations

from pathlib import Path

from bot.client import ShardedSeegaBot
from tests.discord.harness import Harness, running


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
