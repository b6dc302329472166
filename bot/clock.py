"""Injectable clocks: the real one and a fake one tests can move by hand.

The service and the scheduler never call :func:`time.time` directly, so timers
(turn deadlines, half-time reminders, challenge expiry) are testable in milliseconds.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    """Wall-clock time in epoch seconds, and a way to wait for it."""

    def now(self) -> float:
        """The current time, epoch seconds."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` of this clock's time."""
        ...


class SystemClock:
    """The real clock."""

    def now(self) -> float:
        """``time.time()``."""
        return time.time()

    async def sleep(self, seconds: float) -> None:
        """``asyncio.sleep``."""
        await asyncio.sleep(max(0.0, seconds))


class FakeClock:
    """A clock that only moves when told to (:meth:`advance`, :meth:`set`).

    ``sleep`` returns as soon as the clock has been moved past the wake-up time, so a
    scheduler loop under a fake clock runs exactly when a test advances time.
    """

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._moved = asyncio.Event() if _has_loop() else None

    def now(self) -> float:
        """The fake time."""
        return self._now

    def advance(self, seconds: float) -> float:
        """Move the clock forward; returns the new time."""
        return self.set(self._now + seconds)

    def set(self, when: float) -> float:
        """Move the clock to ``when``; returns it."""
        self._now = when
        if self._moved is not None:
            self._moved.set()
        return self._now

    async def sleep(self, seconds: float) -> None:
        """Wait until the clock has been advanced ``seconds`` past now."""
        wake = self._now + seconds
        if self._moved is None:
            self._moved = asyncio.Event()
        while self._now < wake:
            self._moved.clear()
            await self._moved.wait()


def _has_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True
