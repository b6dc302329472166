"""Timers: turn deadlines, half-time reminders and challenge expiry, from stored deadlines.

Deadlines live in the database, not in memory, so they survive restarts: at start the
scheduler plays any bot turn that was due, then :meth:`Scheduler.tick` applies everything
whose time has come, including deadlines that passed while the bot was down. Adapters
receive what happened through the ``on_event`` callback and announce it, one event at a
time as it happens.

Starting never waits for that overdue work: :meth:`Scheduler.start` returns at once and
the work runs in the background (the Discord client connects meanwhile), at most
``resume_concurrency`` bot turns at a time.

A bot turn that nobody started (the adapter failed to, say) is not left waiting until
the next restart either: every :data:`BOT_SWEEP_SECONDS` a tick plays the bot's turn in
games that have waited that long for it with no bot turn under way in this process.

Several processes may run a scheduler on one database: every action it takes is a
compare-and-swap in the service, so a timeout or a reminder happens once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.clock import Clock
from bot.results import ServiceError, TimerEvent
from bot.service import GameService

log = logging.getLogger(__name__)

EventCallback = Callable[[TimerEvent], Awaitable[None]]
#: Whether a channel (or thread) is known to be deleted: the adapter asks its platform.
ChannelCheck = Callable[[int], Awaitable[bool]]
#: Bot turns resumed at once after a restart (each holds an AI worker and a picture).
RESUME_CONCURRENCY = 2
#: Seconds between two sweeps for games left waiting for the bot with no bot turn under
#: way (the adapter could not start it, say): a lost bot turn is played within about
#: twice this (a game is swept once it has waited this long). 0 turns the sweep off.
BOT_SWEEP_SECONDS = 60.0
#: Seconds the loop waits before going on after its work failed.
LOOP_RETRY_SECONDS = 5.0


def _cancelled() -> bool:
    """Whether the current task is being cancelled (``task.cancel()``), as opposed to a
    ``CancelledError`` that reached it from something else: a job the AI pool dropped
    with a replaced pool, a future some other code cancelled. Only the first may stop
    the scheduler; the second ended its loop for good (outside review, atk40b)."""
    task = asyncio.current_task()
    return task is None or task.cancelling() > 0


class Scheduler:
    """Runs the service's timers.

    Args:
        service: the game service.
        on_event: called with every :class:`TimerEvent` (reminders, timeouts, expired
            challenges, resumed bot turns, bot turns retried after the AI failed);
            exceptions it raises are logged, not fatal.
        clock: the time source (defaults to the service's).
        max_sleep: the longest wait between checks, seconds (a safety net: the service
            also wakes the scheduler whenever it stores a new deadline).
        resume_concurrency: bot turns played at once when resuming after a restart (and
            by a sweep).
        bot_sweep: seconds between sweeps for games stuck waiting for the bot
            (:data:`BOT_SWEEP_SECONDS`; 0: none after the one at start).
        channel_gone: asked before a game's reminder or timeout whether its channel was
            deleted (while the bot was down: no event said so); then the game is
            abandoned, unrated, instead (:meth:`GameService.channel_deleted`). An error
            it raises counts as "not gone".
    """

    def __init__(
        self,
        service: GameService,
        on_event: EventCallback | None = None,
        clock: Clock | None = None,
        max_sleep: float = 60.0,
        resume_concurrency: int = RESUME_CONCURRENCY,
        bot_sweep: float = BOT_SWEEP_SECONDS,
        channel_gone: ChannelCheck | None = None,
    ) -> None:
        self.service = service
        self.on_event = on_event
        self.channel_gone = channel_gone
        self.clock = clock or service.clock
        self.max_sleep = max_sleep
        self.resume_concurrency = max(1, resume_concurrency)
        self.bot_sweep = max(0.0, bot_sweep)
        #: When the next sweep for stuck bot turns is due (``None``: never).
        self.next_sweep: float | None = self.clock.now() + self.bot_sweep if self.bot_sweep else None
        self._task: asyncio.Task[None] | None = None
        #: Set once the work that was overdue at start has been done (and announced).
        self.resumed = asyncio.Event()

    async def _emit(self, event: TimerEvent) -> None:
        if self.on_event is None:
            return
        try:
            await self.on_event(event)
        except Exception:
            log.exception("the timer event callback failed for %s", event.kind)

    async def tick(self, *, collect: bool = True) -> list[TimerEvent]:
        """Apply every timer that is due now, announcing each event as it happens.

        Returns the events when ``collect`` (for callers that look at them); the loop
        does not collect, so no finished board picture is held after it is posted.
        """
        events: list[TimerEvent] = []

        async def emit(event: TimerEvent) -> None:
            await self._emit(event)
            if collect:
                events.append(event)

        now = self.clock.now()
        storage = self.service.storage
        for challenge in await self.service.expire_challenges():
            await emit(TimerEvent("challenge_expired", challenge=challenge, ping=challenge.challenger.user_id))
        for row in await storage.due_timeouts(now):
            if await self._abandoned(row.channel_id):
                continue
            try:
                result = await self.service.timeout(row.id)
            except ServiceError as exc:
                log.warning("timing out game %d failed: %s", row.id, exc)
                continue
            if result is not None:
                loser = result.game_over.loser if result.game_over else None
                ping = None if loser is None or loser.is_bot else loser.user_id
                await emit(TimerEvent("timeout", game=result.game, turn=result, ping=ping))
        for row in await storage.due_reminders(now):
            if await self._abandoned(row.channel_id):
                continue
            event = await self.service.reminder(row.id)
            if event is not None:
                await emit(event)
        for channel in self.service.due_bot_retries(now):
            try:
                turn = await self.service.bot_turn(channel)
            except ServiceError as exc:
                log.warning("the bot's turn in channel %d is still waiting: %s", channel, exc)
                continue
            if turn.events or turn.game_over is not None:
                await emit(TimerEvent("bot_turn", game=turn.game, turn=turn, ping=turn.ping))
        if self.next_sweep is not None and now >= self.next_sweep:
            self.next_sweep = now + self.bot_sweep
            stuck = await self.service.stuck_bot_channels(now - self.bot_sweep)
            if stuck:
                log.warning("playing %d bot turn(s) nobody had started: channels %s", len(stuck), stuck)
                await self._play_bot_turns(stuck, emit)
        return events

    async def _abandoned(self, channel_id: int) -> bool:
        """Whether the channel of a due timer was deleted, its game now abandoned.

        Discord's event for a deleted channel ends its game at once; one deleted while
        the bot was down sends none, and the timeout rated the player to move as the
        loser of a game nobody could reach (outside review atk41c, F1). So the channel
        is checked before its timer acts, and a deleted one ends the game unrated.
        """
        if self.channel_gone is None:
            return False
        try:
            gone = await self.channel_gone(channel_id)
        except Exception:
            log.warning("could not check whether channel %d still exists; its timer goes on", channel_id, exc_info=True)
            return False
        if not gone:
            return False
        ended = await self.service.channel_deleted(channel_id)
        log.info("channel %d is gone: %d game(s) abandoned unrated", channel_id, len(ended.games))
        return True

    async def _play_bot_turns(self, channels: list[int], emit: EventCallback) -> None:
        """Play the bot's turn in each of ``channels`` (at most ``resume_concurrency`` at
        once), announcing each as soon as it is played."""
        slots = asyncio.Semaphore(self.resume_concurrency)

        async def play(channel_id: int) -> None:
            async with slots:
                try:
                    result = await self.service.bot_turn(channel_id)
                except ServiceError as exc:
                    log.warning("could not play the bot's turn in channel %d: %s", channel_id, exc)
                    return
                except Exception:
                    # One game's failure is that game's: the others are played all the same
                    # (a raise here left its siblings running unwatched, and the tick ended).
                    log.exception("the bot's turn failed in channel %d", channel_id)
                    return
            if not result.events and result.game_over is None:
                return  # the game moved on (or was not the bot's to play)
            await emit(TimerEvent("bot_turn", game=result.game, turn=result, ping=result.ping))

        await asyncio.gather(*(play(channel) for channel in channels))

    async def resume(self, *, collect: bool = True) -> list[TimerEvent]:
        """Play the bot turns that were due when the process stopped (at most
        ``resume_concurrency`` at once, each announced as soon as it is played), then
        :meth:`tick`."""
        events: list[TimerEvent] = []

        async def emit(event: TimerEvent) -> None:
            await self._emit(event)
            if collect:
                events.append(event)

        await self._play_bot_turns(await self.service.waiting_bot_channels(), emit)
        events += await self.tick(collect=collect)
        self.resumed.set()
        return events

    async def run(self) -> None:
        """Loop forever: sleep until the next due time (or a new deadline), then tick."""
        storage = self.service.storage
        changed = self.service.timers_changed
        while True:
            try:
                # Any timer stored from here on wakes us until we know how long to sleep:
                # then only timers earlier than the wake-up time do (see note_timer).
                changed.clear()
                self.service.timer_target = float("inf")
                stored = await storage.next_due()
                # The time is read after the storage: a clock moved during that read made
                # the loop sleep past the new time, and a due timer waited a whole sleep
                # (seen as a flaky timers test once the reads got faster, stop 40).
                now = self.clock.now()
                due = min(
                    (t for t in (stored, self.service.next_bot_retry(), self.next_sweep) if t is not None),
                    default=None,
                )
                if due is not None and due <= now:
                    await self.tick(collect=False)
                    continue
                wait = self.max_sleep if due is None else min(self.max_sleep, max(0.01, due - now))
                self.service.timer_target = min(self.service.timer_target, now + wait)
                sleeper = asyncio.ensure_future(self._sleep_until(now + wait))
                waker = asyncio.ensure_future(changed.wait())
                try:
                    await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    sleeper.cancel()
                    waker.cancel()
            except asyncio.CancelledError:
                if _cancelled():
                    raise
                log.exception("the scheduler loop met a CancelledError not meant for it; retrying in a few seconds")
                await asyncio.sleep(LOOP_RETRY_SECONDS)
            except Exception:
                log.exception("the scheduler loop failed; retrying in a few seconds")
                await asyncio.sleep(LOOP_RETRY_SECONDS)

    async def _sleep_until(self, when: float) -> None:
        """Sleep until ``when`` by this clock: the length is taken when the sleep begins,
        which is after the loop's task yields, so a clock moved in between is counted."""
        await self.clock.sleep(max(0.0, when - self.clock.now()))

    async def start(self) -> None:
        """Start the timers in the background: first the work that was overdue at start
        (:meth:`resume`), then :meth:`run`. Returns at once."""
        if self._task is not None:
            return
        self._task = asyncio.create_task(self._resume_then_run(), name="seega-scheduler")

    async def _resume_then_run(self) -> None:
        try:
            await self.resume(collect=False)
        except asyncio.CancelledError:
            if _cancelled():
                raise
            log.exception("resuming the overdue timers met a CancelledError not meant for it; the loop goes on")
        except Exception:
            log.exception("resuming the overdue timers and bot turns failed; the loop goes on")
        finally:
            self.resumed.set()
        await self.run()

    async def stop(self) -> None:
        """Stop the background loop."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
