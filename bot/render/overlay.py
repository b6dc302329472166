"""The last turn drawn over the board: what moved, what was placed, what was taken.

A player glancing at a phone should see the turn without reading: placed and arrived
stones sit on glowing, outlined cells, every step of a chain is an arrow (numbered when
there are several), and captured or removed pieces stay as faded ghosts crossed out with
an X. Colour is never the only cue: arrows, outlines and X marks are shapes.

What may come next is drawn too: a ring of dots around each piece that may capture again
in a pending chain, and a dotted trail to a small stone of its colour in each cell its
capturing steps lead to (:func:`chain_marks`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.fonts import font
from bot.render.layout import Box, Layout
from bot.render.sprites import ghost, stone, taken_badge
from bot.render.theme import RGB, Theme
from engine.actions import PLACE, STEP
from engine.summary import TurnSummary

SS = 3  # supersampling for arrows
#: The glow under this turn's cells: lighter sand, so the outline and arrows stand out.
GLOW: RGB = (255, 252, 236)
LEFT_ALPHA = 80  # the cell a piece left
ARRIVED_ALPHA = 130  # the cell a piece arrived at or was placed on
TAKEN_ALPHA = 34  # the cell of a captured or removed piece (red)


@lru_cache(maxsize=64)
def _alpha(size: tuple[int, int], alpha: int) -> Image.Image:
    return Image.new("L", size, alpha)


def _inner(lay: Layout, cell: int) -> Box:
    x0, y0, x1, y1 = lay.cell_box(cell)
    h = lay.groove // 2 + 1
    return (x0 + h, y0 + h, x1 - h, y1 - h)


def tint(img: Image.Image, lay: Layout, cell: int, color: RGB, alpha: int) -> None:
    """Wash a cell with ``color`` at ``alpha`` (0-255)."""
    x0, y0, x1, y1 = _inner(lay, cell)
    img.paste(color, (x0, y0, x1, y1), _alpha((x1 - x0, y1 - y0), alpha))


def tint_cells(img: Image.Image, lay: Layout, theme: Theme, turn: TurnSummary) -> None:
    """Highlights under the stones: cells left glow softly, cells arrived at or placed on glow and are outlined."""
    edge = max(3, lay.cell // 26)
    arrived = {t for _, t in turn.steps} | set(turn.placed)
    for a, _ in turn.steps:
        if a not in arrived:
            tint(img, lay, a, GLOW, LEFT_ALPHA)
    for cell, _ in (*turn.captured, *turn.removed):
        tint(img, lay, cell, theme.capture, TAKEN_ALPHA)
    draw = ImageDraw.Draw(img)
    for cell in arrived:
        tint(img, lay, cell, GLOW, ARRIVED_ALPHA)
        x0, y0, x1, y1 = _inner(lay, cell)
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=theme.move, width=edge)


def line_cells(bits: int, n: int, k: int) -> list[int]:
    """Cells of ``bits`` that stand in a row or column of ``k`` or more (a line win)."""
    cells: set[int] = set()
    for r in range(n):
        for f in range(n):
            for df, dr in ((1, 0), (0, 1)):
                run = [(r + dr * i) * n + f + df * i for i in range(k) if f + df * i < n and r + dr * i < n]
                if len(run) == k and all(bits >> c & 1 for c in run):
                    cells.update(run)
    return sorted(cells)


def strike_line(img: Image.Image, lay: Layout, theme: Theme, cells: list[int]) -> None:
    """Strike through a winning line, as on a noughts-and-crosses grid: gold with a dark edge."""
    if not cells:
        return
    n = lay.n
    groups: dict[tuple[int, int], list[int]] = {}
    for c in cells:  # a cell may sit in a row and a column: draw every maximal run
        r, f = divmod(c, n)
        groups.setdefault((0, r), []).append(c)
        groups.setdefault((1, f), []).append(c)
    width = lay.cell * 0.12
    for run in groups.values():
        if len(run) < 2:
            continue
        (x0, y0), (x1, y1) = lay.centre_of(run[0]), lay.centre_of(run[-1])
        pad = math.ceil(width * 2)
        left, top = math.floor(min(x0, x1)) - pad, math.floor(min(y0, y1)) - pad
        w, h = math.ceil(abs(x1 - x0)) + 2 * pad, math.ceil(abs(y1 - y0)) + 2 * pad
        big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
        draw = ImageDraw.Draw(big)
        ends = [((x0 - left) * SS, (y0 - top) * SS), ((x1 - left) * SS, (y1 - top) * SS)]
        for color, extra in (((*theme.frame, 230), width * 0.35), ((*theme.accent, 255), 0.0)):
            wide = round((width + 2 * extra) * SS)
            draw.line(ends, fill=color, width=wide)
            for ex, ey in ends:
                rr = wide / 2
                draw.ellipse((ex - rr, ey - rr, ex + rr, ey + rr), fill=color)
        small = big.resize((w, h), Image.Resampling.LANCZOS)
        img.paste(small, (left, top), small)


def taken_size(cell: int) -> int:
    """The side of the crossed-out stone of a piece taken on a cell the chain used again
    (:func:`ghosts`): a third of a cell was 21 px on 9x9, missed (play-test pt40); half a
    cell up to 36 px, never less than a third."""
    return max(cell // 3, min(round(cell * 0.5), 36))


#: A cell's corners on screen (x, y signs from its centre), in order of preference.
CORNERS = ((-1, -1), (1, -1), (-1, 1), (1, 1))


def free_corner(cell: int, steps: Sequence[tuple[int, int]], n: int) -> tuple[int, int]:
    """The corner of ``cell`` (from :data:`CORNERS`) farthest from the turn's arrows that
    start or end there: an arrow along one side of the cell passes both of its corners."""
    ways = []
    for a, t in steps:
        if cell in (a, t):
            (r0, f0), (r1, f1) = divmod(cell, n), divmod(t if a == cell else a, n)
            ways.append((f1 - f0, -(r1 - r0)))
    return min(CORNERS, key=lambda k: sum(1 for dx, dy in ways if dx == k[0] or dy == k[1]))


#: How far (in cells, each way) from a cell's centre the crossed-out stone of
#: :func:`taken_marks` sits: in the corner, clear of the number at an arrow's tail.
TAKEN_CORNER = 0.31


def _taken(turn: TurnSummary, occupied: int, phase: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The pieces this turn took, as (cell, colour): those whose cell is empty and
    untouched by the turn's steps, and those whose cell a step of the chain used after."""
    replaced = [(c, 1 - turn.side) for c in turn.placed if phase == "s" and not occupied >> c & 1]
    used = {c for step in turn.steps for c in step}
    apart: list[tuple[int, int]] = []
    reused: list[tuple[int, int]] = []
    for cell, color in (*turn.captured, *turn.removed, *replaced):
        (reused if occupied >> cell & 1 or cell in used else apart).append((cell, color))
    return apart, reused


