"""A short game in every preset and size: placement, movement, removals, replacements."""

from __future__ import annotations

import random

import pytest

from engine import PRESETS, Position, Ruleset
from engine.ai import LEVELS, best_turn

CASES = [(preset, size) for preset, (sizes, _o) in PRESETS.items() for size in sizes]


def _random_fill(pos: Position, rng: random.Random, keep: int) -> None:
    """Random placements until ``keep`` placement actions remain (movement comes sooner)."""
    while pos.phase == "p" and pos.result is None and sum(pos.hand) > keep:
        pos.push_code(rng.choice(pos.legal_codes()))


@pytest.mark.parametrize(("preset", "size"), CASES)
def test_short_game(preset: str, size: int) -> None:
    rules = Ruleset.make(preset, size)
    rng = random.Random(size * 31 + len(preset))
    pos = Position(rules)
    # Two AI placement turns on the empty board, then a random fill, then AI turns.
    for i in range(2):
        for action in best_turn(pos, LEVELS[i % 4], 15, seed=i):
            pos.play(action)
    _random_fill(pos, rng, 4)
    for i in range(10):
        if pos.result is not None:
            break
        side, turn = pos.side, pos.turn
        actions = best_turn(pos, LEVELS[i % 4], 15, seed=i)
        assert actions
        for action in actions:
            pos.play(action)  # validated
        assert pos.result is not None or pos.turn > turn or pos.side != side


def test_modern_3x3_completes_and_blocks_lines() -> None:
    rules = Ruleset.make("modern-3x3", 3)
    # White to place: Black threatens a1-b1-c1 (b1 empty) and White must block it.
    pos = Position.from_spn("1w1/1w1/b1b w p 1/1 - 0 5", rules)
    assert str(best_turn(pos, "medium", 200)[0]) == "b1"
    pos = Position(rules)
    while pos.result is None and pos.turn < 60:
        for action in best_turn(pos, "hard", 30):
            pos.play(action)
    assert pos.turn >= 6
