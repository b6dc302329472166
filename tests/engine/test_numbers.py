"""Numbers read from text: ASCII digits only, bounded before they are converted."""

from __future__ import annotations

import time

import pytest

from engine.numbers import parse_whole


@pytest.mark.parametrize(("text", "value"), [("0", 0), ("7", 7), ("007", 7), ("100", 100), ("000", 0)])
def test_plain_digits_read(text: str, value: int) -> None:
    assert parse_whole(text, 100) == value


@pytest.mark.parametrize(
    "text",
    [
        "",
        "101",
        "-1",
        "+5",
        " 5",
        "5 ",
        "1_0",
        "5.0",
        "٥",  # Arabic-Indic five: isdigit() and int() accept it
        "۵",  # Extended Arabic-Indic five
        "５",  # fullwidth five
        "²",  # superscript two: isdigit() but not int()
        "৫",  # Bengali five
    ],
)
def test_anything_else_is_refused(text: str) -> None:
    assert parse_whole(text, 100) is None


def test_a_huge_number_is_refused_without_converting_it() -> None:
    huge = "9" * 100_000  # int() of this raises past 4,300 digits
    started = time.perf_counter()
    assert parse_whole(huge, 10**9) is None
    assert parse_whole("0" * 100_000 + "5", 10) == 5
    assert time.perf_counter() - started < 5  # a guard against a hang, not a timing test
