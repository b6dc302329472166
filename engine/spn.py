"""SPN text and the fields of a position, converted both ways (docs/rules.md section 7).

``<board> <side> <phase> <hand> <state> <clock> <turn>``, for example the start of a
standard 5x5 game ``5/5/5/5/5 b p 12/12 - 0 1``.

This module knows the text and the ruleset but not :class:`~engine.position.Position`:
the position reads and writes itself through it (``Position.from_spn``, ``.spn()``)
and :mod:`engine.notation` re-exports those, so neither of the two imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import geometry
from engine.errors import InvalidPositionError, quoted
from engine.numbers import parse_whole
from engine.outcome import BLACK, WHITE
from engine.rules import Ruleset

#: Turn-state values (``state`` >= 0 is a cell: the chain piece, or the cell the
#: first piece left under the ``lose`` exception).
START = -1  # '-' at the start of a turn
ONE = -2  # '1' one piece of a placement pair placed
ANY = -3  # 'c' inside a chain with chain=any

#: The largest clock and turn number an SPN may hold: far beyond any game (a game
#: of a billion turns), small enough that no reader meets a number it cannot handle.
MAX_COUNTER = 999_999_999


@dataclass
class SpnFields:
    """The fields of an SPN, checked against a ruleset but not yet settled.

    Attributes mirror :class:`~engine.position.Position`'s: ``bb`` the black and white
    bit sets, ``side``, ``phase``, ``hand``, ``state`` (a module constant or a cell),
    ``clock`` and ``turn``.
    """

    bb: list[int]
    side: int
    phase: str
    hand: list[int]
    state: int
    clock: int
    turn: int


def format_spn(n: int, bb: list[int], side: int, phase: str, hand: list[int], state: int, clock: int, turn: int) -> str:
    """The SPN of a position's fields on an ``n x n`` board."""
    black, white = bb
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
    if state == START:
        st = "-"
    elif state == ONE:
        st = "1"
    elif state == ANY:
        st = "c"
    else:
        st = geometry(n).names[state]
    letter = "b" if side == BLACK else "w"
    return f"{'/'.join(ranks)} {letter} {phase} {hand[0]}/{hand[1]} {st} {clock} {turn}"


def parse_spn(spn: str, rules: Ruleset) -> SpnFields:
    """The fields of ``spn`` under ``rules``, with every check that needs no search.

    Raises:
        InvalidPositionError: the SPN is malformed, does not match ``rules.size``, or
            states something the rules never reach (e.g. pieces in hand outside the
            placement phase).
    """
    fields = _split_fields(spn)
    if len(fields) != 7:
        raise InvalidPositionError(
            f"SPN {quoted(spn)} has {len(fields)} fields; it needs 7: board side phase hand state clock turn"
        )
    board, side, phase, hand, state, clock, turn = fields
    for name, text in (("hand", hand), ("clock", clock), ("turn", turn)):
        _refuse_leading_zero(name, text)
    bb = _read_board(board, rules.size)
    if side not in ("b", "w"):
        raise InvalidPositionError(f"SPN side {quoted(side)} must be b or w")
    if phase not in ("p", "m", "r", "s"):
        raise InvalidPositionError(f"SPN phase {quoted(phase)} must be p, m, r or s")
    hands = _read_hand(hand, bb, rules)
    clock_value = parse_whole(clock, MAX_COUNTER)
    if clock_value is None:
        raise InvalidPositionError(f"SPN clock {quoted(clock)} must be a whole number from 0 to {MAX_COUNTER}")
    turn_value = parse_whole(turn, MAX_COUNTER)
    if turn_value is None or turn_value < 1:
        raise InvalidPositionError(f"SPN turn {quoted(turn)} must be a whole number from 1 to {MAX_COUNTER}")
    to_move = BLACK if side == "b" else WHITE
    cell_state = _read_state(state, phase, to_move, bb, rules)
    if phase != "p" and (hands[0] or hands[1]):
        raise InvalidPositionError(f"SPN {quoted(spn)}: pieces in hand are only possible in the placement phase")
    _check_phase(spn, phase, rules)
    if phase == "p":
        _check_placement(spn, side, bb, hands[to_move], cell_state, clock_value, rules)
    return SpnFields(
        bb=bb,
        side=to_move,
        phase=phase,
        hand=hands,
        state=cell_state,
        clock=clock_value,
        turn=turn_value,
    )


