"""Puzzles: a position, the one turn that wins decisively, and how to check an answer.

A puzzle is a movement-phase position at the start of a turn where one turn (a step, or
a chain of captures) leaves the mover clearly ahead and every other turn is clearly
worse. The bank shipped in ``puzzles.json`` was mined by :mod:`engine.coach.mine`, which
verified each puzzle with a deep search; :func:`check` is the cheap re-verification a
test runs on every shipped puzzle: it plays **every** distinct turn of the position and
values each result with a small fixed-depth search.

An answer is right when it ends the turn with the same position as the solution (so a
chain typed as cells or as actions, or ended with ``end`` where the solution ended by
itself, counts the same), or when it wins the game at once: a shipped puzzle has no
second winning turn (the check values a win above everything, so two would fail it), but
a player who finds another immediate win has not answered wrongly.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.actions import Action
from engine.ai.levels import get_level
from engine.ai.player import make_searcher
from engine.ai.search import WIN, Limits, Searcher
from engine.coach.answers import finish_turn, play_answer
from engine.coach.hints import Reason, moment_reasons
from engine.coach.review import biggest_capture
from engine.position import Position
from engine.rules import Ruleset

BANK_PATH = Path(__file__).with_name("puzzles.json")
#: The cheap check's search depth (actions after the turn, plus captures).
CHECK_DEPTH = 2
#: Node cap of each of those searches: with ``chain=any`` the captures searched after a
#: turn can explode; the cap keeps the check bounded (and, being a node count, exact).
CHECK_NODES = 50_000
#: The solution must beat every other turn by this much in the cheap check (centipieces).
CHECK_MARGIN = 100
#: The solution's value in the cheap check must reach this (the mover clearly ahead).
CHECK_DECISIVE = 120
#: A puzzle's rating (for the solvers' Glicko-2 ratings) from its difficulty 1..5.
RATING_BASE = 900
RATING_STEP = 200

#: At most this many action sequences are walked to list a position's turns: with
#: ``chain=any`` a capture-rich position can have more, and is then no puzzle.
MAX_TURN_WALK = 1000

Key = tuple[tuple[int, int, int, str, int, int, int, int], str]


class TooManyTurns(Exception):
    """The position's turns are too many to list (see :data:`MAX_TURN_WALK`)."""


