"""Characters the bundled font lacks (emoji, uncommon scripts) are never drawn as empty
boxes in a picture (outside review, stop 40); a name of nothing else shows its colour."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import ImageDraw

from bot.render import render_board
from bot.render.board import colour_name
from bot.render.fonts import font
from bot.texts import shown_name
from engine import Position

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
CUNEIFORM = "\U0001242b"
#: A code point no font has: what FreeType draws for a missing character (the box).
MISSING = "\U0010fffd"


def _mask(face: Any, ch: str) -> tuple[Any, bytes]:
    mask = face.getmask(ch)
    return mask.size, bytes(mask)


def _boxes(text: str) -> list[str]:
    """The characters of ``text`` the bundled font draws as its missing-glyph box."""
    face = font(40)
    box = _mask(face, MISSING)
    return [ch for ch in text if not ch.isspace() and _mask(face, ch) == box]


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_emoji_in_names_are_not_drawn_as_boxes(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[str] = []
    real = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kw: Any) -> None:
        drawn.append(str(text))
        real(self, xy, text, *args, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    pos = Position.from_spn("bbb2/5/5/5/ww3 b m 0/0 - 0 30")
    names = (shown_name(FAMILY + "\U0001f525" + CUNEIFORM), shown_name("Nour \U0001f525 **\u0646\u0648\u0631**"))
    with open(f"/tmp/names_{lang}.png", "wb") as out:
        out.write(render_board(pos, players=names, lang=lang))
    assert [text for text in drawn if _boxes(text)] == []
    assert [text for text in drawn if "\\" in text or "\u2060" in text] == [], "no escape is drawn"
    assert any(colour_name(0, lang) in text for text in drawn), "a name of emoji only: its colour is shown"
    assert any("Nour" in text and "**\u0646\u0648\u0631**" in text for text in drawn), drawn
