"""``/seega puzzle``: a puzzle of the day per guild, ``new`` ones, answers, streaks, ratings.

The puzzles are the engine's verified bank (``engine/coach/puzzles.json``). The puzzle of
the day is picked from the guild id and the UTC date (the same for everyone that day),
among the ``standard`` puzzles (the rules the bot teaches first). ``new`` picks a puzzle
the solver has not answered yet (never the one just shown): while they have solved fewer
than :data:`BEGINNER_SOLVED`, among the standard 5x5 ones; then among the puzzles whose
rating is within :data:`NEAR_RATING` of the nearest, with a seed made of the guild, the
user and their progress, so the choice is varied yet reproducible.

The first answer (right or wrong) to a puzzle is rated: a Glicko-2 period against the
puzzle's fixed rating (its difficulty, docs/coach.md) with deviation
:data:`PUZZLE_RD`, and it moves the streak; later answers to the same puzzle are only
judged. An answer that cannot be played (unreadable, illegal, a chain stopped early) is
answered at once and not counted, so a typo costs nothing.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import replace

from bot.clock import Clock
from bot.ratings import glicko2_update
from bot.results import BadInputError
from bot.service.coach_results import PuzzleAnswer, PuzzleLeader, PuzzleView
from bot.service.coach_work import Pictures, in_thread
from bot.service.commands import answer_refusal
from bot.storage import Storage
from bot.storage.coach import PuzzleRatingRow
from bot.texts import FALLBACK
from bot.texts import text as t
from engine.actions import Action
from engine.coach.puzzles import Puzzle, judge, load_bank
from engine.notation import board_text

#: The deviation a puzzle's fixed rating is taken to have.
PUZZLE_RD = 80.0
#: The most one answer moves a solver's rating. Glicko-2 alone moves a new solver (RD
#: 350) by hundreds: 1500 -> 1037 for one miss of an easy puzzle. Once the RD is low the
#: change is far below this, so the cap only damps the first answers.
MAX_SWING = 100.0
RATED_OUTCOMES = ("solved", "wrong")
#: The variant the daily puzzle and a beginner's ``new`` puzzles come from.
FIRST_VARIANT = "standard"
FIRST_SIZE = 5
#: A solver with fewer solved puzzles than this gets the standard 5x5 ones first.
BEGINNER_SOLVED = 20
#: ``new`` chooses among the puzzles this close (rating points) to the nearest one.
NEAR_RATING = 100


def day_of(now: float) -> str:
    """The UTC date of an epoch time, ``YYYY-MM-DD``."""
    return time.strftime("%Y-%m-%d", time.gmtime(now))


def daily_index(guild_id: int, day: str, count: int) -> int:
    """The bank index of a guild's puzzle of the day (stable, spread evenly)."""
    digest = hashlib.sha256(f"{guild_id}:{day}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % count


def daily_pool(bank: list[Puzzle]) -> list[Puzzle]:
    """The puzzles the puzzle of the day is chosen from: the standard ones, if any."""
    return [p for p in bank if p.variant == FIRST_VARIANT] or bank


def choose_new(
    bank: list[Puzzle], done: set[str], current: str | None, rating: float, solved: int, seed: str
) -> Puzzle:
    """The puzzle ``new`` shows: unanswered, not ``current``, near ``rating``, varied.

    ``seed`` picks among the near candidates (the same seed, the same choice).
    """
    pool = [p for p in bank if p.id not in done and p.id != current] or [p for p in bank if p.id != current] or bank
    if solved < BEGINNER_SOLVED:
        first = [p for p in pool if p.variant == FIRST_VARIANT]
        pool = [p for p in first if p.size == FIRST_SIZE] or first or pool
    nearest = min(abs(p.rating - rating) for p in pool)
    near = sorted((p for p in pool if abs(p.rating - rating) <= nearest + NEAR_RATING), key=lambda p: p.id)
    digest = hashlib.sha256(seed.encode()).digest()
    return near[int.from_bytes(digest[:8], "big") % len(near)]


def rate_answer(row: PuzzleRatingRow, puzzle_rating: float, solved: bool) -> PuzzleRatingRow:
    """The solver's row after one rated answer."""
    rating, rd, vol = glicko2_update(row.rating, row.rd, row.vol, [(puzzle_rating, PUZZLE_RD, 1.0 if solved else 0.0)])
    rating = min(row.rating + MAX_SWING, max(row.rating - MAX_SWING, rating))
    streak = row.streak + 1 if solved else 0
    return replace(
        row,
        rating=rating,
        rd=rd,
        vol=vol,
        solved=row.solved + solved,
        failed=row.failed + (not solved),
        streak=streak,
        best_streak=max(row.best_streak, streak),
    )


class Puzzles:
    """The puzzle use cases."""

    def __init__(
        self,
        storage: Storage,
        clock: Clock,
        pictures: Pictures | None,
        bank: list[Puzzle] | None = None,
    ) -> None:
        self.storage = storage
        self.clock = clock
        self.pictures = pictures
        self._bank = bank
        self._by_id: dict[str, Puzzle] = {}

    @property
    def bank(self) -> list[Puzzle]:
        """The puzzles (the shipped bank, read on first use)."""
        if self._bank is None:
            self._bank = load_bank()
        if not self._by_id:
            self._by_id = {p.id: p for p in self._bank}
        return self._bank

    def by_id(self, puzzle_id: str) -> Puzzle | None:
        """The puzzle with this id, if the bank has it."""
        _ = self.bank
        return self._by_id.get(puzzle_id)

    def daily(self, guild_id: int) -> tuple[Puzzle, str]:
        """The guild's puzzle of the day and the day (the bank must not be empty)."""
        day = day_of(self.clock.now())
        pool = daily_pool(self.bank)
        return pool[daily_index(guild_id, day, len(pool))], day

    async def show(
        self, guild_id: int, user_id: int, name: str, new: bool = False, *, lang: str = FALLBACK
    ) -> PuzzleView:
        """The puzzle of the day, or with ``new`` another one; it becomes the one to answer."""
        done = await self.storage.puzzles_attempted(guild_id, user_id)
        if new:
            row = await self.storage.puzzle_rating(guild_id, user_id)
            rating = row.rating if row else 1500.0
            current = row.current if row else None
            solved = row.solved if row else 0
            seed = f"{guild_id}:{user_id}:{len(done)}:{current}"
            # Never today's puzzle: its answer would be taken as the day's, headed "Puzzle
            # of the day" though asked for as a new one (a CI run drew it by chance).
            today = self.daily(guild_id)[0].id
            puzzle, day = choose_new(self.bank, done | {today}, current, rating, solved, seed), None
        else:
            puzzle, day_text = self.daily(guild_id)
            day = day_text
        now = self.clock.now()
        await self.storage.set_current_puzzle(guild_id, user_id, name, puzzle.id, now)
        # what ``/seega solve`` answers now: this puzzle (a daily one only on its day)
        await self.storage.set_coach_shown(guild_id, user_id, "puzzle" if new else "daily", puzzle.id, now)
        pos = puzzle.position()
        image = None
        if self.pictures is not None:
            image = await in_thread(self.pictures.board_png, pos, lang=lang)
        return PuzzleView(
            puzzle.id,
            not new,
            day,
            pos.side,
            puzzle.variant,
            puzzle.size,
            puzzle.difficulty,
            puzzle.rating,
            puzzle.theme,
            puzzle.id in done,
            board_text(pos),
            image,
        )

    def current_daily(self, guild_id: int) -> Puzzle | None:
        """The guild's puzzle of the day, ``None`` when the bank has no puzzle at all."""
        return self.daily(guild_id)[0] if self.bank else None

    async def answer(
        self,
        guild_id: int,
        user_id: int,
        name: str,
        text: str,
        *,
        puzzle_id: str | None = None,
        lang: str = FALLBACK,
    ) -> PuzzleAnswer:
        """Judge an answer to ``puzzle_id`` (default: the user's current puzzle; the
        solution's picture in ``lang``)."""
        row = await self.storage.puzzle_rating(guild_id, user_id)
        chosen = puzzle_id or (row.current if row else None)
        puzzle = self.by_id(chosen) if chosen else None
        if puzzle is None:
            raise BadInputError("coach_no_puzzle")
        # In a thread: judging reads the board without a search, but a wrong answer's
        # reasons walk what the opponent can take (0.18 s for a 7x7 puzzle's).
        verdict = await in_thread(judge, puzzle, text)
        today = self.current_daily(guild_id)
        daily = today is not None and today.id == puzzle.id
        if verdict.outcome not in RATED_OUTCOMES:
            return PuzzleAnswer(
                puzzle.id,
                verdict.outcome,
                verdict.detail,
                streak=row.streak if row else 0,
                best_streak=row.best_streak if row else 0,
                daily=daily,
                refusal=answer_refusal(puzzle.position(), text)
                if verdict.outcome in ("illegal", "unreadable", "offboard")
                else None,
            )
        solved = verdict.outcome == "solved"
        first, before, after = await self.storage.record_puzzle_attempt(
            guild_id,
            user_id,
            name,
            puzzle.id,
            solved,
            lambda r, s: rate_answer(r, float(puzzle.rating), s),
            self.clock.now(),
        )
        image = None
        if self.pictures is not None:
            actions = [Action.parse(a) for a in puzzle.solution]
            # said under the board, so the picture alone shows it is the solution (native play-test)
            legend = ("", t(lang, "coach.legend.solution", solution=" ".join(puzzle.solution)))
            image = await in_thread(
                self.pictures.suggestion_image, puzzle.position(), actions, legend=legend, lang=lang
            )
        return PuzzleAnswer(
            puzzle.id,
            verdict.outcome,
            "",
            puzzle.solution,
            first,
            before.rating,
            after.rating,
            after.streak,
            after.best_streak,
            image,
            verdict.solution_captures,
            verdict.solution_wins,
            verdict.captured,
            tuple((key, dict(params)) for key, params in verdict.why),
            daily,
        )

    async def standing(self, guild_id: int, user_id: int) -> PuzzleLeader | None:
        """A solver's puzzle rating, or ``None`` before their first judged answer (a puzzle
        only shown leaves the starting 1500, which is no rating yet)."""
        row = await self.storage.puzzle_rating(guild_id, user_id)
        if row is None or not (row.solved or row.failed):
            return None
        return PuzzleLeader(row.user_id, row.name, row.rating, row.solved, row.failed, row.best_streak)

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[PuzzleLeader]:
        """The guild's best solvers."""
        rows = await self.storage.puzzle_leaderboard(guild_id, limit)
        return [PuzzleLeader(r.user_id, r.name, r.rating, r.solved, r.failed, r.best_streak) for r in rows]
