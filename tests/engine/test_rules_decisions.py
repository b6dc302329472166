"""Where docs/rules.md is silent: the choices written in docs/rules-decisions.md, pinned.

Each test names the decision's number in that file. These are not rules of the game but
the engine's documented answers to questions the rules leave open.
"""

from __future__ import annotations

import pytest

from engine import InvalidPositionError, Position, Ruleset, read_sgn
from tests.engine.helpers import legal, play, position


def test_2_piece_counts_that_do_not_add_up_are_accepted() -> None:
    # Three black pieces on the board and nine in hand: a set-up, not an error.
    assert position("5/5/5/5/bbb2 b p 9/12 - 0 1").spn() == "5/5/5/5/bbb2 b p 9/12 - 0 1"
    # Twelve black pieces on the board and twelve more in hand, as long as they fit.
    assert position("bbbbb/bbbbb/bb3/5/5 b p 12/0 - 0 1").hand == [12, 0]


@pytest.mark.parametrize(
    ("spn", "why"),
    [
        ("5/5/5/5/bbb2 b p 12/12 - 0 1", "24 pieces in hand but only 21 empty cells"),
        ("bbbbb/bbbbb/bb1bb/bbbbw/wwww1 b p 50/50 - 0 1", "each from 0 to pieces=12"),
        ("bbbbb/bbbbb/bb1bb/bbbbw/wwww1 b p 13/0 - 0 1", "each from 0 to pieces=12"),
        ("bbbbb/bbbbb/bb1bb/bbbbw/wwww1 b p 1/1 - 0 1", "2 pieces in hand but only 1 empty cells"),
    ],
)
def test_2_hands_must_fit_pieces_and_the_board(spn: str, why: str) -> None:
    # Issue 9 item 7: the second SPN was read, and apply e1 then wrote one the reader refused.
    with pytest.raises(InvalidPositionError, match=why):
        position(spn)


def test_2_whatever_the_engine_writes_from_a_full_board_set_up_it_reads_back() -> None:
    pos = position("bbbbb/bbbbb/bb1bb/bbbbw/wwww1 b p 1/0 - 0 1")
    play(pos, "e1")
    assert position(pos.spn()).spn() == pos.spn() == "bbbbb/bbbbb/bb1bb/bbbbw/wwwwb w m 0/0 - 0 2"


def test_5_a_side_with_an_empty_hand_is_skipped() -> None:
    pos = play(position("5/5/5/5/b4 w p 0/3 - 0 4"), "a5", "b5")
    assert pos.spn() == "ww3/5/5/5/b4 w p 0/1 - 0 5"
    play(pos, "c5")
    assert pos.spn() == "www2/5/5/5/b4 w m 0/0 - 0 6"


def test_6_lane_opening_with_singles_restricts_only_the_first_turn() -> None:
    pos = Position(Ruleset.make("lane", 5, ["placement=singles"]))
    assert legal(pos) == ["a3", "e3"]
    play(pos, "a3")
    assert legal(pos) == ["c1", "c5"]
    play(pos, "c5")
    assert len(legal(pos)) == 22  # Black's second turn is free: 24 cells less a3 and c5


def test_8_a_blocked_second_mover_read_at_the_exception_turn_passes() -> None:
    # The SPN the engine writes when no piece qualified for the first-step removal.
    pos = position("bbwww/bbbww/3bw/bb2b/2bbb w m 0/0 - 0 14", "aljaafreh")
    assert pos.outcome() is None
    assert legal(pos) == ["pass"]


def test_15_replacement_without_win_line_is_two_tries_then_a_draw() -> None:
    pos = position("bwbwb/wbwbw/bw1wb/wbwbw/bwbwb b s 0/0 - 0 13", "standard", ["after_placement=replace"])
    play(pos, "b1", "a1")
    assert str(pos.outcome()) == "1/2-1/2 no-line"


def test_18_an_incomplete_last_turn_is_accepted() -> None:
    record = read_sgn("1. a1,b1 2. a5 *")
    assert record.replay().spn() == "w4/5/5/5/bb3 w p 10/11 1 0 2"
