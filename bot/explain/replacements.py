"""What the five-in-a-row replacement phase asks of the side to act, and which cells.

Play-test finding: when the board filled without a line, the console said only "Turn 14:
White (you) to play." The picture said "You to replace a piece", but nothing said that
each side replaces once, what a replacement that makes no line does, or which command.
The cells are the engine's legal actions (the enemy pieces), so none is offered that the
rules refuse.
"""

from __future__ import annotations

from bot.explain import Line, cell_names, colour
from bot.explain.removals import shown_cells
from engine import Position
from engine.actions import PLACE
from engine.outcome import BLACK


def replacement_line(position: Position) -> Line | None:
    """The replacement due in ``position``, addressed to the side that replaces: Black's
    first (White replaces after it) or White's, the game's last action (``None`` when
    no replacement is due)."""
    if position.result is not None or position.phase != "s":
        return None
    cells = cell_names([a.src for a in position.legal_actions() if a.kind == PLACE])
    enemy = colour(1 - position.side)
    # Black replaces first; White's replacement is the last action of the game.
    key = "explain.replacement.first" if position.side == BLACK else "explain.replacement.last"
    command: Line = ("explain.replacement.command", {"cells": shown_cells(cells)})
    return (key, {"enemy": enemy, "count": position.rules.win_line, "command": command})
