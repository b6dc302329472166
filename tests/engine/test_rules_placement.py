"""docs/rules.md section 2 and the start of section 3: placement, openings, the first mover."""

from __future__ import annotations

import pytest

from engine import IllegalActionError, Position, Ruleset
from tests.engine.helpers import legal, play, position

# A full 5x5 board but for the centre and d1, White to place its last piece.
LAST_PLACEMENT = "bbwwb/bbwww/bb1ww/bbwww/bbw1b w p 0/1 1 0 12"


def test_standard_start() -> None:
    pos = Position(Ruleset.make("standard", 5))
    assert pos.spn() == "5/5/5/5/5 b p 12/12 - 0 1"
    assert len(legal(pos)) == 24
    assert "c3" not in legal(pos)


@pytest.mark.parametrize(("size", "centre", "pieces"), [(5, "c3", 12), (7, "d4", 24), (9, "e5", 40)])
def test_every_empty_cell_but_the_centre_may_take_a_piece(size: int, centre: str, pieces: int) -> None:
    pos = Position(Ruleset.make("standard", size))
    assert pos.hand == [pieces, pieces]
    assert len(legal(pos)) == size * size - 1
    assert centre not in legal(pos)
    with pytest.raises(IllegalActionError, match="not legal"):
        pos.play(centre)


def test_place_centre_true_allows_the_centre() -> None:
    pos = Position(Ruleset.make("standard", 5, ["place_centre=true"]))
    assert len(legal(pos)) == 25
    play(pos, "c3")
    assert pos.spn() == "5/5/2b2/5/5 b p 11/12 1 0 1"


def test_pairs_two_pieces_per_turn() -> None:
    pos = Position(Ruleset.make("standard", 5))
    play(pos, "a1")
    assert pos.spn() == "5/5/5/5/b4 b p 11/12 1 0 1"
    with pytest.raises(IllegalActionError):
        pos.play("a1")  # occupied
    play(pos, "b1")
    assert pos.spn() == "5/5/5/5/bb3 w p 10/12 - 0 2"
    play(pos, "a5", "e5")
    assert pos.spn() == "w3w/5/5/5/bb3 b p 10/10 - 0 3"


def test_pairs_with_an_odd_hand_ends_on_a_single_piece() -> None:
    pos = Position(Ruleset.make("standard", 5, ["pieces=3"]))
    play(pos, "a1", "b1", "c1", "d1", "e1")
    assert pos.spn() == "5/5/5/5/bbwwb w p 0/1 - 0 4"
    play(pos, "a2")
    assert pos.spn() == "5/5/5/w4/bbwwb w m 0/0 - 0 5"


def test_pairs_then_singles() -> None:
    pos = Position(Ruleset.make("two-then-one", 5))
    play(pos, "a1")
    assert pos.state == -2  # half a pair
    play(pos, "b1", "c1", "d1", "e1")
    assert pos.spn() == "5/5/5/5/bbwwb w p 9/10 - 0 4"
    play(pos, "a2")
    assert pos.spn() == "5/5/5/w4/bbwwb b p 9/9 - 0 5"


def test_pairs_then_singles_reaches_movement_after_eleven_turns_each() -> None:
    pos = position("bbwwb/bbwww/bb1ww/bbwww/bbw1b w p 0/1 - 0 22", "two-then-one")
    play(pos, "d1")
    assert pos.spn() == "bbwwb/bbwww/bb1ww/bbwww/bbwwb w m 0/0 - 0 23"


def test_singles() -> None:
    pos = Position(Ruleset.make("standard", 5, ["placement=singles"]))
    play(pos, "a1")
    assert pos.spn() == "5/5/5/5/b4 w p 11/12 - 0 2"


def test_last_placer_moves_first_by_default() -> None:
    pos = play(position(LAST_PLACEMENT), "d1")
    assert pos.spn() == "bbwwb/bbwww/bb1ww/bbwww/bbwwb w m 0/0 - 0 13"
    assert legal(pos) == ["c2-c3", "c4-c3", "d3-c3"]  # the first step enters the centre


@pytest.mark.parametrize("preset", ["lane", "aljaafreh", "ludii"])
def test_first_mover_black(preset: str) -> None:
    pos = play(position(LAST_PLACEMENT, preset), "d1")
    assert pos.spn() == "bbwwb/bbwww/bb1ww/bbwww/bbwwb b m 0/0 - 0 13"
    assert legal(pos) == ["b3-c3"]


def test_first_mover_option_alone() -> None:
    pos = play(position(LAST_PLACEMENT, options=["first_mover=black"]), "d1")
    assert pos.side == 0


def test_no_captures_during_placement() -> None:
    # White completes its pair between two black pieces: nothing is captured.
    pos = position("5/5/5/5/b1b1w w p 10/11 1 0 2")
    play(pos, "b1")
    assert pos.spn() == "5/5/5/5/bwb1w b p 10/10 - 0 3"


@pytest.mark.parametrize(
    ("size", "black_cells", "white_cells"),
    [(5, ["a3", "e3"], ["c1", "c5"]), (7, ["a4", "g4"], ["d1", "d7"]), (9, ["a5", "i5"], ["e1", "e9"])],
)
def test_lane_opening(size: int, black_cells: list[str], white_cells: list[str]) -> None:
    pos = Position(Ruleset.make("lane", size))
    assert legal(pos) == black_cells
    play(pos, black_cells[1])
    assert legal(pos) == [black_cells[0]]
    play(pos, black_cells[0])
    assert legal(pos) == white_cells
    with pytest.raises(IllegalActionError):
        pos.play("a1")
    play(pos, *white_cells)
    assert len(legal(pos)) == size * size - 1 - 4  # free from the second turn on


def test_lane_opening_option_alone() -> None:
    pos = Position(Ruleset.make("standard", 5, ["opening=lane"]))
    assert legal(pos) == ["a3", "e3"]
