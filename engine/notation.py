"""SPN, the position notation of RULES.md section 7, and the text board.

``<board> <side> <phase> <hand> <state> <clock> <turn>``, for example the start of a
standard 5x5 game ``5/5/5/5/5 b p 12/12 - 0 1``.
"""

from __future__ import annotations

from engine.board import FILES
from engine.errors import InvalidPositionError
from engine.outcome import BLACK, WHITE
from engine.position import ANY, ONE, START, Position
from engine.rules import Ruleset


def write_spn(pos: Position) -> str:
    """The SPN of ``pos``."""
    n = pos.geo.n
    black, white = pos.bb
    ranks = []
    for r in range(n - 1, -1, -1):
        row, run = [], 0
        for f in range(n):
            bit = 1 << (r * n + f)
            ch = "b" if black & bit else "w" if white & bit else ""
            if not ch:
                run += 1
                continue
            if run:
                row.append(str(run))
                run = 0
            row.append(ch)
        if run:
            row.append(str(run))
        ranks.append("".join(row))
    state = pos.state
    if state == START:
        st = "-"
    elif state == ONE:
        st = "1"
    elif state == ANY:
        st = "c"
    else:
        st = pos.geo.names[state]
    side = "b" if pos.side == BLACK else "w"
    return f"{'/'.join(ranks)} {side} {pos.phase} {pos.hand[0]}/{pos.hand[1]} {st} {pos.clock} {pos.turn}"


def read_spn(spn: str, rules: Ruleset) -> Position:
    """The settled position an SPN describes (see :meth:`Position.settle`).

    Raises:
        InvalidPositionError: the SPN is malformed, does not match ``rules.size``, or
            describes an impossible state.
    """
    fields = spn.split()
    if len(fields) != 7:
        raise InvalidPositionError(
            f"SPN {spn!r} has {len(fields)} fields; it needs 7: board side phase hand state clock turn"
        )
    board, side, phase, hand, state, clock, turn = fields
    ranks = board.split("/")
    n = len(ranks)
    if n != rules.size:
        raise InvalidPositionError(f"SPN board {board!r} has {n} ranks but the board is {rules.size}x{rules.size}")
    pos = Position(rules)
    bb = [0, 0]
    for i, rank_text in enumerate(ranks):
        r = n - 1 - i
        f = 0
        for ch in rank_text:
            if ch in "123456789":
                f += int(ch)
            elif ch in "bw":
                if f < n:
                    bb[BLACK if ch == "b" else WHITE] |= 1 << (r * n + f)
                f += 1
            else:
                raise InvalidPositionError(f"SPN board {board!r}: {ch!r} is not b, w or a digit 1-9")
        if f != n:
            raise InvalidPositionError(f"SPN board {board!r}: rank {r + 1} has {f} cells, it needs {n}")
    if side not in ("b", "w"):
        raise InvalidPositionError(f"SPN side {side!r} must be b or w")
    if phase not in ("p", "m", "r", "s"):
        raise InvalidPositionError(f"SPN phase {phase!r} must be p, m, r or s")
    black_hand, sep, white_hand = hand.partition("/")
    if not (sep and black_hand.isdigit() and white_hand.isdigit()):
        raise InvalidPositionError(f"SPN hand {hand!r} must be two counts like 12/12")
    if not clock.isdigit():
        raise InvalidPositionError(f"SPN clock {clock!r} must be a whole number")
    if not turn.isdigit() or int(turn) < 1:
        raise InvalidPositionError(f"SPN turn {turn!r} must be a whole number from 1")
    pos.bb = bb
    pos.side = BLACK if side == "b" else WHITE
    pos.phase = phase
    pos.hand = [int(black_hand), int(white_hand)]
    pos.clock = int(clock)
    pos.turn = int(turn)
    pos.state = _read_state(state, pos)
    # A chain exists only after a capture in this turn, so the clock must not tick at its end.
    pos.acted = phase == "m" and pos.state != START
    if phase == "p" and pos.hand[pos.side] == 0:
        raise InvalidPositionError(f"SPN {spn!r}: {side} is to place but has no piece in hand")
    if phase != "p" and (pos.hand[0] or pos.hand[1]):
        raise InvalidPositionError(f"SPN {spn!r}: pieces in hand are only possible in the placement phase")
    pos.settle()
    if pos.result is None and not pos.legal_codes():
        # e.g. phase r with nothing to remove: no game reaches it, so it is an impossible state.
        raise InvalidPositionError(f"SPN {spn!r} is an impossible state: no action is legal yet the game is not over")
    return pos


def _read_state(state: str, pos: Position) -> int:
    phase = pos.phase
    if state == "-":
        return START
    if state == "1":
        if phase != "p":
            raise InvalidPositionError(f"SPN state '1' (half a placement pair) is impossible in phase {phase}")
        return ONE
    if state == "c":
        if phase != "m" or pos.rules.chain != "any":
            raise InvalidPositionError("SPN state 'c' is a chain with chain=any; it needs phase m and chain=any")
        return ANY
    geo = pos.geo
    if state in geo.names:
        cell = geo.names.index(state)
        if phase == "m" and pos.rules.chain == "same":
            if not pos.bb[pos.side] >> cell & 1:
                raise InvalidPositionError(
                    f"SPN state {state!r} names the chain piece, but {state} holds no piece of the side to move"
                )
            return cell
        if phase == "r" and pos.rules.blocked == "lose":
            return cell
        raise InvalidPositionError(
            f"SPN state {state!r}: a cell is a chain piece (phase m, chain=same) or, under blocked=lose, "
            "the cell the first piece left (phase r)"
        )
    raise InvalidPositionError(f"SPN state {state!r} must be -, 1, c or a cell of the board")


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
