"""Small builders that keep the rule scenarios readable.

A scenario names its pieces by cell (``black="a1 c3", white="b2"``) instead of writing the
board field of an SPN by hand, so a reader can check it against docs/rules.md at a glance.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import Position, Ruleset
from engine.board import FILES


def board(black: str = "", white: str = "", n: int = 5) -> str:
    """The board field of an SPN with pieces on the named cells (``"a1 b2"``)."""
    cells: dict[tuple[int, int], str] = {}
    for colour, names in (("b", black), ("w", white)):
        for name in names.split():
            cell = (FILES.index(name[0]), int(name[1:]) - 1)
            assert cell not in cells, f"{name} named twice"
            assert cell[0] < n and cell[1] < n, f"{name} is off the {n}x{n} board"
            cells[cell] = colour
    ranks = []
    for r in range(n - 1, -1, -1):
        text, run = "", 0
        for f in range(n):
            piece = cells.get((f, r))
            if piece is None:
                run += 1
                continue
            if run:
                text += str(run)
                run = 0
            text += piece
        if run:
            text += str(run)
        ranks.append(text)
    return "/".join(ranks)


def spn(
    black: str = "",
    white: str = "",
    side: str = "b",
    phase: str = "m",
    hand: str = "0/0",
    state: str = "-",
    clock: int = 0,
    turn: int = 30,
    n: int = 5,
) -> str:
    """A whole SPN from named pieces and the other six fields."""
    return f"{board(black, white, n)} {side} {phase} {hand} {state} {clock} {turn}"


def position(text: str, preset: str = "standard", options: Iterable[str] = ()) -> Position:
    """The position of an SPN under a preset (size taken from the SPN) and options."""
    size = len(text.split()[0].split("/"))
    return Position.from_spn(text, Ruleset.make(preset, size, list(options)))


def legal(pos: Position) -> list[str]:
    """The legal actions as sorted strings, the form the CLI prints."""
    return sorted(str(a) for a in pos.legal_actions())


def play(pos: Position, *actions: str) -> Position:
    """Play validated actions (each must be legal) and return the position."""
    for action in actions:
        pos.play(action)
    return pos
