"""Colours and the result of a game, as plain data."""

from __future__ import annotations

from dataclasses import dataclass

BLACK = 0
WHITE = 1
COLOR_NAMES = ("black", "white")
COLOR_LETTERS = ("b", "w")

#: Every reason a game can end for (docs/rules.md section 5).
REASONS = (
    "capture-all",
    "reduced",
    "blocked",
    "move-limit",
    "turn-limit",
    "line",
    "no-line",
    "agreement",
    "resignation",
    "timeout",
    "abandoned",
)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended.

    Attributes:
        winner: ``BLACK``, ``WHITE`` or ``None`` for a draw.
        reason: one of :data:`REASONS`.
    """

    winner: int | None
    reason: str

    @property
    def result(self) -> str:
        """``1-0`` (Black wins), ``0-1`` (White wins) or ``1/2-1/2``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == BLACK else "0-1"

    def __str__(self) -> str:
        return f"{self.result} {self.reason}"

    @classmethod
    def from_result(cls, result: str, reason: str) -> Outcome:
        """The outcome written as ``1-0`` / ``0-1`` / ``1/2-1/2`` and a reason."""
        winners = {"1-0": BLACK, "0-1": WHITE, "1/2-1/2": None}
        if result not in winners:
            raise ValueError(f"{result!r:.40} is not a result; results are 1-0, 0-1 and 1/2-1/2")
        return cls(winners[result], reason)
