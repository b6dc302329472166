"""The database check before anything starts: one line naming ``SEEGA_DB`` and what to do.

A wrong ``SEEGA_DB`` (not a database, a damaged or truncated file, a folder that does not
exist, a read-only file, a PostgreSQL server that refuses) is the most common set-up
mistake; deep inside the start-up it surfaced as 40 lines of traceback. The launcher and
``python -m bot.console`` open the database once here first (applying migrations).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import urllib.parse

from bot.settings import Settings, redact_url
from bot.storage import Storage

log = logging.getLogger(__name__)


def database_problem(path: object, exc: BaseException) -> str:
    """One line for a database that cannot be opened: what is wrong, and what to do."""
    text = str(exc).lower()
    where = f"SEEGA_DB={path}"
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return (
            f"{where} is not a Seega database, or it is damaged ({exc}): set SEEGA_DB to another file,"
            " or move this one away (and restore a backup, if you have one)."
        )
    if "readonly" in text or "read-only" in text or "permission" in text:
        return (
            f"{where} cannot be written ({exc}): let this user write the file and its folder,"
            " or set SEEGA_DB to another path."
        )
    if "unable to open" in text or isinstance(exc, FileNotFoundError | NotADirectoryError):
        return (
            f"{where} cannot be opened ({exc}): create its folder, or set SEEGA_DB to a file in a folder that exists."
        )
    if "locked" in text:
        return f"{where} is locked by another program ({exc}): stop it, or set SEEGA_DB to another file."
    if "full" in text:
        return f"{where} cannot grow: the disk is full ({exc}): free some space, then start again."
    return f"{where} cannot be opened ({type(exc).__name__}: {exc}): check the file, or set SEEGA_DB to another path."


def check_database(settings: Settings) -> str | None:
    """Open the database once (applying migrations) before anything starts.

    Returns ``None`` when it works, else the :func:`database_problem` line: a wrong
    ``SEEGA_DB`` is the most common set-up mistake, and deep inside the start-up it
    surfaced as 40 lines of traceback.
    """

    async def probe() -> None:
        store = await Storage.open(settings.database)
        await store.close()

    if settings.db_url is not None:
        return check_postgres(settings.db_url)
    try:
        # First synchronously: aiosqlite leaves its thread reporting to a closed event
        # loop when the very first connect fails (a traceback at exit).
        conn = sqlite3.connect(settings.db_path)
        try:
            conn.execute("PRAGMA schema_version").fetchone()
        finally:
            conn.close()
        asyncio.run(probe())
    except (sqlite3.DatabaseError, OSError) as exc:
        log.debug("the database check failed", exc_info=True)
        return database_problem(settings.db_path, exc)
    return None


def check_postgres(url: str) -> str | None:
    """Connect to the PostgreSQL of ``SEEGA_DB`` once (applying migrations); the problem
    as one line (the password never shown), or ``None``."""
    import asyncpg

    async def probe() -> None:
        store = await Storage.open(url, listen=False, pool_size=1)
        await store.close()

    try:
        asyncio.run(probe())
    except (OSError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        # ValueError: asyncpg refusing a parameter of the URL (sslmode=bogus, a bad port)
        log.debug("the database check failed", exc_info=True)
        return (
            f"SEEGA_DB={redact_url(url)} cannot be used ({type(exc).__name__}: {without_password(url, str(exc))}):"
            " check that the server is up and reachable, and the user, password and database name."
        )
    return None


def without_password(url: str, text: str) -> str:
    """``text`` (an error about ``url``) with the URL's password, should it be quoted, hidden."""
    password = urllib.parse.urlsplit(url).password if "[" not in url else None
    shown = text.replace(url, redact_url(url))
    return shown.replace(password, "***") if password else shown
