"""Rules texts and end-of-game sentences: generated from the ruleset, in both languages."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from bot.explain import Line, say, word
from bot.explain.endings import end_line
from bot.explain.passes import forced_passes
from bot.explain.refusals import same_cells_refusal, step_refusal
from bot.explain.removals import SHOWN_CELLS, removal_line, removal_reason
from bot.explain.rules import rules_lines
from bot.explain.turns import moves_text, recent_turns, turn_lines
from engine import Outcome, Position, Ruleset
from engine.outcome import REASONS
from engine.rules import PRESETS

LOCALES = Path(__file__).resolve().parents[2] / "bot" / "locale"
BOT_SIZES = (5, 7, 9)
LAST_PAIR = "wbbbw/w1bwb/bb1ww/wbbbb/wbw1w w p 0/2 - 0 24"


def _messages(lang: str) -> dict[str, str]:
    data: dict[str, dict[str, str]] = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    return data["messages"]


def _offered(variant: str) -> tuple[int, ...]:
    sizes = PRESETS[variant][0]
    return tuple(s for s in sizes if s in BOT_SIZES) or sizes


def _keys(lines: list[Line]) -> list[str]:
    out = []
    for key, params in lines:
        out.append(key)
        out.extend(v[0] for v in params.values() if isinstance(v, tuple))
    return out


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_explain_key_is_in_both_languages_with_the_same_placeholders() -> None:
    en, ar = _messages("en"), _messages("ar")
    mine = [k for k in en if k.startswith("explain.") and "#" not in k]
    assert mine == [k for k in ar if k.startswith("explain.") and "#" not in k]
    for key in mine:
        assert _placeholders(en[key]) == _placeholders(ar[key]), key
        words = re.sub(r"\{\w+\}", "", en[key])
        if re.search("[A-Za-z]", words):  # a template with words (not just "{src}→{dst}")
            assert re.search("[\u0600-\u06ff]", ar[key]), f"{key} is not in Arabic"


@pytest.mark.parametrize("variant", list(PRESETS))
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_each_preset_rules_text_is_complete(variant: str, lang: str) -> None:
    sizes = _offered(variant)
    lines = rules_lines(Ruleset.make(variant, sizes[0]), sizes)
    messages = _messages(lang)
    for key in _keys(lines):
        assert key in messages, key
    text = say(lang, lines)
    assert "{" not in text and "(s)" not in text and "explain." not in text
    assert "0 piece" not in text


def _english(variant: str) -> tuple[list[str], str]:
    sizes = _offered(variant)
    lines = rules_lines(Ruleset.make(variant, sizes[0]), sizes)
    return _keys(lines), say("en", lines)


def test_the_capture_rule_says_the_pieces_touch_and_placement_never_captures() -> None:
    """Fresh-eyes play-test (stop 35): a newcomer's d5 sat between two white pieces during
    placement and nothing happened, and "caught in a line between" did not say how close
    the pieces must be (RULES.md: no captures during placement; the pieces are adjacent)."""
    _, text = _english("standard")
    assert "right beside it on both sides, is captured. Placing never captures: only steps do." in text


def test_five_in_a_row_has_no_movement_and_is_5x5_only() -> None:
    keys, text = _english("five-in-a-row")
    movement = ("step", "capture", "chain", "shuttle", "blocked", "first_", "move_limit")
    assert not [k for k in keys if any(m in k for m in movement)]
    assert "explain.rules.no_movement" in keys
    assert "5×5" in text and "7×7" not in text and "9×9" not in text
    assert "end-turn" not in text and "/move" not in text


def test_modern_3x3_is_described_on_its_own_board_only() -> None:
    _, text = _english("modern-3x3")
    assert "3×3" in text and "5×5" not in text and "7×7" not in text
    assert "into the centre" not in text  # its centre may be filled during placement
    assert "captured" not in text and "chain" not in text  # no captures in this variant


@pytest.mark.parametrize("variant", [v for v in PRESETS if v not in ("five-in-a-row", "modern-3x3")])
def test_end_turn_is_offered_for_a_chain_only_where_chains_exist(variant: str) -> None:
    """A newcomer reading the ludii rules was told "One step per turn, even after a
    capture" and then that /seega end-turn ends a chain: a chain that cannot happen."""
    sizes = _offered(variant)
    rules = Ruleset.make(variant, sizes[0])
    for lang in ("en", "ar"):
        text = say(lang, rules_lines(rules, sizes))
        assert ("end-turn" in text) == (rules.chain != "none"), (variant, lang)
    plain = say("en", rules_lines(Ruleset.make("standard", 5, ["chain=none"]), (5,)))
    assert "/place and /move" in plain and "end-turn" not in plain


