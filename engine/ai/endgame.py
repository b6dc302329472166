"""Endgame tables: the exact value and distance of every 5x5 and 7x7 ending with few pieces.

Two families, each solved under one preset's moves (:data:`FAMILIES`, files
``seega<size>-<family>-<black>v<white>.xz``):

``ludii`` (5x5 and 7x7). Under the ``ludii`` preset (no shuttle limit, no move limit, no
chains, no safe centre, a blocked player passes, capture all to win) a position's value
depends only on the pieces and the side to move, never on how it was reached, so a
retrograde analysis gives the game-theoretic value: win, loss or draw for the side to
move, and for a win or loss the distance in turns (one action per turn under these
rules) with the winner hurrying and the loser holding out. The only history the preset
keeps is the turn limit (a draw after 2500 turns): a table value is exact while the
turns left exceed its distance, which holds in every position the bot reaches before
turn 2500 minus a few hundred. Used for rulesets equal to the preset in every option of
:data:`TABLE_OPTIONS`.

``standard`` (5x5). Solved under the standard preset's moves without its two history
rules: a safe centre (a piece on it is never taken by custodial capture) and same-piece
chains (after a capturing step the same piece may capture again or end the turn; a
whole turn, step and chain, is one move of the tables, its distance counted in turns),
a blocked player passes, capture all to win, but no shuttle limit and no move limit.
Used for rulesets equal to the preset in the options of :data:`STANDARD_OPTIONS` (any
``max_shuttles`` and ``move_limit``), and then only as far as the history rules allow
(``Searcher._probe``):

* exact: a win or loss in d turns when d is at most the turns left before the move
  limit (``move_limit`` minus the position's turns-without-capture clock, ``pos.clock``):
  the winner's forced line ends the game before the clock can, and a capture on the way
  only resets it. With the shuttle limit ignored: a forced line (the winner's, or the
  loser's longest defence) that needs a step the shuttle limit forbids, or a piece the
  limit blocks (then its owner passes or removes), is the one case where such a value
  can be wrong, in its distance or its outcome.
* not exact, and not used: a draw (the move limit may end it first, more pieces
  winning), and a win or loss longer than the clock (the move limit comes first). The
  search then goes on as without tables. Under ``max_shuttles=0, move_limit=0`` the
  family is exact like ``ludii``, draws included. A turn limit, if a ruleset sets one,
  is ignored as for ``ludii``.

Rulesets that differ from both presets in an option the tables depend on get no tables.

Layout: one table per board size, material (black pieces, white pieces) and side to
move, an ``array('H')`` indexed by ``rank(black cells) * C(cells, white) + rank(white cells)``
(colex ranks; indexes where the two overlap are unused). Entry ``0`` is a draw, ``2d +
1`` a win in ``d`` turns, ``2d + 2`` a loss in ``d`` turns (for the side to move).

:func:`generate` computes them (pure Python; ``bench/tablegen.py`` writes them, see
``docs/ai.md`` for the command and its time), :class:`EndgameTables` loads the shipped
files from ``engine/data/`` lazily, on the first probe of a position they cover. The
generator is the same for both sizes; only the board's geometry (:class:`Board`) differs.
"""

from __future__ import annotations

import lzma
import sys
from array import array
from collections.abc import Callable, Collection, Iterator
from importlib import resources
from itertools import combinations
from math import comb
from pathlib import Path

from engine.board import geometry
from engine.rules import Ruleset

#: The board sizes with tables (9x9 has none: even 4 pieces would be 50 million indexes).
SIZES = (5, 7)
#: Found through the package, not ``__file__``, which a compiled build (``engine.compiled``)
#: sets to a path that does not exist.
DATA_DIR = Path(str(resources.files("engine") / "data"))
#: The ruleset the 5x5 tables are exact for (the options below must match; 7x7 is the
#: same preset at size 7).
TABLE_RULES = Ruleset.make("ludii", 5)
#: Options a ruleset must share with the ``ludii`` preset of its size to use the tables
#: (the turn limit is not among them: see the module docstring).
TABLE_OPTIONS = (
    "captures",
    "safe_centre",
    "line_capture",
    "chain",
    "max_shuttles",
    "move_limit",
    "blocked",
    "lose_at",
    "win_line",
)
#: Options a ruleset must share with the ``standard`` preset of its size to use the
#: ``standard`` tables: the moves' options only (any shuttle limit and move limit; a
#: value is then used only where its distance fits the clock, see the module docstring).
STANDARD_OPTIONS = tuple(name for name in TABLE_OPTIONS if name not in ("max_shuttles", "move_limit"))
#: The table families: the preset each is solved under (the files are
#: ``seega<size>-<family>-<black>v<white>.xz``), the board sizes shipped and the options
#: a ruleset must share with that preset.
FAMILIES: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "ludii": (SIZES, TABLE_OPTIONS),
    "standard": ((5, 7), STANDARD_OPTIONS),
}
DRAW = 0
#: No position of the tables is that far from its end (a sentinel for "not yet known").
UNKNOWN = 0xFFFF


