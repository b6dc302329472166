"""The coach's tables (migration ``005_coach.sql`` and later ones, both backends): reviews, hints,
puzzles, lessons and the lesson exercises open per channel (``015_open_lessons.sql``).

A mixin of :class:`bot.storage.Storage`: the queries live apart from the game tables so
the two change independently, but they use the storage's own helpers (``_fetchone``,
``_fetchall``, ``_write``) and only SQL that SQLite and PostgreSQL share, with ``?``
placeholders. A write body only calls ``execute`` (and :func:`_first` to read inside the
transaction), which every backend's transaction object offers.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, TypeVar

from bot.storage.locks import lock_key
from bot.storage.rows import GameMovedOnError
from bot.texts import shown_name
from engine.coach.answers import MAX_ANSWER

T = TypeVar("T")


@dataclass(frozen=True)
class PuzzleRatingRow:
    """A solver's puzzle rating (Glicko-2) and streak in one guild."""

    guild_id: int
    user_id: int
    name: str
    rating: float = 1500.0
    rd: float = 350.0
    vol: float = 0.06
    solved: int = 0
    failed: int = 0
    streak: int = 0
    best_streak: int = 0
    current: str | None = None
    updated_at: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", shown_name(self.name))


_PUZZLE_COLS = ", ".join(f.name for f in fields(PuzzleRatingRow))
_PUZZLE_MARKS = ", ".join("?" for _ in fields(PuzzleRatingRow))
#: Updates a rating row: (row before, solved?) -> row after.
PuzzleRater = Callable[[PuzzleRatingRow, bool], PuzzleRatingRow]


async def _first(tx: Any, sql: str, params: Sequence[Any]) -> Sequence[Any] | None:
    """The first row of a query inside a write transaction, on any backend."""
    if hasattr(tx, "execute_fetchall"):  # an aiosqlite connection
        rows = await tx.execute_fetchall(sql, params)
        return next(iter(rows), None)
    return await tx.fetchone(sql, params)  # type: ignore[no-any-return]


#: A takeback to ``ply`` actions (parameters: game id, ``ply``): the hints taken at or past
#: it still count, but no longer mark their position as paid for. The same number of
#: actions is another position once the game goes on differently (outside review, stop
#: 38: a hint, a takeback and another turn, and every hint after was free). Run in the
#: takeback's own transaction (:meth:`bot.storage.Storage.take_back`).
FORGET_HINT_POSITIONS_SQL = "UPDATE coach_hints SET ply = NULL WHERE game_id = ? AND ply >= ?"


