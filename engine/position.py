"""The position: the whole state of a game and the rules that move it on.

A :class:`Position` holds two bitboards (black and white pieces as Python ints), the
side to act, the phase, the hands, the turn state, the no-capture clock, the turn
number, and the shuttle history of every piece. It generates legal actions, applies
them with a fast unchecked :meth:`Position.push` or a validated :meth:`Position.play`,
and takes them back with :meth:`Position.pop`.

Internally an action is a small int *code* (see :class:`ActionTable`) so that search
and perft never allocate; :class:`~engine.actions.Action` values are the public face.
Every transition that docs/rules.md describes as happening "at once" (captures, game ends,
the start-of-turn blocked check) happens inside ``push``, so a position is always
settled: its SPN says exactly what the next legal actions are.

The SPN text itself is read and written by :mod:`engine.spn`, which also defines the
turn-state constants ``START``, ``ONE`` and ``ANY`` (re-exported here for callers).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from typing import Final

from engine.actions import END_ACTION, PASS_ACTION, PLACE, REMOVE, STEP, Action
from engine.board import Geometry, geometry
from engine.errors import GameOverError, IllegalActionError, InvalidPositionError, quoted
from engine.outcome import BLACK, COLOR_NAMES, WHITE, Outcome
from engine.rules import STANDARD, Ruleset
from engine.spn import ANY as ANY
from engine.spn import ONE as ONE
from engine.spn import START as START
from engine.spn import format_spn, parse_spn

#: What push saves and pop restores: the code, then every field it may change. The
#: shuttle history is saved whole: an action that changes it works on a copy (a dict of
#: at most one entry per piece copies faster than its changes are recorded and undone).
#: So are the hands, which only placements change: steps save and restore the list
#: itself, not its two numbers.
_Hist = dict[int, tuple[int, int]]
_Undo = tuple[int, int, int, int, str, list[int], int, int, int, bool, int, "Outcome | None", int, _Hist]


_NO_ACTION = Action("none")

#: Who removes under each removal rule (docs/rules.md section 4), for the error on a
#: phase-r SPN whose blocked player can step.
_REMOVER: Final = {
    "remove-by-blocked": "the blocked player removes an enemy piece, so the side to act must be blocked",
    "remove-by-opponent": "the opponent of a blocked player removes, so the side not to act must be blocked",
    "capture-one": "the opponent of a blocked player removes, so the side not to act must be blocked",
    "lose": "the first mover removes when the second mover is blocked at once",
}


class ActionTable:
    """The int codes of every action on one board size.

    ``0..N-1`` place on a cell; ``N + 4*c + d`` step from c in direction d;
    ``5N + c`` remove the piece on c; ``6N`` end; ``6N + 1`` pass.
    """

    def __init__(self, geo: Geometry) -> None:
        n_cells = geo.cells
        self.step_base = n_cells
        self.remove_base = 5 * n_cells
        self.end = 6 * n_cells
        self.pass_ = 6 * n_cells + 1
        #: actions[code]: the action of a code; codes of steps off the board hold a
        #: placeholder that no generator ever produces.
        self.actions: list[Action] = [_NO_ACTION] * (6 * n_cells + 2)
        for c in range(n_cells):
            self.actions[c] = Action(PLACE, geo.to_global[c])
            self.actions[self.remove_base + c] = Action(REMOVE, geo.to_global[c])
            for d in range(4):
                t = geo.step_to[c * 4 + d]
                if t >= 0:
                    self.actions[self.step_base + c * 4 + d] = Action(STEP, geo.to_global[c], geo.to_global[t])
        #: step_src[code], step_dst[code]: the cells of a step code (-1 for other codes).
        self.step_src = [-1] * (6 * n_cells + 2)
        self.step_dst = [-1] * (6 * n_cells + 2)
        for code in range(self.step_base, self.remove_base):
            c, d = divmod(code - self.step_base, 4)
            if geo.step_to[c * 4 + d] >= 0:
                self.step_src[code] = c
                self.step_dst[code] = geo.step_to[c * 4 + d]
        #: step_bits[code]: the two cells of a step code as a bit set (what a step flips
        #: in its side's bitboard; 0 for other codes).
        self.step_bits = [
            (1 << self.step_src[code]) | (1 << self.step_dst[code]) if self.step_src[code] >= 0 else 0
            for code in range(6 * n_cells + 2)
        ]
        #: step_codes[d] + 4 * t is the code of the step in direction d that ends on t.
        self.step_codes = [self.step_base - 4 * geo.deltas[d] + d for d in range(4)]
        self.actions[self.end] = END_ACTION
        self.actions[self.pass_] = PASS_ACTION
        self.codes: dict[Action, int] = {a: i for i, a in enumerate(self.actions) if a is not _NO_ACTION}


@cache
def action_table(n: int) -> ActionTable:
    """The shared action codes of an ``n x n`` board."""
    return ActionTable(geometry(n))


#: The attributes of a :class:`Position` (its slots), named once so that
#: :meth:`Position.copy` copies them all; a module constant rather than
#: ``Position.__slots__`` because a compiled build (docs/ai.md, "Compiled build") has no
#: such class attribute.
POSITION_SLOTS: Final = (
    "rules",
    "geo",
    "table",
    "bb",
    "side",
    "phase",
    "hand",
    "state",
    "clock",
    "turn",
    "acted",
    "first_from",
    "result",
    "hist",
    "_stack",
    "_limit",
    "_first_move_turn",
    "_nlocked",
    "_lose",
    "_captures",
    "_safe",
    "_linecap",
    "_keep",
    "_plain_ends",
    "_nbr",
)


class Position:
    """A Seega position under a :class:`~engine.rules.Ruleset`.

    Create the start with ``Position(rules)`` or read one with
    :meth:`Position.from_spn`. Attributes are public for reading; change a position
    only through :meth:`push`, :meth:`play` and :meth:`pop`.

    Attributes:
        rules: the ruleset.
        bb: ``[black, white]`` bit sets of occupied cells (bit ``rank * n + file``).
        side: ``BLACK`` or ``WHITE``, the side to act.
        phase: ``p`` placement, ``m`` movement, ``r`` a removal is due, ``s`` replacement.
        hand: ``[black, white]`` pieces in hand.
        state: ``START``, ``ONE``, ``ANY`` or a cell index (see module constants).
        clock: turns without a capture or removal (docs/rules.md section 7).
        turn: 1 + turns completed.
        result: the :class:`Outcome` once the game is over, else ``None``.
    """

    __slots__ = POSITION_SLOTS

    def __init__(self, rules: Ruleset = STANDARD) -> None:
        self.rules = rules
        self.geo = geometry(rules.size)
        self.table = action_table(rules.size)
        self.bb = [0, 0]
        self.side = BLACK
        self.phase = "p"
        self.hand = [rules.pieces, rules.pieces]
        self.state = START
        self.clock = 0
        self.turn = 1
        #: Whether the current turn captured or removed anything (the clock keeps still).
        self.acted = False
        #: The cell the first step of the movement phase left (the ``lose`` exception).
        self.first_from = -1
        self.result: Outcome | None = None
        #: Shuttle history: cell of a piece -> (the other cell, length of the run of
        #: steps alternating between the two, ending on this cell).
        self.hist: dict[int, tuple[int, int]] = {}
        self._stack: list[_Undo] = []
        self._limit = 2 * rules.max_shuttles
        self._first_move_turn = 2 * rules.placement_turns + 1
        #: How many pieces have a shuttle run long enough to forbid a step (usually 0).
        self._nlocked = 0
        # Rule flags copied out of the ruleset: the hot paths read them on every action.
        self._lose = rules.blocked == "lose"
        self._captures = rules.captures
        self._safe = self.geo.centre_bit if rules.safe_centre else 0
        self._linecap = rules.line_capture
        #: Whether push keeps undo entries (a playout that never pops turns this off).
        self._keep = True
        #: Whether a step that captures nothing can only end the turn plainly (no line to
        #: look for): push takes a shorter path then.
        self._plain_ends = not rules.win_line
        #: The geometry's neighbour masks (push reads them on every step).
        self._nbr = self.geo.neighbour_mask

    # ------------------------------------------------------------------ reading
    @classmethod
    def from_spn(cls, spn: str, rules: Ruleset = STANDARD) -> Position:
        """The settled position an SPN describes, under ``rules`` (whose size must match).

        Raises:
            InvalidPositionError: the SPN is malformed, does not match ``rules.size``, or
                describes an impossible state.
        """
        fields = parse_spn(spn, rules)
        pos = cls(rules)
        pos.bb = fields.bb
        pos.side = fields.side
        pos.phase = fields.phase
        pos.hand = fields.hand
        pos.state = fields.state
        pos.clock = fields.clock
        pos.turn = fields.turn
        # A chain exists only after a capture in this turn, so the clock must not tick at its end.
        pos.acted = pos.phase == "m" and pos.state != START
        pos.settle()
        if pos.result is None:
            pos._check_settled(spn)
        return pos

    def _check_settled(self, spn: str) -> None:
        """The checks of an SPN that need the settled position of a game going on
        (docs/rules-decisions.md 2): a side to place with an empty hand, a removal no rule
        makes due, no legal action at all, a chain with nothing to capture."""
        if self.phase == "p" and not self.hand[self.side]:
            # Checked once settled: a line made by the last piece placed ends the game with
            # both hands empty and the phase still p, and that SPN must read back.
            side = "b" if self.side == BLACK else "w"
            raise InvalidPositionError(f"SPN {quoted(spn)}: {side} is to place but has no piece in hand")
        if self.phase == "r":
            self._check_removal_due(spn)
        codes = self.legal_codes()
        if not codes:
            # e.g. phase r with nothing to remove: no game reaches it, so it is an impossible state.
            raise InvalidPositionError(
                f"SPN {quoted(spn)} is an impossible state: no action is legal yet the game is not over"
            )
        if self.phase == "m" and self.state != START and len(codes) == 1:
            # Only `end`: a chain goes on only while a capturing step exists (docs/rules.md section 3).
            raise InvalidPositionError(
                f"SPN {quoted(spn)} is an impossible state: a chain (state {self.spn().split(' ')[4]}) "
                "needs a capturing step to continue with, and there is none; the state is -"
            )

    def _check_removal_due(self, spn: str) -> None:
        """Phase ``r`` only where the blocked rule makes the side to act remove
        (docs/rules.md section 4); otherwise the SPN is impossible (review atk41b, finding
        3: removals were offered when nobody was blocked, or to the wrong side).

        An SPN carries no shuttle history, and in play a step may be forbidden by it, so
        "blocked" here means "blocked under some history": no step at all, or, with a
        shuttle limit, no piece with two steps (the limit forbids at most one step of a
        piece, the way back)."""
        rule = self.rules.blocked
        side = self.side
        who = COLOR_NAMES[side]
        if rule == "pass":
            if not (self._may_be_blocked(side) and self._may_be_blocked(1 - side)):
                self._refuse_removal(spn, "under blocked=pass a removal is due only when both players are blocked")
            return
        blocked = side if rule == "remove-by-blocked" else 1 - side
        if not self._may_be_blocked(blocked):
            remover = _REMOVER[rule]
            self._refuse_removal(spn, f"under blocked={rule} {remover}, but {COLOR_NAMES[blocked]} can step")
        if rule == "lose":
            first = WHITE if self.rules.first_mover == "white" else BLACK
            due = self._first_move_turn + 1
            if self.turn != due or side != first:
                self._refuse_removal(
                    spn,
                    f"under blocked=lose a removal is due only at turn {due} (the second mover's first "
                    f"movement turn), played by the first mover ({COLOR_NAMES[first]}); "
                    f"this is turn {self.turn} with {who} to act",
                )

    def _refuse_removal(self, spn: str, why: str) -> None:
        raise InvalidPositionError(f"SPN {quoted(spn)} is an impossible state: phase r, a removal due, yet {why}")

    def _may_be_blocked(self, side: int) -> bool:
        """Whether ``side`` is blocked under some shuttle history (see
        :meth:`_check_removal_due`): no step, or with a shuttle limit no piece with two."""
        geo = self.geo
        empty = geo.full & ~(self.bb[0] | self.bb[1])
        own = self.bb[side]
        if not geo.neighbours_of(empty) & own:
            return True
        if not self._limit:
            return False
        return all((geo.neighbour_mask[c] & empty).bit_count() < 2 for c in _bits(own))

    def spn(self) -> str:
        """The position in SPN (docs/rules.md section 7)."""
        return format_spn(self.geo.n, self.bb, self.side, self.phase, self.hand, self.state, self.clock, self.turn)

    def __str__(self) -> str:
        return self.spn()

    def __repr__(self) -> str:
        return f"Position.from_spn({self.spn()!r})"

    def copy(self) -> Position:
        """An independent copy, move stack included (so it can ``pop``)."""
        other = Position.__new__(Position)
        for name in POSITION_SLOTS:
            setattr(other, name, getattr(self, name))
        other.bb = self.bb[:]
        other.hand = self.hand[:]
        other.hist = dict(self.hist)
        other._stack = self._stack[:]
        return other

    def piece_at(self, cell: int) -> int | None:
        """``BLACK``, ``WHITE`` or ``None`` for a bit index."""
        bit = 1 << cell
        if self.bb[BLACK] & bit:
            return BLACK
        if self.bb[WHITE] & bit:
            return WHITE
        return None

    def count(self, color: int) -> int:
        """Pieces of ``color`` on the board."""
        return self.bb[color].bit_count()

    @property
    def size(self) -> int:
        """The board size n."""
        return self.geo.n

    def is_over(self) -> bool:
        """Whether the game has ended under the rules."""
        return self.result is not None

    def outcome(self) -> Outcome | None:
        """The result and reason if the game is over, else ``None``."""
        return self.result

    @property
    def plies(self) -> int:
        """How many actions were pushed (``len(move_stack)`` without building the list)."""
        return len(self._stack)

    @property
    def move_stack(self) -> list[Action]:
        """The actions pushed since this position was created or read."""
        actions = self.table.actions
        return [actions[entry[0]] for entry in self._stack]

    def key(self) -> tuple[int, int, int, str, int, int, int, int]:
        """A hashable summary for transposition tables (shuttle history excluded)."""
        return (self.bb[0], self.bb[1], self.side, self.phase, self.hand[0], self.hand[1], self.state, self.clock)

    # ------------------------------------------------------------------ actions
    def legal_actions(self) -> list[Action]:
        """Every legal action, in generation order."""
        actions = self.table.actions
        return [actions[c] for c in self.legal_codes()]

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal here."""
        code = self.table.codes.get(action)
        return code is not None and code in self.legal_codes()

    def push(self, action: Action) -> None:
        """Play ``action`` without checking it (fast; use :meth:`play` for input)."""
        self.push_code(self.table.codes[action])

    def play(self, action: str | Action) -> Action:
        """Play an action given as text or value after checking that it is legal.

        Raises:
            InvalidActionError: the text is not an action.
            GameOverError: the game is over.
            IllegalActionError: the action is not legal; the message lists what is.
        """
        act = Action.parse(action) if isinstance(action, str) else action
        if self.result is not None:
            raise GameOverError(f"{act} cannot be played: the game is over ({self.result}) in {self.spn()}")
        if act.src >= 0:
            self.geo.index(act.src)
        if act.dst >= 0:
            self.geo.index(act.dst)
        code = self.table.codes.get(act)
        legal = self.legal_codes()
        if code is None or code not in legal:
            raise IllegalActionError(f"{act} is not legal in {self.spn()}; {self.explain_legal(legal)}")
        self.push_code(code)
        return act

    def explain_legal(self, legal: list[int] | None = None) -> str:
        """A short sentence listing the legal actions (for error messages)."""
        codes = self.legal_codes() if legal is None else legal
        names = sorted(str(self.table.actions[c]) for c in codes)
        if not names:
            return "no action is legal"
        shown = ", ".join(names[:12]) + (f" and {len(names) - 12} more" if len(names) > 12 else "")
        who = COLOR_NAMES[self.side]
        return f"{who} may play {shown}"

    def pop(self) -> Action:
        """Take back the last pushed action and return it."""
        entry = self._stack.pop()
        (code, b0, b1, self.side, self.phase, self.hand, self.state, self.clock, self.turn, self.acted,
         self.first_from, self.result, self._nlocked, self.hist) = entry  # fmt: skip
        # In place: cheaper than a new list (push changes the bitboards in place too).
        bb = self.bb
        bb[0] = b0
        bb[1] = b1
        return self.table.actions[code]

    # ------------------------------------------------------------------ generation
    def legal_codes(self) -> list[int]:
        """Every legal action as an int code."""
        if self.result is not None:
            return []
        phase = self.phase
        if phase == "m":
            state = self.state
            if state == START:
                steps = self._steps(self.side, -1, False)
                return steps if steps else [self.table.pass_]
            steps = self._steps(self.side, state if state >= 0 else -1, True)
            steps.append(self.table.end)
            return steps
        if phase == "p":
            return _bits(self._placement_mask())
        if phase == "r":
            base = self.table.remove_base
            return [base + c for c in _bits(self._removal_mask())]
        # phase s: replace an enemy piece
        return _bits(self.bb[1 - self.side])

    def _placement_mask(self) -> int:
        geo, rules = self.geo, self.rules
        empty = geo.full & ~(self.bb[0] | self.bb[1])
        if not rules.place_centre:
            empty &= ~geo.centre_bit
        placed = rules.pieces - self.hand[self.side]
        if rules.opening == "lane" and (placed == 0 or (placed == 1 and self.state == ONE)):
            # Only the player's first turn is restricted (docs/rules.md: "Black's first turn").
            n, m = geo.n, geo.n // 2
            if self.side == BLACK:
                lane = (1 << (m * n)) | (1 << (m * n + n - 1))
            else:
                lane = (1 << m) | (1 << ((n - 1) * n + m))
            empty &= lane
        return empty

    def _step_masks(self, src: int, shuttle: bool = True) -> list[int]:
        """The cells the pieces in ``src`` can legally step to, by direction.

        Bit t of ``masks[d]`` means the piece at ``t - deltas[d]`` may step to t; each
        such step has exactly one source, so a shuttle-forbidden step is one bit to clear.
        """
        geo = self.geo
        n = geo.n
        empty = geo.full ^ (self.bb[0] | self.bb[1])
        masks = [
            (src << n) & empty,
            (src >> n) & empty,
            ((src & geo.not_file_last) << 1) & empty,
            ((src & geo.not_file_a) >> 1) & empty,
        ]
        if shuttle and self._nlocked:
            limit, direction = self._limit, geo.direction
            for a, (t, run) in self.hist.items():
                if run >= limit and src >> a & 1:
                    masks[direction[t - a]] &= ~(1 << t)
        return masks

    def _steps(self, side: int, only_from: int, capturing: bool) -> list[int]:
        """Codes of the legal steps of ``side`` (from one cell if ``only_from`` >= 0;
        only the capturing ones if ``capturing``)."""
        masks = self._step_masks(self.bb[side] if only_from < 0 else (1 << only_from))
        codes = self.table.step_codes
        out: list[int] = []
        for d in range(4):
            targets = masks[d]
            offset = codes[d]
            while targets:
                low = targets & -targets
                targets ^= low
                t = low.bit_length() - 1
                if capturing and not self._capture_mask(t, side):
                    continue
                out.append(offset + 4 * t)
        return out

    def _has_step(self, side: int) -> bool:
        geo = self.geo
        own = self.bb[side]
        # Pieces next to an empty cell (``geo.neighbours_of(empty) & own`` written out:
        # pushes run this whenever the cell just left does not settle it). The vertical
        # neighbours first: they usually settle it, and the horizontal shifts are skipped.
        empty = geo.full ^ (own | self.bb[1 - side])
        n = geo.n
        if not (
            ((empty << n) | (empty >> n)) & own
            or (((empty & geo.not_file_last) << 1) | ((empty & geo.not_file_a) >> 1)) & own
        ):
            return False
        if self._nlocked:
            # Each locked piece forbids one step: more steps than locks means one is legal.
            m0, m1, m2, m3 = self._step_masks(own, False)
            if m0.bit_count() + m1.bit_count() + m2.bit_count() + m3.bit_count() > self._nlocked:
                return True
            return any(self._step_masks(own))
        return True

    def _capture_mask(self, t: int, side: int) -> int:
        """The enemy pieces a step of ``side`` onto ``t`` would capture."""
        if not self._captures:
            return 0
        own, enemy = self.bb[side], self.bb[1 - side]
        safe = self._safe
        caps = 0
        for mid, far, d in self.geo.captures[t]:
            if enemy & mid and own & far and not (mid & safe):
                caps |= mid
                if self._linecap:
                    ray = self.geo.rays[t][d]
                    i = 2
                    while i + 1 < len(ray):
                        e, o = 1 << ray[i], 1 << ray[i + 1]
                        if enemy & e and own & o and not (e & safe):
                            caps |= e
                            i += 2
                        else:
                            break
        return caps

    def _removal_mask(self) -> int:
        """The cells whose piece the side to act may remove (phase ``r``)."""
        side, rule, geo = self.side, self.rules.blocked, self.geo
        own, enemy = self.bb[side], self.bb[1 - side]
        if rule == "remove-by-blocked":
            return geo.neighbours_of(own) & enemy
        if rule == "remove-by-opponent":
            return geo.neighbours_of(enemy) & own
        if rule == "capture-one":
            return enemy
        if rule == "lose":
            return geo.neighbour_mask[self.state] & own if self.state >= 0 else 0
        # pass, both players blocked: own pieces whose removal frees the opponent
        freeing = 0
        for c in _bits(own):
            for o in geo.neighbours[c]:
                if enemy >> o & 1 and not self._shuttle_forbids(o, c):
                    freeing |= 1 << c
                    break
        return freeing or own

    def _shuttle_forbids(self, a: int, t: int) -> bool:
        if not self._limit:
            return False
        h = self.hist.get(a)
        return h is not None and h[1] >= self._limit and h[0] == t

    # ------------------------------------------------------------------ moving
    def push_code(self, code: int) -> None:
        """Play an action code without checking it.

        Steps, the search's most common action, are played here; the other actions in
        :meth:`_push_other`. The capture test runs only where a capture is possible at
        all (an enemy piece next to the target and an own piece two cells beyond it).
        """
        table = self.table
        if code < table.step_base or code >= table.remove_base:
            self._push_other(code)
            return
        bb, hand, hist = self.bb, self.hand, self.hist
        side = self.side
        a = table.step_src[code]
        t = table.step_dst[code]
        limit = self._limit
        keep = self._keep
        if keep:
            self._stack.append(
                (code, bb[0], bb[1], side, self.phase, hand, self.state, self.clock, self.turn,
                 self.acted, self.first_from, self.result, self._nlocked, hist)
            )  # fmt: skip
        bb[side] ^= table.step_bits[code]
        if limit:
            if keep:
                hist = self.hist = hist.copy()
            h = hist.pop(a, None)
            if h is not None and h[0] == t:
                run = h[1] + 1
                if run == limit:
                    self._nlocked += 1
            else:
                run = 1
                if h is not None and h[1] >= limit:
                    self._nlocked -= 1
            hist[t] = (a, run)
        if self._lose and self.state == START and self.turn == self._first_move_turn:
            self.first_from = a
        geo = self.geo
        if self._captures and bb[1 - side] & geo.neighbour_mask[t] and bb[side] & geo.capture_far[t]:
            caps = self._capture_mask(t, side)
        else:
            caps = 0
        if caps:
            bb[1 - side] &= ~caps
            if limit:
                if caps & (caps - 1):
                    for c in _bits(caps):
                        self._forget(c)
                else:  # one piece taken, the usual capture: no list of cells
                    self._forget(caps.bit_length() - 1)
            self.clock = 0
            self.acted = True
            if self._immediate_end(side):
                return
            chain = self.rules.chain
            if chain == "same" and self._captures_from(t, side):
                self.state = t
                return
            if chain == "any" and self._steps(side, -1, True):
                self.state = ANY
                return
        elif self._plain_ends:
            # The common case, a step that took nothing and no line to look for:
            # the turn ends as _end_turn would end it, without its general checks.
            if self.acted:
                self.acted = False  # a remove-by-blocked removal earlier in the turn
            else:
                self.clock += 1
            self.turn += 1
            self.state = START
            other = 1 - side
            self.side = other
            rules = self.rules
            if (rules.move_limit and self.clock >= rules.move_limit) or (
                rules.turn_limit and self.turn > rules.turn_limit
            ):
                self.result = self._turn_end_outcome(side, False)
                if self.result is not None:
                    return
            if (self._nlocked or not bb[other] & self._nbr[a]) and not self._has_step(other):
                # As in push_quiet: a piece next to the cell just left has a step.
                self._blocked()
            return
        elif self._immediate_end(side):
            return
        # _immediate_end counted the pieces of these bitboards: the turn end need not.
        self._end_turn(counted=True)

    def _captures_from(self, t: int, side: int) -> bool:
        """Whether the piece of ``side`` on ``t`` has a legal capturing step (``bool`` of
        ``_steps(side, t, True)``): the pattern loop runs only for a target with an enemy
        piece next to it and an own piece beyond (as in :meth:`push_code`)."""
        bb = self.bb
        own, enemy = bb[side], bb[1 - side]
        nbr, far = self._nbr, self.geo.capture_far
        for mask in self._step_masks(1 << t):
            if mask:  # one bit at most: the piece's step in this direction
                u = mask.bit_length() - 1
                if enemy & nbr[u] and own & far[u] and self._capture_mask(u, side):
                    return True
        return False

    def quiet_steps_plain(self) -> bool:
        """Whether every step here that captures nothing just passes the turn, so
        :meth:`push_quiet` may play it: the start of a movement turn of a game going on,
        no line to look for, nothing taken earlier in the turn, no clock running out,
        not the first step of a game where a blocked side loses, and undo entries kept."""
        if self.phase != "m" or self.state != START or self.result is not None:
            return False
        if self.acted or not self._plain_ends or not self._keep:
            return False
        rules = self.rules
        if rules.move_limit and self.clock + 1 >= rules.move_limit:
            return False
        if rules.turn_limit and self.turn + 1 > rules.turn_limit:
            return False
        return not (self._lose and self.turn == self._first_move_turn)

    def push_quiet(self, code: int) -> None:
        """:meth:`push_code` for a step that captures nothing, where
        :meth:`quiet_steps_plain` holds (the caller checks both; the search knows its
        capturing steps from the bitboards). The search's most common push, without the
        general path's tests for captures, removals, clocks and game ends (a test
        compares the two on random positions of several rulesets)."""
        bb, hand, hist = self.bb, self.hand, self.hist
        table = self.table
        side = self.side
        a = table.step_src[code]
        t = table.step_dst[code]
        clock, turn = self.clock, self.turn
        self._stack.append(
            (code, bb[0], bb[1], side, "m", hand, START, clock, turn, False, self.first_from, None,
             self._nlocked, hist)
        )  # fmt: skip
        bb[side] ^= table.step_bits[code]
        limit = self._limit
        if limit:
            hist = self.hist = hist.copy()
            h = hist.pop(a, None)
            if h is not None and h[0] == t:
                run = h[1] + 1
                if run == limit:
                    self._nlocked += 1
            else:
                run = 1
                if h is not None and h[1] >= limit:
                    self._nlocked -= 1
            hist[t] = (a, run)
        self.clock = clock + 1
        self.turn = turn + 1
        other = 1 - side
        self.side = other
        if (self._nlocked or not bb[other] & self._nbr[a]) and not self._has_step(other):
            # The cell just left is empty: an enemy piece next to it has a step (with no
            # locked shuttle), so the blocked rule's whole-board test runs only when none is.
            self._blocked()

    def _push_other(self, code: int) -> None:
        """:meth:`push_code` for every action but a step."""
        table = self.table
        bb, hand = self.bb, self.hand
        if self._keep:
            self._stack.append(
                (code, bb[0], bb[1], self.side, self.phase, hand, self.state, self.clock, self.turn,
                 self.acted, self.first_from, self.result, self._nlocked, self.hist)
            )  # fmt: skip
        side = self.side
        if code < table.step_base:  # placement, or replacement in phase s
            bit = 1 << code
            if self.phase == "s":
                bb[1 - side] &= ~bit
                bb[side] |= bit
                if self._line(side):
                    self.result = Outcome(side, "line")
                    self._finish_turn()
                    return
                bb[side] &= ~bit
                self._end_turn()
                return
            bb[side] |= bit
            before = hand[side]
            if self._keep:
                # The undo entry holds this list: the placement changes a copy.
                hand = self.hand = hand.copy()
            hand[side] = before - 1
            if self.rules.win_line and self._line(side):
                self.result = Outcome(side, "line")
                self._finish_turn()
                return
            if self.state == START and before > 1 and self._pair_turn(before):
                self.state = ONE
                return
            self._end_turn()
            return
        if code < table.end:  # removal
            c = code - table.remove_base
            bit = 1 << c
            if bb[0] & bit:
                bb[0] &= ~bit
            else:
                bb[1] &= ~bit
            if self._limit:
                if self._keep:
                    self.hist = dict(self.hist)
                self._forget(c)
            self.clock = 0
            self.acted = True
            if self._immediate_end(side):
                # A finished game has no removal due (docs/rules.md section 4): phase m.
                self.phase = "m"
                return
            if self.rules.blocked == "remove-by-blocked":
                # The blocked player's own removal is part of its turn: it now steps.
                self.phase = "m"
                self.state = START
                self._check_blocked()
                return
            self._end_turn()
            return
        # end of a chain, or pass
        self._end_turn()

    def _forget(self, cell: int) -> None:
        """Drop the shuttle history of a piece that leaves the board (from a history the
        pushed action owns: the stack holds the one before it)."""
        old = self.hist.pop(cell, None)
        if old is not None and old[1] >= self._limit:
            self._nlocked -= 1

    def _pair_turn(self, hand_before: int) -> bool:
        placement = self.rules.placement
        if placement == "pairs":
            return True
        if placement == "pairs-then-singles":
            return hand_before == self.rules.pieces
        return False

    def _line(self, side: int) -> bool:
        k = self.rules.win_line
        if not k:
            return False
        own = self.bb[side]
        return any(own & m == m for m in self.geo.lines(k))

    def _immediate_end(self, mover: int) -> bool:
        """Check the ends that happen at once (line, piece count); finish the turn if one holds."""
        result = None
        if self.rules.win_line:
            for p in (mover, 1 - mover):
                if self._line(p):
                    result = Outcome(p, "line")
                    break
        if result is None and self.phase in "mr":
            result = self._count_end(mover)
        if result is None:
            return False
        self.result = result
        self._finish_turn()
        return True

    def _count_end(self, mover: int) -> Outcome | None:
        lose_at = self.rules.lose_at
        for p in (1 - mover, mover):
            c = self.bb[p].bit_count()
            if c <= lose_at:
                return Outcome(1 - p, "capture-all" if c == 0 else "reduced")
        return None

    def _finish_turn(self) -> None:
        """The game ended: the turn ends with it, the phase stays (docs/rules.md section 5;
        a removal that ends the game sets phase ``m`` itself, see ``push_code``)."""
        if self.phase in "mr" and not self.acted:
            self.clock += 1
        self.turn += 1
        self.state = START
        self.acted = False
        self.side = 1 - self.side

    def _end_turn(self, counted: bool = False) -> None:
        """End the turn of the side to act (``counted``: the caller found no piece-count
        end on these bitboards already)."""
        mover = self.side
        phase = self.phase
        acted = self.acted
        if phase in "mr" and not acted:
            self.clock += 1
        self.turn += 1
        self.state = START
        self.acted = False
        if phase == "p":
            hand = self.hand
            if not hand[0] and not hand[1]:
                if self.rules.after_placement == "replace":
                    self.phase = "s"
                    self.side = BLACK
                else:
                    self.phase = "m"
                    self.side = WHITE if self.rules.first_mover == "white" else BLACK
            elif hand[1 - mover]:
                self.side = 1 - mover
        else:
            if phase == "r":
                self.phase = "m"
            self.side = 1 - mover
        result = self._turn_end_outcome(mover, (acted or phase != self.phase) and not counted)
        if result is not None:
            self.result = result
            return
        if self.phase == "m":
            self._check_blocked()

    def _turn_end_outcome(self, mover: int, counts_changed: bool = True) -> Outcome | None:
        """The ends checked between turns, in the order of docs/rules.md section 5.

        ``counts_changed=False`` skips the piece count when the turn took nothing and
        the phase stayed: the count cannot have reached ``lose_at`` then.
        """
        rules = self.rules
        if rules.win_line:
            for p in (mover, 1 - mover):
                if self._line(p):
                    return Outcome(p, "line")
        phase = self.phase
        if phase in "mr":
            result = self._count_end(mover) if counts_changed else None
            if result is not None:
                return result
            if rules.move_limit and self.clock >= rules.move_limit:
                b, w = self.bb[BLACK].bit_count(), self.bb[WHITE].bit_count()
                return Outcome(BLACK if b > w else WHITE if w > b else None, "move-limit")
        if rules.turn_limit and self.turn - 1 >= rules.turn_limit:
            return Outcome(None, "turn-limit")
        if phase == "s":
            empties = self.geo.cells - (self.bb[0] | self.bb[1]).bit_count()
            if empties - (self.geo.cells - 2 * rules.pieces) >= 2:
                return Outcome(None, "no-line")
        return None

    def _check_blocked(self) -> None:
        """At the start of a movement turn: apply the blocked rule if the side cannot step."""
        if not self._has_step(self.side):
            self._blocked()

    def _blocked(self) -> None:
        """The blocked rule, for the side to act at the start of a movement turn, which
        has no step (the pushes test that themselves: one call fewer when it has one)."""
        side = self.side
        rule = self.rules.blocked
        geo = self.geo
        own, enemy = self.bb[side], self.bb[1 - side]
        if rule == "pass":
            if not self._has_step(1 - side):
                self.phase = "r"  # both blocked: the side to move removes one of its own
        elif rule == "remove-by-blocked":
            if geo.neighbours_of(own) & enemy:
                self.phase = "r"
        elif rule == "remove-by-opponent":
            if geo.neighbours_of(own) & enemy:
                self.phase = "r"
                self.side = 1 - side
        elif rule == "capture-one":
            self.phase = "r"
            self.side = 1 - side
        else:  # lose
            if self.turn == self._first_move_turn + 1:
                # The first-step exception; if no piece qualifies for the removal, the
                # blocked player passes instead (docs/rules.md section 4). A position read
                # from SPN does not know the cell (first_from < 0); the engine writes
                # phase r whenever a piece qualifies, so a blocked side in phase m at
                # this turn is the case where none did: it passes too.
                if self.first_from >= 0 and geo.neighbour_mask[self.first_from] & enemy:
                    self.phase = "r"
                    self.side = 1 - side
                    self.state = self.first_from
            else:
                self.result = Outcome(1 - side, "blocked")

    def settle(self) -> None:
        """Apply the checks a turn start would (game end, blocked rule) to a position
        built from fields, as :meth:`from_spn` does."""
        mover = 1 - self.side if self.state == START else self.side
        result = None
        if self.rules.win_line:
            for p in (mover, 1 - mover):
                if self._line(p):
                    result = Outcome(p, "line")
                    break
        if result is None:
            result = self._turn_end_outcome(mover)
        self.result = result
        if result is not None and self.phase == "r":
            # A finished game has no removal due; older writers left phase r here.
            self.phase = "m"
        if result is None and self.phase == "m" and self.state == START:
            self._check_blocked()

    # ------------------------------------------------------------------ perft
    def _step_targets(self) -> list[int] | None:
        """The side's step masks (see :meth:`_step_masks`) when plain steps are exactly
        the legal actions (movement phase, start of a turn); else ``None``."""
        if self.phase != "m" or self.state != START or self.result is not None:
            return None
        return self._step_masks(self.bb[self.side])

    def count_legal(self) -> int:
        """``len(self.legal_codes())``, counted without building the list where it can."""
        targets = self._step_targets()
        if targets is None:
            if self.phase == "p" and self.result is None:
                return self._placement_mask().bit_count()
            return len(self.legal_codes())
        total = targets[0].bit_count() + targets[1].bit_count() + targets[2].bit_count() + targets[3].bit_count()
        return total or 1  # no step: the only action is pass

    def random_code(self, rng: random.Random) -> int:
        """A uniformly random legal action code (for playouts), without listing them all
        where it can. The game must not be over."""
        if self.phase != "m" or self.state != START:
            if self.phase == "p":
                mask = self._placement_mask()
                return _nth_bit(mask, int(rng.random() * mask.bit_count()))
            return rng.choice(self.legal_codes())
        own = self.bb[self.side]
        if self._nlocked:
            # Rejection sampling: a uniform pick among all steps, redrawn while it is a
            # shuttle-forbidden one, is uniform among the legal steps.
            table, hist, limit = self.table, self.hist, self._limit
            for _ in range(8):
                code = self._pick_step(self._step_masks(own, False), rng)
                if code == table.pass_:
                    return code
                h = hist.get(table.step_src[code])
                if h is None or h[1] < limit or h[0] != table.step_dst[code]:
                    return code
        return self._pick_step(self._step_masks(own), rng)

    def _pick_step(self, masks: list[int], rng: random.Random) -> int:
        """A uniformly random step among ``masks`` (pass if there is none)."""
        m0, m1, m2, m3 = masks
        c0, c1, c2 = m0.bit_count(), m1.bit_count(), m2.bit_count()
        total = c0 + c1 + c2 + m3.bit_count()
        if not total:
            return self.table.pass_
        r = int(rng.random() * total)  # randrange's checks cost more than this whole pick
        codes = self.table.step_codes
        if r < c0:
            return codes[0] + 4 * _nth_bit(m0, r)
        r -= c0
        if r < c1:
            return codes[1] + 4 * _nth_bit(m1, r)
        r -= c1
        if r < c2:
            return codes[2] + 4 * _nth_bit(m2, r)
        return codes[3] + 4 * _nth_bit(m3, r - c2)

    def perft(self, depth: int) -> int:
        """The number of legal action sequences of exactly ``depth`` actions."""
        if depth <= 0:
            return 1
        if depth == 1:
            return self.count_legal()
        codes = self.legal_codes()
        total = 0
        push, pop = self.push_code, self.pop
        for code in codes:
            push(code)
            total += self.perft(depth - 1)
            pop()
        return total


def _nth_bit(mask: int, k: int) -> int:
    """The index of the ``k``-th (from 0) set bit of ``mask``, lowest first."""
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def _bits(mask: int) -> list[int]:
    """The set bit indexes of ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_bits(mask: int) -> Iterator[int]:
    """Iterate the set bit indexes of ``mask``, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
