"""A PostgreSQL ``LISTEN`` that survives the server restarting or the network dropping.

Notifications are fire-and-forget: while the listening connection is gone, the ones sent
meanwhile are lost. So the connection is watched: when it ends, ``on_gap()`` is called
(the owner treats everything it caches from the channel as stale) and the connection is
opened again with backoff, until :meth:`Listener.close`.

A connection can also die without ending: a network cut with no reset (a partition, a
failover behind a virtual IP) leaves it open and silent for ever, and nothing arrives
on it again (outside review atk41a). So the connection is asked ``SELECT 1`` every
``check_every`` seconds; one that does not answer within ``check_timeout`` is dropped
and treated as lost, as above. (TCP keepalives, :mod:`bot.storage.pgconn`, would notice
too, but only after a minute or more.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import asyncpg

from bot.storage import pgconn

log = logging.getLogger(__name__)

#: Called with each notification's payload.
Handler = Callable[[str], None]


class Listener:
    """``LISTEN channel`` on its own connection, reconnecting when it is lost.

    Args:
        url: the database.
        channel: the notification channel.
        on_payload: called with each notification's payload.
        on_gap: called when notifications may have been missed (the connection ended).
        check_every: seconds between two checks that the connection still answers.
        check_timeout: seconds a check may take before the connection is taken as dead.
    """

    def __init__(
        self,
        url: str,
        channel: str,
        on_payload: Handler,
        on_gap: Callable[[], None],
        check_every: float = 15.0,
        check_timeout: float = 10.0,
    ) -> None:
        self.url = url
        self.channel = channel
        self.on_payload = on_payload
        self.on_gap = on_gap
        self.check_every = check_every
        self.check_timeout = check_timeout
        self._conn: asyncpg.Connection | None = None
        self._closed = False
        self._reconnecting: asyncio.Task[None] | None = None
        self._checking: asyncio.Task[None] | None = None
        #: Connections opened so far (tests watch it).
        self.connects = 0

    async def start(self) -> Listener:
        """Open the connection and start listening (and checking it)."""
        await self._connect()
        self._checking = asyncio.get_running_loop().create_task(self._check_forever())
        return self

    async def _check_forever(self) -> None:
        """Drop a connection that no longer answers, so that it is opened again."""
        while not self._closed:
            await asyncio.sleep(self.check_every)
            conn = self._conn
            if conn is None or conn.is_closed():
                continue
            try:
                await conn.fetchval("SELECT 1", timeout=self.check_timeout)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.warning("LISTEN %s: the connection does not answer (%s); dropping it", self.channel, exc)
                conn.terminate()  # its termination listener reconnects (_lost)

    async def _connect(self) -> None:
        conn = await pgconn.connect(self.url)
        await conn.add_listener(self.channel, lambda _c, _pid, _ch, payload: self.on_payload(payload))
        conn.add_termination_listener(self._lost)
        self._conn = conn
        self.connects += 1

    def _lost(self, _conn: object) -> None:
        if self._closed:
            return
        log.warning("LISTEN %s: connection lost; reconnecting", self.channel)
        self._conn = None
        self.on_gap()
        if self._reconnecting is None or self._reconnecting.done():
            self._reconnecting = asyncio.get_running_loop().create_task(self._reconnect())

    async def _reconnect(self) -> None:
        delay = 0.1
        while not self._closed:
            try:
                await self._connect()
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.warning("LISTEN %s: reconnect failed (%s); retrying in %.1fs", self.channel, exc, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
            else:
                self.on_gap()  # whatever was sent between the loss and now is lost too
                return

    async def close(self) -> None:
        """Stop listening and close the connection."""
        self._closed = True
        if self._checking is not None:
            self._checking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checking
        if self._reconnecting is not None:
            self._reconnecting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reconnecting
        if self._conn is not None:
            try:
                await asyncio.wait_for(self._conn.close(), self.check_timeout)
            except Exception:  # a dead network: no goodbye can be sent
                self._conn.terminate()
            self._conn = None
