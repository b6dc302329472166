"""Timer queries (deadlines, reminders, challenge expiry, bot turns to resume), and the
shards a process runs.

Several bot processes share one database, each running a range of Discord shards; each
applies only the timers of its own shards' guilds (docs/scaling.md says why this and not
leases). The filter is Discord's routing formula written in SQL both backends speak.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.storage.rows import CHALLENGE_COLUMNS, GAME_COLUMNS, ChallengeRow, GameRow


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord routes a guild to (``(guild_id >> 22) % shard_count``)."""
    return (guild_id >> 22) % shard_count


class Shards:
    """The shards one bot process runs: timers look only at games of these shards' guilds.

    ``None`` where a filter is taken means every guild (one process runs everything).
    """

    __slots__ = ("count", "ids")

    def __init__(self, count: int, ids: Sequence[int]) -> None:
        self.count = count
        self.ids = tuple(sorted(set(ids)))

    def sql(self, column: str = "guild_id") -> str:
        """A ``WHERE`` fragment true for rows of these shards (both backends speak it)."""
        return f"(({column} >> 22) % {int(self.count)}) IN ({', '.join(str(int(i)) for i in self.ids)})"

    def owns(self, guild_id: int) -> bool:
        """Whether this process runs the guild's shard."""
        return shard_of(guild_id, self.count) in self.ids

    def __repr__(self) -> str:
        return f"Shards(count={self.count}, ids={list(self.ids)})"


class TimerQueries:
    """What is due, for the shards of this process (``shards``; ``None``: every guild)."""

    _fetchone: Callable[..., Awaitable[Sequence[Any] | None]]
    _fetchall: Callable[..., Awaitable[list[Sequence[Any]]]]
    #: The shards whose guilds' timers this process applies (``None``: all guilds); the
    #: queries below use it when not given one (bot/scale.py sets it).
    shards: Shards | None = None

    async def due_reminders(self, now: float, shards: Shards | None = None) -> list[GameRow]:
        """Active games (of ``shards``' guilds) whose half-time reminder is due."""
        shards = shards or self.shards
        where = f" AND {shards.sql()}" if shards else ""
        rows = await self._fetchall(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' AND remind_at IS NOT NULL AND remind_at <= ?"
            " AND paused_at IS NULL"
            f"{where} ORDER BY remind_at",
            (now,),
        )
        return [GameRow(*r) for r in rows]

    async def due_timeouts(self, now: float, shards: Shards | None = None) -> list[GameRow]:
        """Active games (of ``shards``' guilds) whose turn deadline has passed."""
        shards = shards or self.shards
        where = f" AND {shards.sql()}" if shards else ""
        rows = await self._fetchall(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' AND deadline IS NOT NULL AND deadline <= ?"
            " AND paused_at IS NULL"
            f"{where} ORDER BY deadline",
            (now,),
        )
        return [GameRow(*r) for r in rows]

    async def bot_games_waiting(self, shards: Shards | None = None) -> list[GameRow]:
        """Active games against the bot (the service checks whose turn it is)."""
        shards = shards or self.shards
        where = f" AND {shards.sql()}" if shards else ""
        rows = await self._fetchall(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' AND (black_level IS NOT NULL"
            f" OR white_level IS NOT NULL){where} ORDER BY id"
        )
        return [GameRow(*r) for r in rows]

    async def next_due(self, shards: Shards | None = None) -> float | None:
        """The earliest pending reminder, deadline or challenge expiry, or ``None``."""
        shards = shards or self.shards
        where = f" AND {shards.sql()}" if shards else ""
        row = await self._fetchone(
            "SELECT MIN(t) FROM ("
            " SELECT MIN(remind_at) AS t FROM games WHERE status = 'active' AND remind_at IS NOT NULL"
            f" AND paused_at IS NULL{where}"
            " UNION ALL SELECT MIN(deadline) FROM games WHERE status = 'active' AND deadline IS NOT NULL"
            f" AND paused_at IS NULL{where}"
            f" UNION ALL SELECT MIN(expires_at) FROM challenges WHERE status = 'pending'{where}) AS due"
        )
        return float(row[0]) if row and row[0] is not None else None

    async def due_challenges(self, now: float, shards: Shards | None = None) -> list[ChallengeRow]:
        """Pending challenges (of ``shards``' guilds) past their expiry."""
        shards = shards or self.shards
        where = f" AND {shards.sql()}" if shards else ""
        rows = await self._fetchall(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE status = 'pending' AND expires_at <= ?{where}"
            " ORDER BY expires_at",
            (now,),
        )
        return [ChallengeRow(*r) for r in rows]
