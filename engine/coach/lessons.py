"""The tutorial: eight short lessons, each ending in an exercise the engine checks.

A lesson is a set position and a goal; the words (title, two or three sentences, the
task, and the answers to wrong tries) are locale keys ``coach.learn.<id>.*`` so every
language tells the same lesson. :func:`check_exercise` plays the answer on the position
with the real rules and says which key answers it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.coach.answers import PlayedTurn, play_answer
from engine.position import Position
from engine.rules import Ruleset


@dataclass(frozen=True)
class Lesson:
    """One lesson.

    Attributes:
        id: the key stem (``coach.learn.<id>.title``...).
        spn: the exercise's position (``None``: the start of a standard 5x5 game).
        goal: ``near_centre`` (both pieces next to the centre), ``legal`` (any legal
            turn), ``capture`` (take at least ``count`` pieces in the turn), ``block``
            (the opponent is left without a step), ``win`` (the turn wins the game).
        count: pieces to take for ``capture``.
        model: a right answer, as typed (tests play it).
        marks: cells the lesson's picture points at.
    """

    id: str
    spn: str | None
    goal: str
    model: str
    count: int = 1
    marks: tuple[str, ...] = ()
    variant: str = "standard"
    size: int = 5

    def rules(self) -> Ruleset:
        """The lesson's ruleset."""
        return Ruleset.make(self.variant, self.size)

    def position(self) -> Position:
        """The exercise's position."""
        rules = self.rules()
        return Position.from_spn(self.spn, rules) if self.spn else Position(rules)


LESSONS: tuple[Lesson, ...] = (
    Lesson("placement", None, "near_centre", "c2 c4", marks=("b3", "c2", "c4", "d3")),
    Lesson("stepping", "bwbwb/wbwbw/bw1wb/wbwbw/bwbwb w m 0/0 - 0 25", "legal", "b3 c3", marks=("c3",)),
    Lesson("capture", "4b/4b/5/wb1w1/5 w m 0/0 - 0 40", "capture", "d2 c2", marks=("b2",)),
    Lesson("multiple", "4b/5/5/wb1bw/2w2 w m 0/0 - 0 40", "capture", "c1 c2", count=2, marks=("b2", "d2")),
    Lesson("chain", "4b/3w1/3b1/wb3/2w2 w m 0/0 - 0 40", "capture", "c1 c2 d2", count=2, marks=("b2", "d3")),
    Lesson("centre", "2w2/wb3/1wb1w/5/4b w m 0/0 - 0 40", "capture", "c5 c4", marks=("c3", "b4")),
    Lesson("blocked", "4w/3w1/5/w4/b1w2 w m 0/0 - 0 60", "block", "c1 b1", marks=("a1",)),
    Lesson("ending", "4w/5/5/wb3/2w2 w m 0/0 - 0 60", "win", "c1 c2", marks=("b2",)),
)
LESSON_IDS = tuple(lesson.id for lesson in LESSONS)


def lesson(lesson_id: str) -> Lesson:
    """The lesson called ``lesson_id`` (``KeyError`` otherwise)."""
    for item in LESSONS:
        if item.id == lesson_id:
            return item
    raise KeyError(lesson_id)


@dataclass(frozen=True)
class LessonVerdict:
    """The answer to an exercise try: solved or not, and the locale key that says why.

    Attributes:
        solved: whether the exercise is done.
        key: ``coach.learn.<id>.done`` when solved, else the key of the helpful answer.
        detail: the word or action the key is about (an unreadable word, an illegal action).
        played: the turn as played (empty when it could not be played).
    """

    solved: bool
    key: str
    detail: str = ""
    played: tuple[str, ...] = ()


def _goal_met(item: Lesson, before: Position, turn: PlayedTurn) -> bool:
    after = turn.after
    side = before.side
    if item.goal == "near_centre":
        near = _near_centre(before)
        return all(a.kind == "place" and a.src in near for a in turn.actions)
    if item.goal == "capture":
        return turn.captured >= item.count
    if item.goal == "block":
        return after.result is None and [a.kind for a in after.legal_actions()] == ["pass"]
    if item.goal == "win":
        return after.result is not None and after.result.winner == side
    return True  # "legal": any complete legal turn


def check_exercise(item: Lesson, text: str) -> LessonVerdict:
    """Play ``text`` on the lesson's position and say whether it solves the exercise."""
    before = item.position()
    turn = play_answer(before, text)
    played = tuple(str(a) for a in turn.actions)
    if turn.error in ("unreadable", "offboard", "empty", "half"):
        return LessonVerdict(False, f"coach.answer.{turn.error}", turn.detail)
    if turn.error == "illegal":
        return LessonVerdict(False, f"coach.learn.{item.id}.illegal", turn.detail, played)
    if not turn.complete:
        if item.goal == "capture" and turn.captured and turn.captured < item.count:
            return LessonVerdict(False, f"coach.learn.{item.id}.more", "", played)
        return LessonVerdict(False, "coach.learn.incomplete", "", played)
    if _goal_met(item, before, turn):
        return LessonVerdict(True, f"coach.learn.{item.id}.done", "", played)
    if item.goal == "near_centre":
        # One piece well placed, one not: name the one to change ("a1 and b3" are not
        # both wrong, and saying so would confuse the newcomer who got b3 right).
        far = [str(a) for a in turn.actions if a.src not in _near_centre(before)]
        if len(far) < len(turn.actions):
            return LessonVerdict(False, f"coach.learn.{item.id}.wrong_one", " ".join(far), played)
    return LessonVerdict(False, f"coach.learn.{item.id}.wrong", "", played)


def _near_centre(position: Position) -> set[int]:
    """The cells next to the centre (global ids, as actions name them)."""
    geo = position.geo
    return {geo.to_global[c] for c in geo.neighbours[geo.centre]}