class Board:
    """What the generator needs of one board size: cells, neighbours, capture patterns
    (with ``safe_centre``, none takes a piece standing on the centre)."""

    def __init__(self, size: int, safe_centre: bool = False) -> None:
        geo = geometry(size)
        self.size = size
        self.cells = size * size
        self.full = (1 << self.cells) - 1
        self.not_file_a, self.not_file_last = geo.not_file_a, geo.not_file_last
        #: neighbours[c]: the cells next to c.
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(tuple(geo.neighbours[c]) for c in range(self.cells))
        #: patterns[t]: (middle bit, far bit) of each capture a step onto t may make.
        safe = geo.centre_bit if safe_centre else 0
        self.patterns: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((mid, far) for mid, far, _d in geo.captures[t] if mid != safe) for t in range(self.cells)
        )

    def neighbours_of(self, mask: int) -> int:
        """The cells next to any cell of ``mask``."""
        n = self.size
        vertical = ((mask << n) & self.full) | (mask >> n)
        return vertical | ((mask & self.not_file_last) << 1) | ((mask & self.not_file_a) >> 1)


def family_of(rules: Ruleset) -> str | None:
    """The table family shipped for ``rules``'s size whose moves are ``rules``'s moves
    (``None``: no tables apply)."""
    for family, (sizes, options) in FAMILIES.items():
        if rules.size in sizes:
            preset = Ruleset.make(family, rules.size)
            if all(getattr(rules, name) == getattr(preset, name) for name in options):
                return family
    return None


def covers(rules: Ruleset) -> bool:
    """Whether tables of ``rules``'s size exist and may be used under ``rules`` (exactly
    for ``ludii``; against the clock for ``standard``, see the module docstring)."""
    return family_of(rules) is not None


def subsets(k: int, cells: int = 25) -> list[int]:
    """Every set of ``k`` of ``cells`` cells as a bit mask, in colex-rank order."""
    out = [0] * comb(cells, k)
    for cells_set in combinations(range(cells), k):
        mask = 0
        for c in cells_set:
            mask |= 1 << c
        out[rank_of(mask)] = mask
    return out


def rank_of(mask: int) -> int:
    """The colex rank of a set of cells among the sets of the same size."""
    r = 0
    i = 0
    while mask:
        low = mask & -mask
        c = low.bit_length() - 1
        i += 1
        r += comb(c, i)
        mask ^= low
    return r


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def decode(code: int) -> tuple[int, int]:
    """(outcome, distance) of a table entry: outcome 1 win, -1 loss, 0 draw."""
    if code == DRAW:
        return 0, 0
    if code & 1:
        return 1, (code - 1) >> 1
    return -1, (code - 2) >> 1


Tables = dict[tuple[int, int], "tuple[array[int], array[int]]"]


class _Material:
    """Indexing of one material (black and white piece counts)."""

    def __init__(
        self, board: Board, nb: int, nw: int, masks: dict[int, list[int]], ranks: dict[int, dict[int, int]]
    ) -> None:
        self.board = board
        self.nb, self.nw = nb, nw
        self.b_masks, self.w_masks = masks[nb], masks[nw]
        self.b_rank, self.w_rank = ranks[nb], ranks[nw]
        self.stride = len(self.w_masks)
        self.size = len(self.b_masks) * self.stride

    def index(self, black: int, white: int) -> int:
        return self.b_rank[black] * self.stride + self.w_rank[white]


