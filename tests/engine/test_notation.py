"""docs/rules.md section 7: SPN and action notation, read and written, and their errors."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from engine import (
    Action,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidPositionError,
    Position,
    Ruleset,
    SeegaError,
)
from tests.engine.helpers import position

ROUND_TRIPS = [
    ("5/5/5/5/5 b p 12/12 - 0 1", "standard", []),
    ("5/5/5/5/b4 b p 11/12 1 0 1", "standard", []),
    ("7/7/7/7/7/7/7 b p 24/24 - 0 1", "standard", []),
    ("9/9/9/9/9/9/9/9/9 b p 40/40 - 0 1", "standard", []),
    ("3/3/3 b p 3/3 - 0 1", "modern-3x3", []),
    ("bbwwb/bbwww/bb1ww/bbwww/bbwwb w m 0/0 - 0 13", "standard", []),
    ("4w/3b1/3w1/b1b2/5 b m 0/0 c2 0 20", "standard", []),
    ("4w/3b1/3w1/b1b2/5 b m 0/0 c 0 20", "standard", ["chain=any"]),
    ("bbwwb/bbwww/b1bww/bbwww/bbwwb b r 0/0 b3 1 14", "aljaafreh", []),
    ("bwbwb/wbwbw/bw1wb/wbwbw/bwbwb b s 0/0 - 0 13", "five-in-a-row", []),
    ("2b4/7/3w3/7/7/7/b5w w m 0/0 - 57 211", "standard", []),
]


@pytest.mark.parametrize(("spn", "preset", "options"), ROUND_TRIPS)
def test_spn_round_trips(spn: str, preset: str, options: list[str]) -> None:
    assert position(spn, preset, options).spn() == spn


def test_spn_fields_are_read() -> None:
    pos = position("4w/3b1/3w1/b1b2/5 b m 0/0 c2 0 20")
    assert (pos.side, pos.phase, pos.hand, pos.clock, pos.turn) == (0, "m", [0, 0], 0, 20)
    assert pos.geo.names[pos.state] == "c2"
    assert pos.count(0) == 3 and pos.count(1) == 2
    assert pos.piece_at(pos.geo.names.index("e5")) == 1


@pytest.mark.parametrize(
    ("spn", "found"),
    [
        ("5/5/5/5/5  b p 12/12 - 0 1", "found '  ' after character 9"),
        ("5/5/5/5/5\tb p 12/12 - 0 1", "found '\\t' after character 9"),
        ("5/5/5/5/5 b p 12/12 -\n0 1", "found '\\n' after character 21"),
        ("5/5/5/5/5\u3000b p 12/12 - 0 1", "(not ASCII: U+3000 IDEOGRAPHIC SPACE)"),
        ("5/5/5/5/5 b\u2028p 12/12 - 0 1", "(not ASCII: U+2028 LINE SEPARATOR)"),
        ("5/5/5/5/5 b p\x1c12/12 - 0 1", "found '\\x1c' after character 13"),
    ],
)
def test_fields_separated_other_than_by_one_space_are_refused(spn: str, found: str) -> None:
    # Review atk41b finding 4; docs/rules.md section 7: "seven fields separated by one
    # space". These were read (split on any white space) and written back normalised.
    with pytest.raises(InvalidPositionError) as info:
        position(spn)
    assert "fields must be separated by one space" in str(info.value)
    assert found in str(info.value)


@pytest.mark.parametrize(
    "spn", [" 5/5/5/5/5 b p 12/12 - 0 1", "5/5/5/5/5 b p 12/12 - 0 1\n", "5/5/5/5/5 b p 12/12 - 0 1\r\n"]
)
def test_ascii_white_space_around_an_spn_is_dropped(spn: str) -> None:
    # docs/rules-decisions.md 2: a line end read from a file or pipe is not a field separator.
    assert position(spn).spn() == "5/5/5/5/5 b p 12/12 - 0 1"


@pytest.mark.parametrize(
    ("spn", "fragment"),
    [
        ("11111/5/5/5/5 b p 12/12 - 0 1", "rank 5 has two digits in a row (11)"),
        ("5/5/5/5/b13 b p 11/12 - 0 1", "rank 1 has two digits in a row (13)"),
        ("5/5/5/5/5 b p 12/12 - 0 001", "SPN turn '001' has a leading zero"),
        ("5/5/5/5/5 b p 12/12 - 00 1", "SPN clock '00' has a leading zero"),
        ("5/5/5/5/5 b p 012/12 - 0 1", "SPN hand '012/12' has a leading zero"),
        ("5/5/5/5/5 b p 12/012 - 0 1", "SPN hand '12/012' has a leading zero"),
    ],
)
def test_a_non_canonical_board_run_or_number_is_refused(spn: str, fragment: str) -> None:
    # Review atk41b finding 4: "a digit 1-9 a run of empty cells (as in chess FEN)", and
    # one position has one SPN, so two SPNs can be compared as text.
    with pytest.raises(InvalidPositionError, match=re.escape(fragment)):
        position(spn)


MALFORMED = [
    ("5/5/5/5/5 b p 12/12 - 0", "7"),  # six fields
    ("5/5/5/5/5 b p 12/12 - 0 1 x", "7"),  # eight fields
    ("", "7"),
    ("5/5/5/5/4x b p 12/12 - 0 1", "'x'"),  # bad board character
    ("5/5/5/5/40 b p 12/12 - 0 1", "'0'"),
    ("5/5/5/5/6 b p 12/12 - 0 1", "rank 1 has 6"),  # rank too long
    ("5/5/5/5/bbbbbb b p 12/12 - 0 1", "rank 1 has 6"),
    ("5/5/5/5/4 b p 12/12 - 0 1", "rank 1 has 4"),  # rank too short
    ("5/5/5/5 b p 12/12 - 0 1", "4 ranks"),  # size mismatch
    ("7/7/7/7/7/7/7 b p 12/12 - 0 1", "7 ranks"),
    ("5/5/5/5/5 x p 12/12 - 0 1", "side"),
    ("5/5/5/5/5 b q 12/12 - 0 1", "phase"),
    ("5/5/5/5/5 b p 12-12 - 0 1", "hand"),
    ("5/5/5/5/5 b p 12/x - 0 1", "hand"),
    ("5/5/5/5/5 b p /12 - 0 1", "hand"),
    ("5/5/5/5/5 b p -1/12 - 0 1", "hand"),
    ("5/5/5/5/5 b p 12/12 - x 1", "clock"),
    ("5/5/5/5/5 b p 12/12 - -1 1", "clock"),
    ("5/5/5/5/5 b p 12/12 - 0 0", "turn"),
    ("5/5/5/5/5 b p 12/12 - 0 one", "turn"),
    ("5/5/5/5/5 b p 12/12 z 0 1", "state"),
    ("5/5/5/5/b4 b m 0/0 1 0 20", "'1'"),  # '1' outside placement
    ("5/5/5/5/b4 b r 0/0 1 0 20", "'1'"),
    ("5/5/5/5/b4 b m 0/0 c2 0 20", "c2 holds no piece"),  # chain cell without own piece
    ("5/5/5/5/bw3 b m 0/0 b1 0 20", "b1 holds no piece"),  # the enemy's piece
    ("5/5/5/5/b4 b m 0/0 c 0 20", "chain=any"),  # 'c' under chain=same
    ("5/5/5/5/b4 b m 0/0 f6 0 20", "state"),  # off the board
    ("5/5/5/5/b4 b p 0/12 - 0 2", "no piece in hand"),
    ("5/5/5/5/b4 b m 1/0 - 0 20", "in hand"),
    # Issue 9 item 7: digits str.isdigit accepts but that are not ASCII, and huge numbers.
    ("5/5/5/5/5 b p ١٢/12 - 0 1", "hand"),  # Arabic-Indic 12
    ("5/5/5/5/5 b p 12/１２ - 0 1", "hand"),  # fullwidth 12
    ("5/5/5/5/5 b p 12/12 - ٣ 1", "clock"),
    ("5/5/5/5/5 b p 12/12 - 0 ５", "turn"),
    ("5/5/5/5/5 b p 12/12 - 0 ²", "turn"),  # superscript two: isdigit, yet int() fails
    ("5/5/5/5/5 b p 12/12 - 0 1_0", "turn"),
    ("5/5/5/5/5 b p 12/12 - 0 +1", "turn"),
    ("5/5/5/5/5 b p 12/12 - 0 1000000000", "turn"),
    ("5/5/5/5/5 b p 12/12 - 1000000000 1", "clock"),
    ("5/5/5/5/5 b p 12/12 - 0 " + "9" * 5000, "turn"),  # int() would refuse > 4300 digits
    ("5/5/5/5/5 b p " + "1" * 5000 + "/12 - 0 1", "hand"),
    ("5/5/5/5/5 b p 13/12 - 0 1", "from 0 to pieces=12"),
]


@pytest.mark.parametrize(("spn", "fragment"), MALFORMED)
def test_malformed_spn_is_refused_with_a_clear_message(spn: str, fragment: str) -> None:
    with pytest.raises(InvalidPositionError) as info:
        Position.from_spn(spn, Ruleset.make("standard", 5))
    assert fragment in str(info.value)
    assert isinstance(info.value, SeegaError) and isinstance(info.value, ValueError)


def test_a_5x5_spn_under_7x7_rules_is_refused() -> None:
    with pytest.raises(InvalidPositionError, match="7x7"):
        Position.from_spn("5/5/5/5/5 b p 12/12 - 0 1", Ruleset.make("standard", 7))


def test_a_chain_cell_outside_a_chain_phase_is_refused() -> None:
    with pytest.raises(InvalidPositionError):
        position("5/5/5/5/b4 b p 11/12 a1 0 1")


ACTIONS = ["a1", "e5", "i9", "b2-c2", "c2-b2", "d4-d5", "xd4", "xa1", "end", "pass"]


@pytest.mark.parametrize("text", ACTIONS)
def test_action_round_trips(text: str) -> None:
    action = Action.parse(text)
    assert str(action) == text
    assert Action.parse(str(action)) == action
    assert repr(action) == f"Action.parse({text!r})"


def test_action_kinds_and_cells() -> None:
    step = Action.parse("b2-c2")
    assert (step.kind, step.src, step.dst) == ("step", 10, 11)  # global ids rank*9+file
    assert Action.parse("xd4").kind == "remove"
    assert Action.parse("a1").kind == "place"
    assert Action.parse("end").kind == "end"
    assert Action.parse("pass").kind == "pass"
    assert Action.parse(" B2-C2 ") == step


@pytest.mark.parametrize("bad", ["", "z9", "a0", "a10", "j1", "b2-", "-b2", "x", "xz1", "b2-c2-d2", "passs", "e n d"])
def test_bad_action_text_is_refused(bad: str) -> None:
    with pytest.raises(InvalidActionError, match="not an action"):
        Action.parse(bad)


def test_an_action_off_the_board_is_invalid() -> None:
    pos = Position(Ruleset.make("standard", 5))
    with pytest.raises(InvalidActionError, match="off the 5x5 board"):
        pos.play("f1")


def test_an_illegal_action_names_what_is_legal() -> None:
    pos = position("5/5/5/w4/b4 b m 0/0 - 0 20")
    with pytest.raises(IllegalActionError) as info:
        pos.play("a1-a2")
    message = str(info.value)
    assert "a1-a2 is not legal" in message
    assert "5/5/5/w4/b4 b m 0/0 - 0 20" in message
    assert "a1-b1" in message


def test_playing_in_a_finished_game_is_a_game_over_error() -> None:
    pos = position("5/5/5/5/b4 w m 0/0 - 0 20")
    assert pos.is_over()
    with pytest.raises(GameOverError, match="over"):
        pos.play("a1-a2")
    assert issubclass(GameOverError, IllegalActionError)


@pytest.mark.parametrize(
    ("spn", "preset"),
    [
        ("bbwwb/bbwww/b1bww/bbwww/bbwwb b r 0/0 - 1 14", "aljaafreh"),  # lose removal without its cell
        ("5/5/5/1w3/b4 b r 0/0 - 0 20", "fouze"),  # nothing next to the blocked player to remove
    ],
)
def test_an_spn_where_nothing_is_legal_but_the_game_goes_on_is_impossible(spn: str, preset: str) -> None:
    with pytest.raises(InvalidPositionError, match="impossible state"):
        position(spn, preset)


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: Action.parse("\u04301"), "'\u04301' (not ASCII: U+0430 CYRILLIC SMALL LETTER A) is not an action"),
        (lambda: Ruleset.make("st\u0430ndard", 5), "(not ASCII: U+0430 CYRILLIC SMALL LETTER A); known: standard"),
        (lambda: Ruleset.make("standard", 5, ["ch\u0430in=any"]), "(not ASCII: U+0430 CYRILLIC SMALL LETTER A)"),
        (lambda: Action.parse("a\udcff"), "(not ASCII: byte 0xFF (not UTF-8))"),
    ],
)
def test_a_non_ascii_look_alike_is_named_by_code_point(call: Callable[[], object], fragment: str) -> None:
    # Review atk41b finding 8: "'а1' is not an action; actions are written a1" showed no fault.
    with pytest.raises(SeegaError) as info:
        call()
    assert fragment in str(info.value)


def test_ascii_text_is_still_quoted_exactly_as_repr_quotes_it() -> None:
    with pytest.raises(InvalidActionError) as info:
        Action.parse("z9")
    assert str(info.value).startswith("'z9' is not an action; ")
    assert "ASCII" not in str(info.value)
