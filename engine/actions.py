"""Actions: small frozen values that round-trip through the notation of docs/rules.md.

``Action.parse("b2-c2")`` and ``str(action)`` convert; ``repr`` shows the text too.
A turn is one or more actions by one side (a placement pair, a capture chain, a removal
followed by a step).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import cell_name, parse_cell
from engine.errors import InvalidActionError, quoted

PLACE = "place"
STEP = "step"
REMOVE = "remove"
END = "end"
PASS = "pass"


@dataclass(frozen=True, slots=True)
class Action:
    """One engine step.

    Attributes:
        kind: ``place`` (also a replacement in the five-in-a-row phase), ``step``,
            ``remove``, ``end`` or ``pass``.
        src: the global cell placed on, stepped from or removed; -1 for end and pass.
        dst: the global cell stepped to; -1 otherwise.
    """

    kind: str
    src: int = -1
    dst: int = -1

    @classmethod
    def parse(cls, text: str) -> Action:
        """An action from its notation: ``a1``, ``b2-c2``, ``xd4``, ``end`` or ``pass``."""
        t = text.strip().lower()
        if t == "end":
            return END_ACTION
        if t == "pass":
            return PASS_ACTION
        try:
            if "-" in t:
                a, _, b = t.partition("-")
                return cls(STEP, parse_cell(a), parse_cell(b))
            if t.startswith("x"):
                return cls(REMOVE, parse_cell(t[1:]))
            return cls(PLACE, parse_cell(t))
        except InvalidActionError:
            raise InvalidActionError(
                f"{quoted(text, 40)} is not an action; "
                "actions are written a1 (place), b2-c2 (step), xd4 (remove), end or pass"
            ) from None

    def __str__(self) -> str:
        if self.kind == PLACE:
            return cell_name(self.src)
        if self.kind == STEP:
            return f"{cell_name(self.src)}-{cell_name(self.dst)}"
        if self.kind == REMOVE:
            return "x" + cell_name(self.src)
        return self.kind

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


END_ACTION = Action(END)
PASS_ACTION = Action(PASS)