@dataclass(frozen=True)
class Puzzle:
    """One puzzle.

    Attributes:
        id: a stable identifier such as ``s5-0012``.
        variant, size, options: the ruleset (options as ``name=value`` strings).
        spn: the position (the side to act solves it).
        solution: the solving turn's actions, as text.
        difficulty: 1 (seen at a glance) to 5 (needs deep thought): the shallowest
            search depth that finds the solution and keeps it (docs/coach.md).
        theme: ``win`` (ends the game), ``chain``, ``double`` (one step takes two or
            more), ``capture`` or ``quiet`` (the winning turn takes nothing yet).
        gain: centipieces by which the deep search preferred the solution to the
            best other turn when it was mined.
    """

    id: str
    variant: str
    size: int
    options: tuple[str, ...]
    spn: str
    solution: tuple[str, ...]
    difficulty: int
    theme: str
    gain: int = 0
    source: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def rating(self) -> int:
        """The puzzle's fixed rating, from its difficulty."""
        return RATING_BASE + RATING_STEP * self.difficulty

    def rules(self) -> Ruleset:
        """The puzzle's ruleset."""
        return Ruleset.make(self.variant, self.size, self.options)

    def position(self) -> Position:
        """The puzzle's position."""
        return Position.from_spn(self.spn, self.rules())

    def to_dict(self) -> dict[str, Any]:
        """The JSON layout of the bank."""
        return {
            "id": self.id,
            "variant": self.variant,
            "size": self.size,
            "options": list(self.options),
            "spn": self.spn,
            "solution": list(self.solution),
            "difficulty": self.difficulty,
            "theme": self.theme,
            "gain": self.gain,
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Puzzle:
        """A puzzle from the bank's JSON layout."""
        return cls(
            str(data["id"]),
            str(data["variant"]),
            int(data["size"]),
            tuple(data.get("options", ())),
            str(data["spn"]),
            tuple(data["solution"]),
            int(data["difficulty"]),
            str(data["theme"]),
            int(data.get("gain", 0)),
            dict(data.get("source", {})),
        )


def load_bank(path: Path = BANK_PATH) -> list[Puzzle]:
    """The puzzles shipped with the engine (read from the package's data file)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return [Puzzle.from_dict(d) for d in data["puzzles"]]


def _key(pos: Position) -> Key:
    return pos.key(), str(pos.result) if pos.result else ""


def turn_outcomes(pos: Position) -> list[tuple[tuple[Action, ...], Position]]:
    """Every distinct complete turn from ``pos``: (actions, position after), one per result.

    A chain may stop at any point with ``end``; turns that lead to the same position are
    listed once (the first found), so the list is what the mover can truly choose from.

    Raises:
        TooManyTurns: the walk would pass :data:`MAX_TURN_WALK` action sequences.
    """
    out: dict[Key, tuple[tuple[Action, ...], Position]] = {}
    side, turn = pos.side, pos.turn
    walked = [0]

    def walk(p: Position, path: tuple[Action, ...]) -> None:
        walked[0] += 1
        if walked[0] > MAX_TURN_WALK:
            raise TooManyTurns(f"more than {MAX_TURN_WALK} action sequences from {pos.spn()}")
        if p.result is not None or p.side != side or p.turn != turn:
            out.setdefault(_key(p), (path, p.copy()))
            return
        for action in p.legal_actions():
            p.push(action)
            walk(p, (*path, action))
            p.pop()

    walk(pos.copy(), ())
    return list(out.values())


def turn_value(after: Position, mover: int, searcher: Searcher, depth: int) -> int:
    """The value for ``mover`` of the position after its turn, by a fixed-depth search."""
    if after.result is not None:
        if after.result.winner is None:
            return 0
        return WIN if after.result.winner == mover else -WIN
    result = searcher.search(after, Limits(max_depth=depth, max_nodes=CHECK_NODES))
    return result.score if after.side == mover else -result.score


@dataclass(frozen=True)
class CheckResult:
    """The cheap check of one puzzle: the solution's value and the best other turn's."""

    ok: bool
    solution_value: int
    best_other: int
    other: tuple[str, ...]
    reason: str = ""


def check(puzzle: Puzzle, depth: int = CHECK_DEPTH) -> CheckResult:
    """Re-verify a puzzle: its solution is legal, decisive, and better than every other turn."""
    pos = puzzle.position()
    if pos.phase != "m" or pos.result is not None:
        return CheckResult(False, 0, 0, (), "not a movement position")
    played = play_answer(pos, " ".join(puzzle.solution))
    if played.error is not None or not played.complete:
        return CheckResult(False, 0, 0, (), f"solution not a complete legal turn ({played.error})")
    return check_position(pos, played.after, depth)


def valued_turns(pos: Position, depth: int = CHECK_DEPTH) -> list[tuple[tuple[Action, ...], Position, int]]:
    """Every distinct turn from ``pos`` with its value for the mover, best first."""
    mover = pos.side
    searcher = make_searcher(pos.rules, get_level("hard"))
    valued = [(actions, after, turn_value(after, mover, searcher, depth)) for actions, after in turn_outcomes(pos)]
    valued.sort(key=lambda t: -t[2])
    return valued


def check_position(pos: Position, solved: Position, depth: int = CHECK_DEPTH) -> CheckResult:
    """Compare the turn that leads to ``solved`` with every other turn from ``pos``."""
    target = _key(solved)
    try:
        valued = valued_turns(pos, depth)
    except TooManyTurns:
        return CheckResult(False, 0, 0, (), "too many turns to check")
    mine = next((v for _a, after, v in valued if _key(after) == target), None)
    if mine is None:
        return CheckResult(False, 0, 0, (), "the solution is not a turn of this position")
    others = [(v, actions) for actions, after, v in valued if _key(after) != target]
    best_other, other = (others[0][0], tuple(str(a) for a in others[0][1])) if others else (-WIN, ())
    if mine < CHECK_DECISIVE:
        return CheckResult(False, mine, best_other, other, "solution not decisive")
    if best_other > mine - CHECK_MARGIN:
        return CheckResult(False, mine, best_other, other, "another turn is about as good")
    return CheckResult(True, mine, best_other, other)


@dataclass(frozen=True)
class Verdict:
    """How an answer to a puzzle fared.

    Attributes:
        outcome: ``solved``, ``partial`` (a right start of a longer chain), ``wrong``,
            or the answer could not be played: ``unreadable``, ``offboard``, ``half``, ``illegal``,
            ``empty``.
        detail: the word or action an error is about.
        captured: pieces the answer took.
        solution_captures: pieces the solution takes (to say why it is better).
        solution_wins: whether the solution ends the game in the mover's favour.
        why: for a wrong answer, what it visibly lets the opponent do next, read off the
            board as a review's key moment is (:func:`~engine.coach.hints.moment_reasons`:
            ``allows_capture`` or ``allows_win`` with the opponent's biggest capture);
            empty when it lets nothing happen at once.
    """

    outcome: str
    detail: str = ""
    captured: int = 0
    solution_captures: int = 0
    solution_wins: bool = False
    why: tuple[Reason, ...] = ()


def judge(puzzle: Puzzle, text: str) -> Verdict:
    """Whether ``text`` (cells like ``b2 c2``, or actions) solves ``puzzle``."""
    pos = puzzle.position()
    played = play_answer(pos, text)
    if played.error is not None:
        return Verdict(played.error, played.detail)
    solved = play_answer(pos, " ".join(puzzle.solution))
    turn = played.actions
    if not played.complete:
        target = solved.actions
        if played.actions == target[: len(played.actions)]:
            return Verdict("partial", "", played.captured)
        turn += finish_turn(played.after)
    mover = pos.side
    if _key(played.after) == _key(solved.after) or _wins(played.after, mover):
        return Verdict("solved", "", played.captured)
    # What the wrong turn lets the opponent do at once: the review's words for a key
    # moment, with the opponent's biggest capture as its reply (no search: cheap).
    reply = biggest_capture(played.after)[0]
    why = moment_reasons(pos, turn, solved.actions, reply)[0] if reply else ()
    return Verdict("wrong", "", played.captured, solved.captured, _wins(solved.after, mover), why)


def _wins(after: Position, mover: int) -> bool:
    """Whether the game is over and ``mover`` won it."""
    return after.result is not None and after.result.winner == mover
