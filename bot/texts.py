"""The bot's wording, English and Arabic, without Discord: templates from ``bot/locale``.

Every sentence a person reads lives in ``bot/locale/<lang>.json`` under ``messages``: a
key and a ``str.format`` template. The service raises errors with a key and parameters;
the Discord messages and the console table both render through :func:`text`, so a
sentence is written once per language. Parameters may be lists (joined the way the
language joins them: ``a1, b2 or c3``) or a :class:`Text` (a sentence of its own,
rendered in the same language).

Counted words. A noun after a number takes a different form with the number in many
languages (English "1 turn", "3 turns"; Arabic "دور واحد", "دوران", "3 أدوار", "11 دورًا",
"100 دور"). A template may therefore have variants for counts, next to its plain key, in
the same ``messages``: ``"<key>#<param>=<category>"``, where ``<param>`` names the
template's numeric parameter and ``<category>`` is the count's plural category in the
language (the Unicode CLDR categories):

* English: ``one`` (1), ``other`` (every other count);
* Arabic: ``zero`` (0), ``one`` (1), ``two`` (2), ``few`` (3-10, and 103-110, ...: the
  last two digits 3-10), ``many`` (11-99, 111-199, ...: the last two digits 11-99),
  ``other`` (100-102, 200-202, ...).

:func:`text` looks for ``key#param=category`` when it is given ``param`` as a whole
number (an ``int``, or a text of ASCII digits such as the engine's ``"2"``), and uses
the plain ``key`` when there is no such variant: the plain template is
the ``other`` form, and a language writes only the variants it needs (English has none
where its noun does not change). All the variants of one key count the same parameter,
and a variant names no parameter its plain template lacks (it may drop the number
itself: "دورين"). Example (Arabic)::

    "picture.after": "{result} بعد {count} دور",
    "picture.after#count=two": "{result} بعد دورين",
    "picture.after#count=few": "{result} بعد {count} أدوار",
    "picture.after#count=many": "{result} بعد {count} دورًا",

Lists read in the reader's direction: the Arabic comma between two Latin items (cells,
moves) would join them into one left-to-right run ("d3، a3" read a3 first), so the
Arabic separator carries a right-to-left mark after the comma (:data:`RLM`), and each
item stands on its own in the right-to-left line.
"""

from __future__ import annotations

import json
import logging
import re
import string
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

log = logging.getLogger(__name__)

