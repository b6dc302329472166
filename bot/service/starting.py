"""Starting games: against the bot at once, or between people through a challenge.

A challenge is stored with its expiry; accepting it starts the game in one transaction
that also settles the challenge, so a double click or two processes start one game.
"""

from __future__ import annotations

import logging
import math
from dataclasses import replace

from bot.results import (
    BotUnavailableError,
    ChallengeError,
    ChallengeResult,
    ChallengeView,
    ChannelBusyError,
    Player,
    TurnResult,
)
from bot.service import catalog
from bot.service.bot_turns import BotTurns
from bot.service.games import Games
from bot.service.limits import LimitError
from bot.service.loaded import LoadedGame
from bot.service.numbers import storable
from bot.service.snapshots import board_png, challenge_view, last_png, turn_result
from bot.storage import (
    ChallengeCaps,
    ChallengeRow,
    ChannelTakenError,
    CrossingChallengeError,
    NewGame,
    TooManyChallengesError,
    TooManyGamesError,
)
from bot.texts import Text
from engine import BLACK, Position, Ruleset

log = logging.getLogger(__name__)


class Starting:
    """``play-bot``, ``challenge``, accepting, declining and expiring challenges."""

    def __init__(self, games: Games, bots: BotTurns) -> None:
        self.games = games
        self.bots = bots

    def _too_many_games(self, exc: TooManyGamesError, acting: int, players: tuple[Player, ...]) -> LimitError:
        """The refusal for a full count of games: the asker's own, or the other player's by name."""
        cap = self.games.limits.active_games
        if exc.user_id == acting:
            return LimitError("too_many_games", limit=cap)
        name = next(p.name for p in players if p.user_id == exc.user_id)
        return LimitError("opponent_too_many_games", player=name, limit=cap)

    async def _busy(self, channel_id: int, user_id: int) -> ChannelBusyError:
        """The refusal for a channel with a game: its players are told to finish it first;
        anybody else, who cannot, is told who plays here and to play elsewhere."""
        row = await self.games.storage.active_game(channel_id)
        if row is None or user_id in (row.black_id, row.white_id):
            return ChannelBusyError("channel_busy")
        return ChannelBusyError("channel_busy_others", black=row.black_name, white=row.white_name)

    async def _ensure_free(self, channel_id: int, user_id: int) -> None:
        if await self.games.storage.active_game(channel_id) is not None:
            raise await self._busy(channel_id, user_id)

    async def _start(
        self,
        guild_id: int,
        channel_id: int,
        rules: Ruleset,
        black: Player,
        white: Player,
        acting: int,
        challenge_id: int | None = None,
    ) -> tuple[LoadedGame, tuple[ChallengeView, ...]]:
        """Insert the game, each person seated under the cap of active games (``acting``
        is who asked: the refusal speaks of their own count or names the other player).

        Returns the game and the channel's challenges its start closed. A challenge
        accepted into a channel that has a game is closed too: kept open, its Accept
        started a game nobody meant once that game was over (play-test)."""
        games = self.games
        now = games.clock.now()
        pos = Position(rules)
        deadline = remind = None
        # Fixed for the whole game: a change of the server's setting (by a moderator who
        # plays, say) must not shorten or lengthen a clock both players agreed to.
        timeout = (await games.settings(guild_id)).turn_timeout
        if not (black if pos.side == BLACK else white).is_bot:
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
            turn_timeout=timeout,
        )
        async with games.lock(channel_id):
            try:
                row = await games.storage.insert_game(new, challenge_id, max_active=games.limits.active_games)
            except TooManyGamesError as exc:
                raise self._too_many_games(exc, acting, (black, white)) from None
            except ChannelTakenError:
                if challenge_id is not None:
                    await games.storage.settle_challenge(challenge_id, "closed")
                raise await self._busy(channel_id, acting) from None
            except LookupError:
                raise ChallengeError("challenge_closed") from None
            loaded = LoadedGame(row, pos)
            games.cache[channel_id] = loaded
        games.note_timer(remind)
        log.info("game %d started in channel %d: %s vs %s", row.id, channel_id, black.name, white.name)
        closed = tuple(challenge_view(c) for c in await games.storage.challenges_closed_by(row.id))
        return loaded, closed

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
        """Start a game against the AI at once; if the bot has the first turn it plays it
        (unless ``bot_reply`` is false: then the adapter asks for the bot's turn)."""
        lvl = catalog.check_level(level)
        variant = catalog.variant_for(variant, (await self.games.settings(guild_id)).default_variant, size)
        rules = catalog.check_rules(variant, size)
        c = catalog.check_color(color)
        if c == "random":
            c = self.games.rng.choice(("black", "white"))
        await self._ensure_free(channel_id, player.user_id)
        if c == "white":  # the bot plays first: it needs the AI at once
            self.games.ai_queue.check(guild_id, player.user_id, channel_id)
        bot = Player.bot(lvl)
        black, white = (player, bot) if c == "black" else (bot, player)
        try:
            g, closed = await self._start(guild_id, channel_id, rules, black, white, player.user_id)
        except BaseException:
            self.games.ai_queue.release(guild_id, player.user_id, channel_id)  # no game: no bot turn
            raise
        png = await board_png(self.games, g, g.pos, None)
        result = turn_result(g, png=png)
        if g.to_move is not None and g.to_move.is_bot:
            if not bot_reply:
                result = turn_result(g, png=png, bot_to_move=True)
            else:
                try:
                    bot_done = await self.bots.play(channel_id, g)
                except BotUnavailableError:
                    bot_done = None  # the game is started; the bot's first turn waits for its retry
                if bot_done is not None:
                    g, events, over = bot_done
                    result = turn_result(g, events, over, last_png(events, png))
        return replace(result, closed_challenges=closed)

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
        """Store a pending challenge that expires after the guild's challenge timeout.

        If the opponent's own challenge to the challenger is pending in this channel
        (both pressed Rematch, or one answered a challenge with another), nothing is
        stored: the result is that challenge, marked ``crossing``, for the challenger to
        accept. The storage decides it under the channel's lock, so two crossing
        challenges sent at once leave one challenge, and accepting it one game."""
        if opponent.is_bot:
            raise ChallengeError("challenge_bot")
        if opponent.user_id == challenger.user_id:
            raise ChallengeError("challenge_self")
        games = self.games
        settings = await games.settings(guild_id)
        rules = catalog.check_rules(catalog.variant_for(variant, settings.default_variant, size), size)
        c = catalog.check_color(color)
        now = games.clock.now()
        await self._check_not_refused(guild_id, channel_id, challenger, opponent, now)
        limits = games.limits
        caps = ChallengeCaps(limits.active_games, limits.pending_challenges, limits.pending_to_one_opponent)
        try:
            row = await games.storage.insert_challenge(
                guild_id,
                channel_id,
                (challenger.user_id, challenger.name),
                (opponent.user_id, opponent.name),
                size,
                rules.variant,
                c,
                thread,
                now,
                now + settings.challenge_timeout,
                caps,
            )
        except ChannelTakenError:
            raise await self._busy(channel_id, challenger.user_id) from None
        except CrossingChallengeError as exc:
            waiting = exc.challenge
            if not _same_terms(waiting, size, rules.variant, c, thread):
                # Accepting it would start a rated game on the other person's terms, not
                # the ones just asked for (outside review, stop 38): the choice is theirs.
                raise ChallengeError("challenge_crossing_terms", other=waiting.challenger_name) from None
            return ChallengeResult(challenge_view(waiting), crossing=True)
        except TooManyGamesError:
            raise LimitError("too_many_games", limit=limits.active_games) from None
        except TooManyChallengesError as exc:
            if exc.to_opponent:
                raise LimitError("challenge_already_pending", opponent=opponent.name) from None
            raise LimitError("too_many_challenges", limit=limits.pending_challenges) from None
        games.note_timer(row.expires_at)
        return ChallengeResult(challenge_view(row), ping=opponent.user_id)

    async def _check_not_refused(
        self, guild_id: int, channel_id: int, challenger: Player, opponent: Player, now: float
    ) -> None:
        """Refuse a challenge to a person who declined the challenger's last one less than
        ``rechallenge_after`` seconds ago: each challenge pings them, and decline,
        challenge again... pinged them at will (outside review atk41c F3). A challenge
        its challenger withdrew holds nothing: withdrawn to correct a size or a colour, the
        right one must go at once (play-test pt41), and the cooldown of /seega challenge
        (3 a minute) bounds withdraw, challenge again... The opponent's own challenge
        waiting here is answered as ever."""
        hold = self.games.limits.rechallenge_after
        storage = self.games.storage
        refused = await storage.refused_challenge(guild_id, challenger.user_id, opponent.user_id, now - hold)
        if refused is None or refused.settled_at is None:
            return
        theirs = await storage.pending_challenges_from(guild_id, opponent.user_id, now)
        if any(w.opponent_id == challenger.user_id and w.channel_id == channel_id for w in theirs):
            return  # sent back to them, it accepts their challenge (crossing): no new ping
        seconds = max(1, math.ceil(refused.settled_at + hold - now))
        raise LimitError("challenge_declined_wait", opponent=opponent.name, seconds=seconds)

    async def get_challenge(self, challenge_id: int) -> ChallengeView:
        """A challenge by id (for buttons after a restart)."""
        row = await self.games.storage.challenge(challenge_id) if storable(challenge_id) else None
        if row is None:
            raise ChallengeError("no_challenge", id=challenge_id)
        return challenge_view(row)

    async def _open_challenge(self, challenge_id: int) -> ChallengeRow:
        storage = self.games.storage
        row = await storage.challenge(challenge_id) if storable(challenge_id) else None
        if row is None:
            raise ChallengeError("no_challenge", id=challenge_id)
        if row.status == "pending" and row.expires_at <= self.games.clock.now():
            await storage.settle_challenge(row.id, "expired")
            row = replace(row, status="expired")
        if row.status != "pending":
            raise ChallengeError("challenge_settled", status=Text.of(f"challenge_status.{row.status}"))
        return row

    async def accept_challenge(
        self, challenge_id: int, user_id: int, channel_id: int | None = None, *, bot_reply: bool = True
    ) -> TurnResult:
        """The opponent accepts: the game starts in ``channel_id`` (a new thread) or the
        challenge's channel. Only the challenged user may accept."""
        row = await self._open_challenge(challenge_id)
        if user_id != row.opponent_id:
            raise ChallengeError("not_challenged", opponent=row.opponent_name)
        rules = catalog.check_rules(row.variant, row.size)
        color = row.color if row.color != "random" else self.games.rng.choice(("black", "white"))
        challenger = Player(row.challenger_id, row.challenger_name)
        opponent = Player(row.opponent_id, row.opponent_name)
        black, white = (challenger, opponent) if color == "black" else (opponent, challenger)
        g, closed = await self._start(
            row.guild_id, channel_id or row.channel_id, rules, black, white, user_id, challenge_id=row.id
        )
        result = turn_result(g, png=await board_png(self.games, g, g.pos, None))
        return replace(result, closed_challenges=closed)

    async def decline_challenge(self, challenge_id: int, user_id: int) -> ChallengeResult:
        """The opponent declines (or the challenger withdraws) a pending challenge."""
        row = await self._open_challenge(challenge_id)
        if user_id == row.opponent_id:
            status = "declined"
        elif user_id == row.challenger_id:
            status = "withdrawn"
        else:
            raise ChallengeError("not_challenged_decline", opponent=row.opponent_name)
        if not await self.games.storage.settle_challenge(row.id, status, self.games.clock.now()):
            raise ChallengeError("challenge_closed")
        return ChallengeResult(challenge_view(replace(row, status=status)), ping=row.challenger_id)

    async def expire_challenges(self) -> list[ChallengeView]:
        """Mark every pending challenge past its expiry as expired; returns them."""
        out = []
        storage = self.games.storage
        for row in await storage.due_challenges(self.games.clock.now()):
            if await storage.settle_challenge(row.id, "expired"):
                out.append(challenge_view(replace(row, status="expired")))
        return out

    async def close_challenges_in(self, channel_id: int) -> list[ChallengeView]:
        """Close the pending challenges of a deleted channel: nobody can press their
        buttons any more, and each held one of its challenger's places (one per
        opponent, a few in all) until it expired, up to days later (atk41c, F6)."""
        return await self._close(await self.games.storage.pending_challenges_in(channel_id))

    async def close_challenges_of_guild(self, guild_id: int) -> list[ChallengeView]:
        """Close the pending challenges of a server the bot has left."""
        return await self._close(await self.games.storage.pending_challenges_of_guild(guild_id))

    async def _close(self, rows: list[ChallengeRow]) -> list[ChallengeView]:
        """Settle each still-pending challenge of ``rows`` as ``closed`` (a press or an
        expiry that settled it first wins); the ones this call closed."""
        out = []
        for row in rows:
            if await self.games.storage.settle_challenge(row.id, "closed"):
                out.append(challenge_view(replace(row, status="closed")))
        return out


def _same_terms(waiting: ChallengeRow, size: int, variant: str, color: str, thread: bool) -> bool:
    """Whether a challenge sent back to the person whose challenge is ``waiting`` asks for
    the same game (board, rules, where) with colours that agree (each wants the other
    colour, or the new one leaves it to chance): then it accepts ``waiting``. Two
    Rematch presses always agree; a challenge with other settings does not."""
    if (waiting.size, waiting.variant, bool(waiting.thread)) != (size, variant, thread):
        return False
    return color == "random" or (waiting.color != "random" and waiting.color != color)
