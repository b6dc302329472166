"""docs/rules.md section 3, the shuttle limit: a piece may not go back and forth between the
same two cells more than ``max_shuttles`` times; the history follows the piece."""

from __future__ import annotations

import pytest

from engine import IllegalActionError
from tests.engine.helpers import legal, play, position, spn

# Black P shuttles a1<->a2; Q on c1 can move too. White's e5 piece walks a square
# e5-e4-d4-d5 so that White never shuttles itself.
START = spn(black="a1 c1", white="e5")
WHITE_WALK = ["e5-e4", "e4-d4", "d4-d5", "d5-e5"] * 3


def interleave(black: list[str]) -> list[str]:
    """Black's steps with White's walk in between."""
    out = []
    for i, step in enumerate(black):
        out += [step, WHITE_WALK[i]]
    return out


def test_the_fifth_shuttle_step_is_refused() -> None:
    pos = play(position(START), *interleave(["a1-a2", "a2-a1", "a1-a2", "a2-a1"]))
    assert "a1-a2" not in legal(pos)
    assert "a1-b1" in legal(pos)
    with pytest.raises(IllegalActionError, match="a1-a2 is not legal"):
        pos.play("a1-a2")


def test_three_shuttle_steps_are_fine() -> None:
    pos = play(position(START), *interleave(["a1-a2", "a2-a1", "a1-a2"]))
    assert "a2-a1" in legal(pos)


@pytest.mark.parametrize(("k", "allowed_steps"), [(1, 2), (2, 4), (3, 6)])
def test_max_shuttles_k_allows_2k_steps(k: int, allowed_steps: int) -> None:
    steps = ["a1-a2", "a2-a1"] * 4
    pos = position(START, options=[f"max_shuttles={k}"])
    play(pos, *interleave(steps[:allowed_steps]))
    assert steps[allowed_steps] not in legal(pos)
    pos.pop()
    pos.pop()
    assert steps[allowed_steps - 1] in legal(pos)


def test_max_shuttles_zero_means_no_limit() -> None:
    pos = play(position(START, options=["max_shuttles=0"]), *interleave(["a1-a2", "a2-a1"] * 5))
    assert "a1-a2" in legal(pos)


def test_ludii_preset_has_no_shuttle_limit() -> None:
    pos = play(position(START, "ludii"), *interleave(["a1-a2", "a2-a1"] * 3))
    assert "a1-a2" in legal(pos)


def test_other_pieces_moves_in_between_do_not_matter() -> None:
    black = ["a1-a2", "c1-d1", "a2-a1", "d1-c1", "a1-a2", "c1-d1", "a2-a1", "d1-c1"]
    pos = play(position(START), *interleave(black))
    assert "a1-a2" not in legal(pos)


def test_a_step_elsewhere_breaks_the_run() -> None:
    pos = play(position(START), *interleave(["a1-a2", "a2-a1", "a1-a2", "a2-a1", "a1-b1", "b1-a1"]))
    assert "a1-a2" in legal(pos)
    assert "a1-b1" in legal(pos)


def test_the_history_follows_the_piece_not_the_cell() -> None:
    # P shuttles a1<->a2 until locked, leaves by b1; Q comes to a1 by a3-a2-a1 and may go back.
    text = spn(black="a1 a3", white="e5")
    pos = play(position(text), *interleave(["a1-a2", "a2-a1", "a1-a2", "a2-a1", "a1-b1", "a3-a2", "a2-a1"]))
    assert "a1-a2" in legal(pos)


def test_the_history_is_gone_when_the_piece_is_captured() -> None:
    # P shuttles b1<->b2 until locked on b1, then White's c2-c1 captures it (a1 behind).
    pos = position(spn(black="b1 e1", white="a1 c2 e5"))
    play(pos, "b1-b2", "e5-e4", "b2-b1", "e4-d4", "b1-b2", "d4-d5", "b2-b1")
    b1 = pos.geo.names.index("b1")
    assert pos.hist[b1] == (pos.geo.names.index("b2"), 4)
    play(pos, "c2-c1")
    assert pos.spn() == spn(black="e1", white="a1 c1 d5", clock=0, turn=38)
    assert b1 not in pos.hist
    pos.pop()
    assert pos.hist[b1] == (pos.geo.names.index("b2"), 4)


# P on b1 shuttles b1<->b2 three times; then its fourth step b2-b1 captures c1 (d1 behind)
# and would continue by b1-b2 onto b3 (b4 behind) but for the shuttle limit.
CHAIN_START = spn(black="b1 e1 b4", white="c1 a3 e5")
CHAIN_GAME = ["b1-b2", "e5-e4", "b2-b1", "e4-e5", "b1-b2", "e5-e4", "e1-d1", "a3-b3", "b2-b1"]


def test_chain_steps_count_in_the_shuttle_history() -> None:
    pos = play(position(CHAIN_START), *CHAIN_GAME)
    assert pos.spn() == spn(black="b1 d1 b4", white="b3 e4", side="w", clock=0, turn=39)


def test_without_the_limit_the_same_chain_continues() -> None:
    pos = play(position(CHAIN_START, options=["max_shuttles=0"]), *CHAIN_GAME)
    assert pos.spn() == spn(black="b1 d1 b4", white="b3 e4", state="b1", clock=0, turn=38)
    assert legal(pos) == ["b1-b2", "end"]


def test_a_position_read_from_spn_has_no_history() -> None:
    pos = play(position(START), *interleave(["a1-a2", "a2-a1", "a1-a2", "a2-a1"]))
    fresh = position(pos.spn())
    assert fresh.hist == {}
    assert "a1-a2" in legal(fresh)
