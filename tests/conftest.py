"""Fixtures shared by every suite: the throw-away PostgreSQL server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.postgres import TempPostgres


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[TempPostgres]:
    """One PostgreSQL server for the whole run, started on first use (never skipped: a
    machine without the server fails here with how to install it)."""
    server = TempPostgres().start()
    try:
        yield server
    finally:
        server.stop()
