"""SQLite storage (aiosqlite): games, challenges, ratings, settings. All SQL lives here.

SKELETON: being implemented.
"""

from __future__ import annotations


class Storage:
    """The database of one bot process; open with ``await Storage.open(path)``."""
