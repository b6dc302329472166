"""A slow, obviously-correct second implementation of docs/rules.md, used to check the engine.

It is written from the text of docs/rules.md sections 1-7 alone: cells are ``(file, rank)``
tuples, the board is a dict, every piece carries an id so its shuttle history can follow
it, and each rule is one short function named after the sentence it implements. Nothing
here is optimised and nothing is shared with ``engine/position.py``; the only import from
the engine is :class:`~engine.rules.Ruleset`, a plain record of option values.

Perft counts and random games are trusted only where this module and the engine agree.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator

from engine.rules import Ruleset

FILES = "abcdefghi"
#: The four orthogonal directions as (file delta, rank delta).
DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0))

Cell = tuple[int, int]


def other(side: str) -> str:
    """The opponent of ``'b'`` or ``'w'``."""
    return "w" if side == "b" else "b"


class RefGame:
    """A Seega game state under a ruleset, changed only by :meth:`apply`."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.n = rules.size
        self.centre: Cell = (self.n // 2, self.n // 2)
        self.board: dict[Cell, str] = {}
        #: piece id of each occupied cell, so that a history follows its piece
        self.ids: dict[Cell, int] = {}
        self.next_id = 0
        #: piece id -> every step it made, as (from, to)
        self.hist: dict[int, list[tuple[Cell, Cell]]] = {}
        self.side = "b"
        self.phase = "p"
        self.hand = {"b": rules.pieces, "w": rules.pieces}
        self.state: str | Cell = "-"
        self.clock = 0
        self.turn = 1
        self.placed_this_turn = 0
        self.took_this_turn = False
        self.first_from: Cell | None = None
        self.result: tuple[str | None, str] | None = None

    # ----------------------------------------------------------------- geometry
    def cells(self) -> list[Cell]:
        """Every cell of the board."""
        return [(f, r) for r in range(self.n) for f in range(self.n)]

    def on_board(self, c: Cell) -> bool:
        """Whether ``c`` lies on the board."""
        return 0 <= c[0] < self.n and 0 <= c[1] < self.n

    def name(self, c: Cell) -> str:
        """The name of a cell, ``a1`` style."""
        return f"{FILES[c[0]]}{c[1] + 1}"

    def neighbours(self, c: Cell) -> list[Cell]:
        """The cells orthogonally next to ``c``."""
        out = []
        for df, dr in DIRECTIONS:
            t = (c[0] + df, c[1] + dr)
            if self.on_board(t):
                out.append(t)
        return out

    def pieces(self, side: str) -> list[Cell]:
        """The cells holding a piece of ``side``."""
        return [c for c, s in self.board.items() if s == side]

    # ----------------------------------------------------------------- the rules
    def first_movement_turn(self) -> int:
        """The turn number of the first step: after both sides' placement turns."""
        rules = self.rules
        if rules.placement == "pairs":
            per_side = (rules.pieces + 1) // 2
        elif rules.placement == "pairs-then-singles":
            per_side = 1 + max(0, rules.pieces - 2)
        else:
            per_side = rules.pieces
        return 2 * per_side + 1

    def shuttle_forbids(self, c: Cell, t: Cell) -> bool:
        """A step c -> t is illegal if the piece's last 2k steps were (c->t, t->c) k times."""
        k = self.rules.max_shuttles
        if k == 0:
            return False
        steps = self.hist.get(self.ids[c], [])
        return len(steps) >= 2 * k and steps[-2 * k :] == [(c, t), (t, c)] * k

    def steps_of(self, side: str) -> list[tuple[Cell, Cell]]:
        """Every legal step of ``side``: one cell orthogonally into an empty cell."""
        out = []
        for c in self.pieces(side):
            for t in self.neighbours(c):
                if t not in self.board and not self.shuttle_forbids(c, t):
                    out.append((c, t))
        return out

    def captures_after(self, c: Cell, t: Cell) -> list[Cell]:
        """The enemy pieces a step c -> t would capture (custodial, maybe along a line)."""
        rules = self.rules
        if not rules.captures:
            return []
        side = self.board[c]
        enemy = other(side)
        board = dict(self.board)
        del board[c]
        board[t] = side

        def safe(cell: Cell) -> bool:
            return rules.safe_centre and cell == self.centre

        taken: list[Cell] = []
        for df, dr in DIRECTIONS:
            mid = (t[0] + df, t[1] + dr)
            far = (t[0] + 2 * df, t[1] + 2 * dr)
            if board.get(mid) == enemy and board.get(far) == side and not safe(mid):
                taken.append(mid)
                if rules.line_capture:
                    i = 3
                    while True:
                        e = (t[0] + i * df, t[1] + i * dr)
                        o = (t[0] + (i + 1) * df, t[1] + (i + 1) * dr)
                        if board.get(e) == enemy and board.get(o) == side and not safe(e):
                            taken.append(e)
                            i += 2
                        else:
                            break
        return taken

    def has_line(self, side: str) -> bool:
        """Whether ``side`` has ``win_line`` pieces in a row or column."""
        k = self.rules.win_line
        if not k:
            return False
        for c in self.pieces(side):
            for df, dr in ((1, 0), (0, 1)):
                if all(self.board.get((c[0] + i * df, c[1] + i * dr)) == side for i in range(k)):
                    return True
        return False

    def first_turn_of_side(self) -> bool:
        """Whether the side to place is in its first placement turn."""
        placed_before = self.rules.pieces - self.hand[self.side] - self.placed_this_turn
        return placed_before == 0

    def placements_this_turn(self) -> int:
        """How many pieces this placement turn places."""
        placement = self.rules.placement
        if placement == "pairs":
            return 2
        if placement == "pairs-then-singles":
            return 2 if self.first_turn_of_side() else 1
        return 1

    def removable(self) -> list[Cell]:
        """The cells the side to act may remove in phase ``r``."""
        rule = self.rules.blocked
        me, them = self.side, other(self.side)
        if rule == "pass":
            freeing = []
            for c in self.pieces(me):
                trial = copy.deepcopy(self)
                trial.take_off(c)
                if trial.steps_of(them):
                    freeing.append(c)
            return freeing or self.pieces(me)
        if rule == "remove-by-blocked":
            return [c for c in self.pieces(them) if any(self.board.get(x) == me for x in self.neighbours(c))]
        if rule == "remove-by-opponent":
            return [c for c in self.pieces(me) if any(self.board.get(x) == them for x in self.neighbours(c))]
        if rule == "capture-one":
            return self.pieces(them)
        assert isinstance(self.state, tuple)
        return [c for c in self.neighbours(self.state) if self.board.get(c) == me]

    # ----------------------------------------------------------------- actions
    def legal(self) -> list[str]:
        """Every legal action as text."""
        if self.result is not None:
            return []
        if self.phase == "p":
            cells = [c for c in self.cells() if c not in self.board]
            if not self.rules.place_centre:
                cells = [c for c in cells if c != self.centre]
            if self.rules.opening == "lane" and self.first_turn_of_side():
                m, last = self.n // 2, self.n - 1
                lane = [(0, m), (last, m)] if self.side == "b" else [(m, 0), (m, last)]
                cells = [c for c in cells if c in lane]
            return [self.name(c) for c in cells]
        if self.phase == "s":
            return [self.name(c) for c in self.pieces(other(self.side))]
        if self.phase == "r":
            return ["x" + self.name(c) for c in self.removable()]
        steps = self.steps_of(self.side)
        if self.state == "-":
            return [f"{self.name(a)}-{self.name(b)}" for a, b in steps] or ["pass"]
        if isinstance(self.state, tuple):
            steps = [(a, b) for a, b in steps if a == self.state]
        out = [f"{self.name(a)}-{self.name(b)}" for a, b in steps if self.captures_after(a, b)]
        return [*out, "end"]

    def cell(self, text: str) -> Cell:
        """The cell named ``text``."""
        return (FILES.index(text[0]), int(text[1:]) - 1)

    def apply(self, action: str) -> None:
        """Play a legal action (the caller checks legality with :meth:`legal`)."""
        if action in ("pass", "end"):
            self.end_turn()
        elif action.startswith("x"):
            self.do_remove(self.cell(action[1:]))
        elif "-" in action:
            a, b = action.split("-")
            self.do_step(self.cell(a), self.cell(b))
        elif self.phase == "s":
            self.do_replace(self.cell(action))
        else:
            self.do_place(self.cell(action))

    def put(self, c: Cell, side: str) -> None:
        """A new piece of ``side`` on ``c``, with an empty history."""
        self.board[c] = side
        self.ids[c] = self.next_id
        self.hist[self.next_id] = []
        self.next_id += 1

    def take_off(self, c: Cell) -> None:
        """Take the piece on ``c`` off the board; its history goes with it."""
        del self.board[c]
        self.hist.pop(self.ids.pop(c), None)

    def do_place(self, c: Cell) -> None:
        quota = self.placements_this_turn()
        self.put(c, self.side)
        self.hand[self.side] -= 1
        self.placed_this_turn += 1
        if self.has_line(self.side):
            self.end_game_mid_turn((self.side, "line"))
            return
        if self.placed_this_turn < quota and self.hand[self.side] > 0:
            self.state = "1"
            return
        self.end_turn()

    def do_replace(self, c: Cell) -> None:
        me = self.side
        self.take_off(c)
        self.put(c, me)
        if self.has_line(me):
            self.end_game_mid_turn((me, "line"))
            return
        self.take_off(c)
        self.end_turn()
        if self.result is None and me == "w":
            self.result = (None, "no-line")

    def do_step(self, a: Cell, t: Cell) -> None:
        me = self.side
        if self.state == "-" and self.turn == self.first_movement_turn():
            self.first_from = a
        taken = self.captures_after(a, t)
        pid = self.ids.pop(a)
        del self.board[a]
        self.board[t] = me
        self.ids[t] = pid
        self.hist[pid].append((a, t))
        for c in taken:
            self.take_off(c)
        if taken:
            self.clock = 0
            self.took_this_turn = True
        end = self.immediate_end()
        if end is not None:
            self.end_game_mid_turn(end)
            return
        if taken and self.rules.chain != "none":
            again = [(x, y) for x, y in self.steps_of(me) if self.captures_after(x, y)]
            if self.rules.chain == "same":
                again = [(x, y) for x, y in again if x == t]
                if again:
                    self.state = t
                    return
            elif again:
                self.state = "c"
                return
        self.end_turn()

    def do_remove(self, c: Cell) -> None:
        self.take_off(c)
        self.clock = 0
        self.took_this_turn = True
        end = self.immediate_end()
        if end is not None:
            # "A finished game has no removal due: when a removal ends the game ... the
            # phase is m."
            self.phase = "m"
            self.end_game_mid_turn(end)
            return
        if self.rules.blocked == "remove-by-blocked":
            # the blocked player now steps, in the same turn
            self.phase = "m"
            self.state = "-"
            self.apply_blocked_rule()
            return
        self.end_turn()

    # ----------------------------------------------------------------- turn flow
    def count_loser(self, first: str) -> tuple[str | None, str] | None:
        """A player with ``lose_at`` or fewer pieces loses (movement phase)."""
        for p in (first, other(first)):
            count = len(self.pieces(p))
            if count <= self.rules.lose_at:
                return (other(p), "capture-all" if count == 0 else "reduced")
        return None

    def immediate_end(self) -> tuple[str | None, str] | None:
        """The ends that happen at once, mid-turn: a line, then a piece count."""
        me = self.side
        for p in (me, other(me)):
            if self.has_line(p):
                return (p, "line")
        if self.phase in "mr":
            return self.count_loser(other(me))
        return None

    def end_game_mid_turn(self, result: tuple[str | None, str]) -> None:
        """The game ended inside a turn: the turn ends with it, the phase stays."""
        self.result = result
        if self.phase in "mr" and not self.took_this_turn:
            self.clock += 1
        self.turn += 1
        self.state = "-"
        self.side = other(self.side)
        self.placed_this_turn = 0
        self.took_this_turn = False

    def end_turn(self) -> None:
        mover = self.side
        if self.phase in "mr" and not self.took_this_turn:
            self.clock += 1
        self.turn += 1
        self.state = "-"
        self.placed_this_turn = 0
        self.took_this_turn = False
        if self.phase == "p":
            if self.hand["b"] == 0 and self.hand["w"] == 0:
                if self.rules.after_placement == "replace":
                    self.phase, self.side = "s", "b"
                else:
                    self.phase = "m"
                    self.side = "w" if self.rules.first_mover == "white" else "b"
            elif self.hand[other(mover)] > 0:
                self.side = other(mover)
        else:
            if self.phase == "r":
                self.phase = "m"
            self.side = other(mover)
        self.start_turn(mover)

    def start_turn(self, last_mover: str) -> None:
        """Ends checked between turns (line, count, move_limit, turn_limit), then blocked."""
        rules = self.rules
        result = None
        for p in (last_mover, other(last_mover)):
            if result is None and self.has_line(p):
                result = (p, "line")
        if result is None and self.phase in "mr":
            result = self.count_loser(other(last_mover))
        if result is None and self.phase in "mr" and rules.move_limit and self.clock >= rules.move_limit:
            b, w = len(self.pieces("b")), len(self.pieces("w"))
            result = ("b" if b > w else "w" if w > b else None, "move-limit")
        if result is None and rules.turn_limit and self.turn - 1 >= rules.turn_limit:
            result = (None, "turn-limit")
        if result is not None:
            self.result = result
            return
        if self.phase == "m":
            self.apply_blocked_rule()

    def apply_blocked_rule(self) -> None:
        """At the start of a movement turn, a player with no legal step is blocked."""
        me, them = self.side, other(self.side)
        if self.steps_of(me):
            return
        rule = self.rules.blocked
        touching = any(self.board.get(x) == them for c in self.pieces(me) for x in self.neighbours(c))
        if rule == "pass":
            if not self.steps_of(them):
                self.phase = "r"
        elif rule == "remove-by-blocked":
            if touching:
                self.phase = "r"
        elif rule == "remove-by-opponent":
            if touching:
                self.phase, self.side = "r", them
        elif rule == "capture-one":
            self.phase, self.side = "r", them
        elif self.turn == self.first_movement_turn() + 1:
            # lose, right after the first step: the first mover removes next to first_from;
            # otherwise no piece qualifies and the blocked player passes. (Read from SPN,
            # first_from is unknown: phase m there means no piece qualified, see
            # docs/rules-decisions.md 8.)
            if self.first_from is not None and any(self.board.get(x) == them for x in self.neighbours(self.first_from)):
                self.phase, self.side, self.state = "r", them, self.first_from
        else:
            self.result = (them, "blocked")

    # ----------------------------------------------------------------- SPN
    def spn(self) -> str:
        """The position in SPN."""
        ranks = []
        for r in range(self.n - 1, -1, -1):
            text, run = "", 0
            for f in range(self.n):
                piece = self.board.get((f, r))
                if piece is None:
                    run += 1
                    continue
                if run:
                    text += str(run)
                    run = 0
                text += piece
            if run:
                text += str(run)
            ranks.append(text)
        state = self.name(self.state) if isinstance(self.state, tuple) else self.state
        hand = f"{self.hand['b']}/{self.hand['w']}"
        return f"{'/'.join(ranks)} {self.side} {self.phase} {hand} {state} {self.clock} {self.turn}"

    @classmethod
    def from_spn(cls, spn: str, rules: Ruleset) -> RefGame:
        """A game read from a well-formed SPN (no shuttle history), settled like a turn start."""
        board, side, phase, hand, state, clock, turn = spn.split()
        game = cls(rules)
        for i, rank in enumerate(board.split("/")):
            r = game.n - 1 - i
            f = 0
            for ch in rank:
                if ch.isdigit():
                    f += int(ch)
                else:
                    game.put((f, r), ch)
                    f += 1
        game.side, game.phase = side, phase
        b, w = hand.split("/")
        game.hand = {"b": int(b), "w": int(w)}
        game.clock, game.turn = int(clock), int(turn)
        if state in ("-", "1", "c"):
            game.state = state
        else:
            game.state = game.cell(state)
        if state == "1":
            game.placed_this_turn = 1
        # a chain only exists after a capture in this turn
        game.took_this_turn = phase == "m" and state != "-"
        if state == "-":
            game.start_turn(other(side))
        if game.result is not None and game.phase == "r":
            game.phase = "m"  # a finished game has no removal due
        return game


def perft(game: RefGame, depth: int) -> int:
    """The number of legal action sequences of exactly ``depth`` actions."""
    if depth == 0:
        return 1
    actions = game.legal()
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        child = copy.deepcopy(game)
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def divide(game: RefGame, depth: int) -> dict[str, int]:
    """The perft count under each first action."""
    out = {}
    for action in game.legal():
        child = copy.deepcopy(game)
        child.apply(action)
        out[action] = perft(child, depth - 1)
    return out


def walk(game: RefGame, actions: list[str]) -> Iterator[RefGame]:
    """The games after each action of ``actions`` in turn (copies)."""
    current = copy.deepcopy(game)
    for action in actions:
        current.apply(action)
        yield copy.deepcopy(current)
