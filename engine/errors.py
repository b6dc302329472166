"""The one error hierarchy of the engine.

Every error is a :class:`ValueError` (bad input is a value problem) and a
:class:`SeegaError`, so callers can catch either. Messages name the input that was
wrong, what is allowed instead, and the position when there is one.
"""

from __future__ import annotations

import unicodedata


def quoted(text: str, limit: int = 120) -> str:
    """``repr(text)``, cut to about ``limit`` characters: messages name the input that was
    wrong, but a hostile megabyte must not become a megabyte of message (a chat message
    or a log line cannot hold it). A full 9x9 SPN fits whole.

    Text with characters outside ASCII also names them by code point (``'а1' (not
    ASCII: U+0430 CYRILLIC SMALL LETTER A)``): a look-alike quoted as itself reads exactly
    like the allowed value the message then names, so the reader could not see what is
    wrong. ASCII text is quoted exactly as ``repr`` quotes it (other programs read these
    messages)."""
    shown = _start_of(text, limit)
    if shown.isascii():
        return repr(shown)
    return f"{shown!r} ({_non_ascii_note(shown)})"


def _start_of(text: str, limit: int) -> str:
    """``text``, or its start and ``...``, such that its ``repr`` holds about ``limit``
    characters: cut by characters, 120 tabs or ideographic spaces were 240 or 720 in the
    message (review of stop 41: a 914-character error for a 10,000-character SPN)."""
    if len(text) <= limit and len(repr(text)) <= limit + 2:
        return text
    size = 0
    for end, ch in enumerate(text):
        size += len(repr(ch)) - 2
        if size > limit - 3:
            return text[:end] + "..."
    return text


#: How many distinct non-ASCII characters a message names (a name in Arabic script would
#: otherwise list every letter).
_NAMED_CHARACTERS = 3


def _non_ascii_note(text: str) -> str:
    """``not ASCII: U+0430 CYRILLIC SMALL LETTER A, ...``: the first few distinct
    non-ASCII characters of ``text``. A lone surrogate in U+DC80..U+DCFF is how Python
    reads an invalid UTF-8 byte from the command line, so it is named as that byte."""
    seen = list(dict.fromkeys(ch for ch in text if not ch.isascii()))
    names = [_character_name(ch) for ch in seen[:_NAMED_CHARACTERS]]
    more = len(seen) - _NAMED_CHARACTERS
    return "not ASCII: " + ", ".join(names) + (f" and {more} more" if more > 0 else "")


def _character_name(ch: str) -> str:
    """``U+0430 CYRILLIC SMALL LETTER A``, or ``byte 0xFF (not UTF-8)`` for a surrogate escape."""
    point = ord(ch)
    if 0xDC80 <= point <= 0xDCFF:
        return f"byte 0x{point - 0xDC00:02X} (not UTF-8)"
    name = unicodedata.name(ch, "")
    return f"U+{point:04X} {name}" if name else f"U+{point:04X}"


class SeegaError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidRulesError(SeegaError):
    """An unknown preset, an unknown option, or an option value out of range."""


class InvalidPositionError(SeegaError):
    """A malformed SPN: a syntax error, a board that does not match the size, or an
    impossible state."""


class InvalidActionError(SeegaError):
    """Action text that does not parse as an action at all (``"z9-q"``)."""


class IllegalActionError(SeegaError):
    """A well-formed action that the rules do not allow in the position."""


class GameOverError(IllegalActionError):
    """An action, or a request for the best action, in a finished game."""


class InvalidRecordError(SeegaError):
    """A game record (SGN) that does not parse or does not replay.

    Attributes:
        turn: the turn number of the first bad action, when the error is one.
    """

    def __init__(self, message: str, turn: int | None = None) -> None:
        super().__init__(message)
        self.turn = turn
