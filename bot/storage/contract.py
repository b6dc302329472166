"""The storage contract: what the service may ask of the database, on any backend.

:class:`Storage` holds every query and every multi-statement write once, written in the
SQL that SQLite and PostgreSQL share (``?`` placeholders; the PostgreSQL backend numbers
them). A backend supplies only what really differs: how to connect, how to run one
statement, how to run a write transaction (:class:`Transaction`), how to apply its
numbered migrations, and how a turn's compare-and-swap is sent.

The guarantees every backend keeps (the storage and service suites run on both):

* A game changes only by compare-and-swap on ``version``; of two writers holding the
  same version, exactly one wins, whichever process or connection they come from.
* A write of several statements is one transaction: all or nothing.
* Rating a finished game reads and writes both players' ratings in the game's
  transaction, under a lock per (guild, size, player), so two games finishing at once
  never lose an update (SQLite: the database write lock; PostgreSQL: advisory locks).
* Saving a guild's settings tells every process (:meth:`Storage.on_settings_changed`).

:meth:`Storage.open` picks the backend from the target: a ``postgresql://`` URL opens
PostgreSQL, anything else (a path, ``sqlite:///path``) SQLite. Backends register
themselves in :data:`BACKENDS` when their module is imported (``bot.storage`` imports
both), so this module imports neither.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import fields, replace
from typing import Any, ClassVar, Protocol, TypeVar

from bot.storage.coach import FORGET_HINT_POSITIONS_SQL, CoachQueries
from bot.storage.history import ACTIVE_COUNT_SQL, HistoryQueries
from bot.storage.locks import lock_key
from bot.storage.rows import (
    CHALLENGE_COLUMNS,
    GAME_COLUMNS,
    QUESTION_COLUMNS,
    RATING_COLUMNS,
    ChallengeCaps,
    ChallengeRow,
    ChannelTakenError,
    ConstraintError,
    CrossingChallengeError,
    GameRow,
    GameUpdate,
    NewGame,
    QuestionRow,
    QuestionSettledError,
    Rater,
    RatingRow,
    SettingsRow,
    TooManyChallengesError,
    TooManyGamesError,
)
from bot.storage.timers import Shards, TimerQueries
from bot.texts import shown_name

T = TypeVar("T")

#: Backend name -> class with an ``open`` coroutine; filled by the backend modules.
BACKENDS: dict[str, Any] = {}

#: The settings-changed callback: called with the guild id whose settings changed, or
#: ``None`` when changes may have been missed (forget every guild's).
SettingsListener = Callable[[int | None], None]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str | os.PathLike[str]) -> bool:
    """Whether ``SEEGA_DB`` names a PostgreSQL database rather than a SQLite file."""
    return str(target).startswith(POSTGRES_SCHEMES)


def sqlite_path(target: str | os.PathLike[str]) -> str:
    """The file of a SQLite target: a plain path, or ``sqlite:///path`` (``sqlite:///:memory:``)."""
    text = str(target)
    if text.startswith("sqlite:///"):
        return text[len("sqlite:///") :]
    if text.startswith("sqlite://"):
        raise ValueError(f"{text!r}: write SQLite URLs as sqlite:///relative/path or sqlite:////absolute/path")
    return text


#: The columns of ``guild_settings`` a moderator changes (:meth:`Storage.save_settings`).
SETTING_COLUMNS = ("turn_timeout", "challenge_timeout", "default_variant")


class Transaction(Protocol):
    """One open write transaction of a backend; statements use ``?`` placeholders."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; the number of rows it changed. Raises ConstraintError."""
        ...

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Any] | None:
        """The first row of a query (or of a ``RETURNING`` clause), or ``None``."""
        ...

    async def lock(self, keys: Sequence[int]) -> None:
        """Hold these keys until the transaction ends (taken in sorted order)."""
        ...


async def _check_active(tx: Transaction, guild_id: int, people: Sequence[int], cap: int) -> None:
    """Inside a write transaction: refuse if one of ``people`` plays ``cap`` active games.

    The lock per person makes the count hold until the transaction ends on every backend
    (SQLite's one writer holds it anyway; PostgreSQL's transactions would otherwise each
    count before the other's insert).
    """
    await tx.lock([lock_key("active games", guild_id, uid) for uid in people])
    for uid in people:
        row = await tx.fetchone(ACTIVE_COUNT_SQL, (guild_id, uid, uid))
        if row is not None and int(row[0]) >= cap:
            raise TooManyGamesError(uid)


