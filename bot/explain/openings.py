"""The cells an opening rule leaves for the placements due now, said to the side placing.

Play-test finding (lane): the first turn said "place two pieces with /place, like /place
a1 b2", and a1 b2 was then refused: the lane opening puts each side's first pair on the
middles of two edges. The cells are the engine's legal placements, so the line and the
rule cannot disagree.
"""

from __future__ import annotations

from bot.explain import Line, cell_names
from engine import Position
from engine.actions import PLACE


def opening_cells(position: Position) -> list[str]:
    """The cells left for the placement due in ``position`` when an opening rule, not the
    board, restricts them (file by file); ``[]`` otherwise (a free placement, or the
    board's last empty cells). The turn line and the picture both read it."""
    rules = position.rules
    if position.result is not None or position.phase != "p" or rules.opening == "free":
        return []
    cells = cell_names([a.src for a in position.legal_actions() if a.kind == PLACE])
    occupied = position.bb[0] | position.bb[1]
    free = position.geo.cells - occupied.bit_count() - (0 if rules.place_centre else 1)
    return cells if len(cells) < free else []


def opening_line(position: Position) -> Line | None:
    """The opening's cells as the command to type, said to the side placing (``None``
    when no opening rule restricts the placement due)."""
    cells = opening_cells(position)
    if not cells:
        return None
    return (f"explain.opening.{position.rules.opening}", {"command": "/place " + " ".join(cells)})
