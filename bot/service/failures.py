"""A full disk (or a read-only database) answered as a service error, at the service's front door.

When the database cannot grow (SQLite's "database or disk is full", PostgreSQL's
SQLSTATE 53100, or the operating system's ENOSPC), every use case that writes failed
with a driver exception and a traceback, and the console ended. Nothing was written
(each write is one transaction), so the honest answer is "the server's disk is full;
nothing was changed", and the game can go on once space is freed.
"""

from __future__ import annotations

import errno
import functools
import inspect
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from bot.results import StorageFullError, StorageReadOnlyError

log = logging.getLogger(__name__)

C = TypeVar("C", bound=type)


def disk_is_full(exc: BaseException) -> bool:
    """Whether ``exc`` says the database or the disk under it has no room left."""
    if isinstance(exc, sqlite3.OperationalError) and "full" in str(exc).lower():
        return True
    if getattr(exc, "sqlstate", None) == "53100":  # PostgreSQL: disk_full
        return True
    return isinstance(exc, OSError) and exc.errno == errno.ENOSPC


def is_read_only(exc: BaseException) -> bool:
    """Whether ``exc`` says the database refuses writes: SQLite's "attempt to write a
    readonly database" (a file, or the folder of its journal, made read-only), or
    PostgreSQL's read_only_sql_transaction (a standby, or ``default_transaction_read_only``)."""
    if isinstance(exc, sqlite3.OperationalError) and "readonly" in str(exc).lower():
        return True
    return getattr(exc, "sqlstate", None) == "25006"


def _guarded(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(method)
    async def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return await method(*args, **kwargs)
        except Exception as exc:
            if disk_is_full(exc):
                log.error("%s: the database cannot grow: %s", method.__name__, exc)
                raise StorageFullError("storage_full") from exc
            if is_read_only(exc):
                # was "unexpected error (id)" (outside review, stop 36): say what the host must fix
                log.error("%s: the database refuses writes: %s", method.__name__, exc)
                raise StorageReadOnlyError("storage_read_only") from exc
            raise

    return call


def full_disk_is_a_service_error(cls: C) -> C:
    """Wrap every public coroutine method of ``cls`` with :func:`_guarded`."""
    for name, member in list(vars(cls).items()):
        if not name.startswith("_") and inspect.iscoroutinefunction(member):
            setattr(cls, name, _guarded(member))
    return cls
