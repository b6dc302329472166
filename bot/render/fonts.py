"""The bundled font, loaded by path: the images never depend on system fonts.

IBM Plex Sans Arabic covers Latin and Arabic, so a player's name renders in the same
font whatever its script. Arabic needs shaping (joined letter forms, right-to-left
order): Pillow does it through raqm when that library is present, and we fall back to the
basic layout (unjoined letters, still legible) when it is not.
"""

from __future__ import annotations

import logging
import re
import threading
import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import ImageDraw, ImageFont, features

from bot.texts import EXTENDERS, LRM, RIGHT_TO_LEFT, RLM, one_line

log = logging.getLogger(__name__)

#: ``fonts/`` at the top of the repository, beside the ``bot`` package.
FONT_DIR = Path(__file__).resolve().parents[2] / "fonts"
REGULAR = FONT_DIR / "IBMPlexSansArabic-Regular.ttf"
BOLD = FONT_DIR / "IBMPlexSansArabic-SemiBold.ttf"

HAS_RAQM = bool(features.check("raqm"))
LAYOUT = ImageFont.Layout.RAQM if HAS_RAQM else ImageFont.Layout.BASIC
if not HAS_RAQM:  # pragma: no cover - depends on how Pillow was built
    log.warning("Pillow has no raqm: Arabic names will be drawn without shaping")

ELLIPSIS = "…"
# RLM after the ellipsis of a cut right-to-left name makes the ellipsis part of the name's
# run, so it is drawn at the name's end (its left side), where a reader of Arabic looks for
# it; LRM does the same for a cut Latin name inside a right-to-left sentence. The marks
# and the right-to-left languages are the wording's (bot.texts), one definition each.


_local = threading.local()


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled font at ``size`` pixels.

    Cached per thread: loading a face costs a few ms, and a FreeType face must not be
    used by two threads at once (the bot renders in a thread pool).
    """
    cache: dict[tuple[int, bool], ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    face = cache.get((size, bold))
    if face is None:
        face = cache[(size, bold)] = ImageFont.truetype(str(BOLD if bold else REGULAR), size, layout_engine=LAYOUT)
    return face


#: Base direction of a line in an English picture: a line that starts with an Arabic name
#: ("فاطمة to move") must still read left to right, the name as one RTL run.
#: Only raqm can set it; the basic layout is always left to right.
DIRECTION: str | None = "ltr" if HAS_RAQM else None
# The languages written right to left (bot.texts.RIGHT_TO_LEFT) have their sentences laid
# out with an RTL base direction, so a Latin name or a cell (``b2``) inside one sits where
# an Arabic reader expects it ("عمر يحرّك" with the name on the right, the verb to its left).


def direction_of(lang: str) -> str | None:
    """The base direction of the sentences of a picture in ``lang`` (see :data:`DIRECTION`):
    ``"rtl"`` for Arabic when raqm can lay it out, else the renderer's default."""
    return "rtl" if lang in RIGHT_TO_LEFT and HAS_RAQM else DIRECTION


#: A code point no font has: FreeType draws the face's missing-glyph box for it.
_NO_GLYPH = "\U0010fffd"
#: The size at which :func:`_has_glyph` draws a character to tell the box from a glyph
#: (both weights of the bundled font cover the same characters).
_PROBE_SIZE = 40


def _mask(ch: str) -> tuple[tuple[int, int], bytes] | None:
    """``ch`` drawn alone in the regular face (``None``: raqm refuses to lay it out)."""
    try:
        mask = font(_PROBE_SIZE).getmask(ch)
    except (OSError, RuntimeError, ValueError):
        return None
    return mask.size, bytes(mask)


@lru_cache(maxsize=4096)
def _has_glyph(ch: str) -> bool:
    """Whether the bundled font draws ``ch`` as itself, not as its missing-glyph box
    (a character raqm shapes away, a joiner or a mark, counts as drawn: nothing shows)."""
    drawn = _mask(ch)
    return drawn is not None and drawn != _mask(_NO_GLYPH)


def _belongs_to_previous(ch: str) -> bool:
    """An accent, a joiner, a variation selector, a skin tone or a flag's tag: part of the
    character before it, dropped with it."""
    return ord(ch) in EXTENDERS or unicodedata.category(ch) in ("Mn", "Me")


def drawable(text: str) -> str:
    """``text`` without the characters the bundled font lacks, which it would draw as
    empty boxes (outside review, stop 40: emoji and uncommon scripts in names), each
    dropped with what belongs to it (:func:`_belongs_to_previous`: the rest of an emoji
    sequence); a space left doubled by a drop is made one.

    Dropped rather than shown as a mark: a name keeps what can be read of it ("Nour 🔥"
    is drawn "Nour"), and a name of nothing else is shown by its colour
    (:func:`bot.render.board.player_names`). No free emoji font is small enough to bundle
    (Noto Color Emoji is 10 MB of bitmaps Pillow draws only at one size).
    """
    if text.isascii():
        return text
    kept: list[str] = []
    dropping = False
    for ch in text:
        if dropping and _belongs_to_previous(ch):
            continue
        dropping = not _has_glyph(ch)
        if not dropping:
            kept.append(ch)
    if len(kept) == len(text):
        return text
    return re.sub("  +", " ", "".join(kept))


