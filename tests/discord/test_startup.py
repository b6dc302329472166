"""The bot connects, syncs its commands to the development guild and answers a command."""

from __future__ import annotations

from tests.discord.harness import Harness


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
