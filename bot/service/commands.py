"""Commands people type, checked against a position: placing, stepping, removing, ending a turn.

Pure functions of an engine :class:`~engine.Position`: each either plays the command's
actions on the position it is given (a copy owned by the service) or raises a
:class:`~bot.results.ServiceError` whose message says what was wrong **and** what is
allowed now ("c3 is not one of your pieces; you can move from b3, c2 or d3"): a message
key and parameters, worded in ``bot/locale`` (``service.<key>``, ``hint.<key>``).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.explain import as_text, cell_names
from bot.explain.refusals import step_refusal
from bot.explain.removals import removal_line
from bot.results import BadInputError, IllegalMoveError, ServiceError
from bot.texts import Text
from engine import Action, Position, SeegaError
from engine.actions import END, PASS, PLACE, REMOVE, STEP
from engine.board import ascii_typed, cell_name, parse_cell
from engine.coach.answers import play_answer

_FILES = "abcdefghiABCDEFGHI"
_RANKS = "123456789"
#: Between the cells of a step: the arrow is how the bot's own messages write one ("moved
#: c2→c3"), so a player copying it back is understood (Discord play-test); the dashes a
#: phone or a word processor makes of "-" (en and em dash, minus sign, hyphens) too.
_MOVE_SEPARATORS = "->,\u2192\u2010\u2011\u2012\u2013\u2014\u2015\u2212"
#: A word between the two cells of a step, as people say it: "d3 to c3" (any case), and in
#: Arabic "d3 إلى c3" (also written without the hamza). Play-test: "d3 to c3" was refused
#: as "not a cell" without naming a form that works.
_TO_WORDS = frozenset({"to", "\u0625\u0644\u0649", "\u0627\u0644\u0649"})


def _is_gap(ch: str) -> bool:
    """A character that may stand between the cells of a step."""
    return ch in _MOVE_SEPARATORS or ch.isspace()


def one_word(text: str) -> bool:
    """Whether ``text`` is one word: nothing in it that may stand between two cells."""
    return not any(map(_is_gap, text.strip()))


def _skip_to_word(s: str, i: int) -> int:
    """The index after a "to" word at ``s[i]`` and the gap after it (``i`` if there is
    none: the word must stand alone, "d3 toc3" is not read)."""
    for word in _TO_WORDS:
        end = i + len(word)
        if s[i:end].lower() == word and end < len(s) and _is_gap(s[end]):
            while end < len(s) and _is_gap(s[end]):
                end += 1
            return end
    return i


def _is_cell_text(text: str) -> bool:
    """``b2``, ``B2``: a file letter then a rank digit (ASCII only), nothing else."""
    return len(text) == 2 and text[0] in _FILES and text[1] in _RANKS


def split_move_text(text: str) -> tuple[str, str | None] | None:
    """The from cell and (if given) the to cell of a step typed in one string, or ``None``.

    Accepts ``b2 c2``, ``b2-c2``, ``b2—c2``, ``b2 -> c2``, ``b2→c2``, ``b2,c2``, ``b2c2``,
    ``b2 to c2`` (``إلى`` in Arabic) or just ``b2``. A scan that looks at each character
    once, not a regular expression: this runs on the event loop for every keystroke of
    ``/move``'s autocomplete, and the nested-quantifier pattern it replaces took seconds
    for 30 typed characters (issue 9, item 1).
    """
    s = ascii_typed(text.strip())
    if not _is_cell_text(s[:2]):
        return None
    i = 2
    while i < len(s) and _is_gap(s[i]):
        i += 1
    if i > 2:  # "to" between the cells, never alone at the end ("b3 to" is not a step)
        i = _skip_to_word(s, i)
    rest = s[i:]
    if not rest:
        return s[:2], None
    if _is_cell_text(rest):
        return s[:2], rest
    return None


def split_step_words(text: str) -> tuple[str, str | None] | None:
    """A step typed with a cell that is off the board or oddly shaped (``d6 j6``,
    ``a1-a10``, ``j6``): its two words, or one word shaped like a cell (a letter and a
    number), for :func:`board_cell` to name the one that is not a cell of the game's
    board, as ``/place`` does (newcomer play-test: "'d6 j6' is not a move"). ``None``
    for anything else (three words, prose: "b3 to" is not a move)."""
    if len(text) > 40:
        return None
    words = "".join(" " if ch in _MOVE_SEPARATORS else ch for ch in ascii_typed(text)).split()
    if len(words) == 3 and words[1].lower() in _TO_WORDS:
        words = [words[0], words[2]]  # "d6 to j6"
    if not 1 <= len(words) <= 2 or not all(map(_cell_like, words)):
        return None
    return words[0], words[1] if len(words) == 2 else None


def rejoined_cells(text: str) -> list[str] | None:
    """The one or two cells a person meant by a step typed with a cell split in two or the
    wrong way round (``a 1``, ``1a b1``, ``d3 to c 3``), or ``None`` when that is not
    plain (other words, three cells, nothing to mend: the text is then refused as it is).
    At most 40 characters are read, word by word."""
    if len(text) > 40:
        return None
    words = "".join(" " if ch in _MOVE_SEPARATORS else ch for ch in ascii_typed(text)).split()
    cells: list[str] = []
    mended = False
    i = 0
    while i < len(words):
        word = words[i].lower()
        pair = word + words[i + 1].lower() if i + 1 < len(words) else ""
        if _is_cell_text(word):
            cells.append(word)
        elif _is_cell_text(word[::-1]):  # "1a"
            cells.append(word[::-1])
            mended = True
        elif len(word) == 1 and _is_cell_text(pair):  # "a 1"
            cells.append(pair)
            mended, i = True, i + 1
        elif len(word) == 1 and _is_cell_text(pair[::-1]) and len(pair) == 2:  # "1 a"
            cells.append(pair[::-1])
            mended, i = True, i + 1
        elif not (word in _TO_WORDS and len(cells) == 1 and i + 1 < len(words)):
            return None
        i += 1
    return cells if mended and 1 <= len(cells) <= 2 else None


def _cell_shaped(word: str) -> bool:
    """One letter and a number of one or two digits, either way round (``z9``, ``a10``,
    ``1a``): a cell name on some board, as a game's cell option reads one (``zz9`` and
    prose are not)."""
    if not 2 <= len(word) <= 3 or not word.isascii():
        return False
    letter, number = (word[0], word[1:]) if word[0].isalpha() else (word[-1], word[:-1])
    return letter.isalpha() and number.isdigit()


def _cell_like(word: str) -> bool:
    """A letter and a number, maybe off the board or the wrong way round (``j6``, ``a10``, ``6d``)."""
    return len(word) <= 3 and word.isalnum() and any(c.isalpha() for c in word) and any(c.isdigit() for c in word)


#: Longer typed chains are not read (a chain visits each cell at most once: 81 on 9x9).
MAX_CHAIN_TEXT = 400


def split_chain_text(text: str) -> list[str] | None:
    """Three or more cells typed in one string, a chain of capturing steps by one piece
    (``d3 c3 b3``, ``d3-c3-b3``, ``d3 -> c3 -> b3``), or ``None`` for anything else.

    One pass over at most :data:`MAX_CHAIN_TEXT` characters: a pasted paragraph is not a
    chain and costs nothing to refuse.
    """
    if len(text) > MAX_CHAIN_TEXT:
        return None
    cells: list[str] = []
    word = ""
    after_to = False  # "d3 to c3 to b3": a "to" only between two cells
    for ch in ascii_typed(text.strip()) + " ":
        if _is_gap(ch):
            if word:
                if word.lower() in _TO_WORDS and cells and not after_to:
                    after_to = True
                elif not _is_cell_text(word):
                    return None
                else:
                    cells.append(word.lower())
                    after_to = False
                word = ""
        else:
            word += ch
            if len(word) > 3:
                return None
    return cells if len(cells) >= 3 and not after_to else None


_ACTION_TEXT: dict[Action, str] = {}


def action_text(action: Action) -> str:
    """``str(action)``, memoised: results list every legal action after every command."""
    text = _ACTION_TEXT.get(action)
    if text is None:
        text = _ACTION_TEXT[action] = str(action)
    return text


def join_names(names: Sequence[str], limit: int = 12, word: str = "or") -> str:
    """``a1, b2 or c3`` (at most ``limit`` names, then ``and N more``)."""
    items = list(names)
    if not items:
        return "nothing"
    if len(items) > limit:
        return ", ".join(items[:limit]) + f" and {len(items) - limit} more"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {word} {items[-1]}"


def board_cell(text: str, pos: Position) -> int:
    """The global id of a cell typed by a person, or a :class:`BadInputError` naming the board's cells."""
    try:
        cell = parse_cell(text)
        pos.geo.index(cell)
    except SeegaError:
        typed = text.strip()
        meant = rejoined_cells(typed) if any(ch.isspace() for ch in typed) else None
        if meant is not None and len(meant) == 1:  # "b 2" in one option (/place second:, /move to:)
            if _on_board(meant[0], pos):
                raise BadInputError("bad_cell_split", cell=typed, meant=meant[0]) from None
            raise off_board(meant[0], pos) from None
        turned = typed[-1:] + typed[:-1]  # "1a": the number typed first (fresh-eyes play-test)
        if typed[:1].isdigit() and _on_board(turned, pos):
            raise BadInputError("bad_cell_reversed", cell=typed, meant=turned.lower()) from None
        raise off_board(typed, pos) from None
    return cell


