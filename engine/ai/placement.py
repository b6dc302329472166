"""The placement policy: which cells to consider first, and how wide to search.

Placement has hundreds of choices per turn (two actions per turn) and its real value
only shows once the pieces move, so the policy is layered:

1. A static ranking of cells (the sources' advice [000] [002]): cells next to the
   centre first (the first steps of the movement phase enter the centre from them, and
   a side without one is blocked at once), then corners (never capturable) and the
   outer rows (close in on the enemy), then inner cells nearer the centre.
2. The search tries only the ``width`` best-ranked placements per node (plus the
   transposition-table and killer actions) while the board has many empty cells; the
   leaves are scored by the placement evaluation (``evaluate.py``: cells held next to
   the centre and on the edges, and captures the first step into the centre would make
   for the side that moves first, the last placer by default).
3. Once ``FULL_WIDTH_EMPTIES`` cells or fewer are left, every placement is searched and
   the search runs on into the movement phase, so the last placements are chosen by
   what they lead to (the opening captures around the centre), not by a heuristic.
"""

from __future__ import annotations

from engine.board import geometry
from engine.rules import Ruleset

#: At or below this many empty cells every placement is searched.
FULL_WIDTH_EMPTIES = 6


def cell_values(rules: Ruleset) -> list[int]:
    """A static value per cell (bit index) used to rank placements."""
    geo = geometry(rules.size)
    n = geo.n
    adj = geo.neighbour_mask[geo.centre]
    values = []
    for c in range(geo.cells):
        r, f = divmod(c, n)
        if c == geo.centre:
            v = 40 if rules.place_centre else 0
        elif adj >> c & 1:
            v = 30
        elif r in (0, n - 1) and f in (0, n - 1):
            v = 14
        elif r in (0, n - 1) or f in (0, n - 1):
            v = 10
        else:
            v = 6 - (abs(r - n // 2) + abs(f - n // 2))
        if rules.win_line:
            # Line games: every cell counts by the lines through it; keep the order flat.
            v = 10 + (v >= 30) * 2
        values.append(v)
    return values
