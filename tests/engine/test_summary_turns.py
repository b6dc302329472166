"""Turn summaries for pictures and messages: what each action took, whole turns, shuttle holds."""

from __future__ import annotations

from engine import Position, Ruleset
from engine.summary import last_turn, shuttle_holds, summarize_turn

LAST_PAIR = "wbbbw/w1bwb/bb1ww/wbbbb/wbw1w w p 0/2 - 0 24"
REPLY = ("d1", "b4", "d3-c3", "c3-c2", "c2-b2")


def _names(pos: Position, cells: tuple[int, ...]) -> list[str]:
    return [pos.geo.names[c] for c in cells]


def test_each_action_says_what_it_took_in_order() -> None:
    before = Position.from_spn(LAST_PAIR)
    pos = before.copy()
    played = [pos.play(a) for a in REPLY]
    summary = summarize_turn(before, played)
    assert [_names(before, t) for t in summary.took] == [[], [], ["c2"], ["b2"], ["b3"]]
    assert summary.turn == 24
    assert _names(before, tuple(c for c, _ in summary.captured)) == ["c2", "b2", "b3"]


def test_last_turn_goes_back_to_the_start_of_a_chain() -> None:
    pos = Position.from_spn(LAST_PAIR)
    for a in REPLY[:4]:
        pos.play(a)
    start, actions = last_turn(pos)
    assert [str(a) for a in actions] == ["d3-c3", "c3-c2"]  # mid-chain: the turn so far
    assert start.turn == 25 and start.state < 0
    pos.play("c2-b2")
    start, actions = last_turn(pos)
    assert [str(a) for a in actions] == ["d3-c3", "c3-c2", "c2-b2"]  # the chain, whole
    assert len(summarize_turn(start, actions).captured) == 3  # the picture marks every capture
    pos.play("d2-d3")
    start, actions = last_turn(pos)
    assert [str(a) for a in actions] == ["d2-d3"] and start.side == 1 - pos.side


def test_last_turn_of_a_fresh_position_is_empty() -> None:
    pos = Position.from_spn(LAST_PAIR)
    start, actions = last_turn(pos)
    assert actions == [] and start.spn() == pos.spn()


SHUTTLE = "bb3/3bb/2bww/3ww/2bww w m 0/0 - 0 30"
SHUTTLE_PLAY = ("d2-c2", "a5-a4", "c2-d2", "b5-b4", "d2-c2", "a4-a3", "c2-d2", "b4-b3")


def test_shuttle_holds_name_the_piece_and_the_cell() -> None:
    pos = Position.from_spn(SHUTTLE)
    for a in SHUTTLE_PLAY[:-2]:
        pos.play(a)
    assert shuttle_holds(pos) == ()  # two returns so far: still allowed
    for a in SHUTTLE_PLAY[-2:]:
        pos.play(a)
    assert [(pos.geo.names[a], pos.geo.names[t]) for a, t in shuttle_holds(pos)] == [("d2", "c2")]
    assert [str(a) for a in pos.legal_actions()] == ["pass"]


def test_no_holds_without_the_limit() -> None:
    pos = Position.from_spn(SHUTTLE, Ruleset.make("standard", 5, ["max_shuttles=0"]))
    for a in SHUTTLE_PLAY:
        pos.play(a)
    assert shuttle_holds(pos) == ()
    assert "d2-c2" in [str(a) for a in pos.legal_actions()]


def test_shuttle_holds_of_one_side() -> None:
    """A picture for the side to move marks only its own holds (play-test pt40)."""
    pos = Position.from_spn("w8/9/9/9/9/9/9/9/8b b m 0/0 - 0 100", Ruleset.make("standard", 9))
    for move in ("i1-i2", "a9-a8", "i2-i3", "a8-a9", "i3-i4", "a9-a8", "i4-i5", "a8-a9"):
        pos.play(move)
    held = ((pos.geo.names.index("a9"), pos.geo.names.index("a8")),)
    assert pos.side == 0
    assert shuttle_holds(pos) == held
    assert shuttle_holds(pos, 1) == held
    assert shuttle_holds(pos, 0) == ()
