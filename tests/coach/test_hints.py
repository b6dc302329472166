"""The coach's hints in a stuck game: break the deadlock, as the bot does (``engine/coach/hints.py``)."""

from __future__ import annotations

import pytest

from engine import Position, Ruleset
from engine.ai.analysis import analyse
from engine.coach.hints import HINT_NODES, advise, forced_turn

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


def test_a_key_moment_says_what_the_turn_allowed_and_what_the_better_one_does() -> None:
    """The review's "played c2-b2, better c2-c3" with reasons read off the board: the
    reply it allowed, the captures the better turn makes; a reply that wins is named."""
    from engine.actions import Action
    from engine.coach.hints import moment_reasons

    rules = Ruleset.make("standard", 5)
    pos = Position.from_spn("w3b/5/wb1bw/2w2/b3b w m 0/0 - 0 30", rules)
    played, best = [Action.parse("c2-b2")], [Action.parse("c2-c3")]
    why = moment_reasons(pos, played, best, [Action.parse("a1-b1")])
    assert why == (
        (("allows_capture", (("n", "1"), ("cells", "b2"), ("reply", "a1-b1"))),),
        (("captures", (("n", "2"), ("cells", "b3 d3"))), ("centre", ())),
    )
    assert moment_reasons(pos, played, best, [Action.parse("b3-c3")])[0] == ()  # a reply that takes nothing
    assert moment_reasons(pos, played, best, [])[0] == ()  # the last turn: no reply known
    assert moment_reasons(pos, played, best, [Action.parse("e5-e4")])[0] == ()  # takes nothing
    assert pos.spn() == "w3b/5/wb1bw/2w2/b3b w m 0/0 - 0 30"  # left as it was
    # A reply that does not fit the position (a stored review read under other rules): nothing said.
    assert moment_reasons(pos, played, best, [Action.parse("a5-a4")])[0] == ()
    # c1 is empty: played unchecked, "c1-b1" made a black piece appear on b1 and take b2.
    assert moment_reasons(pos, played, best, [Action.parse("c1-b1")])[0] == ()
    # The last white piece left where Black's reply takes it: "lets Black win".
    last = Position.from_spn("5/5/5/bw3/2b2 w m 0/0 - 0 30", rules)
    won = moment_reasons(last, [Action.parse("b2-b1")], [Action.parse("b2-b3")], [Action.parse("a2-a1")])
    assert won[0] == (("allows_win", (("reply", "a2-a1"),)),)


def test_a_forced_turn_is_one_legal_action_that_ends_the_turn() -> None:
    """What the hint answers without a search (and the bot does not count)."""
    rules = Ruleset.make("standard", 5)
    only = Position.from_spn("3wb/4w/5/5/bw3 b m 0/0 - 0 30", rules)  # a1-a2 or nothing
    assert [str(a) for a in forced_turn(only) or ()] == ["a1-a2"]
    # One legal step that captures b2 and may capture again (a2-a3 takes a4): a choice follows.
    chain = Position.from_spn("bw3/w4/2w2/1wbw1/bww2 b m 0/0 - 0 30", rules)
    assert [str(a) for a in chain.legal_actions()] == ["a1-a2"] and forced_turn(chain) is None
    assert forced_turn(Position.from_spn("w3b/5/bw1wb/2b2/w3w b m 0/0 - 0 30", rules)) is None  # ten steps
    last = Position(rules)
    assert forced_turn(last) is None  # placement: any empty cell


