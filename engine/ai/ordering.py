"""Move ordering: which action the search tries first at a node.

TT action, then captures (most pieces first), the two killers of the ply, then the rest
by the history heuristic; placements by the static cell ranking (near the root by the
learned placement model, where the ruleset has one), cut to the level's width while
many cells are empty. :class:`Ordering` holds the killers and the history
(the search updates them on cut-offs and ages them between searches).
"""

from __future__ import annotations

from engine.ai.placement_model import PlacementModel
from engine.ai.tactics import Tactics
from engine.position import Position

#: Placements are ranked by the learned placement model (where there is one) at this ply
#: and above; deeper, by the static cell values (the model costs about 20 evaluations a
#: node, which only pays near the root, where the width decides what is searched at all).
MODEL_ORDER_PLIES = 1

#: The capture set of a node without captures.
NO_CAPTURES: frozenset[int] = frozenset()

#: Sort keys of steps are ints, ``score << CODE_BITS | code`` (codes are below 1024).
CODE_BITS = 10


class Ordering:
    """Orders one searcher's actions.

    Args:
        tactics: capture detection and placement ranking for the ruleset.
        max_ply: the deepest ply that has killers.
        placement_width: placements tried per node while more than
            ``full_width_empties`` cells are empty.
        full_width_empties: at or below this many empty cells every placement is tried.
        model: the learned placement evaluation, which ranks placements at the root and
            the ply below (``MODEL_ORDER_PLIES``), or ``None`` for the static ranking.
    """

    def __init__(
        self,
        tactics: Tactics,
        max_ply: int,
        placement_width: int,
        full_width_empties: int,
        model: PlacementModel | None = None,
    ) -> None:
        self.tactics = tactics
        #: The learned placement evaluation that ranks placements near the root, or ``None``.
        self.model = model
        self.first_mover = 1 if tactics.rules.first_mover == "white" else 0
        self.placement_width = placement_width
        self.full_width_empties = full_width_empties
        n_codes = 6 * tactics.cells + 2
        #: history[side][code]: the quiet action's history score (depth^2 summed over the
        #: cut-offs it made) above its code, ``score << CODE_BITS | code``: the sort key of
        #: a quiet step as it stands, two int operations fewer per step generated.
        self.history = [list(range(n_codes)), list(range(n_codes))]
        #: killers[ply]: the last two quiet actions that cut off at that ply.
        self.killers = [[-1, -1] for _ in range(max_ply + 1)]
        #: Lookups by a mask's ``bit_length()`` k (its top cell is k - 1), for the loops
        #: that take a mask's cells from the top: top_bit[k] is that cell's bit, and
        #: top_code[d][k] the code of the step in direction d onto it (two list reads
        #: instead of a shift, a product and a sum per step generated).
        self.top_bit = [0] + [1 << c for c in range(tactics.cells)]
        self.top_code = [[base + 4 * (k - 1) for k in range(tactics.cells + 1)] for base in tactics.step_codes]
        #: src_bit[code], dst_bit[code]: the cells of a step as bits (0 for other codes),
        #: for the legality tests of the TT action and the killers.
        self.src_bit = [1 << a if a >= 0 else 0 for a in tactics.step_src]
        self.dst_bit = [1 << t if t >= 0 else 0 for t in tactics.step_dst]

    def reward(self, side: int, code: int, depth: int) -> None:
        """A quiet action cut off at ``depth``: its history score grows by depth^2."""
        self.history[side][code] += depth * depth << CODE_BITS

    def age(self) -> None:
        """Quarter every history score (between searches); the codes stay below."""
        for h in self.history:
            for i in range(len(h)):
                h[i] = h[i] >> (CODE_BITS + 2) << CODE_BITS | i

    def order(
        self, pos: Position, codes: list[int], tt_move: int, ply: int, prune: bool
    ) -> tuple[list[int], frozenset[int] | set[int]]:
        """The actions in search order, and the set of those that capture.

        TT action, then captures (most pieces first), the two killers, then the rest by
        history. Captures come from four bitboard masks per node
        (:meth:`Tactics.capture_masks`), not from a test per action.
        """
        tactics = self.tactics
        phase = pos.phase
        if phase == "p" or phase == "s":
            if self.model is not None and phase == "p" and ply <= MODEL_ORDER_PLIES:
                ordered = self.by_model(pos, codes)
            else:
                ordered = tactics.order_placements(pos, codes)
            k1, k2 = self.killers[ply]
            front = [c for c in (tt_move, k1, k2) if c in codes]
            if front:
                ordered = front + [c for c in ordered if c not in front]
            if prune and phase == "p" and len(codes) > self.full_width_empties:
                ordered = ordered[: self.placement_width]
            return ordered, NO_CAPTURES
        if len(codes) == 1:
            return codes, NO_CAPTURES
        side = pos.side
        bb = pos.bb
        up, down, right, left = tactics.capture_masks(bb[side], bb[1 - side], tactics.full ^ (bb[0] | bb[1]))
        targets = up | down | right | left
        hist = self.history[side]
        k1, k2 = self.killers[ply]
        dst = tactics.step_dst
        caps: set[int] = set()
        keyed = []
        for c in codes:
            t = dst[c]
            if t >= 0 and targets >> t & 1:
                caps.add(c)
                s = (1 << 36) + (up >> t & 1) + (down >> t & 1) + (right >> t & 1) + (left >> t & 1)
                if c == tt_move:
                    s = 1 << 40
            elif c == tt_move:
                s = 1 << 40
            elif c == k1:
                s = 1 << 34
            elif c == k2:
                s = (1 << 34) - 1
            else:
                s = hist[c] >> CODE_BITS
            keyed.append((s, c))
        keyed.sort(reverse=True)
        return [c for _s, c in keyed], caps

    def by_model(self, pos: Position, codes: list[int]) -> list[int]:
        """Placement codes (a code is its cell) by the model's value of the position after
        each, the best for the side to place first; ties by the static cell values."""
        model = self.model
        assert model is not None
        values = self.tactics.cell_values
        first, second = pos.bb[self.first_mover], pos.bb[1 - self.first_mover]
        if pos.side == self.first_mover:
            keyed = [(-model.value(first | 1 << c, second), -values[c], c) for c in codes]
        else:
            keyed = [(model.value(first, second | 1 << c), -values[c], c) for c in codes]
        keyed.sort()
        return [c for _v, _s, c in keyed]

    def steps(
        self, own: int, enemy: int, side: int, tt_move: int, ply: int
    ) -> tuple[list[int], frozenset[int] | set[int]]:
        """Every step of ``own`` (the legal actions at the start of a movement turn when
        no shuttle limit bites), in search order, and the set of capturing ones.

        The same order as :meth:`order` gives the same list, built without the
        position's generator: one pass over four direction masks.
        """
        tactics = self.tactics
        n, full, nfa, nfl = tactics.n, tactics.full, tactics.nfa, tactics.nfl
        empty = full ^ (own | enemy)
        up, down, right, left = tactics.capture_masks(own, enemy, empty)
        targets = up | down | right | left
        k1, k2 = self.killers[ply]
        top_bit, top_code = self.top_bit, self.top_code
        caps: set[int] = set()
        # The TT action, the captures and the killers go to ``head`` with int sort keys,
        # score << 10 | code (codes are below 1024), above every history key; the other
        # steps to ``quiet``, sorted by their history keys (``score << 10 | code`` as
        # they stand). Every key is distinct, so the order the steps are found in does
        # not matter: bits are taken from the top (here and below), by table.
        head: list[int] = []
        quiet: list[int] = []
        for d, reach in enumerate(
            ((own << n) & empty, (own >> n) & empty, ((own & nfl) << 1) & empty, ((own & nfa) >> 1) & empty)
        ):
            codes = top_code[d]
            hits = reach & targets
            if hits:  # usually none: then no new int for reach
                reach ^= hits
            while hits:
                k = hits.bit_length()
                hits ^= top_bit[k]
                c = codes[k]
                caps.add(c)
                t = k - 1
                count = (up >> t & 1) + (down >> t & 1) + (right >> t & 1) + (left >> t & 1)
                head.append(((1 << 50 if c == tt_move else (1 << 46) + count) << 10) | c)
            while reach:
                k = reach.bit_length()
                reach ^= top_bit[k]
                c = codes[k]
                if c == tt_move:
                    head.append((1 << 60) | c)
                elif c == k1:
                    head.append((1 << 54) | c)
                elif c == k2:
                    head.append(((1 << 44) - 1) << 10 | c)
                else:
                    quiet.append(c)
        quiet.sort(key=self.history[side].__getitem__, reverse=True)
        if head:
            head.sort(reverse=True)
            return [k & 1023 for k in head] + quiet, caps
        if not quiet:
            return [tactics.pass_], NO_CAPTURES
        return quiet, caps

    def front(self, own: int, enemy: int, side: int, tt_move: int, ply: int) -> tuple[list[int], set[int], int]:
        """The head of :meth:`steps`' order without the quiet rest: the TT action, the
        captures (most pieces first), the killers; with the capture set and how many
        steps are left for :meth:`rest` (``[pass]`` where there is no step at all).

        For nodes one ply from the horizon, where nothing the search does between the
        two calls changes the history or the killers (the children only run
        quiescence): ``front + rest`` is then exactly :meth:`steps`' list, and a
        cut-off in the front saves generating and sorting the rest.
        """
        tactics = self.tactics
        n, full, nfa, nfl = tactics.n, tactics.full, tactics.nfa, tactics.nfl
        empty = full ^ (own | enemy)
        r0, r1 = (own << n) & empty, (own >> n) & empty
        r2, r3 = ((own & nfl) << 1) & empty, ((own & nfa) >> 1) & empty
        total = r0.bit_count() + r1.bit_count() + r2.bit_count() + r3.bit_count()
        if not total:
            return [tactics.pass_], set(), 0
        up, down, right, left = tactics.capture_masks(own, enemy, empty)
        targets = up | down | right | left
        caps: set[int] = set()
        front = []
        if targets:
            keyed = []
            base = tactics.step_codes
            for d, hits in enumerate((r0 & targets, r1 & targets, r2 & targets, r3 & targets)):
                offset = base[d]
                while hits:
                    t = hits.bit_length() - 1
                    hits ^= 1 << t
                    c = offset + 4 * t
                    caps.add(c)
                    count = (up >> t & 1) + (down >> t & 1) + (right >> t & 1) + (left >> t & 1)
                    keyed.append(count << 10 | c)
            keyed.sort(reverse=True)
            front = [k & 1023 for k in keyed]
        src, dst = self.src_bit, self.dst_bit
        if tt_move >= 0 and own & src[tt_move] and empty & dst[tt_move]:
            if tt_move in caps:
                front.remove(tt_move)
            front.insert(0, tt_move)
        else:
            tt_move = -1
        k1, k2 = self.killers[ply]
        for k in (k1, k2) if k1 != k2 else (k1,):
            if k >= 0 and k != tt_move and k not in caps and own & src[k] and empty & dst[k]:
                front.append(k)
        return front, caps, total - len(front)

    def rest(self, own: int, enemy: int, side: int, front: list[int]) -> list[int]:
        """The steps :meth:`front` left out (none of them captures), by history.

        ``front`` holds every capturing step, so the steps not in it are the quiet rest:
        no capture masks are needed here.
        """
        tactics = self.tactics
        n, full, nfa, nfl = tactics.n, tactics.full, tactics.nfa, tactics.nfl
        empty = full ^ (own | enemy)
        top_bit, top_code = self.top_bit, self.top_code
        steps: list[int] = []
        for d, reach in enumerate(
            ((own << n) & empty, (own >> n) & empty, ((own & nfl) << 1) & empty, ((own & nfa) >> 1) & empty)
        ):
            codes = top_code[d]
            while reach:
                k = reach.bit_length()
                reach ^= top_bit[k]
                c = codes[k]
                if c not in front:
                    steps.append(c)
        # By history key (score << 10 | code as it stands): score first, then code.
        steps.sort(key=self.history[side].__getitem__, reverse=True)
        return steps
