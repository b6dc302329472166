"""The evaluation is the linear sum of its features (what the tuning script fits)."""

from __future__ import annotations

import random

import pytest

from engine import Position, Ruleset
from engine.ai.evaluate import Evaluator, Weights, default_weights


@pytest.mark.parametrize("preset", ["standard", "seejeh", "ludii", "five-in-a-row"])
def test_evaluation_is_the_weighted_sum_of_features(preset: str) -> None:
    rules = Ruleset.make(preset, 5)
    evaluator = Evaluator(rules)
    evaluator.placement_model = None  # the learned placement model is not linear in these features
    weights = default_weights()
    rng = random.Random(5)
    checked = 0
    for game in range(6):
        pos = Position(rules)
        while pos.result is None and pos.turn < 60 + game:
            if pos.phase in "pm":
                section, feats = evaluator.features(pos)
                table = weights.movement if section == "movement" else weights.placement
                linear = sum(table[name] * value for name, value in feats.items())
                own, opp = pos.bb[pos.side], pos.bb[1 - pos.side]
                line = evaluator.line_score(own, opp) if rules.win_line else 0
                assert evaluator(pos) == linear + line, pos.spn()
                checked += 1
            pos.push_code(rng.choice(pos.legal_codes()))
    assert checked > 50


def test_material_dominates_and_weights_round_trip() -> None:
    weights = default_weights()
    assert Weights.from_dict(weights.to_dict()) == weights
    rules = Ruleset.make("standard", 5)
    evaluator = Evaluator(rules)
    up = Position.from_spn("b4/5/5/5/4w b m 0/0 - 0 40", rules)
    down = Position.from_spn("bb3/5/5/5/4w w m 0/0 - 0 40", rules)
    assert evaluator(up) < evaluator(Position.from_spn("bb3/5/5/5/4w b m 0/0 - 0 40", rules))
    assert evaluator(down) < 0


@pytest.mark.parametrize(("preset", "size"), [("standard", 5), ("seejeh", 5), ("standard", 7), ("standard", 9)])
def test_movement_value_is_the_feature_sum_on_random_boards(preset: str, size: int) -> None:
    """The one-body movement evaluation (per-cell terms summed by table on boards of at
    most 26 cells, term by term on larger ones) against the features one by one, with
    the shipped weights and random ones, on random bitboards."""
    rules = Ruleset.make(preset, size)
    rng = random.Random(size)
    names = list(default_weights().movement)
    for trial in range(4):
        weights = (
            default_weights()
            if trial == 0
            else Weights.from_dict({"movement": {name: rng.randint(-60, 120) for name in names}})
        )
        evaluator = Evaluator(rules, weights)
        pos = Position(rules)
        pos.phase = "m"
        for _ in range(300):
            own = opp = 0
            for cell in range(size * size):
                r = rng.random()
                if r < 0.35:
                    own |= 1 << cell
                elif r < 0.7:
                    opp |= 1 << cell
            pos.bb = [own, opp]
            _section, feats = evaluator.features(pos)
            assert evaluator.movement(own, opp) == sum(weights.movement[k] * v for k, v in feats.items())
