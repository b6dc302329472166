"""Fixtures of the service tests: a service over a real database with a fake clock.

Every storage and service test runs twice, once on a SQLite file and once on a fresh
database of a real PostgreSQL server: the one parametrised fixture is ``backend``;
``db_path`` (the database target: a path or a ``postgresql://`` URL) and ``new_db`` (more
databases of the same backend) follow from it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.service import GameService
from tests.service.helpers import Db, close_service, make_service

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The storage backend under test."""
    return str(request.param)


@pytest.fixture
def new_db(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Callable[[], Db]:
    """Makes a new, empty database of the backend under test."""
    count = iter(range(1, 1000))

    def make() -> Db:
        if backend == "sqlite":
            return tmp_path / f"seega{next(count)}.db"
        return str(request.getfixturevalue("postgres_server").create_database())

    return make


@pytest.fixture
def db_path(new_db: Callable[[], Db]) -> Db:
    """The test's database: a SQLite file, or a PostgreSQL URL."""
    return new_db()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def service(db_path: Db, clock: FakeClock) -> AsyncIterator[GameService]:
    svc = await make_service(db_path, clock)
    yield svc
    await close_service(svc)
