"""Whole numbers read from text (SPN fields, SGN tags, options, command-line values).

``str.isdigit`` is true for Arabic-Indic, fullwidth and superscript digits too, and
``int`` accepts most of them, plus spaces, ``+`` and ``_``; and ``int`` of a long
string costs time and fails past 4,300 digits. Every number the engine reads goes
through :func:`parse_whole`, which takes plain ASCII digits only and checks the bound
before converting, so a hostile value is a clear error and never a slow or odd one.
"""

from __future__ import annotations


def parse_whole(text: str, maximum: int) -> int | None:
    """``text`` as a whole number from 0 to ``maximum`` in ASCII digits, else ``None``.

    Leading zeros are allowed (``007`` is 7); signs, spaces, underscores and non-ASCII
    digits are not.
    """
    if not (text.isascii() and text.isdigit()):
        return None
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(maximum)):
        return None
    value = int(digits)
    return value if value <= maximum else None
