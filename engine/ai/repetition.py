"""Repetitions: the game's turn starts, and what coming back to one is worth.

A turn start that comes again (same pieces, same side to move) scores as a draw shaded
by contempt (``docs/ai.md``, "Repetitions and contempt"): the side ahead prefers lines
that make progress, the side behind steers into repetitions.
"""

from __future__ import annotations

from engine.position import START, Position

#: At equal material, a side whose evaluation is this far ahead counts as ahead for the
#: contempt (at half the contempt).
STRUCTURAL_PLUS = 50


def repetition_key(pos: Position) -> int:
    """The key under which a turn start counts as the same position."""
    return hash((pos.bb[0], pos.bb[1], pos.side))


def game_keys(pos: Position) -> set[int]:
    """Repetition keys of the turn starts of the game so far (the position's own
    record: :func:`engine.ai.think` replays the whole game), back to the last capture
    (material only goes down, so nothing earlier can come again), the root included."""
    keys: set[int] = set()
    p = pos.copy()
    counts = (p.count(0), p.count(1))
    for _ in range(len(p.move_stack) + 1):
        if (p.count(0), p.count(1)) != counts:
            break
        if p.phase == "m" and p.state == START:
            keys.add(repetition_key(p))
        if not p.move_stack:
            break
        p.pop()
    return keys


def repetition_value(pos: Position, contempt: int, static: int) -> int:
    """The value of a repeated position for the side to act (``static``: its
    evaluation): a draw, shaded by contempt, so the side with more pieces (or, at equal
    material, a clear structural plus) avoids going round in circles and the side
    behind seeks it."""
    side = pos.side
    diff = pos.bb[side].bit_count() - pos.bb[1 - side].bit_count()
    if diff:
        return -contempt if diff > 0 else contempt
    # Equal material: a clear structural plus (half a piece by the evaluation) also
    # makes going round in circles a waste, at half the contempt.
    if static > STRUCTURAL_PLUS:
        return -contempt // 2
    if static < -STRUCTURAL_PLUS:
        return contempt // 2
    return 0
