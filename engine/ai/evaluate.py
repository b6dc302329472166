"""Static evaluation: how good a position is for the side to act, in centipieces.

The search never looks inside a position; it calls an :class:`Evaluator`, so a weaker
level (or a tuning run) can inject other weights. Every feature is a handful of big-int
bit operations on the two bitboards, because the evaluation runs at every leaf and its
speed is the search's speed.

Scale: one piece of material is worth about ``weights["movement"]["material"]`` (100).
Features are differences "own minus enemy" seen from ``pos.side``.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from engine.ai.placement_model import PlacementModel
from engine.ai.placement_model import load as load_placement_model
from engine.board import geometry
from engine.outcome import BLACK, WHITE
from engine.position import Position
from engine.rules import Ruleset

log = logging.getLogger(__name__)

#: Found through the package, not ``__file__``, which a compiled build (``engine.compiled``)
#: sets to a path that does not exist.
WEIGHTS_PATH = Path(str(resources.files("engine.ai") / "weights.json"))

MOVEMENT_FEATURES = (
    "material",
    "mobility",
    "threat",
    "hanging",
    "blocked",
    "centre",
    "corner",
    "edge",
    "tempo",
    "trade",
    "press",
)
#: The press term counts a side behind with this many steps or more as free.
PRESS_CAP = 8
PLACEMENT_FEATURES = ("centre_adjacent", "edge", "corner", "entry_capture")


#: The default open-line values (variants with ``win_line``).
DEFAULT_LINE: tuple[int, ...] = (0, 2, 8, 30, 90)


@dataclass(frozen=True)
class Weights:
    """Evaluation weights (integers, centipieces).

    Attributes:
        movement: feature name -> weight for the movement and removal phases.
        placement: feature name -> weight for the placement phase.
        line: ``line[k]`` is the value of an open line holding ``k`` own pieces
            (variants with ``win_line``).
    """

    movement: dict[str, int] = field(default_factory=dict)
    placement: dict[str, int] = field(default_factory=dict)
    line: tuple[int, ...] = DEFAULT_LINE

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Weights:
        """Weights from the JSON layout of ``weights.json`` (missing features count 0)."""
        movement = {k: int(data.get("movement", {}).get(k, 0)) for k in MOVEMENT_FEATURES}
        placement = {k: int(data.get("placement", {}).get(k, 0)) for k in PLACEMENT_FEATURES}
        line = tuple(int(v) for v in data.get("line", DEFAULT_LINE))
        return cls(movement, placement, line)

    def to_dict(self) -> dict[str, Any]:
        """The JSON layout (the inverse of :meth:`from_dict`)."""
        return {"movement": dict(self.movement), "placement": dict(self.placement), "line": list(self.line)}


_DEFAULT: Weights | None = None


def default_weights() -> Weights:
    """The tuned weights shipped in ``engine/ai/weights.json`` (read once)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Weights.from_dict(json.loads(WEIGHTS_PATH.read_text(encoding="utf-8")))
    return _DEFAULT


def _popcount(x: int) -> int:
    return x.bit_count()


@cache
def _subset_sums(weights: tuple[int, ...]) -> tuple[int, ...]:
    """sums[m]: the sum of ``weights[i]`` over the bits i of m, for every m below
    ``2 ** 13`` (bits beyond ``len(weights)`` weigh nothing). Cached: every searcher
    builds an evaluator, and the table depends only on the weights."""
    sums = [0] * 8192
    for m in range(1, 8192):
        low = m & -m
        i = low.bit_length() - 1
        sums[m] = sums[m ^ low] + (weights[i] if i < len(weights) else 0)
    return tuple(sums)


