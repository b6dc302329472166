"""Suggestions for mistyped commands."""

from __future__ import annotations

import pytest

from bot.suggest import did_you_mean

COMMANDS = ("/place", "/move", "/remove", "/seega end-turn", "resign", "board", "help", "play-bot", "rules")


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("plcae", "/place"),
        ("/plcae", "/place"),
        ("PLACE", "/place"),
        ("mvoe", "/move"),
        ("remvoe", "/remove"),
        ("resing", "resign"),
        ("borad", "board"),
        ("play-bto", "play-bot"),
        ("rule", "rules"),
    ],
)
def test_a_typo_finds_its_command(typed: str, expected: str) -> None:
    assert did_you_mean(typed, COMMANDS) == expected


@pytest.mark.parametrize("typed", ["", "   ", "xyzzy", "q", "a" * 10_000, "hello world this is not a command"])
def test_nothing_close_gives_no_guess(typed: str) -> None:
    assert did_you_mean(typed, COMMANDS) is None
