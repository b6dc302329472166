"""The sentences on the images and the text board, in one place.

Kept apart from drawing so the console, the text board and the image say the same thing,
and so a translation later replaces one module.
"""

from __future__ import annotations

from engine import Outcome, Position
from engine.position import ANY, ONE
from engine.summary import TurnSummary

COLOURS = ("Black", "White")


def ruleset_label(position: Position) -> str:
    """``"Seejeh · 7×7"``; empty for the standard 5x5 game, which needs no label."""
    rules = position.rules
    if rules.variant == "standard" and rules.size == 5 and not rules.options_text():
        return ""
    name = rules.variant.replace("-", " ").capitalize()
    label = name if rules.variant == "modern-3x3" else f"{name} · {rules.size}×{rules.size}"
    extra = rules.options_text()
    return f"{label} · {extra}" if extra else label


def reason_text(outcome: Outcome, position: Position, players: tuple[str, str]) -> str:
    """Why the game ended, as a short phrase (``"all pieces captured"``)."""
    loser = players[1 - outcome.winner] if outcome.winner is not None else ""
    reason = outcome.reason
    if reason == "line":
        k = position.rules.win_line
        return f"{k} in a row" if k else "a line"
    phrases = {
        "capture-all": "all pieces captured",
        "reduced": "too few pieces left",
        "blocked": f"{loser} is blocked" if loser else "blocked",
        "move-limit": "more pieces at the move limit" if outcome.winner is not None else "move limit reached",
        "turn-limit": "turn limit reached",
        "no-line": "no line was made",
        "agreement": "by agreement",
        "resignation": f"{loser} resigned" if loser else "resignation",
        "timeout": f"{loser} ran out of time" if loser else "time-out",
        "abandoned": "game abandoned",
    }
    return phrases.get(reason, reason.replace("-", " "))


def result_text(outcome: Outcome, position: Position, players: tuple[str, str]) -> str:
    """``"Amira wins · all pieces captured"`` or ``"Draw · turn limit reached"``."""
    head = "Draw" if outcome.winner is None else f"{players[outcome.winner]} wins"
    return f"{head} · {reason_text(outcome, position, players)}"


def doing_text(position: Position) -> str:
    """What the side to act must do now: ``"to move"``, ``"to place 2"``..."""
    phase = position.phase
    if phase == "p":
        left = 1 if position.state == ONE else _pieces_per_turn(position)
        return f"to place {left}" if left > 1 else "to place 1"
    if phase == "r":
        return "to remove a piece"
    if phase == "s":
        return "to replace a piece"
    if position.state >= 0:
        return f"may capture again from {position.geo.names[position.state]} or end"
    if position.state == ANY:
        return "may capture again or end"
    legal = position.legal_actions()
    if len(legal) == 1 and legal[0].kind == "pass":
        return "is blocked and passes"
    return "to move"


def _pieces_per_turn(position: Position) -> int:
    rules = position.rules
    if rules.placement == "singles" or position.hand[position.side] < 2:
        return 1
    if rules.placement == "pairs-then-singles":
        placed = rules.pieces - position.hand[position.side]
        return 2 if placed == 0 else 1
    return 2


def status_text(position: Position, players: tuple[str, str], outcome: Outcome | None = None) -> str:
    """The footer's main line: the result when over, else who acts and what they must do."""
    outcome = outcome or position.outcome()
    if outcome is not None:
        return result_text(outcome, position, players)
    return f"{players[position.side]} {doing_text(position)}"


def turn_text(position: Position, outcome: Outcome | None = None) -> str:
    """``"Turn 14"`` while playing, ``"1-0 after 57 turns"`` when over."""
    outcome = outcome or position.outcome()
    if outcome is not None:
        done = position.turn - 1
        return f"{outcome.result} after {done} turn{'s' if done != 1 else ''}"
    return f"Turn {position.turn}"


def last_turn_text(position: Position, last_turn: TurnSummary | None) -> str:
    """``"Last: White b2-c2, c2-c4 · took c3, d4"``: the turn in notation and what it took."""
    if last_turn is None or not last_turn.actions:
        return ""
    names = position.geo.names
    parts = [f"Last: {COLOURS[last_turn.side]} " + ", ".join(str(a) for a in last_turn.actions)]
    if last_turn.captured:
        parts.append("took " + ", ".join(names[c] for c, _ in last_turn.captured))
    if last_turn.removed:
        parts.append("removed " + ", ".join(names[c] for c, _ in last_turn.removed))
    return " · ".join(parts)


def hint_text(position: Position) -> str:
    """A line for the footer when there is no last turn to show: how this phase is played."""
    rules = position.rules
    if position.phase == "p":
        count = {"pairs": "two pieces", "singles": "one piece", "pairs-then-singles": "two, then one piece"}
        where = "any empty cell" if rules.place_centre else "any empty cell but the centre"
        return f"Placement: {count.get(rules.placement, 'pieces')} per turn on {where}"
    if position.phase == "m":
        return "Step one cell up, down or sideways; trap an enemy between two of yours to capture"
    if position.phase == "s":
        return "Replace an enemy piece with yours: a line of five wins"
    if position.phase == "r":
        return REMOVAL_HINTS.get(rules.blocked, "")
    return ""


#: What the player due to remove a piece may take, under each ``blocked`` rule.
REMOVAL_HINTS = {
    "pass": "Both sides are blocked: remove one of your own pieces",
    "remove-by-blocked": "Blocked: remove an enemy piece next to one of yours, then step",
    "remove-by-opponent": "Your opponent is blocked: remove one of your pieces next to theirs",
    "lose": "Remove one of your pieces next to the cell your first piece left",
    "capture-one": "Your opponent is blocked: take any one of their pieces",
}
