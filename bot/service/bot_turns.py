"""The bot's turns: ask the AI (off the event loop), store its turn, report it step by step.

The AI thinks without holding the channel's lock, so people can look at the board (or
resign) meanwhile; its turn is stored only if the game is still the one it thought about.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Sequence
from dataclasses import replace

from bot.ai_pool import AiUnavailableError
from bot.results import (
    BotUnavailableError,
    GameOver,
    ServiceError,
    StorageBusyError,
    StorageFullError,
    StorageReadOnlyError,
    TurnEvent,
    TurnResult,
)
from bot.service.catalog import DEFAULT_LEVEL
from bot.service.failures import disk_is_full, is_read_only
from bot.service.games import Games
from bot.service.loaded import LoadedGame
from bot.service.snapshots import (
    board_png,
    last_png,
    pass_events,
    play_forced_passes,
    public_reader,
    reader_language,
    turn_event,
    turn_result,
)
from engine import Action, Position, SeegaError
from engine.actions import END, PASS, PLACE
from engine.ai import TurnRequest, turn_problem
from engine.summary import summarize_turn

log = logging.getLogger(__name__)


def _being_cancelled() -> bool:
    """Whether the current task is being cancelled, as opposed to a ``CancelledError``
    that reached it from elsewhere (an AI job cancelled with a replaced pool): that one
    is an AI failure and is retried, or the game waited for the bot with no retry
    (outside review, atk40b)."""
    task = asyncio.current_task()
    return task is None or task.cancelling() > 0


#: Bot turns played in a row at most (a bot removal can be followed by another bot turn).
MAX_BOT_TURNS = 8
#: Seconds before the first retry of a bot turn the AI could not answer; doubled after
#: each failure up to the maximum.
BOT_RETRY_FIRST = 5.0
BOT_RETRY_MAX = 300.0

BotOutcome = tuple[LoadedGame, list[TurnEvent], GameOver | None]


def storage_trouble(exc: BaseException) -> bool:
    """Whether ``exc`` is a passing refusal of the database to save (locked, full,
    read-only, an I/O error): the bot's turn waits and is tried again, as when the AI fails."""
    if isinstance(exc, (StorageBusyError, StorageFullError, StorageReadOnlyError, sqlite3.OperationalError)):
        return True
    return disk_is_full(exc) or is_read_only(exc) or isinstance(exc, OSError)


def turn_seed(game_id: int, version: int) -> int:
    """The seed of the bot's turn in a game at a version of its row.

    The AI queue keys a job by its request and hands a stored answer to whoever asks the
    same: without a seed, every game reaching a position at a level got one search's
    answer for an hour, and every easy game of the hour opened alike (review atk41a,
    finding 8). The game and version make the request its own, and keep it the same
    when a restarted process asks for the same turn again (one job, as before).
    """
    return game_id * 1_000_003 + version


