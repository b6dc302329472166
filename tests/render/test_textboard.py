"""The text board: one character per cell that agrees with the SPN, plus status lines."""

from __future__ import annotations

import pytest

from bot.render import text_board
from bot.render.textboard import grid_rows
from engine import Outcome, Position, Ruleset
from tests.render.scenarios import BY_NAME, SCENARIOS, Scenario


def spn_rows(spn: str) -> list[str]:
    """The SPN's board field expanded to one character per cell (``.`` for empty), rank n first."""
    return ["".join("." * int(ch) if ch.isdigit() else ch for ch in rank) for rank in spn.split()[0].split("/")]


def plain(row: str) -> str:
    """A text-board row with the last-turn marks taken off: what the SPN says."""
    return row.translate(str.maketrans("BWxo+", "bw..."))


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_cells_match_the_spn(scenario: Scenario) -> None:
    pos, turn = scenario.build()
    rows = grid_rows(pos, turn)
    assert [plain(r) for r in rows] == spn_rows(pos.spn())
    board_lines = text_board(pos, turn).splitlines()[1 : 1 + pos.geo.n]
    assert [line.split(" ", 1)[1].replace(" ", "") for line in board_lines] == rows


def test_chain_marks_arrivals_departures_and_captures() -> None:
    pos, turn = BY_NAME["chain-5x5"].build()
    text = text_board(pos, turn, players=("Amira", "Omar"))
    assert text.splitlines() == [
        "Seega · Turn 41 · Amira to move",
        "5 b b . w w",
        "4 b . . . w",
        "3 . b + w .",
        "2 o o x w .",
        "1 . W x w b",
        "  a b c d e",
        "Amira (b) 5 on board · Omar (w) 7 on board",
        "Last: White a2-b2, b2-b1 · took c2, c1",
    ]


def test_placement_shows_hands_and_the_ruleset_when_not_standard_5x5() -> None:
    pos = Position(Ruleset.make("seejeh", 7))
    pos.play("a1")
    pos.play("b1")
    text = text_board(pos)
    assert text.splitlines()[0] == "Seega · Seejeh · 7×7 · Turn 2 · White to place 2"
    assert "Black (b) 2 on board, 22 in hand · White (w) 0 on board, 24 in hand" in text
    assert text.splitlines()[-2] == "  a b c d e f g"


def test_game_over_says_the_result_and_reason() -> None:
    pos, turn = BY_NAME["game-over-5x5"].build()
    first = text_board(pos, turn).splitlines()[0]
    assert first == "Seega · 1-0 after 60 turns · Black wins · all of White's pieces were captured"


def test_an_outcome_the_rules_cannot_see_is_shown() -> None:
    pos = Position(Ruleset.make("standard", 9))
    first = text_board(pos, players=("Amira", "Omar"), outcome=Outcome(1, "timeout")).splitlines()[0]
    assert first == "Seega · Standard · 9×9 · 0-1, no turn played · Omar wins · Amira ran out of time"


def test_a_shuttle_held_pass_says_why() -> None:
    pos, turn = BY_NAME["shuttle-held-5x5"].build()
    lines = text_board(pos, turn).splitlines()
    assert lines[0].endswith("White is blocked and passes")
    assert lines[-1] == "d2 may not go back to c2 a third time: the shuttle limit"