def test_a_key_moment_names_the_whole_capture_the_turn_allowed() -> None:
    """Newcomer play-test (game 17, turn 28): after a2-b2 the bot played a1-a2, a2-a3,
    a3-b3 and took three pieces, while the review said "lets Seega bot capture a3 and b3
    with a1-a2 a2-a3 end": it named the engine's answer, a chain it stopped early. And
    (game 1, turn 29) after c3-d3 the bot took three pieces with a chain, while the
    engine's answer was a quiet step that wins by force: the moment gave no reason."""
    from engine.actions import Action
    from engine.coach.hints import moment_reasons

    def turn(text: str) -> list[Action]:
        return [Action.parse(a) for a in text.split()]

    rules = Ruleset.make("standard", 5)
    pos = Position.from_spn("bwwwb/wbwbw/bbwbb/b2wb/w1w1w b m 0/0 - 0 28", rules)
    played, best = turn("a2-b2"), turn("b3-b2")
    full = (("allows_capture", (("n", "3"), ("cells", "a3 b3 b4"), ("reply", "a1-a2 a2-a3 a3-b3"))),)
    # The engine's answer stopped early, and no turn played is known: followed to its end.
    assert moment_reasons(pos, played, best, turn("a1-a2 a2-a3 end"))[0] == full
    # The turn played took all three.
    assert moment_reasons(pos, played, best, turn("a1-a2 a2-a3 end"), turn("a1-a2 a2-a3 a3-b3"))[0] == full

    lost = Position.from_spn("b1b2/1b1b1/bww2/wwbbb/1b1bw w m 0/0 - 0 29", rules)
    played, best = turn("c3-d3"), turn("a2-a1")
    assert moment_reasons(lost, played, best, turn("e2-e3"))[0] == ()  # the quiet answer alone
    why = moment_reasons(lost, played, best, turn("e2-e3"), turn("b1-a1 a1-a2 a2-b2"))[0]
    assert why == (("allows_capture", (("n", "3"), ("cells", "a2 b2 b3"), ("reply", "b1-a1 a1-a2 a2-b2"))),)


def test_a_placement_names_only_the_capture_its_line_contains() -> None:
    """A placement's reply is a placement, which takes nothing; the review's search line
    after it (:attr:`TurnVerdict.line`) is read instead (game #1 of the Discord play-test,
    turn 9, d3 c4), and only for what it contains: a line that ends before any capture,
    or in which the mover takes first, gives no reason, and the moment keeps its fallback
    (the chances, and the better turn's kind of cell)."""
    from engine.actions import Action
    from engine.coach.hints import line_capture, moment_reasons

    def turn(text: str) -> list[Action]:
        return [Action.parse(a) for a in text.split()]

    rules = Ruleset.make("standard", 5)
    pos = Position(rules)
    for a in turn("a4 a5 d4 b1 d2 b3 c2 a2 e4 b2 c5 e3 a1 b5 e1 c1"):
        pos.play(a)
    played, best = turn("d3 c4"), turn("a3 d5")
    line = turn("d5 a3 e5 b4 e2 d1 c2-c3 c3-c2 b4-c4")
    edge = (("edge", (("cells", "a3 d5"),)),)
    capture = ("allows_capture_moves", (("n", "5"), ("cells", "b2 d2 b3 d3 c4"), ("reply", "c2-c3 c3-c2")))
    assert moment_reasons(pos, played, best, turn("d5 a3"), turn("d5 a3"), line) == ((capture,), edge)
    # The line cut short of the moves, or mid-chain: no more than it holds.
    assert moment_reasons(pos, played, best, turn("d5 a3"), (), line[:6]) == ((), edge)
    cut = ("allows_capture_moves", (("n", "3"), ("cells", "b3 d3 c4"), ("reply", "c2-c3")))
    assert moment_reasons(pos, played, best, turn("d5 a3"), (), line[:7])[0] == (cut,)
    assert moment_reasons(pos, played, best, turn("d5 a3"), (), ())[0] == ()  # no line stored
    assert moment_reasons(pos, played, best, turn("d5 a3"), (), turn("d5 a3 e5 b4 e2 d1 c3-c2"))[0] == ()  # unfit

    # White to act; c1 can be taken by Black's e1-d1, b3 and d3 by White's c2-c3.
    moves = Position.from_spn("w3b/5/wb1bw/2w2/bbw1b w m 0/0 - 0 30", rules)
    later = ("a5-a4 a1-a2", "c2-c3")
    assert line_capture(moves, turn(" ".join(later))) == (
        "allows_capture_moves_after",
        (("n", "2"), ("cells", "b3 d3"), ("reply", "c2-c3"), ("moves", "a5-a4 a1-a2")),
    )
    assert line_capture(moves, turn("a5-a4 e1-d1 c2-c3")) is None  # the other side takes first
    assert line_capture(moves, turn("a5-a4 a1-a2")) is None  # nothing taken within the line


