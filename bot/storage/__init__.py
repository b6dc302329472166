"""Storage: games, challenges, ratings and settings, on SQLite or PostgreSQL.

``await Storage.open(target)`` opens the backend ``SEEGA_DB`` names: a path (or
``sqlite:///path``) is SQLite (:mod:`bot.storage.sqlite`, the default), a
``postgresql://user@host:port/db`` URL is PostgreSQL (:mod:`bot.storage.postgres`).
Both implement the contract of :mod:`bot.storage.contract` and hand out the rows of
:mod:`bot.storage.rows`; the service never knows which one it talks to.
"""

from bot.storage import postgres, sqlite
from bot.storage.contract import Storage, is_postgres_url, sqlite_path
from bot.storage.rows import (
    ChallengeCaps,
    ChallengeRow,
    ChannelTakenError,
    CrossingChallengeError,
    GameMovedOnError,
    GameRow,
    GameUpdate,
    NewGame,
    QuestionRow,
    QuestionSettledError,
    Rater,
    RatingRow,
    SettingsRow,
    TallyRow,
    TooManyChallengesError,
    TooManyGamesError,
)
from bot.storage.sqlite import MIGRATIONS_DIR, migrations
from bot.storage.timers import Shards, shard_of

__all__ = [
    "Storage",
    "Shards",
    "is_postgres_url",
    "shard_of",
    "sqlite_path",
    "ChallengeCaps",
    "ChallengeRow",
    "ChannelTakenError",
    "CrossingChallengeError",
    "GameMovedOnError",
    "GameRow",
    "GameUpdate",
    "NewGame",
    "QuestionRow",
    "QuestionSettledError",
    "RatingRow",
    "Rater",
    "SettingsRow",
    "TallyRow",
    "TooManyChallengesError",
    "TooManyGamesError",
    "MIGRATIONS_DIR",
    "migrations",
    "postgres",
    "sqlite",
]
