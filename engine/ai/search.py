"""Iterative-deepening principal-variation alpha-beta search over action codes.

The search depends only on a small game interface (``legal_codes``, ``push_code``,
``pop``, ``side``, ``result``, ``key``), an injected evaluation (a callable: position ->
value for the side to act) and a :class:`~engine.ai.tactics.Tactics` object that says
which actions capture and ranks placements. It knows nothing else about Seega.

Seega turns may hold several actions by the same side (a placement pair, a capture
chain, a removal then a step), so this is negamax where the sign flips only when
``pos.side`` changes between plies, not at every ply. One ply is one action; actions
inside a capture chain do not use up depth (chains are short and forcing).

Features: transposition table keyed by a 64-bit hash of the position (see
``zobrist.py``), TT move first, then captures (most pieces first), killer actions and
the history heuristic; late-move reductions for quiet steps; quiescence over capturing
steps and whole capture chains; node- and time-limits polled every 64 nodes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import islice

from engine.ai.endgame import EndgameTables, decode
from engine.ai.filled import FILLED, FilledTable
from engine.ai.leaves import Leaves
from engine.ai.ordering import Ordering
from engine.ai.repetition import game_keys, repetition_value
from engine.ai.tactics import Tactics
from engine.ai.timecontrol import Clock, SearchTimeout
from engine.ai.zobrist import position_hash
from engine.position import START, Position

log = logging.getLogger(__name__)

WIN = 1_000_000
#: Scores beyond this are forced game ends (WIN minus the distance in plies).
WIN_BOUND = WIN - 10_000
INF = WIN + 1

EXACT, LOWER, UPPER = 0, 1, 2
MAX_PLY = 256
#: Quiescence stops after this many capture plies (chains are searched whole).
MAX_QDEPTH = 8
#: The transposition table never holds more entries than this (about 190 bytes each
#: with the key, measured with tracemalloc: 48 MB at most per searcher); beyond it the
#: oldest quarter is dropped, during the search as well as between searches.
TT_LIMIT = 250_000
#: A position that repeats one of the game or of the search path counts as a draw,
#: minus this for the side with more pieces (half a piece: it prefers any line that
#: makes progress and loses less than that), plus this for the side with fewer.
CONTEMPT = 50
#: A quiet step one ply from the horizon is skipped when the static value plus this
#: (centipieces: 1.5 pieces) is still at most alpha.
FUTILITY_MARGIN = 150

Evaluate = Callable[[Position], int]


@dataclass
class Limits:
    """How far and how long to search.

    Attributes:
        max_depth: deepest iteration (plies = actions).
        max_nodes: stop when this many nodes were visited (``None``: no limit). A node
            limit without a clock makes the search deterministic.
        clock: the time budget (``None``: no time limit).
    """

    max_depth: int = 64
    max_nodes: int | None = None
    clock: Clock | None = None


@dataclass
class Result:
    """What a search found.

    Attributes:
        best: the chosen action code.
        score: its value for the side to act (centipieces, or near ``WIN`` for a forced end).
        depth: the deepest iteration completed.
        nodes: nodes visited (quiescence included).
        pv: the principal variation (codes), ``best`` first.
        scores: root action code -> value from the last completed iteration (exact
            values only when the search ran with ``exact_root``).
        elapsed: seconds spent.
    """

    best: int
    score: int
    depth: int
    nodes: int
    pv: list[int] = field(default_factory=list)
    scores: dict[int, int] = field(default_factory=dict)
    elapsed: float = 0.0


class Searcher:
    """A reusable searcher: keeps its transposition table and history between searches.

    Args:
        evaluate: position -> value for the side to act.
        tactics: capture detection and placement ranking for the ruleset.
        placement_width: how many placements are tried per node while the board still
            has more than ``full_width_empties`` empty cells (placements are ranked first).
        full_width_empties: below this many empty cells, every placement is searched, so
            the end of the placement phase is searched into the movement phase.
        quiescence: whether leaves are extended by captures and chains.
        reductions: whether late quiet steps are searched one ply shallower first.
        futility: whether quiet steps one ply from the horizon are skipped when the
            static value is far below alpha.
        tt_limit: the most entries the transposition table holds at any time.
        tables: endgame tables exact under the searched ruleset (see ``endgame.py``):
            positions they cover are looked up at the root, the nodes and the leaves.
        contempt: how much worse than a draw (centipieces) a repeated position is for
            the side with more pieces (and better for the side with fewer); 0 turns
            repetition detection off.
        filled: the filled-board table (see ``filled.py``), for a ruleset it covers: a
            filled board with the first mover to step is scored by it, not searched.
    """

    def __init__(
        self,
        evaluate: Evaluate,
        tactics: Tactics,
        *,
        placement_width: int = 10,
        full_width_empties: int = 6,
        quiescence: bool = True,
        reductions: bool = True,
        futility: bool = True,
        tt_limit: int = TT_LIMIT,
        contempt: int = CONTEMPT,
        tables: EndgameTables | None = None,
        filled: FilledTable | None = None,
    ) -> None:
        self.evaluate = evaluate
        self.tactics = tactics
        self.quiescence = quiescence
        self.reductions = reductions
        rules = tactics.rules
        #: Futility pruning is off where a quiet step can end the game (a blocked side
        #: loses, a line wins): there the static value says nothing about the step.
        self.futility = futility and rules.blocked != "lose" and not rules.win_line
        self.leaves = Leaves(evaluate, tactics)
        #: Whether quiet steps one ply from the horizon may be scored without playing
        #: them (:meth:`Leaves.quiet`): not where a quiet step can end the game.
        self.lazy_leaves = quiescence and self.leaves.movement_eval is not None and self.futility
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.tt_limit = max(16, tt_limit)
        self.contempt = contempt
        #: Endgame tables exact for this ruleset, or ``None``.
        self.tables = tables
        #: Positions with at most this many pieces are looked up, not searched.
        self.table_pieces = tables.max_pieces if tables is not None else 0
        #: Lookups whose value the search used (a value the clock rules out is not one).
        self.table_hits = 0
        #: The move limit a table win or loss must fit in (0: none), and whether a table
        #: draw is exact here (no move limit and no shuttle limit, as under ``ludii``).
        self._table_limit = rules.move_limit
        self._table_draws = not rules.move_limit and not rules.max_shuttles
        #: The filled-board table, or ``None``.
        self.filled = filled
        #: The filled-board table's value of a board (White cells -> the first mover's
        #: value), and the board a position must fill to be looked up (-1: never).
        self._filled_value: Callable[[int], int] = filled.value if filled is not None else _no_value
        self._filled_mask = FILLED if filled is not None else -1
        self._filled_side = 1 if rules.first_mover == "white" else 0
        #: Positions scored by the filled-board table in the last search.
        self.filled_hits = 0
        #: Repetition keys (bitboards, side) of the game's turn starts and the current path.
        self._seen: set[int] = set()
        #: The bounded static-evaluation cache (shared with :attr:`leaves`).
        self.evals = self.leaves.evals
        self._static = self.leaves.static
        self._fresh = self.leaves.fresh
        self.ordering = Ordering(
            tactics, MAX_PLY, placement_width, full_width_empties, getattr(evaluate, "placement_model", None)
        )
        self.killers = self.ordering.killers
        self.nodes = 0
        #: The position's depth when the search began: a timeout pops back to it.
        self._base_plies = 0
        self._deadline = float("inf")
        self._max_nodes: int | None = None
        self.pos: Position | None = None
        self._push: Callable[[int], None] = _unbound
        self._pop: Callable[[], object] = _unbound
        self._push_quiet: Callable[[int], None] = _unbound

    # ------------------------------------------------------------------ public
    def search(
        self,
        pos: Position,
        limits: Limits,
        *,
        root_codes: list[int] | None = None,
        exact_root: bool = False,
    ) -> Result:
        """Search ``pos`` (left unchanged) and return the best action found.

        Args:
            pos: the position; it is pushed and popped, and restored even on timeout.
            limits: depth, node and time limits.
            root_codes: restrict the root to these actions (default: every legal one).
            exact_root: give every root action an exact score (slower; for levels that
                choose among near-best actions).
        """
        clock = limits.clock
        self._begin(pos, limits)
        codes = list(root_codes) if root_codes is not None else pos.legal_codes()
        if not codes:
            raise ValueError(f"no legal action to search in {pos.spn()}")
        bb = pos.bb
        if (
            self.tables is not None
            and pos.phase == "m"
            and (bb[0] | bb[1]).bit_count() <= self.table_pieces
            and (self._probe(pos, 0) is not None if pos.state == START else self._table_value(pos, 0) is not None)
        ):
            best, score, drawing = self._table_root(pos, codes)
            if abs(score) >= WIN_BOUND or not drawing:
                return Result(best, score, 1, len(codes), [best], {}, 0.0)
            codes = drawing
        tt_entry = self.tt.get(position_hash(pos))
        order, _caps = self.ordering.order(pos, codes, tt_entry[3] if tt_entry else -1, 0, prune=False)
        result = Result(order[0], 0, 0, 0)
        if len(order) == 1 and not exact_root:
            result.pv = [order[0]]
            return result
        scores: dict[int, int] = {}
        for depth in range(1, limits.max_depth + 1):
            if depth > 1 and clock is not None and not clock.may_start_iteration():
                break
            iteration: dict[int, int] = {}
            try:
                best, score = self._root(depth, order, iteration, exact_root)
            except SearchTimeout:
                self._unwind()
                # A move that beat the previous best in the unfinished iteration was
                # searched with a full window: it is the better choice.
                if depth > 1 and order[0] in iteration:
                    cand = max(iteration, key=lambda c: iteration[c])
                    result.best, result.score = cand, iteration[cand]
                break
            result.best, result.score, result.depth = best, score, depth
            scores = iteration
            order = sorted(order, key=lambda c: -iteration.get(c, -INF))
            if order[0] != best:
                order.remove(best)
                order.insert(0, best)
            if abs(score) >= WIN_BOUND:
                break
            if self._max_nodes is not None and self.nodes >= self._max_nodes:
                break
        result.nodes = self.nodes
        result.scores = scores
        result.pv = self._pv(result.best)
        if clock is not None:
            result.elapsed = clock.elapsed()
        return result

    def at_least(
        self,
        pos: Position,
        code: int,
        depth: int,
        floor: int,
        clock: Clock | None = None,
        max_nodes: int | None = None,
    ) -> bool | None:
        """Whether the action ``code`` of ``pos`` (left unchanged) scores at least
        ``floor`` for the side to act when searched to ``depth``: one null-window search,
        cheaper than a score, so a caller can check an action the search did not choose
        against the one it did (``progress.py``). ``None`` when ``clock`` or
        ``max_nodes`` ran out first.
        """
        self._begin(pos, Limits(clock=clock, max_nodes=max_nodes))
        side = pos.side
        new_depth = depth if self.tactics.in_chain(pos) else depth - 1
        pos.push_code(code)
        try:
            if pos.side == side:
                v = self._node(new_depth, floor - 1, floor, 1)
            else:
                v = -self._node(new_depth, -floor, -floor + 1, 1)
        except SearchTimeout:
            self._unwind()
            return None
        pos.pop()
        return v >= floor

    # ------------------------------------------------------------------ internals
    def _begin(self, pos: Position, limits: Limits) -> None:
        """Start a search of ``pos``: bind its methods, set the limits, age the
        ordering's memory and read the game's repetitions."""
        clock = limits.clock
        self.pos = pos
        # The position's methods the search calls at every node, bound once.
        self._push, self._pop, self._push_quiet = pos.push_code, pos.pop, pos.push_quiet
        self.nodes = 0
        self._base_plies = pos.plies
        self._deadline = clock.hard_deadline if clock else float("inf")
        self._max_nodes = limits.max_nodes
        for k in self.killers:
            k[0] = k[1] = -1
        self.ordering.age()
        self._seen = game_keys(pos) if self.contempt else set()
        self.table_hits = 0
        self.filled_hits = 0

    def _probe(self, pos: Position, ply: int) -> int | None:
        """The endgame tables' value of a movement turn start (``None``: not covered, or
        not usable here).

        A win in d turns scores like a game end d plies further (one action per turn
        under the ``ludii`` rules; a chain's actions are one turn of the tables), so the
        search prefers the shortest win and the longest defence. Under a move limit a
        win or loss counts only when its d turns fit in the turns left before the limit
        (``move_limit - pos.clock``), and a draw never (the clock may end it first); with
        neither a move limit nor a shuttle limit a draw is exact, shaded by a quarter of
        the evaluation (at most 0.9 pieces) so the bot keeps the drawn line where the
        opponent can still go wrong.
        """
        tables = self.tables
        if tables is None or pos.phase != "m":
            return None
        code = tables.probe(pos.bb[0], pos.bb[1], pos.side)
        if code is None:
            return None
        outcome, distance = decode(code)
        if outcome:
            if self._table_limit and distance > self._table_limit - pos.clock:
                return None
            self.table_hits += 1
            return WIN - ply - distance if outcome > 0 else -(WIN - ply - distance)
        if not self._table_draws:
            return None
        self.table_hits += 1
        return max(-90, min(90, self._static(pos) // 4))

    def _table_value(self, pos: Position, ply: int) -> int | None:
        """The tables' value of ``pos`` for the side to act (``None``: unknown): a game
        end, a turn start looked up (:meth:`_probe`), or in a chain the best of its
        actions (each further capture and ``end``), the chain's actions all at the same
        ``ply``: a whole turn is one move of the tables."""
        if pos.result is not None:
            return self._terminal(pos, ply)
        if pos.phase != "m":
            return None
        if pos.state == START:
            bb = pos.bb
            return self._probe(pos, ply) if (bb[0] | bb[1]).bit_count() <= self.table_pieces else None
        side = pos.side
        best: int | None = None
        unknown = False
        for code in pos.legal_codes():
            pos.push_code(code)
            known = self._table_value(pos, ply if pos.side == side and pos.result is None else ply + 1)
            same = pos.side == side
            pos.pop()
            if known is None:
                unknown = True
                continue
            v = known if same else -known
            if best is None or v > best:
                best = v
        if best is None or (unknown and best < WIN_BOUND):
            return None
        return best

    def _table_root(self, pos: Position, codes: list[int]) -> tuple[int, int, list[int]]:
        """Each root action scored by the tables: (best code, its score, the drawing
        codes). A win or a loss is played from the tables alone (the fastest win, the
        longest defence); with a draw (or a value the tables do not give) the search
        chooses among the actions not proven lost."""
        scores = {}
        side = pos.side
        for code in codes:
            pos.push_code(code)
            same = pos.side == side and pos.result is None
            known = self._table_value(pos, 0 if same else 1)
            pos.pop()
            scores[code] = 0 if known is None else (known if same else -known)
        best = max(codes, key=lambda c: scores[c])
        drawing = [c for c in codes if abs(scores[c]) < WIN_BOUND]
        return best, scores[best], drawing

    def _check(self) -> None:
        from time import perf_counter

        if perf_counter() > self._deadline:
            raise SearchTimeout
        if self._max_nodes is not None and self.nodes > self._max_nodes:
            raise SearchTimeout

    def _unwind(self) -> None:
        pos = self.pos
        assert pos is not None
        while pos.plies > self._base_plies:
            pos.pop()

    def _terminal(self, pos: Position, ply: int) -> int:
        result = pos.result
        assert result is not None
        if result.winner is None:
            return 0
        return WIN - ply if result.winner == pos.side else -(WIN - ply)

    def _root(self, depth: int, order: list[int], scores: dict[int, int], exact: bool) -> tuple[int, int]:
        pos = self.pos
        assert pos is not None
        side = pos.side
        chain = self.tactics.in_chain(pos)
        alpha = -INF
        best = order[0]
        for i, code in enumerate(order):
            new_depth = depth if chain else depth - 1
            pos.push_code(code)
            same = pos.side == side
            if exact or i == 0:
                v = self._node(new_depth, -INF, INF, 1) if same else -self._node(new_depth, -INF, INF, 1)
            else:
                if same:
                    v = self._node(new_depth, alpha, alpha + 1, 1)
                    if v > alpha:
                        v = self._node(new_depth, alpha, INF, 1)
                else:
                    v = -self._node(new_depth, -alpha - 1, -alpha, 1)
                    if v > alpha:
                        v = -self._node(new_depth, -INF, -alpha, 1)
            pos.pop()
            scores[code] = v
            if v > alpha:
                alpha = v
                best = code
        key = position_hash(pos)
        if len(self.tt) >= self.tt_limit:
            self._evict()
        self.tt[key] = (depth, EXACT, _to_tt(alpha, 0), best)
        return best, alpha

    def _node(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        pos = self.pos
        assert pos is not None
        if depth <= 0 or ply >= MAX_PLY:
            # A leaf: quiescence counts it (each position is one node).
            if self.quiescence:
                return self._quiesce(0, alpha, beta, ply)
            self.nodes += 1
            if pos.result is not None:
                return self._terminal(pos, ply)
            return self.evaluate(pos)
        nodes = self.nodes + 1
        self.nodes = nodes
        if not nodes & 63:
            self._check()
        if pos.result is not None:
            return self._terminal(pos, ply)
        # The position's fields are read once: this runs at every inner node.
        b0, b1 = pos.bb
        side = pos.side
        phase = pos.phase
        state = pos.state
        if (b0 | b1) == self._filled_mask and phase == "m" and state == START and side == self._filled_side:
            self.filled_hits += 1
            return self._filled_value(b1)
        table_pieces = self.table_pieces
        if table_pieces and state == START and (b0 | b1).bit_count() <= table_pieces:
            known = self._probe(pos, ply)
            if known is not None:
                return known
        # A movement turn start (plain steps); else a chain, a placement or a removal.
        movement = phase == "m" and state == START
        rkey = 0
        if movement and self.contempt:
            rkey = hash((b0, b1, side))
            if rkey in self._seen:
                return repetition_value(pos, self.contempt, self._static(pos))
        hand = pos.hand
        key = hash((b0, b1, side, phase, hand[0], hand[1], state, pos.clock))
        tt = self.tt
        entry = tt.get(key)
        tt_move = -1
        if entry is not None:
            e_depth, e_flag, e_val, tt_move = entry
            if e_depth >= depth:
                # Forced ends are stored relative to the node (see _to_tt): back to the root.
                v = e_val - ply if e_val >= WIN_BOUND else (e_val + ply if e_val <= -WIN_BOUND else e_val)
                if e_flag == EXACT:
                    return v
                if e_flag == LOWER:
                    if v >= beta:
                        return v
                elif v <= alpha:
                    return v
        chain = phase == "m" and state != START
        # The static value, looked up once where one of the two prunings asks for it
        # (the evaluation cache's key inline: most lookups hit).
        static = 0
        prune = movement and depth <= 2 and self.futility
        if prune:
            null = beta - alpha == 1 and beta < WIN_BOUND
            if null or (depth == 1 and alpha > -WIN_BOUND):
                ekey = (b0, b1, side, phase)
                cached = self.evals.get(ekey)
                static = self._fresh(pos, ekey) if cached is None else cached
                if null:
                    # Reverse futility: a null-window node whose static value beats beta
                    # by a margin per remaining ply is cut without a move (the side to
                    # act can usually keep at least that much).
                    margin = static - FUTILITY_MARGIN * depth
                    if margin >= beta:
                        return margin
        steps = movement and not pos._nlocked
        own, enemy = (b1, b0) if side else (b0, b1)
        # Steps not yet in ``ordered``: one ply from the horizon the quiet rest is
        # generated only if the front (TT action, captures, killers) does not cut off.
        more = 0
        caps: set[int] | frozenset[int]
        if steps and depth == 1:
            ordered, caps, more = self.ordering.front(own, enemy, side, tt_move, ply)
        elif steps:
            # The common node: plain steps, generated and ordered from the bitboards.
            ordered, caps = self.ordering.steps(own, enemy, side, tt_move, ply)
        else:
            ordered, caps = self.ordering.order(pos, pos.legal_codes(), tt_move, ply, True)
        reduce_ok = self.reductions and movement and depth >= 3
        new_depth = depth if chain else depth - 1
        alpha0 = alpha
        best = -INF
        best_code = ordered[0] if ordered else -1
        killers = self.killers[ply]
        # Only a cut-off changes this ply's killers, and it ends the loop.
        killer = killers[0]
        push, pop = self._push, self._pop
        # Children at depth 0 are leaves: quiescence is called directly (the same
        # arguments, the child depth 0 being its capture depth 0), not through _node.
        search = self._quiesce if new_depth <= 0 and self.quiescence else self._node
        # Futility pruning: one ply from the horizon, a quiet step cannot lift a static
        # value this far below alpha above it (its child only stands pat or captures).
        futile = False
        futile_value = 0
        if depth == 1 and prune and alpha > -WIN_BOUND:
            futile_value = static + FUTILITY_MARGIN
            futile = futile_value <= alpha
        lazy = (
            new_depth == 0
            and movement
            and self.lazy_leaves
            and (not table_pieces or (b0 | b1).bit_count() > table_pieces)
            and self.leaves.steps_go_on(pos)
        )
        quiet_leaf = self.leaves.quiet
        # Whether the steps that capture nothing may be played by the engine's short
        # path (not worth asking where they are scored without a push).
        plain = steps and not lazy and (more or ordered[0] != self.tactics.pass_) and pos.quiet_steps_plain()
        push_quiet = self._push_quiet
        if rkey:
            self._seen.add(rkey)
        start = 0
        while True:
            for i, code in enumerate(ordered, start):
                cap = code in caps
                if cap:
                    quiet = False
                else:
                    quiet = movement and code != tt_move and code != killer
                    if lazy:
                        if quiet and i and futile:
                            if futile_value > best:
                                best = futile_value
                            continue
                        leaf = quiet_leaf(pos, code, -alpha)
                        if leaf is not None:
                            # The child, scored without a push, is a node all the same.
                            nodes = self.nodes + 1
                            self.nodes = nodes
                            if not nodes & 63:
                                self._check()
                            v = -leaf
                            if v > best:
                                best = v
                                best_code = code
                                if v > alpha:
                                    alpha = v
                                    if v >= beta:
                                        if quiet:
                                            if killer != code:
                                                killers[1] = killer
                                                killers[0] = code
                                            self.ordering.reward(side, code, depth)
                                        break
                            continue
                    elif quiet and i and futile:
                        if futile_value > best:
                            best = futile_value
                        continue
                if plain and not cap:
                    push_quiet(code)
                else:
                    push(code)
                same = pos.side == side
                if i == 0:
                    v = search(new_depth, alpha, beta, ply + 1) if same else -search(new_depth, -beta, -alpha, ply + 1)
                else:
                    d = new_depth - 1 if reduce_ok and quiet and i >= 3 else new_depth
                    if same:
                        v = search(d, alpha, alpha + 1, ply + 1)
                        if v > alpha and (d < new_depth or v < beta):
                            v = search(new_depth, alpha, beta, ply + 1)
                    else:
                        v = -search(d, -alpha - 1, -alpha, ply + 1)
                        if v > alpha and (d < new_depth or v < beta):
                            v = -search(new_depth, -beta, -alpha, ply + 1)
                pop()
                if v > best:
                    best = v
                    best_code = code
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            if quiet or phase == "p":
                                if killer != code:
                                    killers[1] = killer
                                    killers[0] = code
                                self.ordering.reward(side, code, depth)
                            break
            else:
                if more:
                    if futile and start + len(ordered):
                        # Every step left is quiet and not first: futility skips them all.
                        best = max(best, futile_value)
                    else:
                        start += len(ordered)
                        ordered = self.ordering.rest(own, enemy, side, ordered)
                        more = 0
                        continue
            break
        if rkey:
            self._seen.discard(rkey)
        flag = LOWER if best >= beta else (EXACT if best > alpha0 else UPPER)
        if len(tt) >= self.tt_limit and key not in tt:
            self._evict()
        # _to_tt inline: forced ends are stored relative to this node.
        if best >= WIN_BOUND:
            tt[key] = (depth, flag, best + ply, best_code)
        elif best <= -WIN_BOUND:
            tt[key] = (depth, flag, best - ply, best_code)
        else:
            tt[key] = (depth, flag, best, best_code)
        return best

    def _evict(self) -> None:
        """Drop the oldest quarter of the transposition table (insertion order: entries
        from earlier searches and shallower iterations go first)."""
        tt = self.tt
        for key in list(islice(tt, max(1, len(tt) // 4))):
            del tt[key]

    def _quiesce(self, qd: int, alpha: int, beta: int, ply: int) -> int:
        """The quiescence value of the current position (``qd``: capture plies so far).

        The arguments come in :meth:`_node`'s order (depth, alpha, beta, ply), with the
        capture depth where the depth goes: a node whose children are leaves calls this
        directly with its child depth 0 (one Python call per leaf, not two).
        """
        pos = self.pos
        assert pos is not None
        nodes = self.nodes + 1
        self.nodes = nodes
        if not nodes & 63:
            self._check()
        if pos.result is not None:
            return self._terminal(pos, ply)
        phase = pos.phase
        bb = pos.bb
        state = pos.state
        if (bb[0] | bb[1]) == self._filled_mask and phase == "m" and state == START and pos.side == self._filled_side:
            self.filled_hits += 1
            return self._filled_value(bb[1])
        if phase == "m" and state != START and ply < MAX_PLY:
            # Inside a chain the side must pick a capture or stop: search them all.
            ordered, _caps = self.ordering.order(pos, pos.legal_codes(), -1, ply, False)
            return self._quiesce_children(ordered, -INF, alpha, beta, ply, qd, qd)
        if self.table_pieces and state == START and (bb[0] | bb[1]).bit_count() <= self.table_pieces:
            known = self._probe(pos, ply)
            if known is not None:
                return known
        # The evaluation cache probed inline (Leaves.fresh evaluates and stores on a miss).
        ekey = (bb[0], bb[1], pos.side, phase)
        stand = self.evals.get(ekey)
        if stand is None:
            stand = self._fresh(pos, ekey)
        if phase != "m" or qd >= MAX_QDEPTH or stand >= beta or ply >= MAX_PLY:
            return stand
        captures = self.tactics.capture_steps(pos)
        if not captures:
            return stand
        if stand > alpha:
            alpha = stand
        return self._quiesce_children([code for _n, code in captures], stand, alpha, beta, ply, qd, qd + 1)

    def _quiesce_children(
        self, codes: list[int], best: int, alpha: int, beta: int, ply: int, qd: int, same_side_qd: int
    ) -> int:
        """Search ``codes`` in order from the current node (fail-soft, starting at ``best``).

        A child where the same side acts again (a chain continues) gets ``same_side_qd``:
        inside a chain the capture depth does not grow, after a capture it does.
        """
        pos = self.pos
        assert pos is not None
        side = pos.side
        push, pop, quiesce = self._push, self._pop, self._quiesce
        for code in codes:
            push(code)
            if pos.side == side:
                v = quiesce(same_side_qd, alpha, beta, ply + 1)
            else:
                v = -quiesce(qd + 1, -beta, -alpha, ply + 1)
            pop()
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        return best

    def _pv(self, first: int) -> list[int]:
        """Follow the transposition table from the root (at most 16 actions)."""
        pos = self.pos
        assert pos is not None
        pv = [first]
        pos.push_code(first)
        pushed = 1
        seen = {position_hash(pos)}
        while len(pv) < 16 and pos.result is None:
            entry = self.tt.get(position_hash(pos))
            if entry is None or entry[3] not in pos.legal_codes():
                break
            pv.append(entry[3])
            pos.push_code(entry[3])
            pushed += 1
            h = position_hash(pos)
            if h in seen:
                break
            seen.add(h)
        for _ in range(pushed):
            pos.pop()
        return pv


def _to_tt(value: int, ply: int) -> int:
    """A score relative to this node (forced ends counted from here, not from the root)."""
    if value >= WIN_BOUND:
        return value + ply
    if value <= -WIN_BOUND:
        return value - ply
    return value


def _no_value(_white: int) -> int:
    return 0


def _unbound(*_args: object) -> None:
    """A placeholder for the position's methods before the first search."""
    raise RuntimeError("no position: call Searcher.search first")
