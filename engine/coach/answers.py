"""Reading a whole turn typed by a player: ``b2 c2 c3`` or ``b2-c2,c2-c3`` or ``a1 b2``.

Puzzles and lessons take one turn as an answer. Players type cells the way they play:
a step as its two cells, a chain as the path of the piece (``b2 c2 c3`` is ``b2-c2`` then
``c2-c3``), a placement pair as two cells. Action notation (``b2-c2``, ``xd4``, ``end``)
works too. Everything is checked by playing it on a copy of the position.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from engine.actions import Action
from engine.board import MAX_SIZE, ascii_typed, cell_name, parse_cell
from engine.errors import SeegaError
from engine.position import Position

#: Longest answer read (characters): a turn never needs more.
MAX_ANSWER = 200
#: Longest word echoed back in an error (answers are typed by anyone).
MAX_ECHO = 24


@dataclass(frozen=True)
class PlayedTurn:
    """The outcome of playing a typed turn on a copy of a position.

    Attributes:
        actions: the actions played, in order.
        after: the position after them (the copy).
        complete: whether the mover's turn is over (or the game).
        error: ``None``, or why the answer could not be played: ``empty``, ``unreadable``
            (with ``detail`` the word), ``offboard`` (``detail`` the cell beyond the
            board), ``half`` (a lone cell where a step needs two),
            ``illegal`` (``detail`` the action).
        detail: the word or action the error is about.
        captured: enemy pieces captured or removed by the turn.
    """

    actions: tuple[Action, ...]
    after: Position
    complete: bool
    error: str | None = None
    detail: str = ""
    captured: int = 0


def _adjacent(a: int, b: int) -> bool:
    """Whether two global cell ids are orthogonal neighbours."""
    ra, fa = divmod(a, MAX_SIZE)
    rb, fb = divmod(b, MAX_SIZE)
    return abs(ra - rb) + abs(fa - fb) == 1


def read_actions(pos: Position, text: str) -> list[Action] | tuple[str, str]:
    """The actions a typed turn means in ``pos``, or (error, word): ``unreadable`` for a
    word that is neither a cell nor an action, ``offboard`` for a cell beyond this board
    (e8 on 7x7: a cell name, but no cell here), ``half`` for a lone cell where a step
    needs two."""
    words = ascii_typed(text[:MAX_ANSWER]).lower().replace(",", " ").replace(";", " ").split()
    actions: list[Action] = []
    cells: list[int] = []

    def flush() -> None:
        if pos.phase == "m" and len(cells) >= 2:
            for a, b in pairwise(cells):
                actions.append(Action("step", a, b))
        else:
            actions.extend(Action("place", c) for c in cells)
        cells.clear()

    on_board = pos.geo.from_global
    for word in words:
        if "-" in word or word.startswith("x") or word in ("end", "pass"):
            flush()
            try:
                action = Action.parse(word)
            except SeegaError:
                return "unreadable", word[:MAX_ECHO]
            off = [c for c in (action.src, action.dst) if c >= 0 and c not in on_board]
            if off:
                return "offboard", cell_name(off[0])
            actions.append(action)
            continue
        try:
            cell = parse_cell(word)
        except SeegaError:
            return "unreadable", word[:MAX_ECHO]
        if cell not in on_board:
            return "offboard", word[:MAX_ECHO]
        if pos.phase == "m" and len(cells) >= 2 and not _adjacent(cells[-1], cell):
            flush()
        cells.append(cell)
    if pos.phase == "m" and len(cells) == 1:
        return "half", words[-1][:MAX_ECHO]
    flush()
    return actions


def play_answer(pos: Position, text: str) -> PlayedTurn:
    """Play the typed turn on a copy of ``pos`` (which must be at the start of a turn)."""
    copy = pos.copy()
    side, turn = copy.side, copy.turn
    read = read_actions(copy, text)
    if isinstance(read, tuple):
        return PlayedTurn((), copy, False, read[0], read[1])
    if not read:
        return PlayedTurn((), copy, False, "empty")
    before = copy.bb[1 - side].bit_count()
    done: list[Action] = []
    for action in read:
        if copy.result is not None or copy.turn != turn or copy.side != side:
            return PlayedTurn(tuple(done), copy, True, "illegal", str(action))
        try:
            copy.play(action)
        except SeegaError:
            return PlayedTurn(tuple(done), copy, False, "illegal", str(action))
        done.append(action)
    complete = copy.result is not None or copy.turn != turn or copy.side != side
    captured = before - copy.bb[1 - side].bit_count()
    return PlayedTurn(tuple(done), copy, complete, None, "", captured)


def finish_turn(pos: Position) -> tuple[Action, ...]:
    """End an unfinished chain with ``end`` (the only way a turn may stop early); the
    actions it played."""
    side, turn = pos.side, pos.turn
    played: list[Action] = []
    while pos.result is None and pos.side == side and pos.turn == turn:
        legal = pos.legal_actions()
        ends = [a for a in legal if a.kind == "end"]
        if not ends:
            break
        pos.push(ends[0])
        played.append(ends[0])
    return tuple(played)
