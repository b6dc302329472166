"""The AI finds wins, captures and chains, and does not walk into a loss."""

from __future__ import annotations

import pytest

from engine import Position, Ruleset
from engine.ai import LEVELS, best_action, best_turn

STANDARD = Ruleset.make("standard", 5)


def test_finds_the_win_in_one() -> None:
    # c2-c1 sandwiches White's last piece on b1 between a1 and c1.
    pos = Position.from_spn("5/5/5/2b2/bw3 b m 0/0 - 0 30", STANDARD)
    for level in LEVELS:
        assert str(best_action(pos, level, 300, seed=1)) == "c2-c1", level


def test_takes_a_capture_that_wins_material() -> None:
    # a3-b3 sandwiches b2 against b1.
    pos = Position.from_spn("5/4w/b4/1w3/1b3 b m 0/0 - 0 30", STANDARD)
    before = pos.count(1)
    pos.push(best_action(pos, "hard", 300))
    assert pos.count(1) == before - 1


def test_plays_the_whole_capture_chain() -> None:
    # a3-b3 takes b2 (b1 behind it), then the same piece's b3-c3 takes c2 (c1 behind).
    pos = Position.from_spn("4w/5/b4/1ww2/1bb2 b m 0/0 - 0 30", STANDARD)
    for level in ("medium", "hard"):
        turn = best_turn(pos, level, 300, seed=2)
        assert [str(a) for a in turn] == ["a3-b3", "b3-c3"], level
    after = pos.copy()
    for action in turn:
        after.push(action)
    assert after.count(1) == 1 and after.side == 1


def test_chain_with_chain_any_uses_another_piece() -> None:
    rules = Ruleset.make("standard", 5, ["chain=any"])
    # a3-b3 takes b2 (b1 behind) and e3-d3 takes d2 (d1 behind), in either order.
    pos = Position.from_spn("4w/5/b3b/1w1w1/1b1b1 b m 0/0 - 0 30", rules)
    turn = best_turn(pos, "hard", 300)
    after = pos.copy()
    for action in turn:
        after.push(action)
    assert len(turn) == 2 and after.count(1) == pos.count(1) - 2


def test_never_steps_into_an_immediate_loss() -> None:
    # Black's last piece: b3-b4 would let d4-c4 capture it (a4 behind); the others are safe.
    pos = Position.from_spn("5/w2w1/1b3/5/4w b m 0/0 - 0 30", STANDARD)
    for level in LEVELS:
        for seed in range(6):
            assert str(best_action(pos, level, 100, seed=seed)) != "b3-b4", (level, seed)


@pytest.mark.parametrize("level", LEVELS)
def test_removal_phase_is_played(level: str) -> None:
    rules = Ruleset.make("seejeh", 5)
    pos = Position.from_spn("bw3/wb3/5/5/4b b r 0/0 - 0 30", rules)
    action = best_action(pos, level, 100, seed=0)
    assert action.kind == "remove" and pos.is_legal(action)


def test_easy_takes_free_captures_most_of_the_time() -> None:
    pos = Position.from_spn("5/4w/b4/1w3/1b3 b m 0/0 - 0 30", STANDARD)
    takes = 0
    for seed in range(20):
        after = pos.copy()
        after.push(best_action(pos, "easy", seed=seed))
        takes += after.count(1) < pos.count(1)
    assert takes >= 12
