"""The sentences on the images and the text board, in one place.

Kept apart from drawing so the console, the text board and the image say the same thing,
and so a translation later replaces one module.
"""

from __future__ import annotations

from bot.explain.openings import opening_cells
from engine import Outcome, Position
from engine.position import ANY, ONE
from engine.summary import TurnSummary, shuttle_holds

COLOURS = ("Black", "White")
#: The name a picture gives the person looking at it (the console's player against the
#: bot): its sentences are then in the second person ("You win", "You are blocked").
YOU = "You"


def ruleset_label(position: Position) -> str:
    """``"Seejeh · 7×7"``; empty for the standard 5x5 game, which needs no label."""
    rules = position.rules
    if rules.variant == "standard" and rules.size == 5 and not rules.options_text():
        return ""
    name = rules.variant.replace("-", " ").capitalize()
    label = name if rules.variant == "modern-3x3" else f"{name} · {rules.size}×{rules.size}"
    extra = rules.options_text()
    return f"{label} · {extra}" if extra else label


def _pieces(count: int) -> str:
    return f"{count} piece" if count == 1 else f"{count} pieces"


def reason_text(outcome: Outcome, position: Position, players: tuple[str, str]) -> str:
    """Why the game ended, as a sentence a newcomer understands.

    ``"100 turns without a capture: 11 pieces to 4"`` rather than ``move-limit``: the
    reason names the rule and the numbers that decided it.
    """
    rules = position.rules
    winner = outcome.winner
    loser = players[1 - winner] if winner is not None else ""
    counts = (position.count(0), position.count(1))
    reason = outcome.reason
    if reason == "line":
        k = rules.win_line
        return f"{k} in a row" if k else "a line"
    if reason == "move-limit":
        head = f"{rules.move_limit} turns without a capture" if rules.move_limit else "no capture for too long"
        if winner is None:
            return f"{head}: {_pieces(counts[0])} each"
        return f"{head}: {_pieces(counts[winner])} to {counts[1 - winner]}"
    if reason == "reduced" and loser:
        left = counts[1 - winner] if winner is not None else 0
        return f"{loser} {'have' if loser == YOU else 'has'} only {_pieces(left)} left"
    if reason == "turn-limit":
        return f"all {rules.turn_limit} turns played" if rules.turn_limit else "turn limit reached"
    if reason == "no-line":
        return f"nobody made {rules.win_line} in a row" if rules.win_line else "no line was made"
    phrases = {
        "capture-all": (
            ("all your pieces were captured" if loser == YOU else f"every piece of {loser} was captured")
            if loser
            else "all pieces captured"
        ),
        "reduced": "too few pieces left",
        "blocked": f"{loser} {'are' if loser == YOU else 'is'} blocked and cannot move"
        if loser
        else "both players are blocked",
        "agreement": "agreed by both players" if winner is not None else "drawn by agreement",
        "resignation": f"{loser} resigned" if loser else "a player resigned",
        "timeout": f"{loser} ran out of time" if loser else "a player ran out of time",
        "abandoned": "the game was abandoned",
    }
    return phrases.get(reason, reason.replace("-", " "))


def winner_text(outcome: Outcome, players: tuple[str, str]) -> str:
    """``"Amira wins"`` or ``"Draw"``."""
    if outcome.winner is None:
        return "Draw"
    name = players[outcome.winner]
    return f"{name} win" if name == YOU else f"{name} wins"


def result_text(outcome: Outcome, position: Position, players: tuple[str, str]) -> str:
    """``"Amira wins · every piece of Omar was captured"`` or ``"Draw · all 2500 turns played"``."""
    return f"{winner_text(outcome, players)} · {reason_text(outcome, position, players)}"


_ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}


def shuttle_text(position: Position, piece: int, cell: int) -> str:
    """``"d2 may not go back to c2 a third time: the shuttle limit"``."""
    names = position.geo.names
    times = position.rules.max_shuttles + 1
    nth = _ORDINALS.get(times, f"{times}th")
    return f"{names[piece]} may not go back to {names[cell]} a {nth} time: the shuttle limit"


def blocked_text(position: Position) -> str:
    """Why the side to act can only pass when the shuttle limit is what holds it; else ``""``."""
    if position.result is not None or position.phase != "m":
        return ""
    legal = position.legal_actions()
    if len(legal) != 1 or legal[0].kind != "pass":
        return ""
    own = [hold for hold in shuttle_holds(position) if position.piece_at(hold[0]) == position.side]
    if not own:
        return ""
    return shuttle_text(position, *own[0])


def clock_text(seconds: float) -> str:
    """Time left for a turn, short: ``"4:05"``, ``"1h 05m"``, ``"2d 3h"``; ``"0:00"`` when out."""
    left = max(0, int(seconds))
    if left >= 86400:
        return f"{left // 86400}d {left % 86400 // 3600}h"
    if left >= 3600:
        return f"{left // 3600}h {left % 3600 // 60:02d}m"
    return f"{left // 60}:{left % 60:02d}"


