"""The coach's pictures in one place, for the service's injected ``pictures`` object.

The service never imports ``bot.render`` itself (it may run without Pillow); the bot
hands it this module, whose functions are pure and CPU-bound (the service calls them in
a thread).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import ImageDraw

from bot.render import words
from bot.render.board import board_image, encode_png, render_board
from bot.render.chart import ChartWords, evaluation_chart, rating_chart
from bot.render.fonts import readable
from bot.render.hint import suggestion_image
from bot.render.layout import layout
from bot.render.theme import RGB
from bot.texts import FALLBACK
from engine.position import Position

#: The ring around a lesson's cells: orange, apart from the blue of a move, the green of
#: a hint and the red of a capture, and strong enough on the sand board.
LOOK: RGB = (222, 100, 10)

__all__ = ["board_png", "chart_words", "evaluation_chart", "rating_chart", "shown_name", "suggestion_image"]


def board_png(
    position: Position,
    *,
    players: tuple[str, str] = ("", ""),
    marks: Sequence[str] = (),
    lang: str = FALLBACK,
) -> bytes:
    """The plain board of a puzzle or a lesson, its words in ``lang`` (the reader's).

    ``marks`` (cell names) are ringed in :data:`LOOK`: the cells a lesson's words point
    at ("capture the black piece on b2"), so a newcomer finds them at once.
    """
    if not marks:
        return render_board(position, players=players, lang=lang)
    img = board_image(position, players=players, lang=lang)
    lay = layout(position.geo.n, img.width, img.height)
    draw = ImageDraw.Draw(img)
    edge = max(4, lay.cell // 14)
    for name in marks:
        x0, y0, x1, y1 = lay.cell_box(position.geo.names.index(name))
        box = (x0 + edge // 2, y0 + edge // 2, x1 - edge // 2, y1 - edge // 2)
        draw.rounded_rectangle(box, radius=lay.cell // 5, outline=LOOK, width=edge)
    return encode_png(img)


def chart_words(
    title: str,
    top: str = "",
    bottom: str = "",
    x_axis: str = "",
    legend: Mapping[str, str] | None = None,
    lang: str = FALLBACK,
) -> ChartWords:
    """The words of a chart in ``lang`` (see :class:`bot.render.chart.ChartWords`)."""
    return ChartWords(title, top, bottom, x_axis, legend, lang)


def shown_name(name: str, lang: str = FALLBACK, fallback: str | None = None) -> str:
    """A player's name as the pictures say it (the console's "You" in ``lang``); with
    ``fallback`` (a colour word, or ``""``), that instead of a name the font cannot draw
    (all emoji, :func:`~bot.render.fonts.readable`), as the board pictures show such a
    name by its colour (:func:`~bot.render.board.player_names`; play-test pt40b: "Game #4:
    Alexandria vs")."""
    shown = words.shown_name(name, lang)
    return fallback if fallback is not None and not readable(shown) else shown
