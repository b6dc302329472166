"""The bot's wording, English and Arabic, without Discord: templates from ``bot/locale``.

Every sentence a person reads lives in ``bot/locale/<lang>.json`` under ``messages``: a
key and a ``str.format`` template. The service raises errors with a key and parameters;
the Discord messages and the console table both render through :func:`text`, so a
sentence is written once per language. Parameters may be lists (joined the way the
language joins them: ``a1, b2 or c3``) or a :class:`Text` (a sentence of its own,
rendered in the same language).
"""

from __future__ import annotations

import json
import logging
import string
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

log = logging.getLogger(__name__)

LANGUAGES = ("en", "ar")
FALLBACK = "en"
#: Lists longer than this are cut: "a1, b2 ... and 5 more".
LIST_LIMIT = 12
_JOIN = {
    "en": {"sep": ", ", "or": " or ", "and": " and ", "more": "{shown} and {count} more", "none": "nothing"},
    "ar": {"sep": "، ", "or": " أو ", "and": " و", "more": "{shown} و{count} غيرها", "none": "لا شيء"},
}


@dataclass(frozen=True)
class Text:
    """A sentence by key and parameters, rendered later in the reader's language."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, key: str, **params: Any) -> Text:
        return cls(key, params)


@cache
def catalog(lang: str) -> dict[str, dict[str, str]]:
    """The parsed ``bot/locale/<lang>.json``."""
    raw = resources.files("bot").joinpath("locale", f"{lang}.json").read_text(encoding="utf-8")
    data: dict[str, dict[str, str]] = json.loads(raw)
    return data


def messages(lang: str) -> dict[str, str]:
    return catalog(lang)["messages"]


def fields(template: str) -> set[str]:
    """The placeholder names of a template."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


def has(lang: str, key: str) -> bool:
    """Whether ``lang`` has its own text for ``key``."""
    return key in messages(lang if lang in LANGUAGES else FALLBACK)


def separator(lang: str, word: str = "sep") -> str:
    """What ``lang`` puts between listed items (``", "``), or before the last one
    (``word="and"``: ``" and "``), for lists that are always shown whole (a turn's moves)."""
    return _JOIN.get(lang, _JOIN[FALLBACK])[word]


def join(lang: str, items: Sequence[Any], word: str = "or") -> str:
    """Items as the language lists them (``a1, b2 or c3``), at most :data:`LIST_LIMIT`."""
    words = _JOIN.get(lang, _JOIN[FALLBACK])
    names = [str(i) for i in items]
    if not names:
        return words["none"]
    if len(names) > LIST_LIMIT:
        shown = words["sep"].join(names[:LIST_LIMIT])
        return words["more"].format(shown=shown, count=len(names) - LIST_LIMIT)
    if len(names) == 1:
        return names[0]
    return words["sep"].join(names[:-1]) + words[word] + names[-1]


def _value(lang: str, value: Any) -> Any:
    if isinstance(value, Text):
        return text(lang, value.key, **value.params)
    if isinstance(value, list | tuple):
        return join(lang, [_value(lang, v) for v in value])
    return value


#: The directional embeddings, overrides and isolates (LRE, RLE, PDF, LRO, RLO, LRI, RLI,
#: FSI, PDI). Each reorders the text after it up to the end of the line, so a name holding
#: one turns the rest of the message around ("resigns" reads "sngiser").
_DIRECTIONAL = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])


def one_line(value: str) -> str:
    """``value`` with every control character and line or paragraph separator as a space,
    and the directional overrides, embeddings and isolates dropped.

    Other format characters (the right-to-left mark, the joiner of an emoji) stay: they
    change nothing after the name. Names are free text that can come from outside the
    bot, and every place that shows one shows it as one line: raqm refuses to lay out a
    line holding a line break ("raqm_layout() failed"), and a newline in a name split a
    message's title over many lines.
    """
    if value.isprintable():
        return value
    value = value.translate(_DIRECTIONAL)
    return "".join(ch if ch.isprintable() or unicodedata.category(ch) == "Cf" else " " for ch in value)


#: The longest name a row carries. Discord's display names hold at most 32 characters;
#: the rest is room for the bot's own ("Seega bot (expert)").
NAME_LIMIT = 64


def shown_name(value: str) -> str:
    """A name as every message and picture shows it: one line (:func:`one_line`), at most
    :data:`NAME_LIMIT` characters, an ellipsis marking a cut that never falls inside a
    character the reader sees as one.

    Discord allows no line break in a name, but a row can hold text from elsewhere (an
    import, an older version, a hand edit), and one newline in a name broke the layout of
    every message about that game. Names are shown, never parsed, so the rows normalise
    them on the way in and on the way out, and the Discord adapter normalises the display
    names it reads.
    """
    value = one_line(value)
    if len(value) > NAME_LIMIT:
        value = value[: _cluster_start(value, NAME_LIMIT - 1)] + "\u2026"
    return value


#: Code points that belong to the character before them: the joiner of an emoji sequence,
#: variation selectors, skin tones and the tags of a subdivision flag (accents are found
#: by their category).
_EXTENDERS = frozenset(
    [0x200D, *range(0xFE00, 0xFE10), *range(0x1F3FB, 0x1F400), *range(0xE0020, 0xE0080), *range(0xE0100, 0xE01F0)]
)
_REGIONAL = range(0x1F1E6, 0x1F200)


def _cluster_start(value: str, cut: int) -> int:
    """The largest index at or before ``cut`` where ``value`` can be cut between two
    characters as a reader sees them (a simplified grapheme-cluster boundary: enough for
    accents, emoji sequences and flags, the ways a display name combines code points)."""
    while cut > 0 and (
        ord(value[cut]) in _EXTENDERS
        or unicodedata.category(value[cut]) in ("Mn", "Mc", "Me")
        or ord(value[cut - 1]) == 0x200D
    ):
        cut -= 1
    if cut > 0 and ord(value[cut]) in _REGIONAL:
        run = cut
        while run > 0 and ord(value[run - 1]) in _REGIONAL:
            run -= 1
        cut -= (cut - run) % 2  # flags are pairs: an odd run before the cut ends in half a flag
    return cut


def text(lang: str, key: str, **params: Any) -> str:
    """The message ``key`` in ``lang``, formatted with ``params``.

    Falls back to English when the language lacks the key or its template names a
    parameter that was not given, and to the key itself when English lacks it too.
    """
    lang = lang if lang in LANGUAGES else FALLBACK
    for candidate in (lang, FALLBACK) if lang != FALLBACK else (FALLBACK,):
        template = messages(candidate).get(key)
        if template is None:
            continue
        try:
            return template.format(**{k: _value(candidate, v) for k, v in params.items()})
        except (KeyError, IndexError, ValueError, AttributeError):
            log.warning("message %r in %s does not fit params %s", key, candidate, sorted(params))
    return key
