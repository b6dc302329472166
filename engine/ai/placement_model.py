"""A learned placement evaluation: symmetric n-tuples fitted to deep searches.

The hand-written placement terms (``evaluate.py``) count cells next to the centre, on
the edges and in the corners. What a placement is worth depends on patterns: whose
pieces flank a cell next to the centre, whether the first step into the centre
captures, which rows are shut. An n-tuple network learns such patterns directly: a few
small groups of cells ("shapes"), each with a weight for every way its cells can be
filled (empty, the first mover's, the second mover's), summed over the board's eight
symmetric images of the shape, with one set of weights per stage of the placement
phase (thirds by default; a model may have more, its weight lists say how many). The
sum is a logit of the first mover's expected score; times ``SCALE`` it is in
centipieces, the evaluation's unit.

The shapes (5x5 cell names; the same rule on any size):

* ``line``: a whole row, for the outer row, the second row and the middle row
  (with the symmetry: every row and every column); on 9x9 a whole row has 19,683
  states, too many to learn or hold in memory, so there ``half`` takes its place: a
  row from the edge to the middle column (five cells; with the symmetry, both halves
  of every row and column);
* ``block``: a 2x2 square in the corner, on the edge and next to the centre;
* ``arm``: the four cells next to the centre and the cell beyond one of them (on 5x5
  b3 c2 c4 d3 and a3): the first step into the centre and what it captures.

Weights come from ``bench/learn_placement.py`` (self-play positions labelled by a deep
search, a logistic fit) and are stored per preset and size in ``placement_model.json``
(``"standard/5"``, ``"standard/7"``); the model is used only for rulesets equal to a
fitted preset at that size (the turn limit aside), since another option (a different
first mover, safe centre or chain rule) changes what a pattern is worth. The tables are
built when a ruleset's model is first asked for (0.3 s for 7x7). ``docs/ai.md``
("Placement policy") has the data and measurements.
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources
from pathlib import Path

from engine.rules import OPTION_NAMES, Ruleset

#: Where the fitted weights are stored (per preset).
#: Found through the package, not ``__file__``, which a compiled build (``engine.compiled``)
#: sets to a path that does not exist.
MODEL_FILE = Path(str(resources.files("engine.ai") / "placement_model.json"))
#: Centipieces per logit unit: the coach's curve (``analysis.SCALE``; a test checks
#: they agree), so a value reads as a win chance the same way everywhere.
SCALE = 300.0
#: Stages of the placement phase (equal parts of the pieces placed), each with its weights:
#: the default; a model's own count is the length of its weight lists.
STAGES = 3
#: The largest row learnt whole; on larger boards half rows (``half{r}``) stand in.
WHOLE_LINES_UP_TO = 7
#: Options that may differ from the fitted preset (they do not change placement).
FREE_OPTIONS = frozenset({"turn_limit"})


def symmetries(n: int) -> list[list[int]]:
    """The 8 symmetries of the n x n board, each as a cell -> image cell list."""
    out = []
    for k in range(4):
        for flip in (False, True):
            mapping = []
            for c in range(n * n):
                r, f = divmod(c, n)
                if flip:
                    f = n - 1 - f
                for _ in range(k):
                    r, f = f, n - 1 - r
                mapping.append(r * n + f)
            out.append(mapping)
    return out


def base_shapes(n: int) -> dict[str, list[int]]:
    """Each shape class's canonical cells, in a fixed order (the weights index them)."""
    m = n // 2
    shapes: dict[str, list[int]] = {}
    for r in range(m + 1):
        if n <= WHOLE_LINES_UP_TO:
            shapes[f"line{r}"] = [r * n + f for f in range(n)]
        else:
            shapes[f"half{r}"] = [r * n + f for f in range(m + 1)]
    for r in range(m):
        for f in range(r, m):
            shapes[f"block{r}{f}"] = [r * n + f, r * n + f + 1, (r + 1) * n + f, (r + 1) * n + f + 1]
    centre = m * n + m
    shapes["arm"] = [centre - 1, centre - n, centre + n, centre + 1, centre - 2]
    return shapes


