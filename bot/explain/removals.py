"""Why a piece must be removed now, whose, and which: the line a player reads when the
variant's blocked rule asks them for ``/remove``.

In a seejeh game a newcomer walled in every white piece and read only "Turn 23: Black
(you) to play."; the picture said "You to remove a piece", and nothing said why, whose
piece, or which command. Every blocked rule that removes a piece (docs/rules.md section
4) has its own reason, and the cells come from the engine's legal removals, so the line
never offers a cell the rules refuse.
"""

from __future__ import annotations

from bot.explain import Line, cell_names
from engine import Position
from engine.actions import REMOVE
from engine.outcome import BLACK

#: More cells than this are cut with "…": every piece of a 5x5 side fits; a 9x9 capture-one
#: could offer 40.
SHOWN_CELLS = 12


def removal_line(position: Position) -> Line | None:
    """The reason and the cells of the removal due in ``position``, addressed to the side
    that removes (``None`` when no removal is due)."""
    if position.result is not None or position.phase != "r":
        return None
    cells = cell_names([a.src for a in position.legal_actions() if a.kind == REMOVE])
    if len(cells) == 1:
        command: Line = ("explain.removal.command_one", {"cell": cells[0]})
    else:
        shown = cells[:SHOWN_CELLS] + (["…"] if len(cells) > SHOWN_CELLS else [])
        command = ("explain.removal.command", {"cells": shown})
    other: Line = ("explain.colour.white", {}) if position.side == BLACK else ("explain.colour.black", {})
    params: dict[str, object] = {"command": command, "blocked": other}
    rule = position.rules.blocked
    if rule == "lose":
        # The first-step exception: the cell the first step left is the state.
        params["cell"] = position.geo.names[position.state]
    elif rule == "pass":
        rule = "both"  # under "pass" a removal is due only when both sides are blocked
    return (f"explain.removal.{rule}", params)
