"""docs/rules.md section 3: steps, custodial capture, the safe centre and line capture."""

from __future__ import annotations

import pytest

from engine import IllegalActionError
from tests.engine.helpers import legal, play, position, spn


def test_steps_are_one_cell_orthogonal_into_empty_cells() -> None:
    pos = position(spn(black="b2 a1", white="e5 c2"))
    assert legal(pos) == ["a1-a2", "a1-b1", "b2-a2", "b2-b1", "b2-b3"]


@pytest.mark.parametrize("bad", ["b2-c3", "b2-b4", "b2-c2", "a1-a3"])
def test_diagonal_long_and_occupied_steps_are_refused(bad: str) -> None:
    pos = position(spn(black="b2 a1", white="e5 c2"))
    with pytest.raises(IllegalActionError, match="not legal"):
        pos.play(bad)


@pytest.mark.parametrize(
    ("black", "white", "step", "after_black"),
    [
        ("a2 b4", "b3 e5", "a2-b2", "b2 b4"),  # captured piece north of the target
        ("a4 b2", "b3 e5", "a4-b4", "b4 b2"),  # south
        ("b1 d2", "c2 e5", "b1-b2", "b2 d2"),  # east
        ("d1 b2", "c2 e5", "d1-d2", "d2 b2"),  # west
    ],
)
def test_custodial_capture_in_each_direction(black: str, white: str, step: str, after_black: str) -> None:
    pos = play(position(spn(black=black, white=white, clock=5)), step)
    assert pos.spn() == spn(black=after_black, white="e5", side="w", clock=0, turn=31)


def test_a_piece_stepping_between_two_enemies_is_safe() -> None:
    pos = play(position(spn(black="a2", white="b1 b3 e5", clock=5)), "a2-b2")
    assert pos.spn() == spn(black="b2", white="b1 b3 e5", side="w", clock=6, turn=31)


def test_the_safe_centre_protects_its_piece() -> None:
    text = spn(black="b2 c4", white="c3 e5")
    pos = play(position(text), "b2-c2")
    assert pos.spn() == spn(black="c2 c4", white="c3 e5", side="w", clock=1, turn=31)


def test_without_safe_centre_the_centre_piece_is_captured() -> None:
    pos = play(position(spn(black="b2 c4", white="c3 e5"), options=["safe_centre=false"]), "b2-c2")
    assert pos.spn() == spn(black="c2 c4", white="e5", side="w", clock=0, turn=31)


def test_ludii_preset_has_no_safe_centre() -> None:
    pos = play(position(spn(black="b2 c4", white="c3 e5"), "ludii"), "b2-c2")
    assert pos.spn() == spn(black="c2 c4", white="e5", side="w", clock=0, turn=31)


def test_a_piece_on_the_centre_helps_capture() -> None:
    pos = play(position(spn(black="a2 c3", white="b3 e5")), "a2-a3")
    assert pos.spn() == spn(black="a3 c3", white="e5", side="w", clock=0, turn=31)


def test_double_capture() -> None:
    pos = play(position(spn(black="c1 a2 e2", white="b2 d2 e5")), "c1-c2")
    assert pos.spn() == spn(black="c2 a2 e2", white="e5", side="w", clock=0, turn=31)


def test_triple_capture_entering_the_centre() -> None:
    pos = play(position(spn(black="c2 a3 e3 c5", white="b3 d3 c4 a1")), "c2-c3")
    assert pos.spn() == spn(black="c3 a3 e3 c5", white="a1", side="w", clock=0, turn=31)


def test_no_captures_when_captures_is_false() -> None:
    pos = play(position(spn(black="a2 b4", white="b3 e5"), options=["captures=false"]), "a2-b2")
    assert pos.spn() == spn(black="b2 b4", white="b3 e5", side="w", clock=1, turn=31)


LINE = {"black": "a2 c1 e1 g1", "white": "b1 d1 f1 a7", "n": 7}


def test_line_capture_takes_every_enemy_of_an_alternating_line() -> None:
    pos = play(position(spn(**LINE), options=["line_capture=true"]), "a2-a1")  # type: ignore[arg-type]
    assert pos.spn() == spn(black="a1 c1 e1 g1", white="a7", side="w", turn=31, n=7)


def test_without_line_capture_only_the_first_enemy_goes() -> None:
    pos = play(position(spn(**LINE)), "a2-a1")  # type: ignore[arg-type]
    assert pos.spn() == spn(black="a1 c1 e1 g1", white="d1 f1 a7", side="w", turn=31, n=7)


def test_line_capture_stops_where_the_alternation_breaks() -> None:
    text = spn(black="a2 c1 f1", white="b1 d1 e1 a7", n=7)
    pos = play(position(text, options=["line_capture=true"]), "a2-a1")
    assert pos.spn() == spn(black="a1 c1 f1", white="d1 e1 a7", side="w", turn=31, n=7)


def test_line_capture_stops_at_an_enemy_on_the_safe_centre() -> None:
    text = spn(black="a5 c4 e4 g4", white="b4 d4 f4 a1", n=7)  # d4 is the 7x7 centre
    pos = play(position(text, options=["line_capture=true"]), "a5-a4")
    assert pos.spn() == spn(black="a4 c4 e4 g4", white="d4 f4 a1", side="w", turn=31, n=7)


def test_line_capture_passes_the_centre_when_it_is_not_safe() -> None:
    text = spn(black="a5 c4 e4 g4", white="b4 d4 f4 a1", n=7)
    pos = play(position(text, options=["line_capture=true", "safe_centre=false"]), "a5-a4")
    assert pos.spn() == spn(black="a4 c4 e4 g4", white="a1", side="w", turn=31, n=7)


def test_seejeh_preset_captures_along_lines() -> None:
    pos = play(position(spn(black="a2 c1 e1 g1", white="b1 d1 f1 a7 a6", n=7), "seejeh"), "a2-a1")
    assert pos.spn() == spn(black="a1 c1 e1 g1", white="a7 a6", side="w", turn=31, n=7)
