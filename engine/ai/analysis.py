"""Analysis: how good a position is (a score and a win chance) and the best whole turn.

Hints, game reviews and puzzle mining all ask the same question of a position, so it is
answered here once, on top of the search (:class:`~engine.ai.search.Searcher`) and the
level machinery of :mod:`engine.ai.player`.

Determinism: with ``max_nodes`` and no ``movetime_ms`` every search starts from a fresh
searcher (empty transposition table and history) and stops after a node count, so the
same position gives the same analysis on every machine, in every worker process. With
``movetime_ms`` the answer depends on the machine's speed, as the AI's does.

The win chance maps the search score (centipieces for the side to act, about 100 per
piece) through a logistic curve, ``1 / (1 + exp(-score / SCALE))``; forced ends are
exactly 1, 0 or 0.5. ``docs/coach.md`` records how ``SCALE`` was chosen.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import Action
from engine.ai.levels import get_level
from engine.ai.player import action_of, components, make_searcher
from engine.ai.search import WIN, WIN_BOUND, Limits, Searcher
from engine.ai.timecontrol import Clock
from engine.errors import GameOverError
from engine.position import Position
from engine.rules import Ruleset

#: Centipieces at which the win chance is 1/(1+e^-1), about 73% (fitted to self-play: docs/coach.md).
SCALE = 300.0
#: The node budget of an analysis when neither nodes nor time are given.
DEFAULT_NODES = 8000
#: How many wholly forced turns in a row are followed before the static evaluation is used.
_MAX_FORCED = 6


@dataclass(frozen=True)
class Analysis:
    """What the engine thinks of a position, for the side to act.

    Attributes:
        side: the side to act (``BLACK``/``WHITE``) whose view the numbers take.
        score: the search score in centipieces (``> WIN_BOUND``: a forced win).
        win_chance: the expected score of ``side``, 0 (lost) to 1 (won).
        best_turn: the actions of the best whole turn (a pair, a chain), empty when the
            game is over.
        forced: whether the turn was played without a choice (a single legal action
            at every step, e.g. ``pass``).
        depth: the deepest completed iteration of the first search.
        nodes: nodes visited by every search of the analysis.
        compared: ``(best, played)`` scores for ``side`` of the best action and of a turn
            actually played, at the first action where that turn left the best turn, both
            taken from one search (:func:`compare_turn`); ``None`` when not asked for or
            when the played turn was the best turn.
        line: what the search expects after the best turn: the rest of its principal
            variation (the other side's best answer, and on), as far as the search gives
            it (at most 16 actions from the search's root); empty when it gives none.
    """

    side: int
    score: int
    win_chance: float
    best_turn: tuple[Action, ...]
    forced: bool = False
    depth: int = 0
    nodes: int = 0
    compared: tuple[int, int] | None = None
    line: tuple[Action, ...] = ()

    @property
    def best(self) -> Action | None:
        """The first action of the best turn (``None`` for a finished game)."""
        return self.best_turn[0] if self.best_turn else None


def win_chance(score: int) -> float:
    """The expected score (0..1) of the side whose search score is ``score``."""
    if score >= WIN_BOUND:
        return 1.0
    if score <= -WIN_BOUND:
        return 0.0
    return 1.0 / (1.0 + math.exp(-score / SCALE))


def _final(pos: Position) -> Analysis:
    result = pos.result
    assert result is not None
    if result.winner is None:
        return Analysis(pos.side, 0, 0.5, ())
    won = result.winner == pos.side
    return Analysis(pos.side, WIN if won else -WIN, 1.0 if won else 0.0, ())


def analyse(
    position: Position,
    *,
    max_nodes: int | None = None,
    movetime_ms: int | None = None,
    level: str = "hard",
) -> Analysis:
    """Evaluate ``position`` for its side to act and find its best whole turn.

    Args:
        position: any position (not modified); a finished game gets its exact value.
        max_nodes: node budget per search (the default is :data:`DEFAULT_NODES` when
            ``movetime_ms`` is not given either).
        movetime_ms: time budget per search (machine-dependent answers).
        level: whose search settings to use (placement width); ``hard`` by default.

    The first action is searched; the rest of the turn follows the principal variation
    while it lasts and is searched again when it runs out. A turn with no choice at all
    is valued by analysing the position after it.
    """
    if max_nodes is None and movetime_ms is None:
        max_nodes = DEFAULT_NODES
    return _analyse(position.copy(), max_nodes, movetime_ms, level, 0)


def _analyse(pos: Position, max_nodes: int | None, movetime_ms: int | None, level: str, forced_turns: int) -> Analysis:
    if pos.result is not None:
        return _final(pos)
    searcher = _searcher(pos.rules, level)
    side, turn = pos.side, pos.turn
    actions: list[Action] = []
    plan: list[int] = []
    score: int | None = None
    depth = nodes = 0
    while pos.result is None and pos.turn == turn and pos.side == side:
        codes = pos.legal_codes()
        if plan and plan[0] in codes:
            code = plan.pop(0)
        elif len(codes) == 1:
            code = codes[0]
            plan = []
        else:
            result = _search(searcher, pos, max_nodes, movetime_ms)
            nodes += result[2]
            if score is None:
                score, depth = result[1], result[3]
            code, plan = result[0], result[4]
        actions.append(action_of(pos, code))
        pos.push_code(code)
    if score is None:
        score, nodes = _value_after(pos, side, max_nodes, movetime_ms, level, forced_turns)
        return Analysis(side, score, win_chance(score), tuple(actions), True, 0, nodes)
    return Analysis(side, score, win_chance(score), tuple(actions), False, depth, nodes, line=_line(pos, plan))


def _line(pos: Position, codes: Sequence[int]) -> tuple[Action, ...]:
    """``codes`` (the principal variation's rest, from ``pos``) as actions, up to the first
    one that is not legal where it stands (``pos`` is restored)."""
    out: list[Action] = []
    for code in codes:
        if pos.result is not None or code not in pos.legal_codes():
            break
        out.append(action_of(pos, code))
        pos.push_code(code)
    for _ in out:
        pos.pop()
    return tuple(out)


def _searcher(rules: Ruleset, level: str) -> Searcher:
    """A fresh searcher without repetition detection: the contempt that makes a player
    steer into (or away from) a repeated position is a taste, not a value. With it, a
    side far behind that could shuttle back into an earlier position was valued as a
    draw (about 54%), and a review marked the turns around it as blunders."""
    return make_searcher(rules, get_level(level), contempt=0)


def _search(
    searcher: Searcher, pos: Position, max_nodes: int | None, movetime_ms: int | None
) -> tuple[int, int, int, int, list[int]]:
    """(best code, score, nodes, depth, rest of the principal variation)."""
    clock = Clock.for_budget(movetime_ms) if movetime_ms else None
    result = searcher.search(pos, Limits(max_nodes=max_nodes, clock=clock))
    return result.best, result.score, result.nodes, result.depth, list(result.pv[1:])


def _value_after(
    pos: Position, side: int, max_nodes: int | None, movetime_ms: int | None, level: str, forced_turns: int
) -> tuple[int, int]:
    """The value for ``side`` of the position after a turn it had no choice in."""
    if pos.result is not None:
        final = _final(pos)
        return (final.score if final.side == side else -final.score), 0
    if forced_turns >= _MAX_FORCED:
        evaluator, _tactics = components(pos.rules)
        value = evaluator(pos)
        return (value if pos.side == side else -value), 0
    after = _analyse(pos, max_nodes, movetime_ms, level, forced_turns + 1)
    return (after.score if after.side == side else -after.score), after.nodes


def value_for(analysis: Analysis, side: int) -> float:
    """The expected score of ``side`` according to ``analysis`` (either side's view)."""
    return analysis.win_chance if analysis.side == side else 1.0 - analysis.win_chance


def require_ongoing(position: Position, what: str) -> None:
    """Raise :class:`GameOverError` naming ``what`` when the game is over."""
    if position.result is not None:
        raise GameOverError(f"no {what}: the game is over ({position.result}) in {position.spn()}")


def compare_turn(
    position: Position,
    best_turn: Sequence[Action],
    played: Sequence[Action],
    *,
    max_nodes: int | None = None,
    level: str = "hard",
) -> tuple[int, int] | None:
    """Score the best action and a played one in the same search, where they part.

    A review that took the played turn's value from a later, separate search compared two
    numbers from different depths and windows and could call the best move a blunder. Here
    the position where ``played`` first leaves ``best_turn`` (a choice of the same side, in
    the same turn) is searched once with the root restricted to those two actions and both
    scored exactly, so ``played`` is never scored above the best by accident of the search.

    Returns:
        ``(best, played)`` in centipieces for the mover, or ``None`` when ``played`` follows
        ``best_turn`` (no choice differed). The best is the higher of the two scores.
    """
    if max_nodes is None:
        max_nodes = DEFAULT_NODES
    pos = position.copy()
    side, turn = pos.side, pos.turn
    for i, action in enumerate(played):
        if pos.result is not None or pos.turn != turn or pos.side != side:
            return None
        if i >= len(best_turn) or best_turn[i] != action:
            codes = pos.legal_codes()
            mine = next(c for c in codes if action_of(pos, c) == action)
            other = best_turn[i] if i < len(best_turn) else None
            theirs = [c for c in codes if other is not None and action_of(pos, c) == other]
            if not theirs:
                return None
            searcher = _searcher(pos.rules, level)
            result = searcher.search(pos, Limits(max_nodes=max_nodes), root_codes=[theirs[0], mine], exact_root=True)
            played_score = result.scores.get(mine, result.score)
            best_score = max(result.scores.get(theirs[0], result.score), played_score)
            return best_score, played_score
        pos.push(action)
    return None
