"""How every PostgreSQL connection of the bot and the AI workers is opened: with bounds.

An outside review (atk41a) cut the network without a reset (a partition, a failover
behind a virtual IP, a lost NAT entry): with no bound anywhere, statements in flight
waited for ever, a process whose pool was full of them stopped answering and applying
timers even after the network came back, and a worker never took another job. So:

* ``command_timeout``: the client gives up on a statement's answer after
  :data:`COMMAND_TIMEOUT` seconds (asyncpg then cancels it, and a connection it cannot
  cancel is closed, not handed out again);
* the server ends a statement after ``statement_timeout`` (a bit less than the
  client's, so on a healthy network the server's clear error comes first) and a session
  left idle inside a transaction after ``idle_in_transaction_session_timeout``;
* TCP keepalives on both ends (the server's ``tcp_keepalives_*`` settings; on the
  client's socket ``SO_KEEPALIVE`` and ``TCP_USER_TIMEOUT``, which asyncpg does not
  set), so a peer that vanished is noticed on an idle connection (a ``LISTEN``) and
  unacknowledged data is given up on in :data:`USER_TIMEOUT_MS` instead of ~15 minutes;
* a pool's ``acquire`` is bounded by its callers (:data:`ACQUIRE_TIMEOUT`).
"""

from __future__ import annotations

import socket

import asyncpg

#: Seconds the client waits for any statement's answer.
COMMAND_TIMEOUT = 30.0
#: Milliseconds the server lets one statement run (below :data:`COMMAND_TIMEOUT`).
STATEMENT_TIMEOUT_MS = 25_000
#: Milliseconds a session may sit idle inside an open transaction (a client gone mid-way).
IDLE_IN_TRANSACTION_MS = 60_000
#: Seconds a caller waits for a free pooled connection.
ACQUIRE_TIMEOUT = 10.0
#: Seconds to wait for a new connection (asyncpg's ``timeout`` on connect).
CONNECT_TIMEOUT = 15.0
#: Keepalive probes: first after this many idle seconds, then every ``INTERVAL``, given up after ``COUNT``.
KEEPALIVE_IDLE = 30
KEEPALIVE_INTERVAL = 10
KEEPALIVE_COUNT = 3
#: Milliseconds sent data may stay unacknowledged before the kernel closes the socket.
USER_TIMEOUT_MS = 30_000


def server_settings(statement_timeout_ms: int = STATEMENT_TIMEOUT_MS, **extra: str) -> dict[str, str]:
    """The session settings every connection starts with (``extra`` adds to them)."""
    return {
        "statement_timeout": f"{int(statement_timeout_ms)}ms",
        "idle_in_transaction_session_timeout": f"{IDLE_IN_TRANSACTION_MS}ms",
        "tcp_keepalives_idle": str(KEEPALIVE_IDLE),
        "tcp_keepalives_interval": str(KEEPALIVE_INTERVAL),
        "tcp_keepalives_count": str(KEEPALIVE_COUNT),
        **extra,
    }


def keep_alive(conn: asyncpg.Connection) -> None:
    """Turn on keepalives and a user timeout on the client's socket (TCP only; a Unix
    socket has no network to lose). asyncpg exposes no option for it, so the socket is
    taken from the connection's transport."""
    transport = getattr(conn, "_transport", None)
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6):
        return
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    for name, value in (
        ("TCP_KEEPIDLE", KEEPALIVE_IDLE),
        ("TCP_KEEPINTVL", KEEPALIVE_INTERVAL),
        ("TCP_KEEPCNT", KEEPALIVE_COUNT),
        ("TCP_USER_TIMEOUT", USER_TIMEOUT_MS),
    ):
        option = getattr(socket, name, None)
        if option is not None:  # Linux has them all; other systems some
            sock.setsockopt(socket.IPPROTO_TCP, option, value)


async def _init(conn: asyncpg.Connection) -> None:
    keep_alive(conn)


async def connect(
    url: str, *, command_timeout: float = COMMAND_TIMEOUT, statement_timeout_ms: int = STATEMENT_TIMEOUT_MS
) -> asyncpg.Connection:
    """One connection with the bounds above (a ``LISTEN``, a worker's queue connection)."""
    conn = await asyncpg.connect(
        url,
        timeout=CONNECT_TIMEOUT,
        command_timeout=command_timeout,
        server_settings=server_settings(statement_timeout_ms),
    )
    keep_alive(conn)
    return conn


async def create_pool(
    url: str,
    *,
    min_size: int,
    max_size: int,
    command_timeout: float = COMMAND_TIMEOUT,
    statement_timeout_ms: int = STATEMENT_TIMEOUT_MS,
    **settings: str,
) -> asyncpg.Pool:
    """A pool whose connections have the bounds above (``settings``: more session settings)."""
    pool: asyncpg.Pool = await asyncpg.create_pool(
        url,
        min_size=min_size,
        max_size=max_size,
        timeout=CONNECT_TIMEOUT,
        command_timeout=command_timeout,
        server_settings=server_settings(statement_timeout_ms, **settings),
        init=_init,
    )
    return pool
