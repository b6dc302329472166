"""docs/rules.md section 4: a player who cannot move, under each ``blocked`` rule."""

from __future__ import annotations

import pytest

from engine import BLACK, WHITE, IllegalActionError, Outcome, Ruleset
from tests.engine.helpers import legal, play, position, spn
from tests.engine.reference import RefGame

# Black's only piece a1 is walled in by White's a2 and b1; White can still move.
WALLED = spn(black="a1", white="a2 b1 e5", clock=3)
# Black's only piece stands on the centre, walled in on four sides.
CENTRE = spn(black="c3", white="b3 d3 c2 c4 e5", clock=3)


def test_pass_is_the_only_action_of_a_blocked_player() -> None:
    pos = position(WALLED)
    assert pos.phase == "m"
    assert legal(pos) == ["pass"]
    play(pos, "pass")
    assert pos.spn() == spn(black="a1", white="a2 b1 e5", side="w", clock=4, turn=31)


def test_pass_is_illegal_for_a_player_who_can_move() -> None:
    pos = position(spn(black="a1", white="e5"))
    with pytest.raises(IllegalActionError):
        pos.play("pass")


def shuttle_pairs(black: list[tuple[str, str]], white: list[tuple[str, str]]) -> list[str]:
    """Each piece steps out and back (max_shuttles=1 then forbids the step out)."""
    out = []
    for (b_from, b_to), (w_from, w_to) in zip(black, white, strict=True):
        out += [f"{b_from}-{b_to}", f"{w_from}-{w_to}", f"{b_to}-{b_from}", f"{w_to}-{w_from}"]
    return out


# Both blocked: the board is full but for a1 and e5; Black's a2 and b1 have each stepped
# to a1 and back, White's e4 and d5 to e5 and back, so with max_shuttles=1 nobody can move.
FULL_BLACK = "a2 b1 a3 b2 c1 a4 b3 c2 d1 a5 b4"
FULL_WHITE = "c3 d2 e1 b5 c4 d3 e2 c5 d4 e3 d5 e4"
BOTH_BLOCKED = shuttle_pairs([("a2", "a1"), ("b1", "a1")], [("e4", "e5"), ("d5", "e5")])


def test_both_blocked_under_pass_the_mover_removes_a_freeing_piece() -> None:
    pos = position(spn(black=FULL_BLACK, white=FULL_WHITE), options=["max_shuttles=1"])
    play(pos, *BOTH_BLOCKED)
    assert pos.spn() == spn(black=FULL_BLACK, white=FULL_WHITE, phase="r", clock=8, turn=38)
    # Only the black pieces next to a white one give White a step when removed.
    assert legal(pos) == ["xa5", "xb3", "xb4", "xc2", "xd1"]
    with pytest.raises(IllegalActionError):
        pos.play("pass")
    play(pos, "xb4")
    assert pos.spn() == spn(black=FULL_BLACK.replace(" b4", ""), white=FULL_WHITE, side="w", clock=0, turn=39)
    assert legal(pos) == ["b5-b4", "c4-b4"]


# Both blocked with no contact: each side's pieces fill one edge rank and have each
# stepped out and back, so with max_shuttles=1 no step is left.
RANKS = spn(black="a1 b1 c1 d1 e1", white="a5 b5 c5 d5 e5")
RANKS_GAME = shuttle_pairs([(f"{f}1", f"{f}2") for f in "abcde"], [(f"{f}5", f"{f}4") for f in "abcde"])


def test_both_blocked_with_no_freeing_piece_any_own_piece_may_go() -> None:
    pos = play(position(RANKS, options=["max_shuttles=1"]), *RANKS_GAME)
    assert pos.phase == "r"
    assert pos.side == BLACK
    assert legal(pos) == ["xa1", "xb1", "xc1", "xd1", "xe1"]
    play(pos, "xc1")
    # White is still blocked, Black can move again: White passes.
    assert pos.spn() == spn(black="a1 b1 d1 e1", white="a5 b5 c5 d5 e5", side="w", clock=0, turn=51)
    assert legal(pos) == ["pass"]


# Black's edge rank is shuttle-locked (max_shuttles=1) while White walks a square far away:
# Black is blocked and no white piece touches a black one.
LONE_WALK = ["e5-e4", "e4-d4", "d4-d5", "d5-e5"] * 3


def locked_rank_game() -> list[str]:
    black = [s for f in "abcde" for s in (f"{f}1-{f}2", f"{f}2-{f}1")]
    return [a for pair in zip(black, LONE_WALK, strict=False) for a in pair]


@pytest.mark.parametrize("rule", ["remove-by-blocked", "remove-by-opponent"])
def test_no_piece_qualifies_for_a_removal_so_the_blocked_player_passes(rule: str) -> None:
    pos = position(spn(black="a1 b1 c1 d1 e1", white="e5"), options=["max_shuttles=1", f"blocked={rule}"])
    play(pos, *locked_rank_game())
    assert pos.phase == "m"
    assert pos.side == BLACK
    assert legal(pos) == ["pass"]


