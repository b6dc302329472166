"""What a turn did, as data: the cells placed, the steps, the captures and removals.

Renderers and messages need this; it is rules knowledge (which pieces a step took), so
it lives in the engine, computed by replaying the turn on a copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import PLACE, REMOVE, STEP, Action
from engine.position import Position, iter_bits


@dataclass(frozen=True)
class TurnSummary:
    """One turn (or part of one) in bit indexes of the position's board.

    Attributes:
        side: who acted (``BLACK``/``WHITE``), the side to act before the first action.
        actions: the actions, in order.
        placed: cells placed on (or replaced, in the five-in-a-row phase).
        steps: (from, to) for every step, in order (a chain has several).
        captured: (cell, colour) of every piece captured by the steps.
        removed: (cell, colour) of every piece removed by a removal action.
    """

    side: int
    actions: tuple[Action, ...]
    placed: tuple[int, ...] = ()
    steps: tuple[tuple[int, int], ...] = ()
    captured: tuple[tuple[int, int], ...] = ()
    removed: tuple[tuple[int, int], ...] = ()


def summarize_turn(before: Position, actions: Sequence[Action]) -> TurnSummary:
    """Replay ``actions`` on a copy of ``before`` and say what they did."""
    pos = before.copy()
    geo = pos.geo
    side = pos.side
    placed: list[int] = []
    steps: list[tuple[int, int]] = []
    captured: list[tuple[int, int]] = []
    removed: list[tuple[int, int]] = []
    for action in actions:
        old = (pos.bb[0], pos.bb[1])
        pos.push(action)
        gone = [(c, color) for color in (0, 1) for c in iter_bits(old[color] & ~pos.bb[color])]
        if action.kind == PLACE:
            placed.append(geo.index(action.src))
        elif action.kind == STEP:
            a, t = geo.index(action.src), geo.index(action.dst)
            steps.append((a, t))
            captured.extend((c, color) for c, color in gone if c != a)
        elif action.kind == REMOVE:
            removed.extend(gone)
    return TurnSummary(side, tuple(actions), tuple(placed), tuple(steps), tuple(captured), tuple(removed))


def shuttle_holds(position: Position) -> tuple[tuple[int, int], ...]:
    """(piece, cell) for every step the shuttle limit forbids now, into an empty cell.

    A player who sees an empty cell beside a piece and cannot step there needs to be
    told why: renderers mark these pieces and messages explain them. Steps into an
    occupied cell are left out (they are impossible anyway, for a plainer reason).
    """
    limit = 2 * position.rules.max_shuttles
    if not limit:
        return ()
    empty = ~(position.bb[0] | position.bb[1])
    held = [
        (cell, other)
        for cell, (other, run) in position.hist.items()
        if run >= limit and empty >> other & 1 and position.piece_at(cell) is not None
    ]
    return tuple(sorted(held))
