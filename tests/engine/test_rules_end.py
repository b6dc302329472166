"""docs/rules.md section 5 and the clock/turn fields of section 7: how and when a game ends."""

from __future__ import annotations

import pytest

from engine import BLACK, WHITE, Outcome, Position, Ruleset
from tests.engine.helpers import legal, play, position, spn


def test_capture_all() -> None:
    pos = play(position(spn(black="a2 b4", white="b3")), "a2-b2")
    assert pos.outcome() == Outcome(BLACK, "capture-all")
    assert str(pos.outcome()) == "1-0 capture-all"
    assert pos.spn() == spn(black="b2 b4", side="w", turn=31)
    assert pos.legal_actions() == []
    assert pos.is_over()


def test_lose_at_one_reduced() -> None:
    pos = play(position(spn(black="a2 b4", white="b3 e5"), options=["lose_at=1"]), "a2-b2")
    assert pos.outcome() == Outcome(BLACK, "reduced")
    assert pos.outcome().result == "1-0"  # type: ignore[union-attr]


def test_lose_at_zero_keeps_playing_with_one_piece() -> None:
    pos = play(position(spn(black="a2 b4", white="b3 e5")), "a2-b2")
    assert pos.outcome() is None


def test_lose_at_one_with_two_left_goes_on() -> None:
    pos = play(position(spn(black="a2 b4", white="b3 e5 e4"), options=["lose_at=1"]), "a2-b2")
    assert pos.outcome() is None


def test_seejeh_and_aljaafreh_lose_at() -> None:
    assert position(spn(black="a1 c1", white="e5"), "seejeh").outcome() == Outcome(BLACK, "reduced")
    assert position(spn(black="a1 c1", white="e5"), "aljaafreh").outcome() is None


def test_a_white_win_reads_0_1() -> None:
    pos = play(position(spn(black="b3", white="a2 b4", side="w")), "a2-b2")
    assert str(pos.outcome()) == "0-1 capture-all"


def test_the_game_ends_inside_a_chain_and_the_turn_ends_with_it() -> None:
    # c1-c2 takes b2 and could go on to take d3, but White is down to lose_at=1.
    pos = position(spn(black="a2 c1 d4 e5", white="b2 d3"), options=["lose_at=1"])
    play(pos, "c1-c2")
    assert pos.outcome() == Outcome(BLACK, "reduced")
    assert pos.spn() == spn(black="a2 c2 d4 e5", white="d3", side="w", turn=31)


def test_the_game_ends_on_the_first_piece_of_a_pair() -> None:
    pos = position("wwww1/5/5/5/bbbb1 b p 8/8 - 0 5", "five-in-a-row")
    play(pos, "e1")
    assert pos.outcome() == Outcome(BLACK, "line")
    assert pos.spn() == "wwww1/5/5/5/bbbbb w p 7/8 - 0 6"


@pytest.mark.parametrize(
    ("white", "result"),
    [("e5", "1-0"), ("e5 e4", "1/2-1/2"), ("e5 e4 e3", "0-1")],
)
def test_move_limit_more_pieces_wins(white: str, result: str) -> None:
    pos = play(position(spn(black="a1 c1", white=white, clock=2), options=["move_limit=3"]), "a1-a2")
    assert str(pos.outcome()) == f"{result} move-limit"
    assert pos.spn().endswith(" 3 31")


def test_move_limit_default_is_100() -> None:
    assert Ruleset.make("standard", 5).move_limit == 100
    pos = play(position(spn(black="a1 c1", white="e5", clock=99)), "a1-a2")
    assert str(pos.outcome()) == "1-0 move-limit"
    assert play(position(spn(black="a1 c1", white="e5", clock=98)), "a1-a2").outcome() is None


def test_a_capture_resets_the_clock() -> None:
    pos = play(position(spn(black="a2 b4", white="b3 e5", clock=2), options=["move_limit=3"]), "a2-b2")
    assert pos.outcome() is None
    assert pos.clock == 0


def test_a_pass_counts_on_the_clock() -> None:
    pos = position(spn(black="a1", white="a2 b1 e5", clock=2), options=["move_limit=3"])
    play(pos, "pass")
    assert str(pos.outcome()) == "0-1 move-limit"