LANGUAGES = ("en", "ar")
FALLBACK = "en"
#: Lists longer than this are cut: "a1, b2 ... and 5 more".
LIST_LIMIT = 12
#: RIGHT-TO-LEFT MARK: after an Arabic comma between two Latin items, it keeps the items
#: apart, so that a list of cells reads from right to left ("d3، a3" reads d3 first); the
#: renderer ends a cut Arabic name with it (``bot.render.fonts``).
RLM = "\u200f"
#: LEFT-TO-RIGHT MARK: holds a score left to right in an Arabic sentence (:data:`LTR_PARAMS`).
LRM = "\u200e"
#: FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: a name between them is laid out on its
#: own, its letters deciding neither the line's direction nor the numbers after it
#: (:data:`NAME_PARAMS`).
FSI = "\u2068"
PDI = "\u2069"
#: The languages written right to left (the renderer lays their pictures out from the right).
RIGHT_TO_LEFT = frozenset({"ar"})
_JOIN = {
    "en": {
        "sep": ", ",
        "or": " or ",
        "and": " and ",
        "more": "{shown} and {count} more",
        "none": "nothing",
        "word": " ",
        "dot": " · ",
    },
    "ar": {
        "sep": "،" + RLM + " ",
        # within a recorded turn ("2. ⚪ e4 e1") and between turns ("... · 3. ⚫ ..."): the
        # same mark, so the numbers and cells do not run together left to right
        "word": RLM + " ",
        "dot": " ·" + RLM + " ",
        "or": " أو ",
        "and": " و",
        # before a Latin item (a cell, a move): "b1 و a4", as the Arabic texts write
        # cells, not "b1 وa4" with the conjunction glued to the cell (native play-test)
        "and_latin": " و ",
        "more": "{shown} و{count} غيرها",
        "none": "لا شيء",
    },
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
    (``word="and"``: ``" and "``), for lists that are always shown whole (a turn's moves);
    ``word="word"`` between the parts of a recorded turn (``"2. ⚪ e4 e1"``) and
    ``word="dot"`` between turns (``" · "``)."""
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
    latin = f"{word}_latin"
    if latin in words and names[-1][:1].isascii():
        word = latin
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
    """A name as every message shows it: one line (:func:`one_line`), at most
    :data:`NAME_LIMIT` characters as written, an ellipsis marking a cut that never falls
    inside a character the reader sees as one, in its message-safe form
    (:func:`markdown_safe`).

    Discord allows no line break in a name, but a row can hold text from elsewhere (an
    import, an older version, a hand edit), and one newline in a name broke the layout of
    every message about that game. Names are shown, never parsed, so the rows normalise
    them on the way in and on the way out, and the Discord adapter reads display names
    through :func:`written_name`.

    Names in the service and in the rows are message-safe: the sentences of
    ``bot/locale`` are Discord markdown, and a name goes into dozens of them, worded in
    the service, the adapter and the console alike, so it is escaped once, where it
    enters, and not at every sentence. What shows text without markdown takes the escapes
    off with :func:`plain_name`: the pictures (:func:`bot.render.words.shown_name`), the
    text board (in a code block). ``value`` may be message-safe already (a row written by
    this version: unchanged) or as written (a row of an older version, which stored display
    names as they came: escaped now), see :func:`plain_name`.
    """
    return _safe_name(plain_name(value))


def written_name(value: str) -> str:
    """:func:`shown_name` of a name known to be as its owner wrote it (a display name the
    Discord adapter reads): every backslash in it is the owner's ("¯\\_(ツ)_/¯")."""
    return _safe_name(value.replace(WORD_JOINER, ""))


def _safe_name(value: str) -> str:
    value = one_line(value)
    if len(value) > NAME_LIMIT:
        value = value[: _cluster_start(value, NAME_LIMIT - 1)] + "\u2026"
    return markdown_safe(value)


#: An invisible character that joins what is beside it into one word (U+2060 WORD JOINER).
WORD_JOINER = "\u2060"
#: What Discord reads as markdown in a text, escaped by a backslash: the pattern of
#: ``discord.utils.escape_markdown`` (discord.py 2.x, links not spared), copied so that the
#: rows and the service need not import Discord (tests/discord/test_names.py compares).
_MARKDOWN = re.compile(r"[_\\~|\*`]|^>(?:>>)?\s|\[.+\]\(.+\)|^#{1,3}|^\s*-")
#: A numbered list item ("1. first") at the start of a line: its dot escaped.
_LIST_NUMBER = re.compile(r"^(\s*\d+)\.(?=\s)")
#: Where a word joiner breaks what Discord would read: ``<`` of a mention, channel, role,
#: command, custom emoji or timestamp (``<@1…>``, ``<#…>``, ``</…>``, ``<t:…>``), ``@`` of
#: ``@everyone``, ``://`` of an address and ``](`` of a masked link, both made links.
_JOINED_AFTER = re.compile(r"<|@|:(?=//)|\](?=\()")
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


def markdown_safe(value: str) -> str:
    """``value`` (as written) as Discord shows it as written, whatever line of a message it
    starts: markdown escaped by a backslash (``discord.utils.escape_markdown``: ``*_~|`\\``,
    ``#``, ``-#``, ``>`` and ``-`` at its start, a masked link; a numbered list's dot too),
    and a :data:`WORD_JOINER` after the characters that make mentions and links (escaping
    does not stop those; allowed mentions keep anybody from being pinged, but a name
    ``<@1234…>`` was shown as another member's mention: outside review, stop 40).
    """
    value = _MARKDOWN.sub(lambda m: "\\" + m.group(0), value)
    value = _LIST_NUMBER.sub(r"\1\\.", value)
    return _JOINED_AFTER.sub(lambda m: m.group(0) + WORD_JOINER, value)


def plain_name(value: str) -> str:
    """A name as its owner wrote it, from its message-safe form (:func:`markdown_safe`):
    for text without markdown (pictures, a code block, the console).

    A name that is not message-safe (a row of an older version) is as written already,
    but for the word joiners an older version put in links (invisible: dropped). A name
    as written that reads exactly like an escaped one ("a\\_b") is taken for one: the
    only ambiguity, and the name is then shown without its backslash, never unsafe.
    """
    bare = value.replace(WORD_JOINER, "")
    if len(bare) > 4 * NAME_LIMIT:
        # Not a message-safe name (at most twice NAME_LIMIT: each character escaped or
        # joined once) but text from elsewhere, as written; and never escaped to compare:
        # the masked-link pattern backtracks, cubic in the length ("[](" * 800 took
        # 0.28 s, 60,000 characters held the process: outside review, stop 40).
        return bare
    unescaped = _ESCAPE.sub(r"\1", bare)
    return unescaped if markdown_safe(unescaped) == value else bare


#: What Discord takes: a message's content, an embed's description (characters).
CONTENT_LIMIT = 2000
DESCRIPTION_LIMIT = 4096


def fit_lines(lines: Sequence[str], room: int, more: Callable[[int], str]) -> list[str]:
    """The first of ``lines`` that fit ``room`` characters joined by newlines, then
    ``more(count)`` for the ``count`` left out ("…and 3 more"); all of them if they fit.
    A list of names can pass Discord's limits (2,000 characters of content, 4,096 of an
    embed's description): a message over them is refused whole."""
    if sum(len(line) + 1 for line in lines) - 1 <= room:
        return list(lines)
    kept = list(lines)
    while kept:
        kept.pop()
        shown = [*kept, more(len(lines) - len(kept))]
        if sum(len(line) + 1 for line in shown) - 1 <= room:
            return shown
    return [more(len(lines))[:room]]


#: Code points that belong to the character before them: the joiner of an emoji sequence,
#: variation selectors, skin tones and the tags of a subdivision flag (accents are found
#: by their category).
EXTENDERS = frozenset(
    [0x200D, *range(0xFE00, 0xFE10), *range(0x1F3FB, 0x1F400), *range(0xE0020, 0xE0080), *range(0xE0100, 0xE01F0)]
)
_REGIONAL = range(0x1F1E6, 0x1F200)


def _cluster_start(value: str, cut: int) -> int:
    """The largest index at or before ``cut`` where ``value`` can be cut between two
    characters as a reader sees them (a simplified grapheme-cluster boundary: enough for
    accents, emoji sequences and flags, the ways a display name combines code points)."""
    while cut > 0 and (
        ord(value[cut]) in EXTENDERS
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


#: The plural categories a language's variants may name (see the module's docstring).
CATEGORIES = {"en": ("one", "other"), "ar": ("zero", "one", "two", "few", "many", "other")}


def plural_category(lang: str, count: int) -> str:
    """The CLDR plural category of the whole number ``count`` in ``lang``."""
    if lang == "ar":
        if count in (0, 1, 2):
            return ("zero", "one", "two")[count]
        rest = abs(count) % 100
        return "few" if 3 <= rest <= 10 else "many" if 11 <= rest <= 99 else "other"
    return "one" if count == 1 else "other"


def variant(key: str) -> tuple[str, str, str] | None:
    """``(plain key, parameter, category)`` of a counted variant's key, else ``None``."""
    base, mark, rest = key.partition("#")
    param, equals, category = rest.partition("=")
    return (base, param, category) if mark and equals else None


@cache
def _variants(lang: str) -> dict[str, str]:
    """The parameter each counted key of ``lang`` counts (``{"picture.after": "count"}``)."""
    counted: dict[str, str] = {}
    for key in messages(lang):
        found = variant(key)
        if found is not None:
            counted[found[0]] = found[1]
    return counted


def _template(lang: str, key: str, params: Mapping[str, Any]) -> str | None:
    """The template of ``key`` in ``lang``: its variant for the count it is given, if any."""
    param = _variants(lang).get(key)
    value = params.get(param) if param is not None else None
    if isinstance(value, str) and value.isascii() and value.isdecimal():
        value = int(value)  # a count the engine gives as text ("2")
    if isinstance(value, int) and not isinstance(value, bool):
        counted = messages(lang).get(f"{key}#{param}={plural_category(lang, value)}")
        if counted is not None:
            return counted
    return messages(lang).get(key)


#: Parameters that must read left to right inside a right-to-left sentence: a score
#: ("0-1"). In an Arabic sentence its digits follow Arabic letters and become Arabic
#: numbers to the bidirectional algorithm, and the hyphen between them turns the run
#: around: "0-1" was read "1-0", the other side winning (native play-test, stop 36).
LTR_PARAMS = frozenset({"result"})


def _left_to_right(value: Any) -> Any:
    """``value`` between left-to-right marks (a score read as written in any sentence);
    a result said in words ("تعادل") stays as it is."""
    return f"{LRM}{value}{LRM}" if isinstance(value, str) and value and value.isascii() else value


#: Parameters naming a person. A right-to-left line that opens with a Latin name ("Carol:
#: 1338 ← 1280 (-58)") is laid out left to right by the client, from its first strong
#: letter, and its Arabic arrow then read as a rise next to "-58" (outside play-test). Such
#: a line starts with :data:`RLM` and holds the name between :data:`FSI` and :data:`PDI`,
#: so the line reads right to left whatever the name's script.
NAME_PARAMS = ("name", "player")


def _right_to_left_opening(template: str, values: dict[str, Any]) -> str:
    """``template`` (right to left) opening with :data:`RLM`, and its opening name isolated,
    when it starts with a name and says more than the name."""
    for param in NAME_PARAMS:
        head = "{" + param + "}"
        if template.startswith(head) and template != head and param in values:
            values[param] = f"{FSI}{values[param]}{PDI}"
            return RLM + template
    return template


def text(lang: str, key: str, **params: Any) -> str:
    """The message ``key`` in ``lang``, formatted with ``params``.

    Falls back to English when the language lacks the key or its template names a
    parameter that was not given, and to the key itself when English lacks it too. A key
    with counted variants (``key#count=two``) is worded by the variant of its count.
    """
    lang = lang if lang in LANGUAGES else FALLBACK
    for candidate in (lang, FALLBACK) if lang != FALLBACK else (FALLBACK,):
        template = _template(candidate, key, params)
        if template is None:
            continue
        try:
            values = {k: _value(candidate, v) for k, v in params.items()}
            if candidate in RIGHT_TO_LEFT:
                values = {k: _left_to_right(v) if k in LTR_PARAMS else v for k, v in values.items()}
                template = _right_to_left_opening(template, values)
            return template.format(**values)
        except (KeyError, IndexError, ValueError, AttributeError):
            log.warning("message %r in %s does not fit params %s", key, candidate, sorted(params))
    return key