def ghosts(img: Image.Image, lay: Layout, theme: Theme, turn: TurnSummary, occupied: int, phase: str) -> None:
    """Faded, crossed-out stones where pieces were captured, removed or replaced this turn.

    In the five-in-a-row replacement phase a "placement" takes an enemy piece and, when it
    makes no line, leaves the cell empty: that piece is shown as taken too.

    A cell a chain stepped into after taking its piece (and maybe left again) gets no
    ghost: :func:`taken_marks` marks it, over the arrows.
    """
    r = lay.stone_radius
    for cell, color in _taken(turn, occupied, phase)[0]:
        cx, cy = lay.centre_of(cell)
        sprite = ghost(theme, color, r)
        img.paste(sprite, (round(cx - sprite.width / 2), round(cy - sprite.height / 2)), sprite)


def taken_marks(
    img: Image.Image,
    lay: Layout,
    theme: Theme,
    turn: TurnSummary,
    occupied: int,
    phase: str,
    marked: set[int] | None = None,
) -> None:
    """A crossed-out stone of the taken piece's colour in a corner of each cell a chain
    stepped into after taking its piece, the corner clear of the arrows there; drawn over
    the arrows. A ghost in the middle of a cell the chain left again looked like a stone
    still standing, its X under the next step's number, and a third of a cell in the
    corner of a stone was missed on 9x9 (play-test pt40: c2, e4).

    ``marked``: cells already marked by another turn drawn on the same board (a review's
    played line and a better line that took the same piece): one mark says it, two
    identical ones in two corners read as two pieces. The cells marked here are added.
    """
    for cell, color in _taken(turn, occupied, phase)[1]:
        if marked is not None:
            if cell in marked:
                continue
            marked.add(cell)
        badge = taken_badge(theme, color, taken_size(lay.cell))
        cx, cy = lay.centre_of(cell)
        kx, ky = free_corner(cell, turn.steps, lay.n)
        x, y = cx + kx * TAKEN_CORNER * lay.cell, cy + ky * TAKEN_CORNER * lay.cell
        img.paste(badge, (round(x - badge.width / 2), round(y - badge.height / 2)), badge)


