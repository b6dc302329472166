"""Colour themes of the board images.

A theme is plain data so that a new look is a new entry in :data:`THEMES`, not new
drawing code. Colours are RGB tuples; the sand theme follows the colours Ludii uses for
Seega (sand 255,230,150 with dark brown lines) and frames the board in a dark card so it
reads well in both Discord's dark and light modes.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Theme:
    """Every colour the renderer uses.

    Attributes:
        name: the key in :data:`THEMES`.
        frame: the background around the board (the card the image is).
        card: the player panels in the header.
        text: main text on the frame; muted: secondary text.
        accent: marks the player to move (panel outline and badge).
        slab, slab_edge: the board stone/sand and its darker rim.
        groove: the carved lines between cells.
        cell: the recessed cells; bevel_dark/bevel_light: their carved edges.
        coord: coordinate letters and numbers on the slab.
        black_base/black_light/black_rim: the dark stone (body, highlight, light rim).
        white_base/white_shade/white_ring: the light stone (body, shaded edge, dark ring).
        move: this turn's placements and steps (tint, outline and arrows).
        capture: the X over captured and removed pieces.
    """

    name: str
    frame: RGB
    card: RGB
    text: RGB
    muted: RGB
    accent: RGB
    slab: RGB
    slab_edge: RGB
    groove: RGB
    cell: RGB
    bevel_dark: RGB
    bevel_light: RGB
    coord: RGB
    black_base: RGB
    black_light: RGB
    black_rim: RGB
    white_base: RGB
    white_shade: RGB
    white_ring: RGB
    move: RGB
    capture: RGB


SAND = Theme(
    name="sand",
    frame=(38, 30, 25),
    card=(58, 47, 39),
    text=(248, 238, 218),
    muted=(224, 208, 180),
    accent=(244, 190, 72),
    slab=(255, 230, 150),
    slab_edge=(214, 170, 92),
    groove=(96, 64, 32),
    cell=(246, 216, 134),
    bevel_dark=(196, 154, 82),
    bevel_light=(255, 244, 200),
    coord=(118, 82, 40),
    black_base=(34, 33, 38),
    black_light=(118, 116, 118),
    black_rim=(236, 226, 204),
    white_base=(252, 249, 240),
    white_shade=(206, 196, 176),
    white_ring=(66, 48, 30),
    move=(28, 96, 204),
    capture=(206, 44, 28),
)

STONE = Theme(
    name="stone",
    frame=(30, 33, 38),
    card=(47, 52, 60),
    text=(238, 240, 244),
    muted=(204, 210, 220),
    accent=(250, 196, 80),
    slab=(218, 211, 197),
    slab_edge=(168, 160, 146),
    groove=(72, 66, 58),
    cell=(206, 198, 183),
    bevel_dark=(160, 150, 134),
    bevel_light=(236, 231, 221),
    coord=(84, 76, 66),
    black_base=(30, 31, 36),
    black_light=(114, 114, 120),
    black_rim=(232, 228, 218),
    white_base=(253, 251, 246),
    white_shade=(204, 200, 190),
    white_ring=(52, 48, 44),
    move=(24, 92, 200),
    capture=(204, 40, 30),
)

#: Themes by name; ``sand`` is the default look.
THEMES: dict[str, Theme] = {t.name: t for t in (SAND, STONE)}


def get_theme(name: str) -> Theme:
    """The theme called ``name``.

    Raises:
        ValueError: no such theme; the message lists the known ones.
    """
    try:
        return THEMES[name]
    except KeyError:
        raise ValueError(f"unknown theme {name!r}; themes are {', '.join(THEMES)}") from None
