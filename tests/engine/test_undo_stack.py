"""Popping a whole game restores every earlier position.

The undo entries share objects with the live position (the shuttle history and the
hands are saved as the objects themselves and changed only on a copy): a change made
in place by a later action would show only when popping back several actions, which
a single push-pop test does not see.
"""

from __future__ import annotations

import random

import pytest

from engine import PRESETS, Position, Ruleset

CASES = [(preset, size) for preset, (sizes, _) in PRESETS.items() for size in sizes]


@pytest.mark.parametrize(("preset", "size"), CASES)
def test_popping_a_whole_game_restores_every_position(preset: str, size: int) -> None:
    rules = Ruleset.make(preset, size)
    for seed in range(3):
        rng = random.Random(seed)
        pos = Position(rules)
        seen = []
        twin = None
        while pos.result is None and len(seen) < 400:
            seen.append((pos.spn(), list(pos.hand), dict(pos.hist)))
            pos.push_code(pos.random_code(rng))
            if twin is None and len(seen) == 3:
                # A copy shares the undo entries: playing on it must not change them.
                twin = pos.copy()
                while twin.result is None and twin.plies < 30:
                    twin.push_code(twin.random_code(rng))
        for spn, hand, hist in reversed(seen):
            pos.pop()
            assert (pos.spn(), pos.hand, pos.hist) == (spn, hand, hist)
        assert pos.plies == 0
