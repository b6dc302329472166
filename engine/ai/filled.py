"""Filled-board tables: what every way of filling the 5x5 board is worth (``ludii``).

Why: under the ``ludii`` preset the placement phase decides most games, and what a
placement is worth shows only in the movement phase's first captures, 10 to 15 plies
beyond the middle of placement. A 1 s search from the last dozen empty cells reaches the
filled boards, but it has to value each of their thousands with a few nodes. On 5x5 the
placement phase always ends the same way: the 24 cells around the centre hold 12 pieces
of each side, the centre is empty and the first mover is to step. So there are only
``C(24, 12)`` = 2,704,156 filled boards, 339,106 up to the board's eight symmetries, few
enough to value each once by a search of its own (``bench/filledgen.py``) and to ship
the values. The search then scores a filled board by this table instead of its
evaluation, and from about 12 empty cells on it searches the rest of placement to the
end with those values at its leaves.

What the values are: each is a node-limited search's score of the filled board (the
first mover to act; centipieces of the evaluation, stored in steps of
:data:`STEP`), not a proven result, so unlike the endgame tables nothing here is exact.
A filled board has no history under any preset: the movement phase starts there, so no
shuttle has been stepped and no move-limit clock has run, and the board alone is the
position. A table is therefore valid for every ruleset that moves the pieces as its
preset does (:func:`table_preset`).

Measured and not shipped (docs/ai.md, "The filled-board table"): ``ludii``'s table at
5,000 nodes a board made hard's White no better against Ludii's Alpha-Beta. The module,
the search's hook and the generator stay, tested, for deeper tables.

Layout: one table per preset, an ``array('b')`` (signed bytes, the value in steps of
:data:`STEP`, clamped to +-127) indexed by the colex rank of the White cells among the
24 cells that are not the centre.
"""

from __future__ import annotations

import lzma
from array import array
from dataclasses import fields
from importlib import resources
from math import comb
from pathlib import Path

from engine.ai.endgame import rank_of
from engine.rules import Ruleset

SIZE = 5
CENTRE = 12
#: Every cell but the centre: the cells a filled board holds.
FILLED = ((1 << SIZE * SIZE) - 1) & ~(1 << CENTRE)
PIECES = 12
ENTRIES = comb(2 * PIECES, PIECES)
#: Centipieces per stored unit: a signed byte then spans +-12.7 pieces.
STEP = 10
#: The presets with a table (``engine/data/seega5-<preset>-filled.xz``).
PRESETS = ("ludii",)
#: The generator's node limit per board (``bench/filledgen.py``; the measured table's).
NODES = 5_000
#: Centipieces per stored unit: a signed byte then spans +-12.7 pieces.
STEP = 10
#: Found through the package (see ``endgame.DATA_DIR``).
DATA_DIR = Path(str(resources.files("engine") / "data"))
#: Options that do not change what a filled board is worth: the preset's name, the
#: turn limit (as for the endgame tables) and how the board was filled.
IGNORED = ("variant", "turn_limit", "placement")


def table_preset(rules: Ruleset) -> str | None:
    """The preset whose table values ``rules``'s filled boards: the one whose every
    other option (who steps first, captures, chains, shuttles, limits, the blocked rule)
    ``rules`` shares on 5x5, or ``None``."""
    if rules.size != SIZE:
        return None
    for preset in PRESETS:
        reference = Ruleset.make(preset, SIZE)
        if all(getattr(rules, f.name) == getattr(reference, f.name) for f in fields(Ruleset) if f.name not in IGNORED):
            return preset
    return None


def covers(rules: Ruleset) -> bool:
    """Whether a table values ``rules``'s filled boards."""
    return table_preset(rules) is not None


def file_name(preset: str) -> str:
    """The shipped file of a preset's table."""
    return f"seega{SIZE}-{preset}-filled.xz"


def squeeze(mask: int) -> int:
    """A mask of the 24 cells around the centre as 24 bits (the centre's bit removed)."""
    low = (1 << CENTRE) - 1
    return (mask & low) | ((mask >> (CENTRE + 1)) << CENTRE)


