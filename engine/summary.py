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
        took: for each action, the cells whose pieces it captured or removed, so a
            message can say what each step of a chain took, in order.
        turn: the turn number when the first action was played (0 if unknown); a
            summary spanning a turn's end covers turns ``turn`` to the next ones.
        sides: for each action, the colour that played it (a summary spanning turns,
            with a pass played for a blocked player, says who did what); empty if unknown.
    """

    side: int
    actions: tuple[Action, ...]
    placed: tuple[int, ...] = ()
    steps: tuple[tuple[int, int], ...] = ()
    captured: tuple[tuple[int, int], ...] = ()
    removed: tuple[tuple[int, int], ...] = ()
    took: tuple[tuple[int, ...], ...] = ()
    turn: int = 0
    sides: tuple[int, ...] = ()


def summarize_turn(before: Position, actions: Sequence[Action]) -> TurnSummary:
    """Replay ``actions`` on a copy of ``before`` and say what they did."""
    pos = before.copy()
    geo = pos.geo
    side = pos.side
    placed: list[int] = []
    steps: list[tuple[int, int]] = []
    captured: list[tuple[int, int]] = []
    removed: list[tuple[int, int]] = []
    took: list[tuple[int, ...]] = []
    turn = pos.turn
    sides: list[int] = []
    for action in actions:
        sides.append(pos.side)
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
        moved_from = geo.index(action.src) if action.kind == STEP else -1
        took.append(tuple(c for c, _ in gone if c != moved_from))
    return TurnSummary(
        side,
        tuple(actions),
        tuple(placed),
        tuple(steps),
        tuple(captured),
        tuple(removed),
        tuple(took),
        turn,
        tuple(sides),
    )


def shuttle_holds(position: Position, side: int | None = None) -> tuple[tuple[int, int], ...]:
    """(piece, cell) for every step the shuttle limit forbids now, into an empty cell;
    only for the pieces of ``side`` when given (``BLACK``/``WHITE``).

    A player who sees an empty cell beside a piece and cannot step there needs to be
    told why: renderers mark these pieces and messages explain them. Steps into an
    occupied cell are left out (they are impossible anyway, for a plainer reason). A
    picture for the side to move passes ``position.side``: the other side's holds are
    nothing it can act on (play-test pt40: White's held a9 marked on Black's turn).
    """
    limit = 2 * position.rules.max_shuttles
    if not limit:
        return ()
    empty = ~(position.bb[0] | position.bb[1])
    held = [
        (cell, other)
        for cell, (other, run) in position.hist.items()
        if run >= limit
        and empty >> other & 1
        and position.piece_at(cell) is not None
        and (side is None or position.piece_at(cell) == side)
    ]
    return tuple(sorted(held))


def last_turn(position: Position) -> tuple[Position, list[Action]]:
    """The position at the start of the turn of the last action played, and the actions
    of that turn so far (all of them if the turn is over).

    A picture after the second step of a chain must show the first step too: the caller
    summarizes from here rather than from its own command. Needs the actions pushed on
    ``position`` (a position read from SPN has none: it is returned as it is, with ``[]``).
    """
    start = position.copy()
    try:
        action = start.pop()
    except IndexError:
        return start, []
    actions = [action]
    turn = (start.turn, start.side)
    while True:
        try:
            earlier = start.pop()
        except IndexError:
            break
        if (start.turn, start.side) != turn:
            start.push(earlier)
            break
        actions.append(earlier)
    actions.reverse()
    return start, actions
