"""Board geometry: cell names, neighbour and capture tables, computed once per size.

Cells inside a position are bit indexes ``rank * n + file`` (``a1`` is 0) so that a set
of cells is a plain Python int. :class:`Action` values use *global* cell ids
``rank * 9 + file`` instead, which do not depend on the board size, so an action parsed
from text is the same value whatever board it is later played on.
"""

from __future__ import annotations

from functools import cache

from engine.errors import InvalidActionError, quoted

MAX_SIZE = 9
FILES = "abcdefghi"

#: Directions in a fixed order: north (+rank), south, east (+file), west.
NORTH, SOUTH, EAST, WEST = range(4)


#: Arabic-Indic digits (U+0660-0669), the Extended ones of Persian and Urdu keyboards
#: (U+06F0-06F9) and the Arabic comma (U+060C), as the ASCII digits and comma: what an
#: Arabic keyboard types for "e4,e5" (play-test: "e٤" was "not a cell").
_TYPED_FORMS = str.maketrans(
    {**{0x0660 + d: str(d) for d in range(10)}, **{0x06F0 + d: str(d) for d in range(10)}, 0x060C: ","}
)


def ascii_typed(text: str) -> str:
    """``text`` with Arabic-Indic digits and the Arabic comma written as ASCII ones (one
    pass, every other character as it was): ``"e٤،e٥"`` -> ``"e4,e5"``."""
    return text.translate(_TYPED_FORMS)


def cell_name(cell: int) -> str:
    """The name of a global cell id: ``cell_name(0) == "a1"``."""
    rank, file = divmod(cell, MAX_SIZE)
    return f"{FILES[file]}{rank + 1}"


def parse_cell(text: str) -> int:
    """The global cell id of a name like ``"b2"`` (case and surrounding spaces ignored)."""
    name = text.strip().lower()
    if len(name) == 2 and name[0] in FILES and name[1] in "123456789":
        return (int(name[1]) - 1) * MAX_SIZE + FILES.index(name[0])
    raise InvalidActionError(
        f"{quoted(text, 40)} is not a cell; cells are written like a1 or e5 (file letter, rank number)"
    )


class Geometry:
    """Precomputed tables for one board size. Get one with :func:`geometry`."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.cells = n * n
        self.full = (1 << self.cells) - 1
        self.centre = (n // 2) * n + n // 2
        self.centre_bit = 1 << self.centre
        file_a = sum(1 << (r * n) for r in range(n))
        file_last = file_a << (n - 1)
        self.not_file_a = self.full & ~file_a
        self.not_file_last = self.full & ~file_last
        self.deltas = (n, -n, 1, -1)
        #: direction[t - a]: the direction index of a step from a to t.
        self.direction = {delta: d for d, delta in enumerate(self.deltas)}
        self.to_global = [(c // n) * MAX_SIZE + c % n for c in range(self.cells)]
        self.from_global = {g: c for c, g in enumerate(self.to_global)}
        self.names = [cell_name(g) for g in self.to_global]
        #: step_to[c * 4 + d]: the cell one step from c in direction d, or -1.
        self.step_to: list[int] = []
        #: neighbours[c]: cells orthogonally next to c.
        self.neighbours: list[tuple[int, ...]] = []
        #: neighbour_mask[c]: the same as a bit set.
        self.neighbour_mask: list[int] = []
        #: rays[c][d]: the cells from c outwards in direction d, c excluded.
        self.rays: list[tuple[tuple[int, ...], ...]] = []
        #: captures[c]: (middle bit, far bit, direction) for every direction with room.
        self.captures: list[tuple[tuple[int, int, int], ...]] = []
        for c in range(self.cells):
            rank, file = divmod(c, n)
            rays = []
            for dr, df in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                ray = []
                r, f = rank + dr, file + df
                while 0 <= r < n and 0 <= f < n:
                    ray.append(r * n + f)
                    r, f = r + dr, f + df
                rays.append(tuple(ray))
            self.rays.append(tuple(rays))
            self.step_to.extend(ray[0] if ray else -1 for ray in rays)
            nbrs = tuple(ray[0] for ray in rays if ray)
            self.neighbours.append(nbrs)
            self.neighbour_mask.append(sum(1 << b for b in nbrs))
            self.captures.append(tuple((1 << ray[0], 1 << ray[1], d) for d, ray in enumerate(rays) if len(ray) >= 2))
        #: capture_far[c]: the far cells of captures[c] as one bit set (a step onto c
        #: can capture only if one of them holds a piece of the mover).
        self.capture_far = [sum(far for _mid, far, _d in caps) for caps in self.captures]
        self._lines: dict[int, tuple[int, ...]] = {}

    def neighbours_of(self, mask: int) -> int:
        """Every cell orthogonally next to some cell of ``mask``."""
        n = self.n
        return (
            (mask << n) | (mask >> n) | ((mask & self.not_file_last) << 1) | ((mask & self.not_file_a) >> 1)
        ) & self.full

    def lines(self, k: int) -> tuple[int, ...]:
        """Bit masks of every run of ``k`` cells in a rank or a file."""
        if k not in self._lines:
            n, masks = self.n, []
            for r in range(n):
                for f in range(n - k + 1):
                    masks.append(sum(1 << (r * n + f + i) for i in range(k)))
                    masks.append(sum(1 << ((f + i) * n + r) for i in range(k)))
            self._lines[k] = tuple(masks)
        return self._lines[k]

    def index(self, global_cell: int) -> int:
        """The bit index of a global cell id, or an error naming the board's cells."""
        c = self.from_global.get(global_cell)
        if c is None:
            last = FILES[self.n - 1] + str(self.n)
            raise InvalidActionError(
                f"{cell_name(global_cell)} is off the {self.n}x{self.n} board; cells are a1 to {last}"
            )
        return c


@cache
def geometry(n: int) -> Geometry:
    """The shared tables of an ``n x n`` board."""
    return Geometry(n)