def off_board(typed: str, pos: Position) -> BadInputError:
    """The refusal of ``typed``, not a cell of ``pos``'s board, naming the board's cells."""
    n = pos.geo.n
    return BadInputError("bad_cell", cell=typed, size=n, last="abcdefghi"[n - 1] + str(n))


def _on_board(text: str, pos: Position) -> bool:
    """Whether ``text`` names a cell of ``pos``'s board."""
    try:
        pos.geo.index(parse_cell(text))
    except SeegaError:
        return False
    return True


def hint(pos: Position) -> Text:
    """What the player to act can do now, as a phrase naming the commands (``hint.*``)."""
    legal = pos.legal_actions()
    kinds = {a.kind for a in legal}
    if pos.phase == "s":
        return Text.of("hint.replace", cells=cell_names([a.src for a in legal]))
    if PLACE in kinds:
        return Text.of("hint.place", cells=cell_names([a.src for a in legal if a.kind == PLACE]))
    if REMOVE in kinds:
        return Text.of("hint.remove", cells=cell_names([a.src for a in legal if a.kind == REMOVE]))
    if STEP in kinds:
        froms = cell_names([a.src for a in legal if a.kind == STEP])
        return Text.of("hint.move_or_end" if END in kinds else "hint.move", cells=froms)
    if PASS in kinds:
        return Text.of("hint.pass")
    if END in kinds:
        return Text.of("hint.end")
    return Text.of("hint.nothing")


