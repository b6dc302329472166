"""What each turn did, one line per turn, numbered: the turn message and ``/seega moves``.

One line per *turn* (not per command) with the turn number, so a reply that holds the
bot's last placement and its first chain reads "Turn 24 ... / Turn 25 ..." and the count
never jumps unexplained; every step of a chain is listed with what it took, in order,
before "ended the turn".
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.explain import Line
from engine import Position
from engine.actions import END, PASS, PLACE, REMOVE, STEP, Action
from engine.summary import last_turn, summarize_turn


def split_turns(before: Position, actions: Sequence[Action]) -> list[tuple[Position, list[Action]]]:
    """``actions`` cut into turns: (the position before the turn, its actions)."""
    pos = before.copy()
    out: list[tuple[Position, list[Action]]] = []
    for action in actions:
        if not out or (pos.turn, pos.side) != (out[-1][0].turn, out[-1][0].side):
            out.append((pos.copy(), []))
        out[-1][1].append(action)
        pos.push(action)
    return out


def turn_line(before: Position, actions: Sequence[Action], name: str) -> Line:
    """``"Turn 25 · Omar: d3→c3 took c2, c3→c2 took b2; ended the turn"``."""
    summary = summarize_turn(before, actions)
    names = before.geo.names
    parts: list[Line] = []
    placed: list[str] = []
    for action, took in zip(summary.actions, summary.took, strict=True):
        if action.kind == PLACE:
            if before.phase == "s":
                parts.append(("explain.turn.replaced", {"cells": str(action)}))
            else:
                placed.append(str(action))
        elif action.kind == STEP:
            src, dst = str(action).split("-")
            if took:
                cells = [names[c] for c in took]
                parts.append(("explain.turn.step_took", {"src": src, "dst": dst, "cells": cells}))
            else:
                parts.append(("explain.turn.step", {"src": src, "dst": dst}))
        elif action.kind == REMOVE:
            parts.append(("explain.turn.removed", {"cells": [names[c] for c in took] or [str(action)[1:]]}))
        elif action.kind == PASS:
            parts.append(("explain.turn.passed", {}))
        elif action.kind == END:
            parts.append(("explain.turn.ended", {}))
    if placed:
        parts.insert(0, ("explain.turn.placed", {"cells": placed}))
    return ("explain.turn.line", {"turn": before.turn, "name": name, "what": parts})


def turn_lines(before: Position, actions: Sequence[Action], names: tuple[str, str]) -> list[Line]:
    """One :func:`turn_line` per turn that ``actions`` (played from ``before``) touch."""
    return [turn_line(start, acts, names[start.side]) for start, acts in split_turns(before, actions)]


#: Written after a step, before the cells it captured: the mark the board pictures draw
#: on a captured piece.
CAPTURE_MARK = "✕"


def notation(start: Position, actions: Sequence[Action]) -> str:
    """One turn in notation, each step followed by what it captured:
    ``"25. w d3-c3✕c2 c3-c2✕b2 c2-b2✕b3"``.

    Why the marks: the plain actions (the record's) read the same whether a step took
    five pieces or none, and a newcomer reading ``/seega moves`` could not find where
    the game turned (fresh-eyes play-test, stop 35).
    """
    took = summarize_turn(start, actions).took
    names = start.geo.names
    words = []
    for action, cells in zip(actions, took, strict=True):
        word = str(action)
        if action.kind == STEP and cells:
            word += CAPTURE_MARK + ",".join(names[c] for c in cells)
        words.append(word)
    return f"{start.turn}. {'bw'[start.side]} " + " ".join(words)


def moves_text(start: Position, actions: Sequence[Action]) -> list[str]:
    """The game in notation, one line per turn (:func:`notation`)."""
    return [notation(pos, acts) for pos, acts in split_turns(start, actions)]


def recent_turns(position: Position, count: int = 3) -> list[str]:
    """The last ``count`` turns played on ``position`` in notation (:func:`notation`),
    oldest first; walks back from the end, so it costs ``count`` turns."""
    out: list[str] = []
    pos = position
    for _ in range(count):
        start, actions = last_turn(pos)
        if not actions:
            break
        out.append(notation(start, actions))
        pos = start
    out.reverse()
    return out


def centre_kept(before: Position, actions: Sequence[Action]) -> Line | None:
    """The remark a newcomer needs when a step flanked the enemy piece on the safe centre
    ("c3 stands on the centre, where no piece can be captured"), else ``None``: the step
    looks like a capture, and nothing is taken."""
    rules = before.rules
    if not rules.safe_centre or not rules.captures:
        return None
    pos = before.copy()
    geo = pos.geo
    centre = geo.centre
    for action in actions:
        side = pos.side
        pos.push(action)
        if action.kind != STEP:
            continue
        dst = geo.index(action.dst)
        if centre not in geo.neighbours[dst] or pos.piece_at(centre) != 1 - side:
            continue
        beyond = 2 * centre - dst  # the cell past the centre, in line with the step's end
        if pos.piece_at(beyond) == side:
            return ("explain.turn.centre_safe", {"cell": geo.names[centre]})
    return None


def replacement_emptied(before: Position, actions: Sequence[Action]) -> Line | None:
    """The remark after a five-in-a-row replacement that made no line ("no 5 in a row,
    so a1 is left empty"), else ``None``: the board shows the cell empty, not the piece
    the player just put there, and a newcomer takes that for a bug."""
    if before.phase != "s":
        return None
    pos = before.copy()
    geo = pos.geo
    for action in actions:
        pos.push(action)
        if action.kind == PLACE and pos.piece_at(geo.index(action.src)) is None:
            return ("explain.turn.replaced_emptied", {"cell": str(action), "count": before.rules.win_line})
    return None
