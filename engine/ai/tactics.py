"""Seega knowledge the search needs for ordering and quiescence, kept out of the search.

The search (``search.py``) sees a position only through ``legal_codes``, ``push_code``,
``pop``, ``side``, ``result`` and ``key``; everything it must know about *which* actions
are tactical (captures), which placements are worth trying first, and whether a turn
is still going on (a chain) comes from a :class:`Tactics` object built for one ruleset.
"""

from __future__ import annotations

from engine.ai.placement import cell_values as placement_cell_values
from engine.board import geometry
from engine.position import ANY, START, Position, action_table
from engine.rules import Ruleset


class Tactics:
    """Action classification for one ruleset (precomputed per board size)."""

    def __init__(self, rules: Ruleset, cell_values: list[int] | None = None) -> None:
        geo = geometry(rules.size)
        table = action_table(rules.size)
        self.rules = rules
        self.step_base = table.step_base
        self.remove_base = table.remove_base
        self.end = table.end
        self.pass_ = table.pass_
        self.captures_on = rules.captures
        self.safe = geo.centre_bit if rules.safe_centre else 0
        self.line_capture = rules.line_capture
        n_codes = 6 * geo.cells + 2
        #: For each step code: (mid bit, far bit) pairs around the target cell.
        self.patterns: list[tuple[tuple[int, int], ...]] = [()] * n_codes
        for code in range(table.step_base, table.remove_base):
            t = geo.step_to[code - table.step_base]
            if t >= 0:
                self.patterns[code] = tuple((mid, far) for mid, far, _d in geo.captures[t])
        self.cells = geo.cells
        self.centre = geo.centre
        self.place_centre = rules.place_centre
        self.cell_values = cell_values or placement_cell_values(rules)
        self.n = geo.n
        self.full = geo.full
        self.nfa = geo.not_file_a
        self.nfl = geo.not_file_last
        self.step_src = table.step_src
        self.step_dst = table.step_dst
        #: step_bits[code]: the source and target cells of a step code as one bit set.
        self.step_bits = table.step_bits
        #: The cells at least two files from file a / from the last file: a piece there
        #: has the enemy piece and the target of a capture along its rank on the board.
        self.nfa2 = self.nfa & (self.nfa << 1)
        self.nfl2 = self.nfl & (self.nfl >> 1)
        #: ~safe: the enemy pieces a step may capture (all of them where no centre is safe).
        self.not_safe = ~self.safe
        #: step_codes[d] + 4 * t: the step in direction d (up, down, right, left) onto t.
        self.step_codes = table.step_codes

    def capture_masks(self, own: int, enemy: int, empty: int) -> tuple[int, int, int, int]:
        """For each direction d, the empty cells t where a step of ``own`` would capture
        the enemy piece next to t in direction d (up, down, right, left); ``empty`` is
        the board's empty cells (every caller has them at hand).

        A step onto t captures in direction d when t+d holds an enemy piece (not on a
        safe centre) and t+2d an own piece; the moving piece is never one of them (it
        comes from a cell next to t). ``sum(mask >> t & 1)`` over the four masks is the
        number of pieces a step onto t takes (without line-capture extensions). Four
        shifts per direction instead of a loop over patterns per action: the search
        asks this once per node.
        """
        if not self.captures_on:
            return 0, 0, 0, 0
        n = self.n
        prey = enemy & self.not_safe if self.safe else enemy
        up = ((prey & (own >> n)) >> n) & empty
        down = ((prey & (own << n)) << n) & empty
        # A piece two files from the edge: the cell between stays on its rank.
        right = ((prey & ((own & self.nfa2) >> 1)) >> 1) & empty
        left = ((prey & ((own & self.nfl2) << 1)) << 1) & empty
        return up, down, right, left

    def capture_steps(self, pos: Position) -> list[tuple[int, int]]:
        """(pieces taken, code) of every legal capturing step at the start of a movement
        turn, most pieces first. Generated from the bitboards, so a node without a
        capture costs a few shifts, not a list of every step."""
        side = pos.side
        own, enemy = pos.bb[side], pos.bb[1 - side]
        up, down, right, left = self.capture_masks(own, enemy, self.full ^ (own | enemy))
        targets = up | down | right | left
        if not targets:
            return []
        n, nfa, nfl = self.n, self.nfa, self.nfl
        codes = self.step_codes
        out = []
        for d, reach in enumerate(
            ((own << n) & targets, (own >> n) & targets, ((own & nfl) << 1) & targets, ((own & nfa) >> 1) & targets)
        ):
            base = codes[d]
            while reach:
                t = reach.bit_length() - 1  # from the top: the list is sorted below
                reach ^= 1 << t
                count = (up >> t & 1) + (down >> t & 1) + (right >> t & 1) + (left >> t & 1)
                out.append((count, base + 4 * t))
        if out and pos.hist and self._shuttle_locked(pos):
            legal = set(pos.legal_codes())
            out = [item for item in out if item[1] in legal]
        out.sort(reverse=True)
        return out

    def _shuttle_locked(self, pos: Position) -> bool:
        """Whether some piece's shuttle run may forbid one of its steps (rare)."""
        limit = 2 * self.rules.max_shuttles
        return bool(limit) and any(run >= limit for _t, run in pos.hist.values())

    def capture_count(self, pos: Position, code: int) -> int:
        """How many enemy pieces the step ``code`` would capture (0 for other actions)."""
        if code < self.step_base or code >= self.remove_base or not self.captures_on:
            return 0
        side = pos.side
        own, enemy = pos.bb[side], pos.bb[1 - side]
        safe = self.safe
        count = 0
        for mid, far in self.patterns[code]:
            if enemy & mid and own & far and not mid & safe:
                count += 1
        return count

    def is_removal(self, code: int) -> bool:
        """Whether ``code`` removes a piece (always material, so always tactical)."""
        return self.remove_base <= code < self.end

    def in_chain(self, pos: Position) -> bool:
        """Whether the side to act is in the middle of a capture chain."""
        return pos.phase == "m" and (pos.state >= 0 or pos.state == ANY)

    def at_turn_start(self, pos: Position) -> bool:
        """Whether the side to act starts a fresh turn (no chain or pair pending)."""
        return pos.state == START

    def order_placements(self, pos: Position, codes: list[int]) -> list[int]:
        """Placement codes, the most promising first (static cell values)."""
        values = self.cell_values
        if len(codes) and codes[0] >= self.step_base:
            return codes
        return sorted(codes, key=lambda c: -values[c])
