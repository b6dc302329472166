"""Fixtures: a fresh loopback Discord and a real bot on a new database for each test."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.cooldowns import RATES
from tests.discord.harness import TOKEN, Harness, running


@pytest.fixture
async def h(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> AsyncIterator[Harness]:
    caplog.set_level(logging.DEBUG, logger="discord")
    caplog.set_level(logging.DEBUG, logger="bot")
    async with running(tmp_path) as harness:
        yield harness
        await harness.idle()
        assert harness.fake.unknown_routes == [], "the bot called routes the fake Discord does not know"
        assert harness.fake.token_leaks() == [], "the token went somewhere else than the Authorization header"
    assert TOKEN not in caplog.text, "the token was logged"


@pytest.fixture
def machine_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lift the per-person cooldowns (``bot.cooldowns``) for a test that sends one
    person's commands faster than anybody types (eight lessons answered in a second)."""
    for command, (_uses, per) in list(RATES.items()):
        monkeypatch.setitem(RATES, command, (1000, per))