def test_a_capture_of_many_names_every_piece() -> None:
    """ "captures 5 (b2 d2 b3 d3)": the cells were cut at four, so the count and the list
    disagreed (the review's placement reason, stop 37, names all five of the same chain)."""
    from engine.actions import Action
    from engine.coach.hints import turn_reasons

    pos = Position(Ruleset.make("standard", 5))
    for a in [
        "a4",
        "a5",
        "d4",
        "b1",
        "d2",
        "b3",
        "c2",
        "a2",
        "e4",
        "b2",
        "c5",
        "e3",
        "a1",
        "b5",
        "e1",
        "c1",
        "d3",
        "c4",
        "d5",
        "a3",
        "e5",
        "b4",
        "e2",
        "d1",
    ]:
        pos.play(Action.parse(a))
    chain = [Action.parse(a) for a in ("c2-c3", "c3-c2")]
    assert ("captures", (("n", "5"), ("cells", "b2 d2 b3 d3 c4"))) in turn_reasons(pos, chain)


#: Game #3 of the play-test (/work/play/big/seega.db), seejeh 5x5: Player 1 (Black)
#: against Seega bot (easy), White resigned after turn 27.
SEEJEH_GAME = (
    "a1 a2 c2 c4 d3 e3 b3 e5 d2 d4 e1 b1 e2 e4 d1 c1 d5 c5 a5 a4 b4 b5 a3 b2 c4-c3 d4-c4 xe5 xc3 "
    "c2-c3 d2-c2 c2-b2 c1-c2 e2-d2 e1-e2 b2-c2 d1-c1 c1-c2 d3-d2 b1-c1 a2-b2 c1-c2 a3-a2"
)


def _before_turn(rules: Ruleset, actions: str, number: int) -> Position:
    """The position at the start of turn ``number`` of the game ``actions``."""
    pos = Position(rules)
    for action in actions.split():
        if pos.turn == number:
            break
        pos.play(action)
    assert pos.turn == number
    return pos


def test_the_reasons_of_a_seejeh_review_hold_under_its_removal_rules() -> None:
    """Play-test, game #3 (seejeh): the review said "better a3, a5 (takes the corner a5,
    which can never be captured)", but a walled-in player's opponent may remove any piece
    there, corners included; and of turn 13 "played c4-c3, better b3-c3 (saves c4; takes
    the centre)": c4 was never in danger (every White step fills the centre, so none
    leaves c4 to be taken), and what c4-c3 cost was d4-c4 walling White in, after which
    Black removed e5 and c3 under the capture-one rule."""
    from engine.actions import Action
    from engine.coach.hints import moment_reasons, turn_reasons

    def turn(text: str) -> list[Action]:
        return [Action.parse(a) for a in text.split()]

    rules = Ruleset.make("seejeh", 5)
    nine = _before_turn(rules, SEEJEH_GAME, 9)
    assert turn_reasons(nine, turn("a3 a5")) == (("corner_flank", (("cells", "a5"),)),)

    thirteen = _before_turn(rules, SEEJEH_GAME, 13)
    played, best = turn("c4-c3"), turn("b3-c3")
    # The review's verdicts: the engine's answer and the turn Black played were both d4-c4.
    played_why, best_why = moment_reasons(thirteen, played, best, turn("d4-c4"), turn("d4-c4"))
    assert played_why == (("allows_wall", (("reply", "d4-c4"),)),)
    assert best_why == (("centre", ()),), "c4 was never threatened: no 'saves c4'"
    # d4-c4 itself: it walls White in (b4 was in danger, but every Black step covered it).
    fourteen = _before_turn(rules, SEEJEH_GAME, 14)
    assert turn_reasons(fourteen, turn("d4-c4")) == (("walls", ()),)
    # The removals that followed: removed, not captured by a step.
    fifteen = _before_turn(rules, SEEJEH_GAME, 15)
    assert turn_reasons(fifteen, turn("xe5")) == (("removes", (("n", "1"), ("cells", "e5"))),)