def test_a_removal_resets_the_clock_and_both_turns_count() -> None:
    # lane: White's removal is a turn of its own (clock 0), Black's step then adds 1.
    pos = position(spn(black="c3", white="b3 d3 c2 c4 e5", clock=7), "lane")
    play(pos, "xb3")
    assert (pos.clock, pos.turn) == (0, 31)
    play(pos, "c3-b3")
    assert (pos.clock, pos.turn) == (1, 32)


def test_move_limit_zero_disables_it() -> None:
    pos = play(position(spn(black="a1 c1", white="e5", clock=500), options=["move_limit=0"]), "a1-a2")
    assert pos.outcome() is None
    assert pos.clock == 501


def test_turn_limit_draws_when_that_many_turns_are_completed() -> None:
    pos = position(spn(black="a1 c1", white="e5", turn=30), options=["turn_limit=30"])
    assert pos.outcome() is None
    play(pos, "a1-a2")
    assert pos.outcome() == Outcome(None, "turn-limit")
    assert str(pos.outcome()) == "1/2-1/2 turn-limit"


def test_turn_limit_counts_placement_turns() -> None:
    pos = Position(Ruleset.make("standard", 5, ["turn_limit=2"]))
    play(pos, "a1", "b1")
    assert pos.outcome() is None
    play(pos, "a5", "b5")
    assert pos.outcome() == Outcome(None, "turn-limit")


def test_ludii_turn_limit_is_2500() -> None:
    pos = play(position(spn(black="a1 c1", white="e5", turn=2500), "ludii"), "a1-a2")
    assert pos.outcome() == Outcome(None, "turn-limit")


def test_turn_and_clock_count_every_turn_of_either_side() -> None:
    pos = position(spn(black="a1", white="e5", clock=0, turn=1))
    play(pos, "a1-a2", "e5-e4", "a2-a3")
    assert (pos.turn, pos.clock, pos.side) == (4, 3, WHITE)


# ------------------------------------------------------------------ the order of ends


def test_line_before_piece_count() -> None:
    # c2-c1 completes a1-b1-c1 (win_line=3) and takes d1, leaving White one piece (lose_at=1).
    pos = position(spn(black="a1 b1 c2 e1", white="d1 e5"), options=["win_line=3", "lose_at=1"])
    play(pos, "c2-c1")
    assert pos.outcome() == Outcome(BLACK, "line")


def test_piece_count_before_move_limit() -> None:
    assert position(spn(black="a1 c1", clock=100, side="w")).outcome() == Outcome(BLACK, "capture-all")


def test_move_limit_before_turn_limit() -> None:
    pos = position(spn(black="a1 c1", white="e5", clock=2, turn=30), options=["move_limit=3", "turn_limit=30"])
    play(pos, "a1-a2")
    assert pos.outcome() == Outcome(BLACK, "move-limit")


# Black's c1-b1 walls White's only piece a1 in (a2 black): under `lose` White is blocked.
WALL = spn(black="a2 c1", white="a1", turn=30)


def test_blocked_loses_when_no_other_end_holds() -> None:
    pos = play(position(WALL, "aljaafreh"), "c1-b1")
    assert pos.outcome() == Outcome(BLACK, "blocked")


def test_turn_limit_before_blocked() -> None:
    pos = play(position(WALL, "aljaafreh", ["turn_limit=30"]), "c1-b1")
    assert pos.outcome() == Outcome(None, "turn-limit")


def test_move_limit_before_blocked() -> None:
    pos = position(spn(black="a2 c1", white="a1", clock=2, turn=30), "aljaafreh", ["move_limit=3"])
    play(pos, "c1-b1")
    assert pos.outcome() == Outcome(BLACK, "move-limit")


def test_line_before_move_limit() -> None:
    pos = play(position("1ww/w1b/bb1 b m 0/0 - 99 7", "modern-3x3"), "c2-c1")
    assert pos.outcome() == Outcome(BLACK, "line")


def test_finished_positions_have_no_legal_actions() -> None:
    pos = position(spn(black="a1 c1", white="", side="w"))
    assert legal(pos) == []
    assert pos.perft(2) == 0