#: A removal due under each blocked rule that asks for one (random games of each preset).
REMOVALS = [
    ("seejeh", "bwwbb/ww1ww/w1w1w/wwbwb/bbbbb w r 0/0 - 0 14", "capture-one"),
    ("fouze", "w1www/3w1/4w/4w/1w1wb b r 0/0 - 36 258", "remove-by-blocked"),
    ("lane", "w2wb/5/www2/5/5 w r 0/0 - 22 243", "remove-by-opponent"),
    ("aljaafreh", "wwwbw/wbwbb/wbb1b/bb1bw/wbbww b r 0/0 c2 0 14", "lose"),
    ("seejeh", "www1wbb/bw1wbbw/www1wwb/bbbwbbw/bwwwwwb/bwwbwbb/bwbbbbw w r 0/0 - 0 28", "capture-one"),
]


@pytest.mark.parametrize(("variant", "spn", "rule"), REMOVALS)
def test_a_removal_says_why_and_offers_exactly_the_legal_cells(variant: str, spn: str, rule: str) -> None:
    pos = Position.from_spn(spn, Ruleset.make(variant, spn.split()[0].count("/") + 1))
    assert pos.phase == "r" and pos.rules.blocked == rule
    line = removal_line(pos)
    assert line is not None and line[0] == f"explain.removal.{rule}"
    legal = sorted(str(a)[1:] for a in pos.legal_actions())
    english = word("en", line)
    offered = re.findall(r"\b[a-g][1-7]\b", english.split("/remove")[1])
    assert offered == legal[:SHOWN_CELLS]
    # a long list is cut as every list of cells is, not with a bare "…" (newcomer play-test, lane)
    assert "…" not in english
    assert english.endswith(f" and {len(legal) - SHOWN_CELLS} more") == (len(legal) > SHOWN_CELLS)
    assert ("/remove one of" in english) == (len(legal) > 1)
    if rule != "remove-by-blocked":  # the other side is the blocked one, named by colour
        assert english.startswith("White" if pos.side == 0 else "Black")
    arabic = word("ar", line)
    assert "{" not in arabic and re.search("[\u0600-\u06ff]", arabic) and legal[0] in arabic


@pytest.mark.parametrize(("variant", "spn", "rule"), REMOVALS)
def test_a_refused_removal_says_why_and_which_cells_may_go(variant: str, spn: str, rule: str) -> None:
    """Newcomer play-test (aljaafreh, where the first mover removes one of its own):
    "remove c2" of an enemy piece answered "c2 cannot be removed", with no reason. It
    says what the cell holds, then the rule's line: whose pieces, and the cells."""
    from bot import texts
    from bot.results import IllegalMoveError
    from bot.service.commands import play_remove

    pos = Position.from_spn(spn, Ruleset.make(variant, spn.split()[0].count("/") + 1))
    legal = sorted(str(a)[1:] for a in pos.legal_actions())
    line = removal_line(pos)
    assert line is not None
    reason = word("en", line).split(": /remove")[0]
    for holder, what in ((pos.side, "it is one of your pieces"), (1 - pos.side, "it is an enemy piece"), (None, "")):
        refused = [n for i, n in enumerate(pos.geo.names) if n not in legal and pos.piece_at(i) == holder]
        if holder is None:  # an empty cell; the centre of a full board may be the only one
            what = "it is empty"
        if not refused:
            continue
        with pytest.raises(IllegalMoveError) as info:
            play_remove(pos.copy(), refused[0])
        message = str(info.value)
        assert message.startswith(f"{refused[0]} cannot be removed ({what}): {reason}: /remove"), message
        offered = re.findall(r"\b[a-g][1-7]\b", message.split("/remove")[1])
        assert offered == legal[:SHOWN_CELLS] and message.endswith(
            f" and {len(legal) - SHOWN_CELLS} more." if len(legal) > SHOWN_CELLS else f"{legal[-1]}."
        ), message
        arabic = texts.text("ar", f"service.{info.value.key}", **info.value.params)
        assert "{" not in arabic and refused[0] in arabic and "لا يمكن إزالة" in arabic, arabic


