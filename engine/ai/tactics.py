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
