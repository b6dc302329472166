"""Taking back a turn against the bot: back to the start of the player's last turn.

Pure: it works on a position with its actions pushed (a loaded game's), so the rule of
what "one step back" means is tested without storage or Discord. The service stores the
shortened action list through its usual write path.
"""

from __future__ import annotations

from engine import Position
from engine.summary import last_turn


def takeback(position: Position, color: int) -> tuple[Position, int]:
    """The position at the start of ``color``'s most recent turn, and how many actions
    were taken back (the bot's replies after that turn included).

    Mid-chain, that is the start of the turn in progress: the whole chain so far goes.
    ``(position, 0)`` when ``color`` has not played yet (nothing to take back).
    """
    current = position
    taken = 0
    while True:
        start, actions = last_turn(current)
        if not actions:
            return position, 0
        taken += len(actions)
        current = start
        if current.side == color:
            return current, taken
