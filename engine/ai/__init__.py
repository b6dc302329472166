"""The computer opponent: chooses actions for any position under any ruleset.

Public API (stable; the bot calls it in worker processes):

* ``best_action(position, level, movetime_ms, seed)`` -> one :class:`Action`.
* ``best_turn(position, level, movetime_ms, seed)`` -> the actions of a whole turn
  (a placement pair, a capture chain), chosen one by one on a copy.
* ``think(request)`` -> the same as action texts, from a picklable
  :class:`TurnRequest` (ruleset, record so far, level, budget, seed).

None of them mutates the position it is given.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.actions import Action
from engine.errors import GameOverError
from engine.position import Position
from engine.rules import Ruleset

LEVELS = ("easy", "medium", "hard", "expert")


def best_action(
    position: Position, level: str = "hard", movetime_ms: int | None = None, seed: int | None = None
) -> Action:
    """The action the AI plays in ``position`` (placeholder: a random legal action)."""
    if position.result is not None:
        raise GameOverError(f"no best action: the game is over ({position.result}) in {position.spn()}")
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels are {', '.join(LEVELS)}")
    return random.Random(seed).choice(position.legal_actions())


def best_turn(
    position: Position, level: str = "hard", movetime_ms: int | None = None, seed: int | None = None
) -> list[Action]:
    """The actions of the side to act until its turn ends (or the game does)."""
    pos = position.copy()
    turn, side = pos.turn, pos.side
    actions: list[Action] = []
    while pos.result is None and pos.turn == turn and pos.side == side:
        action = best_action(pos, level, movetime_ms, None if seed is None else seed + len(actions))
        pos.push(action)
        actions.append(action)
    return actions


@dataclass(frozen=True)
class TurnRequest:
    """A picklable request for the AI's turn: the game so far and how to think.

    Attributes:
        variant, size, options: the ruleset (options as ``name=value`` strings).
        actions: every action played since the start (or ``setup``), as text, so the
            shuttle history is known.
        setup: the SPN the game started from, or ``None``.
        level: ``easy``, ``medium``, ``hard`` or ``expert``.
        movetime_ms: the budget per action, or ``None`` for the level's default.
        seed: for reproducible choices.
    """

    variant: str
    size: int
    options: tuple[str, ...] = ()
    actions: tuple[str, ...] = ()
    setup: str | None = None
    level: str = "hard"
    movetime_ms: int | None = None
    seed: int | None = None


def think(request: TurnRequest) -> list[str]:
    """Replay the request's game and return the AI's whole turn as action texts."""
    rules = Ruleset.make(request.variant, request.size, request.options)
    pos = Position.from_spn(request.setup, rules) if request.setup else Position(rules)
    for text in request.actions:
        pos.play(text)
    return [str(a) for a in best_turn(pos, request.level, request.movetime_ms, request.seed)]
