"""The coach: hints, reviews, puzzles, lessons and rating charts, over one shared state.

:class:`Coach` holds the use cases of :mod:`bot.service.coach_hints`,
:mod:`~bot.service.coach_reviews`, :mod:`~bot.service.coach_puzzles` and
:mod:`~bot.service.coach_lessons`; the game service creates one and exposes its methods
to the adapters. :meth:`Coach.solve` is ``/seega solve``: the answer to whichever of
the puzzle and the lesson's exercise the person was shown last.
"""

from __future__ import annotations

from bot.clock import Clock
from bot.results import BadInputError
from bot.service.coach_hints import Hints
from bot.service.coach_lessons import Lessons, rating_chart
from bot.service.coach_puzzles import Puzzles, day_of
from bot.service.coach_results import LessonAnswer, PuzzleAnswer, Wording, plain_wording
from bot.service.coach_reviews import REVIEW_NODES, Reviews
from bot.service.coach_work import CoachWork, Pictures
from bot.storage import Storage
from bot.texts import FALLBACK
from engine.coach.lessons import LESSONS
from engine.coach.puzzles import Puzzle

#: What ``/seega solve`` answers (:meth:`Coach.solve`).
SolveAnswer = PuzzleAnswer | LessonAnswer


class Coach:
    """The coach's use cases.

    Args:
        storage: the database (with the coach's tables, migration 004).
        clock: the time source.
        work: runs analyses in the AI workers.
        pictures: draws boards and charts (``bot.render.coach_pictures``), or ``None``.
        bank: the puzzles (default: the shipped bank).
        review_nodes: the node budget per reviewed position.
    """

    def __init__(
        self,
        storage: Storage,
        clock: Clock,
        work: CoachWork,
        pictures: Pictures | None = None,
        *,
        bank: list[Puzzle] | None = None,
        review_nodes: int = REVIEW_NODES,
    ) -> None:
        self.storage = storage
        self.clock = clock
        self.pictures = pictures
        self.hints = Hints(storage, clock, work, pictures)
        self.reviews = Reviews(storage, clock, work, pictures, review_nodes)
        self.puzzles = Puzzles(storage, clock, pictures, bank)
        self.lessons = Lessons(storage, clock, pictures)

    async def rating_chart(
        self, guild_id: int, user_id: int, name: str, wording: Wording = plain_wording, *, lang: str = FALLBACK
    ) -> bytes | None:
        """The player's rating history chart (``None`` with no rated games or no renderer),
        its words laid out as ``lang`` (the language ``wording`` speaks) is written."""
        return await rating_chart(self.storage, self.pictures, guild_id, user_id, name, wording, lang=lang)

    async def solve(
        self,
        guild_id: int,
        user_id: int,
        name: str,
        text: str,
        channel_id: int | None = None,
        *,
        lang: str = FALLBACK,
    ) -> SolveAnswer:
        """``/seega solve``: ``text`` as the answer to what the user was shown last here.

        The last showing is stored (``coach_shown``, so it holds after a restart and in
        every bot process): a lesson answers its exercise; a puzzle asked with ``new``
        answers that puzzle; the puzzle of the day answers it on its own day. Otherwise
        (nothing shown, or yesterday's puzzle of the day) the answer is for the guild's
        puzzle of the day, the one everyone sees today: a member who read someone else's
        daily puzzle in the channel can answer it. A bank without puzzles and nothing
        shown leaves nothing to answer (``coach_nothing_to_solve``).
        """
        shown = await self.storage.coach_shown(guild_id, user_id)
        if shown is not None and shown[0] == "lesson" and shown[1].isdecimal() and 1 <= int(shown[1]) <= len(LESSONS):
            return await self.lessons.answer(user_id, int(shown[1]), text, channel_id)
        puzzle_id: str | None = None
        if shown is not None:
            # a new puzzle stays open; the puzzle of the day only on its own day
            today = shown[0] == "daily" and day_of(shown[2]) == day_of(self.clock.now())
            puzzle_id = shown[1] if shown[0] == "puzzle" or today else None
        else:
            row = await self.storage.puzzle_rating(guild_id, user_id)  # shown before migration 009
            puzzle_id = row.current if row is not None else None
        if puzzle_id is None or self.puzzles.by_id(puzzle_id) is None:
            daily = self.puzzles.current_daily(guild_id)
            if daily is None:
                raise BadInputError("coach_nothing_to_solve")
            puzzle_id = daily.id
        return await self.puzzles.answer(guild_id, user_id, name, text, puzzle_id=puzzle_id, lang=lang)
