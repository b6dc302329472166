"""What the coach's use cases return: plain data for the adapters to word and send.

Reasons, classes and outcomes are keys (``coach.reason.captures``...) with parameters;
pictures are PNG bytes (``None`` when the service runs without a renderer).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.texts import Text
from engine.coach.review import GameReview

#: Words a picture needs, in the reader's language: ``wording(key, **params) -> text``.
Wording = Callable[..., str]
#: The (Black, White) names as an adapter says them (the console's "You" for the person
#: at the keyboard), for the coach's text and pictures alike.
NamesShown = Callable[[tuple[str, str]], tuple[str, str]]


def plain_wording(key: str, **params: object) -> str:
    """A stand-in wording that shows the key and its parameters (tests, no locale)."""
    return f"{key} {' '.join(f'{k}={v}' for k, v in sorted(params.items()))}".strip()


def draws_a_mark(actions: Sequence[str]) -> bool:
    """Whether a suggested turn puts anything on the board picture: stopping a chain or
    passing draws nothing (its legend and the line about the green marks are left out)."""
    return any(a not in ("end", "pass") for a in actions)


@dataclass(frozen=True)
class HintResult:
    """A hint for the asker's turn.

    Attributes:
        game_id: the game.
        actions: the suggested turn, as action texts.
        reasons: ``(key, params)`` pairs for ``coach.reason.<key>``.
        used, limit: hints the asker has taken in this game, and the guild's limit.
        win_chance: the asker's expected score with the suggestion (0..1); ``None`` for
            a forced turn, which is answered without a search.
        image: the board with the suggestion drawn in the hint colour.
    """

    game_id: int
    actions: tuple[str, ...]
    reasons: tuple[tuple[str, dict[str, str]], ...]
    used: int
    limit: int
    win_chance: float | None
    image: bytes | None = None
    #: A forced turn (the only legal action): answered from the rules, not counted.
    free: bool = False
    #: Asked for again at a position already hinted: the same hint, not counted again.
    again: bool = False


@dataclass(frozen=True)
class KeyMoment:
    """One of a review's key moments, with its picture (played in blue, better in green).

    ``played_why`` says what the turn played let the opponent do (``coach.review.<key>``:
    capture with the engine's reply, or win); ``best_why`` what the better turn does
    (``coach.reason.<key>``). Either may be empty.
    """

    index: int
    number: int
    side: int
    player: str
    label: str
    played: tuple[str, ...]
    best: tuple[str, ...]
    loss: float
    image: bytes | None = None
    played_why: tuple[tuple[str, dict[str, str]], ...] = ()
    best_why: tuple[tuple[str, dict[str, str]], ...] = ()


@dataclass(frozen=True)
class ReviewResult:
    """A game's review.

    Attributes:
        game_id: the game reviewed.
        names: ``(black, white)`` names.
        review: the verdicts, the curve, accuracy and key moments.
        cached: whether it was stored already (answered at once).
        chart: the evaluation graph.
        moments: the key moments with pictures.
        hints: hints taken in the game (a review says so).
        cancelled: the game was cancelled by a moderator (a review says so).
    """

    game_id: int
    names: tuple[str, str]
    review: GameReview
    cached: bool
    chart: bytes | None
    moments: tuple[KeyMoment, ...]
    hints: int = 0
    cancelled: bool = False


@dataclass(frozen=True)
class PuzzleView:
    """A puzzle shown to a solver.

    Attributes:
        puzzle_id: its id in the bank.
        daily: whether it is the guild's puzzle of the day (``day`` is the UTC date).
        side: the colour to play (``BLACK``/``WHITE``).
        variant, size, difficulty, rating, theme: about the puzzle.
        answered: whether the solver already answered it (a later answer is not rated).
        image, text_board: the position.
    """

    puzzle_id: str
    daily: bool
    day: str | None
    side: int
    variant: str
    size: int
    difficulty: int
    rating: int
    theme: str
    answered: bool
    text_board: str
    image: bytes | None = None


@dataclass(frozen=True)
class PuzzleAnswer:
    """How an answer fared.

    Attributes:
        puzzle_id: the puzzle answered.
        outcome: ``solved``, ``wrong``, ``partial`` (right start, the chain goes on), or
            ``unreadable``/``offboard``/``half``/``illegal``/``empty`` (try again: nothing recorded).
        detail: the word or action an error is about.
        solution: the solution (shown once the answer is right or wrong).
        rated: whether this answer moved the rating (the first one to a puzzle does).
        rating_before, rating_after, streak, best_streak: the solver's numbers.
        image: the position with the solution drawn (after a right or wrong answer).
        solution_captures, solution_wins: what the solution does (said after a wrong answer).
        captured: pieces the answer took.
        why: for a wrong answer, what it lets the opponent do at once, as a review's key
            moment says it (``coach.review.<key>``: ``allows_capture``, ``allows_win``).
        daily: the puzzle answered is today's puzzle of the day.
    """

    puzzle_id: str
    outcome: str
    detail: str = ""
    solution: tuple[str, ...] = ()
    rated: bool = False
    rating_before: float = 0.0
    rating_after: float = 0.0
    streak: int = 0
    best_streak: int = 0
    image: bytes | None = None
    solution_captures: int = 0
    solution_wins: bool = False
    captured: int = 0
    why: tuple[tuple[str, dict[str, str]], ...] = ()
    #: Whether the puzzle answered is the guild's puzzle of the day (said in the heading:
    #: a member answering another's posted puzzle saw only "Puzzle #…", and read the
    #: verdict as about the board in front of them: re-check play-test).
    daily: bool = False
    #: For an ``illegal`` answer, why, as a game says it (``service.<key>``: the rule and
    #: the moves allowed); ``None`` words it with ``coach.answer.illegal``.
    refusal: Text | None = None


@dataclass(frozen=True)
class PuzzleLeader:
    """A line of the solvers' leaderboard."""

    user_id: int
    name: str
    rating: float
    solved: int
    failed: int
    best_streak: int


@dataclass(frozen=True)
class LessonView:
    """A lesson to show: its number (1-based), id (``coach.learn.<id>.*``) and picture."""

    number: int
    total: int
    lesson_id: str
    side: int
    done: bool
    done_count: int
    text_board: str
    image: bytes | None = None
    #: The user plays a game in progress in the lesson's channel: ``/place`` and
    #: ``/move`` go to it, and ``/seega solve`` answers the exercise.
    game_here: bool = False


@dataclass(frozen=True)
class LessonAnswer:
    """The answer to an exercise try: ``key`` words it (``coach.learn.<id>.done``...)."""

    number: int
    lesson_id: str
    solved: bool
    key: str
    detail: str
    next_number: int | None
    done_count: int
    total: int
    #: For a try that cannot be played, why, as a game says it (``service.<key>``);
    #: ``None`` words it with ``key``.
    refusal: Text | None = None
