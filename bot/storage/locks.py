"""Keys for the locks a write transaction takes (``Transaction.lock``).

A read-modify-write of shared rows (a player's rating, a user's hint count) must not
run twice at once from two processes: under PostgreSQL's READ COMMITTED both would read
the same old value. The transaction locks a key naming the thing first (PostgreSQL:
``pg_advisory_xact_lock``, released at commit; SQLite: its one write lock already holds).
"""

from __future__ import annotations

import hashlib


def lock_key(*parts: object) -> int:
    """A signed 64-bit key naming a thing to lock, the same in every process."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)
