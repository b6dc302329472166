"""Random playouts: play uniformly random legal actions to the end of the game.

Used by the AI (playout-based evaluation of placements) and by the benchmark. It runs
on a copy, so the caller's position is untouched.
"""

from __future__ import annotations

import random

from engine.outcome import Outcome
from engine.position import Position
from engine.rules import Ruleset


def random_playout(
    rules: Ruleset, rng: random.Random, start: Position | None = None, max_actions: int = 100_000
) -> tuple[Outcome | None, int]:
    """Play random legal actions from ``start`` (or the initial position) to the end.

    Returns:
        The outcome (``None`` if ``max_actions`` ran out first) and the number of
        actions played.
    """
    pos = start.copy() if start is not None else Position(rules)
    pos._stack = []
    pos._keep = False  # a playout never pops: keep no undo entries
    pick, push = pos.random_code, pos.push_code
    played = 0
    while pos.result is None and played < max_actions:
        push(pick(rng))
        played += 1
    return pos.result, played
