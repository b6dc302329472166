"""Durations as people type them: ``45s``, ``10m``, ``1h``, ``3d`` (and ``1h30m``, ``2 hours``).

Guild settings take timeouts this way (docs/commands.md): from 30 seconds to 7 days.
"""

from __future__ import annotations

from bot import texts
from bot.results import clip_typed

MIN_SECONDS = 30
MAX_SECONDS = 7 * 24 * 3600
#: The units read, one letter each: those typed in English and those the Arabic settings
#: show (``duration.*`` in ar.json: ث seconds, د minutes, س hours, ي days), so what
#: :func:`format_duration` shows can be typed back.
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "ث": 1, "د": 60, "س": 3600, "ي": 86400}
#: English unit words, singular and plural ("2 hours" was refused while "90M" was read:
#: play-test), each read as its one-letter unit.
_UNIT_WORDS = {
    **{word: "s" for word in ("sec", "secs", "second", "seconds")},
    **{word: "m" for word in ("min", "mins", "minute", "minutes")},
    **{word: "h" for word in ("hr", "hrs", "hour", "hours")},
    **{word: "d" for word in ("day", "days")},
}
#: The longest unit word: a longer run of letters is no unit (and is not copied whole).
_LONGEST_UNIT = max(map(len, _UNIT_WORDS))
#: Significant digits of one number beyond which the duration is out of range anyway
#: (and far below Python's 4,300-digit limit on converting text to int).
_MAX_DIGITS = 12


class DurationError(ValueError):
    """Text that is not a duration, or one out of range; the message says what is allowed."""

    def __init__(self, message: str, *, out_of_range: bool = False) -> None:
        super().__init__(message)
        #: Whether the text was a duration, only too short or too long.
        self.out_of_range = out_of_range


def parse_duration(text: str, minimum: int = MIN_SECONDS, maximum: int = MAX_SECONDS) -> int:
    """Seconds in ``text`` such as ``45s``, ``10m``, ``1h``, ``3d``, ``1h30m`` or ``2 hours``
    (English unit words: ``sec``, ``min``, ``hour``, ``day``, singular or plural), or the
    Arabic form the settings show, ``1س 30د``.

    Raises:
        DurationError: unreadable, or outside ``minimum``..``maximum``.
    """
    t = text.strip().lower().replace(" ", "")
    allowed = f"write a duration like 45s, 10m, 1h or 3d, from {format_duration(minimum)} to {format_duration(maximum)}"
    parts = _parts(t)
    if parts is None:
        raise DurationError(f"{clip_typed(text)!r} is not a duration; {allowed}")
    if any(len(digits.lstrip("0")) > _MAX_DIGITS for digits, _ in parts):
        raise DurationError(f"{clip_typed(text.strip())} is out of range; {allowed}", out_of_range=True)
    seconds = sum(int(digits.lstrip("0") or "0") * _UNITS[unit] for digits, unit in parts)
    if not minimum <= seconds <= maximum:
        raise DurationError(f"{clip_typed(text.strip())} is out of range; {allowed}", out_of_range=True)
    return seconds


def _parts(t: str) -> list[tuple[str, str]] | None:
    """``"1h30m"`` -> ``[("1", "h"), ("30", "m")]`` (``"1 hour 30 minutes"`` too: a unit
    is one letter or an English word, :data:`_UNIT_WORDS`); ``None`` unless ``t`` is only
    such parts.

    A scan that reads each character once: a pattern like ``(\\d+)\\s*([smhd])`` applied
    at every position backtracked quadratically (1.3 s for 10,000 digits, issue 9 item 1).
    """
    parts = []
    i, n = 0, len(t)
    while i < n:
        start = i
        while i < n and t[i].isdecimal():
            i += 1
        digits = t[start:i]
        while i < n and t[i].isspace():
            i += 1
        start = i
        while i < n and t[i].isalpha() and i - start <= _LONGEST_UNIT:
            i += 1
        unit = t[start:i]
        unit = unit if unit in _UNITS else _UNIT_WORDS.get(unit, "")
        if not digits or not unit:
            return None
        parts.append((digits, unit))
        while i < n and t[i].isspace():
            i += 1
    return parts or None


#: Each unit's catalogue key (``duration.hours``: ``{count}h``, ``{count}س``).
_UNIT_KEYS = {"d": "duration.days", "h": "duration.hours", "m": "duration.minutes", "s": "duration.seconds"}


def format_duration(seconds: float, lang: str | None = None) -> str:
    """A short form: as it is typed (``45s``, ``10m``, ``1h30m``, ``3d``) without ``lang``,
    as the language abbreviates its units with it (``duration.*``: English the typed form,
    Arabic "1س 30د", the units of the pictures' clock, native review).

    The typed form stays where the reader must type one (the refusal of a bad duration
    says its range as it is typed); a duration to read (the settings, a reminder) is
    said in the reader's language."""
    s = max(0, round(seconds))
    parts: list[tuple[str, int]] = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        if s >= size or (unit == "s" and not parts):
            n, s = divmod(s, size)
            parts.append((unit, n))
    if lang is None:
        return "".join(f"{n}{unit}" for unit, n in parts)
    said = [texts.text(lang, _UNIT_KEYS[unit], count=n) for unit, n in parts]
    return texts.text(lang, "duration.sep").join(said)
