"""Hints with reasons a player can see: "captures 2", "saves b3", "blocks Black".

The suggested turn comes from :func:`engine.ai.analysis.analyse`; the reasons are read
off the board before and after it (pieces taken, pieces no longer capturable, threats
made, the opponent left without a step), never from the search's internals. Reasons are
``(key, params)`` pairs, worded by the bot's locale files (``coach.reason.<key>``).

Every reason holds under the game's own rules (docs/coach.md, "Reasons and the rules"):
what a side can take in its coming turn is read off the engine's legal actions (flanking,
chains, line captures, and the removals of the ``blocked`` rule), not estimated; a cell's
safety is claimed only where no rule lets the opponent take a piece standing there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.actions import END, PLACE, REMOVE, STEP, Action
from engine.ai.analysis import Analysis, analyse, win_chance
from engine.ai.levels import get_level
from engine.ai.player import action_of, components, make_searcher
from engine.ai.progress import MARGIN, forcing_actions, is_stuck, worth_playing
from engine.ai.search import WIN_BOUND
from engine.board import cell_name
from engine.coach.review import CAPTURE_SEQUENCES, AnalysisJob, biggest_capture, played_on
from engine.errors import SeegaError
from engine.position import START, Position, iter_bits
from engine.rules import Ruleset

Reason = tuple[str, tuple[tuple[str, str], ...]]
#: Node budget of a hint's search (deterministic; about 0.2-0.6 s in one worker).
HINT_NODES = 12_000


@dataclass(frozen=True)
class Advice:
    """A suggested turn and why.

    Attributes:
        actions: the turn's actions, as text.
        reasons: ``(key, ((name, value), ...))``, most important first.
        win_chance: the mover's expected score with the suggestion (0..1).
    """

    actions: tuple[str, ...]
    reasons: tuple[Reason, ...]
    win_chance: float


def _cells(pos: Position, bits: int) -> str:
    """Every cell of ``bits``, by name: a list cut at four ("captures 5 (b2 d2 b3 d3)")
    disagreed with its own count."""
    return " ".join(cell_name(pos.geo.to_global[c]) for c in iter_bits(bits))


def reasons_for(before: Position, analysis: Analysis) -> tuple[Reason, ...]:
    """The visible reasons for playing ``analysis.best_turn`` in ``before``."""
    out = list(turn_reasons(before, analysis.best_turn))
    if analysis.score >= WIN_BOUND and not any(k == "wins" for k, _ in out):
        out.append(("forced_win", ()))
    elif analysis.score <= -WIN_BOUND:
        out.append(("lost", ()))
    if not out:
        out.append(("steady", ()))
    return tuple(out)


def turn_reasons(before: Position, turn: Sequence[Action]) -> tuple[Reason, ...]:
    """What playing ``turn`` in ``before`` visibly does, read off the board (no search):
    captures or removes, wins, blocks or walls in, saves, threatens, takes the centre; in
    placement, the kind of cell. Empty when it does none of these.

    "saves X": the opponent could take X in its next turn if the mover did nothing, some
    other turn of the mover's would leave it so, and this one does not (a piece every
    legal turn covers was never in danger: at the first step, with only the centre
    empty, every step fills it). "threatens Y": the mover could take Y in its next turn
    if the opponent did nothing, and cannot now. Taking counts every way the rules give:
    flanking, chains, line captures, the removals of the ``blocked`` rule within the turn.
    """
    pos = before.copy()
    side, enemy = pos.side, 1 - pos.side
    evaluator, _tactics = components(pos.rules)
    enemy_before = pos.bb[enemy]
    for action in turn:
        pos.push(action)
    out: list[Reason] = []
    if len(before.legal_codes()) == 1 and len(turn) == 1:
        out.append(("only", ()))
    if pos.result is not None and pos.result.winner == side:
        out.append(("wins", ()))
    taken = enemy_before & ~pos.bb[enemy]
    if taken:
        # A removal (a rule for a blocked player) is not a capture: said as what it is.
        removed = all(a.kind == REMOVE for a in turn)
        out.append(
            ("removes" if removed else "captures", (("n", str(taken.bit_count())), ("cells", _cells(pos, taken))))
        )
    if pos.result is None:
        if pos.phase == "m" and pos.side == enemy and [a.kind for a in pos.legal_actions()] == ["pass"]:
            out.append(("blocks", ()))
        if before.phase == "m" and walls_in(pos, side):
            # After a removal the opponent may still be walled in (the rule applies again):
            # it was walled in by the step before, not by the removal.
            out.append(("walls", ()))
        if before.phase == "m" and before.state == START and pos.side == enemy:
            saved = takeable(passed(before), enemy) & pos.bb[side] & ~takeable(pos, enemy)
            saved = _left_by_another_turn(before, saved)
            if saved:
                out.append(("saves", (("cells", _cells(pos, saved)),)))
            if pos.phase == "m" and not taken:
                threats = takeable(passed(pos), side) & ~takeable(before, side)
                if threats:
                    out.append(("threatens", (("cells", _cells(pos, threats)),)))
        if before.phase == "m":
            centre = evaluator.centre_bit
            if pos.bb[side] & centre and not before.bb[side] & centre:
                out.append(("centre", ()))
        elif before.phase == "p" and before.rules.after_placement == "move":
            # Five-in-a-row has no moves (a full board is refilled piece by piece): no
            # cell there is near the first steps, or safe from anything.
            placed = pos.bb[side] & ~before.bb[side]
            flank = "_flank" if removal_takes(before.rules) else ""
            if placed & evaluator.centre_adj:
                out.append(("near_centre", (("cells", _cells(pos, placed & evaluator.centre_adj)),)))
            elif placed & evaluator.corners:
                out.append(("corner" + flank, (("cells", _cells(pos, placed & evaluator.corners)),)))
            elif placed & evaluator.edges and before.rules.captures:
                # Said, not left to "steady": the bot often prefers the edge early, while
                # the first lesson teaches the cells next to the centre (play-test).
                out.append(("edge" + flank, (("cells", _cells(pos, placed & evaluator.edges)),)))
    return tuple(out)


def removal_takes(rules: Ruleset) -> bool:
    """Whether a ``blocked`` rule lets a player remove a piece of the opponent's:
    ``capture-one`` (the blocked player's opponent takes any piece, corners and edges
    included) and ``remove-by-blocked`` (the blocked player takes one next to its own).
    Under ``pass``, ``remove-by-opponent`` and ``lose`` a removal takes only a piece of
    the remover's own, so a corner, which flanking cannot take, is never taken."""
    return rules.blocked in ("capture-one", "remove-by-blocked")


