"""Hints: the action the AI would play, with a short reason a player can follow.

The reason is read off the position before and after the action (captures, threats,
pieces saved, the centre), not from the search's internals, so it names something the
player can see on the board.
"""

from __future__ import annotations

from engine.actions import Action
from engine.ai.levels import get_level
from engine.ai.player import action_of, choose, components
from engine.ai.search import WIN_BOUND
from engine.errors import GameOverError
from engine.position import Position


def hint(position: Position, movetime_ms: int = 500) -> tuple[Action, str]:
    """The suggested action for the side to act and why, e.g. ``(b2-c2, "captures 2 pieces")``.

    Args:
        position: an ongoing position (not modified).
        movetime_ms: how long to think (a hard-level search).

    Raises:
        GameOverError: the game is over.
    """
    if position.result is not None:
        raise GameOverError(f"no hint: the game is over ({position.result}) in {position.spn()}")
    pos = position.copy()
    codes = pos.legal_codes()
    choice = choose(pos, get_level("hard"), movetime_ms, 0)
    action = action_of(pos, choice.code)
    if len(codes) == 1:
        return action, "the only legal action"
    evaluator, _tactics = components(pos.rules)
    side = pos.side
    score = choice.result.score if choice.result else 0
    before_own, before_opp = pos.bb[side].bit_count(), pos.bb[1 - side].bit_count()
    empty = evaluator.full & ~(pos.bb[0] | pos.bb[1])
    hanging_before = evaluator.vulnerable(pos.bb[side], pos.bb[1 - side], empty).bit_count()
    pos.push_code(choice.code)
    reasons: list[str] = []
    if pos.result is not None and pos.result.winner == side:
        reasons.append("wins the game")
    captured = before_opp - pos.bb[1 - side].bit_count()
    if captured and action.kind == "step":
        reasons.append(f"captures {captured} piece{'s' if captured > 1 else ''}")
    elif captured:
        reasons.append("removes an enemy piece")
    if action.kind == "place":
        geo = pos.geo
        cell = geo.index(action.src)
        if cell in geo.neighbours[geo.centre]:
            reasons.append("holds a cell next to the centre, from where the first steps start")
        elif cell in (0, geo.n - 1, geo.cells - geo.n, geo.cells - 1):
            reasons.append("takes a corner, where a piece can never be captured")
        else:
            reasons.append("strengthens your position for the movement phase")
    elif action.kind == "step" and pos.result is None:
        empty = evaluator.full & ~(pos.bb[0] | pos.bb[1])
        own = pos.bb[side]
        hanging_after = evaluator.vulnerable(own, pos.bb[1 - side], empty).bit_count()
        threats = evaluator.vulnerable(pos.bb[1 - side], own, empty).bit_count()
        if hanging_after < hanging_before:
            reasons.append("saves a piece that could be captured")
        if threats and not captured:
            reasons.append(f"threatens to capture {threats} piece{'s' if threats > 1 else ''}")
        if own & evaluator.centre_bit and not position.bb[side] & evaluator.centre_bit:
            reasons.append("takes the centre")
    if before_own and not reasons:
        reasons.append("keeps your pieces safe and mobile")
    if score >= WIN_BOUND and "wins the game" not in reasons:
        reasons.append("leads to a forced win")
    elif score <= -WIN_BOUND:
        reasons.append("the best defence; the position is lost against perfect play")
    return action, "; ".join(reasons)
