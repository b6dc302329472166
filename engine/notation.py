"""SPN, the position notation of docs/rules.md section 7, and the text board.

``<board> <side> <phase> <hand> <state> <clock> <turn>``, for example the start of a
standard 5x5 game ``5/5/5/5/5 b p 12/12 - 0 1``. The text itself is read and written
in :mod:`engine.spn`, which both this module and :mod:`engine.position` build on.
"""

from __future__ import annotations

from engine.board import FILES
from engine.position import Position
from engine.rules import Ruleset


def write_spn(pos: Position) -> str:
    """The SPN of ``pos``."""
    return pos.spn()


def read_spn(spn: str, rules: Ruleset) -> Position:
    """The settled position an SPN describes (see :meth:`Position.settle`).

    Raises:
        InvalidPositionError: the SPN is malformed, does not match ``rules.size``, or
            describes an impossible state.
    """
    return Position.from_spn(spn, rules)


def board_text(pos: Position) -> str:
    """The board as text: rank n on top, ``b``/``w`` pieces, ``.`` empty, ``+`` the empty centre."""
    n = pos.geo.n
    black, white = pos.bb
    width = len(str(n))
    lines = []
    for r in range(n - 1, -1, -1):
        cells = []
        for f in range(n):
            c = r * n + f
            bit = 1 << c
            cells.append("b" if black & bit else "w" if white & bit else "+" if c == pos.geo.centre else ".")
        lines.append(f"{r + 1:>{width}} " + " ".join(cells))
    lines.append(" " * (width + 1) + " ".join(FILES[:n]))
    return "\n".join(lines)