def _arrow_polygon(
    x0: float, y0: float, x1: float, y1: float, shaft: float, head_w: float, head_l: float
) -> list[tuple[float, float]]:
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    px, py = -uy, ux
    bx, by = x1 - ux * head_l, y1 - uy * head_l
    s, h = shaft / 2, head_w / 2
    return [
        (x0 + px * s, y0 + py * s),
        (bx + px * s, by + py * s),
        (bx + px * h, by + py * h),
        (x1, y1),
        (bx - px * h, by - py * h),
        (bx - px * s, by - py * s),
        (x0 - px * s, y0 - py * s),
    ]


def _boldness(cell: int) -> float:
    """How much thicker marks get on small cells (9x9), so they still read on a phone."""
    return min(1.35, max(1.0, 90 / cell))


@lru_cache(maxsize=128)
def arrow_sprite(theme: Theme, cell: int, radius: int, dfile: int, drank: int) -> tuple[Image.Image, int, int]:
    """An arrow for a step of (dfile, drank) cells, with its offset from the source cell's centre.

    Its tail starts just off the centre of the cell left; its tip stops at the rim of the
    stone that arrived, so the stone stays visible. Drawn at 3x and cached: steps are
    one cell long, so four sprites serve every turn.
    """
    dx, dy = dfile * cell, -drank * cell
    dist = math.hypot(dx, dy) or 1.0
    ux, uy = dx / dist, dy / dist
    bold = _boldness(cell)
    shaft, head_w, head_l = cell * 0.15 * bold, cell * 0.4 * bold, cell * 0.28 * bold
    halo = max(2.0, cell * 0.028)
    sx, sy = ux * cell * 0.1, uy * cell * 0.1
    back = radius * 0.92 + halo
    ex, ey = dx - ux * back, dy - uy * back
    pad = head_w
    left = math.floor(min(sx, ex) - pad)
    top = math.floor(min(sy, ey) - pad)
    w = math.ceil(max(sx, ex) + pad) - left
    h = math.ceil(max(sy, ey) + pad) - top
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    poly = [((x - left) * SS, (y - top) * SS) for x, y in _arrow_polygon(sx, sy, ex, ey, shaft, head_w, head_l)]
    draw.polygon(poly, fill=(255, 255, 255, 230), outline=(255, 255, 255, 230), width=round(halo * 2 * SS))
    draw.polygon(poly, fill=(*theme.move, 255))
    return big.resize((w, h), Image.Resampling.LANCZOS), left, top


@lru_cache(maxsize=64)
def tail_sprite(theme: Theme, cell: int, number: int) -> Image.Image:
    """The dot at an arrow's tail; with the step's number for each step of a chain."""
    rr = cell * (0.17 if number else 0.09) * _boldness(cell)
    halo = max(2.0, cell * 0.028)
    side = math.ceil(2 * (rr + halo)) + 2
    big = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    c = side * SS / 2
    rs = rr * SS
    draw.ellipse(
        (c - rs, c - rs, c + rs, c + rs), fill=(*theme.move, 255), outline=(255, 255, 255, 240), width=round(halo * SS)
    )
    if number:
        face = font(round(rr * 1.25 * SS), bold=True)
        draw.text((c, c), str(number), font=face, fill=(255, 255, 255, 255), anchor="mm")
    return big.resize((side, side), Image.Resampling.LANCZOS)