def _removable(pos: Position) -> int:
    """The cells whose piece the side to act may remove now (0 outside phase ``r``)."""
    if pos.phase != "r" or pos.result is not None:
        return 0
    base, end = pos.table.remove_base, pos.table.end
    bits = 0
    for code in pos.legal_codes():
        if base <= code < end:
            bits |= 1 << (code - base)
    return bits


def walls_in(pos: Position, side: int) -> bool:
    """Whether in ``pos`` ``side``, to act, removes a piece of the other side because
    the other side is walled in (``capture-one``): the engine's own blocked handling
    has put the position in phase ``r`` with ``side`` to act and enemy pieces to remove."""
    return pos.side == side and bool(_removable(pos) & pos.bb[1 - side])


def passed(pos: Position) -> Position:
    """A copy of ``pos`` (at the start of a movement turn) with the other side to act, as
    if the side to act had done nothing: the turn-start checks (game end, the blocked
    rule) applied as after any turn. Seega has no pass; this only asks "what is in
    danger", as a threat is read."""
    other = pos.copy()
    other.side = 1 - other.side
    other.state = START
    other.acted = False
    other.settle()
    return other


def takeable(pos: Position, attacker: int) -> int:
    """The other side's pieces ``attacker`` can take in its coming turn in ``pos``: the
    union over the turn's legal action sequences (chains followed; a removal the rules
    give within that turn counted; a removal that is a turn of its own, as under
    ``capture-one``, is not: :func:`walls_in` says that one). 0 when ``attacker`` is not
    to act. At most :data:`~engine.coach.review.CAPTURE_SEQUENCES` sequences; ``pos``
    is left as it was."""
    if pos.result is not None or pos.side != attacker or pos.phase not in "mr":
        return 0
    work = pos.copy()
    turn, victims = work.turn, work.bb[1 - attacker]
    found = 0
    budget = CAPTURE_SEQUENCES

    def walk() -> None:
        nonlocal found, budget
        for code in work.legal_codes():
            if budget <= 0:
                return
            budget -= 1
            work.push_code(code)
            found |= victims & ~work.bb[1 - attacker]
            if work.result is None and work.side == attacker and work.turn == turn:
                walk()
            work.pop()

    walk()
    return found


#: First actions :func:`_left_by_another_turn` tries at most: each costs a :func:`takeable`
#: of up to :data:`~engine.coach.review.CAPTURE_SEQUENCES` sequences, and a 9x9 board in
#: the movement phase has well over a hundred (0.3 s for one reason: attacker review,
#: stop 37). Fewer tried finds fewer pieces left exposed, so "saves" is said less often,
#: never falsely.
MAX_OTHER_TURNS = 48


