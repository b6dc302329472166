"""Names are free text from outside: every message and picture shows them through
:func:`bot.texts.shown_name`, as one line that cannot reorder the text around it and is
never cut inside a character the reader sees as one."""

from __future__ import annotations

import pytest

from bot.texts import NAME_LIMIT, shown_name

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one emoji, five code points
EGYPT = "\U0001f1ea\U0001f1ec"  # a flag: two regional indicators


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("\u202eAmira", "Amira"),  # RIGHT-TO-LEFT OVERRIDE: "resigns" after it read "sngiser"
        ("Am\u202dira\u202c", "Amira"),  # LEFT-TO-RIGHT OVERRIDE and POP
        ("\u202bنور\u202c", "نور"),  # embeddings
        ("\u2067Nour\u2069 wins", "Nour wins"),  # isolates
        ("\u200fنور", "\u200fنور"),  # a mark reorders nothing after the name: kept
        ("Amira\u200dNour", "Amira\u200dNour"),  # so does a joiner
    ],
)
def test_directional_overrides_are_dropped_and_marks_kept(name: str, shown: str) -> None:
    """An override or embedding in a name reorders the rest of the line it is shown in, up
    to the end of the line: a name could turn "resigns" around or hide who won. Discord's
    display names allow them."""
    assert shown_name(name) == shown


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("x" * 60 + FAMILY, "x" * 60 + "\u2026"),
        ("x" * 62 + "e\u0301tienne", "x" * 62 + "\u2026"),
        ("x" * 62 + EGYPT + "y", "x" * 62 + "\u2026"),
        ("x" * 61 + EGYPT + "yz", "x" * 61 + EGYPT + "\u2026"),
        ("x" * 62 + "\u2764\ufe0f" + "yz", "x" * 62 + "\u2026"),
        ("x" * 62 + "\U0001f44d\U0001f3fd" + "yz", "x" * 62 + "\u2026"),
    ],
    ids=["zwj-sequence", "combining-accent", "flag", "whole-flag-kept", "variation-selector", "skin-tone"],
)
def test_a_long_name_is_never_cut_inside_one_character(name: str, shown: str) -> None:
    """The cut at ``NAME_LIMIT`` fell inside a family emoji (a man and a woman joined, the
    child cut off), between a letter and its accent, or between the two halves of a flag."""
    assert len(name) > NAME_LIMIT
    assert shown_name(name) == shown and len(shown) <= NAME_LIMIT


def test_a_short_name_is_unchanged_and_a_long_plain_one_cut_at_the_limit() -> None:
    assert shown_name("Omar al-Khatib " + FAMILY + EGYPT) == "Omar al-Khatib " + FAMILY + EGYPT
    assert shown_name("x" * 100) == "x" * (NAME_LIMIT - 1) + "\u2026"


@pytest.mark.parametrize(
    "name",
    ["\u0301" * 10_000, "\u200d" * 10_000, "\U0001f1ea" * 10_001, "\u202e" * 10_000 + "x", ("a\u0301" * 5_000)],
    ids=["accents", "joiners", "odd-flags", "overrides", "accented-letters"],
)
def test_ten_thousand_combining_characters_give_a_short_name_at_once(name: str) -> None:
    """A hostile name made only of code points that join the one before: the cut backs
    off at most ``NAME_LIMIT`` characters, and the result is still one short line."""
    shown = shown_name(name)
    assert len(shown) <= NAME_LIMIT and "\n" not in shown and "\u202e" not in shown
    assert shown.endswith("\u2026") or shown == "x"
