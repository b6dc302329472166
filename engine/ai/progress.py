"""Progress in a stuck game: the soonest capture the opponent cannot stop.

A search scores a line by what it reaches at its horizon, so a capture three plies
away and one seven plies away that end with the same count score alike (docs/ai.md,
"Known limits"). Usually that does not matter: the sooner capture is still there at
the next turn. In a stuck game it does. With the opponent walled in, the waiting moves
tie with the capture line and come first in the order, the next search finds another
waiting move, and the game shuffles for hundreds of turns (a Black draw against Ludii
Alpha-Beta at 10 v 10 with White passing 191 times).

So when the no-capture clock says the game is stuck (:data:`STUCK_CLOCK` turns), the
player asks an exact question the search does not: which actions force a net capture
within ``k`` plies whatever the opponent does, for the least ``k``? That is an AND-OR
search (every reply of the opponent must fail to stop it), tiny when the opponent is
walled in and bounded by a node budget otherwise. The clock is part of the position
(SPN), so this works the same for a bot that replays the game's record and for a
command-line engine that is given one position at a time.

The answer is only a tie-break: a forcing action replaces the search's choice only when
a null-window search at the choice's depth proves it worth at least the choice's score
minus :data:`MARGIN` (:func:`worth_playing`), so the tie-break is exact at the root, where
the scores of the actions the search did not choose are only bounds. The player
(:func:`engine.ai.player.choose`) and the coach's hints (``engine/coach/hints.py``) both
ask it.
"""

from __future__ import annotations

from collections.abc import Mapping
from time import perf_counter

from engine.ai.search import Searcher
from engine.ai.tactics import Tactics
from engine.ai.timecontrol import Clock
from engine.position import START, Position

#: Movement turns without a capture after which the game counts as stuck. Sixteen
#: turns are eight of each side's: in ordinary play a capture comes far sooner.
STUCK_CLOCK = 16
#: The longest forced capture looked for, in plies (the mover's fourth action).
MAX_PLIES = 7
#: Nodes the AND-OR search may visit; then it answers with what it has proved so far.
NODE_BUDGET = 6_000
#: How much (centipieces) a forcing action may score below the search's choice and
#: still be played instead. A capture now is worth a piece, so a concession of part of
#: one at the horizon is a good trade; and in a stuck game the waiting line's value is
#: mostly horizon noise: in the draw above, the capture line a4-b4 searched alone scored
#: 549, 518, 540 and 534 at depths 9 to 12, the waiting b2-b3 555, 561, 561 and 521.
MARGIN = 60


#: The share of an action's budget the AND-OR search may use (with 1 s, 100 ms: the
#: node budget is the limit there; with a short budget this one is).
TIME_SHARE = 0.1


class _OutOfNodes(Exception):
    """The node budget or the time ran out inside the AND-OR search."""


def is_stuck(pos: Position) -> bool:
    """Whether ``pos`` is a movement turn start that has gone :data:`STUCK_CLOCK`
    turns without a capture, under rules without a move limit.

    With a move limit (the standard preset's 100 turns) a stuck game ends by count, and
    going 16 turns without a capture is common there (41% of the actions of six hard
    self-play games at 4000 nodes), where the time kept back for the check would cost
    play that was not measured; so, like the conversion terms (``evaluate.py``), this
    acts only where nothing but captures ends the game (the ``ludii`` preset)."""
    return (
        not pos.rules.move_limit
        and pos.phase == "m"
        and pos.state == START
        and pos.clock >= STUCK_CLOCK
        and pos.result is None
    )


def forcing_actions(
    pos: Position,
    tactics: Tactics,
    max_plies: int = MAX_PLIES,
    max_nodes: int = NODE_BUDGET,
    deadline: float = float("inf"),
) -> tuple[int, list[int]]:
    """``(k, codes)``: the least ``k`` (at most ``max_plies``) such that each action in
    ``codes`` forces a net capture by the side to act within ``k`` plies, whatever the
    opponent replies; ``(0, [])`` when none was proved within the limits (``max_nodes``
    nodes, and ``time.perf_counter()`` reaching ``deadline``). ``pos`` is left unchanged.

    A net capture: the opponent has lost more pieces than the side to act since
    ``pos``. A win counts as one; a draw or a loss does not.
    """
    mover = pos.side
    root = (pos.count(mover), pos.count(1 - mover))
    base = pos.plies
    nodes = 0
    codes = pos.legal_codes()

    def gained() -> bool:
        return root[1] - pos.count(1 - mover) > root[0] - pos.count(mover)

    def forces(plies: int) -> bool:
        """Whether the side to act in ``pos`` cannot stop the mover's net capture
        within ``plies`` plies (or, on the mover's move, whether it can make one)."""
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes or (nodes & 63 == 1 and perf_counter() > deadline):
            raise _OutOfNodes
        result = pos.result
        if result is not None:
            return result.winner == mover
        if plies <= 0:
            return False
        options = pos.legal_codes()
        if pos.side == mover:
            if plies == 1:
                # Only a capture (or a removal) can still succeed.
                options = [c for c in options if tactics.capture_count(pos, c) or tactics.is_removal(c)]
            for code in options:
                pos.push_code(code)
                ok = gained() or forces(plies - 1)
                pos.pop()
                if ok:
                    return True
            return False
        for code in options:
            pos.push_code(code)
            ok = forces(plies - 1)
            pos.pop()
            if not ok:
                return False
        return True

    try:
        for k in range(1, max_plies + 1):
            found = []
            for code in codes:
                pos.push_code(code)
                ok = gained() or forces(k - 1)
                pos.pop()
                if ok:
                    found.append(code)
            if found:
                return k, found
    except _OutOfNodes:
        while pos.plies > base:
            pos.pop()
    return 0, []


def worth_playing(
    pos: Position,
    searcher: Searcher,
    forcing: list[int],
    floor: int,
    depth: int,
    bounds: Mapping[int, int] | None = None,
    clock: Clock | None = None,
    max_nodes: int | None = None,
) -> int | None:
    """The forcing action to play instead of a search's choice: the first of the two
    best by ``bounds`` (the search's root scores, upper bounds for actions it did not
    choose) proved worth at least ``floor`` when searched to ``depth``; ``None`` if
    neither is (or ``clock`` or ``max_nodes``, per check, runs out). ``pos`` is left
    unchanged."""
    bounds = bounds or {}
    ranked = sorted(forcing, key=lambda c: -bounds.get(c, floor))
    for code in ranked[:2]:
        if bounds.get(code, floor) < floor:
            continue  # an exact score or an upper bound already below the floor
        if searcher.at_least(pos, code, max(1, depth), floor, clock, max_nodes):
            return code
    return None
