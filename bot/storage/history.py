r"""Reads of ratings, records and history (``/seega leaderboard``, ``stats``, ``history``).

A mixin of :class:`bot.storage.contract.Storage`: plain ``SELECT``\ s in the SQL both
backends share, run through the backend's ``_fetchone``/``_fetchall``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.storage.rows import GAME_COLUMNS, RATING_COLUMNS, GameRow, RatingRow, TallyRow

#: Active games a person plays in a guild (parameters: guild, user, user); bot seats
#: (a level) are not a person's.
ACTIVE_COUNT_SQL = (
    "SELECT COUNT(*) FROM games WHERE guild_id = ? AND status = 'active' AND"
    " ((black_id = ? AND black_level IS NULL) OR (white_id = ? AND white_level IS NULL))"
)


class HistoryQueries:
    """Ratings, tallies and recent games."""

    _fetchone: Callable[..., Awaitable[Sequence[Any] | None]]
    _fetchall: Callable[..., Awaitable[list[Sequence[Any]]]]

    async def ratings_of(self, guild_id: int, user_id: int) -> list[RatingRow]:
        """A player's ratings on every size, smallest board first."""
        rows = await self._fetchall(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY size",
            (guild_id, user_id),
        )
        return [RatingRow(*r) for r in rows]

    async def leaderboard(self, guild_id: int, size: int, limit: int = 10, offset: int = 0) -> list[RatingRow]:
        """Rated players on ``size`` by rating, highest first (ties: more games, then earlier id)."""
        rows = await self._fetchall(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND size = ? AND games > 0"
            " ORDER BY rating DESC, games DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, size, limit, offset),
        )
        return [RatingRow(*r) for r in rows]

    async def tallies(self, guild_id: int, user_id: int) -> list[TallyRow]:
        """A player's finished-game record, grouped by the opponent's bot level
        (``None``: against people)."""
        rows = await self._fetchall(
            "SELECT opp_level,"
            " SUM(CASE WHEN (color = 'b' AND result = '1-0') OR (color = 'w' AND result = '0-1') THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN (color = 'b' AND result = '0-1') OR (color = 'w' AND result = '1-0') THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN result = '1/2-1/2' THEN 1 ELSE 0 END)"
            " FROM ("
            "  SELECT 'b' AS color, white_level AS opp_level, result FROM games"
            "   WHERE guild_id = ? AND black_id = ? AND black_level IS NULL AND status = 'finished'"
            "  UNION ALL"
            "  SELECT 'w', black_level, result FROM games"
            "   WHERE guild_id = ? AND white_id = ? AND white_level IS NULL AND status = 'finished'"
            " ) AS sides GROUP BY opp_level",
            (guild_id, user_id, guild_id, user_id),
        )
        return [TallyRow(r[0], int(r[1] or 0), int(r[2] or 0), int(r[3] or 0)) for r in rows]

    async def active_count(self, guild_id: int, user_id: int) -> int:
        """Active games the player is in."""
        row = await self._fetchone(ACTIVE_COUNT_SQL, (guild_id, user_id, user_id))
        return int(row[0]) if row else 0

    async def history(self, guild_id: int, user_id: int | None = None, limit: int = 10) -> list[GameRow]:
        """Recent games (not corrupt) of the guild or of one player, newest first."""
        if user_id is None:
            rows = await self._fetchall(
                f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ? AND status != 'corrupt' ORDER BY id DESC LIMIT ?",
                (guild_id, limit),
            )
        else:
            rows = await self._fetchall(
                f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ? AND status != 'corrupt' AND"
                " ((black_id = ? AND black_level IS NULL) OR (white_id = ? AND white_level IS NULL))"
                " ORDER BY id DESC LIMIT ?",
                (guild_id, user_id, user_id, limit),
            )
        return [GameRow(*r) for r in rows]

    async def rating_history(
        self, guild_id: int, user_id: int, size: int | None = None
    ) -> list[tuple[int, float, float]]:
        """A player's rating changes as ``(game_id, before, after)``, oldest first."""
        if size is None:
            rows = await self._fetchall(
                "SELECT game_id, before, after FROM rating_history WHERE guild_id = ? AND user_id = ? ORDER BY id",
                (guild_id, user_id),
            )
        else:
            rows = await self._fetchall(
                "SELECT game_id, before, after FROM rating_history WHERE guild_id = ? AND user_id = ? AND size = ?"
                " ORDER BY id",
                (guild_id, user_id, size),
            )
        return [(int(r[0]), float(r[1]), float(r[2])) for r in rows]