def play_place(pos: Position, cells: Sequence[str]) -> list[Action]:
    """Place on one or two cells (or replace an enemy piece in the five-in-a-row phase)."""
    cells = [ascii_typed(c) for c in cells]
    if pos.phase not in ("p", "s"):
        raise IllegalMoveError("not_placement", hint=hint(pos))
    turn = pos.turn
    if len(cells) > 2:
        # "/place a 1 b 2" at the console: two cells, each typed as two words
        meant = rejoined_cells(" ".join(cells[:4])) if len(cells) <= 4 else None
        if meant is not None and len(meant) == 2 and all(_on_board(c, pos) for c in meant):
            raise BadInputError("bad_cell_split", cell=" ".join(c.strip() for c in cells), meant=" ".join(meant))
        # A word that is not a cell is named first ("/place zz99 ;DROP TABLE games" is not
        # about the count); only the first three are read, whatever was pasted.
        for text in cells[:3]:
            board_cell(text, pos)
        raise BadInputError("too_many_cells", count=len(cells))
    if len(cells) == 2 and cells[0].strip().isalpha() and cells[1].strip().isdigit():
        joined = cells[0].strip() + cells[1].strip()
        if _on_board(joined, pos):  # "/place a 1": one cell typed as two words
            raise BadInputError("bad_cell_split", cell=" ".join(c.strip() for c in cells), meant=joined.lower())
        if _is_cell_text(joined.lower()):  # "/place i 9" on a 5x5 board: i9 is off it
            raise off_board(joined.lower(), pos)
    if len(cells) == 2 and cells[0].strip().lower() == cells[1].strip().lower() and _places_two(pos):
        # the example is two cells free now ("like a1 b2" came when a1 was taken); a turn
        # with one piece left is answered by the loop below ("place just a1", or why not)
        free = [cell_name(a.src) for a in pos.legal_actions() if a.kind == PLACE][:2]
        raise IllegalMoveError("same_cells", cell=cells[0].strip().lower(), example=" ".join(free) or "a1 b2")
    played: list[Action] = []
    # A refused pair places nothing, so the cells it offers are those free before it
    # (the first cell of the pair among them).
    free_before = pos.legal_actions()
    for i, text in enumerate(cells):
        cell = board_cell(text, pos)
        if i > 0 and pos.turn != turn:
            raise IllegalMoveError("one_piece_only", cell=cells[0].strip().lower())
        legal = pos.legal_actions()
        action = Action(PLACE, cell)
        if action not in legal:
            raise _place_error(pos, cell, free_before)
        pos.push(action)
        played.append(action)
    return played