def test_remove_by_blocked_removes_an_adjacent_enemy_then_steps_in_the_same_turn() -> None:
    pos = position(WALLED, "fouze")
    assert pos.spn() == spn(black="a1", white="a2 b1 e5", phase="r", clock=3)
    assert legal(pos) == ["xa2", "xb1"]
    play(pos, "xa2")
    assert pos.spn() == spn(black="a1", white="b1 e5", clock=0)
    assert legal(pos) == ["a1-a2"]
    play(pos, "a1-a2")
    assert pos.spn() == spn(black="a2", white="b1 e5", side="w", clock=0, turn=31)


def test_remove_by_opponent_is_the_opponents_own_turn() -> None:
    pos = position(CENTRE, "lane")
    assert pos.spn() == spn(black="c3", white="b3 d3 c2 c4 e5", side="w", phase="r", clock=3)
    assert legal(pos) == ["xb3", "xc2", "xc4", "xd3"]
    play(pos, "xb3")
    assert pos.spn() == spn(black="c3", white="d3 c2 c4 e5", side="b", clock=0, turn=31)
    assert legal(pos) == ["c3-b3"]


def test_capture_one_may_take_the_piece_on_the_centre() -> None:
    pos = position(CENTRE, options=["blocked=capture-one"])
    assert pos.spn() == spn(black="c3", white="b3 d3 c2 c4 e5", side="w", phase="r", clock=3)
    assert legal(pos) == ["xc3"]
    play(pos, "xc3")
    assert pos.outcome() == Outcome(WHITE, "capture-all")
    # The removal ended the game: no removal is due any more, so the phase is m.
    assert pos.spn() == spn(white="b3 d3 c2 c4 e5", side="b", phase="m", clock=0, turn=31)


def test_capture_one_then_the_blocked_player_may_be_blocked_again() -> None:
    pos = position(spn(black="c3 a1", white="a2 b1 b3 d3 c2 c4 e5"), options=["blocked=capture-one"])
    assert legal(pos) == ["xa1", "xc3"]
    play(pos, "xa1")
    # Black's new turn (31) starts blocked again: White removes again.
    assert pos.spn() == spn(black="c3", white="a2 b1 b3 d3 c2 c4 e5", side="w", phase="r", turn=31)
    play(pos, "xc3")
    assert pos.outcome() == Outcome(WHITE, "capture-all")


ISSUE_8 = "3bw/4b/5/b1b2/wb3 b m 0/0 - 4 100"


def test_a_removal_that_takes_the_last_piece_leaves_no_removal_due() -> None:
    # Issue 9 item 8: c2-c3 walls White in twice over; Black removes a1, then e5.
    pos = position(ISSUE_8, options=["blocked=capture-one"])
    play(pos, "c2-c3", "xa1")
    assert (pos.phase, pos.side, pos.outcome()) == ("r", BLACK, None)
    play(pos, "xe5")
    assert pos.outcome() == Outcome(BLACK, "capture-all")
    assert pos.spn() == "3b1/4b/2b2/b4/1b3 w m 0/0 - 0 103"
    assert pos.legal_actions() == []
    assert position(pos.spn(), options=["blocked=capture-one"]).outcome() == Outcome(BLACK, "capture-all")
    ref = RefGame.from_spn(ISSUE_8, Ruleset.make("standard", 5, ["blocked=capture-one"]))
    for action in ("c2-c3", "xa1", "xe5"):
        ref.apply(action)
    assert ref.spn() == pos.spn()


@pytest.mark.parametrize("preset", ["seejeh", "standard"])
def test_a_removal_that_leaves_lose_at_pieces_ends_in_phase_m(preset: str) -> None:
    options = ["blocked=capture-one", "lose_at=1"]
    pos = position(spn(black="c3 a1", white="a2 b1 b3 d3 c2 c4 e5"), preset, options)
    play(pos, "xa1")
    assert pos.outcome() == Outcome(WHITE, "reduced")
    assert pos.phase == "m"


def test_a_finished_game_written_in_phase_r_reads_as_phase_m() -> None:
    # What the engine wrote before the fix: still readable, and read as it is now written.
    pos = position("3b1/4b/2b2/b4/1b3 w r 0/0 - 0 103", options=["blocked=capture-one"])
    assert pos.outcome() == Outcome(BLACK, "capture-all")
    assert pos.spn() == "3b1/4b/2b2/b4/1b3 w m 0/0 - 0 103"
    ref = RefGame.from_spn("3b1/4b/2b2/b4/1b3 w r 0/0 - 0 103", Ruleset.make("standard", 5, ["blocked=capture-one"]))
    assert ref.spn() == pos.spn()


def test_seejeh_preset_uses_capture_one() -> None:
    pos = position(spn(black="c3 a1", white="a2 b1 b3 d3 c2 c4 e5"), "seejeh")
    assert pos.phase == "r"
    assert pos.side == WHITE
    assert legal(pos) == ["xa1", "xc3"]


def test_lose_a_blocked_player_loses() -> None:
    pos = position(WALLED, options=["blocked=lose"])
    assert pos.outcome() == Outcome(WHITE, "blocked")
    assert pos.legal_actions() == []
    assert position(WALLED, "aljaafreh").outcome() == Outcome(WHITE, "blocked")