@pytest.mark.parametrize(("variant", "spn", "rule"), REMOVALS)
def test_a_played_removal_says_why_it_happened(variant: str, spn: str, rule: str) -> None:
    """Play-test finding (fouze): the bot's turn read "removed d1" and nothing said why a
    piece had gone. The turn now names the side that could not step."""
    pos = Position.from_spn(spn, Ruleset.make(variant, spn.split()[0].count("/") + 1))
    removal = pos.legal_actions()[0]
    line = removal_reason(pos, [removal])
    assert line is not None and line[0] == f"explain.removed_why.{rule}"
    # the side that cannot step: the remover itself only under remove-by-blocked
    blocked = pos.side if rule == "remove-by-blocked" else 1 - pos.side
    english = word("en", line)
    assert english.startswith(("Black", "White")[blocked] + " could not step"), english
    # who removes, and whose piece goes: "Black gives up one of its own pieces" (lane
    # play-test: "a piece next to it is taken away" left that open)
    remover = ("Black", "White")[pos.side]
    expected = {
        "capture-one": f"so {remover} takes one of its pieces",
        "remove-by-opponent": f"so {remover} gives up one of its own pieces next to it",
        "lose": f"so {remover} gives up one of its own pieces next to it",
        "remove-by-blocked": "so it takes an enemy piece next to one of its own",
    }
    assert expected[rule] in english, english
    arabic = word("ar", line)
    assert "{" not in arabic and ("الأسود", "الأبيض")[blocked] in arabic
    # a turn without a removal, or not in a removal phase, has no such remark
    assert removal_reason(pos, []) is None
    assert removal_reason(Position(Ruleset.make(variant, 5)), [removal]) is None


def test_a_removal_forced_by_the_shuttle_limit_names_the_step_it_forbids() -> None:
    """Play-test finding (fouze): "White could not step" beside an empty a2 read as a bug;
    the shuttle limit had forbidden a1-a2. The prompt and the played turn both name it."""
    pos = Position.from_spn("2b1b/5/b3b/5/wb3 w m 0/0 - 0 40", Ruleset.make("fouze", 5))
    for step in ("a1-a2", "e5-e4", "a2-a1", "c5-d5", "a1-a2", "e4-e5", "a2-a1", "d5-c5"):
        pos.play(step)
    assert pos.phase == "r" and [str(a) for a in pos.legal_actions()] == ["xb1"]
    prompt = removal_line(pos)
    assert prompt is not None
    assert word("en", prompt).endswith("/remove b1 (the shuttle limit forbids a1→a2)")
    reason = removal_reason(pos, pos.legal_actions())
    assert reason is not None
    assert word("en", reason) == (
        "White could not step, so it takes an enemy piece next to one of its own, then steps "
        "(the shuttle limit forbade a1→a2)"
    )
    assert "حد الذهاب والإياب" in word("ar", reason) and "a1→a2" in word("ar", reason)
    # walled in by pieces alone: no shuttle remark
    walled = Position.from_spn(REMOVALS[1][1], Ruleset.make("fouze", 5))
    plain = removal_reason(walled, walled.legal_actions()[:1])
    assert plain is not None and "shuttle" not in word("en", plain)


def test_no_removal_line_when_none_is_due() -> None:
    assert removal_line(Position(Ruleset.make("seejeh", 5))) is None
    done = Position.from_spn(REMOVALS[0][1], Ruleset.make("seejeh", 5))
    done.play("xa1")
    assert done.phase == "m" and removal_line(done) is None


def test_the_numbers_follow_the_ruleset() -> None:
    _, standard = _english("standard")
    assert "12 (5×5), 24 (7×7), 40 (9×9)" in standard
    assert "Capture every enemy piece to win." in standard
    assert "After 100 turns in a row without a capture" in standard
    _, seejeh = _english("seejeh")
    assert "A player reduced to a single piece loses." in seejeh
    assert "captured whole" in seejeh
    _, aljaafreh = _english("aljaafreh")
    # "loses (right after the first step, the first mover removes a piece instead)" did
    # not say who is spared, whose piece goes or which (console play-test)
    assert "a second mover walled in at its first movement turn does not lose; the first mover removes" in aljaafreh
    _, ludii = _english("ludii")
    assert "shuttle" not in ludii and "The centre gives no protection." in ludii
    assert "After 2500 turns in all the game is a draw." in ludii
    custom = rules_lines(Ruleset.make("standard", 7, ["lose_at=3", "max_shuttles=3"]), (7,))
    text = say("en", custom)
    assert "reduced to 3 pieces or fewer" in text and "3 times in a row" in text


