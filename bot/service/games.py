"""The games in play: the per-channel cache, the locks, loading and the one write path.

How a command is applied exactly once, even with several processes on one database:

1. a per-channel :class:`asyncio.Lock` serialises commands for one game in this process;
2. the game is taken from an in-memory cache (position already replayed) or loaded and
   replayed from the database, and the command is checked on a copy of the position;
3. the new state is written with ``UPDATE ... WHERE id = ? AND version = ?``. If another
   process changed the game first, nothing is written, the game is reloaded and the
   command checked again (it usually fails then: "it is not your turn").

A command refused on a cached position is also re-checked on a fresh load before the
error is shown, so a stale cache never produces a wrong refusal. Every use case that
changes a game goes through :meth:`Games.write`, so that rule and the one "busy, try
again" answer live here only.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TypeVar

from bot.ai_pool import AiRunner
from bot.clock import Clock
from bot.ratings import rate_game
from bot.results import (
    CorruptGameError,
    GameOver,
    GameOverServiceError,
    NoGameError,
    Player,
    RatingChange,
    ServiceError,
    StorageBusyError,
    player_words,
    score_words,
)
from bot.service import offers
from bot.service.limits import AiQueue, Limits
from bot.service.loaded import LoadedGame, replay, winner_of
from bot.service.rendering import Renderer
from bot.storage import GameRow, GameUpdate, SettingsRow, Storage
from bot.texts import Text
from engine import COLOR_NAMES, Action, Position, SeegaError

log = logging.getLogger(__name__)

#: Times a command is retried after losing a compare-and-swap race.
CAS_RETRIES = 5
#: Seconds a guild's settings are cached before being read again.
SETTINGS_TTL = 30.0

T = TypeVar("T")


#: Seconds past the deadline a command of the player to move is still played: it may have
#: been sent in time and judged later (see :meth:`Games.overdue`).
LATE_GRACE = 5.0


class Games:
    """The shared state of the use cases: storage, AI, renderer, clock, the cache of games.

    Args:
        storage: an opened :class:`~bot.storage.Storage`.
        ai: the runner that chooses bot turns (never run on the event loop).
        renderer: draws boards and replays (``bot.render``), or ``None`` for no images.
        clock: the time source (a fake one in tests).
        rng: randomness for colour draws (seed it in tests).
        limits: the per-user caps (default :class:`~bot.service.limits.Limits`).
    """

    def __init__(
        self,
        storage: Storage,
        ai: AiRunner,
        renderer: Renderer | None,
        clock: Clock,
        rng: random.Random,
        limits: Limits | None = None,
    ) -> None:
        self.storage = storage
        #: The per-user caps (``docs/limits.md``) and this process's AI line.
        self.limits = limits or Limits()
        self.ai_queue = AiQueue(self.limits)
        self.ai = ai
        self.renderer = renderer
        self.clock = clock
        self.rng = rng
        #: Set when a deadline or expiry earlier than ``timer_target`` is stored, so the
        #: scheduler (which sleeps until ``timer_target``) wakes early for it.
        self.timers_changed = asyncio.Event()
        self.timer_target = float("-inf")
        self.cache: dict[int, LoadedGame] = {}
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        #: guild -> (settings, when read, monotonic): re-read after SETTINGS_TTL so that a
        #: change made through another process (shard) reaches this one soon; on
        #: PostgreSQL the change is announced at once and the entry dropped.
        self._settings: dict[int, tuple[SettingsRow, float]] = {}
        storage.on_settings_changed(self.forget_settings)

    def note_timer(self, when: float | None) -> None:
        """A timer was stored for ``when``: wake the scheduler if it sleeps past it.

        Only earlier timers wake it, so a busy server does not make the scheduler query
        the database after every turn. Call it once the timer is written, never before:
        woken earlier, the scheduler reads the timers without it and sleeps its whole
        ``max_sleep``, and nothing wakes it again (outside review atk41c, F7).
        """
        if when is not None and when < self.timer_target:
            self.timer_target = when
            self.timers_changed.set()

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The lock serialising changes to the channel's game in this process."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[channel_id] = lock
        return lock

    # ----------------------------------------------------------------- settings
    async def settings(self, guild_id: int, *, fresh: bool = False) -> SettingsRow:
        """The guild's settings, cached for :data:`SETTINGS_TTL` seconds."""
        cached = self._settings.get(guild_id)
        if cached is not None and not fresh and time.monotonic() - cached[1] < SETTINGS_TTL:
            return cached[0]
        settings = await self.storage.settings(guild_id)
        self._settings[guild_id] = (settings, time.monotonic())
        return settings

    def remember_settings(self, settings: SettingsRow) -> None:
        self._settings[settings.guild_id] = (settings, time.monotonic())

    def forget_settings(self, guild_id: int | None) -> None:
        """Drop a guild's cached settings: another process saved new ones (``None``:
        changes may have been missed, drop every guild's)."""
        if guild_id is None:
            self._settings.clear()
        else:
            self._settings.pop(guild_id, None)

    # ----------------------------------------------------------------- loading
    async def restore(self, row: GameRow, *, set_aside: bool = True) -> Position:
        """Replay a stored game; it must reproduce the stored SPN.

        Raises:
            CorruptGameError: the record does not replay or ends elsewhere; the game has
                been set aside (status ``corrupt``) and an error logged.
        """
        try:
            pos = replay(row)
            problem = None if pos.spn() == row.spn else f"replay gives {pos.spn()!r}, stored {row.spn!r}"
        except SeegaError as exc:
            problem = f"the record does not replay: {exc}"
        if problem is None:
            return pos
        log.error("game %d in channel %d is corrupt and set aside: %s", row.id, row.channel_id, problem)
        if set_aside and row.status == "active":
            await self.storage.set_aside(row.id, problem, self.clock.now())
            self.cache.pop(row.channel_id, None)
        raise CorruptGameError("corrupt_game", game_id=row.id)

    async def no_game(self, channel_id: int) -> ServiceError:
        """The error for a channel without an active game (naming how the last one ended)."""
        return await no_game_error(self.storage, channel_id)

    async def load(self, channel_id: int, fresh: bool = False) -> tuple[LoadedGame, bool]:
        """The channel's active game and whether it was just read from the database."""
        cached = self.cache.get(channel_id)
        if cached is not None and not fresh:
            return cached, False
        row = await self.storage.active_game(channel_id)
        if row is None:
            self.cache.pop(channel_id, None)
            raise await self.no_game(channel_id)
        if cached is not None and cached.row.id == row.id and cached.row.version == row.version:
            cached.row = row
            return cached, True
        loaded = LoadedGame(row, await self.restore(row))
        self.cache[channel_id] = loaded
        return loaded, True

    # ----------------------------------------------------------------- writing
    async def write(
        self, channel_id: int, attempt: Callable[[LoadedGame], Awaitable[T | None]], *, fresh: bool = False
    ) -> T:
        """Apply a change to the channel's game under its lock, retrying lost races.

        ``attempt(game)`` checks the request (raising a :class:`ServiceError` to refuse)
        and stores the change with a compare-and-swap; it returns ``None`` when another
        process changed the game first. A refusal on a cached game, or a lost race, is
        tried again on a fresh load; after :data:`CAS_RETRIES` lost races the answer is
        one "busy, try again". ``fresh`` skips the cache from the first try (for answers
        that change nothing, which no compare-and-swap would catch being stale).
        """
        async with self.lock(channel_id):
            fresh_needed = fresh
            for _ in range(CAS_RETRIES):
                g, fresh = await self.load(channel_id, fresh_needed)
                try:
                    done = await attempt(g)
                except ServiceError:
                    if fresh:
                        raise
                    fresh_needed = True
                    continue
                if done is not None:
                    return done
                fresh_needed = True
                log.info("game %d changed under us (version %d); retrying", g.row.id, g.row.version)
        raise StorageBusyError("game_changed")

    async def deadline_for(self, g: LoadedGame, pos: Position, now: float) -> tuple[float | None, float | None]:
        """(deadline, remind_at) for the player to move in ``pos``: the time per turn the
        game started with; the server's setting only for a game stored before games kept
        theirs (a setting changed mid-game shortened the opponent's clock: atk41c F4)."""
        if pos.result is not None:
            return None, None
        if g.player(pos.side).is_bot:
            return None, None
        timeout = g.row.turn_timeout
        if timeout is None:
            timeout = (await self.settings(g.row.guild_id)).turn_timeout
        return now + timeout, now + timeout / 2

    async def commit(
        self, g: LoadedGame, pos: Position, actions: list[Action]
    ) -> tuple[LoadedGame, GameOver | None] | None:
        """Store the actions played on ``pos`` (a copy of ``g.pos``); ``None`` if the
        compare-and-swap lost (the caller reloads and retries)."""
        now = self.clock.now()
        text = " ".join(str(a) for a in actions)
        all_actions = f"{g.row.actions} {text}".strip()
        turn_done = pos.turn != g.pos.turn or pos.side != g.pos.side
        outcome = pos.outcome()
        if outcome is not None:
            return await self.finish(g, pos, all_actions, outcome.result, outcome.reason)
        if turn_done:
            deadline, remind_at = await self.deadline_for(g, pos, now)
        else:
            deadline, remind_at = g.row.deadline, g.row.remind_at
        # An offer lapses when the player who could accept it plays on (bot.service.offers).
        offer = offers.after_turn(g.row.end_offer, COLOR_NAMES[g.pos.side]) if turn_done else g.row.end_offer
        loaded = await self.store(g, pos, all_actions, now, deadline, remind_at, offer)
        return None if loaded is None else (loaded, None)

    async def store(
        self,
        g: LoadedGame,
        pos: Position,
        actions: str,
        now: float,
        deadline: float | None,
        remind_at: float | None,
        offer: str | None,
        *,
        takeback: bool = False,
    ) -> LoadedGame | None:
        """Write ``pos`` (reached by ``actions``) over ``g`` with the version
        compare-and-swap, and cache it; ``None`` if another writer won. ``takeback``: the
        hints taken past ``actions`` are unmarked in the same transaction."""
        update = GameUpdate(
            game_id=g.row.id,
            expected_version=g.row.version,
            actions=actions,
            spn=pos.spn(),
            updated_at=now,
            deadline=deadline,
            remind_at=remind_at,
            end_offer=offer,
        )
        if takeback:
            written = await self.storage.take_back(update, len(actions.split()))
        else:
            written = await self.storage.update_game(update)
        if not written:
            return None
        row = replace(
            g.row,
            actions=actions,
            spn=update.spn,
            version=g.row.version + 1,
            updated_at=now,
            deadline=deadline,
            remind_at=remind_at,
            end_offer=offer,
        )
        loaded = LoadedGame(row, pos)
        self.cache[row.channel_id] = loaded
        # Only once written: noted before, it woke the scheduler to read the old, later
        # due time and sleep its whole max_sleep past the new one (atk41c F7).
        self.note_timer(remind_at if remind_at is not None else deadline)
        return loaded

    def overdue(self, g: LoadedGame) -> bool:
        """Whether the time of the player to move in ``g`` has run out (and the clock
        runs): their command comes too late, whether or not the scheduler has applied
        the timeout yet. The deadline is the rule, not the scheduler's punctuality.

        A command is judged when its turn comes in the channel, which may be after it was
        sent: it waited behind another write, or Discord was slow to deliver it. So it is
        late only :data:`LATE_GRACE` seconds past the deadline (outside review atk41d F2:
        a move sent a second before the deadline lost on time). The scheduler applies the
        timeout at the deadline itself; a command already queued in the channel by then
        is ahead of it."""
        deadline = g.row.deadline
        return deadline is not None and g.row.paused_at is None and deadline + LATE_GRACE <= self.clock.now()

    # ----------------------------------------------------------------- a stopped clock
    async def pause_clock(self, channel_id: int) -> bool:
        """Stop the clock of the channel's game (the console table closes): its deadline
        and reminder wait until :meth:`resume_clock`. ``False`` if it has no game."""
        now = self.clock.now()

        async def attempt(g: LoadedGame) -> bool | None:
            if g.row.paused_at is not None:
                return True
            if not await self.storage.pause_clock(g.row.id, g.row.version, now):
                return None
            self.cache[channel_id] = LoadedGame(replace(g.row, paused_at=now, version=g.row.version + 1), g.pos)
            return True

        try:
            return await self.write(channel_id, attempt, fresh=True)
        except (NoGameError, GameOverServiceError):
            return False

    async def resume_clock(self, channel_id: int) -> float | None:
        """Start the clock of the channel's game again, its deadline and reminder moved by
        the time it stood: since :meth:`pause_clock`, or, when it was not stopped (the
        table was not closed cleanly: the time it closed is unknown), since the game was
        last saved. Returns the seconds moved, or ``None`` if there is no game."""
        now = self.clock.now()

        async def attempt(g: LoadedGame) -> float | None:
            since = g.row.paused_at if g.row.paused_at is not None else g.row.updated_at
            shift = max(0.0, now - since)
            if g.row.paused_at is None and g.row.deadline is None:
                return shift  # nothing to move (the bot's turn, or no timer)
            if not await self.storage.resume_clock(g.row.id, g.row.version, now, shift):
                return None
            row = replace(
                g.row,
                deadline=None if g.row.deadline is None else g.row.deadline + shift,
                remind_at=None if g.row.remind_at is None else g.row.remind_at + shift,
                paused_at=None,
                updated_at=now,
                version=g.row.version + 1,
            )
            self.cache[channel_id] = LoadedGame(row, g.pos)
            self.note_timer(row.remind_at if row.remind_at is not None else row.deadline)
            return shift

        try:
            return await self.write(channel_id, attempt, fresh=True)
        except (NoGameError, GameOverServiceError):
            return None

    async def set_offer(self, g: LoadedGame, offer: str | None) -> LoadedGame | None:
        """Store an offer to end by count (``None`` if the compare-and-swap lost)."""
        update = GameUpdate(
            game_id=g.row.id,
            expected_version=g.row.version,
            actions=g.row.actions,
            spn=g.row.spn,
            updated_at=self.clock.now(),
            deadline=g.row.deadline,
            remind_at=g.row.remind_at,
            end_offer=offer,
        )
        if not await self.storage.update_game(update):
            return None
        loaded = LoadedGame(replace(g.row, end_offer=offer, version=g.row.version + 1), g.pos)
        self.cache[g.row.channel_id] = loaded
        return loaded

    async def finish(
        self,
        g: LoadedGame,
        pos: Position,
        actions: str,
        result: str,
        reason: str,
        status: str = "finished",
        answer: tuple[int, str] | None = None,
    ) -> tuple[LoadedGame, GameOver] | None:
        """End the game (rating it between people) in one transaction; ``None`` if the
        compare-and-swap lost. ``answer`` settles the question that asked for this end in
        the same transaction (see :meth:`~bot.storage.Storage.finish_game`; it raises
        :class:`~bot.storage.QuestionSettledError` when the question was answered first)."""
        now = self.clock.now()
        rated = status == "finished" and g.row.black_level is None and g.row.white_level is None
        rated = rated and g.row.black_id != g.row.white_id
        update = GameUpdate(
            game_id=g.row.id,
            expected_version=g.row.version,
            actions=actions,
            spn=pos.spn(),
            updated_at=now,
            status=status,
            result=result,
            reason=reason,
            ended_at=now,
        )
        score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)
        applied, ratings = await self.storage.finish_game(update, rate_game if rated else None, score, answer)
        if not applied:
            return None
        self.cache.pop(g.row.channel_id, None)
        row = replace(
            g.row,
            actions=actions,
            spn=update.spn,
            status=status,
            result=result,
            reason=reason,
            version=g.row.version + 1,
            updated_at=now,
            ended_at=now,
            deadline=None,
            remind_at=None,
            end_offer=None,
        )
        changes: tuple[RatingChange, ...] = ()
        if ratings is not None:
            (b0, w0), (b1, w1) = ratings
            changes = tuple(
                RatingChange(old.user_id, old.name, g.row.size, old.rating, new.rating, old.rd, new.rd)
                for old, new in ((b0, b1), (w0, w1))
            )
        winner_color = winner_of(result) if status == "finished" else None
        loaded = LoadedGame(row, pos)
        over = GameOver(
            result=result,
            reason=reason,
            winner=None if winner_color is None else loaded.player(winner_color),
            loser=None if winner_color is None else loaded.player(1 - winner_color),
            rated=ratings is not None,
            rating_changes=changes,
        )
        log.info("game %d ended %s %s", row.id, result, reason)
        return loaded, over


async def no_game_error(storage: Storage, channel_id: int) -> ServiceError:
    """The error for a channel without an active game, naming how the last one ended.

    One answer for every command about the channel's game (a console play-test found
    "takeback" saying the game was over and "resign" and "hint" that there was none).
    """
    last = await storage.latest_game(channel_id)
    if last is not None and last.status == "finished":
        reason = Text.of(f"reason.{last.reason}")
        if last.result not in ("1-0", "0-1"):
            return GameOverServiceError("game_over_draw", game_id=last.id, result=last.result, reason=reason)
        won = Player(last.black_id, last.black_name) if last.result == "1-0" else Player(last.white_id, last.white_name)
        winner = player_words(won)  # worded in the reader's language ("فاز Player 2" at an Arabic table)
        score = score_words(last.result)
        return GameOverServiceError("game_over", game_id=last.id, winner=winner, result=score, reason=reason)
    return NoGameError("no_game")
