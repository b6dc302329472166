"""Fixtures of the service tests: a service over a real SQLite file with a fake clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.service import GameService
from tests.service.helpers import close_service, make_service


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "seega.db"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def service(db_path: Path, clock: FakeClock) -> AsyncIterator[GameService]:
    svc = await make_service(db_path, clock)
    yield svc
    await close_service(svc)