def generate(
    max_pieces: int,
    progress: Callable[[str], None] | None = None,
    size: int = 5,
    family: str = "ludii",
    *,
    known: Tables | None = None,
    materials: Collection[tuple[int, int]] | None = None,
) -> Tables:
    """Solve every material with at most ``max_pieces`` pieces in all (each side >= 1)
    on the ``size`` board, under the moves of the preset ``family`` (see :data:`FAMILIES`).

    Materials are solved fewest pieces first: a capture always leads to a smaller
    material, already solved, and quiet steps and passes stay inside the material,
    where values spread backwards from the known ones in order of distance (a bucket
    queue), so every distance is the exact shortest win / longest loss.

    The generator depends on two options of the preset: ``safe_centre`` (the capture
    patterns skip the centre) and ``chain`` (``none``, or ``same``: a capturing step is
    valued through :func:`_chain`, the best of ending the turn and each further capture
    by the same piece, every one of them in a smaller material already solved).

    ``known``: materials already solved (reused, not solved again); ``materials``: solve
    only these (the smaller materials their captures reach must be in ``known``).
    """
    rules = Ruleset.make(family, size)
    if family not in FAMILIES or rules.chain not in ("none", "same"):
        raise ValueError(f"no endgame tables for the {family!r} preset")
    board = Board(size, rules.safe_centre)
    masks = {k: subsets(k, board.cells) for k in range(0, max_pieces)}
    ranks = {k: {m: i for i, m in enumerate(ms)} for k, ms in masks.items()}
    tables: Tables = {}
    for total in range(2, max_pieces + 1):
        for nb in range(1, total):
            nw = total - nb
            if known is not None and (nb, nw) in known:
                tables[(nb, nw)] = known[(nb, nw)]
                continue
            if materials is not None and (nb, nw) not in materials:
                continue
            mat = _Material(board, nb, nw, masks, ranks)
            tables[(nb, nw)] = _solve(mat, tables, masks, ranks, rules.chain == "same")
            if progress:
                won = sum(1 for side in (0, 1) for v in tables[(nb, nw)][side] if v & 1)
                progress(f"{nb} v {nw}: {mat.size} indexes per side, {won} wins for the side to move")
    return tables


def _preference(code: int) -> int:
    """How much the side that just moved likes a child entry ``code`` (the opponent to
    move): the opponent's fastest loss best, then a draw, then its slowest win."""
    if code == DRAW:
        return 0
    if code & 1:
        return ((code - 1) >> 1) - UNKNOWN
    return UNKNOWN - ((code - 2) >> 1)


def _chain(
    mat: _Material,
    tables: Tables,
    masks: dict[int, list[int]],
    ranks: dict[int, dict[int, int]],
    side: int,
    own: int,
    opp: int,
    t: int,
    left: int,
) -> int:
    """The entry (the opponent to move) the mover reaches at best after a capturing step
    onto ``t`` left ``own`` and ``opp`` (``left`` opponent pieces): ending the turn, or
    another capturing step of the piece on ``t``, and so on (``chain=same``). Code 2 (a
    loss in 0) when a capture takes the opponent's last piece."""
    nb, nw = mat.nb, mat.nw
    if side == 0:
        best = tables[(nb, left)][1][ranks[nb][own] * len(masks[left]) + ranks[left][opp]]
    else:
        best = tables[(left, nw)][0][ranks[left][opp] * len(masks[nw]) + ranks[nw][own]]
    liked = _preference(best)
    board = mat.board
    empty = board.full & ~(own | opp)
    for u in board.neighbours[t]:
        if not empty >> u & 1:
            continue
        caps = 0
        for mid, far in board.patterns[u]:
            if opp & mid and own & far:
                caps |= mid
        if not caps:
            continue
        rest = left - caps.bit_count()
        if rest == 0:
            return 2
        code = _chain(mat, tables, masks, ranks, side, own ^ (1 << t) ^ (1 << u), opp & ~caps, u, rest)
        if _preference(code) > liked:
            best, liked = code, _preference(code)
    return best