def test_a_corner_or_edge_is_called_uncapturable_only_where_no_rule_takes_it() -> None:
    """Flanking never takes a corner; the removal rules that let a player take a piece
    (capture-one: any piece; remove-by-blocked: one next to the blocked player's own)
    can, so there the reason says only what flanking cannot do. Where the opponent never
    removes anything (pass, remove-by-opponent, lose) it is unchanged. Five-in-a-row has
    no moves: no kind-of-cell reason there."""
    from engine.actions import Action
    from engine.coach.hints import turn_reasons

    def turn(text: str) -> list[Action]:
        return [Action.parse(a) for a in text.split()]

    for variant, options, flank in (
        ("standard", [], ""),
        ("lane", [], ""),
        ("aljaafreh", [], ""),
        ("seejeh", [], "_flank"),
        ("fouze", [], "_flank"),
        ("standard", ["blocked=capture-one"], "_flank"),
        ("standard", ["blocked=remove-by-blocked"], "_flank"),
    ):
        pos = Position(Ruleset.make(variant, 5, options))
        if variant == "lane":
            for a in turn("a3 e3 c1 c5"):  # Lane's fixed first turns
                pos.play(a)
        said = (variant, options)
        assert turn_reasons(pos, turn("a1 b1")) == (("corner" + flank, (("cells", "a1"),)),), said
        assert turn_reasons(pos, turn("b1 d1")) == (("edge" + flank, (("cells", "b1 d1"),)),), said
    assert turn_reasons(Position(Ruleset.make("five-in-a-row", 5)), turn("a1 b1")) == ()


def test_the_removal_reasons_are_worded_in_both_languages() -> None:
    from bot.texts import text

    for locale in ("en", "ar"):
        for key, params in (
            ("coach.reason.corner_flank", {"cells": "a5"}),
            ("coach.reason.edge_flank", {"cells": "b1 d1"}),
            ("coach.reason.walls", {}),
            ("coach.reason.removes", {"cells": "e5"}),
            ("coach.review.allows_wall", {"player": "Bob", "reply": "d4-c4"}),
            ("coach.review.allows_wall_you", {"reply": "d4-c4"}),
        ):
            said = text(locale, key, **params)
            assert said != key and all(v in said for v in params.values()), (locale, key)
    assert "can never be captured" not in text("en", "coach.reason.corner_flank", cells="a5")
    assert "flanking" in text("en", "coach.reason.corner_flank", cells="a5")


def test_saves_tries_a_bounded_number_of_other_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "saves" looked at every legal turn, each with a search of what the reply takes: on
    a 9x9 board with well over a hundred turns one reason took 0.3 s, for every hint and
    review moment (attacker review, stop 37). At most MAX_OTHER_TURNS are tried."""
    import re

    from engine.coach import hints

    rows = []
    for r in range(9):  # a sparse board: pieces on every other diagonal, the rest empty
        row = "".join("b" if (r + c) % 4 == 0 else "w" if (r + c) % 4 == 2 else "." for c in range(9))
        rows.append(row if r != 4 else row[:4] + "." + row[5:])
    spn = "/".join(re.sub(r"\.+", lambda m: str(len(m.group())), row) for row in rows) + " b m 0/0 - 0 80"
    pos = Position.from_spn(spn, Ruleset.make("seejeh", 9))
    assert len(pos.legal_codes()) > 48
    calls = 0
    real = hints.takeable

    def counted(p: Position, attacker: int) -> int:
        nonlocal calls
        calls += 1
        return real(p, attacker)

    monkeypatch.setattr(hints, "takeable", counted)
    hints._left_by_another_turn(pos, pos.bb[pos.side])
    assert 0 < calls <= 48  # MAX_OTHER_TURNS
