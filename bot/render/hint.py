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
from bot.render.overlay import Path, Point, arrows, ghosts, step_offsets, taken_marks
from bot.render.panels import side_of
from bot.render.theme import RGB, Theme, get_theme
from bot.texts import FALLBACK
from engine.actions import STEP, Action
from engine.position import Position
from engine.summary import TurnSummary, summarize_turn

#: The suggestion's colour: green, apart from the blue of a played turn and the red of captures.
HINT: RGB = (18, 150, 70)


#: One turn to draw: its summary, its theme (the move colour), whether the outlines of
#: its placements are inset (dashed), whether they are numbered in the right corner,
#: and how many of its first steps the turn drawn before it made too (not drawn again).
Drawn = tuple[TurnSummary, Theme, bool, bool, int]


def _mark_turns(img: Image.Image, position: Position, turns: Sequence[Drawn]) -> None:
    """The turns over the board, layer by layer: every turn's placements and ghosts, then
    every arrow, then every number, then the taken pieces' marks, so that no turn's arrow
    covers another's number."""
    lay = layout(position.geo.n, img.width, img.height)
    occupied = position.bb[0] | position.bb[1]
    draw = ImageDraw.Draw(img)
    edge = max(4, lay.cell // 18)
    drawn = [(t, skip) for t, _, _, _, skip in turns]
    steps = [step for t, skip in drawn for step in t.steps[skip:]]
    # The lanes are shared: two turns' steps between the same two cells lie side by side.
    lanes = step_offsets(steps, lay.n, lay.cell)
    offsets = []
    at = 0
    for t, skip in drawn:
        offsets.append([(0.0, 0.0)] * skip + lanes[at : at + len(t.steps) - skip])
        at += len(t.steps) - skip
    standing = [occupied | sum(1 << c for c, _ in t.captured) for t, *_ in turns]  # before the turn
    for (summary, theme, dashed, _, _), still in zip(turns, standing, strict=True):
        for cell in summary.placed:
            x0, y0, x1, y1 = lay.cell_box(cell)
            inset = edge + 2 if dashed else edge
            draw.rounded_rectangle(
                (x0 + inset, y0 + inset, x1 - inset, y1 - inset), radius=lay.cell // 6, outline=theme.move, width=edge
            )
        ghosts(img, lay, theme, summary, still, position.phase)
    numbers: list[Point] = []
    paths: list[Path] = []
    for layer in ("arrows", "numbers"):
        for (summary, theme, _, right, skip), shift in zip(turns, offsets, strict=True):
            arrows(img, lay, theme, summary, right, offsets=shift, numbers=numbers, paths=paths, skip=skip, layer=layer)
    marked: set[int] = set()
    for (summary, theme, *_), still in zip(turns, standing, strict=True):
        taken_marks(img, lay, theme, summary, still, position.phase, marked)


def shared_steps(played: Sequence[Action], better: Sequence[Action]) -> int:
    """How many steps the better turn begins with that the played turn made the same way
    (in the actions both begin with)."""
    count = 0
    for a, b in zip(played, better, strict=False):
        if a != b:
            break
        count += a.kind == STEP
    return count


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
    turns: list[Drawn] = []
    if played:
        turns.append((summarize_turn(position, played), th, False, False, 0))
    if suggestion:
        # A better line that starts as the played one did was drawn over it, and the
        # legend's "blue: played" pointed at nothing (play-test pt40): the steps both made
        # are drawn once, in blue, and the better line goes on in green, its numbers
        # counting them (1, 2 blue, then 3 green). Beside a played turn the better one
        # numbers its placements in the other corner: a cell in both (played second,
        # better first) showed only the green number.
        skip = shared_steps(played, suggestion) if played else 0
        turns.append((summarize_turn(position, suggestion), replace(th, move=HINT), True, bool(played), skip))
    _mark_turns(img, position, turns)
    if legend is not None:
        entries = ([(th.move, legend[0])] if played else []) + ([(HINT, legend[1])] if suggestion else [])
        img = _with_legend(img, th, entries, direction_of(lang))
    return encode_png(img)
