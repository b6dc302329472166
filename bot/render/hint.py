"""Boards with a suggestion drawn on them: a hint, or a review's better move.

The board is the usual one (:func:`bot.render.board.board_image`) of the position
*before* the turn; the suggested turn is drawn over it with the renderer's own arrows and
marks, in the hint colour (:data:`HINT`), and a turn actually played (a review's key
moment) in the usual move colour beside it. Only the theme's move colour changes, so the
overlay code is reused as it is.

With a ``legend`` a strip under the footer says in words which colour is which (blue: the
turn played, green: the better one), so the picture explains itself when it is shared
without the text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from PIL import Image, ImageDraw

from bot.render.board import board_image, encode_png
from bot.render.fonts import DIRECTION, direction_of, draw_text, fit, width
from bot.render.layout import layout
from bot.render.overlay import arrows, ghosts
from bot.render.panels import side_of
from bot.render.theme import RGB, Theme, get_theme
from bot.texts import FALLBACK
from engine.actions import Action
from engine.position import Position
from engine.summary import summarize_turn

#: The suggestion's colour: green, apart from the blue of a played turn and the red of captures.
HINT: RGB = (18, 150, 70)


def _mark_turn(
    img: Image.Image, position: Position, actions: Sequence[Action], theme: Theme, dashed: bool, number_right: bool
) -> None:
    lay = layout(position.geo.n, img.width, img.height)
    summary = summarize_turn(position, actions)
    occupied = position.bb[0] | position.bb[1]
    draw = ImageDraw.Draw(img)
    edge = max(4, lay.cell // 18)
    for cell in summary.placed:
        x0, y0, x1, y1 = lay.cell_box(cell)
        inset = edge + 2 if dashed else edge
        draw.rounded_rectangle(
            (x0 + inset, y0 + inset, x1 - inset, y1 - inset), radius=lay.cell // 6, outline=theme.move, width=edge
        )
    ghosts(img, lay, theme, summary, occupied | sum(1 << c for c, _ in summary.captured), position.phase)
    arrows(img, lay, theme, summary, number_right)


def _with_legend(
    img: Image.Image, theme: Theme, entries: Sequence[tuple[RGB, str]], direction: str | None = DIRECTION
) -> Image.Image:
    """``img`` with a strip below: a colour swatch and its word per entry, read from the
    right in a right-to-left language (each swatch then to the right of its word)."""
    s = img.width / 720
    strip = round(44 * s)
    out = Image.new(img.mode, (img.width, img.height + strip), theme.frame)
    out.paste(img, (0, 0))
    draw = ImageDraw.Draw(out)
    on = side_of(0, img.width, direction)
    swatch, gap = round(18 * s), round(10 * s)
    x, mid = round(30 * s), img.height + strip // 2 - round(6 * s)
    room = (img.width - 2 * x) // max(1, len(entries)) - swatch - 2 * gap
    for colour, word in entries:
        box = on.box((x, mid - swatch // 2, x + swatch, mid + swatch // 2))
        draw.rounded_rectangle(box, radius=round(4 * s), fill=colour)
        text, face = fit(word, round(20 * s), room, min_size=round(14 * s), direction=direction)
        draw_text(draw, (on.x(x + swatch + gap), mid), text, face, theme.muted, on.anchor("lm"), direction)
        x += swatch + gap + round(width(text, face, direction)) + 3 * gap
    return out


def suggestion_image(
    position: Position,
    suggestion: Sequence[Action],
    played: Sequence[Action] = (),
    *,
    players: tuple[str, str] = ("", ""),
    theme: str = "sand",
    legend: tuple[str, str] | None = None,
    lang: str = FALLBACK,
) -> bytes:
    """PNG of ``position`` with ``suggestion`` drawn in green and ``played`` in blue.

    Args:
        position: the position before the turn (not modified).
        suggestion: the suggested turn's actions (a hint, the engine's better turn).
        played: the turn actually played, for a review's key moment (empty for a hint).
        players: the names of Black and White.
        theme: a key of ``bot.render.theme.THEMES``.
        legend: the words for the played turn and the suggestion (``None``: no legend);
            the played one is shown only when a turn was played.
        lang: the language of the board's own words (the legend comes in worded).
    """
    th = get_theme(theme)
    img = board_image(position, None, players=players, theme=theme, lang=lang)
    if played:
        _mark_turn(img, position, played, th, dashed=False, number_right=False)
    if suggestion:
        # Beside a played turn the better one numbers its placements in the other corner:
        # a cell in both (played second, better first) showed only the green number.
        _mark_turn(img, position, suggestion, replace(th, move=HINT), dashed=True, number_right=bool(played))
    if legend is not None:
        entries = ([(th.move, legend[0])] if played else []) + ([(HINT, legend[1])] if suggestion else [])
        img = _with_legend(img, th, entries, direction_of(lang))
    return encode_png(img)