def _channel_key(channel_id: int) -> int:
    """The lock of a channel's games and challenges: starting a game and storing a
    challenge there take it first, so each sees what the other committed."""
    return lock_key("channel", channel_id)


class _Lost(Exception):
    """Internal: a game's compare-and-swap lost inside a transaction that must roll back."""


async def _settle_question(tx: Transaction, question_id: int, status: str, now: float) -> None:
    """Answer a pending question inside ``tx``, or raise (rolling ``tx`` back) if it was answered."""
    changed = await tx.execute(
        "UPDATE questions SET status = ?, answered_at = ? WHERE id = ? AND status = 'pending'",
        (status, now, question_id),
    )
    if changed != 1:
        raise QuestionSettledError(question_id)


class Storage(TimerQueries, HistoryQueries, CoachQueries):
    """The database of one process; open with ``await Storage.open(target)``, then ``close()``.

    Every method is a coroutine returning the dataclasses of :mod:`bot.storage.rows`.
    """

    #: ``"sqlite"`` or ``"postgresql"``.
    backend: ClassVar[str] = ""

    def __init__(self) -> None:
        self._settings_listeners: list[SettingsListener] = []
        self.shards: Shards | None = None

    # ----------------------------------------------------------------- backend duties
    @classmethod
    async def open(cls, target: str | os.PathLike[str], **options: Any) -> Storage:
        """Open the database ``target`` names (see the module doc) and migrate it.

        ``options`` go to the backend's ``open``; the ones a backend has no use for
        (SQLite's checkpoint interval on PostgreSQL) are ignored by it.
        """
        name = "postgresql" if is_postgres_url(target) else "sqlite"
        backend = BACKENDS.get(name)
        if backend is None:  # pragma: no cover - bot.storage imports both
            raise RuntimeError(f"the {name} storage backend is not loaded (import bot.storage)")
        return await backend.open(target, **options)  # type: ignore[no-any-return]

    async def close(self) -> None:
        """Finish queued writes and close the connections."""
        raise NotImplementedError

    async def schema_version(self) -> int:
        """The applied schema version (0 for an empty database)."""
        raise NotImplementedError

    async def migrate(self, target_version: int | None = None) -> int:
        """Apply pending migrations (up to ``target_version``); returns the version."""
        raise NotImplementedError

    async def update_game(self, update: GameUpdate) -> bool:
        """Write a game's new state if its version is still ``expected_version``;
        ``False`` (nothing changed) when somebody else changed the game first."""
        raise NotImplementedError

    async def take_back(self, update: GameUpdate, from_ply: int) -> bool:
        """Write a takeback in one transaction: the game's state back to ``from_ply``
        actions (compare-and-swap, as :meth:`update_game`) and the hints taken at or past
        it unmarked (:data:`~bot.storage.coach.FORGET_HINT_POSITIONS_SQL`); ``False``
        (nothing changed) when somebody else changed the game first. Two writes could
        leave the game taken back and its hints still marked as paid for."""
        u = update

        async def body(tx: Transaction) -> bool:
            changed = await tx.execute(GameUpdate.SQL, update.params())
            if changed != 1:
                return False
            await tx.execute(FORGET_HINT_POSITIONS_SQL, (u.game_id, from_ply))
            return True

        applied: bool = await self._write(body)
        return applied

    async def _write(self, body: Callable[[Transaction], Awaitable[T]]) -> T:
        """Run ``body`` in one write transaction (retried while the database is busy)."""
        raise NotImplementedError

    async def _fetchone(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Any] | None:
        raise NotImplementedError

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        raise NotImplementedError

    async def _update_one(self, sql: str, params: Sequence[Any]) -> bool:
        """One conditional ``UPDATE`` on its own; whether it changed a row."""
        raise NotImplementedError

    async def _settings_saved(self, tx: Transaction, guild_id: int) -> None:
        """Inside the settings write: tell other processes (PostgreSQL ``NOTIFY``)."""

    # ----------------------------------------------------------------- games
    async def insert_game(
        self, game: NewGame, challenge_id: int | None = None, *, max_active: int | None = None
    ) -> GameRow:
        """Insert an active game (and settle its challenge in the same transaction).

        The channel's other pending challenges that would start their game in it (not
        those asking for a new thread) are closed in the same transaction, their
        ``game_id`` naming this game (:meth:`challenges_closed_by`).

        With ``max_active``, each person seated (not the bot) must play fewer active games
        in the guild; the count and the insert are one transaction, so games started at
        once cannot all pass it (the seated people are counted in the order black, white).

        Raises:
            ChannelTakenError: the channel already has an active game.
            LookupError: the challenge is no longer pending.
            TooManyGamesError: a seated person plays ``max_active`` games already.
        """
        people = [
            uid
            for uid, level in ((game.black_id, game.black_level), (game.white_id, game.white_level))
            if level is None
        ]

        async def body(tx: Transaction) -> GameRow:
            await tx.lock([_channel_key(game.channel_id)])  # before the people's: the order of insert_challenge
            if max_active is not None:
                await _check_active(tx, game.guild_id, people, max_active)
            try:
                row = await tx.fetchone(
                    "INSERT INTO games (guild_id, channel_id, variant, size, options, setup, black_id, black_name,"
                    " black_level, white_id, white_name, white_level, actions, spn, status, version, created_at,"
                    " updated_at, deadline, remind_at, turn_timeout) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '',"
                    f" ?, 'active', 0, ?, ?, ?, ?, ?) RETURNING {GAME_COLUMNS}",
                    (
                        game.guild_id, game.channel_id, game.variant, game.size, game.options, game.setup,
                        game.black_id, game.black_name, game.black_level,
                        game.white_id, game.white_name, game.white_level,
                        game.spn, game.created_at, game.created_at, game.deadline, game.remind_at,
                        game.turn_timeout,
                    ),
                )  # fmt: skip
            except ConstraintError as exc:
                raise ChannelTakenError(str(exc)) from None
            assert row is not None
            inserted = GameRow(*row)
            if challenge_id is not None:
                changed = await tx.execute(
                    "UPDATE challenges SET status = 'accepted', game_id = ? WHERE id = ? AND status = 'pending'",
                    (inserted.id, challenge_id),
                )
                if changed != 1:
                    raise LookupError(f"challenge {challenge_id} is no longer pending")
            # The channel's other challenges would start a second game here: closed, so
            # that an Accept pressed on one later (after this game, even) starts nothing.
            await tx.execute(
                "UPDATE challenges SET status = 'closed', game_id = ? WHERE channel_id = ? AND status = 'pending'"
                " AND thread = 0 AND id <> ?",
                (inserted.id, game.channel_id, challenge_id if challenge_id is not None else -1),
            )
            return inserted

        return await self._write(body)

    async def active_game(self, channel_id: int) -> GameRow | None:
        """The channel's active game, if any."""
        row = await self._fetchone(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND status = 'active'", (channel_id,)
        )
        return GameRow(*row) if row else None

    async def game(self, game_id: int) -> GameRow | None:
        """A game by id."""
        row = await self._fetchone(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return GameRow(*row) if row else None

    async def latest_played_game(self, channel_id: int) -> GameRow | None:
        """The channel's most recent game with at least one turn played (active or not), or
        finished without one (a game from a set-up position resigned at once is a real,
        rated game): a game cancelled before its first turn has no record worth showing."""
        row = await self._fetchone(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND (actions <> '' OR status = 'finished')"
            " ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return GameRow(*row) if row else None

    async def latest_reviewable_game(self, channel_id: int) -> GameRow | None:
        """The channel's most recent game ``/seega review`` can review: finished, or
        cancelled with at least one turn played."""
        row = await self._fetchone(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ?"
            " AND (status = 'finished' OR (status = 'cancelled' AND actions <> '')) ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return GameRow(*row) if row else None

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The channel's most recent game (active or not)."""
        row = await self._fetchone(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )
        return GameRow(*row) if row else None

    async def active_games_in(self, guild_id: int, limit: int) -> list[GameRow]:
        """The guild's games in progress, newest first, at most ``limit``.

        A member's request about their server reads that server's rows only (the partial
        index ``games_active_guild``): listing them through :meth:`all_games` read every
        active game of every server for each ``/seega games``.
        """
        rows = await self._fetchall(
            f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ? AND status = 'active' ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        )
        return [GameRow(*r) for r in rows]

    async def all_games(self, status: str | None = None) -> list[GameRow]:
        """Every game (of ``status``), oldest first: for checks and maintenance."""
        if status is None:
            rows = await self._fetchall(f"SELECT {GAME_COLUMNS} FROM games ORDER BY id")
        else:
            rows = await self._fetchall(f"SELECT {GAME_COLUMNS} FROM games WHERE status = ? ORDER BY id", (status,))
        return [GameRow(*r) for r in rows]

    async def finish_game(
        self,
        update: GameUpdate,
        rater: Rater | None = None,
        black_score: float | None = None,
        answer: tuple[int, str] | None = None,
    ) -> tuple[bool, tuple[tuple[RatingRow, RatingRow], tuple[RatingRow, RatingRow]] | None]:
        """End a game and, if ``rater`` is given, rate it, all in one transaction.

        ``answer`` (a question's id and its answer, e.g. ``(7, "resigned")``) settles the
        pending question that asked for this end in the same transaction: the game ends
        only if the question was still open, so of a Resign and a Cancel pressed at once
        exactly one takes effect.

        Returns:
            ``(applied, ratings)``: ``applied`` is ``False`` when the version check failed
            (nothing written); ``ratings`` is ``((black_before, white_before),
            (black_after, white_after))`` for a rated game.

        Raises:
            QuestionSettledError: the question of ``answer`` was answered already
                (nothing written).
        """
        u = update

        async def body(
            tx: Transaction,
        ) -> tuple[bool, tuple[tuple[RatingRow, RatingRow], tuple[RatingRow, RatingRow]] | None]:
            if answer is not None:
                await _settle_question(tx, answer[0], answer[1], u.updated_at)
            g = await tx.fetchone(
                "UPDATE games SET actions = ?, spn = ?, status = ?, result = ?, reason = ?, updated_at = ?,"
                " ended_at = ?, deadline = NULL, remind_at = NULL, end_offer = NULL, version = version + 1"
                " WHERE id = ? AND version = ? RETURNING guild_id, size, black_id, black_name, white_id, white_name",
                (u.actions, u.spn, u.status, u.result, u.reason, u.updated_at, u.ended_at, u.game_id,
                 u.expected_version),
            )  # fmt: skip
            if g is None:
                if answer is not None:
                    raise _Lost()  # the question stays open: roll its answer back
                return False, None
            if rater is None or black_score is None:
                return True, None
            guild_id, size = int(g[0]), int(g[1])
            players = ((int(g[2]), str(g[3])), (int(g[4]), str(g[5])))
            await tx.lock([lock_key("rating", guild_id, size, user_id) for user_id, _ in players])
            before = []
            for user_id, name in players:
                r = await tx.fetchone(
                    f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND size = ? AND user_id = ?",
                    (guild_id, size, user_id),
                )
                # The name this game was played under: a rating row kept the name of the
                # player's first rated game after they renamed themselves (play-test pt40b).
                before.append(replace(RatingRow(*r), name=name) if r else RatingRow(guild_id, size, user_id, name))
            black_after, white_after = rater(before[0], before[1], black_score)
            updates = ", ".join(f"{f.name} = excluded.{f.name}" for f in fields(RatingRow)[3:])
            for old, new in ((before[0], black_after), (before[1], white_after)):
                await tx.execute(
                    f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    f" ON CONFLICT (guild_id, size, user_id) DO UPDATE SET {updates}",
                    tuple(getattr(new, f.name) for f in fields(RatingRow)),  # the row normalised its name
                )
                await tx.execute(
                    "INSERT INTO rating_history (guild_id, size, user_id, game_id, before, after, rd_before, rd_after,"
                    " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (guild_id, size, new.user_id, u.game_id, old.rating, new.rating, old.rd, new.rd, u.updated_at),
                )
            return True, ((before[0], before[1]), (black_after, white_after))

        try:
            return await self._write(body)
        except _Lost:
            return False, None

    async def set_aside(self, game_id: int, reason: str, now: float) -> None:
        """Mark a game ``corrupt`` (it frees its channel and is never used again)."""

        async def body(tx: Transaction) -> None:
            await tx.execute(
                "UPDATE games SET status = 'corrupt', reason = ?, updated_at = ?, ended_at = ?, deadline = NULL,"
                " remind_at = NULL, version = version + 1 WHERE id = ?",
                (reason[:500], now, now, game_id),
            )

        await self._write(body)

    async def mark_reminded(self, game_id: int, version: int) -> bool:
        """Clear a game's reminder time if the game has not changed since it was read."""
        return await self._update_one(
            "UPDATE games SET remind_at = NULL WHERE id = ? AND version = ? AND remind_at IS NOT NULL",
            (game_id, version),
        )

    async def pause_clock(self, game_id: int, version: int, now: float) -> bool:
        """Stop an active game's clock at ``now`` (the console table closes): its deadline
        and reminder are not applied until :meth:`resume_clock`. ``False`` if the game
        changed since it was read, ended, or is paused already."""
        return await self._update_one(
            "UPDATE games SET paused_at = ?, version = version + 1"
            " WHERE id = ? AND version = ? AND status = 'active' AND paused_at IS NULL",
            (now, game_id, version),
        )

    async def resume_clock(self, game_id: int, version: int, now: float, shift: float) -> bool:
        """Start a game's clock again: its deadline and reminder move ``shift`` seconds
        later and it is no longer paused. ``False`` if the game changed since it was read."""
        return await self._update_one(
            "UPDATE games SET deadline = deadline + ?, remind_at = remind_at + ?, paused_at = NULL, updated_at = ?,"
            " version = version + 1 WHERE id = ? AND version = ? AND status = 'active'",
            (shift, shift, now, game_id, version),
        )

    # ----------------------------------------------------------------- questions
    async def ask_question(self, game_id: int, user_id: int, kind: str, now: float) -> QuestionRow:
        """Store a pending question to ``user_id`` about game ``game_id`` (``kind``: ``resign``),
        or return the one still pending: asking again shows the same question, so however
        often a person asks there is one open row per person, game and kind, and both
        messages' buttons answer it once."""

        async def body(tx: Transaction) -> QuestionRow:
            await tx.lock([lock_key("question", game_id, user_id)])
            pending = await tx.fetchone(
                f"SELECT {QUESTION_COLUMNS} FROM questions"
                " WHERE game_id = ? AND user_id = ? AND kind = ? AND status = 'pending' ORDER BY id LIMIT 1",
                (game_id, user_id, kind),
            )
            if pending is not None:
                return QuestionRow(*pending)
            row = await tx.fetchone(
                "INSERT INTO questions (game_id, user_id, kind, status, created_at) VALUES (?, ?, ?, 'pending', ?)"
                f" RETURNING {QUESTION_COLUMNS}",
                (game_id, user_id, kind, now),
            )
            assert row is not None
            return QuestionRow(*row)

        return await self._write(body)

    async def question(self, question_id: int) -> QuestionRow | None:
        """A question by id."""
        row = await self._fetchone(f"SELECT {QUESTION_COLUMNS} FROM questions WHERE id = ?", (question_id,))
        return QuestionRow(*row) if row else None

    async def answer_question(self, question_id: int, status: str, now: float) -> bool:
        """Answer a pending question (``status``: its answer); ``False`` if it was answered
        already, by whichever press, process or restart came first."""
        return await self._update_one(
            "UPDATE questions SET status = ?, answered_at = ? WHERE id = ? AND status = 'pending'",
            (status, now, question_id),
        )

    # ----------------------------------------------------------------- challenges
    async def insert_challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger: tuple[int, str],
        opponent: tuple[int, str],
        size: int,
        variant: str,
        color: str,
        thread: bool,
        created_at: float,
        expires_at: float,
        caps: ChallengeCaps | None = None,
    ) -> ChallengeRow:
        """Store a pending challenge, within ``caps`` if given: the checks and the insert
        are one transaction, so challenges sent at once cannot all pass them.

        Under the channel's lock (which :meth:`insert_game` takes too): a challenge to be
        played in the channel (not in a new thread) is refused while it has a game, and
        a challenge answering the opponent's pending challenge in the channel is not
        stored, so two crossing challenges sent at once leave one.

        Raises:
            ChannelTakenError: the challenge is to be played here, and the channel has a game.
            CrossingChallengeError: the opponent's challenge to the challenger is pending
                in this channel (accept it instead); checked before the caps.
            TooManyGamesError: the challenger plays ``caps.active_games`` games already.
            TooManyChallengesError: the challenger has ``caps.to_one_opponent`` challenges
                to this opponent pending, or ``caps.pending`` in all.
        """

        async def body(tx: Transaction) -> ChallengeRow:
            await tx.lock([_channel_key(channel_id)])
            if not thread:
                busy = await tx.fetchone(
                    "SELECT id FROM games WHERE channel_id = ? AND status = 'active'", (channel_id,)
                )
                if busy is not None:
                    raise ChannelTakenError(f"channel {channel_id} has game {busy[0]}")
            crossing = await tx.fetchone(
                f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE channel_id = ? AND status = 'pending'"
                " AND expires_at > ? AND challenger_id = ? AND opponent_id = ? ORDER BY id LIMIT 1",
                (channel_id, created_at, opponent[0], challenger[0]),
            )
            if crossing is not None:
                raise CrossingChallengeError(ChallengeRow(*crossing))
            if caps is not None:
                await _check_active(tx, guild_id, [challenger[0]], caps.active_games)
                await tx.lock([lock_key("challenges", guild_id, challenger[0])])
                pending = (
                    "SELECT COUNT(*) FROM challenges WHERE status = 'pending' AND expires_at > ?"
                    " AND guild_id = ? AND challenger_id = ?"
                )
                to_one = await tx.fetchone(
                    pending + " AND opponent_id = ?", (created_at, guild_id, challenger[0], opponent[0])
                )
                if to_one is not None and int(to_one[0]) >= caps.to_one_opponent:
                    raise TooManyChallengesError(to_opponent=True)
                in_all = await tx.fetchone(pending, (created_at, guild_id, challenger[0]))
                if in_all is not None and int(in_all[0]) >= caps.pending:
                    raise TooManyChallengesError(to_opponent=False)
            row = await tx.fetchone(
                "INSERT INTO challenges (guild_id, channel_id, challenger_id, challenger_name, opponent_id,"
                " opponent_name, size, variant, color, thread, status, created_at, expires_at)"
                f" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?) RETURNING {CHALLENGE_COLUMNS}",
                (guild_id, channel_id, challenger[0], shown_name(challenger[1]),
                 opponent[0], shown_name(opponent[1]), size, variant, color, int(thread), created_at, expires_at),
            )  # fmt: skip
            assert row is not None
            return ChallengeRow(*row)

        return await self._write(body)

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        """A challenge by id."""
        row = await self._fetchone(f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,))
        return ChallengeRow(*row) if row else None

    async def challenges_closed_by(self, game_id: int) -> list[ChallengeRow]:
        """The challenges closed when game ``game_id`` started in their channel."""
        rows = await self._fetchall(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE game_id = ? AND status = 'closed' ORDER BY id",
            (game_id,),
        )
        return [ChallengeRow(*r) for r in rows]

    async def settle_challenge(self, challenge_id: int, status: str, now: float | None = None) -> bool:
        """Move a pending challenge to ``status`` (declined, expired, withdrawn, closed),
        noting ``now`` as its ``settled_at``; ``False`` if it was no longer pending."""
        return await self._update_one(
            "UPDATE challenges SET status = ?, settled_at = ? WHERE id = ? AND status = 'pending'",
            (status, now, challenge_id),
        )

    async def refused_challenge(
        self, guild_id: int, challenger_id: int, opponent_id: int, since: float
    ) -> ChallengeRow | None:
        """The latest challenge from ``challenger_id`` to ``opponent_id`` in the guild that
        the opponent declined after ``since`` (a new one waits a while: docs/limits.md)."""
        row = await self._fetchone(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE challenger_id = ? AND opponent_id = ?"
            " AND status = 'declined' AND settled_at > ? AND guild_id = ?"
            " ORDER BY settled_at DESC LIMIT 1",
            (challenger_id, opponent_id, since, guild_id),
        )
        return None if row is None else ChallengeRow(*row)

    async def pending_challenges_from(self, guild_id: int, challenger_id: int, now: float) -> list[ChallengeRow]:
        """A person's pending challenges in the guild that have not expired (per-user caps)."""
        rows = await self._fetchall(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE status = 'pending' AND expires_at > ?"
            " AND guild_id = ? AND challenger_id = ? ORDER BY id",
            (now, guild_id, challenger_id),
        )
        return [ChallengeRow(*r) for r in rows]

    async def pending_challenges_in(self, channel_id: int) -> list[ChallengeRow]:
        """The channel's pending challenges, expired or not (the partial index
        ``challenges_channel_pending``): to close them when the channel is deleted."""
        rows = await self._fetchall(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE channel_id = ? AND status = 'pending' ORDER BY id",
            (channel_id,),
        )
        return [ChallengeRow(*r) for r in rows]

    async def pending_challenges_of_guild(self, guild_id: int) -> list[ChallengeRow]:
        """The guild's pending challenges, expired or not: to close them when the bot
        leaves the guild (rare: a scan of the pending ones is enough)."""
        rows = await self._fetchall(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE guild_id = ? AND status = 'pending' ORDER BY id",
            (guild_id,),
        )
        return [ChallengeRow(*r) for r in rows]

    # ----------------------------------------------------------------- settings
    async def settings(self, guild_id: int) -> SettingsRow:
        """The guild's settings (defaults if never set)."""
        row = await self._fetchone(
            "SELECT guild_id, turn_timeout, challenge_timeout, default_variant FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        return SettingsRow(*row) if row else SettingsRow(guild_id)

    async def save_settings(
        self, settings: SettingsRow, changed: Collection[str] = SETTING_COLUMNS, *, hint_limit: int | None = None
    ) -> None:
        """Store the guild's settings named in ``changed`` and, if given, its hint limit, in
        one transaction, and tell the other processes sharing the database.

        Only the settings changed are written over a stored row: the others stay as the
        database has them, so two moderators changing different settings at once both
        keep their change (the whole row read before was written back: the attacker
        review of stop 37). A guild without a row gets ``settings`` whole.
        """
        columns = [c for c in SETTING_COLUMNS if c in changed]
        on_conflict = "DO UPDATE SET " + ", ".join(f"{c} = excluded.{c}" for c in columns) if columns else "DO NOTHING"

        async def body(tx: Transaction) -> None:
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, turn_timeout, challenge_timeout, default_variant)"
                f" VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) {on_conflict}",
                (settings.guild_id, settings.turn_timeout, settings.challenge_timeout, settings.default_variant),
            )
            if hint_limit is not None:
                await tx.execute(
                    "INSERT INTO coach_settings (guild_id, hint_limit) VALUES (?, ?)"
                    " ON CONFLICT (guild_id) DO UPDATE SET hint_limit = excluded.hint_limit",
                    (settings.guild_id, hint_limit),
                )
            await self._settings_saved(tx, settings.guild_id)

        await self._write(body)

    # ----------------------------------------------------------------- members' languages
    async def user_language(self, user_id: int) -> str | None:
        """The language a member chose (``en``, ``ar``), or ``None``: follow their client."""
        row = await self._fetchone("SELECT language FROM user_languages WHERE user_id = ?", (user_id,))
        return str(row[0]) if row else None

    async def save_user_language(self, user_id: int, language: str | None) -> None:
        """Store a member's language (``None`` forgets it: follow their client again)."""

        async def body(tx: Transaction) -> None:
            if language is None:
                await tx.execute("DELETE FROM user_languages WHERE user_id = ?", (user_id,))
            else:
                await tx.execute(
                    "INSERT INTO user_languages (user_id, language) VALUES (?, ?)"
                    " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language",
                    (user_id, language),
                )

        await self._write(body)

    def on_settings_changed(self, listener: SettingsListener) -> None:
        """Call ``listener(guild_id)`` when another process saves a guild's settings
        (PostgreSQL ``LISTEN``; SQLite processes rely on the service's cache lifetime)."""
        self._settings_listeners.append(listener)

    def _settings_changed(self, guild_id: int | None) -> None:
        for listener in list(self._settings_listeners):
            listener(guild_id)