#: How a chain's status ends; the footer drops it first when the line is too long (the
#: message under the picture says how to end the turn).
OR_END = " or end"


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
        return f"may capture again from {position.geo.names[position.state]}{OR_END}"
    if position.state == ANY:
        return f"may capture again{OR_END}"
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
    return " ".join(status_parts(position, players))


def status_parts(position: Position, players: tuple[str, str]) -> tuple[str, str]:
    """Who acts and what they must do, apart: the footer keeps the second whole and cuts
    the name first when the line is too long (the header shows the name whole)."""
    name = players[position.side]
    doing = doing_text(position)
    if name == YOU and doing == "is blocked and passes":
        doing = "are blocked and pass"
    return name, doing


def turn_text(position: Position, outcome: Outcome | None = None) -> str:
    """``"Turn 14"`` while playing, ``"1-0 after 57 turns"`` when over."""
    outcome = outcome or position.outcome()
    if outcome is not None:
        done = position.turn - 1
        return f"{outcome.result} after {done} turn{'s' if done != 1 else ''}"
    return f"Turn {position.turn}"


def phase_news_text(position: Position, last_turn: TurnSummary | None) -> str:
    """``"All pieces placed: the movement phase begins"`` on the picture right after the
    last placement (the status beside it says who moves first), else ``""``.

    When the side that was to move first was walled in and passed at once, that is the
    news ("All pieces placed: White is walled in and passes"): otherwise the picture
    says the other side is to move with no word of why (newcomer play-test).
    """
    if last_turn is None or not last_turn.placed or last_turn.steps or position.phase != "m":
        return ""
    if position.outcome() is not None:
        return ""
    sides = last_turn.sides or (last_turn.side,) * len(last_turn.actions)
    passed = [side for action, side in zip(last_turn.actions, sides, strict=True) if action.kind == "pass"]
    if passed:
        return f"All pieces placed: {COLOURS[passed[-1]]} is walled in and passes"
    return "All pieces placed: the movement phase begins"


def last_turn_text(position: Position, last_turn: TurnSummary | None) -> str:
    """``"Last: White b2-c2, c2-c4 · took c3, d4"``: the turn in notation and what it took.

    A pass played for a blocked player is said where it happened: at the end ("White is
    blocked and passes": it is the other player's turn now), or between two turns of a
    reply ("Black b5-b4 · White blocked, passed · Black c5-b5").
    """
    if last_turn is None or not last_turn.actions:
        return ""
    names = position.geo.names
    # (colour, the actions it played, the cells they took) in order; no actions: a pass
    segments: list[tuple[int, list[str], list[int]]] = []
    sides = last_turn.sides or (last_turn.side,) * len(last_turn.actions)
    took = last_turn.took or ((),) * len(last_turn.actions)
    for action, side, gone in zip(last_turn.actions, sides, took, strict=True):
        if action.kind == "end":  # "end" says nothing more
            continue
        if action.kind == "pass":
            segments.append((side, [], []))
            continue
        if not (segments and segments[-1][1] and segments[-1][0] == side):
            segments.append((side, [], []))
        segments[-1][1].append(str(action))
        if action.kind == "step":  # a removal says its cell itself ("xd4")
            segments[-1][2].extend(gone)
    if not any(played for _, played, _ in segments):
        return f"{COLOURS[last_turn.side]} was blocked and passed"
    # Two sides' actions in one line (a reply around a pass): each capture is said
    # with the actions that made it, not after the last ones (newcomer play-test).
    apart = len(segments) > 1 and bool(last_turn.took)
    words = []
    for i, (colour, played, cells) in enumerate(segments):
        if played:
            taken = f" took {', '.join(names[c] for c in cells)}" if apart and cells else ""
            words.append(f"{COLOURS[colour]} " + ", ".join(played) + taken)
        elif i == len(segments) - 1:
            words.append(f"{COLOURS[colour]} is blocked and passes")
        else:
            words.append(f"{COLOURS[colour]} blocked, passed")
    parts = ["Last: " + " · ".join(words)]
    if last_turn.captured and not apart:
        parts.append("took " + ", ".join(names[c] for c, _ in last_turn.captured))
    if last_turn.removed and not apart:
        parts.append("removed " + ", ".join(names[c] for c, _ in last_turn.removed))
    return " · ".join(parts)


def hint_text(position: Position) -> str:
    """A line for the footer when there is no last turn to show: how this phase is played."""
    rules = position.rules
    # The first pairs go where the opening says, not "on any empty cell" (lane play-test).
    if cells := opening_cells(position):
        return f"{rules.opening.capitalize()} opening: place on {' and '.join(cells)}"
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
