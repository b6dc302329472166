"""The part of the image that never changes during a game, drawn once and cached.

Frame, player-panel backgrounds, the sand slab with its carved cells, the centre mark
and the coordinates depend only on (board size, theme, image size); every render starts
from a copy of this layer, which is what keeps a render within a few times the cost of
encoding the PNG.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from bot.render.fonts import font
from bot.render.layout import Layout, layout
from bot.render.sprites import centre_mark
from bot.render.theme import RGB, Theme, get_theme

FILES = "abcdefghi"


def _vertical_gradient(size: tuple[int, int], top: RGB, bottom: RGB) -> Image.Image:
    """A top-to-bottom gradient, made as a 1-pixel column and stretched (fast)."""
    h = size[1]
    col = Image.new("RGB", (1, h))
    col.putdata([tuple(round(top[i] + (bottom[i] - top[i]) * y / max(1, h - 1)) for i in range(3)) for y in range(h)])
    return col.resize(size, Image.Resampling.NEAREST)


def _rounded_mask(size: tuple[int, int], radius: int) -> Image.Image:
    mask = Image.new("L", (size[0] * 4, size[1] * 4), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, mask.width - 1, mask.height - 1), radius * 4, fill=255)
    return mask.resize(size, Image.Resampling.LANCZOS)


def _darker(c: RGB, f: float) -> RGB:
    return (round(c[0] * f), round(c[1] * f), round(c[2] * f))


def _draw_slab(img: Image.Image, lay: Layout, theme: Theme) -> None:
    x0, y0, x1, y1 = lay.slab
    size = (x1 - x0, y1 - y0)
    radius = max(10, size[0] // 36)
    # A soft shadow under the slab lifts it off the frame.
    pad = 24
    sh = Image.new("L", (size[0] + 2 * pad, size[1] + 2 * pad), 0)
    ImageDraw.Draw(sh).rounded_rectangle((pad, pad + 6, pad + size[0], pad + size[1] + 6), radius, fill=150)
    sh = sh.filter(ImageFilter.GaussianBlur(10))
    img.paste((8, 5, 2), (x0 - pad, y0 - pad), sh)
    slab = _vertical_gradient(size, theme.slab, _darker(theme.slab, 0.93))
    d = ImageDraw.Draw(slab)
    d.rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), radius, outline=theme.slab_edge, width=3)
    d.rounded_rectangle((3, 3, size[0] - 4, size[1] - 4), radius - 3, outline=theme.bevel_light, width=2)
    img.paste(slab, (x0, y0), _rounded_mask(size, radius))


def _draw_cells(img: Image.Image, lay: Layout, theme: Theme) -> None:
    d = ImageDraw.Draw(img)
    gx0, gy0, gx1, gy1 = lay.grid
    g = lay.groove
    border = g + 2
    d.rectangle((gx0 - border, gy0 - border, gx1 + border - 1, gy1 + border - 1), fill=theme.groove)
    half = g // 2
    bevel = max(2, lay.cell // 28)
    for i in range(lay.n * lay.n):
        x0, y0, x1, y1 = lay.cell_box(i)
        # The groove is shared by neighbours: each cell gives up half of it on every side.
        cx0, cy0, cx1, cy1 = x0 + half + (g % 2), y0 + half + (g % 2), x1 - half - 1, y1 - half - 1
        d.rectangle((cx0, cy0, cx1, cy1), fill=theme.cell)
        # Carved: the top and left inner edges in shadow, the bottom and right in light.
        d.rectangle((cx0, cy0, cx1, cy0 + bevel - 1), fill=theme.bevel_dark)
        d.rectangle((cx0, cy0, cx0 + bevel - 1, cy1), fill=theme.bevel_dark)
        d.rectangle((cx0 + bevel, cy1 - bevel + 1, cx1, cy1), fill=theme.bevel_light)
        d.rectangle((cx1 - bevel + 1, cy0 + bevel, cx1, cy1), fill=theme.bevel_light)
    centre = (lay.n * lay.n) // 2
    mark = centre_mark(theme, lay.cell)
    x0, y0, _, _ = lay.cell_box(centre)
    img.paste(mark, (x0, y0), mark)


def _draw_coordinates(img: Image.Image, lay: Layout, theme: Theme) -> None:
    d = ImageDraw.Draw(img)
    size = max(14, min(22, round(lay.width / 720 * 21)))
    face = font(size, bold=True)
    gx0, gy0, gx1, gy1 = lay.grid
    sx0, sy0, sx1, sy1 = lay.slab
    top_mid = (sy0 + gy0 - lay.groove) / 2
    bottom_mid = (gy1 + lay.groove + sy1) / 2
    left_mid = (sx0 + gx0 - lay.groove) / 2
    right_mid = (gx1 + lay.groove + sx1) / 2
    for f in range(lay.n):
        x = gx0 + (f + 0.5) * lay.cell
        for y in (top_mid, bottom_mid):
            d.text((x, y), FILES[f], font=face, fill=theme.coord, anchor="mm")
    for r in range(lay.n):
        y = gy0 + (lay.n - 1 - r + 0.5) * lay.cell
        for x in (left_mid, right_mid):
            d.text((x, y), str(r + 1), font=face, fill=theme.coord, anchor="mm")


def _draw_cards(img: Image.Image, lay: Layout, theme: Theme) -> None:
    d = ImageDraw.Draw(img)
    for box in lay.cards:
        d.rounded_rectangle(box, radius=16, fill=theme.card)


@lru_cache(maxsize=24)
def static_layer(n: int, theme_name: str, width: int, height: int) -> Image.Image:
    """The unchanging background of an ``n x n`` board image (do not modify: copy it)."""
    theme = get_theme(theme_name)
    lay = layout(n, width, height)
    img = Image.new("RGB", (width, height), theme.frame)
    _draw_cards(img, lay, theme)
    _draw_slab(img, lay, theme)
    _draw_cells(img, lay, theme)
    _draw_coordinates(img, lay, theme)
    return img