def mark_order(turn: TurnSummary) -> tuple[list[int], list[int]]:
    """The number of each placement and each step in the order they were played (1, 2...).

    A turn shown whole (a bot's last placement and its first chain, or a pair and a
    step) reads as one sequence: placements and steps share one count. Zeros mean "do
    not number": a lone step or a lone placement needs no number.
    """
    placements: list[int] = []
    steps: list[int] = []
    k = 0
    for action in turn.actions:
        if action.kind == PLACE and len(placements) < len(turn.placed):
            k += 1
            placements.append(k)
        elif action.kind == STEP and len(steps) < len(turn.steps):
            k += 1
            steps.append(k)
    if k < 2:
        return [0] * len(turn.placed), [0] * len(turn.steps)
    return placements, steps


#: How far (in cells) a step's number moves back from its tail when another number is
#: there; if it is still too close, farther and round about (:func:`number_place`).
NUMBER_BACK = 0.3
NUMBER_FAR = 0.45
#: How far apart (in cells) two arrows between the same two cells are drawn; with many
#: (a review's played and better chains on the same cells), closer, so that the outer
#: ones stay within SPREAD of a cell.
LANE = 0.34
SPREAD = 0.84


def step_offsets(steps: Sequence[tuple[int, int]], n: int, cell: float) -> list[tuple[float, float]]:
    """A sideways shift (in pixels) for each step, so that steps between the same two cells
    (a chain that goes c1-c2 and back c2-c1) are drawn side by side, each with its number,
    instead of one on top of the other. A step between two cells used once is not moved.

    The lanes are laid across the pair's one direction (from the lower cell to the higher),
    so the way there and the way back fall on opposite sides, in the order played.
    """
    uses: dict[tuple[int, int], int] = {}
    for a, t in steps:
        pair = (min(a, t), max(a, t))
        uses[pair] = uses.get(pair, 0) + 1
    seen: dict[tuple[int, int], int] = {}
    out = []
    for a, t in steps:
        pair = (min(a, t), max(a, t))
        total = uses[pair]
        index = seen.get(pair, 0)
        seen[pair] = index + 1
        if total < 2:
            out.append((0.0, 0.0))
            continue
        (lr, lf), (hr, hf) = divmod(pair[0], n), divmod(pair[1], n)
        dx, dy = hf - lf, -(hr - lr)  # screen direction: rank grows upwards
        length = math.hypot(dx, dy) or 1.0
        px, py = -dy / length, dx / length  # perpendicular, the same for both ways
        lane = (index - (total - 1) / 2) * min(LANE, SPREAD / (total - 1)) * cell
        out.append((px * lane, py * lane))
    return out


Point = tuple[float, float]


def _room(x: float, y: float, others: Sequence[Point]) -> float:
    """How far (x, y) is from the nearest of ``others`` (0 when there are none)."""
    return min((math.hypot(x - ox, y - oy) for ox, oy in others), default=0.0)


def _unit(a: Point, b: Point) -> Point:
    dist = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
    return (b[0] - a[0]) / dist, (b[1] - a[1]) / dist


#: An arrow as drawn: from its tail to its tip, in pixels.
Path = tuple[Point, Point]


def _off_path(x: float, y: float, path: Path) -> float:
    """How far (x, y) is from the segment ``path``."""
    (x0, y0), (x1, y1) = path
    dx, dy = x1 - x0, y1 - y0
    t = max(0.0, min(1.0, ((x - x0) * dx + (y - y0) * dy) / ((dx * dx + dy * dy) or 1.0)))
    return math.hypot(x - x0 - t * dx, y - y0 - t * dy)