def _places_two(pos: Position) -> bool:
    """Whether the turn to play places two pieces (not its second one, nor a last piece)."""
    first = next((a for a in pos.legal_actions() if a.kind == PLACE), None)
    if first is None:
        return False
    turn = pos.turn
    pos.push(first)
    try:
        return pos.turn == turn and pos.phase in ("p", "s")
    finally:
        pos.pop()


def _place_error(pos: Position, cell: int, legal: list[Action]) -> IllegalMoveError:
    """Why ``cell`` cannot be placed on in ``pos``, offering the placements of ``legal``."""
    name = cell_name(cell)
    options = cell_names([a.src for a in legal if a.kind == PLACE])
    if pos.phase == "s":
        owner = pos.piece_at(pos.geo.index(cell))
        key = "replace_empty" if owner is None else "replace_own"
        return IllegalMoveError(key, cell=name, options=options)
    idx = pos.geo.index(cell)
    if pos.piece_at(idx) is not None:
        return IllegalMoveError("occupied", cell=name, options=options)
    if idx == pos.geo.centre and not pos.rules.place_centre:
        return IllegalMoveError("centre", cell=name, options=options)
    return IllegalMoveError("bad_place", cell=name, options=options)


def parse_move(frm: str, to: str | None, pos: Position | None = None) -> tuple[str, str | None]:
    """The from and to cells of a step typed as ``frm`` (maybe both cells) and ``to``.
    With ``pos``, a split or turned cell is suggested only when it is on ``pos``'s board
    ("/move i 9" on a 5x5 board: i9 is off it, said with the board's cells)."""
    frm, to = ascii_typed(frm or ""), ascii_typed(to) if to is not None else None
    if not frm.strip():
        raise BadInputError("missing_move")
    cells = split_move_text(frm or "") or split_step_words(frm or "")
    if cells is None:
        typed = (frm or "").strip()
        meant = rejoined_cells(typed)
        off = next((c for c in meant or [] if not _on_board(c, pos)), None) if pos is not None else None
        if off is not None and pos is not None:
            raise off_board(off, pos)
        if meant is not None and len(meant) == 1:  # "/move a 1"
            raise BadInputError("bad_cell_split", cell=typed, meant=meant[0])
        if meant is not None:  # "/move a 1 b 1", "/move 1a to b1"
            raise BadInputError("bad_move_meant", text=typed, meant=" ".join(meant))
        # The forms that work, with the player's own cells when the text starts and ends
        # with two ("d3 into c3"), else an example.
        first, last = typed[:2].lower(), typed[-2:].lower()
        if not (_is_cell_text(first) and _is_cell_text(last) and first != last):
            first, last = "b2", "c2"
        raise BadInputError("bad_move", text=typed, frm=first, to=last)
    src_text, dst_text = cells
    if dst_text and to and to.strip().lower() != dst_text.lower():
        raise BadInputError("two_destinations")
    return src_text, dst_text or (to.strip() if to and to.strip() else None)


