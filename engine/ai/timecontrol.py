"""Time control: how long to think, and when the search must stop.

The budget is per action (docs/rules.md section 8's ``--movetime``). The contract is that a
search never overruns it by more than 10% + 50 ms, so the hard deadline keeps a safety
margin for the work done after the search stops (building the answer) and the search
polls the clock every few hundred nodes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

#: Fraction of the budget after which no new iteration is started, where time saved is
#: worth something (the coach's analysis of many positions): an iteration costs several
#: times the previous one, so one started late rarely finishes.
SOFT_FRACTION = 0.55
#: The same for choosing a move to play: 1, search until the hard deadline. An action's
#: budget cannot be saved for a later one, and an unfinished iteration is not wasted: a
#: root move that beat the previous best in it was searched with a full window and is
#: played (``Searcher.search``). With 0.55 a search used about 70% of its budget.
PLAY_SOFT_FRACTION = 1.0
#: Time kept back for the caller's own overhead (copying, replying).
MARGIN_S = 0.012


class SearchTimeout(Exception):
    """Raised inside the search when the hard deadline has passed."""


@dataclass
class Clock:
    """A budget started at creation.

    Attributes:
        start: ``time.perf_counter()`` when thinking began.
        budget_s: the whole budget in seconds (``None``: no time limit).
    """

    start: float
    budget_s: float | None
    soft_fraction: float = SOFT_FRACTION

    @classmethod
    def for_budget(cls, movetime_ms: int | None, soft_fraction: float = SOFT_FRACTION) -> Clock:
        """A clock for ``movetime_ms`` milliseconds (``None`` or 0: unlimited); no new
        iteration starts after ``soft_fraction`` of it."""
        budget = None if not movetime_ms else max(0.001, movetime_ms / 1000.0)
        return cls(time.perf_counter(), budget, soft_fraction)

    @property
    def hard_deadline(self) -> float:
        """When the search must stop at once (infinity if unlimited)."""
        if self.budget_s is None:
            return float("inf")
        return self.start + max(0.0005, self.budget_s - MARGIN_S)

    def elapsed(self) -> float:
        """Seconds since thinking began."""
        return time.perf_counter() - self.start

    def may_start_iteration(self) -> bool:
        """Whether one more iterative-deepening pass is worth starting."""
        return self.budget_s is None or self.elapsed() < self.soft_fraction * self.budget_s
