"""Per-user limits: what one person can ask of the bot at once, so nobody stalls anyone else.

The numbers are documented in ``docs/limits.md``. Games and challenges are counted in the
database (so every process of a sharded bot sees the same counts); the AI queue is this
process's: each guild has a few AI turns thinking at once and a bounded line of turns
waiting, and each person at most one bot turn in it. A request that would overflow
either is refused at once with "busy, try again in N s" before anything changes, so a
game never waits for a bot turn that was refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
import weakref
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field

from bot.results import ServiceError


class LimitError(ServiceError):
    """A per-user limit was reached (too many challenges, games, or AI turns at once)."""

    key = "limit"


@dataclass(frozen=True)
class Limits:
    """The caps, per guild. See ``docs/limits.md`` for why each number."""

    #: Pending challenges one person may have open at once.
    pending_challenges: int = 3
    #: Pending challenges from one person to the same opponent (a rematch is a challenge).
    pending_to_one_opponent: int = 1
    #: Active games one person may play at once (against people and the bot).
    active_games: int = 5
    #: AI turns thinking at once in one guild.
    ai_running: int = 2
    #: AI turns waiting for a free slot in one guild; one more is refused as busy.
    ai_waiting: int = 8
    #: AI turns one person may have thinking or waiting at once.
    ai_per_user: int = 1


@dataclass
class _GuildLine:
    slots: asyncio.Semaphore
    running: int = 0
    waiting: int = 0
    per_user: dict[int, int] = field(default_factory=dict)


class AiQueue:
    """Who may ask the AI now, per guild and per person, and how long a refused one waits.

    Args:
        limits: the caps (``ai_running``, ``ai_waiting``, ``ai_per_user``).
        clock: a monotonic clock (seconds), for the wait estimate.
    """

    #: The estimate before any turn was timed (seconds per AI turn).
    DEFAULT_TURN_SECONDS = 2.0

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._lines: dict[int, _GuildLine] = {}
        self._durations: deque[float] = deque(maxlen=50)

    def _line(self, guild_id: int) -> _GuildLine:
        line = self._lines.get(guild_id)
        if line is None:
            line = self._lines[guild_id] = _GuildLine(asyncio.Semaphore(self.limits.ai_running))
        return line

    def retry_after(self, guild_id: int) -> int:
        """Seconds until the guild's line has room again, roughly (at least 1)."""
        line = self._line(guild_id)
        per_turn = sum(self._durations) / len(self._durations) if self._durations else self.DEFAULT_TURN_SECONDS
        ahead = line.waiting + 1
        return max(1, math.ceil(per_turn * ahead / self.limits.ai_running))

    def check(self, guild_id: int, user_id: int) -> None:
        """Refuse (a :class:`LimitError` ``ai_busy``) if a new AI turn for ``user_id`` would
        overflow the guild's line or the person's share of it."""
        line = self._line(guild_id)
        full = line.running >= self.limits.ai_running and line.waiting >= self.limits.ai_waiting
        if full or line.per_user.get(user_id, 0) >= self.limits.ai_per_user:
            raise LimitError("ai_busy", seconds=self.retry_after(guild_id))

    def in_line(self, guild_id: int) -> tuple[int, int]:
        """``(running, waiting)`` AI turns of the guild now."""
        line = self._line(guild_id)
        return line.running, line.waiting

    @asynccontextmanager
    async def slot(self, guild_id: int, user_id: int | None) -> AsyncIterator[None]:
        """Hold one of the guild's AI slots (waiting in line for it) while the AI thinks.

        Admission was checked (:meth:`check`) before the move that made this turn due;
        turns resumed after a restart come in without it and only wait.
        """
        line = self._line(guild_id)
        if user_id is not None:
            line.per_user[user_id] = line.per_user.get(user_id, 0) + 1
        line.waiting += 1
        try:
            try:
                await line.slots.acquire()
            finally:
                line.waiting -= 1  # in a slot now, or gave up waiting (cancelled)
            line.running += 1
            started = self.clock()
            try:
                yield
            finally:
                line.running -= 1
                line.slots.release()
                self._durations.append(self.clock() - started)
        finally:
            if user_id is not None:
                left = line.per_user.get(user_id, 1) - 1
                if left > 0:
                    line.per_user[user_id] = left
                else:
                    line.per_user.pop(user_id, None)


class OneAtATime:
    """One piece of a kind of work per person at a time; their next ones wait for it.

    For work that is cheap to ask for and costly to do in the shared thread pool (the
    pictures of a stored review, a replay): without it, one member repeating a request
    put as many drawings in the pool as they sent, in front of every other drawing of
    every server. Waiting here holds no thread, and each request is still answered.
    A person's lock lives only while one of their requests holds or awaits it.
    """

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def turn(self, user_id: int | None) -> AbstractAsyncContextManager[object]:
        """Hold ``user_id``'s turn (no wait for an unnamed asker: the console, a test)."""
        if user_id is None:
            return contextlib.nullcontext()
        lock = self._locks.get(user_id)
        if lock is None:
            lock = self._locks[user_id] = asyncio.Lock()
        return lock