def stage_of(placed: int, total: int, stages: int = STAGES) -> int:
    """The stage (0 to stages - 1) of a position with ``placed`` of ``total`` pieces on
    the board: equal parts of the placement phase (thirds by default)."""
    return min(stages - 1, placed * stages // (total + 1))


def hand_index(first: int, second: int) -> int:
    """The bias column: the first mover's pieces minus the second's, clamped to -2..2, + 2."""
    return max(-2, min(2, first.bit_count() - second.bit_count())) + 2


class Shape:
    """One shape class: its canonical cells and every symmetric image of them."""

    def __init__(self, name: str, cells: list[int], n: int) -> None:
        self.name = name
        self.cells = cells
        self.size = len(cells)
        self.states = 3**self.size
        #: The images of the canonical cells under the 8 symmetries (duplicates kept:
        #: a shape symmetric in itself is counted once per symmetry, consistently).
        self.images = [[s[c] for c in cells] for s in symmetries(n)]

    def index(self, image: list[int], first: int, second: int) -> int:
        """The state of ``image``: base 3, 1 for the first mover, 2 for the second."""
        i = 0
        for c in image:
            i = 3 * i + (1 if first >> c & 1 else 2 if second >> c & 1 else 0)
        return i


class PlacementModel:
    """Fitted weights for one ruleset; :meth:`value` evaluates a placement position.

    Args:
        rules: the ruleset the weights were fitted for (its size and pieces).
        weights: shape name -> per stage, a weight (logit units) per state; every shape
            has the same number of stages (the model's ``stages``).
        bias: per pieces placed, per (first mover's pieces minus second's) + 2.
    """

    def __init__(self, rules: Ruleset, weights: dict[str, list[list[float]]], bias: list[list[float]]) -> None:
        self.rules = rules
        n = rules.size
        self.cells = n * n
        self.total = 2 * rules.pieces
        self.shapes = [Shape(name, cells, n) for name, cells in base_shapes(n).items()]
        counts = {len(weights[shape.name]) for shape in self.shapes}
        if len(counts) != 1 or min(counts) < 1:
            raise ValueError(f"every shape needs the same number of stages (at least one), got {sorted(counts)}")
        #: Equal parts of the placement phase with their own weights (3: thirds).
        self.stages = counts.pop()
        self.weights = weights
        self.bias = bias
        # Lookup tables: per stage, (mask | mask << cells, {(first & mask) | (second &
        # mask) << cells: centipieces}) for each distinct cell set, images of equal sets
        # merged (30 lookups on 5x5: it runs at every placement leaf of the search). The
        # key is one and of ``first | second << cells`` with the first field.
        self._tables: list[list[tuple[int, dict[int, int]]]] = []
        for stage in range(self.stages):
            merged: dict[int, dict[int, float]] = {}
            for shape in self.shapes:
                w = weights[shape.name][stage]
                for image in shape.images:
                    mask = sum(1 << c for c in image)
                    table = merged.setdefault(mask, {})
                    for state in range(shape.states):
                        first = second = 0
                        s = state
                        for c in reversed(image):
                            s, digit = divmod(s, 3)
                            if digit == 1:
                                first |= 1 << c
                            elif digit == 2:
                                second |= 1 << c
                        key = first | second << self.cells
                        table[key] = table.get(key, 0.0) + w[state]
            self._tables.append(
                [
                    (mask | mask << self.cells, {k: round(v * SCALE) for k, v in table.items()})
                    for mask, table in merged.items()
                ]
            )
        self._bias = [[round(b * SCALE) for b in row] for row in bias]

    def stage(self, placed: int) -> int:
        """The stage (0 to ``stages`` - 1) of a position with ``placed`` pieces on the board."""
        return stage_of(placed, self.total, self.stages)

    def stage_range(self, stage: int) -> tuple[int, int]:
        """The pieces-placed counts of ``stage`` (for reports)."""
        placed = [p for p in range(self.total + 1) if self.stage(p) == stage]
        return placed[0], placed[-1]

    def value(self, first: int, second: int) -> int:
        """The first mover's advantage in centipieces (first, second: bitboards)."""
        placed = (first | second).bit_count()
        both = first | second << self.cells
        return self._bias[min(placed, self.total)][hand_index(first, second)] + sum(
            [table[both & mask] for mask, table in self._tables[self.stage(placed)]]
        )

    def to_json(self) -> dict[str, object]:
        return {
            "size": self.rules.size,
            "pieces": self.rules.pieces,
            "weights": {k: [[round(x, 5) for x in stage] for stage in v] for k, v in self.weights.items()},
            "bias": [[round(x, 5) for x in row] for row in self.bias],
        }

    def save(self, path: Path = MODEL_FILE) -> None:
        """Store these weights under the ruleset's preset and size, keeping the others."""
        data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        data[model_key(self.rules.variant, self.rules.size)] = self.to_json()
        path.write_text(json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n", encoding="utf-8")


class Trainer:
    """Stochastic gradient descent on the logistic loss, for ``bench/learn_placement.py``."""

    def __init__(self, rules: Ruleset, stages: int = STAGES) -> None:
        self.rules = rules
        self.stages = stages
        n = rules.size
        self.shapes = [Shape(name, cells, n) for name, cells in base_shapes(n).items()]
        self.weights = {s.name: [[0.0] * s.states for _ in range(stages)] for s in self.shapes}
        self.bias = [[0.0] * 5 for _ in range(2 * rules.pieces + 1)]

    def step(self, first: int, second: int, target: float, rate: float) -> float:
        """One gradient step towards ``target`` (a win chance); returns the loss before it."""
        placed = (first | second).bit_count()
        diff = hand_index(first, second)
        stage = stage_of(placed, 2 * self.rules.pieces, self.stages)
        used: list[tuple[list[float], int]] = []
        logit = self.bias[placed][diff]
        for shape in self.shapes:
            w = shape_weights = self.weights[shape.name][stage]
            for image in shape.images:
                i = shape.index(image, first, second)
                logit += w[i]
                used.append((shape_weights, i))
        p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, logit))))
        grad = p - target
        self.bias[placed][diff] -= rate * grad * 8
        for w, i in used:
            w[i] -= rate * grad
        p = min(max(p, 1e-9), 1 - 1e-9)
        return -(target * math.log(p) + (1 - target) * math.log(1 - p))

    def model(self) -> PlacementModel:
        return PlacementModel(self.rules, self.weights, self.bias)