def readable(text: str) -> bool:
    """Whether :func:`drawable` leaves something to read in ``text``: a letter, a digit, a
    punctuation mark or a symbol, not only spaces, invisible characters and the ellipsis
    of a cut (a name of 64 zero-width spaces, or of emoji cut at the name's limit)."""
    return any(unicodedata.category(ch)[0] in "LNPS" and ch != ELLIPSIS for ch in drawable(one_line(text)))


def width(text: str, face: ImageFont.FreeTypeFont, direction: str | None = DIRECTION) -> float:
    """The advance width of ``text`` in ``face``, shaped as it will be drawn."""
    return face.getlength(drawable(one_line(text)), direction=direction)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    face: ImageFont.FreeTypeFont,
    fill: tuple[int, ...],
    anchor: str = "la",
    direction: str | None = DIRECTION,
) -> None:
    """Draw one line with a base direction (by default the renderer's, :data:`DIRECTION`;
    an Arabic sentence passes :func:`direction_of`)."""
    draw.text(xy, drawable(one_line(text)), font=face, fill=fill, anchor=anchor, direction=direction)


def fit(
    text: str,
    size: int,
    max_width: float,
    *,
    bold: bool = False,
    min_size: int = 0,
    direction: str | None = DIRECTION,
) -> tuple[str, ImageFont.FreeTypeFont]:
    """Make ``text`` fit ``max_width``: shrink the font down to ``min_size``, then cut with an ellipsis.

    Names are free text typed by people, so they can be of any length; shrinking a
    little keeps short overflows whole, and cutting keeps very long ones in their panel.
    """
    face = font(size, bold)
    smallest = min_size or size
    head = probe(text, max_width)
    if len(head) < len(text):
        last = size - 2 * -(-(size - smallest) // 2) if size > smallest else size  # where the loop below stops
        small = font(last, bold)
        if width(head, small, direction) > max_width:  # not even its head fits: cut it at once
            cut = head[: _longest_fitting_prefix(head, small, max_width, direction)].rstrip()
            return cut + ELLIPSIS + _end_mark(cut, direction), small
    while width(text, face, direction) > max_width and size > smallest:
        size -= 2
        face = font(size, bold)
    if width(text, face, direction) <= max_width:
        return text, face
    cut = text[: _longest_fitting_prefix(text, face, max_width, direction)].rstrip()
    return cut + ELLIPSIS + _end_mark(cut, direction), face


def probe(text: str, max_width: float) -> str:
    """A head of ``text`` to measure first: when it does not fit ``max_width``, neither
    does ``text`` (a longer prefix is no narrower), and where to cut is found inside it.

    Shaping a whole hostile name costs far more than its head: with the right-to-left
    base direction of an Arabic picture, 10,000 characters of "1 1 1 ..." (each digit a
    run of its own) took a tenth of a second per measurement and a quarter of a minute per
    picture. Two characters per pixel is far more than any real text fits; only a head
    of zero-width characters fits, and then the whole text is measured as before.
    """
    return text[: 2 * max(0, int(max_width)) + 64]


def _end_mark(cut: str, direction: str | None) -> str:
    """The mark that keeps the ellipsis at the end of the cut text's own run: RLM after
    right-to-left text; LRM after left-to-right text in a right-to-left line (else the
    ellipsis of "Omar al-Kh…" in an Arabic sentence is drawn before the name)."""
    last = _last_strong(cut)
    if last == "rtl":
        return RLM
    if last == "ltr" and direction == "rtl":
        return LRM
    return ""


def _longest_fitting_prefix(
    text: str, face: ImageFont.FreeTypeFont, max_width: float, direction: str | None = DIRECTION
) -> int:
    """The length of the longest prefix of ``text`` that fits ``max_width`` with the ellipsis.

    A binary search: cutting one character at a time measured the whole rest again each
    time, so a name of 10,000 characters took over a minute per picture. Shaping can make
    a longer prefix a little narrower (a joined Arabic letter), so the width is only
    nearly monotonic; the last loop makes sure the answer fits whatever the search found.
    """
    low, high = 0, len(text)  # the prefix of length ``low`` fits (the empty one is assumed to)
    while low < high:
        middle = (low + high + 1) // 2
        if width(text[:middle] + ELLIPSIS, face, direction) <= max_width:
            low = middle
        else:
            high = middle - 1
    while low and width(text[:low] + ELLIPSIS, face, direction) > max_width:
        low -= 1
    return low


def is_cut(line: str) -> bool:
    """Whether :func:`fit` had to cut ``line`` (it ends with the ellipsis)."""
    return line.removesuffix(RLM).removesuffix(LRM).endswith(ELLIPSIS)


def _last_strong(text: str) -> str | None:
    """The direction of the last strongly directional letter of ``text``: ``"rtl"``
    (Arabic, Hebrew), ``"ltr"`` or ``None``. Only raqm applies the bidirectional
    algorithm; the basic layout would draw a mark as a missing glyph, so it gets ``None``."""
    if not HAS_RAQM:
        return None
    for ch in reversed(text):
        kind = unicodedata.bidirectional(ch)
        if kind in ("R", "AL"):
            return "rtl"
        if kind == "L":
            return "ltr"
    return None