# aljaafreh (first_mover=black, blocked=lose) just after placement: Black's only step is
# b3-c3; it captures nothing and leaves White blocked, so Black must remove next to b3.
FIRST = "bbwwb/bbwww/bb1ww/bbwww/bbwwb b m 0/0 - 0 13"
AFTER_FIRST = "bbwwb/bbwww/b1bww/bbwww/bbwwb b r 0/0 b3 1 14"


def test_lose_exception_right_after_the_first_step() -> None:
    pos = position(FIRST, "aljaafreh")
    assert legal(pos) == ["b3-c3"]
    play(pos, "b3-c3")
    assert pos.spn() == AFTER_FIRST
    assert legal(pos) == ["xa3", "xb2", "xb4", "xc3"]  # the centre piece included
    play(pos, "xc3")
    assert pos.spn() == "bbwwb/bbwww/b2ww/bbwww/bbwwb w m 0/0 - 0 15"
    assert legal(pos) == ["c2-c3", "c4-c3", "d3-c3"]


def test_lose_exception_read_from_spn() -> None:
    pos = position(AFTER_FIRST, "aljaafreh")
    assert legal(pos) == ["xa3", "xb2", "xb4", "xc3"]


def test_lose_exception_then_still_blocked_loses() -> None:
    pos = play(position(FIRST, "aljaafreh"), "b3-c3", "xa3")
    assert pos.outcome() == Outcome(BLACK, "blocked")
    assert pos.spn() == "bbwwb/bbwww/2bww/bbwww/bbwwb w m 0/0 - 0 15"


def test_a_first_mover_blocked_at_its_very_first_turn_loses() -> None:
    pos = position("bbwwb/bbwww/bw1ww/bbwww/bbbwb b m 0/0 - 0 13", "aljaafreh")
    assert pos.outcome() == Outcome(WHITE, "blocked")


def test_under_pass_the_same_first_position_just_passes() -> None:
    pos = play(position(FIRST, options=["first_mover=black"]), "b3-c3")
    assert pos.spn() == "bbwwb/bbwww/b1bww/bbwww/bbwwb w m 0/0 - 1 14"
    assert legal(pos) == ["pass"]


# Black's first turn is a six-action chain whose first piece goes d3-c3 and back to d3:
# White is then blocked and no black piece stands next to d3, the cell the first piece left.
NO_QUALIFY = "bbwww/bbbww/ww1bw/bwwwb/bwbbb b m 0/0 - 0 13"
NO_QUALIFY_GAME = ["d3-c3", "c3-d3", "c1-c2", "c2-c1", "a2-b2", "a1-a2"]


def test_lose_exception_with_no_piece_to_remove_the_blocked_player_passes() -> None:
    pos = play(position(NO_QUALIFY, "aljaafreh"), *NO_QUALIFY_GAME)
    assert pos.outcome() is None
    assert (pos.side, pos.phase, pos.turn) == (WHITE, "m", 14)
    assert legal(pos) == ["pass"]
    ref = RefGame.from_spn(NO_QUALIFY, Ruleset.make("aljaafreh", 5))
    for action in NO_QUALIFY_GAME:
        ref.apply(action)
    assert (ref.spn(), ref.legal()) == (pos.spn(), ["pass"])


# Black's only piece a1 steps to a2 and back (max_shuttles=1 then forbids a1-a2), White's
# a3-a2 walls it in: removing a2 leaves Black blocked by the shuttle limit alone.
SHUTTLE_WALL = spn(black="a1", white="b1 a3 e5")
SHUTTLE_WALL_GAME = ["a1-a2", "e5-e4", "a2-a1", "a3-a2"]


def test_remove_by_opponent_applies_again_while_the_player_is_still_blocked() -> None:
    pos = play(position(SHUTTLE_WALL, "lane", ["max_shuttles=1"]), *SHUTTLE_WALL_GAME)
    assert (pos.side, pos.phase, pos.turn) == (WHITE, "r", 34)
    assert legal(pos) == ["xa2", "xb1"]
    play(pos, "xa2")
    assert pos.spn() == spn(black="a1", white="b1 e4", side="w", phase="r", clock=0, turn=35)
    assert legal(pos) == ["xb1"]
    play(pos, "xb1")
    assert pos.spn() == spn(black="a1", white="e4", side="b", clock=0, turn=36)
    assert legal(pos) == ["a1-b1"]


def test_remove_by_blocked_applies_again_in_the_same_turn() -> None:
    pos = play(position(SHUTTLE_WALL, "fouze", ["max_shuttles=1"]), *SHUTTLE_WALL_GAME)
    assert (pos.side, pos.phase, pos.turn) == (BLACK, "r", 34)
    play(pos, "xa2")
    assert pos.spn() == spn(black="a1", white="b1 e4", phase="r", clock=0, turn=34)
    play(pos, "xb1")
    assert legal(pos) == ["a1-b1"]
    play(pos, "a1-b1")
    assert pos.spn() == spn(black="b1", white="e4", side="w", clock=0, turn=35)
