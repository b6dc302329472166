"""Plain data the game service returns, and the errors it raises.

Adapters (the Discord cogs, the console table) turn these into messages. Nothing here
knows about Discord: players are ``(user_id, display_name)`` pairs given by the adapter,
and every error carries user-facing English text plus a message key and parameters so
an adapter can translate it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot import texts
from engine.summary import TurnSummary

#: The user id the service uses for its own AI opponent.
BOT_USER_ID = 0


@dataclass(frozen=True)
class Player:
    """A participant in a game.

    Attributes:
        user_id: the adapter's id of the person (a Discord user id), or
            :data:`BOT_USER_ID` for the AI.
        name: the display name to show and to write into records.
        bot_level: the AI level when this player is the bot, else ``None``.
    """

    user_id: int
    name: str
    bot_level: str | None = None

    @property
    def is_bot(self) -> bool:
        """Whether this player is the service's AI."""
        return self.bot_level is not None

    @classmethod
    def bot(cls, level: str) -> Player:
        """The AI opponent at ``level``."""
        return cls(BOT_USER_ID, f"Seega bot ({level})", level)


@dataclass(frozen=True)
class GameView:
    """A snapshot of one game, enough to draw a status line.

    Attributes:
        id: the game id (stable, shown to people for ``/seega record game:``).
        guild_id, channel_id: where the game lives.
        variant, size, options: the ruleset (options as ``k=v,k=v``, may be empty).
        black, white: the players.
        spn: the current position.
        status: ``active``, ``finished``, ``cancelled`` or ``corrupt``.
        phase: ``p`` placement, ``m`` movement, ``r`` removal due, ``s`` replacement.
        to_move: the player whose turn it is (``None`` when the game is over).
        turn: the engine's turn number (1 + turns completed).
        pieces: pieces on the board, ``(black, white)``.
        hand: pieces still to place, ``(black, white)``.
        result, reason: ``1-0``/``0-1``/``1/2-1/2`` and why, once over.
        deadline: when the player to move loses by timeout (epoch seconds), or ``None``.
        end_offer_by: the colour (``black``/``white``) that offered an end by count, if any.
        draw_offer_by: the colour that offered a draw, if any.
        created_at, ended_at: epoch seconds.
        text_board: (property) the board drawn as text, rank n on top.
    """

    id: int
    guild_id: int
    channel_id: int
    variant: str
    size: int
    options: str
    black: Player
    white: Player
    spn: str
    status: str
    phase: str
    to_move: Player | None
    turn: int
    pieces: tuple[int, int]
    hand: tuple[int, int]
    result: str | None
    reason: str | None
    deadline: float | None
    end_offer_by: str | None
    created_at: float
    ended_at: float | None
    draw_offer_by: str | None = None
    #: The last few turns in notation, oldest first (``"25. w d3-c3 c3-c2"``), for the
    #: turn message; empty when unknown.
    recent: tuple[str, ...] = ()
    #: What the side to act must do beyond a free placement or a step (a removal, a
    #: replacement, an opening's cells), as a ``bot.explain`` line (key, parameters) made
    #: from the position with its history; ``None`` otherwise.
    task: tuple[str, dict[str, Any]] | None = None
    #: The steps the shuttle limit forbids now (``"d2-c2"``), which the picture marks with
    #: a no-entry sign; the text board says them in a line under it. Empty when none.
    shuttle_held: tuple[str, ...] = ()

    @property
    def text_board(self) -> str:
        """The board as text (``b``/``w`` pieces, ``.`` empty, ``+`` the empty centre),
        rank n on top, file letters below; drawn from the SPN only when asked for."""
        ranks = self.spn.split(" ", 1)[0].split("/")
        n = len(ranks)
        width = len(str(n))
        lines = []
        for i, rank in enumerate(ranks):
            r = n - 1 - i
            cells: list[str] = []
            for ch in rank:
                cells.extend("." * int(ch) if ch.isdigit() else ch)
            if r == n // 2 and cells[n // 2] == ".":
                cells[n // 2] = "+"
            lines.append(f"{r + 1:>{width}} " + " ".join(cells))
        lines.append(" " * width + " " + " ".join("abcdefghi"[:n]))
        return "\n".join(lines)

    def player(self, color: str) -> Player:
        """The player of ``color`` (``black`` or ``white``)."""
        return self.black if color == "black" else self.white

    def color_of(self, user_id: int) -> str | None:
        """``black``/``white`` for a player's user id, ``None`` for an onlooker."""
        if self.black.user_id == user_id and not self.black.is_bot:
            return "black"
        if self.white.user_id == user_id and not self.white.is_bot:
            return "white"
        return None


@dataclass(frozen=True)
class TurnEvent:
    """One thing that happened on the board, in order.

    A human command gives one event (its actions); a bot turn gives one event per action
    so that a chain of captures can be shown step by step.

    Attributes:
        player: who acted.
        color: ``black`` or ``white``.
        actions: the actions, as notation (``a1``, ``b2-c2``, ``xd4``, ``end``, ``pass``).
        summary: the engine's summary (cells as bit indexes of the board).
        placed, captured, removed: cell names, for messages; ``placed`` holds the turn's
            whole placement so far (a pair's first cell, placed by an earlier command, too).
        replaced: the enemy pieces replaced in the five-in-a-row replacement phase
            (cell names; such an action is not in ``placed``).
        turn_complete: whether the player's turn ended with these actions (``False`` in
            the middle of a placement pair or a capture chain).
        spn: the position after these actions.
        png: the board image after these actions, when the service has a renderer
            (the whole turn so far: every step of a chain, numbered).
        note: the reason for a pass the service played for the player.
    """

    player: Player
    color: str
    actions: tuple[str, ...]
    summary: TurnSummary
    placed: tuple[str, ...]
    captured: tuple[str, ...]
    removed: tuple[str, ...]
    turn_complete: bool
    spn: str
    png: bytes | None = None
    #: Why this happened, when the player did not choose it: a pass played for them
    #: (``(key, params)`` of ``bot/locale``, see :mod:`bot.explain`).
    note: tuple[str, dict[str, Any]] | None = None
    #: A remark after what happened, when the board does not say it (a piece on the safe
    #: centre that a step flanked and did not take), as ``(key, params)``.
    aside: tuple[str, dict[str, Any]] | None = None
    replaced: tuple[str, ...] = ()


@dataclass(frozen=True)
class RatingChange:
    """A player's Glicko-2 rating before and after a rated game."""

    user_id: int
    name: str
    size: int
    before: float
    after: float
    rd_before: float
    rd_after: float

    @property
    def delta(self) -> float:
        """The change, positive for a gain."""
        return self.after - self.before


@dataclass(frozen=True)
class GameOver:
    """How a game ended.

    Attributes:
        result: ``1-0``, ``0-1``, ``1/2-1/2``, or ``*`` for a cancelled game.
        reason: why it ended (``docs/rules.md``: ``capture-all``, ``resignation``,
            ``timeout``, ``agreement``...); a moderator's cancel is ``abandoned`` with
            result ``*``.
        winner, loser: the players, ``None`` for a draw or a cancel.
        rated: whether ratings changed.
        rating_changes: one per rated player.
        cancelled_by: the name of the moderator who cancelled the game (a cancel only).
        by_count: the players agreed to end by count (reason ``agreement``, as a draw
            offer accepted is: with equal pieces the verdict says which it was).
    """

    result: str
    reason: str
    winner: Player | None
    loser: Player | None
    rated: bool
    rating_changes: tuple[RatingChange, ...] = ()
    cancelled_by: str = ""
    by_count: bool = False


@dataclass(frozen=True)
class TurnResult:
    """What a game command did, ready to be shown.

    Attributes:
        game: the game after the command.
        events: what happened, in order (empty for ``board``; several when the bot
            replied, one per bot action).
        to_move: the player whose turn it is now, ``None`` once over.
        ping: the user id to mention: the human whose turn it is, or ``None``.
        chain_pending: the player to move is inside a capture chain: it may capture
            again or end the turn (``end_turn``).
        legal: the legal actions of the player to move, as notation (for hints).
        game_over: set when the game ended with this command.
        bot_to_move: it is the bot's turn and the caller asked the service not to play
            it yet (call :meth:`GameService.bot_turn`).
        png: the board image of the final position, when the service has a renderer.
        reader: the person the board message is for (the player to move; against the
            bot, the person it plays; after the end, the player whose turn it was), in
            whose language the picture is drawn and the message is to be worded
            (``bot.service.snapshots.public_reader``); ``None`` without a person.
        closed_challenges: when the command started the game, the channel's other
            pending challenges it closed (their Accept would start a second game here):
            adapters take their buttons away.
        late: the player's turn came after their time had run out: it was not played,
            and the game ended by ``timeout`` instead (``game_over``); adapters say so.
    """

    game: GameView
    events: tuple[TurnEvent, ...] = ()
    to_move: Player | None = None
    ping: int | None = None
    chain_pending: bool = False
    legal: tuple[str, ...] = ()
    game_over: GameOver | None = None
    bot_to_move: bool = False
    png: bytes | None = None
    reader: int | None = None
    closed_challenges: tuple[ChallengeView, ...] = ()
    late: bool = False


@dataclass(frozen=True)
class ChallengeView:
    """A pending (or settled) challenge.

    Attributes:
        id: the challenge id (adapters put it in button custom ids).
        status: ``pending``, ``accepted``, ``declined``, ``expired``, ``withdrawn``, or
            ``closed`` (a game started in its channel, or it was accepted while one was on).
        color: the challenger's colour choice: ``black``, ``white`` or ``random``.
        thread: whether accepting should open a thread for the game.
        expires_at: epoch seconds.
        game_id: the game started by accepting, if any (or, once ``closed``, the game
            that closed it).
    """

    id: int
    guild_id: int
    channel_id: int
    challenger: Player
    opponent: Player
    size: int
    variant: str
    color: str
    thread: bool
    status: str
    created_at: float
    expires_at: float
    game_id: int | None = None


@dataclass(frozen=True)
class ChallengeResult:
    """The outcome of ``challenge``, ``decline_challenge`` or an expiry.

    ``crossing``: the challenge was not stored, because ``challenge`` is the opponent's
    own challenge to the challenger, pending in the same channel (both pressed Rematch):
    the adapter accepts that one for the challenger, as its Accept button would.
    """

    challenge: ChallengeView
    ping: int | None = None
    crossing: bool = False


@dataclass(frozen=True)
class OfferResult:
    """An offer to end the game by count (the barrier rule), waiting for the opponent."""

    game: GameView
    offered_by: Player
    opponent: Player
    ping: int | None = None


@dataclass(frozen=True)
class Question:
    """A private question stored for one player to answer once with a button
    (``/seega resign``'s "are you sure?"): its id goes into the buttons."""

    id: int
    game_id: int


@dataclass(frozen=True)
class RatingView:
    """A player's rating on one board size in one guild."""

    size: int
    rating: float
    rd: float
    vol: float
    games: int
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True)
class LeaderboardEntry:
    """One line of a guild's leaderboard."""

    rank: int
    user_id: int
    name: str
    rating: float
    rd: float
    games: int
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True)
class Tally:
    """Wins, losses and draws."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.losses + self.draws


#: The console table's two local players (``bot.console.output.LOCAL_PLAYERS``): user ids
#: 1 and 2, which no Discord user has (Discord's ids are snowflakes, far larger), stored
#: in the games under these English names.
LOCAL_NAMES = {1: "Player 1", 2: "Player 2"}


def player_name(player: Player, lang: str) -> str:
    """A person's name, or "Seega bot (easy)" in the reader's language (the messages'
    and the pictures' one way to name a player).

    The console's local players are named in the reader's language too ("اللاعب 1" at an
    Arabic table): their stored name stays "Player 1", so the games, records and ratings
    written before are unchanged and read the same, and only the display is translated.
    """
    said = player_words(player)
    return said if isinstance(said, str) else texts.text(lang, said.key, **said.params)


def player_words(player: Player) -> str | texts.Text:
    """A player's name as a message parameter: a person's name as it is, or the words that
    :func:`player_name` says in the reader's language, for a message worded later (an
    error raised before its reader is known said "فاز Player 2" at an Arabic table)."""
    if player.is_bot:
        return texts.Text.of("player.bot", level=texts.Text.of(f"level.{player.bot_level}"))
    if LOCAL_NAMES.get(player.user_id) == player.name:
        return texts.Text.of("console.player", number=player.user_id)
    return player.name


def score_words(result: str) -> str | texts.Text:
    """A result as a message parameter: a win's score with the side it went to ("1-0 to
    Black", "1-0 لصالح الأسود"), a draw's or a cancel's as it is.

    A bare "1-0" said neither who won nor which number was whose (in chess "1-0" is a
    White win; here the first number is Black's), and in an Arabic sentence the reader
    could not tell the sides' order at all (native review)."""
    if result == "1-0":
        return texts.Text.of("score.black", result=result)
    if result == "0-1":
        return texts.Text.of("score.white", result=result)
    return result


def variant_words(variant: str) -> texts.Text:
    """A variant's name to read in a message or a picture (``variant.<code>``): the code
    people type in English ("two-then-one"), a name in Arabic ("قطعتان ثم قطعة"). Where
    the variant is to be typed (the lists of choices, the settings) the code is shown."""
    return texts.Text.of(f"variant.{variant}")


@dataclass(frozen=True)
class PlayerStats:
    """A player's rating and record in a guild.

    Attributes:
        ratings: one per board size the player has rated games on.
        versus_people: the record in finished games against people (rated or not).
        versus_bot: level -> record against the bot at that level.
        active_games: games still going.
    """

    user_id: int
    name: str
    ratings: tuple[RatingView, ...]
    versus_people: Tally
    versus_bot: dict[str, Tally] = field(default_factory=dict)
    active_games: int = 0


@dataclass(frozen=True)
class GameSummary:
    """One line of a history: who played whom, and how it ended."""

    id: int
    channel_id: int
    variant: str
    size: int
    black: Player
    white: Player
    status: str
    result: str | None
    reason: str | None
    created_at: float
    ended_at: float | None
    turns: int
    #: The last position (SPN) and the ruleset's options, to say how the game ended.
    spn: str = ""
    options: str = ""


@dataclass(frozen=True)
class RecordResult:
    """A game record for export.

    Attributes:
        game_id: the game.
        sgn: the record as SGN text (``docs/rules.md``).
        filename: a suggested file name for the SGN (``seega-42.sgn``).
        replay: an animated replay (GIF/APNG) when the service has a renderer.
        replay_filename: a suggested file name for the replay.
    """

    game_id: int
    sgn: str
    filename: str
    replay: bytes | None = None
    replay_filename: str | None = None


@dataclass(frozen=True)
class GuildSettings:
    """Per-guild settings (``/seega settings``). Timeouts are in seconds; ``hints`` is the
    hints a player may take per game (0: hints are off)."""

    guild_id: int
    turn_timeout: int = 3600
    challenge_timeout: int = 600
    default_variant: str = "standard"
    hints: int = 3


@dataclass(frozen=True)
class TimerEvent:
    """Something the scheduler did, for the adapter to announce.

    Attributes:
        kind: ``reminder`` (half the turn time is gone), ``timeout`` (the game ended:
            see ``turn``), ``challenge_expired`` (see ``challenge``) or ``bot_turn``
            (a bot turn that was due at start was played: see ``turn``).
        game: the game, for game events.
        turn: the result of ending the game by timeout / playing the bot turn.
        challenge: the expired challenge.
        ping: the user id to mention (the player reminded), if any.
        remaining: seconds left on the turn, for reminders.
    """

    kind: str
    game: GameView | None = None
    turn: TurnResult | None = None
    challenge: ChallengeView | None = None
    ping: int | None = None
    remaining: float | None = None


@dataclass(frozen=True)
class Abandoned:
    """What ended when a channel, a thread or a server was lost to the bot: its games,
    ended unrated (``*``, ``abandoned``), and its pending challenges, closed.

    Attributes:
        games: the games that were in play there, now over: abandoned, or, where one of
            its players deleted the channel or thread, that player's resignation.
        challenges: the challenges that were waiting for an answer there, now closed.
    """

    games: tuple[GameView, ...] = ()
    challenges: tuple[ChallengeView, ...] = ()


@dataclass(frozen=True)
class Moderator:
    """The capability to moderate one guild (cancel its games, change its settings).

    An adapter makes it only after checking the person's guild-wide right (on Discord:
    Manage Channels from their roles, never a single channel's overwrites); the service
    refuses moderation without it, or with one for another guild.
    """

    guild_id: int
    user_id: int
    #: The name a cancellation says it was done by ("cancelled by a moderator (Mod)").
    name: str = ""
    #: The console: the person at the keyboard runs their own table and may cancel a
    #: game they play in there; a server's moderator may not (they would dodge a loss).
    own_table: bool = False


# --------------------------------------------------------------------------- errors


#: Characters of a text parameter a service error keeps (a name, a cell, typed text).
PARAM_LIMIT = 60


def _shown_param(value: Any) -> Any:
    """A parameter as a message may show it: typed text clipped, a huge number described
    (Python refuses to write an int of more than 4,300 digits as text)."""
    if isinstance(value, str):
        return clip_typed(value, PARAM_LIMIT)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**18:
        digits = int(value.bit_length() * 0.30103) + 1
        return f"{'-' if value < 0 else ''}(a number of about {digits} digits)"
    return value


def clip_typed(text: str, limit: int = 40) -> str:
    """Typed text as a message echoes it: at most ``limit`` characters.

    A member can type thousands of characters into an option; echoed whole, the answer
    would pass Discord's 2,000-character limit and never arrive.
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ServiceError(Exception):
    """A request the service refuses: a message key and its parameters.

    The wording lives in ``bot/locale/<lang>.json`` under ``service.<key>``; ``str(error)``
    is the English sentence, for logs and the console. Raise it as
    ``BadInputError("bad_cell", cell=..., last=...)``. The older form
    ``BadInputError("English sentence", "key", ...)`` still works: its sentence stands
    in only while ``en.json`` has no ``service.<key>`` (a test lists such keys).

    Attributes:
        key: the stable message key (``not_your_turn``...).
        params: the values the message names (lists and :class:`~bot.texts.Text` are
            rendered in the reader's language).
    """

    key = "error"

    def __init__(self, key_or_message: str, key: str | None = None, **params: Any) -> None:
        fallback: str | None = key_or_message
        if key is None and texts.has("en", f"service.{key_or_message}"):
            key, fallback = key_or_message, None
        if key is not None:
            self.key = key
        # Text a member typed is echoed at most PARAM_LIMIT characters long: whole, a
        # 6,000-character option would make an answer Discord refuses to deliver.
        self.params: dict[str, Any] = {name: _shown_param(value) for name, value in params.items()}
        params = self.params
        english = fallback
        if key is not None and texts.has("en", f"service.{key}"):
            english = texts.text("en", f"service.{key}", **params)
        super().__init__(english or self.key)

    @property
    def message(self) -> str:
        """The English sentence."""
        return str(self.args[0])

    def text(self, lang: str) -> str:
        """The sentence in ``lang`` (English when the language lacks the key)."""
        if texts.has(lang, f"service.{self.key}"):
            return texts.text(lang, f"service.{self.key}", **self.params)
        return self.message


class NoGameError(ServiceError):
    """There is no active game in the channel (or no game with that id)."""

    key = "no_game"


class ChannelBusyError(ServiceError):
    """The channel already has an active game."""

    key = "channel_busy"


class NotAPlayerError(ServiceError):
    """The user is not one of the game's two players."""

    key = "not_a_player"


class NotYourTurnError(ServiceError):
    """It is the other player's (or the bot's) turn."""

    key = "not_your_turn"


class IllegalMoveError(ServiceError):
    """The action is not allowed now; the message lists what is."""

    key = "illegal_move"


class BotDeclinesError(IllegalMoveError):
    """The bot answered an offer with no: its answer, not a fault (shown as the bot's word)."""


class BadInputError(ServiceError):
    """Text that is not a cell, a size, a level, a variant or a duration."""

    key = "bad_input"


class GameOverServiceError(ServiceError):
    """The game has already ended."""

    key = "game_over"


class ChallengeError(ServiceError):
    """A challenge that cannot be made, accepted or declined (missing, expired, not yours)."""

    key = "challenge"


class QuestionAnsweredError(ServiceError):
    """A question's button pressed after the question was answered (two presses at once,
    two devices): the first answer stands and the message names it."""

    key = "question_answered"


class BotUnavailableError(ServiceError):
    """The AI could not choose the bot's turn; the game waits and the bot tries again later."""

    key = "bot_unavailable"


class StorageBusyError(ServiceError):
    """The database stayed locked after retries."""

    key = "storage_busy"


class StorageFullError(ServiceError):
    """The database (or the disk under it) is full: nothing was written."""

    key = "storage_full"


class StorageReadOnlyError(ServiceError):
    """The database refuses writes (a read-only file, folder or server): nothing was written."""

    key = "storage_read_only"


class NotAModeratorError(ServiceError):
    """Moderation (cancel, settings) without the guild's moderator capability."""

    key = "moderator_only"


class CorruptGameError(ServiceError):
    """The stored game did not replay to its stored position and was set aside."""

    key = "corrupt_game"
