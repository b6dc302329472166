"""Fixtures shared by every suite: the throw-away PostgreSQL server."""

from __future__ import annotations

import logging
import multiprocessing
from collections.abc import Iterator

import pytest

from tests.postgres import TempPostgres

_RUNNING: list[TempPostgres] = []


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[TempPostgres]:
    """One PostgreSQL server for the whole run, started on first use (never skipped: a
    machine without the server fails here with how to install it)."""
    server = TempPostgres().start()
    _RUNNING.append(server)
    try:
        yield server
    finally:
        _RUNNING.remove(server)
        server.stop()


@pytest.fixture(autouse=True)
def _drop_test_databases() -> Iterator[None]:
    """Each test's PostgreSQL databases are dropped after it, so a run does not fill the disk."""
    yield
    for server in _RUNNING:
        server.drop_created()


@pytest.fixture(autouse=True)
def _restore_logging() -> Iterator[None]:
    """Each test leaves the logging setup as it found it. ``bot.app.main`` installs its
    stderr handler, with the token filter that replaces a record's traceback by its
    redacted text, on the root logger; left there after a test that runs ``main``, it
    took ``exc_info`` away from the records a later test's ``caplog`` inspects (and wrote
    to that test's closed stderr)."""
    root = logging.getLogger()
    quiet = [logging.getLogger(name) for name in ("discord.gateway", "discord.client")]
    saved = root.handlers[:], root.level, [q.level for q in quiet]
    yield
    root.handlers[:] = saved[0]
    root.setLevel(saved[1])
    for q, level in zip(quiet, saved[2], strict=True):
        q.setLevel(level)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Kill AI worker processes a test left behind before the interpreter exits.

    CPython 3.11 joins every ProcessPoolExecutor's workers at exit; a worker of a pool
    broken by a SIGKILL test that waits on a lock its dead sibling held never ends, and
    the run hung after its last test (seen once under load). ``bot.ai_pool`` kills such
    survivors itself; this is the test run's own guard against a hang in CI."""
    for child in multiprocessing.active_children():
        child.kill()
