"""docs/rules.md section 6: five-in-a-row (with its replacement phase) and modern-3x3."""

from __future__ import annotations

import pytest

from engine import BLACK, WHITE, InvalidRulesError, Outcome, Position, Ruleset
from tests.engine.helpers import legal, play, position

# A full board (centre empty) with no line: a checkerboard, 12 pieces each.
CHECKER = "bwbwb/wbwbw/bw1wb/wbwbw/bwbwb"
# Black has a1-d1 and e1 is white; White has no four in a line.
BLACK_FOUR = "wwbwb/wbwbw/bw1wb/wbwbw/bbbbw"
# The colours swapped: White has a1-d1 and e1 is black.
WHITE_FOUR = "bbwbw/bwbwb/wb1bw/bwbwb/wwwwb"


def test_five_in_a_row_is_5x5_only() -> None:
    assert Ruleset.make("five-in-a-row").size == 5
    with pytest.raises(InvalidRulesError):
        Ruleset.make("five-in-a-row", 7)


@pytest.mark.parametrize(("black", "last"), [("a1 b1 c1 d1", "e1"), ("b1 b2 b3 b4", "b5")])
def test_a_line_made_by_placement_wins_at_once(black: str, last: str) -> None:
    pos = Position(Ruleset.make("five-in-a-row"))
    whites = iter(["a5", "e5", "d5", "e4", "d4", "e3"])
    for cell in black.split():
        play(pos, cell)
        if pos.side == WHITE:
            play(pos, next(whites), next(whites))
    play(pos, last)
    assert pos.outcome() == Outcome(BLACK, "line")


def test_the_centre_stays_empty_in_five_in_a_row() -> None:
    assert "c3" not in legal(Position(Ruleset.make("five-in-a-row")))


def test_a_full_board_starts_the_replacement_phase_with_black() -> None:
    pos = position("bwb1b/wbwbw/bw1wb/wbwbw/bwbwb w p 0/1 1 0 12", "five-in-a-row")
    play(pos, "d5")
    assert pos.spn() == f"{CHECKER} b s 0/0 - 0 13"
    assert legal(pos) == sorted(["b1", "d1", "a2", "c2", "e2", "b3", "d3", "a4", "c4", "e4", "b5", "d5"])


def test_a_replacement_without_a_line_empties_the_cell_then_white_then_no_line_draw() -> None:
    pos = position(f"{CHECKER} b s 0/0 - 0 13", "five-in-a-row")
    play(pos, "b1")
    assert pos.spn() == "bwbwb/wbwbw/bw1wb/wbwbw/b1bwb w s 0/0 - 0 14"
    assert legal(pos) == sorted(["a1", "c1", "e1", "b2", "d2", "a3", "e3", "b4", "d4", "a5", "c5", "e5"])
    play(pos, "a1")
    assert pos.outcome() == Outcome(None, "no-line")
    assert str(pos.outcome()) == "1/2-1/2 no-line"
    assert pos.spn() == "bwbwb/wbwbw/bw1wb/wbwbw/2bwb b s 0/0 - 0 15"


def test_black_replacement_making_a_line_wins() -> None:
    pos = play(position(f"{BLACK_FOUR} b s 0/0 - 0 13", "five-in-a-row"), "e1")
    assert pos.outcome() == Outcome(BLACK, "line")
    assert pos.spn() == "wwbwb/wbwbw/bw1wb/wbwbw/bbbbb w s 0/0 - 0 14"


def test_white_replacement_making_a_line_wins() -> None:
    pos = play(position(f"{WHITE_FOUR} b s 0/0 - 0 13", "five-in-a-row"), "c5")
    assert pos.outcome() is None
    play(pos, "e1")
    assert pos.outcome() == Outcome(WHITE, "line")


def test_modern_3x3_start() -> None:
    pos = Position(Ruleset.make("modern-3x3"))
    assert pos.spn() == "3/3/3 b p 3/3 - 0 1"
    assert len(legal(pos)) == 9  # the centre b2 too
    play(pos, "b2")
    assert pos.spn() == "3/1b1/3 w p 2/3 - 0 2"


def test_modern_3x3_line_by_placement() -> None:
    pos = play(Position(Ruleset.make("modern-3x3")), "a1", "a2", "b1", "b2", "c1")
    assert pos.outcome() == Outcome(BLACK, "line")
    assert pos.spn() == "3/ww1/bbb w p 0/1 - 0 6"


def test_modern_3x3_movement_follows_placement_with_white_first() -> None:
    pos = play(Position(Ruleset.make("modern-3x3")), "a1", "b1", "c2", "a2", "b3", "c1")
    assert pos.spn() == "1b1/w1b/bww w m 0/0 - 0 7"


def test_modern_3x3_line_by_step_and_no_captures() -> None:
    pos = play(position("1ww/w1b/bb1 b m 0/0 - 0 7", "modern-3x3"), "c2-c1")
    assert pos.outcome() == Outcome(BLACK, "line")
    assert pos.spn() == "1ww/w2/bbb w m 0/0 - 1 8"
    # A sandwich that would capture under standard rules captures nothing here.
    quiet = play(position("3/w1b/bw1 b m 0/0 - 0 9", "modern-3x3"), "c2-c1")
    assert quiet.spn() == "3/w2/bwb w m 0/0 - 1 10"


def test_modern_3x3_move_limit_ends_the_rest() -> None:
    pos = play(position("b1w/1bw/bw1 w m 0/0 - 99 7", "modern-3x3"), "c2-c1")
    assert pos.outcome() == Outcome(None, "move-limit")
