"""The computer opponent: chooses actions for any position under any ruleset.

Public API (stable; the bot calls it in worker processes):

* ``best_action(position, level, movetime_ms, seed)`` -> one :class:`Action`.
* ``best_turn(position, level, movetime_ms, seed)`` -> the actions of a whole turn
  (a placement pair, a capture chain), chosen one by one on a copy.
* ``think(request)`` -> the same as action texts, from a picklable
  :class:`TurnRequest` (ruleset, record so far, level, budget, seed).
* ``position_value(request)`` -> the AI's value of that position for the side to act
  (centipieces), which the bot weighs before answering a draw or an end by count.

None of them mutates the position it is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import Action
from engine.ai.analysis import analyse as analyse
from engine.ai.hint import hint
from engine.ai.levels import LEVEL_TABLE, get_level
from engine.ai.player import action_of, choose, play_turn
from engine.ai.search import WIN
from engine.errors import GameOverError, SeegaError
from engine.position import Position
from engine.rules import Ruleset

LEVELS = ("easy", "medium", "hard", "expert")
assert tuple(LEVEL_TABLE) == LEVELS

__all__ = [
    "LEVELS",
    "TurnRequest",
    "best_action",
    "best_turn",
    "hint",
    "position_value",
    "request_turn_problem",
    "think",
    "turn_problem",
]


def _check(position: Position, level: str) -> None:
    if position.result is not None:
        raise GameOverError(f"no best action: the game is over ({position.result}) in {position.spn()}")
    get_level(level)


def best_action(
    position: Position, level: str = "hard", movetime_ms: int | None = None, seed: int | None = None
) -> Action:
    """The action the AI plays in ``position`` at ``level``.

    Args:
        position: an ongoing position (not modified).
        level: one of :data:`LEVELS`.
        movetime_ms: the budget for this action in milliseconds (``None``: the level's
            default, 1 s for hard and 3 s for expert); never overrun by more than
            10% + 50 ms.
        seed: seeds the level's deliberate randomness (easy) for reproducible games.

    Raises:
        GameOverError: the game is over.
        ValueError: unknown level.
    """
    _check(position, level)
    pos = position.copy()
    choice = choose(pos, get_level(level), movetime_ms, seed)
    return action_of(pos, choice.code)


def best_turn(
    position: Position, level: str = "hard", movetime_ms: int | None = None, seed: int | None = None
) -> list[Action]:
    """The actions of the side to act until its turn ends (or the game does).

    The first action is searched; the search's principal variation usually already
    holds the rest of the turn (the second piece of a pair, the rest of a chain), and
    is followed while it does, so a whole turn costs about one action's budget. When
    it runs out the next action is searched with the same budget.
    """
    _check(position, level)
    pos = position.copy()
    choices = play_turn(pos, get_level(level), movetime_ms, seed)
    return [action_of(pos, c.code) for c in choices]


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


def _replay(request: TurnRequest) -> Position:
    """The request's game: its setup (or the start) with every action played."""
    rules = Ruleset.make(request.variant, request.size, request.options)
    pos = Position.from_spn(request.setup, rules) if request.setup else Position(rules)
    for text in request.actions:
        pos.play(text)
    return pos


def turn_problem(pos: Position, texts: Sequence[str]) -> str | None:
    """Why ``texts`` is not a whole legal turn of the side to act in ``pos`` (``pos`` is
    left as it was), or ``None``. Actions past the end of the turn are ignored, as the
    service does. What a search in another process (an AI worker on another release, or
    a broken one) answers is checked with it before anything is played."""
    pos = pos.copy()
    turn, side = pos.turn, pos.side
    for text in texts:
        if pos.turn != turn or pos.side != side or pos.result is not None:
            return None
        try:
            pos.play(text)
        except SeegaError as exc:
            return str(exc)
    if pos.turn == turn and pos.side == side and pos.result is None:
        return f"the turn is incomplete after {' '.join(texts) or 'no action'}"
    return None


def request_turn_problem(request: TurnRequest, texts: Sequence[str]) -> str | None:
    """:func:`turn_problem` in the request's game."""
    return turn_problem(_replay(request), texts)


def think(request: TurnRequest) -> list[str]:
    """Replay the request's game and return the AI's whole turn as action texts."""
    pos = _replay(request)
    return [str(a) for a in best_turn(pos, request.level, request.movetime_ms, request.seed)]


#: Forced actions followed at most before :func:`position_value` gives up and calls it even.
_FORCED_LIMIT = 64


def position_value(request: TurnRequest) -> int:
    """The AI's value of the request's position for the side to act, searched at its level.

    In centipieces (100 = a piece), or ``±WIN`` (``engine.ai.search.WIN``) for a game
    that is over or a forced end the search sees. Forced actions (a single legal one)
    are followed first, since the search does not score those. The bot asks it before
    answering a draw or an end by count; like :func:`think` it runs in a worker process.
    """
    pos = _replay(request)
    side = pos.side
    level = get_level(request.level)
    for _ in range(_FORCED_LIMIT):
        if pos.result is not None:
            winner = pos.result.winner
            return 0 if winner is None else (WIN if winner == side else -WIN)
        choice = choose(pos, level, request.movetime_ms, request.seed)
        if choice.result is not None:
            return choice.result.score if pos.side == side else -choice.result.score
        pos.push_code(choice.code)
    return 0