def play_step(pos: Position, src_text: str, dst_text: str | None) -> list[Action]:
    """Step a piece from ``src_text`` to ``dst_text`` (one step of a chain, if in one)."""
    if pos.phase != "m":
        raise IllegalMoveError("no_moves_now", hint=hint(pos))
    legal = pos.legal_actions()
    steps = [a for a in legal if a.kind == STEP]
    if not steps:
        raise IllegalMoveError("no_moves_now", hint=hint(pos))
    src = board_cell(src_text, pos)
    if dst_text is not None:
        board_cell(dst_text, pos)  # a word that is not a cell is named first, as /place does
    name = cell_name(src)
    froms = cell_names([a.src for a in steps])
    in_chain = any(a.kind == END for a in legal)
    owner = pos.piece_at(pos.geo.index(src))
    if owner is None:  # a newcomer's slip: the cell the piece would go to, typed first
        raise IllegalMoveError("empty_cell_move", cell=name, options=froms)
    if owner != pos.side:
        raise IllegalMoveError("not_your_piece", cell=name, options=froms)
    if name not in froms:
        if in_chain and pos.state >= 0 and pos.state != pos.geo.index(src):
            # Not "has no capture": it may well have one (fresh-eyes play-test), but only
            # the piece that captured goes on (the same-piece chain rule).
            raise IllegalMoveError("chain_same_piece", cell=name, piece=pos.geo.names[pos.state])
        if in_chain:
            raise IllegalMoveError("chain_needs_capture", cell=name, options=froms)
        index = pos.geo.index(src)
        if all(pos.piece_at(n) is not None for n in pos.geo.neighbours[index]):
            raise IllegalMoveError("piece_walled", cell=name, options=froms)  # the why a newcomer misses
        # It has an empty neighbour and still cannot go there: say which rule holds it
        # (the shuttle limit, usually) rather than a bare "cannot move now".
        empty = next(n for n in pos.geo.neighbours[index] if pos.piece_at(n) is None)
        why = as_text(step_refusal(pos, index, empty, in_chain))
        raise IllegalMoveError("piece_held", why=why, options=froms)
    targets = cell_names([a.dst for a in steps if a.src == src])
    if dst_text is None:
        raise BadInputError("missing_destination", cell=name, options=targets)
    dst = board_cell(dst_text, pos)
    action = Action(STEP, src, dst)
    if action not in steps:
        geo = pos.geo
        why = as_text(step_refusal(pos, geo.index(src), geo.index(dst), in_chain))
        key = "bad_step_in_chain" if in_chain else "bad_step"
        raise IllegalMoveError(key, frm=name, to=cell_name(dst), options=targets, why=why)
    pos.push(action)
    return [action]