class BotTurns:
    """Plays the service's AI opponent."""

    def __init__(self, games: Games) -> None:
        self.games = games
        #: channel -> (when to try the bot's turn again, the delay used): bot turns the AI
        #: could not answer (or the database not save). The scheduler retries them (see
        #: :meth:`due_retries`).
        self._retry: dict[int, tuple[float, float]] = {}
        #: Channels whose bot turn is under way in this process: never a second one at once
        #: (the scheduler's sweep for stuck games leaves them alone, :meth:`stuck_channels`).
        self._running: set[int] = set()

    async def bot_turn(self, channel_id: int) -> TurnResult:
        """Play the bot's turn(s) if the bot is to move in the channel's game.

        A bot turn already under way for the channel in this process is not started a
        second time: the result is then the game as it stands, with no events (the turn
        under way reports its own).

        Raises:
            BotUnavailableError: the AI could not answer, or the database could not save
                its turn; the game waits and the bot's turn is tried again later
                (:meth:`due_retries`).
        """
        if channel_id in self._running:
            g, _ = await self.games.load(channel_id)
            return turn_result(g)
        self._running.add(channel_id)
        try:
            return await self._bot_turn(channel_id)
        finally:
            self._running.discard(channel_id)

    async def _bot_turn(self, channel_id: int) -> TurnResult:
        try:
            g, _ = await self.games.load(channel_id, fresh=True)
        except ServiceError:
            self._retry.pop(channel_id, None)
            raise
        if g.to_move is None or not g.to_move.is_bot:
            self._retry.pop(channel_id, None)
            human = g.white if g.black.is_bot else g.black
            self.games.ai_queue.release(g.row.guild_id, human.user_id, channel_id)  # nothing to think
            return turn_result(g)
        bot = await self.play(channel_id, g)
        if bot is None:
            g, _ = await self.games.load(channel_id, fresh=True)
            return turn_result(g)
        g, events, over = bot
        # Still the bot's move after MAX_BOT_TURNS (the person keeps having to pass): the
        # adapter asks again, so a long run of forced passes never stalls the game.
        again = over is None and g.to_move is not None and g.to_move.is_bot
        return turn_result(g, events, over, last_png(events), bot_to_move=again)

    async def play(self, channel_id: int, g: LoadedGame) -> BotOutcome | None:
        """Ask the AI for the bot's turn(s) and store them; ``None`` if the game changed
        meanwhile (a resignation, a cancel)."""
        events: list[TurnEvent] = []
        over: GameOver | None = None
        games = self.games
        reply_start = g.pos.copy()  # the picture shows the whole reply from here
        reply: list[Action] = []
        #: Pieces the reply took before its last forced pass: still crossed out on the
        #: pictures drawn from that pass (play-test, stop 40: "took d6" was drawn nowhere).
        taken: list[tuple[int, int]] = []
        lang = await reader_language(games, public_reader(g))  # the reply's pictures: read once
        for _ in range(MAX_BOT_TURNS):
            player = g.to_move
            if player is None or not player.is_bot:
                break
            rules = g.pos.rules
            request = TurnRequest(
                variant=rules.variant,
                size=rules.size,
                options=tuple(o for o in g.row.options.split(",") if o),
                actions=tuple(g.row.action_list),
                setup=g.row.setup,
                level=player.bot_level or DEFAULT_LEVEL,
                seed=turn_seed(g.row.id, g.row.version),
            )
            human = g.white if g.black.is_bot else g.black
            try:
                async with games.ai_queue.slot(g.row.guild_id, None if human.is_bot else human.user_id, channel_id):
                    texts = await games.ai.choose_turn(request)
                problem = turn_problem(g.pos, texts)
                if problem is not None:
                    # Never played at random in the AI's name: an AI failure, retried.
                    raise AiUnavailableError(f"the AI answered an illegal turn ({problem})")
            except (Exception, asyncio.CancelledError) as exc:
                if isinstance(exc, asyncio.CancelledError) and _being_cancelled():
                    raise  # this bot turn was cancelled (a shutdown): not an AI failure
                # Never a move chosen by anyone but the AI: the game waits for a retry.
                log.exception("the AI failed in game %d; the bot will try again later", g.row.id)
                seconds = self._retry_later(channel_id)
                error = BotUnavailableError("bot_unavailable", game=g.row.id, seconds=seconds)
                if events:
                    break
                raise error from None
            async with games.lock(channel_id):
                current = games.cache.get(channel_id)
                if current is None or current.row.id != g.row.id or current.row.version != g.row.version:
                    return None
                pos = g.pos.copy()
                played = self._actions(g, pos, texts)
                passes = play_forced_passes(g, pos)  # the person's pass, if it is all they can do
                try:
                    done = await games.commit(g, pos, played + [a for a, _ in passes])
                except Exception as exc:
                    if not storage_trouble(exc):
                        raise
                    # Nothing was saved (each write is one transaction): the game waits
                    # for a retry, as when the AI fails. Raised, it hung the game for good:
                    # the player was told to "try again", which only the bot can.
                    log.warning("could not save the bot's turn in game %d (%s); trying again later", g.row.id, exc)
                    seconds = self._retry_later(channel_id)
                    error = BotUnavailableError("bot_not_saved", game=g.row.id, seconds=seconds)
                    if events:
                        break
                    raise error from None
                self._retry.pop(channel_id, None)  # answered and saved: the next failure backs off afresh
                if done is None:
                    games.cache.pop(channel_id, None)
                    return None
                before = g.pos
                g, over = done
            events.extend(await self._events(g, before, played, reply_start, reply, lang, taken))
            after = before.copy()
            for action in played:
                after.push(action)
            events.extend(pass_events(g, after, passes))
            if passes:
                # The person was walled in and passed: the next picture starts at that
                # pass. A reply of five bot turns between five passes drew eight
                # numbered arrows over one another (the bot shuffling c1-c2), and its
                # footer ran out of room (newcomer play-test, stop 35); the text lists
                # every turn.
                for action, _ in passes[:-1]:
                    after.push(action)
                gone = summarize_turn(reply_start, reply)
                taken.extend(c for c in (*gone.captured, *gone.removed) if after.piece_at(c[0]) is None)
                reply_start = after
                reply = [passes[-1][0]]
            if over is not None:
                break
        return g, events, over

    def _retry_later(self, channel_id: int) -> int:
        """Schedule another try of the bot's turn (backing off); the seconds until then."""
        _, last = self._retry.get(channel_id, (0.0, 0.0))
        delay = BOT_RETRY_FIRST if last <= 0 else min(BOT_RETRY_MAX, last * 2)
        when = self.games.clock.now() + delay
        self._retry[channel_id] = (when, delay)
        self.games.note_timer(when)
        return round(delay)

    def next_retry(self) -> float | None:
        """When the earliest retry of a bot turn is due, or ``None``."""
        return min((when for when, _ in self._retry.values()), default=None)

    def due_retries(self, now: float) -> list[int]:
        """Channels whose bot turn should be tried again now, each claimed once: call
        :meth:`bot_turn` for each (a new failure schedules the next try, later)."""
        due = [channel for channel, (when, _) in self._retry.items() if when <= now]
        for channel in due:
            self._retry[channel] = (float("inf"), self._retry[channel][1])
        return due

    def _actions(self, g: LoadedGame, pos: Position, texts: list[str]) -> list[Action]:
        """Play the AI's turn on ``pos``; finish it with random legal actions if the AI's
        answer was short or illegal (logged: that is a bug in the AI)."""
        turn, side = pos.turn, pos.side
        played: list[Action] = []
        for text in texts:
            if pos.turn != turn or pos.side != side or pos.result is not None:
                break
            try:
                played.append(pos.play(text))
            except SeegaError as exc:
                log.error("the AI chose an illegal action in game %d: %s", g.row.id, exc)
                break
        while pos.turn == turn and pos.side == side and pos.result is None:
            if texts:
                log.error("the AI's turn in game %d was incomplete; completing it at random", g.row.id)
                texts = []
            action = self.games.rng.choice(pos.legal_actions())
            pos.push(action)
            played.append(action)
        return played

    async def _events(
        self,
        g: LoadedGame,
        before: Position,
        played: list[Action],
        reply_start: Position,
        reply: list[Action],
        lang: str,
        taken: Sequence[tuple[int, int]] = (),
    ) -> list[TurnEvent]:
        """One event per step or removal of a bot turn (placements grouped), with images.

        Each image shows the bot's whole reply so far (``reply``, played from
        ``reply_start``, grows as it goes): a placement and the chain after it in one
        picture, every step numbered and every capture marked; ``lang`` is the
        language of the person the bot plays. ``taken``: the (cell, colour) of pieces the
        reply took before the person's last forced pass, which the picture (drawn from
        that pass) crosses out too.
        """
        groups: list[list[Action]] = []
        for a in played:
            if groups and (a.kind in (END, PASS) or (a.kind == PLACE and groups[-1][-1].kind == PLACE)):
                groups[-1].append(a)
            else:
                groups.append([a])
        events = []
        pos = before.copy()
        for group in groups:
            start = pos.copy()
            for a in group:
                pos.push(a)
            event = turn_event(g, start, pos, group)
            reply.extend(group)
            picture = summarize_turn(reply_start, reply)
            if taken:  # what the reply took before the person's pass, crossed out still
                picture = replace(picture, captured=(*taken, *picture.captured))
            png = await board_png(self.games, g, pos, picture, lang=lang)
            events.append(replace(event, png=png))
        return events

    async def waiting_channels(self) -> list[int]:
        """Channels whose game waits for the bot (its turn was due when the process stopped)."""
        return [row.channel_id for row in await self.games.storage.bot_games_waiting()]

    async def stuck_channels(self, idle_since: float) -> list[int]:
        """Channels whose game has waited for the bot since ``idle_since`` or longer with
        no bot turn under way here nor a retry scheduled: its turn was lost (an adapter
        that failed to start it, a crash). The scheduler's sweep plays them."""
        out = []
        for row in await self.games.storage.bot_games_waiting():
            fields = row.spn.split()
            side = fields[1] if len(fields) > 1 else ""
            bot_to_move = (side == "b" and row.black_level is not None) or (side == "w" and row.white_level is not None)
            channel = row.channel_id
            if bot_to_move and row.updated_at <= idle_since and channel not in self._running | self._retry.keys():
                out.append(channel)
        return out

    async def resume(self) -> list[TurnResult]:
        """Play, one after the other, the bot turns that were due when the process stopped."""
        out = []
        for channel_id in await self.waiting_channels():
            try:
                g, _ = await self.games.load(channel_id, fresh=True)
                if g.to_move is not None and g.to_move.is_bot:
                    out.append(await self.bot_turn(channel_id))
            except ServiceError as exc:
                log.warning("could not resume the bot in channel %d: %s", channel_id, exc)
        return out
