"""The coach: hints, reviews, puzzles, lessons and rating charts, over one shared state.

:class:`Coach` holds the use cases of :mod:`bot.service.coach_hints`,
:mod:`~bot.service.coach_reviews`, :mod:`~bot.service.coach_puzzles` and
:mod:`~bot.service.coach_lessons`; the game service creates one and exposes its methods
to the adapters.
"""

from __future__ import annotations

from bot.clock import Clock
from bot.service.coach_hints import Hints
from bot.service.coach_lessons import Lessons, rating_chart
from bot.service.coach_puzzles import Puzzles
from bot.service.coach_results import Wording, plain_wording
from bot.service.coach_reviews import REVIEW_NODES, Reviews
from bot.service.coach_work import CoachWork, Pictures
from bot.storage import Storage
from bot.texts import FALLBACK
from engine.coach.puzzles import Puzzle


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