def _solve(
    mat: _Material,
    tables: Tables,
    masks: dict[int, list[int]],
    ranks: dict[int, dict[int, int]],
    chain: bool = False,
) -> tuple[array[int], array[int]]:
    size = mat.size
    values = (array("H", bytes(2 * size)), array("H", bytes(2 * size)))
    pending = (array("H", bytes(2 * size)), array("H", bytes(2 * size)))  # same-material children left
    longest = (array("H", bytes(2 * size)), array("H", bytes(2 * size)))  # longest opponent win seen
    best_win = (array("H", [UNKNOWN]) * size, array("H", [UNKNOWN]) * size)
    no_loss = (bytearray(size), bytearray(size))  # a child the opponent does not win
    wins: dict[int, list[int]] = {}
    losses: dict[int, list[int]] = {}
    nb, nw = mat.nb, mat.nw
    b_rank, w_rank, stride = mat.b_rank, mat.w_rank, mat.stride
    board = mat.board
    full, neighbours, patterns = board.full, board.neighbours, board.patterns
    for black in mat.b_masks:
        for white in mat.w_masks:
            if black & white:
                continue
            idx = b_rank[black] * stride + w_rank[white]
            empty = full & ~(black | white)
            for side in (0, 1):
                own, opp = (black, white) if side == 0 else (white, black)
                n_opp = nw if side == 0 else nb
                quiet = 0
                steps = 0
                win = UNKNOWN
                worst = 0
                escape = 0
                for a in _bits(own):
                    for t in neighbours[a]:
                        if not empty >> t & 1:
                            continue
                        steps += 1
                        caps = 0
                        for mid, far in patterns[t]:
                            if opp & mid and own & far:
                                caps |= mid
                        if not caps:
                            quiet += 1
                            continue
                        left = n_opp - caps.bit_count()
                        if left == 0:
                            win = 1
                            continue
                        moved = own ^ (1 << a) ^ (1 << t)
                        rest = opp & ~caps
                        if chain:
                            child = _chain(mat, tables, masks, ranks, side, moved, rest, t, left)
                        elif side == 0:
                            child = tables[(nb, left)][1][ranks[nb][moved] * len(masks[left]) + ranks[left][rest]]
                        else:
                            child = tables[(left, nw)][0][ranks[left][rest] * len(masks[nw]) + ranks[nw][moved]]
                        if child == DRAW:
                            escape = 1
                        elif child & 1:  # the opponent wins
                            d = ((child - 1) >> 1) + 1
                            if d > worst:
                                worst = d
                        else:
                            d = ((child - 2) >> 1) + 1
                            if d < win:
                                win = d
                if steps == 0:
                    quiet = 1  # no step at all: the only action is a pass (same material)
                pending[side][idx] = quiet
                longest[side][idx] = worst
                no_loss[side][idx] = escape
                if win != UNKNOWN:
                    best_win[side][idx] = win
                    wins.setdefault(win, []).append(idx * 2 + side)
                elif quiet == 0 and not escape:
                    losses.setdefault(worst, []).append(idx * 2 + side)
    d = 0
    top = max(list(wins) + list(losses) + [0])
    while d <= top:
        for kind, bucket in ((1, wins.pop(d, None)), (2, losses.pop(d, None))):
            if not bucket:
                continue
            for item in bucket:
                idx, side = item >> 1, item & 1
                if values[side][idx]:
                    continue
                values[side][idx] = 2 * d + kind
                top = max(top, d + 1)
                for p_idx in _predecessors(mat, idx, side):
                    p_side = 1 - side
                    if values[p_side][p_idx]:
                        continue
                    if kind == 2:  # a loss for the side to move here: a win one turn earlier
                        if best_win[p_side][p_idx] > d + 1:
                            best_win[p_side][p_idx] = d + 1
                            wins.setdefault(d + 1, []).append(p_idx * 2 + p_side)
                    else:
                        left = pending[p_side][p_idx] - 1
                        pending[p_side][p_idx] = left
                        if longest[p_side][p_idx] < d + 1:
                            longest[p_side][p_idx] = d + 1
                        if left == 0 and not no_loss[p_side][p_idx] and best_win[p_side][p_idx] == UNKNOWN:
                            at = longest[p_side][p_idx]
                            losses.setdefault(at, []).append(p_idx * 2 + p_side)
                            top = max(top, at)
        d += 1
    return values


