"""Compose one board image: static layer, last-turn marks, stones, header and footer."""

from __future__ import annotations

import io
import logging

from PIL import Image

from bot.render.fonts import readable
from bot.render.layout import HEIGHT, WIDTH, layout
from bot.render.overlay import (
    arrows,
    chain_landings,
    chain_marks,
    chain_places,
    chain_rings,
    ghosts,
    line_cells,
    removal_marks,
    shuttle_marks,
    strike_line,
    taken_marks,
    tint_cells,
)
from bot.render.palette import palette_image
from bot.render.panels import footer, header
from bot.render.sprites import stone
from bot.render.static import static_layer
from bot.render.theme import get_theme
from bot.render.words import colour_name
from bot.texts import FALLBACK, plain_name
from engine import Outcome, Position, Ruleset
from engine.actions import REMOVE, STEP
from engine.position import ANY
from engine.summary import TurnSummary, shuttle_holds

log = logging.getLogger(__name__)

#: zlib level for the PNGs: level 1 is several times faster than the default 6 and the
#: images (flat colours, few gradients) stay far below Discord-friendly sizes.
PNG_COMPRESS_LEVEL = 1


def player_names(players: tuple[str, str], lang: str = FALLBACK) -> tuple[str, str]:
    """Names to show: a name with nothing to read (blank, invisible, or only characters the
    font lacks, :func:`~bot.render.fonts.readable`: all emoji) falls back to the colour, in
    the picture's language."""
    black, white = (p.strip() if p and readable(plain_name(p)) else "" for p in players)
    return (black or colour_name(0, lang), white or colour_name(1, lang))


def removable_cells(position: Position) -> list[int]:
    """The board's cells (bit indexes) holding a piece the side to act may remove now.

    A removal is due exactly in the ``r`` phase (as ``explain.removals.removal_line``
    reads it), so the legal actions are listed only then, not on every board drawn.
    """
    if position.result is not None or position.phase != "r":
        return []
    geo = position.geo
    return [geo.index(a.src) for a in position.legal_actions() if a.kind == REMOVE]


def chain_steps(position: Position) -> list[tuple[int, int]]:
    """The capturing steps (bit indexes, from and to) the side to act may take next in a
    pending chain: the engine's legal steps while a chain goes on (the state names the
    piece under ``chain=same``, or is ``ANY``); empty outside a chain."""
    if position.result is not None or position.phase != "m":
        return []
    if position.state < 0 and position.state != ANY:
        return []
    geo = position.geo
    return [(geo.index(a.src), geo.index(a.dst)) for a in position.legal_actions() if a.kind == STEP]


def board_image(
    position: Position,
    last_turn: TurnSummary | None = None,
    *,
    players: tuple[str, str] = ("", ""),
    theme: str = "sand",
    outcome: Outcome | None = None,
    size: tuple[int, int] = (WIDTH, HEIGHT),
    time_left: float | None = None,
    lang: str = FALLBACK,
) -> Image.Image:
    """The board image as a Pillow RGB image (see :func:`render_board`)."""
    th = get_theme(theme)
    n = position.geo.n
    lay = layout(n, *size)
    img = static_layer(n, th.name, *size).copy()
    names = player_names(players, lang)
    outcome = outcome or position.outcome()
    if last_turn is not None:
        tint_cells(img, lay, th, last_turn)
    r = lay.stone_radius
    occupied = 0
    for color in (0, 1):
        bits = position.bb[color]
        occupied |= bits
        sprite = stone(th, color, r)
        half = sprite.width / 2
        while bits:
            low = bits & -bits
            cell = low.bit_length() - 1
            bits ^= low
            cx, cy = lay.centre_of(cell)
            img.paste(sprite, (round(cx - half), round(cy - half)), sprite)
    chain = chain_steps(position) if outcome is None else []
    if last_turn is not None:
        ghosts(img, lay, th, last_turn, occupied, position.phase)
    places = chain_places(lay, th, position.side, chain, last_turn.steps if last_turn is not None else ())
    chain_marks(img, lay, th, position.side, places)
    if last_turn is not None:
        arrows(img, lay, th, last_turn)
        taken_marks(img, lay, th, last_turn, occupied, position.phase)
    chain_landings(img, lay, th, position.side, places)
    chain_rings(img, lay, th, position.side, chain)
    if outcome is None and position.phase == "m":
        shuttle_marks(img, lay, th, shuttle_holds(position, position.side))
    if outcome is None:
        removal_marks(img, lay, th, removable_cells(position))
    if outcome is not None and outcome.reason == "line" and outcome.winner is not None:
        k = position.rules.win_line or n
        strike_line(img, lay, th, line_cells(position.bb[outcome.winner], n, k))
    header(img, lay, th, position, names, outcome, lang)
    footer(img, lay, th, position, last_turn, names, outcome, time_left, lang)
    return img


def encode_png(img: Image.Image) -> bytes:
    """PNG bytes of ``img`` (any mode) with the renderer's compression settings."""
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


def to_palette(img: Image.Image, n: int, theme: str) -> Image.Image:
    """``img`` mapped onto the cached palette of its board size and theme (no dithering)."""
    pal = palette_image(n, theme, img.size, board_image)
    return img.quantize(palette=pal, dither=Image.Dither.NONE)


def render_board(
    position: Position,
    last_turn: TurnSummary | None = None,
    *,
    players: tuple[str, str] = ("", ""),
    theme: str = "sand",
    outcome: Outcome | None = None,
    time_left: float | None = None,
    lang: str = FALLBACK,
) -> bytes:
    """The board as a PNG, 720 x 900 (4:5 portrait, whole in phone previews).

    Args:
        position: what to draw; the result, the side to act, the turn number and the
            ruleset all come from it.
        last_turn: the turn that led to ``position`` (``engine.summary.summarize_turn``),
            shown with arrows, highlights and crossed-out ghosts; ``None`` for none.
        players: the names of Black and White (any script; Arabic is shaped).
        theme: a key of ``bot.render.theme.THEMES``.
        outcome: an end the position cannot know (resignation, time-out, agreement);
            by default ``position.outcome()``.
        time_left: seconds left for the turn of the side to act, shown beside the turn
            number as a clock; ``None`` for none (games without a clock, finished games).
        lang: the language of the picture's words (``en``, ``ar``: a key of
            ``bot.texts.LANGUAGES``); English by default. Arabic is laid out right to left.

    Pure and CPU-bound (about 10-20 ms): call it off the event loop.
    """
    img = board_image(
        position, last_turn, players=players, theme=theme, outcome=outcome, time_left=time_left, lang=lang
    )
    return encode_png(to_palette(img, position.geo.n, theme))


def warm_up(sizes: tuple[int, ...] = (5, 7, 9), themes: tuple[str, ...] = ("sand",)) -> None:
    """Build the cached layers, sprites and palettes ahead of the first game.

    The first board of a size costs about half a second (the palette is a median cut of
    a sample board); a bot can call this in a worker thread at start-up instead.
    """
    for theme in themes:
        for n in sizes:
            variant = "modern-3x3" if n == 3 else "standard"
            render_board(Position(Ruleset.make(variant, n)), theme=theme)
