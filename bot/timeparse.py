"""Durations as people type them: ``45s``, ``10m``, ``1h``, ``3d`` (and ``1h30m``).

Guild settings take timeouts this way (docs/commands.md): from 30 seconds to 7 days.
"""

from __future__ import annotations

import re

MIN_SECONDS = 30
MAX_SECONDS = 7 * 24 * 3600
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_PART = re.compile(r"(\d+)\s*([smhd])")


class DurationError(ValueError):
    """Text that is not a duration, or one out of range; the message says what is allowed."""

    def __init__(self, message: str, *, out_of_range: bool = False) -> None:
        super().__init__(message)
        #: Whether the text was a duration, only too short or too long.
        self.out_of_range = out_of_range


def parse_duration(text: str, minimum: int = MIN_SECONDS, maximum: int = MAX_SECONDS) -> int:
    """Seconds in ``text`` such as ``45s``, ``10m``, ``1h``, ``3d`` or ``1h30m``.

    Raises:
        DurationError: unreadable, or outside ``minimum``..``maximum``.
    """
    t = text.strip().lower().replace(" ", "")
    allowed = f"write a duration like 45s, 10m, 1h or 3d, from {format_duration(minimum)} to {format_duration(maximum)}"
    if not t or _PART.sub("", t) != "":
        raise DurationError(f"{text!r} is not a duration; {allowed}")
    seconds = sum(int(n) * _UNITS[u] for n, u in _PART.findall(t))
    if not minimum <= seconds <= maximum:
        raise DurationError(f"{text.strip()} is out of range; {allowed}", out_of_range=True)
    return seconds


def format_duration(seconds: float) -> str:
    """A short human form: ``45s``, ``10m``, ``1h30m``, ``3d``."""
    s = round(seconds)
    if s <= 0:
        return "0s"
    out = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        if s >= size:
            n, s = divmod(s, size)
            out.append(f"{n}{unit}")
    return "".join(out)