def index_of(white: int) -> int:
    """The table index of a filled board, from its White cells."""
    return rank_of(squeeze(white))


def _image(k: int, r: int, f: int) -> tuple[int, int]:
    """Cell (row, file) under symmetry ``k``: four rotations, then each mirrored."""
    n = SIZE - 1
    for _ in range(k % 4):
        r, f = f, n - r
    return (r, n - f) if k >= 4 else (r, f)


def _transforms() -> list[list[int]]:
    """The board's eight symmetries, each as the image of every cell."""
    out = []
    for k in range(8):
        images = []
        for c in range(SIZE * SIZE):
            r, f = _image(k, *divmod(c, SIZE))
            images.append(r * SIZE + f)
        out.append(images)
    return out


TRANSFORMS = _transforms()


def _row_tables() -> list[list[list[int]]]:
    """For each symmetry and row, the image of each of the row's 32 patterns: a mask's
    image is then five lookups."""
    tables = []
    for images in TRANSFORMS:
        rows = []
        for row in range(SIZE):
            patterns = []
            for bits in range(1 << SIZE):
                image = 0
                for f in range(SIZE):
                    if bits >> f & 1:
                        image |= 1 << images[row * SIZE + f]
                patterns.append(image)
            rows.append(patterns)
        tables.append(rows)
    return tables


ROW_TABLES = _row_tables()


def images_of(mask: int) -> list[int]:
    """The mask under each of the eight symmetries (the first is the mask itself)."""
    rows = [(mask >> (SIZE * r)) & 31 for r in range(SIZE)]
    return [t[0][rows[0]] | t[1][rows[1]] | t[2][rows[2]] | t[3][rows[3]] | t[4][rows[4]] for t in ROW_TABLES]


def canonical(mask: int) -> int:
    """The smallest of a mask's symmetric images: one representative per class."""
    return min(images_of(mask))


def pack(values: array[int]) -> bytes:
    """The table as shipped: the signed bytes, lzma-compressed."""
    return lzma.compress(values.tobytes(), preset=9)


def unpack(data: bytes) -> array[int]:
    """The table from :func:`pack`'s bytes; a wrong length is refused."""
    values = array("b")
    values.frombytes(lzma.decompress(data))
    if len(values) != ENTRIES:
        raise ValueError(f"a filled-board table has {ENTRIES} entries, this one {len(values)}")
    return values


def quantize(score: int) -> int:
    """A search score as a stored unit (rounded to the nearest step, clamped)."""
    units = (score + STEP // 2) // STEP if score >= 0 else -((-score + STEP // 2) // STEP)
    return max(-127, min(127, units))


class FilledTable:
    """One preset's table, read from its file on the first probe (1.9 MB compressed,
    2.7 MB in memory)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._values: array[int] | None = None

    def load(self) -> array[int]:
        """The table's values, read now if they were not (0.12 s of lzma): a player reads
        them before its clock starts (:func:`engine.ai.player.choose`), since a process
        that plays one action, as the command line does, would otherwise spend an eighth
        of a 1 s budget reading at its first probe."""
        values = self._values
        if values is None:
            values = self._values = unpack(self.path.read_bytes())
        return values

    def value(self, white: int) -> int:
        """The first mover's value, in centipieces, of the filled board with these White
        cells (the rest of the cells around the centre Black's)."""
        values = self._values
        if values is None:
            values = self.load()
        return values[index_of(white)] * STEP


_SHIPPED: dict[Path, FilledTable] = {}


def shipped(rules: Ruleset) -> FilledTable | None:
    """The table in :data:`DATA_DIR` that values ``rules``'s filled boards, shared by
    every searcher of a process; ``None`` when no preset covers ``rules`` or its file
    is not there. No table is shipped today (docs/ai.md, "The filled-board table"):
    a file generated into the folder is used by hard and expert from then on."""
    preset = table_preset(rules)
    if preset is None:
        return None
    path = DATA_DIR / file_name(preset)
    table = _SHIPPED.get(path)
    if table is None:
        if not path.is_file():
            return None
        table = _SHIPPED[path] = FilledTable(path)
    return table
