"""What the side to act must do when the rules ask for more than a free placement or a
step: one line for the turn message, from the position *with its history*.

The line used to be made from the stored SPN, which carries no shuttle history
(RULES.md section 7), so a removal forced by the shuttle limit lost its reason ("the
shuttle limit forbids a4→a5") on Discord and at the console, though the function that
words it knew how. The service makes the line from the loaded game instead
(:attr:`bot.results.GameView.task`).
"""

from __future__ import annotations

from bot.explain import Line
from bot.explain.openings import opening_line
from bot.explain.removals import removal_line
from bot.explain.replacements import replacement_line
from engine import Position


def task_line(position: Position) -> Line | None:
    """A removal with why, whose piece and the cells; a five-in-a-row replacement with
    what it does and the cells; the cells an opening rule leaves; else ``None``."""
    if position.phase == "r":
        return removal_line(position)
    if position.phase == "s":
        return replacement_line(position)
    if position.phase == "p" and position.rules.opening != "free":
        return opening_line(position)
    return None