class Evaluator:
    """Evaluates positions of one ruleset with one set of weights.

    Call it: ``evaluator(pos)`` is the value for ``pos.side`` (positive is good for the
    side to act). It does not handle finished games: the search scores those.
    """

    def __init__(self, rules: Ruleset, weights: Weights | None = None) -> None:
        self.rules = rules
        self.weights = weights or default_weights()
        geo = geometry(rules.size)
        n = geo.n
        self.n = n
        self.full = geo.full
        self.nfa = geo.not_file_a
        self.nfl = geo.not_file_last
        self.centre_bit = geo.centre_bit
        self.safe = geo.centre_bit if rules.safe_centre else 0
        ring = 0
        corners = 0
        for c in range(geo.cells):
            r, f = divmod(c, n)
            if r in (0, n - 1) or f in (0, n - 1):
                ring |= 1 << c
            if r in (0, n - 1) and f in (0, n - 1):
                corners |= 1 << c
        self.corners = corners
        self.edges = ring & ~corners
        self.centre_adj = geo.neighbour_mask[geo.centre]
        self.lines = geo.lines(rules.win_line) if rules.win_line else ()
        self.first_mover = WHITE if rules.first_mover == "white" else BLACK
        # (from-cell bit, middle bit, far bit): entering the centre from "from" captures
        # the middle piece if the far cell holds a piece of the mover.
        entries = []
        for q in geo.neighbours[geo.centre]:
            for mid_bit, far_bit, _d in geo.captures[geo.centre]:
                if mid_bit != 1 << q:
                    entries.append((1 << q, mid_bit, far_bit))
        self.entries = tuple(entries)
        m = self.weights.movement
        self.w_mat = m["material"]
        self.w_mob = m["mobility"]
        self.w_threat = m["threat"]
        self.w_hang = m["hanging"]
        self.w_block = m["blocked"]
        self.w_centre = m["centre"]
        self.w_corner = m["corner"]
        self.w_edge = m["edge"]
        self.w_tempo = m["tempo"]
        #: Trading down when ahead (play that converts, ``docs/ai.md``): only where no
        #: move limit ends the game, so that the side ahead must capture everything to
        #: win; under a move limit more pieces already win when the clock runs out.
        self.w_trade = m["trade"] if rules.captures and not rules.move_limit else 0
        self.w_press = m["press"] if rules.captures and not rules.move_limit else 0
        self.converts = bool(self.w_trade or self.w_press)
        self.start_pieces = 2 * rules.pieces
        p = self.weights.placement
        self.p_adj = p["centre_adjacent"]
        self.p_edge = p["edge"]
        self.p_corner = p["corner"]
        self.p_entry = p["entry_capture"]
        line = list(self.weights.line) + [self.weights.line[-1] if self.weights.line else 0] * 10
        self.line_values = tuple(line[: (rules.win_line or 0) + 1])
        self.captures = rules.captures
        #: ~safe: the cells whose piece can be captured (all ones where no centre is safe).
        self.not_safe = ~self.safe
        #: The per-cell terms (material, centre, corner, edge) summed by table lookups,
        #: one per 13 bits of a side's pieces, where the board has at most 26 cells
        #: (``None`` on larger boards).
        self.cell_sums: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        #: The same in four lookups a side on boards of 27 to 52 cells (7x7); ``None``
        #: elsewhere (9x9: counted per term, :meth:`_cell_terms`).
        self.cell_sums4: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None = None
        weight = []
        for c in range(geo.cells):
            bit = 1 << c
            w = self.w_mat
            w += self.w_centre if bit == self.centre_bit else 0
            w += self.w_corner if bit & corners else 0
            w += self.w_edge if bit & self.edges else 0
            weight.append(w)
        if geo.cells <= 26:
            self.cell_sums = (_subset_sums(tuple(weight[:13])), _subset_sums(tuple(weight[13:])))
        elif geo.cells <= 52:
            self.cell_sums4 = (
                _subset_sums(tuple(weight[:13])),
                _subset_sums(tuple(weight[13:26])),
                _subset_sums(tuple(weight[26:39])),
                _subset_sums(tuple(weight[39:])),
            )
        #: The learned placement evaluation where one was fitted for these rules
        #: (``placement_model.py``); ``None``: the hand-written terms below. Explicit
        #: weights (the tuning script's) keep the hand-written terms, which they tune.
        self.placement_model: PlacementModel | None = load_placement_model(rules) if weights is None else None

    # ------------------------------------------------------------------ entry point
    def __call__(self, pos: Position) -> int:
        phase = pos.phase
        side = pos.side
        own, opp = pos.bb[side], pos.bb[1 - side]
        if phase == "p":
            score = self.placement(own, opp, side)
        elif phase == "s":
            score = 0
        else:
            score = self.movement(own, opp)
        if self.lines:
            score += self.line_score(own, opp)
        return score

    # ------------------------------------------------------------------ features
    def neighbours(self, x: int) -> int:
        """Cells orthogonally next to some cell of ``x``."""
        n = self.n
        return ((x << n) & self.full) | (x >> n) | ((x & self.nfl) << 1) | ((x & self.nfa) >> 1)

    def mobility(self, own: int, empty: int) -> int:
        """The number of (pseudo-legal) steps of the pieces ``own``."""
        n = self.n
        return (
            _popcount(own & (empty >> n))
            + _popcount(own & ((empty << n) & self.full))
            + _popcount(own & ((empty & self.nfa) >> 1))
            + _popcount(own & ((empty & self.nfl) << 1))
        )

    def vulnerable(self, victims: int, attackers: int, empty: int) -> int:
        """Pieces of ``victims`` that one step of ``attackers`` could capture now.

        A victim is vulnerable along an axis when one neighbour on it is an attacker and
        the other is an empty cell some attacker can step into (shuttle limits and line
        captures ignored: this is an estimate).
        """
        n, full, nfa, nfl = self.n, self.full, self.nfa, self.nfl
        reach = empty & self.neighbours(attackers)
        if not reach:
            return 0
        up_a = (attackers << n) & full
        down_a = attackers >> n
        right_a = (attackers & nfl) << 1
        left_a = (attackers & nfa) >> 1
        up_r = (reach << n) & full
        down_r = reach >> n
        right_r = (reach & nfl) << 1
        left_r = (reach & nfa) >> 1
        hit = (up_a & down_r) | (down_a & up_r) | (right_a & left_r) | (left_a & right_r)
        return victims & hit & ~self.safe

    def movement(self, own: int, opp: int) -> int:
        """Material, mobility, threats, blocked pieces, centre and structure.

        The same values as the helper methods above (``mobility``, ``vulnerable``,
        ``neighbours``; a test checks it against :meth:`features`), written out in one
        body with every shift computed once: this runs at every leaf of the search.
        """
        n, nfa, nfl = self.n, self.nfa, self.nfl
        # Every piece is on the board: xor with the full board is and-not, one operation less.
        empty = self.full ^ (own | opp)
        # Cells whose neighbour up / down / right / left is empty. Shifts up are not cut
        # to the board here or below: every such mask is and-ed with cells of the board.
        e_up = empty >> n
        e_down = empty << n
        e_right = (empty & nfa) >> 1
        e_left = (empty & nfl) << 1
        sums = self.cell_sums
        if sums is not None:
            low, high = sums
            score = low[own & 8191] + high[own >> 13] - low[opp & 8191] - high[opp >> 13] + self.w_tempo
        elif self.cell_sums4 is not None:
            s0, s1, s2, s3 = self.cell_sums4
            score = (
                s0[own & 8191]
                + s1[own >> 13 & 8191]
                + s2[own >> 26 & 8191]
                + s3[own >> 39]
                - s0[opp & 8191]
                - s1[opp >> 13 & 8191]
                - s2[opp >> 26 & 8191]
                - s3[opp >> 39]
                + self.w_tempo
            )
        else:
            score = self._cell_terms(own, opp) + self.w_tempo
        mob_own = (
            (own & e_up).bit_count()
            + (own & e_down).bit_count()
            + (own & e_right).bit_count()
            + (own & e_left).bit_count()
        )
        mob_opp = (
            (opp & e_up).bit_count()
            + (opp & e_down).bit_count()
            + (opp & e_right).bit_count()
            + (opp & e_left).bit_count()
        )
        score += self.w_mob * (mob_own - mob_opp)
        if self.converts:
            n_own, n_opp = own.bit_count(), opp.bit_count()
            if n_own != n_opp:
                score += self.w_trade * (n_own - n_opp) * (self.start_pieces - n_own - n_opp)
                score += self.w_press * self.press(n_own - n_opp, mob_own, mob_opp)
        if self.captures:
            not_safe = self.not_safe
            # Cells whose neighbour below / above / left / right holds a piece of own.
            o_up, o_down, o_right, o_left = own << n, own >> n, (own & nfl) << 1, (own & nfa) >> 1
            reach = empty & (o_up | o_down | o_right | o_left)
            if reach:
                hit = (
                    (o_up & (reach >> n))
                    | (o_down & (reach << n))
                    | (o_right & ((reach & nfa) >> 1))
                    | (o_left & ((reach & nfl) << 1))
                )
                score += self.w_threat * (opp & hit & not_safe).bit_count()
            x_up, x_down, x_right, x_left = opp << n, opp >> n, (opp & nfl) << 1, (opp & nfa) >> 1
            reach = empty & (x_up | x_down | x_right | x_left)
            if reach:
                hit = (
                    (x_up & (reach >> n))
                    | (x_down & (reach << n))
                    | (x_right & ((reach & nfa) >> 1))
                    | (x_left & ((reach & nfl) << 1))
                )
                score -= self.w_hang * (own & hit & not_safe).bit_count()
        blocked = ~(e_up | e_down | e_right | e_left)
        score -= self.w_block * ((own & blocked).bit_count() - (opp & blocked).bit_count())
        return score

    def _cell_terms(self, own: int, opp: int) -> int:
        """Material, centre, corners and edges, own minus enemy, counted term by term
        (boards too large for :attr:`cell_sums` and :attr:`cell_sums4`)."""
        cb, corners, edges = self.centre_bit, self.corners, self.edges
        score = self.w_mat * (own.bit_count() - opp.bit_count())
        score += self.w_centre * ((own & cb).bit_count() - (opp & cb).bit_count())
        score += self.w_corner * ((own & corners).bit_count() - (opp & corners).bit_count())
        score += self.w_edge * ((own & edges).bit_count() - (opp & edges).bit_count())
        return score

    def placement(self, own: int, opp: int, side: int) -> int:
        """Cells held next to the centre and on the outer rows, and first-step captures.

        The first step of the movement phase enters the centre, so pieces next to it
        decide who gets to move and whether that step captures (the sources' advice:
        hold cells next to the centre, then the outer rows).

        Where a learned model was fitted for the rules it replaces these terms: it sees
        patterns (who flanks a cell next to the centre, which rows are shut) that counts
        of cells cannot.
        """
        model = self.placement_model
        if model is not None:
            if side == self.first_mover:
                return model.value(own, opp)
            return -model.value(opp, own)
        adj = self.centre_adj
        score = self.p_adj * (_popcount(own & adj) - _popcount(opp & adj))
        score += self.p_edge * (_popcount(own & self.edges) - _popcount(opp & self.edges))
        score += self.p_corner * (_popcount(own & self.corners) - _popcount(opp & self.corners))
        if self.captures:
            first = own if side == self.first_mover else opp
            other = opp if side == self.first_mover else own
            entry = 0
            for q, mid, far in self.entries:
                if first & q and other & mid and first & far:
                    entry += 1
            score += self.p_entry * entry if side == self.first_mover else -self.p_entry * entry
        return score

    # ------------------------------------------------------------------ for tuning
    def placement_terms(self, own: int, opp: int, side: int) -> dict[str, int]:
        """The hand-written placement terms for ``side`` holding ``own``: counts of cells
        next to the centre, on the edge and in a corner (own minus enemy), and the first
        mover's entry captures (positive for the first mover). :meth:`placement` is
        their weighted sum, inlined there because it runs at every placement leaf."""
        adj = self.centre_adj
        entry = 0
        if self.captures:
            first = own if side == self.first_mover else opp
            other = opp if side == self.first_mover else own
            for q, mid, far in self.entries:
                if first & q and other & mid and first & far:
                    entry += 1
            entry = entry if side == self.first_mover else -entry
        return {
            "centre_adjacent": _popcount(own & adj) - _popcount(opp & adj),
            "edge": _popcount(own & self.edges) - _popcount(opp & self.edges),
            "corner": _popcount(own & self.corners) - _popcount(opp & self.corners),
            "entry_capture": entry,
        }

    def features(self, pos: Position) -> tuple[str, dict[str, int]]:
        """The phase's feature values (own minus enemy) for ``pos.side``.

        The evaluation is linear: ``evaluator(pos) == sum(w[f] * v for f, v in
        features)`` plus the line term (kept out: it has a table of weights). The tuning
        script fits the weights to self-play results through this.
        """
        side = pos.side
        own, opp = pos.bb[side], pos.bb[1 - side]
        if pos.phase == "p":
            return "placement", self.placement_terms(own, opp, side)
        if pos.phase == "s":
            return "placement", dict.fromkeys(PLACEMENT_FEATURES, 0)
        empty = self.full & ~(own | opp)
        free = self.neighbours(empty)
        cb = self.centre_bit
        caps = self.captures
        return "movement", {
            "material": _popcount(own) - _popcount(opp),
            "mobility": self.mobility(own, empty) - self.mobility(opp, empty),
            "threat": _popcount(self.vulnerable(opp, own, empty)) if caps else 0,
            "hanging": -_popcount(self.vulnerable(own, opp, empty)) if caps else 0,
            "blocked": -(_popcount(own & ~free) - _popcount(opp & ~free)),
            "centre": 1 if own & cb else (-1 if opp & cb else 0),
            "corner": _popcount(own & self.corners) - _popcount(opp & self.corners),
            "edge": _popcount(own & self.edges) - _popcount(opp & self.edges),
            "tempo": 1,
            "trade": self.trade(own, opp),
            "press": self.press(_popcount(own) - _popcount(opp), self.mobility(own, empty), self.mobility(opp, empty))
            if self.w_press
            else 0,
        }

    @staticmethod
    def press(lead: int, mob_own: int, mob_opp: int) -> int:
        """The lead in pieces times how few steps the side behind has left (``PRESS_CAP``
        minus its steps): the side ahead gains by hemming the other in, so that every
        step it has left gives something away (zugzwang). A side with no step at all
        passes and can never be forced, so it counts as free (0)."""
        if lead > 0:
            return lead * (PRESS_CAP - mob_opp) if 0 < mob_opp < PRESS_CAP else 0
        return lead * (PRESS_CAP - mob_own) if 0 < mob_own < PRESS_CAP else 0

    def trade(self, own: int, opp: int) -> int:
        """The lead in pieces times the pieces gone from the board (0 where the term is
        off): with it, an even trade gains for the side ahead and loses for the side
        behind, so the side ahead seeks exchanges and the side behind avoids them. A
        linear material count sees an even trade as nothing, and a side several pieces
        up shuffles for ever where only captures end the game."""
        if not self.w_trade:
            return 0
        n_own, n_opp = _popcount(own), _popcount(opp)
        return (n_own - n_opp) * (self.start_pieces - n_own - n_opp)

    def line_score(self, own: int, opp: int) -> int:
        """Open lines (no enemy piece) weighted by how many own pieces they hold."""
        values = self.line_values
        score = 0
        for mask in self.lines:
            o = own & mask
            e = opp & mask
            if not e:
                score += values[_popcount(o)]
            elif not o:
                score -= values[_popcount(e)]
        return score