def _predecessors(mat: _Material, idx: int, side: int) -> Iterator[int]:
    """Indexes of the positions (same material, the other side to move) whose one
    action (a quiet step or a pass) leads to position ``idx`` with ``side`` to move."""
    black = mat.b_masks[idx // mat.stride]
    white = mat.w_masks[idx % mat.stride]
    mover = 1 - side  # who just moved
    own, other = (black, white) if mover == 0 else (white, black)
    board = mat.board
    empty = board.full & ~(black | white)
    b_rank, w_rank, stride = mat.b_rank, mat.w_rank, mat.stride
    for t in _bits(own):
        for a in board.neighbours[t]:
            if not empty >> a & 1:
                continue
            # The step a -> t must not have captured (else it led elsewhere).
            if any(other & mid and own & far for mid, far in board.patterns[t]):
                continue
            before = own ^ (1 << t) ^ (1 << a)
            if mover == 0:
                yield b_rank[before] * stride + w_rank[white]
            else:
                yield b_rank[black] * stride + w_rank[before]
    # A pass: the mover had no step at all, in the same position.
    if not (board.neighbours_of(empty) & own):
        yield idx


def table_name(nb: int, nw: int, size: int = 5, family: str = "ludii") -> str:
    """The file name of a material's table."""
    return f"seega{size}-{family}-{nb}v{nw}.xz"


def table_path(nb: int, nw: int, size: int = 5, family: str = "ludii") -> Path:
    """Where the table of a material is shipped."""
    return DATA_DIR / table_name(nb, nw, size, family)


def pack(tables: tuple[array[int], array[int]]) -> bytes:
    """The compressed file of one material (little-endian 16-bit entries, side 0 first)."""
    raw = bytearray()
    for side in (0, 1):
        arr = array("H", tables[side])
        if arr.itemsize != 2:  # pragma: no cover - every CPython has 2-byte 'H'
            raise RuntimeError("array('H') is not 16-bit here")
        raw += arr.tobytes() if _little() else _swapped(arr).tobytes()
    return lzma.compress(bytes(raw), preset=9)


def unpack(data: bytes) -> tuple[array[int], array[int]]:
    """The inverse of :func:`pack`."""
    raw = lzma.decompress(data)
    half = len(raw) // 2
    out = []
    for part in (raw[:half], raw[half:]):
        arr = array("H")
        arr.frombytes(part)
        out.append(arr if _little() else _swapped(arr))
    return out[0], out[1]


def _little() -> bool:
    return sys.byteorder == "little"


def _swapped(arr: array[int]) -> array[int]:
    other = array("H", arr)
    other.byteswap()
    return other


class EndgameTables:
    """The shipped tables of one board size, loaded lazily (one material at a time, on
    its first probe).

    ``probe(black, white, side)`` gives the table entry of a position (see
    :func:`decode`) or ``None`` when no table covers its material.
    """

    def __init__(self, directory: Path = DATA_DIR, size: int = 5, family: str = "ludii") -> None:
        self.directory = directory
        self.size = size
        self.family = family
        self.cells = size * size
        self._prefix = f"seega{size}-{family}-"
        self.loaded: dict[tuple[int, int], tuple[array[int], array[int]] | None] = {}
        self.max_pieces = max(
            (nb + nw for nb, nw in self.available()),
            default=0,
        )

    def available(self) -> list[tuple[int, int]]:
        """The materials with a shipped table."""
        out = []
        for path in sorted(self.directory.glob(f"{self._prefix}*v*.xz")):
            nb, _, nw = path.name.removeprefix(self._prefix).removesuffix(".xz").partition("v")
            if nb.isdigit() and nw.isdigit():
                out.append((int(nb), int(nw)))
        return out

    def _table(self, nb: int, nw: int) -> tuple[array[int], array[int]] | None:
        key = (nb, nw)
        if key not in self.loaded:
            path = self.directory / table_name(nb, nw, self.size, self.family)
            self.loaded[key] = unpack(path.read_bytes()) if path.exists() else None
        return self.loaded[key]

    def load_reachable(self, black: int, white: int) -> None:
        """Read now every shipped material a game with ``black`` and ``white`` pieces
        can still reach (no more pieces of either colour): at most 0.5 s of CPU and 71
        MB (5x5), once per process. A search calls this before its clock starts when the game
        is a few captures from the tables, so a first read never eats into a budget."""
        for nb, nw in self.available():
            if nb <= black and nw <= white:
                self._table(nb, nw)

    def probe(self, black: int, white: int, side: int) -> int | None:
        """The entry of the position (``None``: not in the tables)."""
        nb, nw = black.bit_count(), white.bit_count()
        if nb == 0 or nw == 0 or nb + nw > self.max_pieces:
            return None
        table = self._table(nb, nw)
        if table is None:
            return None
        stride = comb(self.cells, nw)
        return int(table[side][rank_of(black) * stride + rank_of(white)])


_SHIPPED: dict[tuple[int, str], EndgameTables] = {}


def shipped(size: int = 5, family: str = "ludii") -> EndgameTables:
    """The process-wide tables of a board size and family from ``engine/data/`` (nothing
    is read until a probe)."""
    tables = _SHIPPED.get((size, family))
    if tables is None:
        tables = _SHIPPED[(size, family)] = EndgameTables(size=size, family=family)
    return tables


def shipped_for(rules: Ruleset) -> EndgameTables | None:
    """The shipped tables that apply under ``rules`` (:func:`family_of`), or ``None``."""
    family = family_of(rules)
    return shipped(rules.size, family) if family is not None else None
