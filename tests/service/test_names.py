"""Names are free text from outside: every message and picture shows them through
:func:`bot.texts.shown_name`, as one line that cannot reorder the text around it and is
never cut inside a character the reader sees as one."""

from __future__ import annotations

import re

import pytest

from bot import texts
from bot.render import words
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


#: Display names that are Discord markdown (outside review, stop 40): a mention of
#: somebody else, a heading, a quote, code, a spoiler, a link, a timestamp, a list.
MARKDOWN_NAMES = [
    "<@1234567890123456789>",
    "<@&123456789012345678>",
    "<#123456789012345678>",
    "<t:1700000000:R>",
    "</seega resign:123456789012345678>",
    "<:nitro:123456789012345678>",
    "# FREE NITRO: DM Mallory now",
    "### small heading",
    "-# subtext",
    "> quoted",
    ">>> quoted to the end",
    "- a list",
    "1. first",
    "x`",
    "``` code",
    "||spoiler",
    "**bold** and __under__",
    "~~gone~~",
    "snake_case_name",
    "\u00af\\_(\u30c4)_/\u00af",
    "back\\slash\\",
    "[Free Nitro](https://example.com)",
    "https://example.com/a_b",
    "@everyone",
    "\u0639\u0645\u0631 **\u0627\u0644\u062e\u0637\u064a\u0628**",
]


def _markdown_left(shown: str) -> list[str]:
    """What Discord would still read as markdown in ``shown`` posted on a line of its own
    (an escaped character and the word joiner after ``<``, ``@`` or ``:`` are read as text)."""
    text = re.sub(r"\\.", "", shown)  # an escaped character is text
    found = [c for c in "*_~|`\\" if c in text]
    found += [what for what in ("<", "@") if re.search(re.escape(what) + "(?!\u2060)", text)]
    found += ["link"] if "://" in text or "](" in text else []
    found += ["line start"] if re.match(r"\s*(#|>|-|\d+\.\s)", shown) else []  # a backslash first: text
    return found


@pytest.mark.parametrize("name", MARKDOWN_NAMES)
def test_a_name_is_markdown_safe_in_messages_and_as_written_in_pictures(name: str) -> None:
    """The name the adapter reads (and every stored row gives back) is shown by Discord as
    the person wrote it: no mention of somebody else, no heading, no code or spoiler for
    the rest of the sentence. A picture and the console show it as written, without the
    escapes."""
    shown = shown_name(name)
    assert _markdown_left(shown) == [], shown
    assert shown_name(shown) == shown, "a row normalised again is unchanged"
    assert texts.plain_name(shown) == name
    assert words.shown_name(shown) == name, "the picture draws the name as written"
    assert "\\" not in words.shown_name(shown_name("**x**")) and "\u2060" not in words.shown_name(shown_name("<@1>"))


def test_a_name_stored_by_an_older_version_is_made_safe_when_read() -> None:
    """Rows of older versions hold the display name as it came (links broken by a word
    joiner): read again, they are as safe as a new name, and pictures show them as written."""
    old = "[Free](https:\u2060//x.y) # ||x||"
    assert _markdown_left(shown_name(old)) == []
    assert words.shown_name(shown_name(old)) == "[Free](https://x.y) # ||x||"