# -------------------------------------------------------------- the end of a game
NAMES = ("Seega bot (easy)", "Sam")


def _final() -> Position:
    pos = Position.from_spn("bbbb1/bbb2/b1b1w/bb1w1/ww3 b m 0/0 - 99 180")
    pos.play("c4-d4")
    return pos


def test_move_limit_says_the_rule_and_the_count_to_the_loser() -> None:
    pos = _final()
    outcome = pos.outcome()
    assert outcome == Outcome(0, "move-limit")
    assert word("en", end_line(outcome, pos, NAMES, you=1)) == (
        "Seega bot (easy) wins: 100 turns without a capture, 11 pieces to your 4."
    )
    assert word("en", end_line(outcome, pos, NAMES)) == (
        "Seega bot (easy) wins: 100 turns without a capture, and 11 pieces beat 4."
    )
    assert word("ar", end_line(outcome, pos, NAMES, you=1)) == (
        "فاز Seega bot (easy): 100 دور دون أسر، وقطعه 11 مقابل قطعك 4."
    )


@pytest.mark.parametrize("reason", [*REASONS, "cancelled"])
@pytest.mark.parametrize("winner", [0, 1, None])
@pytest.mark.parametrize("you", [None, 0, 1])
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_every_end_reason_is_a_sentence_in_both_languages(
    reason: str, winner: int | None, you: int | None, lang: str
) -> None:
    pos = _final()
    line = end_line(Outcome(winner, reason), pos, NAMES, you)
    messages = _messages(lang)
    for key in _keys([line]):
        assert key in messages, key
    text = word(lang, line)
    assert "{" not in text and "explain." not in text and reason not in text.split(":")[-1].split()
    assert text.endswith(".")
    if lang == "en" and winner is not None and reason in ("capture-all", "resignation", "timeout", "blocked"):
        loser = 1 - winner
        assert ("you" in text.lower()) if you == loser else (NAMES[loser] in text)
    if lang == "en" and you is not None and winner == you and reason != "cancelled":
        assert text.startswith("You win")


# -------------------------------------------------------------- forced passes
SHUTTLE = "bb3/3bb/2bww/3ww/2bww w m 0/0 - 0 30"
SHUTTLE_PLAY = ("d2-c2", "a5-a4", "c2-d2", "b5-b4", "d2-c2", "a4-a3", "c2-d2", "b4-b3")


def test_a_pass_that_is_the_only_action_is_played_with_its_reason() -> None:
    pos = Position.from_spn(SHUTTLE)
    for a in SHUTTLE_PLAY:
        pos.play(a)
    turn = pos.turn
    played = forced_passes(pos, ("Amira", "Omar"))
    assert [str(a) for a, _ in played] == ["pass"]
    assert pos.side == 0 and pos.turn == turn + 1  # Black's turn now
    (_, reason) = played[0]
    assert word("en", reason) == (
        "passes because d2 may not go back to c2 a third time (the shuttle limit) and no other piece can step"
    )
    assert "الثالثة" in word("ar", reason) and "{" not in word("ar", reason)


def test_no_forced_pass_when_there_is_a_choice() -> None:
    pos = Position.from_spn(SHUTTLE)
    assert forced_passes(pos, ("Amira", "Omar")) == []
    assert pos.spn() == Position.from_spn(SHUTTLE).spn()


def test_a_walled_in_player_passes_with_a_plain_reason() -> None:
    pos = Position.from_spn("bb3/3bb/2bww/2bww/2bww w m 0/0 - 0 30")  # white cannot step at all
    played = forced_passes(pos, ("Amira", "Omar"))
    assert len(played) == 1 and word("en", played[0][1]) == "is walled in (no piece can step) and passes"


# -------------------------------------------------------------- turn lines
def test_a_reply_spanning_two_turns_gets_one_numbered_line_each() -> None:
    before = Position.from_spn(LAST_PAIR)
    pos = before.copy()
    played = [pos.play(a) for a in ("d1", "b4", "d3-c3", "c3-c2", "c2-b2")]
    lines = turn_lines(before, played, ("Amira", "Seega bot (easy)"))
    assert say("en", lines).splitlines() == [
        "Turn 24 · Seega bot (easy): placed d1, b4",
        "Turn 25 · Seega bot (easy): d3→c3 took c2, c3→c2 took b2, c2→b2 took b3",
    ]
    assert say("ar", lines).splitlines()[0] == "الدور 24 · Seega bot (easy): وضع d1،\u200f b4"
    # each step's captures follow it, marked as the pictures mark them (fresh-eyes play-test)
    assert moves_text(before, played) == ["24. w d1 b4", "25. w d3-c3✕c2 c3-c2✕b2 c2-b2✕b3"]


