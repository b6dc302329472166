"""A full disk answered as a service error, at the service's front door.

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

from bot.results import StorageFullError

log = logging.getLogger(__name__)

C = TypeVar("C", bound=type)


def disk_is_full(exc: BaseException) -> bool:
    """Whether ``exc`` says the database or the disk under it has no room left."""
    if isinstance(exc, sqlite3.OperationalError) and "full" in str(exc).lower():
        return True
    if getattr(exc, "sqlstate", None) == "53100":  # PostgreSQL: disk_full
        return True
    return isinstance(exc, OSError) and exc.errno == errno.ENOSPC


def _guarded(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(method)
    async def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return await method(*args, **kwargs)
        except Exception as exc:
            if not disk_is_full(exc):
                raise
            log.error("%s: the database cannot grow: %s", method.__name__, exc)
            raise StorageFullError("storage_full") from exc

    return call


def full_disk_is_a_service_error(cls: C) -> C:
    """Wrap every public coroutine method of ``cls`` with :func:`_guarded`."""
    for name, member in list(vars(cls).items()):
        if not name.startswith("_") and inspect.iscoroutinefunction(member):
            setattr(cls, name, _guarded(member))
    return cls
