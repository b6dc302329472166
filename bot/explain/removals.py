"""Why a piece must be removed now, whose, and which: the line a player reads when the
variant's blocked rule asks them for ``/remove``.

In a seejeh game a newcomer walled in every white piece and read only "Turn 23: Black
(you) to play."; the picture said "You to remove a piece", and nothing said why, whose
piece, or which command. Every blocked rule that removes a piece (docs/rules.md section
4) has its own reason, and the cells come from the engine's legal removals, so the line
never offers a cell the rules refuse.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.explain import Line, cell_names, colour
from bot.texts import LIST_LIMIT
from engine import Position
from engine.actions import REMOVE, Action
from engine.summary import shuttle_holds

#: More cells than this are cut with "and N more", as the service's lists are: every
#: piece of a 5x5 side fits; a 9x9 capture-one could offer 40.
SHOWN_CELLS = LIST_LIMIT


def shown_cells(cells: list[str]) -> list[str] | Line:
    """The cells for a line, cut after :data:`SHOWN_CELLS` with "and N more", as the
    service's lists are (newcomer play-test, lane: the removal list ended with a bare
    "…" where placement lists say "and 36 more")."""
    if len(cells) <= SHOWN_CELLS:
        return cells
    return ("explain.more_cells", {"shown": cells[:SHOWN_CELLS], "count": len(cells) - SHOWN_CELLS})


def removal_line(position: Position, *, whole: bool = False) -> Line | None:
    """The reason and the cells of the removal due in ``position``, addressed to the side
    that removes (``None`` when no removal is due). ``whole``: every cell, for a service
    refusal, whose wording cuts lists itself."""
    if position.result is not None or position.phase != "r":
        return None
    cells = cell_names([a.src for a in position.legal_actions() if a.kind == REMOVE])
    if len(cells) == 1:
        command: Line = ("explain.removal.command_one", {"cell": cells[0]})
    else:
        command = ("explain.removal.command", {"cells": cells if whole else shown_cells(cells)})
    params: dict[str, object] = {"command": command, "blocked": colour(1 - position.side)}
    rule = position.rules.blocked
    if rule == "lose":
        # The first-step exception: the cell the first step left is the state.
        params["cell"] = position.geo.names[position.state]
    elif rule == "pass":
        rule = "both"  # under "pass" a removal is due only when both sides are blocked
    line: Line = (f"explain.removal.{rule}", params)
    held = _held_steps(position, _blocked_sides(rule, position.side))
    return ("explain.removal.held", {"why": line, "steps": held}) if held else line


def _blocked_sides(rule: str, remover: int) -> tuple[int, ...]:
    """The sides that could not step: the remover itself under remove-by-blocked, both
    when both were blocked, else the remover's opponent."""
    if rule == "both":
        return (0, 1)
    return (remover,) if rule == "remove-by-blocked" else (1 - remover,)


def removal_reason(before: Position, actions: Sequence[Action]) -> Line | None:
    """Why a removal among ``actions`` (played from ``before``) happened, said to anyone
    reading the turn ("White could not step, so it takes an enemy piece next to one of its
    own, then steps"), else ``None``.

    Play-test finding (fouze): the bot's turn read "removed d1", then "moved e1→d1", and
    nothing said why a piece of mine had gone; the shuttle limit had walled White in.
    """
    if before.phase != "r" or not any(a.kind == REMOVE for a in actions):
        return None
    rule = before.rules.blocked
    remover = before.side
    if rule == "pass":
        rule = "both"  # under "pass" a removal is due only when both sides are blocked
    blocked = _blocked_sides(rule, remover)
    # "both" names no blocked side (only the remover); every other rule has one.
    line: Line = (f"explain.removed_why.{rule}", {"blocked": colour(blocked[0]), "remover": colour(remover)})
    held = _held_steps(before, blocked)
    return ("explain.removed_why.held", {"why": line, "steps": held}) if held else line


def _held_steps(position: Position, sides: tuple[int, ...]) -> list[str]:
    """The steps of ``sides`` into an empty cell that the shuttle limit forbids ("a1→a2"):
    a player told that a side "cannot step" while the picture shows an empty cell beside
    its piece needs the reason (fouze play-test: the last white piece, shuttled out)."""
    names = position.geo.names
    return [f"{names[p]}→{names[c]}" for p, c in shuttle_holds(position) if position.piece_at(p) in sides]