def play_chain(pos: Position, cells: Sequence[str]) -> list[Action]:
    """Step one piece along ``cells`` (a chain of captures typed in one command), each step
    checked by the engine. All or nothing: a refused later step raises, and since the
    caller stores nothing on a refusal, the earlier steps are not half-played (the
    decision is in ``docs/commands.md``)."""
    if len(cells) > pos.geo.n * pos.geo.n:
        raise BadInputError("chain_too_long", count=len(cells))
    side, turn = pos.side, pos.turn
    played: list[Action] = []
    took = False
    for i in range(len(cells) - 1):
        move = f"{cells[i]}-{cells[i + 1]}"
        if i > 0 and (pos.side != side or pos.turn != turn):
            last = f"{cells[i - 1]}-{cells[i]}"
            if took:  # it captured, and no capture is left from there
                raise IllegalMoveError("chain_no_more", move=last, played=" ".join(cells[: i + 1]))
            raise IllegalMoveError("chain_turn_over", move=last)
        enemies = pos.count(1 - side)
        try:
            played += play_step(pos, cells[i], cells[i + 1])
        except ServiceError as exc:
            if i == 0:
                raise
            why = Text(f"service.{exc.key}", exc.params)
            raise IllegalMoveError("chain_step_refused", step=i + 1, move=move, why=why) from None
        took = pos.count(1 - side) < enemies
    return played


def play_remove(pos: Position, text: str) -> list[Action]:
    """The removal a blocked-player rule asks for (in five-in-a-row's last phase: a replacement)."""
    text = ascii_typed(text)
    cell = board_cell(text, pos)
    if pos.phase == "s":
        return play_place(pos, [text])
    removals = [a for a in pos.legal_actions() if a.kind == REMOVE]
    if not removals:
        raise IllegalMoveError("no_removal", hint=hint(pos))
    action = Action(REMOVE, cell)
    if action not in removals:
        # Why not and which may (newcomer play-test: "c2 cannot be removed" said neither):
        # what the cell holds, then the rule's own line (whose pieces, and the cells).
        owner = pos.piece_at(pos.geo.index(cell))
        what = "empty" if owner is None else "own" if owner == pos.side else "enemy"
        cells = cell_names([a.src for a in removals])
        why = as_text(removal_line(pos, whole=True) or ("explain.removal.command", {"cells": cells}))
        raise IllegalMoveError("bad_removal", cell=cell_name(cell), what=Text(f"service.removal_cell.{what}"), why=why)
    pos.push(action)
    return [action]


def play_end(pos: Position) -> list[Action]:
    """End a chain of captures, or pass when passing is the only thing left."""
    legal = pos.legal_actions()
    for kind in (END, PASS):
        for a in legal:
            if a.kind == kind:
                pos.push(a)
                return [a]
    raise IllegalMoveError("no_chain", hint=hint(pos))


def answer_refusal(pos: Position, text: str) -> Text | None:
    """Why a puzzle's or a lesson's answer typed as ``text`` cannot be played on ``pos``, in
    the words a game uses for the same command ("a2 cannot step to b1: ... never
    diagonally; from a2 you can step to a1 or a3"; "'z9' is not a cell of this 5×5
    board"), or ``None`` when it can be played, is not read (prose), or goes on after the
    turn ended (the caller words those).

    Play-test: a puzzle's "a2 b1" got "a2-b1 is not allowed in this position", a game's
    the rule it breaks and the cells allowed.
    """
    turn = play_answer(pos, text)
    if turn.error in ("unreadable", "offboard") and _cell_shaped(turn.detail):
        # "z9": the board's own words, as a game says them ("'z9' is not a cell of this
        # 5×5 board; ... from a1 to e5"), not "I could not read z9" (play-test)
        try:
            board_cell(turn.detail, pos)
        except ServiceError as exc:
            return Text(f"service.{exc.key}", exc.params)
        return None
    if turn.error != "illegal" or turn.complete:
        return None
    action = Action.parse(turn.detail)
    src = cell_name(action.src) if action.src >= 0 else ""
    board = turn.after.copy()
    try:
        if action.kind == STEP:
            play_step(board, src, cell_name(action.dst))
        elif action.kind == PLACE:
            play_place(board, [src])
        elif action.kind == REMOVE:
            play_remove(board, src)
        else:
            play_end(board)
    except ServiceError as exc:
        return Text(f"service.{exc.key}", exc.params)
    return None
