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


FOUZE_BLOCKED = "5/5/5/b4/wb3 w m 0/0 - 0 20"  # White (a1) is blocked; Black's a2 is next to it


def test_3_9_a_remove_by_blocked_turn_in_one_call_keeps_the_clock_at_0() -> None:
    # Review atk41b finding 1. The removal and the step are one turn that removed a piece.
    rules = ["move_limit=1"]
    pos = play(position(FOUZE_BLOCKED, "fouze", rules), "xa2", "a1-a2")
    assert (pos.spn(), pos.outcome()) == ("5/5/5/w4/1b3 b m 0/0 - 0 21", None)
    # What an SPN written between the removal and the step loses (decision 3): the turn
    # has removed a piece. Read from it, the step adds 1, and move_limit=1 ends the game.
    middle = play(position(FOUZE_BLOCKED, "fouze", rules), "xa2").spn()
    assert middle == "5/5/5/5/wb3 w m 0/0 - 0 20"
    resumed = play(position(middle, "fouze", rules), "a1-a2")
    assert resumed.spn() == "5/5/5/w4/1b3 b m 0/0 - 1 21"
    assert str(resumed.outcome()) == "1/2-1/2 move-limit"


ALJAAFREH_TURN_13 = "bbbww/wwwbw/bb1ww/wwwbw/bbbbb b m 0/0 - 0 13"  # Black's first movement turn


def test_3_8_a_first_movement_turn_that_chains_in_one_call_makes_the_first_mover_remove() -> None:
    # Review atk41b finding 2. b3-c3 captures, the chain goes on (chain=any), and White
    # is then blocked at turn 14: Black removes a piece next to b3, the cell b3-c3 left.
    pos = play(position(ALJAAFREH_TURN_13, "aljaafreh"), "b3-c3", "a3-b3", "b3-a3")
    assert pos.spn() == "bbbww/3bw/b1bww/3bw/bbbbb b r 0/0 b3 0 14"
    assert legal(pos) == ["xa3", "xc3"]
    # What an SPN written inside that chain loses (decision 3): the cell b3. Replayed SPN
    # by SPN, the chain ends with White blocked in phase m, and White passes.
    spn = ALJAAFREH_TURN_13
    for action in ("b3-c3", "a3-b3", "b3-a3"):
        spn = play(position(spn, "aljaafreh"), action).spn()
    assert spn == "bbbww/3bw/b1bww/3bw/bbbbb w m 0/0 - 0 14"
    assert legal(position(spn, "aljaafreh")) == ["pass"]
