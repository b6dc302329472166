"""The coach's pictures in one place, for the service's injected ``pictures`` object.

The service never imports ``bot.render`` itself (it may run without Pillow); the bot
hands it this module, whose functions are pure and CPU-bound (the service calls them in
a thread).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.render.board import render_board
from bot.render.chart import ChartWords, evaluation_chart, rating_chart
from bot.render.hint import suggestion_image
from engine.position import Position

__all__ = ["board_png", "chart_words", "evaluation_chart", "rating_chart", "suggestion_image"]


def board_png(position: Position, *, players: tuple[str, str] = ("Black", "White")) -> bytes:
    """The plain board of a puzzle or a lesson."""
    return render_board(position, players=players)


def chart_words(
    title: str, top: str = "", bottom: str = "", x_axis: str = "", legend: Mapping[str, str] | None = None
) -> ChartWords:
    """The words of a chart (see :class:`bot.render.chart.ChartWords`)."""
    return ChartWords(title, top, bottom, x_axis, legend)