class CoachQueries:
    """The coach's queries; mixed into :class:`bot.storage.Storage`."""

    _fetchone: Callable[..., Awaitable[Any]]
    _fetchall: Callable[..., Awaitable[list[Any]]]
    _write: Callable[..., Awaitable[Any]]

    # ----------------------------------------------------------------- reviews
    async def coach_review(self, game_id: int) -> tuple[int, str] | None:
        """A stored review of a game: ``(max_nodes, JSON)``, or ``None``."""
        row = await self._fetchone("SELECT max_nodes, data FROM coach_reviews WHERE game_id = ?", (game_id,))
        return (int(row[0]), str(row[1])) if row else None

    async def save_coach_review(self, game_id: int, max_nodes: int, data: str, now: float) -> None:
        """Store (or replace) a game's review."""

        async def body(tx: Any) -> None:
            await tx.execute(
                "INSERT INTO coach_reviews (game_id, max_nodes, data, created_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET max_nodes = excluded.max_nodes, data = excluded.data,"
                " created_at = excluded.created_at",
                (game_id, max_nodes, data, now),
            )

        await self._write(body)

    # ----------------------------------------------------------------- hints
    async def take_hint(
        self,
        game_id: int,
        user_id: int,
        turn: int,
        limit: int,
        now: float,
        ply: int | None = None,
        actions: str | None = None,
    ) -> int | None:
        """Count one hint for ``user_id`` in a game unless ``limit`` is reached.

        Returns the number of hints the user has now taken in the game, or ``None`` when
        the limit was already reached (nothing written). Count and insert are one
        transaction, so two quick requests cannot both pass the limit. A hint at a
        position (``ply``: the actions played before it) already counted is not counted
        again: the same answer asked for twice costs one hint.

        With ``actions`` (the game's actions when the hint was asked), raises
        :class:`GameMovedOnError` and writes nothing if the game has moved since: a hint
        searched while its asker took the turn back was marked at a position the
        takeback had just unmarked, and the next position at that ply was free (outside
        review, stop 39).
        """

        async def body(tx: Any) -> int | None:
            await tx.lock([lock_key("hints", game_id, user_id)])  # count and insert as one, across processes
            if actions is not None:
                now_row = await _first(tx, "SELECT actions FROM games WHERE id = ?", (game_id,))
                if now_row is None or now_row[0] != actions:
                    raise GameMovedOnError(f"game {game_id} moved on while a hint was searched")
            row = await _first(
                tx, "SELECT COUNT(*) FROM coach_hints WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
            used = int(row[0]) if row else 0
            if ply is not None and await _first(
                tx,
                "SELECT 1 FROM coach_hints WHERE game_id = ? AND user_id = ? AND ply = ?",
                (game_id, user_id, ply),
            ):
                return used
            if used >= limit:
                return None
            await tx.execute(
                "INSERT INTO coach_hints (game_id, user_id, turn, created_at, ply) VALUES (?, ?, ?, ?, ?)",
                (game_id, user_id, turn, now, ply),
            )
            return used + 1

        result: int | None = await self._write(body)
        return result

    async def hint_taken_at(self, game_id: int, user_id: int, ply: int) -> bool:
        """Whether ``user_id`` already took (and was counted) a hint at this position."""
        row = await self._fetchone(
            "SELECT 1 FROM coach_hints WHERE game_id = ? AND user_id = ? AND ply = ?", (game_id, user_id, ply)
        )
        return row is not None

    async def hint_count(self, game_id: int, user_id: int) -> int:
        """Hints ``user_id`` has taken in a game."""
        row = await self._fetchone(
            "SELECT COUNT(*) FROM coach_hints WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        )
        return int(row[0]) if row else 0

    async def hint_counts(self, game_ids: Sequence[int]) -> dict[int, int]:
        """Hints taken in each of ``game_ids`` (games without hints are left out)."""
        ids = [int(g) for g in game_ids][:500]
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._fetchall(
            f"SELECT game_id, COUNT(*) FROM coach_hints WHERE game_id IN ({marks}) GROUP BY game_id", ids
        )
        return {int(r[0]): int(r[1]) for r in rows}

    async def games_with_hints(self, guild_id: int, user_id: int) -> int:
        """How many of a player's games in a guild used at least one of their hints."""
        row = await self._fetchone(
            "SELECT COUNT(DISTINCT h.game_id) FROM coach_hints h JOIN games g ON g.id = h.game_id"
            " WHERE g.guild_id = ? AND h.user_id = ?",
            (guild_id, user_id),
        )
        return int(row[0]) if row else 0

    async def hint_limit(self, guild_id: int, default: int) -> int:
        """The guild's hint limit per player and game."""
        row = await self._fetchone("SELECT hint_limit FROM coach_settings WHERE guild_id = ?", (guild_id,))
        return int(row[0]) if row else default

    async def save_hint_limit(self, guild_id: int, limit: int) -> None:
        """Set the guild's hint limit."""

        async def body(tx: Any) -> None:
            await tx.execute(
                "INSERT INTO coach_settings (guild_id, hint_limit) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET hint_limit = excluded.hint_limit",
                (guild_id, limit),
            )

        await self._write(body)

    # ----------------------------------------------------------------- puzzles
    async def puzzle_rating(self, guild_id: int, user_id: int) -> PuzzleRatingRow | None:
        """A solver's row, or ``None`` before their first puzzle."""
        row = await self._fetchone(
            f"SELECT {_PUZZLE_COLS} FROM coach_puzzle_ratings WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return PuzzleRatingRow(*row) if row else None

    async def set_current_puzzle(self, guild_id: int, user_id: int, name: str, puzzle_id: str, now: float) -> None:
        """Remember which puzzle the user is solving (their answer is checked against it)."""

        async def body(tx: Any) -> None:
            await tx.execute(
                f"INSERT INTO coach_puzzle_ratings ({_PUZZLE_COLS}) VALUES ({_PUZZLE_MARKS})"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET current = excluded.current, name = excluded.name",
                tuple(
                    getattr(PuzzleRatingRow(guild_id, user_id, name, current=puzzle_id, updated_at=now), f.name)
                    for f in fields(PuzzleRatingRow)
                ),
            )

        await self._write(body)

    async def record_puzzle_attempt(
        self, guild_id: int, user_id: int, name: str, puzzle_id: str, solved: bool, rater: PuzzleRater, now: float
    ) -> tuple[bool, PuzzleRatingRow, PuzzleRatingRow]:
        """Store an answer; the first answer to a puzzle is rated and moves the streak.

        Returns ``(first, before, after)``; for a later answer ``before == after``.
        """

        async def body(tx: Any) -> tuple[bool, PuzzleRatingRow, PuzzleRatingRow]:
            await tx.lock([lock_key("puzzle rating", guild_id, user_id)])  # read, rate, write as one
            row = await _first(
                tx,
                f"SELECT {_PUZZLE_COLS} FROM coach_puzzle_ratings WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            before = PuzzleRatingRow(*row) if row else PuzzleRatingRow(guild_id, user_id, name, updated_at=now)
            seen = await _first(
                tx,
                "SELECT solved FROM coach_puzzle_attempts WHERE guild_id = ? AND user_id = ? AND puzzle_id = ?",
                (guild_id, user_id, puzzle_id),
            )
            if seen is not None:
                return False, before, before
            await tx.execute(
                "INSERT INTO coach_puzzle_attempts (guild_id, user_id, puzzle_id, solved, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (guild_id, user_id, puzzle_id, int(solved), now),
            )
            after = replace(rater(before, solved), name=name, updated_at=now)
            await tx.execute(
                f"INSERT INTO coach_puzzle_ratings ({_PUZZLE_COLS}) VALUES ({_PUZZLE_MARKS})"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name, rating = excluded.rating,"
                " rd = excluded.rd, vol = excluded.vol, solved = excluded.solved, failed = excluded.failed,"
                " streak = excluded.streak, best_streak = excluded.best_streak, updated_at = excluded.updated_at",
                tuple(getattr(after, f.name) for f in fields(PuzzleRatingRow)),
            )
            return True, before, after

        result: tuple[bool, PuzzleRatingRow, PuzzleRatingRow] = await self._write(body)
        return result

    async def puzzles_attempted(self, guild_id: int, user_id: int) -> set[str]:
        """Ids of the puzzles the user has answered in this guild."""
        rows = await self._fetchall(
            "SELECT puzzle_id FROM coach_puzzle_attempts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return {str(r[0]) for r in rows}

    async def puzzle_leaderboard(self, guild_id: int, limit: int = 10) -> list[PuzzleRatingRow]:
        """The best solvers of a guild (at least one puzzle solved: "1. Bob: 1400 · 0 solved"
        headed a list of the best solvers), best first."""
        rows = await self._fetchall(
            f"SELECT {_PUZZLE_COLS} FROM coach_puzzle_ratings WHERE guild_id = ? AND solved > 0"
            " ORDER BY rating DESC, user_id LIMIT ?",
            (guild_id, max(1, min(limit, 50))),
        )
        return [PuzzleRatingRow(*r) for r in rows]

    # ----------------------------------------------------------------- shown last
    async def coach_shown(self, guild_id: int, user_id: int) -> tuple[str, str, float] | None:
        """What the coach showed ``user_id`` last in a guild (migration 009):
        ``(kind, item, shown_at)`` with kind ``puzzle``, ``daily`` or ``lesson``."""
        row = await self._fetchone(
            "SELECT kind, item, shown_at FROM coach_shown WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return (str(row[0]), str(row[1]), float(row[2])) if row else None

    async def set_coach_shown(self, guild_id: int, user_id: int, kind: str, item: str, now: float) -> None:
        """Remember what the coach showed ``user_id`` last in a guild (``/seega solve`` answers it)."""

        async def body(tx: Any) -> None:
            await tx.execute(
                "INSERT INTO coach_shown (guild_id, user_id, kind, item, shown_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET kind = excluded.kind, item = excluded.item,"
                " shown_at = excluded.shown_at",
                (guild_id, user_id, kind, item, now),
            )

        await self._write(body)

    # ----------------------------------------------------------------- lessons
    async def lessons_done(self, user_id: int) -> set[str]:
        """The lessons a user has completed."""
        rows = await self._fetchall("SELECT lesson FROM coach_lessons WHERE user_id = ?", (user_id,))
        return {str(r[0]) for r in rows}

    async def mark_lesson_done(self, user_id: int, lesson: str, now: float) -> None:
        """Record a completed lesson (again is harmless)."""

        async def body(tx: Any) -> None:
            await tx.execute(
                "INSERT INTO coach_lessons (user_id, lesson, done_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id, lesson) DO NOTHING",
                (user_id, lesson, now),
            )

        await self._write(body)

    # ----------------------------------------------------------------- open exercises
    async def lesson_exercise(self, user_id: int, channel_id: int, now: float) -> LessonExerciseRow | None:
        """The lesson exercise ``user_id`` has open in ``channel_id`` and their unfinished
        try there (migration 015), or ``None``; a row untouched for
        :data:`LESSON_ROW_DAYS` days is not read (it is deleted at the next write)."""
        row = await self._fetchone(
            "SELECT lesson, try_lesson, try_actions FROM coach_open_lessons"
            " WHERE user_id = ? AND channel_id = ? AND updated_at >= ?",
            (user_id, channel_id, now - LESSON_ROW_DAYS * 86_400),
        )
        if row is None:
            return None
        tried = (int(row[1]), str(row[2])) if row[1] is not None and row[2] is not None else None
        return LessonExerciseRow(None if row[0] is None else int(row[0]), tried)

    async def open_lesson_exercise(self, user_id: int, channel_id: int, lesson: int, now: float) -> None:
        """Open ``lesson``'s exercise for ``user_id`` in ``channel_id``, without a try begun."""

        async def body(tx: Any) -> None:
            await tx.execute(
                "INSERT INTO coach_open_lessons (user_id, channel_id, lesson, try_lesson, try_actions, updated_at)"
                " VALUES (?, ?, ?, NULL, NULL, ?) ON CONFLICT (user_id, channel_id) DO UPDATE SET"
                " lesson = excluded.lesson, try_lesson = NULL, try_actions = NULL, updated_at = excluded.updated_at",
                (user_id, channel_id, lesson, now),
            )
            await _trim_lesson_rows(tx, user_id, now)

        await self._write(body)

    async def save_lesson_try(self, user_id: int, channel_id: int, tried: tuple[int, str] | None, now: float) -> None:
        """Keep (or, with ``None``, forget) the unfinished try ``(lesson, played actions)`` of
        ``user_id`` in ``channel_id``; the open exercise there is left as it is.

        Raises:
            ValueError: the actions are longer than :data:`MAX_TRY_TEXT` (nothing written).
        """
        if tried is not None and len(tried[1]) > MAX_TRY_TEXT:
            raise ValueError(f"an unfinished try of {len(tried[1])} characters is not stored")

        async def body(tx: Any) -> None:
            if tried is None:
                await tx.execute(
                    "UPDATE coach_open_lessons SET try_lesson = NULL, try_actions = NULL, updated_at = ?"
                    " WHERE user_id = ? AND channel_id = ?",
                    (now, user_id, channel_id),
                )
                await tx.execute(
                    "DELETE FROM coach_open_lessons WHERE user_id = ? AND channel_id = ? AND lesson IS NULL",
                    (user_id, channel_id),
                )
                return
            await tx.execute(
                "INSERT INTO coach_open_lessons (user_id, channel_id, lesson, try_lesson, try_actions, updated_at)"
                " VALUES (?, ?, NULL, ?, ?, ?) ON CONFLICT (user_id, channel_id) DO UPDATE SET"
                " try_lesson = excluded.try_lesson, try_actions = excluded.try_actions,"
                " updated_at = excluded.updated_at",
                (user_id, channel_id, tried[0], tried[1], now),
            )
            await _trim_lesson_rows(tx, user_id, now)

        await self._write(body)

    async def close_lesson_exercise(self, user_id: int, lesson: int) -> None:
        """Close ``lesson``'s exercise for ``user_id`` in every channel (it was solved)."""

        async def body(tx: Any) -> None:
            await tx.execute(
                "UPDATE coach_open_lessons SET lesson = NULL WHERE user_id = ? AND lesson = ?", (user_id, lesson)
            )
            await tx.execute(
                "DELETE FROM coach_open_lessons WHERE user_id = ? AND lesson IS NULL AND try_lesson IS NULL",
                (user_id,),
            )

        await self._write(body)


@dataclass(frozen=True)
class LessonExerciseRow:
    """A user's lesson state in one channel: the open exercise (its number) and the
    unfinished try ``(lesson number, played actions)``; either may be ``None``."""

    lesson: int | None
    tried: tuple[int, str] | None


#: Channels per user whose open exercise and unfinished try are kept (the newest by last
#: write): nobody takes lessons in more channels at once, and one user cannot grow the
#: table without limit by opening lessons everywhere.
LESSON_ROWS_PER_USER = 20
#: Days after its last write that a row is no longer read; it is deleted at the next
#: write by anyone. An exercise left that long is reopened by ``/seega learn``.
LESSON_ROW_DAYS = 30
#: The longest unfinished try stored. A try is the actions already played in one turn of
#: a lesson's position (a few cells), never the typed text; an answer is read no further
#: than :data:`engine.coach.answers.MAX_ANSWER` characters, so a longer try could not be
#: continued anyway.
MAX_TRY_TEXT = MAX_ANSWER


async def _trim_lesson_rows(tx: Any, user_id: int, now: float) -> None:
    """Keep the user's newest :data:`LESSON_ROWS_PER_USER` rows and drop everyone's stale ones."""
    await tx.execute(
        "DELETE FROM coach_open_lessons WHERE user_id = ? AND channel_id NOT IN"
        " (SELECT channel_id FROM coach_open_lessons WHERE user_id = ?"
        " ORDER BY updated_at DESC, channel_id DESC LIMIT ?)",
        (user_id, user_id, LESSON_ROWS_PER_USER),
    )
    await tx.execute("DELETE FROM coach_open_lessons WHERE updated_at < ?", (now - LESSON_ROW_DAYS * 86_400,))
