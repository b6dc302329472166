"""What the bot says to explain a game: its rules, why it ended, why a move is refused.

Each function returns *lines*: a locale key of ``bot/locale/*.json`` (all under
``explain.``) and its parameters, never finished text, so Discord (each person's
language) and the console (English) word them from the same source. :func:`say` turns
lines into text in one language.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.texts import Text
from bot.texts import text as t
from engine.board import cell_name

#: One sentence: a locale key and the parameters of its template.
Line = tuple[str, dict[str, Any]]


def colour(side: int) -> Line:
    """A side's name as a phrase ("Black", "White") for a sentence that names it."""
    return ("explain.colour.white", {}) if side else ("explain.colour.black", {})


def cell_names(cells: set[int] | list[int]) -> list[str]:
    """Global cell ids as names, file by file (a1, a2, ... b1 ...): every list of cells a
    player reads (refusals, hints, autocomplete, a removal's cells) is in this one order."""
    return [cell_name(c) for c in sorted(set(cells), key=lambda g: (g % 9, g // 9))]


def say(lang: str, lines: Iterable[Line], sep: str = "\n") -> str:
    """The lines in ``lang``, joined by ``sep``.

    A parameter that is itself a line (a nested ``(key, params)``) is worded first, so a
    sentence can embed a phrase ("Amira wins: {why}.") in the same language; a list
    parameter (cells, phrases) is joined with the language's comma.
    """
    return sep.join(word(lang, line) for line in lines)


def word(lang: str, line: Line) -> str:
    """One line in ``lang`` (nested lines in the parameters worded first)."""
    key, params = line
    return t(lang, key, **{k: _value(lang, v) for k, v in params.items()})


def _value(lang: str, value: Any) -> Any:
    """A parameter ready for a template: a line worded, a list of lines or names joined."""
    if _is_line(value):
        return word(lang, value)
    if isinstance(value, list):
        return t(lang, "explain.sep").join(str(_value(lang, v)) for v in value)
    return value


def _is_line(value: object) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and isinstance(value[0], str)
        and value[0].startswith("explain.")
        and isinstance(value[1], dict)
    )


def as_text(line: Line) -> Text:
    """A line as a :class:`bot.texts.Text` (nested lines too), for a service error's parameters."""
    key, params = line
    return Text(key, {k: as_text(v) if _is_line(v) else v for k, v in params.items()})