def matches(rules: Ruleset, variant: str, size: int) -> bool:
    """Whether ``rules`` is the preset ``variant`` at ``size`` (free options aside)."""
    if rules.variant != variant or rules.size != size:
        return False
    base = Ruleset.make(variant, size)
    return all(getattr(rules, k) == getattr(base, k) for k in OPTION_NAMES if k not in FREE_OPTIONS)


def model_key(variant: str, size: int) -> str:
    """The key of a preset's weights at a size in :data:`MODEL_FILE` (``"standard/5"``)."""
    return f"{variant}/{size}"


@cache
def _stored() -> dict[str, dict[str, object]]:
    if not MODEL_FILE.exists():
        return {}
    data: dict[str, dict[str, object]] = json.loads(MODEL_FILE.read_text(encoding="utf-8"))
    return data


@cache
def _build(variant: str, size: int) -> PlacementModel:
    entry = _stored()[model_key(variant, size)]
    return PlacementModel(Ruleset.make(variant, size), entry["weights"], entry["bias"])  # type: ignore[arg-type]


def load(rules: Ruleset) -> PlacementModel | None:
    """The fitted model for ``rules``, or ``None`` when none was fitted for it."""
    if model_key(rules.variant, rules.size) not in _stored() or not matches(rules, rules.variant, rules.size):
        return None
    return _build(rules.variant, rules.size)
