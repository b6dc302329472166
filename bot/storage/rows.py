"""The rows the storage hands out and takes in, the same for every backend.

Every storage method returns these frozen dataclasses, never a driver's row type, so the
service cannot tell SQLite from PostgreSQL. The column order of ``GameRow``,
``ChallengeRow`` and ``RatingRow`` is the order of the ``SELECT`` lists built from them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from bot.texts import shown_name


class ChannelTakenError(Exception):
    """Inserting a game failed: the channel already has an active game."""


class TooManyGamesError(Exception):
    """Inserting a game or a challenge failed: a player already plays the most games
    allowed at once (counted in the inserting transaction)."""

    def __init__(self, user_id: int) -> None:
        super().__init__(f"user {user_id} plays the most games allowed at once")
        self.user_id = user_id


class CrossingChallengeError(Exception):
    """Inserting a challenge found the opponent's own challenge to the challenger pending
    in the same channel (two Rematch presses at once, or a challenge answered with
    another): nothing was inserted, and the challenger should accept ``challenge``."""

    def __init__(self, challenge: ChallengeRow) -> None:
        super().__init__(f"challenge {challenge.id} from the opponent is pending in this channel")
        self.challenge = challenge


class TooManyChallengesError(Exception):
    """Inserting a challenge failed: its challenger has the most pending challenges
    allowed, to this opponent (``to_opponent``) or in all."""

    def __init__(self, *, to_opponent: bool) -> None:
        super().__init__("a challenge to this opponent is pending" if to_opponent else "too many pending challenges")
        self.to_opponent = to_opponent


@dataclass(frozen=True)
class GameRow:
    """One row of ``games``."""

    id: int
    guild_id: int
    channel_id: int
    variant: str
    size: int
    options: str
    setup: str | None
    black_id: int
    black_name: str
    black_level: str | None
    white_id: int
    white_name: str
    white_level: str | None
    actions: str
    spn: str
    status: str
    result: str | None
    reason: str | None
    version: int
    created_at: float
    updated_at: float
    ended_at: float | None
    deadline: float | None
    remind_at: float | None
    end_offer: str | None
    #: When the console table closed with this game in play (its clock stopped), or ``None``.
    paused_at: float | None = None
    #: Seconds per turn, fixed when the game started (``None``: a game from before that
    #: was stored, which follows the server's setting).
    turn_timeout: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "black_name", shown_name(self.black_name))
        object.__setattr__(self, "white_name", shown_name(self.white_name))

    @property
    def action_list(self) -> list[str]:
        """The actions played, in order."""
        return self.actions.split()


@dataclass(frozen=True)
class NewGame:
    """What is needed to insert a game."""

    guild_id: int
    channel_id: int
    variant: str
    size: int
    options: str
    black_id: int
    black_name: str
    black_level: str | None
    white_id: int
    white_name: str
    white_level: str | None
    spn: str
    created_at: float
    setup: str | None = None
    deadline: float | None = None
    remind_at: float | None = None
    #: Seconds per turn for the whole game (the server's setting when it starts).
    turn_timeout: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "black_name", shown_name(self.black_name))
        object.__setattr__(self, "white_name", shown_name(self.white_name))


@dataclass(frozen=True)
class GameUpdate:
    """The new state of a game after a turn (or an end); written with compare-and-swap.

    The row's ``version`` becomes ``expected_version + 1``.
    """

    game_id: int
    expected_version: int
    actions: str
    spn: str
    updated_at: float
    status: str = "active"
    result: str | None = None
    reason: str | None = None
    ended_at: float | None = None
    deadline: float | None = None
    remind_at: float | None = None
    end_offer: str | None = None

    #: The compare-and-swap of one game (``?`` placeholders; :meth:`params` in order).
    SQL: ClassVar[str] = (
        "UPDATE games SET actions = ?, spn = ?, status = ?, result = ?, reason = ?, updated_at = ?, ended_at = ?,"
        " deadline = ?, remind_at = ?, end_offer = ?, paused_at = NULL, version = version + 1"
        " WHERE id = ? AND version = ?"
    )

    def params(self) -> tuple[Any, ...]:
        """The values of :attr:`SQL`'s placeholders."""
        return (self.actions, self.spn, self.status, self.result, self.reason, self.updated_at, self.ended_at,
                self.deadline, self.remind_at, self.end_offer, self.game_id, self.expected_version)  # fmt: skip


@dataclass(frozen=True)
class ChallengeRow:
    """One row of ``challenges``."""

    id: int
    guild_id: int
    channel_id: int
    challenger_id: int
    challenger_name: str
    opponent_id: int
    opponent_name: str
    size: int
    variant: str
    color: str
    thread: int
    status: str
    created_at: float
    expires_at: float
    game_id: int | None
    #: When it was declined or withdrawn (``None`` otherwise, and before this was stored).
    settled_at: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "challenger_name", shown_name(self.challenger_name))
        object.__setattr__(self, "opponent_name", shown_name(self.opponent_name))


@dataclass(frozen=True)
class RatingRow:
    """One row of ``ratings``: a player's Glicko-2 rating on one size in one guild."""

    guild_id: int
    size: int
    user_id: int
    name: str
    rating: float = 1500.0
    rd: float = 350.0
    vol: float = 0.06
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    updated_at: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", shown_name(self.name))


@dataclass(frozen=True)
class SettingsRow:
    """One row of ``guild_settings``."""

    guild_id: int
    turn_timeout: int = 3600
    challenge_timeout: int = 600
    default_variant: str = "standard"


@dataclass(frozen=True)
class TallyRow:
    """Counts of finished games from one player's side, grouped by opponent kind."""

    bot_level: str | None
    wins: int
    losses: int
    draws: int


#: A function that rates a finished game: (black, white, black's score 1/0.5/0) -> new rows.
Rater = Callable[[RatingRow, RatingRow, float], tuple[RatingRow, RatingRow]]


@dataclass(frozen=True)
class ChallengeCaps:
    """What a new challenge must stay under (the service's per-person limits)."""

    #: Active games the challenger may play at once.
    active_games: int
    #: Pending challenges the challenger may have open at once.
    pending: int
    #: Pending challenges from the challenger to one opponent.
    to_one_opponent: int


@dataclass(frozen=True)
class QuestionRow:
    """One row of ``questions``: a private question a player answers once with a button."""

    id: int
    game_id: int
    user_id: int
    kind: str
    #: ``pending`` until answered, then the answer (``resigned``, ``cancelled``).
    status: str
    created_at: float
    answered_at: float | None


class QuestionSettledError(Exception):
    """Settling a question failed: it was no longer pending (answered first by another
    press); the write it came with was rolled back."""

    def __init__(self, question_id: int) -> None:
        super().__init__(f"question {question_id} is no longer pending")
        self.question_id = question_id


class GameMovedOnError(Exception):
    """A write about one position of a game found the game elsewhere (a move or a
    takeback came while a hint was searched); nothing was written."""


class ConstraintError(Exception):
    """A write broke a constraint of the schema (a unique index, a foreign key); the
    backends turn their drivers' integrity errors into this one."""


def _columns(cls: type) -> str:
    return ", ".join(f.name for f in fields(cls))


#: The ``SELECT`` lists matching the dataclasses field by field.
GAME_COLUMNS = _columns(GameRow)
CHALLENGE_COLUMNS = _columns(ChallengeRow)
RATING_COLUMNS = _columns(RatingRow)
QUESTION_COLUMNS = _columns(QuestionRow)
