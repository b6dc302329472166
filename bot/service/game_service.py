"""The game service: the one front adapters call, over the use-case modules.

It knows nothing of Discord. Adapters (the cogs, the buttons, the console, the scheduler)
call its async methods with plain ids and names and get back the plain results of
:mod:`bot.results`; bad requests raise a :class:`~bot.results.ServiceError` with a message
key and parameters. Each method hands the request to the module of its use case:

- :mod:`bot.service.games`: the cache of games in play, the locks, the one write path;
- :mod:`bot.service.starting`: ``play-bot`` and challenges;
- :mod:`bot.service.turns`: place, move, remove, end a chain;
- :mod:`bot.service.bot_turns`: the AI opponent;
- :mod:`bot.service.ending`: resign, end by count, cancel, timeouts and reminders;
- :mod:`bot.service.gone`: what a deleted channel, thread or server held;
- :mod:`bot.service.draws`: draw offers;
- :mod:`bot.service.queries`: the board, autocomplete, ratings, history, records;
- :mod:`bot.service.guild_settings`: a guild's settings;
- :mod:`bot.service.coach`: hints, reviews, puzzles, lessons, rating charts (``service.coach``).

What the bot offers (variants, sizes, levels, defaults) is :mod:`bot.service.catalog`.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import replace

from bot.ai_pool import AiRunner
from bot.clock import Clock, SystemClock
from bot.results import (
    Abandoned,
    ChallengeResult,
    ChallengeView,
    GameSummary,
    GameView,
    GuildSettings,
    LeaderboardEntry,
    Moderator,
    OfferResult,
    Player,
    PlayerStats,
    Question,
    RecordResult,
    ServiceError,
    TimerEvent,
    TurnResult,
)
from bot.service import catalog
from bot.service.bot_turns import BotTurns
from bot.service.coach import Coach
from bot.service.coach_results import LessonAnswer, LessonView
from bot.service.coach_work import default_pictures, work_for
from bot.service.draws import Draws
from bot.service.ending import Ending
from bot.service.failures import full_disk_is_a_service_error
from bot.service.games import Games
from bot.service.gone import Gone
from bot.service.guild_settings import GuildSettingsCases
from bot.service.languages import Languages
from bot.service.limits import Limits
from bot.service.player_asks import PlayerAsks
from bot.service.queries import Queries
from bot.service.rendering import Renderer
from bot.service.starting import Starting
from bot.service.turns import Turns
from bot.storage import Storage
from bot.texts import FALLBACK

#: Re-exported for adapters that imported them from here.
SIZES = catalog.SIZES
COLORS = catalog.COLORS


@full_disk_is_a_service_error
class GameService:
    """Use cases of the bot. One instance per process; safe for many concurrent callers.

    Args:
        storage: an opened :class:`~bot.storage.Storage`.
        ai: the runner that chooses bot turns (never run on the event loop).
        renderer: draws boards and replays (``bot.render``), or ``None`` for no images.
        clock: the time source (a fake one in tests).
        rng: randomness for colour draws (seed it in tests).
        limits: the per-user caps and the AI line's sizes (``docs/limits.md``).
    """

    def __init__(
        self,
        storage: Storage,
        ai: AiRunner,
        renderer: Renderer | None = None,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.games = Games(storage, ai, renderer, clock or SystemClock(), rng or random.Random(), limits)
        self.bots = BotTurns(self.games)
        self.starting = Starting(self.games, self.bots)
        self.turns = Turns(self.games, self.bots)
        self.ending = Ending(self.games)
        self.draws = Draws(self.ending)
        self.queries = Queries(self.games)
        self.guild_settings = GuildSettingsCases(self.games)
        self.languages = Languages(self.games)
        #: Hints, reviews, puzzles, lessons and rating charts (bot.service.coach).
        self.coach = Coach(
            storage,
            self.games.clock,
            work_for(ai),
            default_pictures() if renderer else None,
        )
        self.asks = PlayerAsks(self.games)
        self.gone = Gone(self.games, self.starting, self.ending)

    # ----------------------------------------------------------------- shared state
    @property
    def storage(self) -> Storage:
        return self.games.storage

    @property
    def ai(self) -> AiRunner:
        return self.games.ai

    @property
    def clock(self) -> Clock:
        return self.games.clock

    @property
    def rng(self) -> random.Random:
        return self.games.rng

    @property
    def renderer(self) -> Renderer | None:
        return self.games.renderer

    @renderer.setter
    def renderer(self, renderer: Renderer | None) -> None:
        self.games.renderer = renderer

    @property
    def timers_changed(self) -> asyncio.Event:
        """Set when a timer earlier than :attr:`timer_target` is stored (wakes the scheduler)."""
        return self.games.timers_changed

    @property
    def timer_target(self) -> float:
        """When the scheduler next wakes up by itself."""
        return self.games.timer_target

    @timer_target.setter
    def timer_target(self, when: float) -> None:
        self.games.timer_target = when

    def note_timer(self, when: float | None) -> None:
        """A timer was stored for ``when``: wake the scheduler if it sleeps past it."""
        self.games.note_timer(when)

    # ----------------------------------------------------------------- starting
    async def play_bot(
        self,
        guild_id: int,
        channel_id: int,
        player: Player,
        level: str = catalog.DEFAULT_LEVEL,
        size: int = catalog.DEFAULT_SIZE,
        variant: str | None = None,
        color: str = catalog.DEFAULT_COLOR,
        *,
        bot_reply: bool = True,
    ) -> TurnResult:
        """Start a game against the AI; if the bot moves first it plays (unless ``bot_reply`` is false)."""
        return await self.starting.play_bot(
            guild_id, channel_id, player, level, size, variant, color, bot_reply=bot_reply
        )

    async def challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger: Player,
        opponent: Player,
        size: int = catalog.DEFAULT_SIZE,
        variant: str | None = None,
        color: str = catalog.DEFAULT_COLOR,
        thread: bool = False,
    ) -> ChallengeResult:
        """Store a pending challenge (``variant=None``: the guild's default; ``color``: the challenger's)."""
        return await self.starting.challenge(guild_id, channel_id, challenger, opponent, size, variant, color, thread)

    async def get_challenge(self, challenge_id: int) -> ChallengeView:
        """A challenge by id (for buttons after a restart)."""
        return await self.starting.get_challenge(challenge_id)

    async def accept_challenge(
        self, challenge_id: int, user_id: int, channel_id: int | None = None, *, bot_reply: bool = True
    ) -> TurnResult:
        """The challenged user accepts: the game starts in ``channel_id`` or the challenge's channel."""
        return await self.starting.accept_challenge(challenge_id, user_id, channel_id, bot_reply=bot_reply)

    async def decline_challenge(self, challenge_id: int, user_id: int) -> ChallengeResult:
        """The opponent declines (or the challenger withdraws) a pending challenge."""
        return await self.starting.decline_challenge(challenge_id, user_id)

    async def expire_challenges(self) -> list[ChallengeView]:
        """Mark every pending challenge past its expiry as expired; returns them."""
        return await self.starting.expire_challenges()

    # ----------------------------------------------------------------- playing
    async def place(
        self, channel_id: int, user_id: int, first: str, second: str | None = None, *, bot_reply: bool = True
    ) -> TurnResult:
        """Place one or two pieces (``first`` may also hold both cells: ``"a1 b2"``)."""
        return await self.turns.place(channel_id, user_id, first, second, bot_reply=bot_reply)

    async def move(
        self, channel_id: int, user_id: int, frm: str, to: str | None = None, *, bot_reply: bool = True
    ) -> TurnResult:
        """Step a piece; ``frm`` may hold both cells (``"b2 c2"``, ``"b2-c2"``) with ``to`` empty."""
        return await self.turns.move(channel_id, user_id, frm, to, bot_reply=bot_reply)

    async def remove(self, channel_id: int, user_id: int, cell: str, *, bot_reply: bool = True) -> TurnResult:
        """The removal a blocked-player rule asks for (or a replacement in five-in-a-row)."""
        return await self.turns.remove(channel_id, user_id, cell, bot_reply=bot_reply)

    async def end_turn(self, channel_id: int, user_id: int, *, bot_reply: bool = True) -> TurnResult:
        """Stop a chain of captures (also plays ``pass`` when that is the only action)."""
        return await self.turns.end_turn(channel_id, user_id, bot_reply=bot_reply)

    async def bot_turn(self, channel_id: int) -> TurnResult:
        """Play the bot's turn(s) if the bot is to move in the channel's game."""
        return await self.bots.bot_turn(channel_id)

    async def waiting_bot_channels(self) -> list[int]:
        """Channels whose game waits for the bot's turn (to resume after a restart)."""
        return await self.bots.waiting_channels()

    async def stuck_bot_channels(self, idle_since: float) -> list[int]:
        """Channels whose game has waited for the bot since ``idle_since`` or longer with no
        bot turn under way in this process nor a retry scheduled (its turn was lost)."""
        return await self.bots.stuck_channels(idle_since)

    async def resume_bot_turns(self) -> list[TurnResult]:
        """Play, one after the other, the bot turns that were due when the process stopped."""
        return await self.bots.resume()

    def next_bot_retry(self) -> float | None:
        """When the earliest retry of a bot turn the AI could not answer is due, or ``None``."""
        return self.bots.next_retry()

    def due_bot_retries(self, now: float) -> list[int]:
        """Channels whose bot turn should be tried again now (call :meth:`bot_turn` for each)."""
        return self.bots.due_retries(now)

    # ----------------------------------------------------------------- ending
    async def resign(self, channel_id: int, user_id: int) -> TurnResult:
        """The player resigns (at any time); the opponent wins by ``resignation``."""
        return await self.ending.resign(channel_id, user_id)

    async def ask_resign(self, channel_id: int, user_id: int) -> Question:
        """Store "resign this game?" for the player; its buttons answer it once (:meth:`confirm_resign`,
        :meth:`cancel_resign`)."""
        return await self.ending.ask_resign(channel_id, user_id)

    async def confirm_resign(self, question_id: int, user_id: int) -> TurnResult:
        """The resignation question answered Resign (if it was still open: a second answer
        raises :class:`~bot.results.QuestionAnsweredError`)."""
        return await self.ending.confirm_resign(question_id, user_id)

    async def cancel_resign(self, question_id: int, user_id: int) -> None:
        """The resignation question answered Cancel: the game goes on (first answer only)."""
        await self.ending.cancel_resign(question_id, user_id)

    async def offer_end(self, channel_id: int, user_id: int) -> OfferResult | TurnResult:
        """Propose ending by count; the bot answers at once, as a player would (see :mod:`bot.service.bot_offers`)."""
        return await self.ending.offer_end(channel_id, user_id)

    async def end_preview(self, channel_id: int, user_id: int) -> tuple[GameView, str]:
        """What ending by count now would give (to explain the offer before it is sent)."""
        return await self.ending.end_preview(channel_id, user_id)

    async def accept_end(self, channel_id: int, user_id: int) -> TurnResult:
        """The opponent accepts the end by count: more pieces wins, equal is a draw."""
        return await self.ending.accept_end(channel_id, user_id)

    async def decline_end(self, channel_id: int, user_id: int) -> OfferResult:
        """The opponent declines the offer to end by count, or its offerer withdraws it."""
        return await self.ending.decline_end(channel_id, user_id)

    async def draw_preview(self, channel_id: int, user_id: int) -> GameView:
        """The game if the player may offer a draw now (else the refusal), to explain it first."""
        return await self.draws.preview(channel_id, user_id)

    async def offer_draw(self, channel_id: int, user_id: int) -> OfferResult | TurnResult:
        """Offer a draw (½-½ by agreement); the bot answers at once with its own search."""
        return await self.draws.offer(channel_id, user_id)

    async def accept_draw(self, channel_id: int, user_id: int) -> TurnResult:
        """The opponent accepts the draw offer: the game ends ½-½."""
        return await self.draws.accept(channel_id, user_id)

    async def decline_draw(self, channel_id: int, user_id: int) -> OfferResult:
        """The opponent declines the draw offer; the game goes on."""
        return await self.draws.decline(channel_id, user_id)

    async def cancel(self, channel_id: int, moderator: Moderator | None = None) -> TurnResult:
        """End the channel's game unrated (result ``*``, reason ``abandoned``); moderators only."""
        return await self.ending.cancel(channel_id, moderator)

    async def timeout(self, game_id: int) -> TurnResult | None:
        """End a game whose turn deadline has passed (``None`` if it moved on)."""
        return await self.ending.timeout(game_id)

    async def reminder(self, game_id: int) -> TimerEvent | None:
        """Mark a due half-time reminder as sent and say whom to remind."""
        return await self.ending.reminder(game_id)

    async def channel_deleted(self, channel_id: int, deleted_by: int | None = None) -> Abandoned:
        """A channel or thread was deleted: its game ends unrated (``*``, ``abandoned``,
        as a moderator's cancel) and its pending challenges close (:mod:`bot.service.gone`).
        ``deleted_by``, the user who deleted it if the adapter knows: one of the game's
        players, and the game is their resignation, rated."""
        return await self.gone.channel(channel_id, deleted_by)

    async def guild_left(self, guild_id: int) -> Abandoned:
        """The bot was removed from a server: its games end unrated and its challenges close."""
        return await self.gone.guild(guild_id)

    async def pause_clock(self, channel_id: int) -> bool:
        """Stop the clock of the channel's game until :meth:`resume_clock` (the console
        table closes); ``False`` if the channel has no game."""
        return await self.games.pause_clock(channel_id)

    async def resume_clock(self, channel_id: int) -> float | None:
        """Start the channel's game's clock again, its deadline moved by the time it stood
        (see :meth:`Games.resume_clock`); the seconds moved, or ``None`` without a game."""
        return await self.games.resume_clock(channel_id)

    async def takeback(self, channel_id: int, user_id: int) -> TurnResult:
        """Take back the person's last turn (and the bot's reply); games against the bot only."""
        return await self.asks.takeback(channel_id, user_id)

    # ----------------------------------------------------------------- looking
    async def moves(
        self, channel_id: int, game_id: int | None = None, guild_id: int | None = None
    ) -> tuple[GameView, list[str]]:
        """The channel's game (in progress, else the last), or game ``game_id`` of server
        ``guild_id``, in notation, one line per turn."""
        return await self.asks.moves(channel_id, game_id, guild_id)

    async def games_in_progress(self, guild_id: int) -> list[GameView]:
        """The games being played in a server, newest first (to watch)."""
        return await self.asks.in_progress(guild_id)

    async def board(self, channel_id: int, user_id: int | None = None) -> TurnResult:
        """The channel's game as it stands (anyone may look; the picture in ``user_id``'s language)."""
        return await self.queries.board(channel_id, user_id)

    async def game(self, channel_id: int) -> GameView | None:
        """The channel's active game, or ``None``."""
        return await self.queries.game(channel_id)

    async def no_game(self, channel_id: int) -> ServiceError:
        """The error to raise for a command about the channel's game when it has none:
        how the last one ended, if it did, and how to start another."""
        return await self.games.no_game(channel_id)

    async def lesson_try(
        self, channel_id: int, user_id: int, text: str, admit: Callable[[], None] | None = None
    ) -> LessonAnswer | None:
        """A ``/move`` or ``/place`` checked against the user's open exercise in this channel.

        ``None`` means the command is a game move: the user has no exercise open here, or
        plays in this channel's game in progress, whoever's turn it is (the game always
        comes first, and the same command does not change meaning with the turn;
        ``/seega solve`` still answers the exercise then). docs/coach.md.

        ``admit`` is called once the command is known to answer the exercise, before it is
        judged and stored; it raises to refuse it (the adapter's cooldown of answers:
        these commands have none of their own).
        """
        number = await self.coach.lessons.active(user_id, channel_id)
        if number is None:
            return None
        if await self.plays_here(channel_id, user_id):
            return None
        if admit is not None:
            admit()
        return await self.coach.lessons.answer(user_id, number, text, channel_id)

    async def plays_here(self, channel_id: int, user_id: int | None) -> bool:
        """Whether ``user_id`` plays in the channel's game in progress (``None``: anyone
        does, the console's table with both seats): ``/place`` and ``/move`` go to it."""
        game = await self.game(channel_id)
        if game is None or game.to_move is None:
            return False
        return user_id is None or user_id in (game.black.user_id, game.white.user_id)

    async def show_lesson(
        self,
        user_id: int,
        number: int | None,
        channel_id: int | None,
        *,
        guild_id: int | None = None,
        lang: str = FALLBACK,
        table: bool = False,
    ) -> LessonView:
        """A lesson (:meth:`bot.service.coach_lessons.Lessons.show`), saying whether the
        user's game in progress here takes ``/place`` and ``/move`` (``table``: the
        console's, where any game does), so the lesson tells them to answer with ``/seega
        solve`` (play-test: "Answer as in a game, with /place" and the answer was played in
        the real game)."""
        view = await self.coach.lessons.show(user_id, number, channel_id, guild_id=guild_id, lang=lang)
        if channel_id is None:
            return view
        return replace(view, game_here=await self.plays_here(channel_id, None if table else user_id))

    async def legal_place_cells(self, channel_id: int, user_id: int | None = None) -> list[str]:
        """Cells the player to move may place on now."""
        return await self.queries.legal_place_cells(channel_id, user_id)

    async def legal_from_cells(self, channel_id: int, user_id: int | None = None) -> list[str]:
        """Cells the player to move may step from now."""
        return await self.queries.legal_from_cells(channel_id, user_id)

    async def legal_to_cells(self, channel_id: int, frm: str | None = None, user_id: int | None = None) -> list[str]:
        """Cells a step from ``frm`` may go to (every destination if ``frm`` is empty or bad)."""
        return await self.queries.legal_to_cells(channel_id, frm, user_id)

    async def legal_remove_cells(self, channel_id: int, user_id: int | None = None) -> list[str]:
        """Cells a due removal may take."""
        return await self.queries.legal_remove_cells(channel_id, user_id)

    async def leaderboard(self, guild_id: int, size: int = 5, limit: int = 10) -> list[LeaderboardEntry]:
        """The guild's top players by Glicko-2 rating on ``size``."""
        return await self.queries.leaderboard(guild_id, size, limit)

    async def leaderboard_size(self, guild_id: int) -> int:
        """The size a leaderboard asked with no size shows (the default, unless only other sizes have ratings)."""
        return await self.queries.leaderboard_size(guild_id)

    async def stats(self, guild_id: int, user_id: int, name: str | None = None) -> PlayerStats:
        """A player's ratings and records against people and each bot level."""
        return await self.queries.stats(guild_id, user_id, name)

    async def history(self, guild_id: int, user_id: int | None = None, limit: int = 10) -> list[GameSummary]:
        """Recent games of the guild (of ``user_id`` if given), newest first."""
        return await self.queries.history(guild_id, user_id, limit)

    async def get_game(self, game_id: int, guild_id: int | None = None) -> GameSummary | None:
        """Any game by id, or ``None``; ``guild_id`` limits the search to one guild."""
        return await self.queries.get_game(game_id, guild_id)

    async def check_record(self, guild_id: int, game_id: int | None = None, channel_id: int | None = None) -> int:
        """The id of the game :meth:`record` would write, or its refusal (before anything is drawn)."""
        return (await self.queries.record_row(guild_id, game_id, channel_id)).id

    async def record(
        self,
        guild_id: int,
        game_id: int | None = None,
        channel_id: int | None = None,
        *,
        replay: bool = True,
        user_id: int | None = None,
    ) -> RecordResult:
        """The SGN record of a game (by id, or the channel's latest) and an animated replay
        in ``user_id``'s language."""
        return await self.queries.record(guild_id, game_id, channel_id, replay=replay, user_id=user_id)

    # ----------------------------------------------------------------- settings
    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings (defaults until a moderator changes them)."""
        return await self.guild_settings.get_settings(guild_id)

    async def set_settings(
        self,
        guild_id: int,
        turn_timeout: str | int | None = None,
        challenge_timeout: str | int | None = None,
        default_variant: str | None = None,
        *,
        hints: int | str | None = None,
        moderator: Moderator | None = None,
    ) -> GuildSettings:
        """Change some settings (moderators only); timeouts are written ``45s``, ``10m``, ``1h``, ``3d``;
        ``hints`` per player and game, 0 turns them off."""
        return await self.guild_settings.set_settings(
            guild_id, turn_timeout, challenge_timeout, default_variant, hints=hints, moderator=moderator
        )

    # ----------------------------------------------------------------- members' languages
    async def get_language(self, user_id: int) -> str | None:
        """The language a member chose with ``/seega language`` (``None``: their client's)."""
        return await self.languages.get_language(user_id)

    async def set_language(self, user_id: int, language: str | None) -> None:
        """Store a member's language (``en``, ``ar``; ``None`` follows their client)."""
        await self.languages.set_language(user_id, language)
