"""The game service: every use case of BOT.md, over storage, the engine, the AI and the renderer.

It knows nothing of Discord. Adapters call its async methods with plain ids and names and
get back the plain results of :mod:`bot.results`; bad requests raise a
:class:`~bot.results.ServiceError` whose message says what was wrong and what is allowed.

SKELETON: signatures are stable; bodies are being implemented.
"""

from __future__ import annotations

import logging
from typing import Protocol

from bot.ai_pool import AiRunner
from bot.clock import Clock, SystemClock
from bot.results import (
    ChallengeResult,
    ChallengeView,
    GameSummary,
    GameView,
    GuildSettings,
    LeaderboardEntry,
    OfferResult,
    Player,
    PlayerStats,
    RecordResult,
    TurnResult,
)
from bot.storage import Storage
from engine import GameRecord, Position
from engine.summary import TurnSummary

log = logging.getLogger(__name__)


class Renderer(Protocol):
    """What the service needs from ``bot.render`` (the module itself satisfies it)."""

    def render_board(
        self, position: Position, last_turn: TurnSummary | None = None, *, players: tuple[str, str] = ...
    ) -> bytes:
        """The board as PNG bytes."""
        ...

    def render_replay(self, record: GameRecord, players: tuple[str, str] = ...) -> bytes:
        """The game as an animated image."""
        ...


class GameService:
    """Use cases of the bot. One instance per process; safe for many concurrent callers.

    Args:
        storage: an opened :class:`~bot.storage.Storage`.
        ai: the runner that chooses bot turns (never run on the event loop).
        renderer: draws boards and replays (``bot.render``), or ``None`` for no images.
        clock: the time source (a fake one in tests).
    """

    def __init__(
        self, storage: Storage, ai: AiRunner, renderer: Renderer | None = None, clock: Clock | None = None
    ) -> None:
        self.storage = storage
        self.ai = ai
        self.renderer = renderer
        self.clock = clock or SystemClock()

    # ----------------------------------------------------------------- challenges
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
        raise NotImplementedError

    async def accept_challenge(
        self, challenge_id: int, user_id: int, channel_id: int | None = None, *, bot_reply: bool = True
    ) -> TurnResult:
        """The opponent accepts: the game starts in ``channel_id`` (a new thread) or the
        challenge's channel. Only the challenged user may accept."""
        raise NotImplementedError

    async def decline_challenge(self, challenge_id: int, user_id: int) -> ChallengeResult:
        """The opponent declines (or the challenger withdraws) a pending challenge."""
        raise NotImplementedError

    async def get_challenge(self, challenge_id: int) -> ChallengeView:
        """A challenge by id (for buttons after a restart)."""
        raise NotImplementedError

    async def expire_challenges(self) -> list[ChallengeView]:
        """Mark every pending challenge past its expiry as expired; returns them."""
        raise NotImplementedError

    # ----------------------------------------------------------------- games
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
        raise NotImplementedError

    async def place(
        self, channel_id: int, user_id: int, first: str, second: str | None = None, *, bot_reply: bool = True
    ) -> TurnResult:
        """Place one or two pieces (``second`` may also be given inside ``first`` as
        ``"a1 b2"``)."""
        raise NotImplementedError

    async def move(
        self, channel_id: int, user_id: int, frm: str, to: str | None = None, *, bot_reply: bool = True
    ) -> TurnResult:
        """Step a piece; ``frm`` may hold both cells (``"b2 c2"``, ``"b2-c2"``) with ``to`` empty."""
        raise NotImplementedError

    async def remove(self, channel_id: int, user_id: int, cell: str, *, bot_reply: bool = True) -> TurnResult:
        """The removal a blocked-player rule asks for (or a replacement in five-in-a-row)."""
        raise NotImplementedError

    async def end_turn(self, channel_id: int, user_id: int, *, bot_reply: bool = True) -> TurnResult:
        """Stop a chain of captures (also plays ``pass`` when that is the only action)."""
        raise NotImplementedError

    async def bot_turn(self, channel_id: int) -> TurnResult:
        """Play the bot's turn if it is the bot's turn in the channel's game."""
        raise NotImplementedError

    async def resign(self, channel_id: int, user_id: int) -> TurnResult:
        """The player resigns; the opponent wins by ``resignation`` (rated between people)."""
        raise NotImplementedError

    async def offer_end(self, channel_id: int, user_id: int) -> OfferResult | TurnResult:
        """Propose ending by count (the barrier rule). Against the bot the end is applied at
        once (a :class:`TurnResult`); between people it waits for :meth:`accept_end`."""
        raise NotImplementedError

    async def accept_end(self, channel_id: int, user_id: int) -> TurnResult:
        """The opponent accepts the end by count: more pieces wins, equal is a draw."""
        raise NotImplementedError

    async def cancel(self, channel_id: int, by_user_id: int | None = None) -> TurnResult:
        """End the channel's game unrated (moderators; the adapter checks permissions)."""
        raise NotImplementedError

    async def timeout(self, game_id: int) -> TurnResult | None:
        """End a game whose turn deadline has passed: the player to move loses by
        ``timeout``. ``None`` if the game is no longer active or the deadline moved."""
        raise NotImplementedError

    async def board(self, channel_id: int) -> TurnResult:
        """The channel's game as it stands (anyone may look)."""
        raise NotImplementedError

    async def game(self, channel_id: int) -> GameView | None:
        """The channel's active game, or ``None``."""
        raise NotImplementedError

    # ----------------------------------------------------------------- autocomplete
    async def legal_place_cells(self, channel_id: int, user_id: int | None = None) -> list[str]:
        """Cells the player to move may place on now (empty when it is not placement)."""
        raise NotImplementedError

    async def legal_from_cells(self, channel_id: int, user_id: int | None = None) -> list[str]:
        """Cells the player to move may step from now."""
        raise NotImplementedError

    async def legal_to_cells(self, channel_id: int, frm: str | None = None, user_id: int | None = None) -> list[str]:
        """Cells a step from ``frm`` may go to (all destinations if ``frm`` is empty/bad)."""
        raise NotImplementedError

    async def legal_remove_cells(self, channel_id: int, user_id: int | None = None) -> list[str]:
        """Cells a due removal may take."""
        raise NotImplementedError

    # ----------------------------------------------------------------- queries
    async def leaderboard(self, guild_id: int, size: int = 5, limit: int = 10) -> list[LeaderboardEntry]:
        """The guild's top players by Glicko-2 rating on ``size``."""
        raise NotImplementedError

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """A player's ratings, record against people and record against each bot level."""
        raise NotImplementedError

    async def history(self, guild_id: int, user_id: int | None = None, limit: int = 10) -> list[GameSummary]:
        """Recent games of the guild (of ``user_id`` if given), newest first."""
        raise NotImplementedError

    async def record(
        self, guild_id: int, game_id: int | None = None, channel_id: int | None = None, *, replay: bool = True
    ) -> RecordResult:
        """The SGN record of a game (by id, or the channel's latest) and an animated replay."""
        raise NotImplementedError

    # ----------------------------------------------------------------- settings
    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings (defaults until a moderator changes them)."""
        raise NotImplementedError

    async def set_settings(
        self,
        guild_id: int,
        turn_timeout: str | int | None = None,
        challenge_timeout: str | int | None = None,
        default_variant: str | None = None,
    ) -> GuildSettings:
        """Change some settings; timeouts are written ``45s``, ``10m``, ``1h``, ``3d`` (30 s to 7 d)."""
        raise NotImplementedError
