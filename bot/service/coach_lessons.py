"""``/seega learn``: the eight lessons, their exercises, and progress per user; and the
rating-history chart of ``/seega stats``."""

from __future__ import annotations

from bot.clock import Clock
from bot.results import BadInputError
from bot.service.coach_results import LessonAnswer, LessonView, Wording
from bot.service.coach_work import Pictures, in_thread
from bot.service.commands import answer_refusal
from bot.storage import Storage
from bot.storage.coach import MAX_TRY_TEXT
from bot.texts import FALLBACK, Text
from engine.coach.lessons import LESSONS, LessonVerdict, check_exercise
from engine.notation import board_text

SIZES = (5, 7, 9)


class Lessons:
    """The tutorial's use cases.

    The exercise open per (user, channel), answered by the real ``/move``/``/place``, and
    the unfinished try there (a pair's first cell, a chain's first capture, by ``/move`` or
    ``/seega solve``: the next try in that lesson may continue it, "c2 d2" after "c1 c2",
    or give the whole turn) are stored (``coach_open_lessons``, migration 015), not kept
    in this object: they survive a restart and every bot process sees the same ones. The
    table is bounded by the storage (:data:`bot.storage.coach.LESSON_ROWS_PER_USER`
    channels per user, rows idle for :data:`bot.storage.coach.LESSON_ROW_DAYS` days
    dropped); a forgotten exercise costs its user a ``/seega learn``. A try stores the
    actions played, never the typed text (at most :data:`bot.storage.coach.MAX_TRY_TEXT`
    characters).
    """

    def __init__(self, storage: Storage, clock: Clock, pictures: Pictures | None) -> None:
        self.storage = storage
        self.clock = clock
        self.pictures = pictures

    async def active(self, user_id: int, channel_id: int) -> int | None:
        """The lesson whose exercise ``user_id`` opened in ``channel_id``, if unsolved."""
        row = await self.storage.lesson_exercise(user_id, channel_id, self.clock.now())
        if row is None or row.lesson is None or not 1 <= row.lesson <= len(LESSONS):
            return None
        return row.lesson

    @staticmethod
    def _check_number(number: int) -> None:
        if not 1 <= number <= len(LESSONS):
            raise BadInputError("coach_bad_lesson", count=len(LESSONS))

    async def show(
        self,
        user_id: int,
        number: int | None = None,
        channel_id: int | None = None,
        *,
        guild_id: int | None = None,
        lang: str = FALLBACK,
    ) -> LessonView:
        """A lesson: the one asked for, or the first the user has not done yet; its picture's
        words in ``lang`` (the reader's, as the adapter words the lesson).

        Shown in a channel, its exercise is opened there: the user's next ``/move`` or
        ``/place`` in that channel answers it (:meth:`active`). Shown in a guild, it is
        what the user's ``/seega solve`` there answers, until a puzzle is shown.
        """
        done = await self.storage.lessons_done(user_id)
        if number is None:
            number = next((i for i, item in enumerate(LESSONS, 1) if item.id not in done), 1)
        self._check_number(number)
        item = LESSONS[number - 1]
        if channel_id is not None:
            await self.storage.open_lesson_exercise(user_id, channel_id, number, self.clock.now())
        if guild_id is not None:
            await self.storage.set_coach_shown(guild_id, user_id, "lesson", str(number), self.clock.now())
        pos = item.position()
        image = None
        if self.pictures is not None:
            image = await in_thread(self.pictures.board_png, pos, marks=item.marks, lang=lang)
        done_count = sum(1 for lesson in LESSONS if lesson.id in done)
        return LessonView(number, len(LESSONS), item.id, pos.side, item.id in done, done_count, board_text(pos), image)

    async def answer(self, user_id: int, number: int, text: str, channel_id: int | None = None) -> LessonAnswer:
        """Check an exercise try; a solved exercise is stored (and closed) and the next lesson named."""
        self._check_number(number)
        item = LESSONS[number - 1]
        started = None
        if channel_id is not None:
            row = await self.storage.lesson_exercise(user_id, channel_id, self.clock.now())
            started = row.tried if row is not None else None
        verdict = check_exercise(item, text)
        tried = text
        if started is not None and started[0] == number and not verdict.solved:
            # The rest of the turn ("c2 d2" after "c1 c2", as the answer asked), unless
            # only the try alone can be played (the chain typed again from its start).
            continued = check_exercise(item, f"{started[1]} {text}")
            if _playable(continued) or not _playable(verdict):
                verdict, tried = continued, f"{started[1]} {text}"
        keep: tuple[int, str] | None = None
        if verdict.played and verdict.key.endswith((".more", "incomplete")):
            keep = (number, " ".join(verdict.played))
        elif started is not None and tried != text and not _playable(verdict):
            # A refused next step ("c2 c3" after "c1 c2"): nothing was counted, and the
            # chain stays where it was, as the refusal's "from c2 you can step to d2"
            # says (play-test: the board had gone back to the start, "c2 is empty").
            keep = started
        if keep is not None and len(keep[1]) > MAX_TRY_TEXT:
            keep = None  # cannot happen (a few legal actions of one turn); never stored unbounded
        if channel_id is not None and keep != started:
            await self.storage.save_lesson_try(user_id, channel_id, keep, self.clock.now())
        if verdict.solved:
            await self.storage.close_lesson_exercise(user_id, number)
            await self.storage.mark_lesson_done(user_id, item.id, self.clock.now())
        done = await self.storage.lessons_done(user_id)
        following = next((i for i, lesson in enumerate(LESSONS, 1) if lesson.id not in done), None)
        next_number = following if verdict.solved else None
        done_count = sum(1 for lesson in LESSONS if lesson.id in done)
        refused = verdict.key.endswith((".illegal", ".unreadable", ".offboard"))
        refusal = answer_refusal(item.position(), tried) if refused else None
        if refusal is not None and item.goal == "near_centre" and isinstance(refusal.params.get("options"), list):
            # The cells the lesson asks for, not every free one (play-test: "c3 is the
            # centre...; you can place on a1, a2, ... and 12 more" in the centre lesson).
            wanted = [cell for cell in refusal.params["options"] if cell in item.marks]
            if wanted:
                refusal = Text(refusal.key, {**refusal.params, "options": wanted})
        return LessonAnswer(
            number,
            item.id,
            verdict.solved,
            verdict.key,
            verdict.detail,
            next_number,
            done_count,
            len(LESSONS),
            refusal,
        )


async def rating_chart(
    storage: Storage,
    pictures: Pictures | None,
    guild_id: int,
    user_id: int,
    name: str,
    wording: Wording,
    *,
    lang: str = FALLBACK,
) -> bytes | None:
    """The player's rating after each rated game, one line per board size (``None``: no games)."""
    if pictures is None:
        return None
    series: dict[int, list[float]] = {}
    for size in SIZES:
        changes = await storage.rating_history(guild_id, user_id, size)
        if changes:
            series[size] = [changes[0][1], *(after for _g, _b, after in changes)]
    if not series:
        return None
    shown = pictures.shown_name(name, lang, "")  # "" for a name the font cannot draw (all emoji)
    words = pictures.chart_words(
        wording("coach.stats.chart_title", name=shown) if shown else wording("coach.stats.chart_title_nameless"),
        x_axis=wording("coach.stats.chart_games"),
        legend={str(s): f"{s}×{s}" for s in series},
        lang=lang,
    )
    return await in_thread(pictures.rating_chart, series, words)


def _playable(verdict: LessonVerdict) -> bool:
    """Whether a try could be read and played as far as it went (right, wrong or unfinished)."""
    return not verdict.key.endswith(".illegal") and not verdict.key.startswith("coach.answer.")