def test_captures_come_before_the_end_of_the_turn() -> None:
    before = Position.from_spn("bb1ww/b3w/1b1w1/w1bw1/2bwb w m 0/0 - 0 40")
    pos = before.copy()
    played = [pos.play(a) for a in ("a2-b2", "end")]
    (line,) = turn_lines(before, played, ("Amira", "Omar"))
    assert word("en", line) == "Turn 40 · Omar: a2→b2 took c2, ended the turn"


# -------------------------------------------------------------- refusals
def _why(spn: str, src: str, dst: str, before: tuple[str, ...] = ()) -> str:
    pos = Position.from_spn(spn)
    for a in before:
        pos.play(a)
    names = pos.geo.names
    in_chain = any(a.kind == "end" for a in pos.legal_actions())
    assert f"{src}-{dst}" not in [str(a) for a in pos.legal_actions()]
    return word("en", step_refusal(pos, names.index(src), names.index(dst), in_chain))


def test_each_refused_step_says_why() -> None:
    full = "bwbwb/wbwbw/bw1wb/wbwbw/bwbwb w m 0/0 - 0 13"
    assert _why(full, "b4", "b3") == "b3 is occupied by one of your pieces"
    assert _why(full, "c4", "b4") == "b4 is occupied by an enemy piece"
    chain = "bb1ww/b3w/1b1w1/w1bw1/2bwb w m 0/0 - 0 40"
    assert _why(chain, "d4", "d2") == "d4 cannot step to d2: pieces step one cell, to a neighbour"
    assert _why(chain, "e4", "d5") == "e4 cannot step to d5: pieces step up, down, left or right, never diagonally"
    assert _why(chain, "b2", "a2", ("a2-b2",)) == "b2 to a2 captures nothing, and only a capture continues a chain"
    shuttle = "bb3/3bb/2bww/3ww/2bww w m 0/0 - 0 30"
    held = ("d2-c2", "a5-a4", "c2-d2", "b5-b4", "d2-c2", "a4-a3", "c2-d2", "b4-b3")
    assert _why(shuttle, "d2", "c2", held) == "d2 may not go back to c2 a third time: the shuttle limit"


def test_a_step_to_its_own_cell_says_what_a_step_is() -> None:
    """Play-test: /move from:b3 to:b3 answered "b3 is already there"."""
    full = "bwbwb/wbwbw/bw1wb/wbwbw/bwbwb w m 0/0 - 0 13"
    said = _why(full, "b3", "b3")
    assert "already there" not in said
    assert said == "b3 to b3 is not a step: a step goes from a piece's cell to an empty cell beside it"


def test_a_pair_of_the_same_cell_says_so() -> None:
    assert word("en", same_cells_refusal("a1")) == "the two cells must differ: a1 was given twice"


def test_recent_turns_walk_back_from_the_end() -> None:
    pos = Position.from_spn(LAST_PAIR)
    for a in ("d1", "b4", "d3-c3", "c3-c2", "c2-b2", "d2-d3"):
        pos.play(a)
    assert recent_turns(pos) == ["24. w d1 b4", "25. w d3-c3✕c2 c3-c2✕b2 c2-b2✕b3", "26. b d2-d3✕d4"]
    assert recent_turns(pos, 1) == ["26. b d2-d3✕d4"]
    assert recent_turns(Position.from_spn(LAST_PAIR)) == []


def test_a_side_reduced_to_one_piece_is_told_in_words_not_a_bare_number() -> None:
    """Play-test finding: a seejeh game ended "Seega bot (easy) is down to 1 and loses"."""
    one = Position.from_spn("bb3/5/5/5/4w b m 0/0 - 0 40", Ruleset.make("seejeh", 5))
    outcome = one.outcome()
    assert outcome == Outcome(0, "reduced")
    won = "Seega bot (easy) wins: "
    assert word("en", end_line(outcome, one, NAMES)) == won + "Sam is down to one piece and loses."
    assert word("en", end_line(outcome, one, NAMES, you=1)) == won + "you are down to one piece and lose."
    assert "قطعة واحدة" in word("ar", end_line(outcome, one, NAMES))
    two = Position.from_spn("bb3/5/5/5/3ww b m 0/0 - 0 40", Ruleset.make("standard", 5, ["lose_at=2"]))
    text = word("en", end_line(two.outcome(), two, NAMES))
    assert text == "Sam wins: Seega bot (easy) is down to 2 pieces and loses."


