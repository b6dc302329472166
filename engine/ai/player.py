"""Choosing actions: a level, a budget and a seed in, an action code out.

This glues the pieces together: the :class:`~engine.ai.levels.Level` decides the limits
and the deliberate imperfection, :class:`~engine.ai.search.Searcher` does the thinking,
the evaluator and tactics are built once per ruleset and cached per process.

Hard and expert keep one searcher per ruleset and level for the life of the process
(a warm transposition table and history from the previous actions make them
stronger). Easy and medium get a fresh searcher at every call, so that with a seed
they are deterministic whatever was played before.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field

from engine.actions import Action
from engine.ai.endgame import shipped_for
from engine.ai.evaluate import Evaluator, Weights
from engine.ai.filled import shipped as filled_table
from engine.ai.levels import Level
from engine.ai.progress import MARGIN, TIME_SHARE, forcing_actions, is_stuck, worth_playing
from engine.ai.search import CONTEMPT, WIN_BOUND, Limits, Result, Searcher
from engine.ai.tactics import Tactics
from engine.ai.timecontrol import PLAY_SOFT_FRACTION, Clock
from engine.position import Position
from engine.rules import Ruleset

log = logging.getLogger(__name__)

_EVALUATORS: dict[Ruleset, tuple[Evaluator, Tactics]] = {}
_SEARCHERS: dict[tuple[Ruleset, str], Searcher] = {}
#: Warm searchers kept per process (each holds a transposition table of at most
#: ``search.TT_LIMIT`` entries), so a worker's memory stays bounded.
MAX_SEARCHERS = 4
#: The endgame tables are read once the game is this many pieces from them.
TABLE_MARGIN = 4


def action_of(pos: Position, code: int) -> Action:
    """The :class:`Action` of an action code on ``pos``'s board."""
    action = pos.table.actions[code]
    assert action is not None, code
    return action


def components(rules: Ruleset, weights: Weights | None = None) -> tuple[Evaluator, Tactics]:
    """The evaluator and tactics for ``rules`` (cached for the default weights)."""
    if weights is not None:
        return Evaluator(rules, weights), Tactics(rules)
    cached = _EVALUATORS.get(rules)
    if cached is None:
        cached = (Evaluator(rules), Tactics(rules))
        _EVALUATORS[rules] = cached
    return cached


def make_searcher(rules: Ruleset, level: Level, weights: Weights | None = None, contempt: int = CONTEMPT) -> Searcher:
    """A new searcher configured for ``level``; ``contempt=0`` turns repetition detection
    off (an analysis wants the position's value, not a player's taste for repeating)."""
    evaluator, tactics = components(rules, weights)
    return Searcher(
        evaluator,
        tactics,
        placement_width=level.placement_width,
        full_width_empties=level.full_width_empties,
        contempt=contempt,
        tables=shipped_for(rules) if level.tables else None,
        filled=filled_table(rules) if level.tables else None,
    )


def searcher_for(rules: Ruleset, level: Level) -> Searcher:
    """The searcher a call at ``level`` uses (shared for time-limited levels)."""
    if level.depth_limited:
        return make_searcher(rules, level)
    key = (rules, level.name)
    searcher = _SEARCHERS.get(key)
    if searcher is None:
        if len(_SEARCHERS) >= MAX_SEARCHERS:
            _SEARCHERS.clear()
        searcher = make_searcher(rules, level)
        _SEARCHERS[key] = searcher
    return searcher


@dataclass
class Choice:
    """A chosen action and how it was found.

    Attributes:
        code: the action code.
        result: the search result (``None`` when the action was forced).
        deliberate: whether a level's imperfection picked it instead of the best.
    """

    code: int
    result: Result | None = None
    deliberate: bool = False
    alternatives: dict[int, int] = field(default_factory=dict)


