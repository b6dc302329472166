"""The coach's hints in a stuck game: break the deadlock, as the bot does (``engine/coach/hints.py``)."""

from __future__ import annotations

from engine import Position, Ruleset
from engine.ai.analysis import analyse
from engine.coach.hints import HINT_NODES, advise

LUDII = Ruleset.make("ludii", 5)
#: Black to move, ten pieces each, White walled in, 383 turns without a capture: from
#: the shuffle that followed the Black draw against Ludii Alpha-Beta when it was played
#: on without the stuck-game capture. The hint's search alone suggests the waiting b3-b4.
SHUFFLE = "wbwww/b1bww/1b1bb/1bbww/1bwbw b m 0/0 - {clock} 403"


def test_a_stuck_game_is_hinted_the_capture_that_cannot_be_stopped() -> None:
    stuck = Position.from_spn(SHUFFLE.format(clock=383), LUDII)
    assert str(analyse(stuck, max_nodes=HINT_NODES).best) == "b3-b4", "the search alone waits"
    advice = advise(stuck)
    assert advice.actions == ("a4-a3",)
    assert advice.reasons[0] == ("deadlock", (("turns", "383"), ("moves", "2")))
    assert ("steady", ()) not in advice.reasons
    assert 0.5 < advice.win_chance < 1
    assert stuck.spn() == SHUFFLE.format(clock=383)


def test_the_same_board_with_a_recent_capture_gets_the_searchs_hint() -> None:
    fresh = Position.from_spn(SHUFFLE.format(clock=3), LUDII)
    advice = advise(fresh)
    assert advice.actions == ("b3-b4",)
    assert all(key != "deadlock" for key, _params in advice.reasons)


def test_the_deadlock_reason_is_worded_in_both_languages() -> None:
    from bot.texts import text

    en = text("en", "coach.reason.deadlock", turns="383", moves="2")
    assert en.startswith("breaks the deadlock after 383 turns without a capture") and "within 2 of your moves" in en
    assert ":" not in en, "the hint's line already has 'play a4-a3:'"
    assert "383" in text("ar", "coach.reason.deadlock", turns="383", moves="2")


def test_a_placement_on_the_edge_says_why() -> None:
    """Newcomer play-test: on turn 3 the hint placed b1 and d1 with only "keeps your
    pieces safe and mobile", while lesson 1 teaches the cells next to the centre."""
    from bot.texts import text

    pos = Position(Ruleset.make("standard", 5))
    for action in ["a1", "b2", "a3", "c4"]:
        pos.play(action)
    advice = advise(pos)
    assert advice.actions == ("b1", "d1")
    assert advice.reasons[0] == ("edge", (("cells", "b1 d1"),))
    assert "b1 d1 on the edge" in text("en", "coach.reason.edge", cells="b1 d1")
    assert "b1 d1" in text("ar", "coach.reason.edge", cells="b1 d1")


def test_the_edge_reason_is_only_given_where_pieces_are_captured() -> None:
    """With ``captures=false`` (``modern-3x3``'s option) "capturable only along the edge"
    would mislead."""
    from engine.actions import Action
    from engine.ai.analysis import Analysis
    from engine.coach.hints import reasons_for

    for options, said in ((["captures=false"], False), ([], True)):
        pos = Position(Ruleset.make("standard", 5, options))
        analysis = Analysis(pos.side, 0, 0.5, (Action.parse("b1"), Action.parse("d1")))
        assert any(key == "edge" for key, _ in reasons_for(pos, analysis)) == said, options
