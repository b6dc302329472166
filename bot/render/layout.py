"""Where everything goes on the image, computed once per board size and image size.

The image is a 4:5 portrait card (720 x 900 by default): square previews on phones crop
square images badly, and 4:5 is what they show whole. A header with both players sits
above the board and a footer with the game state below it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

Box = tuple[int, int, int, int]

WIDTH = 720
HEIGHT = 900


@dataclass(frozen=True)
class Layout:
    """Pixel geometry of one image.

    Attributes:
        n: board size (cells per side).
        width, height: the image.
        cards: the two player panels (black, white) as (left, top, right, bottom).
        slab: the board stone, coordinates included.
        grid: the cells, from the top-left corner of the top-left cell.
        cell: the side of one cell in pixels.
        groove: the width of the carved line between cells.
        footer: the status area under the board.
    """

    n: int
    width: int
    height: int
    cards: tuple[Box, Box]
    slab: Box
    grid: Box
    cell: int
    groove: int
    footer: Box

    def cell_box(self, index: int) -> Box:
        """The pixel box of the cell with bit index ``index`` (rank 1 at the bottom)."""
        rank, file = divmod(index, self.n)
        x = self.grid[0] + file * self.cell
        y = self.grid[1] + (self.n - 1 - rank) * self.cell
        return (x, y, x + self.cell, y + self.cell)

    def centre_of(self, index: int) -> tuple[float, float]:
        """The pixel centre of a cell."""
        x0, y0, x1, y1 = self.cell_box(index)
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    @property
    def stone_radius(self) -> int:
        """Radius of a stone: large enough to read on a phone, small enough to show the cell."""
        return round(self.cell * 0.39)


@lru_cache(maxsize=32)
def layout(n: int, width: int = WIDTH, height: int = HEIGHT) -> Layout:
    """The layout of an ``n x n`` board on a ``width x height`` image (scaled from 720 x 900)."""
    s = width / WIDTH
    pad = round(18 * s)
    gap = round(12 * s)
    card_h = round(104 * s)
    half = (width - 2 * pad - gap) // 2
    cards = (
        (pad, pad, pad + half, pad + card_h),
        (width - pad - half, pad, width - pad, pad + card_h),
    )
    top = pad + card_h + round(16 * s)
    side = min(width - 2 * round(40 * s), height - top - round(120 * s))
    left = (width - side) // 2
    slab = (left, top, left + side, top + side)
    band = round(30 * s)  # room for the coordinates on each edge
    cell = (side - 2 * band) // n
    span = cell * n
    gx = left + (side - span) // 2
    gy = top + (side - span) // 2
    grid = (gx, gy, gx + span, gy + span)
    groove = max(2, round(cell * 0.035))
    footer = (pad, slab[3] + round(10 * s), width - pad, height - pad // 2)
    return Layout(n, width, height, cards, slab, grid, cell, groove, footer)