def test_the_lane_opening_line_names_the_opening_cells_in_both_languages() -> None:
    """The first lane turns name the cells the opening leaves (console play-test); the
    Arabic line keeps the command left to right, as every Arabic command does."""
    from bot.explain.openings import opening_line

    pos = Position(Ruleset.make("lane", 5))
    line = opening_line(pos)
    assert line is not None
    assert word("en", line) == "the lane opening puts your first pair on the middles of two edges: /place a3 e3"
    assert word("ar", line).endswith("\u200e/place a3 e3")
    pos.play("a3")
    assert word("en", opening_line(pos) or ("explain.sep", {})).endswith("/place e3")
    pos.play("e3")
    assert word("en", opening_line(pos) or ("explain.sep", {})).endswith("/place c1 c5")
    pos.play("c1")
    pos.play("c5")
    assert opening_line(pos) is None  # free placement from here
    assert opening_line(Position(Ruleset.make("standard", 5))) is None


@pytest.mark.parametrize("variant", [v for v in PRESETS if v != "standard"])
def test_a_variant_says_how_it_differs_from_standard_in_its_own_rules_lines(variant: str) -> None:
    """Newcomer play-test: nothing said how a variant differs from standard. The
    differences are lines of the variant's own rules text that standard at the same size
    has not (so they cannot drift from the engine), and standard has none."""
    from bot.explain.rules import differences

    sizes = _offered(variant)
    rules = Ruleset.make(variant, sizes[0])
    found = differences(rules, sizes)
    assert found, variant
    own = rules_lines(rules, sizes)
    standard = rules_lines(Ruleset.make("standard", 5), [s for s in sizes if s in BOT_SIZES] or [5])
    for key, params in found:
        if key == "explain.rules.not_here":  # a rule of standard the variant drops
            assert params["line"] in standard and params["line"] not in own
        else:
            assert (key, params) in own and (key, params) not in standard
    assert differences(Ruleset.make("standard", 7), BOT_SIZES) == []


def test_the_rules_say_what_a_reader_would_otherwise_get_wrong() -> None:
    """Newcomer play-test: modern-3x3's rules never said there are no captures, and lane's
    rules said "any empty cell" before the lane opening, which the first turn contradicts."""
    modern = say("en", rules_lines(Ruleset.make("modern-3x3", 3), [3]))
    assert "There are no captures in this variant" in modern
    lane = say("en", rules_lines(Ruleset.make("lane", 5), BOT_SIZES))
    placement = next(line for line in lane.splitlines() if line.startswith("Placement"))
    assert placement == (
        "Placement: each player's first pair goes on their lane cells; after that, two pieces a turn"
        " on any empty cell except the centre, until all are placed."
    ), "console play-test: 'places two pieces on the lane's cells on each player's first turn (below), then'"
    assert placement.index("lane") < placement.index("any empty cell")
    # The lane is said before the placement line uses it: "(below)" pointed at nothing
    # once the differences and the full list stood apart (Discord play-test).
    assert lane.index("Lane opening:") < lane.index("Placement:")
    arabic = say("ar", rules_lines(Ruleset.make("lane", 5), BOT_SIZES)).splitlines()[2]
    assert arabic == (
        "مرحلة الوضع: يضع كل لاعب قطعتيه الأوليين على خانتي الممر الخاصتين به؛ وبعد ذلك قطعتين في كل دور"
        " على أي خانة فارغة ما عدا خانة الوسط، حتى توضع القطع كلها."
    ), arabic
    for lang in ("en", "ar"):
        assert "(below)" not in say(lang, rules_lines(Ruleset.make("lane", 5), BOT_SIZES))
        assert "كما يلي" not in say(lang, rules_lines(Ruleset.make("lane", 5), BOT_SIZES))


def test_the_rules_embed_heads_the_full_list_after_the_differences() -> None:
    """Discord play-test: /seega rules variant:lane listed the differences, then the full
    list with nothing saying what it was."""
    from bot.messages import rules_embed

    for lang, head in (("en", "All its rules:"), ("ar", "قواعدها كلها:")):
        described = rules_embed("lane", lang).description or ""
        assert f"\n\n{head}\n• " in described, described
        assert "(below)" not in described and "كما يلي" not in described
    assert "All its rules" not in (rules_embed("standard", "en").description or "")
