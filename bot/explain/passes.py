"""Passes nobody has to type: when passing is a player's only legal action, it is played
for them at once, with the reason in words.

A player who waits for something to happen after "Omar is blocked and passes" loses on
time; a player told to pass with a command they never met is lost. The service calls
:func:`forced_passes` after every stored turn and plays what it returns.
"""

from __future__ import annotations

from bot.explain import Line
from engine import Position
from engine.actions import PASS, Action
from engine.summary import shuttle_holds

#: More forced passes in a row than this means both sides are stuck: a rules bug; stop.
MAX_PASSES = 4


def only_pass(position: Position) -> Action | None:
    """The pass, if it is the side to act's only legal action; else ``None``."""
    if position.result is not None:
        return None
    legal = position.legal_actions()
    if len(legal) == 1 and legal[0].kind == PASS:
        return legal[0]
    return None


def nth_line(times: int) -> Line:
    """ "third" (for 3) as a line: the ordinal in each language."""
    return (f"explain.nth.{times}", {}) if 1 <= times <= 6 else ("explain.nth.many", {"count": times})


def pass_reason(position: Position, name: str) -> Line:
    """Why the side to act must pass: the shuttle limit holding a piece, or walled in."""
    own = [hold for hold in shuttle_holds(position) if position.piece_at(hold[0]) == position.side]
    if own:
        piece, cell = own[0]
        names = position.geo.names
        nth = nth_line(position.rules.max_shuttles + 1)
        return ("explain.pass.shuttle", {"name": name, "piece": names[piece], "cell": names[cell], "nth": nth})
    return ("explain.pass.walled", {"name": name})


def forced_passes(position: Position, names: tuple[str, str]) -> list[tuple[Action, Line]]:
    """Play every pass that is the only legal action, on ``position`` itself, in order;
    the passes played and why (``[]`` when the player to act has a choice)."""
    played: list[tuple[Action, Line]] = []
    for _ in range(MAX_PASSES):
        action = only_pass(position)
        if action is None:
            break
        reason = pass_reason(position, names[position.side])
        position.push(action)
        played.append((action, reason))
    return played