def number_place(
    x: float,
    y: float,
    dx: float,
    dy: float,
    cell: float,
    size: float,
    taken: Sequence[Point],
    paths: Sequence[Path] = (),
) -> Point:
    """Where a step's number goes: at its arrow's tail (``x``, ``y``; the arrow points
    along ``dx``, ``dy``) unless it would cover a number already put (``taken``) or lie on
    another arrow (``paths``, without this step's own); then back from its arrow, then
    round about, a little farther: the first spot clear of all of them, else the
    clearest. Play-test pt40: a chain d3-d4, d4-d3, d3-c3 stacked its numbers 1 and 3 on
    d3, and a review's better line went on from d3 under the played line's number."""

    def clear(p: Point) -> bool:
        return (not taken or _room(p[0], p[1], taken) >= size) and all(
            _off_path(p[0], p[1], q) >= size * 0.6 for q in paths
        )

    if clear((x, y)):
        return x, y
    back = math.atan2(-dy, -dx)
    turns = (0.0, 0.25, -0.25, 0.5, -0.5, 0.75, -0.75, 1.0)
    spots = [
        (x + math.cos(back + k * math.pi) * far * cell, y + math.sin(back + k * math.pi) * far * cell)
        for far in (NUMBER_BACK, NUMBER_FAR)
        for k in turns
    ]
    return next((p for p in spots if clear(p)), None) or max(spots, key=lambda p: _room(p[0], p[1], taken))


def arrows(
    img: Image.Image,
    lay: Layout,
    theme: Theme,
    turn: TurnSummary,
    number_right: bool = False,
    *,
    offsets: Sequence[tuple[float, float]] | None = None,
    numbers: list[Point] | None = None,
    paths: list[Path] | None = None,
    skip: int = 0,
    layer: str = "all",
) -> None:
    """One arrow per step of the turn; when the turn did several things, every step and
    placement is numbered in the order played (at an arrow's tail, in a placed cell's
    top-left corner, or its top-right one with ``number_right``: a second turn drawn on
    the same board, a review's better placement over the played one, must not hide the
    first turn's number).

    Two turns drawn on one board (a review's played and better ones) pass: ``skip``, the
    first steps of this turn not to draw, as the other turn made them too (the numbers
    of the rest count them); ``offsets``, each step's sideways shift (:func:`step_offsets`
    over the steps of both turns drawn); ``numbers``, where numbers were put, shared so
    that neither turn's cover the other's, and ``paths``, the arrows drawn, which numbers
    keep off; and ``layer``, ``"arrows"`` then ``"numbers"`` for each turn, so that no
    arrow covers a number."""
    n = lay.n
    place_numbers, step_numbers = mark_order(turn)
    if offsets is None:
        offsets = step_offsets(turn.steps, n, lay.cell)
    if paths is None:
        paths = []
    tails = []
    for i, (k, (a, t), (ox, oy)) in enumerate(zip(step_numbers, turn.steps, offsets, strict=True)):
        if i < skip:
            continue
        (ar, af), (tr, tf) = divmod(a, n), divmod(t, n)
        cx, cy = lay.centre_of(a)
        ax, ay = cx + ox, cy + oy
        tx, ty = lay.centre_of(t)
        ux, uy = _unit((cx, cy), (tx, ty))
        back = lay.stone_radius * 0.92 + max(2.0, lay.cell * 0.028)  # the tip stops at the stone (arrow_sprite)
        path = ((ax, ay), (tx + ox - ux * back, ty + oy - uy * back))
        if layer != "numbers":
            sprite, left, top = arrow_sprite(theme, lay.cell, lay.stone_radius, tf - af, tr - ar)
            img.paste(sprite, (round(ax) + left, round(ay) + top), sprite)
            paths.append(path)
        tails.append((ax, ay, k, tf - af, -(tr - ar), path))
    if layer == "arrows":
        return
    # Two steps from one cell (a2-b2, later a2-a3) would stack their numbers on the shared
    # tail: a later number that would cover an earlier one moves back, away from its arrow.
    placed_at = numbers if numbers is not None else []
    for ax, ay, k, dx, dy, path in tails:
        dot = tail_sprite(theme, lay.cell, k)
        bx, by = ax, ay
        if k:
            others = [p for p in paths if p != path]
            bx, by = number_place(ax, ay, dx, dy, lay.cell, dot.width, placed_at, others)
            placed_at.append((bx, by))
        img.paste(dot, (round(bx - dot.width / 2), round(by - dot.height / 2)), dot)
    for k, cell in zip(place_numbers, turn.placed, strict=True):
        if not k:
            continue
        dot = tail_sprite(theme, lay.cell, k)
        x0, y0, x1, _ = _inner(lay, cell)
        img.paste(dot, (x1 - dot.width - 1 if number_right else x0 + 1, y0 + 1), dot)