def _check_phase(spn: str, phase: str, rules: Ruleset) -> None:
    """The phase must be one the rules have: the replacement phase ``s`` exists only with
    ``after_placement=replace`` (five-in-a-row), which in turn has no movement phase, so
    no ``m`` and no removal ``r`` (docs/rules.md sections 2 and 6)."""
    if rules.after_placement == "replace":
        if phase in "mr":
            raise InvalidPositionError(
                f"SPN {quoted(spn)} is an impossible state: phase {phase} with after_placement=replace, "
                "which has no movement phase; its phases are p and s"
            )
    elif phase == "s":
        raise InvalidPositionError(
            f"SPN {quoted(spn)} is an impossible state: phase s (replacement) needs "
            "after_placement=replace (five-in-a-row); these rules have phases p, m and r"
        )


def _check_placement(spn: str, side: str, bb: list[int], hand: int, state: int, clock: int, rules: Ruleset) -> None:
    """What placement never reaches (docs/rules.md sections 2 and 7): a clock other than
    0, a piece on a centre that must stay empty, and state ``1`` where the turn places
    one piece. Whether a turn places two depends only on the placement mode and, for
    ``pairs-then-singles``, on whether it is the side's first turn (a full hand before
    it): so state ``1`` needs ``pairs`` or a hand of ``pieces - 1``, and never a full
    hand (nothing placed yet). Hands that do not add up stay accepted (decision 2)."""
    if clock:
        raise InvalidPositionError(
            f"SPN {quoted(spn)} is an impossible state: clock {clock} in phase p; the clock is 0 during placement"
        )
    geo = geometry(rules.size)
    if not rules.place_centre and (bb[0] | bb[1]) & geo.centre_bit:
        centre = geo.names[geo.centre]
        raise InvalidPositionError(
            f"SPN {quoted(spn)} is an impossible state: a piece on the centre {centre} in phase p; "
            "with place_centre=false the centre stays empty until the movement phase"
        )
    if state != ONE:
        return
    if rules.placement == "singles":
        raise InvalidPositionError(
            f"SPN {quoted(spn)} is an impossible state: state 1 (half a pair) with placement=singles; the state is -"
        )
    if hand == rules.pieces:
        raise InvalidPositionError(
            f"SPN {quoted(spn)} is an impossible state: state 1 (half a pair) but {side} has all "
            f"{hand} pieces in hand, so it has placed nothing; the state is -"
        )
    if rules.placement == "pairs-then-singles" and hand != rules.pieces - 1:
        raise InvalidPositionError(
            f"SPN {quoted(spn)} is an impossible state: state 1 (half a pair) with "
            "placement=pairs-then-singles is possible only in a side's first turn "
            f"(hand {rules.pieces - 1} after its first piece), not with hand {hand}; the state is -"
        )


#: Whitespace a reader drops around an SPN (docs/rules-decisions.md 2): a line end from a
#: file or a pipe, and spaces or tabs next to it. Only ASCII: anything else is an error.
SURROUNDING_WHITESPACE = " \t\r\n"


def _split_fields(spn: str) -> list[str]:
    """The fields of ``spn``, which docs/rules.md section 7 says are "separated by one
    space": two spaces, a tab or any other white space between fields is refused (another
    reader of the same contract would split it differently), naming what was found."""
    text = spn.strip(SURROUNDING_WHITESPACE)
    if not text:
        return []
    i = 0
    while i < len(text):
        if text[i].isspace():
            j = i
            while j < len(text) and text[j].isspace():
                j += 1
            if text[i:j] != " ":
                raise InvalidPositionError(
                    f"SPN {quoted(spn)}: fields must be separated by one space, "
                    f"found {quoted(text[i:j], 20)} after character {i}"
                )
            i = j
        else:
            i += 1
    return text.split(" ")


