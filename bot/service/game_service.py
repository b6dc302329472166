"""The game service: every use case of BOT.md, over storage, the engine, the AI and the renderer.

It knows nothing of Discord. Adapters call its async methods with plain ids and names and
get back the plain results of :mod:`bot.results`; bad requests raise a
:class:`~bot.results.ServiceError` whose message says what was wrong and what is allowed.

How a turn is applied exactly once, even with several processes on one database:

1. a per-channel :class:`asyncio.Lock` serialises commands for one game in this process;
2. the game is taken from an in-memory cache (position already replayed) or loaded and
   replayed from the database, and the command is checked on a copy of the position;
3. the new state is written with ``UPDATE ... WHERE id = ? AND version = ?``. If another
   process changed the game first, nothing is written, the game is reloaded and the
   command checked again (it usually fails then: "it is not your turn").

A command refused on a cached position is also re-checked on a fresh load before the
error is shown, so a stale cache never produces a wrong refusal.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from bot.ai_pool import AiRunner
from bot.clock import Clock, SystemClock
from bot.ratings import rate_game
from bot.results import (
    BOT_LEVELS,
    BadInputError,
    ChallengeError,
    ChallengeResult,
    ChallengeView,
    ChannelBusyError,
    CorruptGameError,
    GameOver,
    GameOverServiceError,
    GameSummary,
    GameView,
    GuildSettings,
    IllegalMoveError,
    LeaderboardEntry,
    NoGameError,
    NotAPlayerError,
    NotYourTurnError,
    OfferResult,
    Player,
    PlayerStats,
    RatingChange,
    RatingView,
    RecordResult,
    ServiceError,
    StorageBusyError,
    Tally,
    TimerEvent,
    TurnEvent,
    TurnResult,
)
from bot.service import commands
from bot.service.coach import Coach
from bot.service.coach_work import default_pictures, work_for
from bot.service.rendering import Renderer
from bot.storage import ChallengeRow, ChannelTakenError, GameRow, GameUpdate, NewGame, SettingsRow, Storage
from bot.timeparse import DurationError, parse_duration
from engine import BLACK, COLOR_NAMES, WHITE, Action, GameRecord, Outcome, Position, Ruleset, SeegaError
from engine.actions import END, PASS, PLACE, REMOVE, STEP
from engine.board import parse_cell
from engine.rules import PRESETS
from engine.summary import TurnSummary, summarize_turn

log = logging.getLogger(__name__)

#: Board sizes people can choose (BOT.md).
SIZES = (5, 7, 9)
COLORS = ("black", "white", "random")
#: Times a command is retried after losing a compare-and-swap race.
CAS_RETRIES = 5
#: Seconds a guild's settings are cached before being read again.
SETTINGS_TTL = 30.0
#: Bot turns played in a row at most (a bot removal can be followed by another bot turn).
MAX_BOT_TURNS = 8


@dataclass
class _Loaded:
    """A game row with its replayed position (the cache entry)."""

    row: GameRow
    pos: Position

    @cached_property
    def black(self) -> Player:
        r = self.row
        return Player(r.black_id, r.black_name, r.black_level)

    @cached_property
    def white(self) -> Player:
        r = self.row
        return Player(r.white_id, r.white_name, r.white_level)

    def player(self, color: int) -> Player:
        return self.black if color == BLACK else self.white

    @property
    def to_move(self) -> Player | None:
        if self.row.status != "active":
            return None
        return self.player(self.pos.side)

    def color_of(self, user_id: int) -> int | None:
        if self.row.black_id == user_id and self.row.black_level is None:
            if self.row.white_id == user_id and self.row.white_level is None:
                return self.pos.side  # a hot-seat game: one person plays both colours
            return BLACK
        if self.row.white_id == user_id and self.row.white_level is None:
            return WHITE
        return None


# --------------------------------------------------------------------------- helpers


def _result_of(winner: int | None) -> str:
    return "1/2-1/2" if winner is None else ("1-0" if winner == BLACK else "0-1")


def _winner_of(result: str | None) -> int | None:
    return {"1-0": BLACK, "0-1": WHITE}.get(result or "")


def _spn_turn(spn: str) -> int:
    try:
        return int(spn.split()[-1])
    except (ValueError, IndexError):
        return 1


class GameService:
    """Use cases of the bot. One instance per process; safe for many concurrent callers.

    Args:
        storage: an opened :class:`~bot.storage.Storage`.
        ai: the runner that chooses bot turns (never run on the event loop).
        renderer: draws boards and replays (``bot.render``), or ``None`` for no images.
        clock: the time source (a fake one in tests).
        rng: randomness for colour draws (seed it in tests).
    """

    def __init__(
        self,
        storage: Storage,
        ai: AiRunner,
        renderer: Renderer | None = None,
        clock: Clock | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.storage = storage
        self.ai = ai
        self.renderer = renderer
        self.clock: Clock = clock or SystemClock()
        self.rng = rng or random.Random()
        #: Set when a deadline or expiry earlier than ``timer_target`` is stored, so the
        #: scheduler (which sleeps until ``timer_target``) wakes early for it.
        self.timers_changed = asyncio.Event()
        self.timer_target = float("-inf")
        self._games: dict[int, _Loaded] = {}
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        #: guild -> (settings, when read, monotonic): re-read after SETTINGS_TTL so that a
        #: change made through another process (shard) reaches this one soon.
        self._settings: dict[int, tuple[SettingsRow, float]] = {}
        #: Hints, reviews, puzzles, lessons and rating charts (bot.service.coach).
        self.coach = Coach(storage, self.clock, work_for(ai), default_pictures() if renderer else None, rng=self.rng)

    def note_timer(self, when: float | None) -> None:
        """A timer was stored for ``when``: wake the scheduler if it sleeps past it.

        Only earlier timers wake it, so a busy server does not make the scheduler query
        the database after every turn.
        """
        if when is not None and when < self.timer_target:
            self.timer_target = when
            self.timers_changed.set()

    # ================================================================= loading
    def _lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[channel_id] = lock
        return lock

    async def _restore(self, row: GameRow, *, set_aside: bool = True) -> Position:
        """Replay a stored game; it must reproduce the stored SPN.

        Raises:
            CorruptGameError: the record does not replay or ends elsewhere; the game has
                been set aside (status ``corrupt``) and an error logged.
        """
        try:
            rules = Ruleset.make(row.variant, row.size, [o for o in row.options.split(",") if o])
            pos = Position.from_spn(row.setup, rules) if row.setup else Position(rules)
            for text in row.action_list:
                pos.play(text)
            problem = None if pos.spn() == row.spn else f"replay gives {pos.spn()!r}, stored {row.spn!r}"
        except SeegaError as exc:
            problem = f"the record does not replay: {exc}"
        if problem is None:
            return pos
        log.error("game %d in channel %d is corrupt and set aside: %s", row.id, row.channel_id, problem)
        if set_aside and row.status == "active":
            await self.storage.set_aside(row.id, problem, self.clock.now())
            self._games.pop(row.channel_id, None)
        raise CorruptGameError(
            f"The game in this channel (#{row.id}) could not be restored and was set aside; "
            "start a new game with /seega challenge or /seega play-bot.",
            "corrupt_game",
            game_id=row.id,
        )

    async def _no_game(self, channel_id: int) -> ServiceError:
        """The error for a channel without an active game (naming how the last one ended)."""
        last = await self.storage.latest_game(channel_id)
        start = "start one with /seega challenge or /seega play-bot"
        if last is not None and last.status == "finished":
            how = (
                "a draw"
                if last.result == "1/2-1/2"
                else (f"{last.black_name if last.result == '1-0' else last.white_name} won")
            )
            return GameOverServiceError(
                f"The game in this channel is over ({how}, {last.result} by {last.reason}); {start}.",
                "game_over",
                game_id=last.id,
                result=last.result,
                reason=last.reason,
            )
        return NoGameError(f"There is no game in this channel; {start}.", "no_game")

    async def _load(self, channel_id: int, fresh: bool = False) -> tuple[_Loaded, bool]:
        """The channel's active game and whether it was just read from the database."""
        cached = self._games.get(channel_id)
        if cached is not None and not fresh:
            return cached, False
        row = await self.storage.active_game(channel_id)
        if row is None:
            self._games.pop(channel_id, None)
            raise await self._no_game(channel_id)
        if cached is not None and cached.row.id == row.id and cached.row.version == row.version:
            cached.row = row
            return cached, True
        loaded = _Loaded(row, await self._restore(row))
        self._games[channel_id] = loaded
        return loaded, True

    async def _settings_for(self, guild_id: int) -> SettingsRow:
        cached = self._settings.get(guild_id)
        if cached is not None and time.monotonic() - cached[1] < SETTINGS_TTL:
            return cached[0]
        settings = await self.storage.settings(guild_id)
        self._settings[guild_id] = (settings, time.monotonic())
        return settings

    # ================================================================= views
    def _view(self, g: _Loaded) -> GameView:
        r, pos = g.row, g.pos
        return GameView(
            id=r.id,
            guild_id=r.guild_id,
            channel_id=r.channel_id,
            variant=r.variant,
            size=r.size,
            options=r.options,
            black=g.black,
            white=g.white,
            spn=r.spn,
            status=r.status,
            phase=pos.phase,
            to_move=g.to_move,
            turn=pos.turn,
            pieces=(pos.count(BLACK), pos.count(WHITE)),
            hand=(pos.hand[0], pos.hand[1]),
            result=r.result,
            reason=r.reason,
            deadline=r.deadline,
            end_offer_by=r.end_offer,
            created_at=r.created_at,
            ended_at=r.ended_at,
        )

    async def _png(self, g: _Loaded, pos: Position, summary: TurnSummary | None) -> bytes | None:
        if self.renderer is None:
            return None
        outcome = None
        if g.row.status == "finished" and g.row.result in ("1-0", "0-1", "1/2-1/2") and pos.result is None:
            outcome = Outcome.from_result(g.row.result, g.row.reason or "abandoned")
        players = (g.row.black_name, g.row.white_name)
        try:
            if outcome is None:
                return await asyncio.to_thread(self.renderer.render_board, pos, summary, players=players)
            return await asyncio.to_thread(self.renderer.render_board, pos, summary, players=players, outcome=outcome)
        except Exception:  # a picture is never worth losing a turn over
            log.exception("rendering game %d failed", g.row.id)
            return None

    def _result(
        self,
        g: _Loaded,
        events: Sequence[TurnEvent] = (),
        game_over: GameOver | None = None,
        png: bytes | None = None,
        acted_by: int | None = None,
        bot_to_move: bool = False,
    ) -> TurnResult:
        to_move = g.to_move
        pos = g.pos
        legal_actions = pos.legal_actions() if to_move is not None else []
        chain = any(a.kind == END for a in legal_actions)
        ping = None
        if to_move is not None and not to_move.is_bot and to_move.user_id != acted_by:
            ping = to_move.user_id
        legal = tuple(sorted(commands.action_text(a) for a in legal_actions))
        return TurnResult(
            game=self._view(g),
            events=tuple(events),
            to_move=to_move,
            ping=ping,
            chain_pending=chain,
            legal=legal,
            game_over=game_over,
            bot_to_move=bot_to_move,
            png=png,
        )

    def _event(
        self, g: _Loaded, before: Position, after: Position, actions: list[Action], spn: str | None = None
    ) -> TurnEvent:
        summary = summarize_turn(before, actions)
        names = before.geo.names
        return TurnEvent(
            player=g.player(before.side),
            color=COLOR_NAMES[before.side],
            actions=tuple(str(a) for a in actions),
            summary=summary,
            placed=tuple(names[c] for c in summary.placed),
            captured=tuple(names[c] for c, _ in summary.captured),
            removed=tuple(names[c] for c, _ in summary.removed),
            turn_complete=after.turn != before.turn or after.side != before.side or after.result is not None,
            spn=spn or after.spn(),
        )

    # ================================================================= committing
    async def _deadline_for(self, g: _Loaded, pos: Position, now: float) -> tuple[float | None, float | None]:
        """(deadline, remind_at) for the player to move in ``pos``."""
        if pos.result is not None:
            return None, None
        if g.player(pos.side).is_bot:
            return None, None
        timeout = (await self._settings_for(g.row.guild_id)).turn_timeout
        return now + timeout, now + timeout / 2

    async def _commit(self, g: _Loaded, pos: Position, actions: list[Action]) -> tuple[_Loaded, GameOver | None] | None:
        """Store the actions played on ``pos`` (a copy of ``g.pos``); ``None`` if the
        compare-and-swap lost (the caller reloads and retries)."""
        now = self.clock.now()
        text = " ".join(str(a) for a in actions)
        all_actions = f"{g.row.actions} {text}".strip()
        turn_done = pos.turn != g.pos.turn or pos.side != g.pos.side
        outcome = pos.outcome()
        if outcome is not None:
            return await self._finish(g, pos, all_actions, outcome.result, outcome.reason, now)
        if turn_done:
            deadline, remind_at = await self._deadline_for(g, pos, now)
            self.note_timer(remind_at)
        else:
            deadline, remind_at = g.row.deadline, g.row.remind_at
        # An offer to end by count lapses when the player who could accept it plays on.
        offer = g.row.end_offer
        if offer is not None and turn_done and COLOR_NAMES[g.pos.side] != offer:
            offer = None
        update = GameUpdate(
            game_id=g.row.id,
            expected_version=g.row.version,
            actions=all_actions,
            spn=pos.spn(),
            updated_at=now,
            deadline=deadline,
            remind_at=remind_at,
            end_offer=offer,
        )
        if not await self.storage.update_game(update):
            return None
        row = replace(
            g.row,
            actions=update.actions,
            spn=update.spn,
            version=g.row.version + 1,
            updated_at=now,
            deadline=deadline,
            remind_at=remind_at,
            end_offer=offer,
        )
        loaded = _Loaded(row, pos)
        self._games[row.channel_id] = loaded
        return loaded, None

    async def _finish(
        self, g: _Loaded, pos: Position, actions: str, result: str, reason: str, now: float, status: str = "finished"
    ) -> tuple[_Loaded, GameOver] | None:
        """End the game (rating it between people) in one transaction."""
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
        applied, ratings = await self.storage.finish_game(update, rate_game if rated else None, score)
        if not applied:
            return None
        self._games.pop(g.row.channel_id, None)
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
        winner_color = _winner_of(result) if status == "finished" else None
        loaded = _Loaded(row, pos)
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

    async def _transact(
        self,
        channel_id: int,
        user_id: int | None,
        apply: Callable[[_Loaded, Position], list[Action]],
        *,
        need_turn: bool = True,
    ) -> tuple[_Loaded, list[Action], Position, GameOver | None]:
        """Check and store a command under the channel lock, retrying lost races.

        ``apply(game, pos)`` plays the command's actions on ``pos`` (a copy) and returns
        them, or raises a :class:`ServiceError`.

        Returns:
            ``(game after, actions, position before, game over)``.
        """
        async with self._lock(channel_id):
            fresh_needed = False
            for _ in range(CAS_RETRIES):
                g, fresh = await self._load(channel_id, fresh_needed)
                try:
                    if user_id is not None:
                        self._check_player(g, user_id, need_turn)
                    pos = g.pos.copy()
                    actions = apply(g, pos)
                except ServiceError:
                    if fresh:
                        raise
                    fresh_needed = True
                    continue
                done = await self._commit(g, pos, actions)
                if done is not None:
                    return done[0], actions, g.pos, done[1]
                fresh_needed = True
                log.info("game %d changed under us (version %d); retrying", g.row.id, g.row.version)
        raise StorageBusyError(
            "The game changed several times while your command was being applied; please try again.",
            "storage_busy",
        )

    def _check_player(self, g: _Loaded, user_id: int, need_turn: bool = True) -> int:
        color = g.color_of(user_id)
        if color is None:
            raise NotAPlayerError(
                f"Only the two players, {g.black.name} and {g.white.name}, can play in this game; "
                "anybody may look with /seega board.",
                "not_a_player",
                black=g.black.name,
                white=g.white.name,
            )
        if need_turn and color != g.pos.side:
            other = g.player(g.pos.side)
            if other.is_bot:
                raise NotYourTurnError("It is the bot's turn; it is thinking.", "not_your_turn_bot")
            raise NotYourTurnError(
                f"It is not your turn: {other.name} ({COLOR_NAMES[g.pos.side]}) plays now.",
                "not_your_turn",
                player=other.name,
                color=COLOR_NAMES[g.pos.side],
            )
        return color

    # ================================================================= playing
    async def _after_human(
        self,
        channel_id: int,
        done: tuple[_Loaded, list[Action], Position, GameOver | None],
        user_id: int,
        bot_reply: bool,
    ) -> TurnResult:
        g, actions, before, over = done
        event = self._event(g, before, g.pos, actions, g.row.spn)
        png = await self._png(g, g.pos, event.summary)
        event = replace(event, png=png)
        events = [event]
        if over is None and g.to_move is not None and g.to_move.is_bot:
            if not bot_reply:
                return self._result(g, events, None, png, acted_by=user_id, bot_to_move=True)
            bot = await self._bot_turns(channel_id, g)
            if bot is not None:
                g, bot_events, over = bot
                events.extend(bot_events)
                png = bot_events[-1].png if bot_events else png
        return self._result(g, events, over, png, acted_by=user_id)

    async def place(
        self, channel_id: int, user_id: int, first: str, second: str | None = None, *, bot_reply: bool = True
    ) -> TurnResult:
        """Place one or two pieces (``first`` may also hold both cells: ``"a1 b2"``).

        With one cell, one piece is placed and the same player places the rest of the
        turn next.
        """
        cells = [c for c in re.split(r"[\s,;]+", first or "") if c]
        if second and second.strip():
            cells.append(second.strip())
        if not cells:
            raise BadInputError("Say where to place: a cell like b2, or two cells like a1 b2.", "missing_cell")
        if len(cells) > 2:
            raise BadInputError(f"A turn places at most two pieces, not {len(cells)}.", "too_many_cells")
        done = await self._transact(channel_id, user_id, lambda g, pos: commands.play_place(pos, cells))
        return await self._after_human(channel_id, done, user_id, bot_reply)

    async def move(
        self, channel_id: int, user_id: int, frm: str, to: str | None = None, *, bot_reply: bool = True
    ) -> TurnResult:
        """Step a piece; ``frm`` may hold both cells (``"b2 c2"``, ``"b2-c2"``) with ``to`` empty.

        Inside a chain of captures each capturing step is its own command; the result's
        ``chain_pending`` says the player may capture again or end the turn.
        """
        src, dst = commands.parse_move(frm, to)
        done = await self._transact(channel_id, user_id, lambda g, pos: commands.play_step(pos, src, dst))
        return await self._after_human(channel_id, done, user_id, bot_reply)

    async def remove(self, channel_id: int, user_id: int, cell: str, *, bot_reply: bool = True) -> TurnResult:
        """The removal a blocked-player rule asks for (or a replacement in five-in-a-row)."""
        done = await self._transact(channel_id, user_id, lambda g, pos: commands.play_remove(pos, cell))
        return await self._after_human(channel_id, done, user_id, bot_reply)

    async def end_turn(self, channel_id: int, user_id: int, *, bot_reply: bool = True) -> TurnResult:
        """Stop a chain of captures (also plays ``pass`` when that is the only action)."""
        done = await self._transact(channel_id, user_id, lambda g, pos: commands.play_end(pos))
        return await self._after_human(channel_id, done, user_id, bot_reply)

    async def bot_turn(self, channel_id: int) -> TurnResult:
        """Play the bot's turn(s) if the bot is to move in the channel's game."""
        g, _ = await self._load(channel_id, fresh=True)
        if g.to_move is None or not g.to_move.is_bot:
            return self._result(g)
        bot = await self._bot_turns(channel_id, g)
        if bot is None:
            g, _ = await self._load(channel_id, fresh=True)
            return self._result(g)
        g, events, over = bot
        return self._result(g, events, over, events[-1].png if events else None)

    async def _bot_turns(self, channel_id: int, g: _Loaded) -> tuple[_Loaded, list[TurnEvent], GameOver | None] | None:
        """Ask the AI for the bot's turn(s) and store them; ``None`` if the game changed
        meanwhile (a resignation, a cancel)."""
        events: list[TurnEvent] = []
        over: GameOver | None = None
        for _ in range(MAX_BOT_TURNS):
            player = g.to_move
            if player is None or not player.is_bot:
                break
            rules = g.pos.rules
            from engine.ai import TurnRequest

            request = TurnRequest(
                variant=rules.variant,
                size=rules.size,
                options=tuple(o for o in g.row.options.split(",") if o),
                actions=tuple(g.row.action_list),
                setup=g.row.setup,
                level=player.bot_level or "medium",
            )
            try:
                texts = await self.ai.choose_turn(request)
            except Exception:
                log.exception("the AI failed in game %d; playing a random legal turn", g.row.id)
                texts = []
            async with self._lock(channel_id):
                current = self._games.get(channel_id)
                if current is None or current.row.id != g.row.id or current.row.version != g.row.version:
                    return None
                pos = g.pos.copy()
                played = self._bot_actions(g, pos, texts)
                done = await self._commit(g, pos, played)
                if done is None:
                    self._games.pop(channel_id, None)
                    return None
                before = g.pos
                g, over = done
            events.extend(await self._bot_events(g, before, played))
            if over is not None:
                break
        return g, events, over

    def _bot_actions(self, g: _Loaded, pos: Position, texts: list[str]) -> list[Action]:
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
            action = self.rng.choice(pos.legal_actions())
            pos.push(action)
            played.append(action)
        return played

    async def _bot_events(self, g: _Loaded, before: Position, played: list[Action]) -> list[TurnEvent]:
        """One event per step or removal of a bot turn (placements grouped), with images."""
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
            event = self._event(g, start, pos, group)
            events.append(replace(event, png=await self._png(g, pos, event.summary)))
        return events

    async def resume_bot_turns(self) -> list[TurnResult]:
        """Play bot turns that were due when the process stopped (called at start)."""
        out = []
        for row in await self.storage.bot_games_waiting():
            try:
                g, _ = await self._load(row.channel_id, fresh=True)
                if g.to_move is not None and g.to_move.is_bot:
                    out.append(await self.bot_turn(row.channel_id))
            except ServiceError as exc:
                log.warning("could not resume the bot in game %d: %s", row.id, exc)
        return out

    # ================================================================= starting games
    def _check_rules(self, variant: str, size: int) -> Ruleset:
        if variant not in PRESETS or variant == "modern-3x3":
            names = [v for v in PRESETS if v != "modern-3x3"]
            raise BadInputError(
                f"{variant!r} is not a variant; variants are {commands.join_names(names)}.",
                "bad_variant",
                variant=variant,
            )
        sizes = [s for s in PRESETS[variant][0] if s in SIZES]
        if size not in sizes:
            raise BadInputError(
                f"{variant} is played on {commands.join_names([f'{s}x{s}' for s in sizes])}, not {size}x{size}.",
                "bad_size",
                variant=variant,
                size=size,
            )
        return Ruleset.make(variant, size)

    @staticmethod
    def _check_color(color: str) -> str:
        c = (color or "random").strip().lower()
        if c not in COLORS:
            raise BadInputError(f"{color!r} is not a colour; choose black, white or random.", "bad_color")
        return c

    async def _ensure_free(self, channel_id: int) -> None:
        if await self.storage.active_game(channel_id) is not None:
            raise ChannelBusyError(
                "This channel already has a game; finish it (or /seega resign) first, or play in another channel "
                "or a thread.",
                "channel_busy",
            )

    async def _start(
        self,
        guild_id: int,
        channel_id: int,
        rules: Ruleset,
        black: Player,
        white: Player,
        challenge_id: int | None = None,
    ) -> _Loaded:
        now = self.clock.now()
        pos = Position(rules)
        deadline = remind = None
        if not (black if pos.side == BLACK else white).is_bot:
            timeout = (await self._settings_for(guild_id)).turn_timeout
            deadline, remind = now + timeout, now + timeout / 2
        new = NewGame(
            guild_id=guild_id,
            channel_id=channel_id,
            variant=rules.variant,
            size=rules.size,
            options=rules.options_text(),
            black_id=black.user_id,
            black_name=black.name,
            black_level=black.bot_level,
            white_id=white.user_id,
            white_name=white.name,
            white_level=white.bot_level,
            spn=pos.spn(),
            created_at=now,
            deadline=deadline,
            remind_at=remind,
        )
        async with self._lock(channel_id):
            try:
                row = await self.storage.insert_game(new, challenge_id)
            except ChannelTakenError:
                raise ChannelBusyError(
                    "This channel already has a game; finish it first, or play in another channel or a thread.",
                    "channel_busy",
                ) from None
            except LookupError:
                raise ChallengeError("This challenge is no longer open.", "challenge_closed") from None
            loaded = _Loaded(row, pos)
            self._games[channel_id] = loaded
        self.note_timer(remind)
        log.info("game %d started in channel %d: %s vs %s", row.id, channel_id, black.name, white.name)
        return loaded

    async def play_bot(
        self,
        guild_id: int,
        channel_id: int,
        player: Player,
        level: str = "medium",
        size: int = 5,
        variant: str | None = None,
        color: str = "random",
        *,
        bot_reply: bool = True,
    ) -> TurnResult:
        """Start a game against the AI at once; if the bot has the first turn it plays it
        (unless ``bot_reply`` is false: then call :meth:`bot_turn`)."""
        lvl = (level or "medium").strip().lower()
        if lvl not in BOT_LEVELS:
            raise BadInputError(f"{level!r} is not a level; levels are {commands.join_names(BOT_LEVELS)}.", "bad_level")
        variant = variant or (await self._settings_for(guild_id)).default_variant
        rules = self._check_rules(variant, size)
        c = self._check_color(color)
        if c == "random":
            c = self.rng.choice(("black", "white"))
        await self._ensure_free(channel_id)
        bot = Player.bot(lvl)
        black, white = (player, bot) if c == "black" else (bot, player)
        g = await self._start(guild_id, channel_id, rules, black, white)
        png = await self._png(g, g.pos, None)
        if g.to_move is not None and g.to_move.is_bot:
            if not bot_reply:
                return self._result(g, png=png, bot_to_move=True)
            bot_done = await self._bot_turns(channel_id, g)
            if bot_done is not None:
                g, events, over = bot_done
                return self._result(g, events, over, events[-1].png if events else png)
        return self._result(g, png=png)

    # ----------------------------------------------------------------- challenges
    def _challenge_view(self, c: ChallengeRow) -> ChallengeView:
        return ChallengeView(
            id=c.id,
            guild_id=c.guild_id,
            channel_id=c.channel_id,
            challenger=Player(c.challenger_id, c.challenger_name),
            opponent=Player(c.opponent_id, c.opponent_name),
            size=c.size,
            variant=c.variant,
            color=c.color,
            thread=bool(c.thread),
            status=c.status,
            created_at=c.created_at,
            expires_at=c.expires_at,
            game_id=c.game_id,
        )

    async def challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger: Player,
        opponent: Player,
        size: int = 5,
        variant: str | None = None,
        color: str = "random",
        thread: bool = False,
    ) -> ChallengeResult:
        """Store a pending challenge that expires after the guild's challenge timeout.

        ``variant=None`` means the guild's default variant. ``color`` is the challenger's:
        ``black``, ``white`` or ``random``. Without ``thread`` the channel must be free.
        """
        if opponent.is_bot:
            raise ChallengeError("To play the bot, use /seega play-bot.", "challenge_bot")
        if opponent.user_id == challenger.user_id:
            raise ChallengeError(
                "You cannot challenge yourself; challenge someone else or play the bot with /seega play-bot.",
                "challenge_self",
            )
        settings = await self._settings_for(guild_id)
        variant = variant or settings.default_variant
        self._check_rules(variant, size)
        c = self._check_color(color)
        if not thread:
            await self._ensure_free(channel_id)
        now = self.clock.now()
        row = await self.storage.insert_challenge(
            guild_id,
            channel_id,
            (challenger.user_id, challenger.name),
            (opponent.user_id, opponent.name),
            size,
            variant,
            c,
            thread,
            now,
            now + settings.challenge_timeout,
        )
        self.note_timer(row.expires_at)
        return ChallengeResult(self._challenge_view(row), ping=opponent.user_id)

    async def get_challenge(self, challenge_id: int) -> ChallengeView:
        """A challenge by id (for buttons after a restart)."""
        row = await self.storage.challenge(challenge_id)
        if row is None:
            raise ChallengeError(f"There is no challenge #{challenge_id}.", "no_challenge")
        return self._challenge_view(row)

    async def _open_challenge(self, challenge_id: int) -> ChallengeRow:
        row = await self.storage.challenge(challenge_id)
        if row is None:
            raise ChallengeError(f"There is no challenge #{challenge_id}.", "no_challenge")
        if row.status == "pending" and row.expires_at <= self.clock.now():
            await self.storage.settle_challenge(row.id, "expired")
            row = replace(row, status="expired")
        if row.status != "pending":
            raise ChallengeError(f"This challenge is no longer open (it was {row.status}).", "challenge_closed")
        return row

    async def accept_challenge(
        self, challenge_id: int, user_id: int, channel_id: int | None = None, *, bot_reply: bool = True
    ) -> TurnResult:
        """The opponent accepts: the game starts in ``channel_id`` (a new thread) or the
        challenge's channel. Only the challenged user may accept."""
        row = await self._open_challenge(challenge_id)
        if user_id != row.opponent_id:
            raise ChallengeError(
                f"Only {row.opponent_name} can accept this challenge.", "not_challenged", opponent=row.opponent_name
            )
        rules = self._check_rules(row.variant, row.size)
        color = row.color if row.color != "random" else self.rng.choice(("black", "white"))
        challenger = Player(row.challenger_id, row.challenger_name)
        opponent = Player(row.opponent_id, row.opponent_name)
        black, white = (challenger, opponent) if color == "black" else (opponent, challenger)
        g = await self._start(row.guild_id, channel_id or row.channel_id, rules, black, white, challenge_id=row.id)
        return self._result(g, png=await self._png(g, g.pos, None))

    async def decline_challenge(self, challenge_id: int, user_id: int) -> ChallengeResult:
        """The opponent declines (or the challenger withdraws) a pending challenge."""
        row = await self._open_challenge(challenge_id)
        if user_id == row.opponent_id:
            status = "declined"
        elif user_id == row.challenger_id:
            status = "withdrawn"
        else:
            raise ChallengeError(
                f"Only {row.opponent_name} can decline this challenge.", "not_challenged", opponent=row.opponent_name
            )
        if not await self.storage.settle_challenge(row.id, status):
            raise ChallengeError("This challenge is no longer open.", "challenge_closed")
        return ChallengeResult(self._challenge_view(replace(row, status=status)), ping=row.challenger_id)

    async def expire_challenges(self) -> list[ChallengeView]:
        """Mark every pending challenge past its expiry as expired; returns them."""
        out = []
        for row in await self.storage.due_challenges(self.clock.now()):
            if await self.storage.settle_challenge(row.id, "expired"):
                out.append(self._challenge_view(replace(row, status="expired")))
        return out

    # ================================================================= ending games
    async def _end(
        self,
        channel_id: int,
        decide: Callable[[_Loaded], tuple[str, str, str]],
        user_id: int | None = None,
    ) -> TurnResult:
        """End the channel's game: ``decide(game)`` gives ``(result, reason, status)``."""
        async with self._lock(channel_id):
            fresh_needed = False
            for _ in range(CAS_RETRIES):
                g, fresh = await self._load(channel_id, fresh_needed)
                try:
                    result, reason, status = decide(g)
                except ServiceError:
                    if fresh:
                        raise
                    fresh_needed = True
                    continue
                done = await self._finish(g, g.pos, g.row.actions, result, reason, self.clock.now(), status)
                if done is not None:
                    g2, over = done
                    break
                fresh_needed = True
            else:
                raise StorageBusyError("The game kept changing; please try again.", "storage_busy")
        return self._result(g2, (), over, await self._png(g2, g2.pos, None), acted_by=user_id)

    async def resign(self, channel_id: int, user_id: int) -> TurnResult:
        """The player resigns (at any time); the opponent wins by ``resignation``."""

        def decide(g: _Loaded) -> tuple[str, str, str]:
            color = self._check_player(g, user_id, need_turn=False)
            if g.row.black_id == g.row.white_id:  # hot seat: the side to move resigns
                color = g.pos.side
            return _result_of(1 - color), "resignation", "finished"

        return await self._end(channel_id, decide, user_id)

    @staticmethod
    def _by_count(g: _Loaded) -> str:
        b, w = g.pos.count(BLACK), g.pos.count(WHITE)
        return _result_of(None if b == w else (BLACK if b > w else WHITE))

    async def offer_end(self, channel_id: int, user_id: int) -> OfferResult | TurnResult:
        """Propose ending by count (the barrier rule: more pieces wins, equal is a draw).

        Against the bot the end is applied at once (the bot always agrees; a
        :class:`TurnResult`); between people the offer waits for :meth:`accept_end` and
        lapses when the opponent plays a turn instead. An offer answering the opponent's
        own offer accepts it.
        """
        async with self._lock(channel_id):
            g, _ = await self._load(channel_id, fresh=True)
            color = self._check_player(g, user_id, need_turn=False)
            opponent = g.player(1 - color)
            bot_game = g.black.is_bot or g.white.is_bot
            accept_now = bot_game or g.row.end_offer == COLOR_NAMES[1 - color]
            if not accept_now:
                if g.row.end_offer == COLOR_NAMES[color]:
                    return OfferResult(self._view(g), g.player(color), opponent, ping=opponent.user_id)
                update = GameUpdate(
                    game_id=g.row.id,
                    expected_version=g.row.version,
                    actions=g.row.actions,
                    spn=g.row.spn,
                    updated_at=self.clock.now(),
                    deadline=g.row.deadline,
                    remind_at=g.row.remind_at,
                    end_offer=COLOR_NAMES[color],
                )
                if not await self.storage.update_game(update):
                    self._games.pop(channel_id, None)
                    raise StorageBusyError("The game changed meanwhile; please try again.", "storage_busy")
                g = _Loaded(replace(g.row, end_offer=update.end_offer, version=g.row.version + 1), g.pos)
                self._games[channel_id] = g
                return OfferResult(self._view(g), g.player(color), opponent, ping=opponent.user_id)
        return await self._end(channel_id, lambda g: (self._by_count(g), "agreement", "finished"), user_id)

    async def accept_end(self, channel_id: int, user_id: int) -> TurnResult:
        """The opponent accepts the end by count: more pieces wins, equal is a draw."""

        def decide(g: _Loaded) -> tuple[str, str, str]:
            color = self._check_player(g, user_id, need_turn=False)
            if g.row.end_offer is None or g.row.end_offer == COLOR_NAMES[color]:
                raise IllegalMoveError(
                    "There is no offer to end the game for you to accept; offer one with /seega offer-end.",
                    "no_offer",
                )
            return self._by_count(g), "agreement", "finished"

        return await self._end(channel_id, decide, user_id)

    async def cancel(self, channel_id: int, by_user_id: int | None = None) -> TurnResult:
        """End the channel's game unrated, result ``*`` and reason ``abandoned``
        (moderators; the adapter checks the permission)."""
        return await self._end(channel_id, lambda g: ("*", "abandoned", "cancelled"), by_user_id)

    async def timeout(self, game_id: int) -> TurnResult | None:
        """End a game whose turn deadline has passed: the player to move loses by
        ``timeout``. ``None`` if the game is no longer active or the deadline moved."""
        row = await self.storage.game(game_id)
        if row is None or row.status != "active":
            return None
        now = self.clock.now()

        def decide(g: _Loaded) -> tuple[str, str, str]:
            if g.row.id != game_id or g.row.deadline is None or g.row.deadline > now:
                raise _Stale("the timer is stale")
            return _result_of(1 - g.pos.side), "timeout", "finished"

        try:
            return await self._end(row.channel_id, decide)
        except (_Stale, CorruptGameError, NoGameError, GameOverServiceError):
            return None  # moved on, set aside, or ended by another process first

    async def reminder(self, game_id: int) -> TimerEvent | None:
        """Mark a due half-time reminder as sent and say whom to remind (``None`` if it
        is no longer due)."""
        row = await self.storage.game(game_id)
        now = self.clock.now()
        if row is None or row.status != "active" or row.remind_at is None or row.remind_at > now:
            return None
        if not await self.storage.mark_reminded(row.id, row.version):
            return None
        try:
            g, _ = await self._load(row.channel_id, fresh=True)
        except ServiceError:
            return None
        player = g.to_move
        if player is None or player.is_bot:
            return None
        remaining = None if row.deadline is None else max(0.0, row.deadline - now)
        return TimerEvent("reminder", game=self._view(g), ping=player.user_id, remaining=remaining)

    # ================================================================= looking
    async def board(self, channel_id: int) -> TurnResult:
        """The channel's game as it stands (anyone may look)."""
        g, _ = await self._load(channel_id, fresh=True)
        return self._result(g, png=await self._png(g, g.pos, None))

    async def game(self, channel_id: int) -> GameView | None:
        """The channel's active game, or ``None``."""
        try:
            g, _ = await self._load(channel_id, fresh=True)
        except (NoGameError, GameOverServiceError):
            return None
        return self._view(g)

    async def _legal(self, channel_id: int, user_id: int | None) -> list[Action]:
        """Legal actions for autocomplete: from the cache when possible (no replay)."""
        try:
            g, _ = await self._load(channel_id)
        except ServiceError:
            return []
        if user_id is not None:
            color = g.color_of(user_id)
            if color is None or color != g.pos.side:
                return []
        return g.pos.legal_actions()

    async def legal_place_cells(self, channel_id: int, user_id: int | None = None) -> list[str]:
        """Cells the player to move may place on now (empty when it is not placement)."""
        return commands.cell_names([a.src for a in await self._legal(channel_id, user_id) if a.kind == PLACE])

    async def legal_from_cells(self, channel_id: int, user_id: int | None = None) -> list[str]:
        """Cells the player to move may step from now."""
        return commands.cell_names([a.src for a in await self._legal(channel_id, user_id) if a.kind == STEP])

    async def legal_to_cells(self, channel_id: int, frm: str | None = None, user_id: int | None = None) -> list[str]:
        """Cells a step from ``frm`` may go to (every destination if ``frm`` is empty or bad)."""
        steps = [a for a in await self._legal(channel_id, user_id) if a.kind == STEP]
        src = None
        if frm:
            m = commands.MOVE_TEXT.match(frm)
            if m:
                src = parse_cell(m.group(1))
        return commands.cell_names([a.dst for a in steps if src is None or a.src == src])

    async def legal_remove_cells(self, channel_id: int, user_id: int | None = None) -> list[str]:
        """Cells a due removal may take."""
        return commands.cell_names([a.src for a in await self._legal(channel_id, user_id) if a.kind == REMOVE])

    # ================================================================= queries
    async def leaderboard(self, guild_id: int, size: int = 5, limit: int = 10) -> list[LeaderboardEntry]:
        """The guild's top players by Glicko-2 rating on ``size``."""
        if size not in SIZES:
            raise BadInputError(f"Boards are 5x5, 7x7 or 9x9, not {size}.", "bad_size", size=size)
        rows = await self.storage.leaderboard(guild_id, size, limit)
        return [
            LeaderboardEntry(i + 1, r.user_id, r.name, r.rating, r.rd, r.games, r.wins, r.losses, r.draws)
            for i, r in enumerate(rows)
        ]

    async def stats(self, guild_id: int, user_id: int, name: str | None = None) -> PlayerStats:
        """A player's ratings, record against people and record against each bot level."""
        ratings = await self.storage.ratings_of(guild_id, user_id)
        tallies = await self.storage.tallies(guild_id, user_id)
        people = Tally()
        bots: dict[str, Tally] = {}
        for t in tallies:
            tally = Tally(t.wins, t.losses, t.draws)
            if t.bot_level is None:
                people = tally
            else:
                bots[t.bot_level] = tally
        if name is None:
            recent = await self.storage.history(guild_id, user_id, 1)
            if ratings:
                name = ratings[-1].name
            elif recent:
                name = recent[0].black_name if recent[0].black_id == user_id else recent[0].white_name
            else:
                name = f"user {user_id}"
        return PlayerStats(
            user_id=user_id,
            name=name,
            ratings=tuple(
                RatingView(r.size, r.rating, r.rd, r.vol, r.games, r.wins, r.losses, r.draws) for r in ratings
            ),
            versus_people=people,
            versus_bot={lvl: bots[lvl] for lvl in BOT_LEVELS if lvl in bots},
            active_games=await self.storage.active_count(guild_id, user_id),
        )

    async def history(self, guild_id: int, user_id: int | None = None, limit: int = 10) -> list[GameSummary]:
        """Recent games of the guild (of ``user_id`` if given), newest first."""
        return [_summary(r) for r in await self.storage.history(guild_id, user_id, limit)]

    async def get_game(self, game_id: int, guild_id: int | None = None) -> GameSummary | None:
        """Any game by id (a rematch button, a record link), or ``None``; ``guild_id``
        limits the search to one guild."""
        row = await self.storage.game(game_id)
        if row is None or (guild_id is not None and row.guild_id != guild_id):
            return None
        return _summary(row)

    async def record(
        self, guild_id: int, game_id: int | None = None, channel_id: int | None = None, *, replay: bool = True
    ) -> RecordResult:
        """The SGN record of a game (by id, or the channel's latest) and an animated replay."""
        if game_id is not None:
            row = await self.storage.game(game_id)
            if row is None or row.guild_id != guild_id:
                raise NoGameError(f"There is no game #{game_id} in this server.", "no_such_game", game_id=game_id)
        elif channel_id is not None:
            row = await self.storage.latest_game(channel_id)
            if row is None:
                raise NoGameError("No game has been played in this channel yet.", "no_game")
        else:
            raise BadInputError("Say which game: its number, or the channel.", "missing_game")
        if row.status == "corrupt":
            raise CorruptGameError(f"Game #{row.id} was set aside as corrupt; it has no record.", "corrupt_game")
        pos = await self._restore(row, set_aside=row.status == "active")
        record = GameRecord.from_position(
            pos,
            row.setup,
            Black=row.black_name,
            White=row.white_name,
            Date=time.strftime("%Y.%m.%d", time.gmtime(row.created_at)),
        )
        if row.status != "active" and record.result == "*" and row.result:
            record.result = row.result
            record.termination = row.reason
        record.tags["Game"] = str(row.id)
        sgn = record.to_sgn()
        data = None
        name = None
        if replay and self.renderer is not None:
            try:
                data = await asyncio.to_thread(
                    self.renderer.render_replay, record, players=(row.black_name, row.white_name)
                )
                ext = "gif" if data[:3] == b"GIF" else "png"
                name = f"seega-{row.id}.{ext}"
            except Exception:
                log.exception("rendering the replay of game %d failed", row.id)
                data = None
        return RecordResult(row.id, sgn, f"seega-{row.id}.sgn", data, name)

    # ================================================================= settings
    def _view_settings(self, s: SettingsRow) -> GuildSettings:
        return GuildSettings(s.guild_id, s.turn_timeout, s.challenge_timeout, s.default_variant)

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings (defaults until a moderator changes them)."""
        self._settings.pop(guild_id, None)
        return self._view_settings(await self._settings_for(guild_id))

    async def set_settings(
        self,
        guild_id: int,
        turn_timeout: str | int | None = None,
        challenge_timeout: str | int | None = None,
        default_variant: str | None = None,
    ) -> GuildSettings:
        """Change some settings; timeouts are written ``45s``, ``10m``, ``1h``, ``3d`` (30 s to 7 d).

        A new turn timeout applies from the next turn on.
        """
        s = await self.storage.settings(guild_id)
        changes: dict[str, object] = {}
        for name, value in (("turn_timeout", turn_timeout), ("challenge_timeout", challenge_timeout)):
            if value is None or (isinstance(value, str) and not value.strip()):
                continue
            try:
                seconds = parse_duration(value if isinstance(value, str) else f"{int(value)}s")
            except DurationError as exc:
                raise BadInputError(f"{name}: {exc}", "bad_duration", setting=name) from None
            changes[name] = seconds
        if default_variant:
            self._check_rules(default_variant.strip().lower(), 5)  # every preset people can choose has 5x5
            changes["default_variant"] = default_variant.strip().lower()
        s = replace(s, **changes)  # type: ignore[arg-type]
        await self.storage.save_settings(s)
        self._settings[guild_id] = (s, time.monotonic())
        return self._view_settings(s)


def _summary(r: GameRow) -> GameSummary:
    return GameSummary(
        id=r.id,
        channel_id=r.channel_id,
        variant=r.variant,
        size=r.size,
        black=Player(r.black_id, r.black_name, r.black_level),
        white=Player(r.white_id, r.white_name, r.white_level),
        status=r.status,
        result=r.result,
        reason=r.reason,
        created_at=r.created_at,
        ended_at=r.ended_at,
        turns=_spn_turn(r.spn) - 1,
    )


class _Stale(ServiceError):
    """Internal: a timer fired for a game that has moved on."""