@lru_cache(maxsize=16)
def no_entry_sprite(theme: Theme, cell: int) -> Image.Image:
    """A round "no entry" sign (ring and bar, white halo): a step the shuttle limit forbids."""
    rr = cell * 0.2 * _boldness(cell)
    halo = max(2.0, cell * 0.03)
    side = math.ceil(2 * (rr + halo)) + 2
    big = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    c, rs, h = side * SS / 2, rr * SS, halo * SS
    draw.ellipse((c - rs - h, c - rs - h, c + rs + h, c + rs + h), fill=(255, 255, 255, 235))
    draw.ellipse((c - rs, c - rs, c + rs, c + rs), fill=(*theme.capture, 255))
    bar_w, bar_h = rs * 0.62, rs * 0.2
    draw.rectangle((c - bar_w, c - bar_h, c + bar_w, c + bar_h), fill=(255, 255, 255, 255))
    return big.resize((side, side), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def removal_ring_sprite(theme: Theme, cell: int, radius: int) -> Image.Image:
    """A dashed ring in the capture colour just outside a stone: a piece that may be removed.

    Dashed, so it reads as "one of these" and not as the solid outline of a cell a piece
    just arrived at; the capture colour, as the X the removed piece will then carry.
    """
    width = max(3.0, cell * 0.045) * _boldness(cell)
    outer = radius + width * 1.6
    side = math.ceil(2 * outer) + 4
    big = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    c, r = side * SS / 2, (outer - width / 2) * SS
    dashes, colour, pen = 12, (*theme.capture, 255), round(width * SS)
    for k in range(dashes):
        start = k * 360 / dashes
        draw.arc((c - r, c - r, c + r, c + r), start, start + 360 / dashes * 0.62, fill=colour, width=pen)
    return big.resize((side, side), Image.Resampling.LANCZOS)


def removal_marks(img: Image.Image, lay: Layout, theme: Theme, cells: Sequence[int]) -> None:
    """A dashed ring around each piece the side to act may remove now (the blocked rules'
    removals), so the picture shows the choice the message lists."""
    for cell in cells:
        ring = removal_ring_sprite(theme, lay.cell, lay.stone_radius)
        x, y = lay.centre_of(cell)
        img.paste(ring, (round(x - ring.width / 2), round(y - ring.height / 2)), ring)


def shuttle_marks(img: Image.Image, lay: Layout, theme: Theme, holds: tuple[tuple[int, int], ...]) -> None:
    """A "no entry" sign on the way from each piece the shuttle limit holds to the cell it
    may not go back to, so an empty cell beside a stuck piece explains itself."""
    for a, t in holds:
        (ax, ay), (tx, ty) = lay.centre_of(a), lay.centre_of(t)
        x, y = ax + (tx - ax) * 0.62, ay + (ty - ay) * 0.62
        sign = no_entry_sprite(theme, lay.cell)
        img.paste(sign, (round(x - sign.width / 2), round(y - sign.height / 2)), sign)


#: A chain's marks (:func:`chain_marks`): the radius of a landing stone as a share of a
#: stone's, and of a dot of the ring and the trail as a share of a cell.
LANDING = 0.5
DOT = 0.048


def _side_colours(theme: Theme, side: int) -> tuple[RGB, RGB]:
    """The body and the edge of a mark in ``side``'s colour: a black stone's dark body and
    light rim, a white stone's light body and dark ring, so either shows on the board."""
    return (theme.black_base, theme.black_rim) if side == 0 else (theme.white_base, theme.white_ring)


@lru_cache(maxsize=16)
def chain_dot_sprite(theme: Theme, side: int, cell: int) -> Image.Image:
    """One dot of a chain's ring and trail, in ``side``'s colour with its contrasting edge."""
    body, edge = _side_colours(theme, side)
    rr = max(2.5, cell * DOT) * _boldness(cell)
    pen = max(1.0, rr * 0.42)
    side_px = math.ceil(2 * rr) + 2
    big = Image.new("RGBA", (side_px * SS, side_px * SS), (0, 0, 0, 0))
    c, rs = side_px * SS / 2, rr * SS
    ImageDraw.Draw(big).ellipse(
        (c - rs, c - rs, c + rs, c + rs), fill=(*body, 255), outline=(*edge, 255), width=round(pen * SS)
    )
    return big.resize((side_px, side_px), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def chain_ring_sprite(theme: Theme, side: int, cell: int, radius: int) -> Image.Image:
    """A ring of round dots in ``side``'s colour just outside a stone: a piece that may
    capture again. Dots, not the dashes of a removal's red ring, and the piece's own
    colour, not the blue of the last turn nor the green of a hint."""
    dot = chain_dot_sprite(theme, side, cell)
    ring = radius + dot.width * 0.85
    size = math.ceil(2 * ring + dot.width) + 2
    out = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    count = 16
    for k in range(count):
        a = 2 * math.pi * k / count
        x, y = size / 2 + ring * math.cos(a), size / 2 + ring * math.sin(a)
        out.alpha_composite(dot, (round(x - dot.width / 2), round(y - dot.height / 2)))
    return out


@lru_cache(maxsize=32)
def chain_pointer_sprite(theme: Theme, side: int, cell: int, dx: int, dy: int) -> Image.Image:
    """A small arrowhead in ``side``'s colour pointing along (``dx``, ``dy``) on screen: the
    way from a piece that may capture again to the cell the step leads to. Centred."""
    body, edge = _side_colours(theme, side)
    bold = _boldness(cell)
    length, half_w = cell * 0.19 * bold, cell * 0.13 * bold
    pen = max(2.0, cell * 0.036)
    side_px = math.ceil(2 * max(length, half_w) + 2 * pen) + 2
    big = Image.new("RGBA", (side_px * SS, side_px * SS), (0, 0, 0, 0))
    c = side_px * SS / 2
    dist = math.hypot(dx, dy) or 1.0
    ux, uy = dx / dist, dy / dist
    px, py = -uy, ux
    tip = (c + ux * length / 2 * SS, c + uy * length / 2 * SS)
    back = (c - ux * length / 2 * SS, c - uy * length / 2 * SS)
    poly = [
        tip,
        (back[0] + px * half_w * SS, back[1] + py * half_w * SS),
        (back[0] - px * half_w * SS, back[1] - py * half_w * SS),
    ]
    draw = ImageDraw.Draw(big)
    draw.polygon(poly, fill=(*body, 255))
    draw.line([*poly, poly[0]], fill=(*edge, 255), width=round(pen * SS), joint="curve")
    return big.resize((side_px, side_px), Image.Resampling.LANCZOS)


#: How far (in cells) a chain's arrowhead and landing stone move aside from a last-turn
#: arrow between the same two cells (a chain that may go back the way it came), and how
#: far a landing stone moves back from the tail of another last-turn arrow, so the
#: arrow, its dot and its number stay in sight.
POINTER_ASIDE = 0.36
LANDING_ASIDE = 0.28
LANDING_BACK = 0.26

#: One step of a pending chain as drawn: from, to (bit indexes), where its arrowhead goes
#: and where its landing stone goes.
ChainPlace = tuple[int, int, Point, Point]


def chain_places(
    lay: Layout, theme: Theme, side: int, steps: Sequence[tuple[int, int]], beside: Sequence[tuple[int, int]] = ()
) -> list[ChainPlace]:
    """For each capturing step of a pending chain (``steps``, from the engine's legal
    actions): where its arrowhead and its landing stone go, clear of the ring of dots
    around the piece and of the last turn's arrows (``beside``: its steps). Computed once
    and drawn in two layers, :func:`chain_marks` under those arrows and
    :func:`chain_landings` over them."""
    r, cell = lay.stone_radius, lay.cell
    ring_out = r + chain_dot_sprite(theme, side, cell).width * 1.35
    used = {frozenset(pair) for pair in beside}
    tails = dict(reversed(beside))  # the cell each arrow starts from -> where it goes
    nominal = []
    for a, t in steps:
        (ax, ay), (tx, ty) = lay.centre_of(a), lay.centre_of(t)
        dist = math.hypot(tx - ax, ty - ay) or 1.0
        ux, uy = (tx - ax) / dist, (ty - ay) / dist
        d = (ring_out + dist - r * LANDING) / 2
        nominal.append((a, t, (ax + ux * d, ay + uy * d), (tx, ty), (ux, uy)))
    out = []
    for a, t, (x, y), (tx, ty), (ux, uy) in nominal:
        if frozenset((a, t)) in used:
            # aside, on the side farther from the other arrowheads
            others = [p for b, u, p, _, _ in nominal if (b, u) != (a, t)]
            k = max(
                (1, -1),
                key=lambda k: _room(x - uy * POINTER_ASIDE * cell * k, y + ux * POINTER_ASIDE * cell * k, others),
            )
            x, y = x - uy * POINTER_ASIDE * cell * k, y + ux * POINTER_ASIDE * cell * k
            tx, ty = tx - uy * LANDING_ASIDE * cell * k, ty + ux * LANDING_ASIDE * cell * k
        elif t in tails:
            # off the arrow that starts here, and not back onto this step's arrowhead
            vx, vy = _unit(lay.centre_of(t), lay.centre_of(tails[t]))
            ways = [(-vx, -vy), (-vy, vx), (vy, -vx)]
            wx, wy = next(w for w in ways if math.hypot(w[0] + ux, w[1] + uy) > 0.5)
            tx, ty = tx + wx * LANDING_BACK * cell, ty + wy * LANDING_BACK * cell
        out.append((a, t, (x, y), (tx, ty)))
    return out


def chain_marks(img: Image.Image, lay: Layout, theme: Theme, side: int, places: Sequence[ChainPlace]) -> None:
    """Where a pending chain may capture next (``places``, :func:`chain_places`): a small
    arrowhead of the side's colour on the way from the piece to each cell a capturing
    step leads to. Drawn under the last turn's arrows; an arrowhead between the same two
    cells as one of them moves aside.

    The cells get their small stones from :func:`chain_landings` and the pieces their
    rings of dots from :func:`chain_rings`, both drawn over the arrows. Play-test: the
    caption said "may capture again or end" and the picture showed neither which piece
    nor where; under ``chain=any`` several pieces may go on, and each is marked.
    """
    n = lay.n
    for a, t, (x, y), _ in places:
        (ar, af), (tr, tf) = divmod(a, n), divmod(t, n)
        pointer = chain_pointer_sprite(theme, side, lay.cell, tf - af, -(tr - ar))
        img.paste(pointer, (round(x - pointer.width / 2), round(y - pointer.height / 2)), pointer)


def chain_landings(img: Image.Image, lay: Layout, theme: Theme, side: int, places: Sequence[ChainPlace]) -> None:
    """A small stone of the side's colour in each cell a pending chain's capturing step
    leads to (``places``, :func:`chain_places`), over the last turn's arrows but clear of
    their dots and numbers."""
    landing = stone(theme, side, max(4, round(lay.stone_radius * LANDING)))
    half = landing.width / 2
    for _, _, _, (x, y) in places:
        img.paste(landing, (round(x - half), round(y - half)), landing)


def chain_rings(img: Image.Image, lay: Layout, theme: Theme, side: int, steps: Sequence[tuple[int, int]]) -> None:
    """A ring of dots in the side's colour around each piece that may capture again (the
    sources of ``steps``); drawn last, over the last turn's arrows."""
    for a in dict.fromkeys(a for a, _ in steps):
        ring = chain_ring_sprite(theme, side, lay.cell, lay.stone_radius)
        x, y = lay.centre_of(a)
        img.paste(ring, (round(x - ring.width / 2), round(y - ring.height / 2)), ring)
