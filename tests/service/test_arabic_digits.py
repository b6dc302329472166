"""Cells typed with Arabic-Indic digits (٠-٩, and the Extended ۰-۹ of Persian and Urdu
keyboards) and the Arabic comma «،» read as the ASCII ones, wherever a cell or a step is
typed. Play-test (Arabic-speaking newcomer): "/seega solve e٤ e٥" answered "I could not
read e٤", "e4،e5" was refused, "/place a٥" was "not a cell"."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from bot import transformers
from bot.service import commands
from engine.board import parse_cell
from engine.coach.answers import read_actions
from engine.errors import InvalidActionError
from engine.position import Position
from engine.rules import Ruleset
from tests.service.helpers import Db
from tests.service.test_console import run_console

CHAIN = Position.from_spn("4b/3w1/3b1/wb3/2w2 w m 0/0 - 0 40", Ruleset.make("standard", 5))


def test_arabic_digits_and_comma_read_as_ascii_in_every_parser() -> None:
    # The engine's notation (RULES.md section 7, the command line's contract) stays exact:
    # only the readers of what people type translate.
    with pytest.raises(InvalidActionError):
        parse_cell("a٥")
    ascii_turn = read_actions(CHAIN, "c1 c2 d2")
    for typed in ("c١ c٢ d٢", "c۱ c۲ d۲", "c١،c٢،d٢", "c1، c2، d2", "c١-c٢، c٢-d٢"):
        assert read_actions(CHAIN, typed) == ascii_turn, typed
    assert commands.split_move_text("e٤ e٥") == commands.split_move_text("e4،e5") == ("e4", "e5")
    assert commands.split_chain_text("c١ c٢ d٢") == commands.split_chain_text("c1،c2،d2") == ["c1", "c2", "d2"]
    assert commands.parse_move("e٤", "e۵") == ("e4", "e5")
    assert commands.split_step_words("d٦ j٦") == ("d6", "j6")
    assert commands.rejoined_cells("a ١") == ["a1"]

    def transform(transformer: object, value: str) -> str:
        return asyncio.run(transformer.transform(None, value))  # type: ignore[attr-defined, no-any-return]

    assert transform(transformers.PlaceTransformer(), "a٥") == "a5"
    assert transform(transformers.PlaceTransformer(), "a١،b٢") == "a1 b2"
    assert transform(transformers.MoveTransformer(), "e٤ e٥") == "e4-e5"
    assert transform(transformers.MoveTransformer(), "c١،c٢،d٢") == "c1-c2-d2"
    assert transform(transformers.CellTransformer(), "۳c".upper()[::-1].lower()) == "c3"


def _answers(out: str) -> list[str]:
    """The console's answers, without the echoed commands."""
    return [line for line in out.splitlines()[1:] if not line.startswith(">")]


def test_a_game_and_the_lessons_typed_in_arabic_digits_play_as_ascii(new_db: Callable[[], Db], tmp_path: Path) -> None:
    ascii_lines = [
        "/seega challenge size:5 color:black", "/place a1 b1", "/place a2,b2", "a3 b3", "/place a3 b3",
        "/seega resign", "yes",
        "learn 1", "/place c2 c4", "learn 5", "solve e4 e5", "solve c1,c2", "/move c2 d2",
    ]  # fmt: skip
    arabic_lines = [
        "/seega challenge size:5 color:black", "/place a١ b۱", "/place a٢،b٢", "a٣ b٣", "/place a٣ b٣",
        "/seega resign", "yes",
        "learn 1", "/place c٢ c٤", "learn 5", "solve e٤ e٥", "solve c١،c٢", "/move c۲ d۲",
    ]  # fmt: skip
    plain = run_console(new_db(), ascii_lines, tmp_path)
    assert "✅ A chain" in plain and "✅ Well placed" in plain, plain
    arabic = run_console(new_db(), arabic_lines, tmp_path)
    # cells typed alone are named back as typed, and their command is the same
    assert "Unknown command 'a٣ b٣': the command for that is /place a3 b3." in arabic, arabic
    assert _answers(arabic.replace("'a٣ b٣'", "'a3 b3'")) == _answers(plain)
