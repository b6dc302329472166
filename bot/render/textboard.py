"""The board as monospace text, for the console and for channels where the bot may not attach files.

One character per cell keeps the columns straight in any monospace font (emoji and
``●○`` are not one column wide everywhere):

- ``b`` / ``w``: a black / white piece; ``.``: an empty cell; ``+``: the empty centre.
- ``B`` / ``W``: a piece placed or arrived this turn; ``x``: a piece taken this turn
  (captured or removed); ``o``: a cell a piece left this turn.

Lower-casing the marks (``x``, ``o`` to empty) gives back exactly the board of the SPN.
"""

from __future__ import annotations

from bot.render.words import blocked_text, last_turn_text, ruleset_label, shown_name, status_text, turn_text
from bot.texts import FALLBACK, text
from engine import Outcome, Position
from engine.summary import TurnSummary

FILES = "abcdefghi"


def grid_rows(position: Position, last_turn: TurnSummary | None = None) -> list[str]:
    """The cell characters of each rank, rank n first, without coordinates."""
    n = position.geo.n
    black, white = position.bb
    arrived: set[int] = set()
    left: set[int] = set()
    taken: set[int] = set()
    if last_turn is not None:
        arrived = {t for _, t in last_turn.steps} | set(last_turn.placed)
        left = {a for a, _ in last_turn.steps}
        taken = {c for c, _ in (*last_turn.captured, *last_turn.removed)}
    rows = []
    for rank in range(n - 1, -1, -1):
        chars = []
        for file in range(n):
            c = rank * n + file
            if black >> c & 1:
                ch = "B" if c in arrived else "b"
            elif white >> c & 1:
                ch = "W" if c in arrived else "w"
            elif c in taken:
                ch = "x"
            elif c in left:
                ch = "o"
            else:
                ch = "+" if c == position.geo.centre else "."
            chars.append(ch)
        rows.append("".join(chars))
    return rows


def text_board(
    position: Position,
    last_turn: TurnSummary | None = None,
    *,
    players: tuple[str, str] = ("Black", "White"),
    outcome: Outcome | None = None,
    lang: str = FALLBACK,
) -> str:
    """The board with coordinates, a status line, the pieces and the last turn, its
    sentences in ``lang`` (the picture's, from the catalogues; English by default).

    Example (5x5, after White's capture b3-c3 that took d3)::

        Seega · Turn 14 · Black to move
        5 b . w . .
        4 . b w . w
        3 . o W x w
        2 . . b . .
        1 . . . . b
          a b c d e
        Black (b) 5 on board · White (w) 4 on board
        Last: White b3-c3 · took d3
    """
    n = position.geo.n
    width = len(str(n))
    label = ruleset_label(position, lang)
    head = [text(lang, "picture.text.title")]
    if label:
        head.append(label)
    head.append(turn_text(position, outcome, lang))
    head.append(status_text(position, players, outcome, lang))
    lines = [" · ".join(head)]
    for i, row in enumerate(grid_rows(position, last_turn)):
        lines.append(f"{n - i:>{width}} " + " ".join(row))
    lines.append(" " * (width + 1) + " ".join(FILES[:n]))
    counts = []
    for color, letter in ((0, "b"), (1, "w")):
        name = shown_name(players[color], lang)
        part = text(lang, "picture.text.counts", name=name, letter=letter, board=position.count(color))
        if position.hand[color] or position.phase == "p":
            part = text(lang, "picture.text.hand", counts=part, hand=position.hand[color])
        counts.append(part)
    lines.append(" · ".join(counts))
    last = last_turn_text(position, last_turn, lang)
    if last:
        lines.append(last)
    blocked = blocked_text(position, lang) if outcome is None else ""
    if blocked:
        lines.append(blocked)
    return "\n".join(lines)
