"""The engine and the independent reference implementation agree move by move.

Perft compares the two on a few positions to a fixed depth; here they walk together
through seeded random games under every preset and size (and the option mixes that reach
blocked players often), comparing the SPN and the sorted legal actions after every action.
"""

from __future__ import annotations

import random

import pytest

from engine import Position, Ruleset
from tests.engine.invariant_cases import CASES
from tests.engine.reference import RefGame

PLIES = {3: 40, 5: 220, 7: 200, 9: 200}


@pytest.mark.parametrize(("preset", "size", "options"), CASES)
def test_engine_and_reference_agree_on_random_games(preset: str, size: int, options: tuple[str, ...]) -> None:
    rules = Ruleset.make(preset, size, list(options))
    for seed in (1, 2):
        rng = random.Random(seed)
        pos, ref = Position(rules), RefGame(rules)
        for ply in range(PLIES[size]):
            ours = sorted(str(a) for a in pos.legal_actions())
            assert (pos.spn(), ours) == (ref.spn(), sorted(ref.legal())), (
                f"seed {seed} ply {ply} after {' '.join(map(str, pos.move_stack))}"
            )
            if not ours:
                break
            action = rng.choice(ours)
            pos.play(action)
            ref.apply(action)
