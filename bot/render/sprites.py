"""Stones, ghosts and marks drawn once at 4x and scaled down, then cached.

Pillow draws shapes without anti-aliasing, so every round or slanted shape is drawn on
a supersampled canvas and reduced with a Lanczos filter. Doing that per render would
cost far more than the whole picture, so each sprite is made once per (theme, size).

The two colours differ in more than colour, for colour-blind players and for grey
screens: a black stone is solid dark with a thin light rim; a white stone is light with a
dark outer ring and an engraved inner ring.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from bot.render.theme import RGB, Theme

SS = 4  # supersampling factor
BLACK, WHITE = 0, 1


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _disc(theme: Theme, color: int, radius: int) -> Image.Image:
    """A shaded stone of ``radius`` px as RGBA at 4x, before scaling."""
    r = radius * SS
    size = 2 * r + 2 * SS
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    c = size / 2
    if color == BLACK:
        outer, inner = theme.black_base, theme.black_light
    else:
        outer, inner = theme.white_shade, theme.white_base
    # Radial gradient whose bright spot sits up and to the left: light from the top-left.
    steps = 28
    hx, hy = c - 0.38 * r, c - 0.42 * r
    for k in range(steps, 0, -1):
        t = k / steps
        rr = r * t
        cx = hx + (c - hx) * t
        cy = hy + (c - hy) * t
        shade = _mix(inner, outer, t**1.6)
        draw.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=(*shade, 255))
    # Clip to the stone's circle (the gradient's circles drift off-centre).
    mask = Image.new("L", (size, size), 0)
    ImageDraw.Draw(mask).ellipse((c - r, c - r, c + r, c + r), fill=255)
    img.putalpha(mask)
    # A soft specular spot: polished stone rather than a flat disc.
    spot = Image.new("L", (size, size), 0)
    sr = r * 0.34
    sx, sy = c - 0.36 * r, c - 0.40 * r
    ImageDraw.Draw(spot).ellipse((sx - sr, sy - sr * 0.8, sx + sr, sy + sr * 0.8), fill=60 if color == BLACK else 120)
    spot = spot.filter(ImageFilter.GaussianBlur(r * 0.16))
    white = Image.new("RGBA", (size, size), (255, 255, 255, 0))
    white.putalpha(ImageChops.multiply(spot, mask))
    img = Image.alpha_composite(img, white)
    draw = ImageDraw.Draw(img)
    if color == BLACK:
        rim = max(2 * SS, round(r * 0.07))
        draw.ellipse((c - r, c - r, c + r, c + r), outline=(*theme.black_rim, 255), width=rim)
    else:
        ring = max(2 * SS, round(r * 0.09))
        draw.ellipse((c - r, c - r, c + r, c + r), outline=(*theme.white_ring, 255), width=ring)
        ri = r * 0.52
        draw.ellipse((c - ri, c - ri, c + ri, c + ri), outline=(*theme.white_ring, 190), width=max(SS, round(r * 0.06)))
    return img


@lru_cache(maxsize=64)
def stone(theme: Theme, color: int, radius: int, shadow: bool = True) -> Image.Image:
    """A stone with its soft drop shadow, as an RGBA sprite of side ``2 * radius + margin``.

    The sprite is centred: paste it at ``(cx - side // 2, cy - side // 2)``.
    """
    margin = max(4, radius // 3)
    side = 2 * (radius + margin)
    big = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    if shadow:
        sh = Image.new("L", big.size, 0)
        r = radius * SS
        cx = big.width / 2 + 0.08 * r
        cy = big.height / 2 + 0.14 * r
        ImageDraw.Draw(sh).ellipse((cx - r, cy - r, cx + r, cy + r), fill=120)
        sh = sh.filter(ImageFilter.GaussianBlur(r * 0.12))
        shadow_img = Image.new("RGBA", big.size, (20, 12, 4, 0))
        shadow_img.putalpha(sh)
        big = Image.alpha_composite(big, shadow_img)
    disc = _disc(theme, color, radius)
    off = (big.width - disc.width) // 2
    big.alpha_composite(disc, (off, off))
    return big.resize((side, side), Image.Resampling.LANCZOS)


def _x_mark(draw: ImageDraw.ImageDraw, c: float, half: float, width: int, color: RGB, halo: int) -> None:
    """An X centred at (c, c): a white halo under the coloured strokes keeps it readable on any stone."""
    for col, w in (((255, 255, 255, 235), width + 2 * halo), ((*color, 255), width)):
        draw.line((c - half, c - half, c + half, c + half), fill=col, width=w)
        draw.line((c - half, c + half, c + half, c - half), fill=col, width=w)


#: How opaque a ghost (a captured or removed piece) is, in percent, by colour. Both were
#: 50, and over the red-washed cell a black ghost and a white one came out alike, faded
#: brownish discs: a newcomer could not tell whose piece was lost (play-test). Each now
#: keeps its colour's tone, fainter than a stone on the board and without its shadow.
GHOST_OPACITY = (80, 90)


@lru_cache(maxsize=64)
def ghost(theme: Theme, color: int, radius: int) -> Image.Image:
    """A captured or removed piece: its stone, fainter (:data:`GHOST_OPACITY`) and without
    a shadow, crossed out with an X."""
    base = stone(theme, color, radius, shadow=False)
    opacity = GHOST_OPACITY[color]
    alpha = base.getchannel("A").point(lambda a: a * opacity // 100)
    faded = base.copy()
    faded.putalpha(alpha)
    big = faded.resize((faded.width * SS, faded.height * SS), Image.Resampling.BICUBIC)
    draw = ImageDraw.Draw(big)
    c = big.width / 2
    w = max(3 * SS, round(radius * SS * 0.2))
    _x_mark(draw, c, radius * SS * 0.55, w, theme.capture, max(SS, w // 4))
    return big.resize(faded.size, Image.Resampling.LANCZOS)


@lru_cache(maxsize=32)
def taken_badge(theme: Theme, color: int, size: int) -> Image.Image:
    """A small crossed-out stone of the captured piece's colour, for a capture whose cell
    is occupied again (a chain stepped into it). A bare X in the corner of the stone that
    arrived read as if that stone had been captured (fresh-eyes play-test, stop 36)."""
    radius = size // 2
    base = stone(theme, color, radius, shadow=False)
    big = base.resize((base.width * SS, base.height * SS), Image.Resampling.BICUBIC)
    draw = ImageDraw.Draw(big)
    c = big.width / 2
    w = max(2 * SS, round(radius * SS * 0.26))
    _x_mark(draw, c, radius * SS * 0.62, w, theme.capture, max(SS, w // 4))
    return big.resize(base.size, Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def centre_mark(theme: Theme, cell: int) -> Image.Image:
    """The traditional mark of the middle cell: a carved inner square with its diagonals.

    Sand boards in Egypt mark the centre square with a cross from corner to corner; it
    is the cell left empty during placement and, in most rules, the safe one. The inner
    frame keeps the cell recognisable when a stone covers the cross. It is drawn under
    every ruleset, as a board is carved once for all of them: it marks the middle cell,
    not a rule (under ``ludii`` the centre is not safe, and the rules text says so; a
    play-tester asked, stop 37).
    """
    big = Image.new("RGBA", (cell * SS, cell * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    s = big.width
    inset = s * 0.1
    w = max(2 * SS, round(s * 0.03))
    col = (*theme.groove, 170)
    draw.rectangle((inset, inset, s - inset, s - inset), fill=(*theme.bevel_dark, 70), outline=col, width=w)
    draw.line((inset, inset, s - inset, s - inset), fill=col, width=w)
    draw.line((inset, s - inset, s - inset, inset), fill=col, width=w)
    c = s / 2
    rr = s * 0.12
    draw.ellipse((c - rr, c - rr, c + rr, c + rr), fill=(*theme.cell, 255), outline=col, width=w)
    rd = s * 0.04
    draw.ellipse((c - rd, c - rd, c + rd, c + rd), fill=col)
    return big.resize((cell, cell), Image.Resampling.LANCZOS)
