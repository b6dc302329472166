"""Numbers from outside (ids, list lengths) kept within what the database can hold.

SQLite's INTEGER (and PostgreSQL's BIGINT) hold -2^63 .. 2^63-1. A larger Python int
reached the driver as an ``OverflowError`` with a traceback: ``/seega record
game:99999999999999999999999`` answered "something went wrong" instead of "there is no
game #...". An id out of that range names nothing that can exist, so lookups treat it as
unknown; list lengths are clamped to what the commands show.
"""

from __future__ import annotations

#: The range of a stored integer (SQLite INTEGER, PostgreSQL BIGINT).
STORED_MIN = -(2**63)
STORED_MAX = 2**63 - 1
#: The longest list a query returns (history, leaderboard).
MAX_LIST = 50


def storable(value: int) -> bool:
    """Whether ``value`` can be stored or looked up (an id out of range names nothing)."""
    return isinstance(value, int) and STORED_MIN <= value <= STORED_MAX


def list_length(limit: int) -> int:
    """``limit`` clamped to 1 .. :data:`MAX_LIST` (a negative SQL LIMIT would mean "all")."""
    return max(1, min(MAX_LIST, limit))