def _left_by_another_turn(before: Position, cells: int) -> int:
    """Those of ``cells`` (the side to act's pieces) that the opponent could take after
    some legal turn of the side to act's in ``before`` (its first action; a chain it
    starts ended there), among the first :data:`MAX_OTHER_TURNS`. A piece that every
    turn leaves safe was never in danger."""
    if not cells:
        return 0
    side = before.side
    work = before.copy()
    left = 0
    for code in before.legal_codes()[:MAX_OTHER_TURNS]:
        work.push_code(code)
        pushed = 1
        if (
            work.result is None
            and work.side == side
            and work.turn == before.turn
            and work.table.end in work.legal_codes()
        ):
            work.push_code(work.table.end)
            pushed += 1
        left |= cells & work.bb[side] & takeable(work, 1 - side)
        for _ in range(pushed):
            work.pop()
        if left == cells:
            break
    return left


def moment_reasons(
    before: Position,
    played: Sequence[Action],
    best: Sequence[Action],
    reply: Sequence[Action],
    played_reply: Sequence[Action] = (),
    line: Sequence[Action] = (),
) -> tuple[tuple[Reason, ...], tuple[Reason, ...]]:
    """Why a review's key moment went wrong, as a player can check it on the board.

    Returns ``(played_why, best_why)``: what the turn played let the opponent do: capture
    pieces (``allows_capture``) or win (``allows_win``); and what the better turn does
    (:func:`turn_reasons`). Either may be empty: a review that says only "played a4-a3,
    better b4-b5" leaves a newcomer asking why (console play-test).

    The opponent's turn named is the one that does the most harm among ``reply`` (the
    engine's best answer, from the review's next verdict) and ``played_reply`` (the turn
    the opponent played), each followed to the end of its chain
    (:func:`~engine.coach.review.biggest_capture`), the turn played on a tie. Before,
    only the engine's answer was read: a turn after which the bot took three pieces
    said nothing because the engine's answer was a quiet winning step, and a chain the
    engine stopped early ("a1-a2 a2-a3 end") was named when a3-b3 took a third piece.

    ``line``, for a turn of placements: the opponent's best line after it as the review's
    search saw it (:attr:`~engine.coach.review.TurnVerdict.line`). A placement's reply is
    a placement, which takes nothing; when neither reply took anything, the first turn
    of the line that captures is named if it is the opponent's, with the captures the
    line itself contains (``allows_capture_moves``, or ``allows_capture_moves_after``
    with the line's steps before it): :func:`line_capture`.
    """
    best_why = tuple(r for r in turn_reasons(before, best) if r[0] != "only")
    side = before.side
    pos = before.copy()
    for action in played:
        pos.push(action)
    if pos.result is not None or pos.side == side:
        return (), best_why
    mine = pos.bb[side]
    harm: tuple[tuple[bool, int], tuple[Action, ...]] | None = None
    wall: tuple[Action, ...] | None = None
    for candidate in (played_reply, reply):
        if not candidate:
            continue
        for turn in (tuple(candidate), biggest_capture(pos, candidate[0])[0]):
            after = _played(pos, turn)
            if after is None:
                continue
            won = after.result is not None and after.result.winner == 1 - side
            value = (won, (mine & ~after.bb[side]).bit_count())
            if harm is None or value > harm[0]:
                harm = (value, turn)
            if wall is None and walls_in(after, 1 - side):
                wall = turn
    walled: tuple[Reason, ...] = ()
    if wall is not None:
        # The reply walls the mover in, and the rules (capture-one) then give the
        # opponent a removal of its choice: a cost no flanking capture shows.
        walled = (("allows_wall", (("reply", _written(wall)),)),)
    if harm is None or harm[0] == (False, 0):
        placed = bool(played) and all(a.kind == PLACE for a in played)
        found = line_capture(pos, line) if placed and line else None
        return ((found,) if found is not None else walled), best_why
    (won, _taken), turn = harm
    said = (("reply", _written(turn)),)
    if won:
        return (("allows_win", said),), best_why
    after = _played(pos, turn)
    assert after is not None
    lost = mine & ~after.bb[side]
    return (
        ("allows_capture", (("n", str(lost.bit_count())), ("cells", _cells(after, lost)), *said)),
        *walled,
    ), best_why


def _written(turn: Sequence[Action]) -> str:
    """A turn's actions as a moment names them (an "end" that stops a chain not written)."""
    return " ".join(str(a) for a in turn if a.kind != END)


