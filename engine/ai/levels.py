"""The four levels: each a documented mix of search depth or time, and imperfection.

=========  ==========  ===========================================================
level      budget      how it plays
=========  ==========  ===========================================================
easy       depth 1     one action ahead plus captures (quiescence), so it sees
                       free captures and most immediate threats; 30% of its
                       choices are a random action at most 1.5 pieces worse than
                       its best (never a forced loss it can see), and in
                       placement it picks among its top cells at random.
medium     depth 2     two actions ahead plus captures, no deliberate errors,
                       narrower placement search (6 cells per node, every
                       placement only once 4 cells are empty).
hard       1 s         iterative deepening until the time is used (one core);
                       endgame tables where they apply (5x5 and 7x7: ludii, and
                       standard against the move limit's clock);
                       in a stuck game without a move limit, the soonest capture
                       that cannot be stopped.
expert     3 s         the same search with three times the time, which pays for a
                       wider placement search: 12 cells per node instead of 10,
                       and every placement once 8 cells are empty instead of 6;
                       three times that again (9 s) for the placements made with
                       16 or fewer empty cells, which fix the structure of the
                       game (``Level.movetime_for``).
=========  ==========  ===========================================================

easy and medium are depth-limited, so they play the same on any machine and are
deterministic for a given seed; their default time (1 s) is only a cap. hard and
expert are time-limited: what they find depends on the machine's speed.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.ai.placement import FULL_WIDTH_EMPTIES

#: Placements made with at most this many empty cells left fix the structure the
#: movement phase starts from: a search there is close enough to the filled board to
#: see what it leads to if it has the time, and one that does not reach it chooses
#: blind (docs/ai.md, "Where White's placement goes wrong": 1 s valued a turn at 10
#: pieces placed at 0, 15 s at -1.8 pieces). Whatever the board's size, the last 16.
FOCUS_EMPTIES = 16


@dataclass(frozen=True)
class Level:
    """How one level thinks.

    Attributes:
        name: ``easy``, ``medium``, ``hard`` or ``expert``.
        movetime_ms: the default budget per action (a cap for depth-limited levels).
        max_depth: the deepest iteration (plies = actions).
        blunder: probability of playing a weaker action on purpose.
        blunder_margin: how much worse (centipieces) such an action may be.
        placement_width: placements searched per node early in the placement phase.
        full_width_empties: at or below this many empty cells every placement is searched.
        placement_random: pick a placement at random among this many best (1: the best).
        tables: whether the level looks endgame positions up in the tables (where they
            are exact) instead of searching them.
        progress: whether a stuck game (no capture for a while) is broken by the
            soonest capture the opponent cannot stop, when it costs next to nothing
            (``progress.py``).
        focus: the budget's multiple for placements made with at most
            ``FOCUS_EMPTIES`` empty cells (1: the same budget throughout).
    """

    name: str
    movetime_ms: int
    max_depth: int
    blunder: float = 0.0
    blunder_margin: int = 0
    placement_width: int = 10
    full_width_empties: int = FULL_WIDTH_EMPTIES
    placement_random: int = 1
    tables: bool = False
    progress: bool = False
    focus: float = 1.0

    @property
    def depth_limited(self) -> bool:
        """Whether depth, not time, decides how far the level looks."""
        return self.max_depth < 64

    def movetime_for(self, phase: str, choices: int, base_ms: int | None = None) -> int:
        """The budget for one action of this level, in milliseconds.

        ``base_ms`` (default: the level's ``movetime_ms``) is multiplied by ``focus``
        for a placement (``phase`` ``"p"``) among at most ``FOCUS_EMPTIES`` empty cells
        (``choices``: the legal placements, one per empty cell). A caller that names its
        own budget for one action (``--movetime``) gets exactly that instead: this is
        the level's default, not a cap it may exceed.
        """
        base = self.movetime_ms if base_ms is None else base_ms
        if phase == "p" and choices <= FOCUS_EMPTIES:
            return round(base * self.focus)
        return base


LEVEL_TABLE: dict[str, Level] = {
    "easy": Level("easy", 1000, 1, blunder=0.3, blunder_margin=150, placement_width=6, placement_random=3),
    "medium": Level("medium", 1000, 2, placement_width=6, full_width_empties=4),
    "hard": Level("hard", 1000, 64, tables=True, progress=True),
    "expert": Level(
        "expert", 3000, 64, placement_width=12, full_width_empties=8, tables=True, progress=True, focus=3.0
    ),
}


def get_level(name: str) -> Level:
    """The level called ``name`` (``ValueError`` naming the levels otherwise)."""
    try:
        return LEVEL_TABLE[name]
    except KeyError:
        raise ValueError(f"unknown level {name!r}; levels are {', '.join(LEVEL_TABLE)}") from None
