"""docs/rules.md section 3, chaining: same / any / none, ``end``, and no quiet step inside a chain.

The board: black c1-c2 takes b2 (a2 behind it). Afterwards the same piece can take d3 by
c2-d2 (d4 behind), and another black piece e2 can take d3 by e2-d2 or e4 by e2-e3.
"""

from __future__ import annotations

import pytest

from engine import IllegalActionError
from tests.engine.helpers import legal, play, position, spn

BLACK = "a2 c1 d4 e2 e5"
WHITE = "b2 d3 e4 a5"
START = spn(black=BLACK, white=WHITE, clock=7)


def test_chain_same_continues_with_the_capturing_piece_only() -> None:
    pos = play(position(START), "c1-c2")
    assert pos.spn() == spn(black="a2 c2 d4 e2 e5", white="d3 e4 a5", state="c2", clock=0)
    assert legal(pos) == ["c2-d2", "end"]


def test_chain_same_quiet_step_and_other_pieces_are_refused() -> None:
    pos = play(position(START), "c1-c2")
    for bad in ("c2-c3", "c2-b2", "e2-d2", "e2-e3", "pass"):
        with pytest.raises(IllegalActionError):
            pos.play(bad)


def test_chain_continues_then_ends_by_itself() -> None:
    pos = play(position(START), "c1-c2", "c2-d2")
    # From d2 no capture is left: the turn ended without an 'end'.
    assert pos.spn() == spn(black="a2 d2 d4 e2 e5", white="e4 a5", side="w", clock=0, turn=31)


def test_end_stops_a_chain_and_the_clock_stays_at_zero() -> None:
    pos = play(position(START), "c1-c2", "end")
    assert pos.spn() == spn(black="a2 c2 d4 e2 e5", white="d3 e4 a5", side="w", clock=0, turn=31)


def test_chain_any_lets_every_piece_continue() -> None:
    pos = play(position(START, options=["chain=any"]), "c1-c2")
    assert pos.spn() == spn(black="a2 c2 d4 e2 e5", white="d3 e4 a5", state="c", clock=0)
    assert legal(pos) == ["c2-d2", "e2-d2", "e2-e3", "end"]
    play(pos, "e2-e3")
    assert pos.spn() == spn(black="a2 c2 d4 e3 e5", white="d3 a5", state="c", clock=0)
    assert legal(pos) == ["c2-c3", "c2-d2", "end"]  # c3 now has d3 between it and e3
    with pytest.raises(IllegalActionError):
        pos.play("e3-e4")  # a quiet step inside the chain


def test_chain_none_ends_the_turn_after_one_capture() -> None:
    pos = play(position(START, options=["chain=none"]), "c1-c2")
    assert pos.spn() == spn(black="a2 c2 d4 e2 e5", white="d3 e4 a5", side="w", clock=0, turn=31)


def test_a_step_without_capture_never_starts_a_chain() -> None:
    pos = play(position(START, options=["chain=any"]), "e5-d5")
    assert pos.state == -1
    assert pos.spn() == spn(black="a2 c1 d4 e2 d5", white=WHITE, side="w", clock=8, turn=31)


def test_chain_state_read_from_spn() -> None:
    same = position(spn(black="a2 c2 d4 e2 e5", white="d3 e4 a5", state="c2"))
    assert legal(same) == ["c2-d2", "end"]
    anyone = position(spn(black="a2 c2 d4 e2 e5", white="d3 e4 a5", state="c"), options=["chain=any"])
    assert legal(anyone) == ["c2-d2", "e2-d2", "e2-e3", "end"]


def test_ending_a_chain_read_from_spn_keeps_the_clock_at_zero() -> None:
    # Regression: the chain implies a capture this turn, so the clock must not tick.
    pos = play(position(spn(black="a2 c2 d4 e2 e5", white="d3 e4 a5", state="c2")), "end")
    assert pos.spn() == spn(black="a2 c2 d4 e2 e5", white="d3 e4 a5", side="w", clock=0, turn=31)


def test_aljaafreh_and_seejeh_presets_chain_with_any_piece() -> None:
    for preset in ("aljaafreh", "seejeh"):
        pos = play(position(START, preset), "c1-c2")
        assert legal(pos) == ["c2-d2", "e2-d2", "e2-e3", "end"], preset
