"""Charts: a review's evaluation graph and a player's rating history, as PNGs.

Both are drawn in the board's colours (sand plot on the dark card) with the bundled
font, so they sit well beside the board images in Discord's dark and light modes. The
words (title, axis names, legend) come in as arguments: wording lives in the locale
files, the renderer only draws.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from bot.render.board import encode_png
from bot.render.fonts import direction_of, draw_text, fit, font, width
from bot.render.theme import RGB, get_theme
from bot.texts import FALLBACK, RIGHT_TO_LEFT

WIDTH, HEIGHT = 900, 460
SS = 2  # supersampling for the curves
#: Colours of the marks on the evaluation graph (shapes differ too: X, ring).
BLUNDER: RGB = (206, 44, 28)
MISTAKE: RGB = (232, 128, 20)
#: One line colour per board size on the rating chart (dashes differ as well).
SIZE_COLOURS: dict[int, RGB] = {3: (150, 150, 150), 5: (28, 96, 204), 7: (16, 140, 72), 9: (170, 60, 150)}
#: The most points one line of the rating chart is drawn with (see :func:`downsample`).
MAX_POINTS = 1000
#: Steps of the rating chart's grid, the first giving at most six lines is used.
RATING_STEPS = (10, 25, 50, 100, 200, 500, 1000)


@dataclass(frozen=True)
class ChartWords:
    """The words a chart shows, already in the reader's language.

    Attributes:
        title: the line above the plot.
        top, bottom: what the top and bottom of the value axis mean ("Black better").
        x_axis: the name of the horizontal axis ("turn", "rated games").
        legend: labels for the marks or lines, by key (``blunder``, ``mistake``, ``5``...).
        lang: the words' language. Written right to left (Arabic), the title, the labels
            and the legend stand at the right and read from there, each legend dot to the
            right of its label (native play-test: "● خطأ فادح ● خطأ" read as if each dot
            belonged to the next label, and the title "... You :المباراة رقم 1" ran left to
            right). The plot itself keeps time running left to right.
    """

    title: str
    top: str = ""
    bottom: str = ""
    x_axis: str = ""
    legend: Mapping[str, str] | None = None
    lang: str = FALLBACK

    @property
    def rtl(self) -> bool:
        """Whether the words are laid out from the right."""
        return self.lang in RIGHT_TO_LEFT

    @property
    def direction(self) -> str | None:
        """The base direction the words are laid out in."""
        return direction_of(self.lang)


def _frame(words: ChartWords, theme: str) -> tuple[Image.Image, ImageDraw.ImageDraw, tuple[int, int, int, int]]:
    th = get_theme(theme)
    img = Image.new("RGB", (WIDTH, HEIGHT), th.frame)
    draw = ImageDraw.Draw(img)
    text, face = fit(words.title, 30, WIDTH - 48, bold=True, min_size=20, direction=words.direction)
    if words.rtl:
        draw_text(draw, (WIDTH - 24, 18), text, face, th.text, anchor="ra", direction=words.direction)
    else:
        draw_text(draw, (24, 18), text, face, th.text)
    plot = (86, 70, WIDTH - 28, HEIGHT - 70)
    draw.rounded_rectangle(plot, radius=10, fill=th.slab, outline=th.slab_edge, width=3)
    return img, draw, plot


def _x(plot: tuple[int, int, int, int], i: float, count: int) -> float:
    left, _top, right, _bottom = plot
    return left + 14 + (right - left - 28) * (i / max(1, count - 1))


#: The steps between labelled indexes, round numbers up to a billion: past 8,000 games
#: the step jumped from 1,000 to a billion, and a long history showed only "0".
_STEPS = (1, 2, 5, 10, 20, 25, 50, *(m * 10**e for e in range(2, 10) for m in (1, 2, 5)))


def _ticks(count: int, first: int) -> list[int]:
    """Indexes to label on the horizontal axis: about eight round numbers."""
    if count <= 1:
        return [0]
    step = next(s for s in _STEPS if (count - 1) / s <= 8)
    return [i for i in range(count) if (first + i) % step == 0 or i == 0]


def evaluation_chart(
    curve: Sequence[float],
    marks: Mapping[int, str],
    words: ChartWords,
    *,
    first_turn: int = 0,
    theme: str = "sand",
) -> bytes:
    """The evaluation graph of a review as PNG bytes.

    Args:
        curve: Black's expected score (0..1) at every position: before the first turn,
            then after each turn. Up is better for Black.
        marks: position index (after turn i is index i + 1) -> ``blunder`` or ``mistake``.
        words: the title, the meaning of up and down, the axis and the legend.
        first_turn: the number of the turn before the first point (for the axis labels).
        theme: a board theme, for the colours.
    """
    th = get_theme(theme)
    curve = list(curve) or [0.5]
    img, draw, plot = _frame(words, theme)
    left, top, right, bottom = plot
    mid = (top + bottom) / 2
    count = max(2, len(curve))
    pts = [(_x(plot, i, count), bottom - 12 - (bottom - top - 24) * min(1.0, max(0.0, v))) for i, v in enumerate(curve)]
    if len(pts) == 1:
        pts.append((right - 14, pts[0][1]))
    # The area between the curve and the middle: dark where Black leads, light where White does.
    big = Image.new("RGBA", (WIDTH * SS, HEIGHT * SS), (0, 0, 0, 0))
    bd = ImageDraw.Draw(big)
    for (x0, y0), (x1, y1) in itertools.pairwise(pts):
        for colour, above in ((th.black_base, True), (th.white_base, False)):
            a0 = min(y0, mid) if above else max(y0, mid)
            a1 = min(y1, mid) if above else max(y1, mid)
            poly = [(x0, mid), (x0, a0), (x1, a1), (x1, mid)]
            bd.polygon([(x * SS, y * SS) for x, y in poly], fill=(*colour, 200))
    bd.line([(x * SS, y * SS) for x, y in pts], fill=(*th.groove, 255), width=3 * SS, joint="curve")
    small = big.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)
    img.paste(small, (0, 0), small)
    draw.line((left + 6, mid, right - 6, mid), fill=th.coord, width=1)
    small_face = font(17)
    for idx, kind in sorted(marks.items()):
        if not 0 <= idx < len(pts):
            continue
        x, y = pts[idx]
        draw.line((x, top + 6, x, bottom - 6), fill=(*th.slab_edge,), width=1)
        colour = BLUNDER if kind == "blunder" else MISTAKE
        r = 9 if kind == "blunder" else 7
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=(255, 255, 255), width=2)
        if kind == "blunder":
            draw.line((x - 4, y - 4, x + 4, y + 4), fill=(255, 255, 255), width=2)
            draw.line((x - 4, y + 4, x + 4, y - 4), fill=(255, 255, 255), width=2)
    label_face = font(17, bold=True)
    side, align = (right - 14, "r") if words.rtl else (left + 14, "l")
    draw_text(draw, (side, top + 8), words.top, label_face, th.coord, f"{align}a", words.direction)
    draw_text(draw, (side, bottom - 8), words.bottom, label_face, th.coord, f"{align}d", words.direction)
    draw_text(draw, (left - 10, mid), "50%", small_face, th.muted, anchor="rm")
    for i in _ticks(len(curve), first_turn):
        x = _x(plot, i, count)
        draw_text(draw, (x, bottom + 8), str(first_turn + i), small_face, th.muted, anchor="ma")
    _axis_and_legend(draw, words, (("blunder", BLUNDER), ("mistake", MISTAKE)), plot, small_face, th.muted)
    return encode_png(img)


def _axis_and_legend(
    draw: ImageDraw.ImageDraw,
    words: ChartWords,
    items: Sequence[tuple[str, RGB]],
    plot: tuple[int, int, int, int],
    face: ImageFont.FreeTypeFont,
    colour: RGB,
) -> None:
    """Under the plot: the axis name at the end the words are read towards, the legend
    at the end they are read from (left in English, right in Arabic)."""
    left, _top, right, bottom = plot
    y = bottom + 32
    if words.rtl:
        draw_text(draw, (left, y), words.x_axis, face, colour, "la", words.direction)
    else:
        draw_text(draw, (right, y), words.x_axis, face, colour, "ra")
    labels = words.legend or {}
    x = float(right if words.rtl else left)
    for key, dot in items:
        label = labels.get(key)
        if not label:
            continue
        span = width(label, face, words.direction)
        if words.rtl:  # the dot first, at the right, then its label to its left
            draw.ellipse((x - 14, y + 3, x, y + 17), fill=dot, outline=(255, 255, 255), width=2)
            draw_text(draw, (x - 20, y), label, face, (236, 226, 204), "ra", words.direction)
            x -= 40 + span
        else:
            draw.ellipse((x, y + 3, x + 14, y + 17), fill=dot, outline=(255, 255, 255), width=2)
            draw_text(draw, (x + 20, y), label, face, (236, 226, 204))
            x += 40 + span


def downsample(values: Sequence[float], limit: int = MAX_POINTS) -> list[tuple[int, float]]:
    """The points of a rating line worth drawing, as ``(game index, rating)`` in order.

    A series of at most ``limit`` values is kept whole. A longer one keeps its first
    and last values and, cutting the rest into ``(limit - 2) // 2`` runs of consecutive
    games, the lowest and the highest of each run: at most ``limit`` points.

    Why this choice: the plot is about 800 pixels wide, so a line of 100,000 games drew
    about a hundred points into every pixel column (outside review: 0.94 s for a picture
    that looks no different). A line through each column's lowest and highest value
    draws the same band. Taking every n-th game instead would cut the peaks and dips
    off, changing the chart's shape and the axis it implies. The first value is the
    starting rating and the last one the current rating, marked with a dot; the lowest
    and highest of all are among the runs' extremes, so the line still reaches the
    axis range computed from every game. Indexes are kept, so the points stand where
    their games stand on the horizontal axis.
    """
    n = len(values)
    if n <= limit:
        return list(enumerate(values))
    runs = max(1, (limit - 2) // 2)
    kept = {0, n - 1}
    for r in range(runs):
        first, end = 1 + (n - 2) * r // runs, 1 + (n - 2) * (r + 1) // runs
        if first < end:
            run = range(first, end)
            kept.add(min(run, key=values.__getitem__))
            kept.add(max(run, key=values.__getitem__))
    return [(i, values[i]) for i in sorted(kept)]


def rating_chart(series: Mapping[int, Sequence[float]], words: ChartWords, *, theme: str = "sand") -> bytes:
    """A player's rating after each rated game, one line per board size, as PNG bytes.

    Args:
        series: board size -> ratings in game order (the first value is the rating
            before the first game). Sizes with no games are left out by the caller.
            A line of more than :data:`MAX_POINTS` values is drawn through the points
            :func:`downsample` keeps (the caller fetches every rated game).
        words: title, axis name, and ``legend[str(size)]`` for each line.
        theme: a board theme, for the colours.
    """
    th = get_theme(theme)
    img, draw, plot = _frame(words, theme)
    left, top, right, bottom = plot
    values = [v for s in series.values() for v in s]
    low, high = (min(values), max(values)) if values else (1400.0, 1600.0)
    pad = max(25.0, (high - low) * 0.12)
    low, high = low - pad, high + pad
    longest = max((len(s) for s in series.values()), default=2)
    count = max(2, longest)
    face = font(17)

    def y_of(v: float) -> float:
        return bottom - 12 - (bottom - top - 24) * (v - low) / (high - low)

    # Past the largest step (a spread of some 6,000 points: only a test or a broken
    # rating could do it), whole thousands giving at most six lines.
    step = next((s for s in RATING_STEPS if (high - low) / s <= 6), 1000 * math.ceil((high - low) / 6000))
    tick = int(low // step + 1) * step
    while tick < high:
        y = y_of(tick)
        draw.line((left + 6, y, right - 6, y), fill=th.bevel_dark, width=1)
        draw_text(draw, (left - 10, y), str(tick), face, th.muted, anchor="rm")
        tick += step
    big = Image.new("RGBA", (WIDTH * SS, HEIGHT * SS), (0, 0, 0, 0))
    bd = ImageDraw.Draw(big)
    for size, ratings in sorted(series.items()):
        colour = SIZE_COLOURS.get(size, th.groove)
        pts = [(_x(plot, i, count) * SS, y_of(v) * SS) for i, v in downsample(ratings)]
        if len(pts) >= 2:
            bd.line(pts, fill=(*colour, 255), width=4 * SS, joint="curve")
        for px, py in pts[-1:] if len(ratings) > 12 else pts:
            r = 5 * SS
            bd.ellipse((px - r, py - r, px + r, py + r), fill=(*colour, 255), outline=(255, 255, 255, 255), width=SS)
    small = big.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)
    img.paste(small, (0, 0), small)
    for i in _ticks(count, 0):
        draw_text(draw, (_x(plot, i, count), bottom + 8), str(i), face, th.muted, anchor="ma")
    legend = [(str(s), SIZE_COLOURS.get(s, th.groove)) for s in sorted(series)]
    _axis_and_legend(draw, words, legend, plot, face, th.muted)
    return encode_png(img)
