"""Per-user limits: what one person can ask of the bot at once, so nobody stalls anyone else.

The numbers are documented in ``docs/limits.md``. Games and challenges are counted in the
database (so every process of a sharded bot sees the same counts); the AI queue is this
process's: each guild has a few AI turns thinking at once and a bounded line of turns
waiting, and each person at most one bot turn in the whole process, whichever servers
they play in. A request that would overflow either is refused at once with "busy, try
again in N s" before anything changes, so a game never waits for a bot turn that was
refused.

The person's share is process-wide, not per server: anyone can make servers and invite
the bot, and with a share per server one member playing the bot in eight servers held
eight bot turns at once, every AI worker, while a player elsewhere waited five times as
long (outside review, ``ai_across_guilds.py``). Hints and reviews do not count in it:
they run in the coach's own slot of the workers (one job at a time for everybody), and
each person already has at most one hint search and one review computed at once there,
in the whole process (:class:`OneAtATime`, ``coach_reviews``). So one person holds at
most one worker for bot turns and, at times, the coach's one slot.
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
    #: Seconds a person whose challenge was declined (or who withdrew it) waits before
    #: challenging the same person again: each challenge pings them.
    rechallenge_after: float = 120.0
    #: Pending challenges from one person to the same opponent (a rematch is a challenge).
    pending_to_one_opponent: int = 1
    #: Active games one person may play at once (against people and the bot).
    active_games: int = 5
    #: AI turns thinking at once in one guild.
    ai_running: int = 2
    #: AI turns waiting for a free slot in one guild; one more is refused as busy.
    ai_waiting: int = 8
    #: AI turns one person may have thinking or waiting at once, in all guilds together.
    ai_per_user: int = 1


#: Seconds a place kept for a due bot turn lasts if that turn never joins the line (the
#: adapter asks for it at once; a crash or a resignation in between must not keep the
#: person out of the line for long).
PROMISE_SECONDS = 30.0


@dataclass
class _GuildLine:
    slots: asyncio.Semaphore
    running: int = 0
    waiting: int = 0
    #: user -> {channel: until when}: bot turns let in by :meth:`AiQueue.check` that have
    #: not joined the line yet (the move that makes one due is stored in between).
    promised: dict[int, dict[int, float]] = field(default_factory=dict)

    def promises(self, now: float) -> int:
        """The places kept now (expired ones are dropped)."""
        for user_id in list(self.promised):
            kept = {c: until for c, until in self.promised[user_id].items() if until > now}
            if kept:
                self.promised[user_id] = kept
            else:
                del self.promised[user_id]
        return sum(len(kept) for kept in self.promised.values())


class AiQueue:
    """Who may ask the AI now, per guild and per person, and how long a refused one waits.

    The lines (slots, waiting) are per guild; a person's share (``ai_per_user``) counts
    their bot turns in every guild's line, and the places kept for them, together.

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
        #: user -> their bot turns thinking or waiting, in every guild's line.
        self._people: dict[int, int] = {}
        #: user -> the guilds where a place is kept for them (:meth:`check`).
        self._promised_in: dict[int, set[int]] = {}

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

    def _held(self, user_id: int, guild_id: int, channel_id: int, now: float) -> int:
        """The bot turns ``user_id`` has in line or kept places for, in every guild, but
        for the place kept for ``channel_id`` itself (it is replaced, not added)."""
        held = self._people.get(user_id, 0)
        guilds = self._promised_in.get(user_id, set())
        for gid in list(guilds):
            line = self._line(gid)
            line.promises(now)  # drops expired places
            mine = line.promised.get(user_id, {})
            if not mine:
                guilds.discard(gid)
            held += len(mine) - (gid == guild_id and channel_id in mine)
        if not guilds:
            self._promised_in.pop(user_id, None)
        return held

    def check(self, guild_id: int, user_id: int, channel_id: int) -> None:
        """Refuse (a :class:`LimitError` ``ai_busy``) if a new AI turn for ``user_id`` would
        overflow the guild's line or the person's share (in all guilds together); else
        keep its place.

        The bot turn joins the line only later (:meth:`slot`), after the move that makes
        it due is stored and answered; until then its place is kept here, so that moves
        sent together in several bot games cannot all pass the check before the first
        of their bot turns joins (the place of ``channel_id`` itself is replaced, not
        counted twice, when a move is checked again after a lost race).
        """
        line = self._line(guild_id)
        now = self.clock()
        kept = line.promises(now)
        mine = line.promised.get(user_id, {})
        others_kept = kept - (channel_id in mine)
        waiting = line.waiting + others_kept
        full = line.running >= self.limits.ai_running and waiting >= self.limits.ai_waiting
        if self._held(user_id, guild_id, channel_id, now) >= self.limits.ai_per_user:
            # the person's own share, in whichever server: not "busy in this server"
            raise LimitError("ai_busy_you", seconds=self.retry_after(guild_id))
        if full:
            raise LimitError("ai_busy", seconds=self.retry_after(guild_id))
        line.promised.setdefault(user_id, {})[channel_id] = now + PROMISE_SECONDS
        self._promised_in.setdefault(user_id, set()).add(guild_id)

    def release(self, guild_id: int, user_id: int | None, channel_id: int) -> None:
        """Give back the place kept for ``channel_id``'s bot turn (the move was not stored,
        or the bot has nothing to play there)."""
        if user_id is None:
            return
        line = self._line(guild_id)
        mine = line.promised.get(user_id)
        if mine is not None:
            mine.pop(channel_id, None)
            if not mine:
                del line.promised[user_id]
                guilds = self._promised_in.get(user_id)
                if guilds is not None:
                    guilds.discard(guild_id)
                    if not guilds:
                        del self._promised_in[user_id]

    def in_line(self, guild_id: int) -> tuple[int, int]:
        """``(running, waiting)`` AI turns of the guild now."""
        line = self._line(guild_id)
        return line.running, line.waiting

    @asynccontextmanager
    async def slot(self, guild_id: int, user_id: int | None, channel_id: int | None = None) -> AsyncIterator[None]:
        """Hold one of the guild's AI slots (waiting in line for it) while the AI thinks.

        Admission was checked (:meth:`check`) before the move that made this turn due,
        and the place it kept becomes this turn's place in line; turns resumed after a
        restart come in without it and only wait.
        """
        line = self._line(guild_id)
        if user_id is not None:
            if channel_id is not None:
                self.release(guild_id, user_id, channel_id)
            self._people[user_id] = self._people.get(user_id, 0) + 1
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
                left = self._people.get(user_id, 1) - 1
                if left > 0:
                    self._people[user_id] = left
                else:
                    self._people.pop(user_id, None)


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
