"""One 256-colour palette per (board size, theme, image size), made once from a sample image.

A paletted PNG is a third of the bytes of an RGB one and encodes several times faster,
and these pictures (flat sand, a few gradients, anti-aliased edges) lose nothing visible
at 256 colours. Quantizing each image adaptively would cost more than drawing it;
mapping onto a fixed palette is a table lookup. The palette comes from a sample board
with every kind of mark on it, plus exact ramps for the thin coloured marks (arrows,
X marks, outlines) that median cut could merge into the sand.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import Image

from bot.render.overlay import ARRIVED_ALPHA, GLOW, LEFT_ALPHA, TAKEN_ALPHA
from bot.render.theme import RGB, Theme, get_theme
from engine import Outcome, Position, Ruleset
from engine.summary import TurnSummary

#: How a board is drawn: ``bot.render.board.board_image`` (which maps its images onto
#: these palettes, so it is handed in rather than imported).
Draw = Callable[..., Image.Image]


def _sample_position(n: int) -> tuple[Position, TurnSummary]:
    """A board with both colours, an empty centre and a turn with every kind of mark."""
    rows = []
    for r in range(n):
        rows.append("".join("b" if (r + f) % 3 == 0 else "w" if (r + f) % 3 == 1 else "1" for f in range(n)))
    board = "/".join(rows)
    pos = Position.from_spn(f"{board} b m 0/0 - 0 30", Ruleset.make("modern-3x3" if n == 3 else "standard", n))
    empty = [c for c in range(n * n) if not (pos.bb[0] | pos.bb[1]) >> c & 1]
    black = [c for c in range(n * n) if pos.bb[0] >> c & 1]
    a, t, d = empty[0], black[0], empty[-1]
    turn = TurnSummary(
        side=0, actions=(), placed=(black[-1],), steps=((a, t), (t, a)), captured=((d, 1),), removed=((empty[1], 0),)
    )
    return pos, turn


def _ramp(a: RGB, b: RGB, steps: int) -> list[RGB]:
    return [
        tuple(round(a[i] + (b[i] - a[i]) * k / (steps - 1)) for i in range(3))  # type: ignore[misc]
        for k in range(steps)
    ]


def _blend(a: RGB, b: RGB, alpha: int) -> RGB:
    return _ramp(a, b, 256)[alpha]


def _flat(theme: Theme) -> list[RGB]:
    """The exact flat colours (large areas must not shift to a neighbour's shade)."""
    out = [
        theme.frame,
        theme.card,
        theme.text,
        theme.muted,
        theme.accent,
        theme.slab,
        theme.slab_edge,
        theme.groove,
        theme.cell,
        theme.bevel_dark,
        theme.bevel_light,
        theme.coord,
        theme.move,
        theme.capture,
    ]
    for base in (theme.cell, theme.bevel_dark, theme.bevel_light):
        out += [
            _blend(base, GLOW, LEFT_ALPHA),
            _blend(base, GLOW, ARRIVED_ALPHA),
            _blend(base, theme.capture, TAKEN_ALPHA),
        ]
    return out


def _ramps(theme: Theme) -> list[RGB]:
    """Exact colours for thin marks and for the stones' smooth shading."""
    white: RGB = (255, 255, 255)
    out: list[RGB] = _flat(theme)
    for mark in (theme.move, theme.capture):
        for base in (white, GLOW, theme.cell):
            out.extend(_ramp(mark, base, 6))
    out.extend(_ramp(theme.accent, theme.frame, 6))
    out.extend(_ramp(theme.accent, theme.card, 6))
    out.extend(_ramp(theme.accent, theme.cell, 4))
    out.extend(_ramp(theme.black_base, theme.black_light, 16))
    out.extend(_ramp(theme.black_light, white, 10))
    out.extend(_ramp(theme.white_shade, theme.white_base, 10))
    return out


@lru_cache(maxsize=24)
def palette_image(n: int, theme_name: str, size: tuple[int, int], board_image: Draw) -> Image.Image:
    """The palette (as a 1x1 ``P`` image usable by ``Image.quantize``) for these boards,
    sampled from boards drawn by ``board_image``."""
    theme = get_theme(theme_name)
    pos, turn = _sample_position(n)
    a = board_image(pos, turn, theme=theme_name, size=size)
    b = board_image(pos, turn, theme=theme_name, outcome=Outcome(0, "capture-all"), size=size)
    sample = Image.new("RGB", (a.width * 2, a.height))
    sample.paste(a, (0, 0))
    sample.paste(b, (a.width, 0))
    ramps = _ramps(theme)
    count = 256 - len(ramps)
    adaptive = sample.quantize(colors=count, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    colors = adaptive.getpalette()[: 3 * count]  # type: ignore[index]
    for c in ramps:
        colors.extend(c)
    colors = colors[: 3 * 256]
    colors.extend([0] * (3 * 256 - len(colors)))
    pal = Image.new("P", (1, 1))
    pal.putpalette(colors)
    return pal