def choose(
    pos: Position,
    level: Level,
    movetime_ms: int | None = None,
    seed: int | None = None,
    *,
    max_nodes: int | None = None,
    searcher: Searcher | None = None,
) -> Choice:
    """Pick an action for the side to act in ``pos`` (which is left unchanged).

    Args:
        pos: an ongoing position.
        level: the level's limits and imperfection.
        movetime_ms: the budget for this action (``None``: the level's default for
            this position, ``Level.movetime_for``).
        seed: seeds the level's random choices (``None``: unpredictable).
        max_nodes: an optional node limit (with a depth-limited level or a generous
            budget, the choice is then the same on every machine).
        searcher: reuse this searcher (a turn's later actions), else the level's.
    """
    codes = pos.legal_codes()
    if len(codes) == 1:
        return Choice(codes[0])
    budget = movetime_ms if movetime_ms else level.movetime_for(pos.phase, len(codes))
    searcher = searcher or searcher_for(pos.rules, level)
    tables = searcher.tables
    if tables is not None and pos.phase == "m" and pos.count(0) + pos.count(1) <= tables.max_pieces + TABLE_MARGIN:
        tables.load_reachable(pos.count(0), pos.count(1))  # before the clock: reading is not thinking
    if searcher.filled is not None and pos.phase == "p":
        searcher.filled.load()  # the same for the filled-board table, which placement reaches
    clock = Clock.for_budget(budget, PLAY_SOFT_FRACTION)
    rng = random.Random(seed)
    imperfect = level.blunder > 0 or level.placement_random > 1
    forcing: list[int] = []
    if level.progress and is_stuck(pos):
        deadline = clock.start + clock.budget_s * TIME_SHARE if clock.budget_s else float("inf")
        _plies, forcing = forcing_actions(pos, searcher.tactics, deadline=deadline)
    # A forcing action the search does not choose is checked after it, in the last
    # quarter of the budget (``progress.py``).
    search_clock = clock
    if forcing and clock.budget_s:
        search_clock = Clock(clock.start, clock.budget_s * 0.75, clock.soft_fraction)
    limits = Limits(max_depth=level.max_depth, max_nodes=max_nodes, clock=search_clock)
    result = searcher.search(pos, limits, exact_root=imperfect)
    if forcing and result.best not in forcing and abs(result.score) < WIN_BOUND:
        pick = worth_playing(pos, searcher, forcing, result.score - MARGIN, result.depth, result.scores, clock)
        if pick is not None:
            log.debug(
                "stuck game: %s forces a capture, played instead of %s",
                action_of(pos, pick),
                action_of(pos, result.best),
            )
            return Choice(pick, result)
    log.debug(
        "%s: %s depth %d score %d nodes %d in %.3fs",
        level.name,
        pos.table.actions[result.best],
        result.depth,
        result.score,
        result.nodes,
        clock.elapsed(),
    )
    if not imperfect or not result.scores:
        return Choice(result.best, result)
    scores = result.scores
    best_score = scores.get(result.best, result.score)
    ranked = sorted(scores, key=lambda c: (-scores[c], c))
    if pos.phase == "p" and level.placement_random > 1:
        pool = [c for c in ranked[: level.placement_random] if scores[c] > -WIN_BOUND]
        pick = rng.choice(pool or ranked[:1])
        return Choice(pick, result, pick != result.best, scores)
    if rng.random() < level.blunder:
        floor = best_score - level.blunder_margin
        pool = [c for c in ranked if scores[c] >= floor and scores[c] > -WIN_BOUND]
        if pool:
            pick = rng.choice(pool)
            return Choice(pick, result, pick != result.best, scores)
    return Choice(result.best, result, False, scores)


def play_turn(pos: Position, level: Level, movetime_ms: int | None = None, seed: int | None = None) -> list[Choice]:
    """Play the side to act's whole turn on ``pos`` (pushed) and return the choices.

    The first action is searched; the search's principal variation usually already
    holds the rest of the turn (the second piece of a pair, the rest of a chain), and
    is followed while it does, so a whole turn costs about one action's budget. When it
    runs out (or the level blunders on purpose) the next action is searched with the
    same budget.
    """
    turn, side = pos.turn, pos.side
    searcher = searcher_for(pos.rules, level)
    choices: list[Choice] = []
    plan: list[int] = []
    while pos.result is None and pos.turn == turn and pos.side == side:
        if plan and plan[0] in pos.legal_codes():
            choice = Choice(plan.pop(0))
        else:
            sub_seed = None if seed is None else seed + len(choices)
            choice = choose(pos, level, movetime_ms, sub_seed, searcher=searcher)
            # The search's line is followed only if the action played is its first.
            follow = choice.result is not None and choice.code == choice.result.best and level.blunder == 0
            plan = list(choice.result.pv[1:]) if follow and choice.result else []
        pos.push_code(choice.code)
        choices.append(choice)
    return choices