def line_capture(pos: Position, line: Sequence[Action]) -> Reason | None:
    """What ``line`` (played from ``pos``) lets the side to act take from the other side,
    if the first turn in it that takes anything is the side to act's: ``allows_capture_moves``
    with the pieces that turn takes (``n``, ``cells``) and its steps (``reply``, an "end"
    not written), or ``allows_capture_moves_after`` when the line has steps before that
    turn (``moves``). ``None`` when nothing in the line is taken, when the other side
    takes first (the line is then no longer about what the turn allowed), when a piece
    goes by a removal rather than a capture, or when the line does not fit ``pos``.

    Only what the line contains is said: a chain the line cuts short is named as far as
    the line goes, and no capture is looked for beyond its end.
    """
    pos = pos.copy()
    attacker = pos.side
    before: list[Action] = []
    i = 0
    while i < len(line) and pos.result is None:
        mover, turn = pos.side, pos.turn
        # The other side's pieces stand still in this turn: any of them gone was taken.
        theirs, mine = pos.bb[1 - mover], pos.count(mover)
        acts: list[Action] = []
        while i < len(line) and pos.result is None and pos.side == mover and pos.turn == turn:
            try:
                pos.play(line[i])
            except SeegaError:
                return None
            acts.append(line[i])
            i += 1
        taken = theirs & ~pos.bb[1 - mover]
        if not taken and pos.count(mover) >= mine:
            before.extend(a for a in acts if a.kind not in (PLACE, END))
            continue
        if mover != attacker or pos.count(mover) < mine or any(a.kind not in (STEP, END) for a in acts):
            return None
        # Every cell, not the first four: a chain of the line took five (turn 9 of the play-test).
        cells = " ".join(cell_name(pos.geo.to_global[c]) for c in iter_bits(taken))
        params = [("n", str(taken.bit_count())), ("cells", cells)]
        params.append(("reply", " ".join(str(a) for a in acts if a.kind != END)))
        if before:
            return ("allows_capture_moves_after", (*params, ("moves", " ".join(str(a) for a in before))))
        return ("allows_capture_moves", tuple(params))
    return None


def _played(pos: Position, turn: Sequence[Action]) -> Position | None:
    """``pos`` after ``turn``, checked (``None`` when a stored turn does not fit it, or
    there is no turn)."""
    return played_on(pos, turn) if turn else None


def advise(position: Position, max_nodes: int = HINT_NODES) -> Advice:
    """The hint for the side to act in ``position`` (an ongoing game; not modified)."""
    analysis = analyse(position, max_nodes=max_nodes)
    breaker = _deadlock_breaker(position, analysis, max_nodes)
    if breaker is not None:
        analysis, plies = breaker
        why: Reason = ("deadlock", (("turns", str(position.clock)), ("moves", str((plies + 1) // 2))))
        turn = tuple(str(a) for a in analysis.best_turn)
        rest = tuple(r for r in reasons_for(position, analysis) if r[0] != "steady")
        return Advice(turn, (why, *rest), analysis.win_chance)
    return Advice(tuple(str(a) for a in analysis.best_turn), reasons_for(position, analysis), analysis.win_chance)


def _deadlock_breaker(position: Position, analysis: Analysis, max_nodes: int) -> tuple[Analysis, int] | None:
    """In a stuck game (``engine/ai/progress.py``): the analysis of an action that forces
    a capture soonest, and that capture's distance in plies. That is the suggestion
    itself when it forces one, else the forcing action proved within ``MARGIN`` of it:
    the player who asks is taught to break the deadlock, as the bot itself does.
    ``None`` otherwise. Deterministic: node budgets (each check at most the analysis'
    ``max_nodes``) and a depth, no clock."""
    if not is_stuck(position) or analysis.best is None or abs(analysis.score) >= WIN_BOUND:
        return None
    pos = position.copy()
    searcher = make_searcher(pos.rules, get_level("hard"), contempt=0)
    plies, forcing = forcing_actions(pos, searcher.tactics)
    if not forcing:
        return None
    if analysis.best in {action_of(pos, c) for c in forcing}:
        return analysis, plies
    floor = analysis.score - MARGIN
    code = worth_playing(pos, searcher, forcing, floor, analysis.depth, max_nodes=max_nodes)
    if code is None:
        return None
    pos.push_code(code)
    ends_turn = pos.side != position.side
    pos.pop()
    if not ends_turn:
        return None  # a turn that goes on after it is the search's to complete
    # Proved worth at least the floor: the chances are given for that, not the best.
    action = action_of(pos, code)
    return replace(analysis, best_turn=(action,), score=floor, win_chance=win_chance(floor)), plies


def forced_turn(position: Position) -> tuple[Action, ...] | None:
    """The whole turn when the side to act has no choice at all: one legal action, after
    which the turn is over (the other side acts, or the game ends); else ``None``. Read
    off the rules, with no search, so a coach can answer it at no cost. One legal
    capture after which the same piece may capture again is not forced: a choice follows."""
    codes = position.legal_codes()
    if len(codes) != 1:
        return None
    pos = position.copy()
    side = pos.side
    action = action_of(pos, codes[0])
    pos.push(action)
    if pos.result is None and pos.side == side:
        return None
    return (action,)


def advise_job(job: AnalysisJob) -> Advice:
    """:func:`advise` for a picklable job (what a worker process runs)."""
    return advise(job.position(), job.max_nodes)
