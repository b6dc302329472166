"""Position hashing for the transposition table.

Two ways were measured (CPython 3.11, 5x5 middlegame, 100k calls):

* ``hash(pos.key())``: the engine's key tuple (bitboards, side, phase, hands, state,
  clock) hashed by CPython's C tuple hash: about 0.5 us.
* classic Zobrist, XOR of random 64-bit words per occupied cell, recomputed from the
  bitboards: several microseconds (a Python loop over the pieces); an incremental
  version would need a diff of the bitboards after every push, which costs about as
  much as the tuple hash itself plus the bookkeeping.

So the table is keyed by ``hash(pos.key())``, a 64-bit hash that is exact up to hash
collisions (negligible at the table sizes used; the TT move is always checked against
the legal actions before use). It leaves out the shuttle history, which changes the
legal steps: two positions differing only in shuttle history share an entry. That is
an approximation (it can only matter when a piece is one step from its shuttle limit).
String hashes vary per process, so keys are never stored or compared across processes.
"""

from __future__ import annotations

import random

from engine.position import Position


def position_hash(pos: Position) -> int:
    """The transposition-table key of ``pos``."""
    return hash(pos.key())


class ZobristTable:
    """Classic Zobrist keys (kept for measurement: see the module docstring)."""

    def __init__(self, cells: int, seed: int = 2026) -> None:
        rng = random.Random(seed)
        self.pieces = [[rng.getrandbits(64) for _ in range(cells)] for _ in range(2)]
        self.side = rng.getrandbits(64)
        self.misc = [rng.getrandbits(64) for _ in range(1024)]

    def hash(self, pos: Position) -> int:
        """The Zobrist key of ``pos`` computed from scratch."""
        h = self.side if pos.side else 0
        for color in (0, 1):
            table = self.pieces[color]
            x = pos.bb[color]
            while x:
                low = x & -x
                h ^= table[low.bit_length() - 1]
                x ^= low
        misc = self.misc
        h ^= misc[(hash(pos.phase) + 7 * pos.hand[0] + 131 * pos.hand[1] + 977 * pos.state + pos.clock) & 1023]
        return h
