"""Leaf values: the cached static evaluation and quiet leaves scored without a push.

One ply from the horizon most of the search's children are quiet steps whose child
only stands pat; :meth:`Leaves.quiet` scores them from the child's bitboards (``docs/ai.md``,
"Quiet leaves without a push"), and every static value is cached by bitboards, side and
phase in a bounded dict.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.ai.evaluate import Evaluator
from engine.ai.tactics import Tactics
from engine.board import geometry
from engine.position import Position

#: Clear the evaluation cache when it holds this many entries.
EVAL_LIMIT = 50_000


class Leaves:
    """Static values for one searcher.

    Args:
        evaluate: position -> value for the side to act.
        tactics: the ruleset's capture masks and step tables.
    """

    def __init__(self, evaluate: Callable[[Position], int], tactics: Tactics) -> None:
        self.evaluate = evaluate
        self.tactics = tactics
        #: neighbours[c]: the cells next to c, as a bit set.
        self.neighbours = geometry(tactics.rules.size).neighbour_mask
        #: The evaluation of raw bitboards (movement phase), when the evaluation is ours
        #: (:meth:`quiet` needs it; ``None`` turns quiet leaves off).
        self.movement_eval = evaluate.movement if isinstance(evaluate, Evaluator) else None
        #: Static evaluations (bitboards, side, phase) -> value.
        self.evals: dict[tuple[int, int, int, str], int] = {}
        # The tables :meth:`quiet` reads at every call, bound here: one attribute load
        # each instead of two (it runs at most leaves of the search).
        self.step_src = tactics.step_src
        self.step_bits = tactics.step_bits
        self.n, self.full, self.nfa, self.nfl = tactics.n, tactics.full, tactics.nfa, tactics.nfl
        #: The cells whose piece a step can capture (a safe centre's excluded); 0 where
        #: the rules have no captures, so that no step ever captures.
        self.prey_cells = tactics.full & ~tactics.safe if tactics.captures_on else 0
        #: The cells two files from file a / from the last file (see Tactics.nfa2).
        self.nfa2, self.nfl2 = tactics.nfa2, tactics.nfl2

    def steps_go_on(self, pos: Position) -> bool:
        """Whether a quiet step here surely leaves the game going on with the turn
        passed plainly (no clock runs out, no removal earlier in this turn)."""
        rules = self.tactics.rules
        if pos.acted:
            return False
        if rules.move_limit and pos.clock + 1 >= rules.move_limit:
            return False
        return not (rules.turn_limit and pos.turn + 1 > rules.turn_limit)

    def quiet(self, pos: Position, code: int, beta: int) -> int | None:
        """The quiescence value of the child after the quiet step ``code``, without
        playing it, when that child is a plain stand-pat leaf; else ``None``.

        One ply from the horizon most children are: the opponent is to act at the start
        of a movement turn, the game goes on (the caller checked the clocks), the
        opponent has a step (else the blocked rule applies: ``None``), and it either
        stands pat at or above ``beta`` or has no capture (else ``None``: the caller
        plays the step and searches the captures). Its value is then the evaluation of
        the child's bitboards, exactly what the search's quiescence returns after a push, for
        the price of a few shifts (a test compares both on random positions).
        """
        side = pos.side
        bb = pos.bb
        a = self.step_src[code]
        if a < 0:  # pass
            return None
        own = bb[side] ^ self.step_bits[code]
        enemy = bb[1 - side]
        n, nfa, nfl = self.n, self.nfa, self.nfl
        empty = self.full ^ (own | enemy)
        # The cell just left is empty: an opponent's piece next to it has a step, so the
        # whole-board test runs only when none is.
        if not enemy & self.neighbours[a] and not (
            ((enemy << n) | (enemy >> n)) & empty or (((enemy & nfl) << 1) | ((enemy & nfa) >> 1)) & empty
        ):
            return None
        ekey = (own, enemy, 1, "m") if side == 0 else (enemy, own, 0, "m")
        evals = self.evals
        stand = evals.get(ekey)
        if stand is None:
            movement = self.movement_eval
            assert movement is not None
            stand = movement(enemy, own)
            if len(evals) >= EVAL_LIMIT:
                evals.clear()
            evals[ekey] = stand
        if stand < beta:
            # The cells where a step of the opponent would capture (the union of
            # Tactics.capture_masks(enemy, own, empty), and-ed with the empty cells once).
            prey = own & self.prey_cells
            if prey:
                targets = (
                    ((prey & (enemy >> n)) >> n)
                    | ((prey & (enemy << n)) << n)
                    | ((prey & ((enemy & self.nfa2) >> 1)) >> 1)
                    | ((prey & ((enemy & self.nfl2) << 1)) << 1)
                ) & empty
                if targets and (
                    (enemy << n) & targets
                    or (enemy >> n) & targets
                    or ((enemy & nfl) << 1) & targets
                    or ((enemy & nfa) >> 1) & targets
                ):
                    return None
        return stand

    def static(self, pos: Position) -> int:
        """The evaluation of ``pos``, cached by bitboards, side and phase (bounded)."""
        bb = pos.bb
        ekey = (bb[0], bb[1], pos.side, pos.phase)
        value = self.evals.get(ekey)
        if value is None:
            value = self.fresh(pos, ekey)
        return value

    def fresh(self, pos: Position, ekey: tuple[int, int, int, str]) -> int:
        """The evaluation of ``pos``, stored under its cache key ``ekey`` (bitboards,
        side, phase) without a lookup: for callers that probed the cache and missed."""
        value = self.evaluate(pos)
        evals = self.evals
        if len(evals) >= EVAL_LIMIT:
            evals.clear()
        evals[ekey] = value
        return value