def _refuse_leading_zero(name: str, text: str) -> None:
    """A number of an SPN is written as the engine writes it (``7``, not ``007``): one
    position has one SPN, so SPNs can be compared as text (docs/rules-decisions.md 2)."""
    for number in text.split("/"):
        if len(number) > 1 and number.startswith("0") and number.isascii() and number.isdigit():
            raise InvalidPositionError(
                f"SPN {name} {quoted(text)} has a leading zero; numbers are written without one (7, not 07)"
            )


def _read_hand(hand: str, bb: list[int], rules: Ruleset) -> list[int]:
    """The two hand counts: each at most ``rules.pieces``, and together no more than the
    empty cells a piece may be placed on (so every piece in hand can be placed)."""
    black_hand, sep, white_hand = hand.partition("/")
    counts = [parse_whole(black_hand, rules.pieces), parse_whole(white_hand, rules.pieces)]
    if not sep or counts[0] is None or counts[1] is None:
        raise InvalidPositionError(
            f"SPN hand {quoted(hand)} must be two counts like {rules.pieces}/{rules.pieces}, "
            f"each from 0 to pieces={rules.pieces}"
        )
    hands = [counts[0], counts[1]]
    geo = geometry(rules.size)
    empty = geo.full & ~(bb[0] | bb[1])
    if not rules.place_centre:
        empty &= ~geo.centre_bit
    room = empty.bit_count()
    if hands[0] + hands[1] > room:
        raise InvalidPositionError(
            f"SPN hand {quoted(hand)}: {hands[0] + hands[1]} pieces in hand "
            f"but only {room} empty cells to place them on"
        )
    return hands


#: The digits of a run of empty cells (``0`` is not one, and is refused as a character).
_RUN_DIGITS = frozenset("123456789")


def _read_board(board: str, n: int) -> list[int]:
    """The two bit sets of the board field; each rank is written as in chess FEN, with
    every run of empty cells one digit (so a board has one spelling)."""
    ranks = board.split("/")
    if len(ranks) != n:
        raise InvalidPositionError(f"SPN board {quoted(board)} has {len(ranks)} ranks but the board is {n}x{n}")
    bb = [0, 0]
    for i, rank_text in enumerate(ranks):
        r = n - 1 - i
        f = 0
        previous = ""
        for ch in rank_text:
            if ch in "123456789":
                if previous in _RUN_DIGITS:
                    raise InvalidPositionError(
                        f"SPN board {quoted(board)}: rank {r + 1} has two digits in a row ({previous}{ch}); "
                        f"a run of empty cells is one digit, as in chess FEN (11 is written 2)"
                    )
                f += int(ch)
            elif ch in "bw":
                if f < n:
                    bb[BLACK if ch == "b" else WHITE] |= 1 << (r * n + f)
                f += 1
            else:
                raise InvalidPositionError(f"SPN board {quoted(board)}: {quoted(ch)} is not b, w or a digit 1-9")
            previous = ch
        if f != n:
            raise InvalidPositionError(f"SPN board {quoted(board)}: rank {r + 1} has {f} cells, it needs {n}")
    return bb


def _read_state(state: str, phase: str, side: int, bb: list[int], rules: Ruleset) -> int:
    if state == "-":
        return START
    if state == "1":
        if phase != "p":
            raise InvalidPositionError(f"SPN state '1' (half a placement pair) is impossible in phase {phase}")
        return ONE
    if state == "c":
        if phase != "m" or rules.chain != "any":
            raise InvalidPositionError("SPN state 'c' is a chain with chain=any; it needs phase m and chain=any")
        return ANY
    names = geometry(rules.size).names
    if state in names:
        cell = names.index(state)
        if phase == "m" and rules.chain == "same":
            if not bb[side] >> cell & 1:
                raise InvalidPositionError(
                    f"SPN state {quoted(state)} names the chain piece, but {state} holds no piece of the side to move"
                )
            return cell
        if phase == "r" and rules.blocked == "lose":
            return cell
        raise InvalidPositionError(
            f"SPN state {quoted(state)}: a cell is a chain piece (phase m, chain=same) or, under blocked=lose, "
            "the cell the first piece left (phase r)"
        )
    raise InvalidPositionError(f"SPN state {quoted(state)} must be -, 1, c or a cell of the board")
