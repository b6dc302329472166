"""Ending games: resigning, ending by count (offer and accept), cancelling, timing out.

Each end is one :meth:`~bot.service.games.Games.write`: the decision is taken on the game
as loaded under the lock, and stored with a compare-and-swap that also rates the game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from bot.results import (
    BotDeclinesError,
    BotUnavailableError,
    CorruptGameError,
    GameOver,
    GameOverServiceError,
    GameView,
    IllegalMoveError,
    Moderator,
    NoGameError,
    NotAModeratorError,
    NotAPlayerError,
    OfferResult,
    Question,
    QuestionAnsweredError,
    ServiceError,
    TimerEvent,
    TurnResult,
)
from bot.service import offers
from bot.service.bot_offers import bot_accepts, evaluation_request
from bot.service.games import Games
from bot.service.loaded import LoadedGame, result_of, winner_of
from bot.service.numbers import storable
from bot.service.snapshots import board_png, game_view, turn_result
from bot.storage import GameRow, QuestionRow, QuestionSettledError
from bot.texts import Text
from engine import BLACK, COLOR_NAMES, WHITE

log = logging.getLogger(__name__)

#: ``(result, reason, status)`` of an ending decided on the loaded game.
Decision = tuple[str, str, str]
Ended = tuple[LoadedGame, GameOver]
#: A game ended unrated with nobody winning: a moderator's cancel, or a game whose channel
#: or server the bot lost (rules: result ``*``, reason ``abandoned``).
ABANDONED: Decision = ("*", "abandoned", "cancelled")


def _answered(status: str) -> QuestionAnsweredError:
    """The refusal of a second answer to a question, naming the answer that stood."""
    answer = Text.of("question.resigned") if status == "resigned" else Text.of("question.cancelled")
    return QuestionAnsweredError("question_answered", answer=answer)


def _resigner(g: LoadedGame, user_id: int) -> int:
    """The colour that resigns: the player's (the side to move at a hot seat)."""
    color = g.check_player(user_id, need_turn=False)
    return g.pos.side if g.row.black_id == g.row.white_id else color


def _resignation(g: LoadedGame, user_id: int) -> Decision:
    """The player resigns ``g``: the opponent wins by ``resignation``."""
    return result_of(1 - _resigner(g, user_id)), "resignation", "finished"


def _lost_by_deleter(g: LoadedGame, deleted_by: int | None) -> Decision:
    """How ``g`` ends when its channel or thread was deleted by ``deleted_by`` (``None``:
    nobody known). One of its two players deleted it: that player resigned, as
    :meth:`Ending.resign` ends it, rated (outside review atk41d, F1: a moderator who
    plays, refused ``cancel_own_game``, deleted the thread of a game they were losing to
    void it). Anybody else, or nobody known: abandoned, unrated. A game somebody plays
    against themselves (a hot seat) has nobody to lose to, and is abandoned."""
    if deleted_by is None or g.row.black_id == g.row.white_id:
        return ABANDONED
    for color in (BLACK, WHITE):
        player = g.player(color)
        if player.user_id == deleted_by and not player.is_bot:
            return _resignation(g, deleted_by)
    return ABANDONED


def _by_count(result: TurnResult) -> TurnResult:
    """``result`` of a game the players agreed to end by count, marked so (its verdict with
    equal pieces is "ended by count, agreed", not the draw offer's "agreed to a draw")."""
    if result.game_over is None or result.game_over.reason != "agreement":
        return result  # ended on time instead (Ending.agreed)
    return replace(result, game_over=replace(result.game_over, by_count=True))


class _Stale(ServiceError):
    """Internal: a timer fired for a game that has moved on."""


def by_count(g: LoadedGame) -> str:
    """The result of ending now by count (the barrier rule: more pieces wins, equal draws)."""
    b, w = g.pos.count(BLACK), g.pos.count(WHITE)
    return result_of(None if b == w else (BLACK if b > w else WHITE))


def _check_can_offer_end(g: LoadedGame, color: int) -> None:
    """Refuse an offer to end by count from a player whose last one was declined or
    withdrawn, before their next turn (an offer is a question, not a way to nag), and while a draw offer
    waits: one offer at a time (it replaced the draw offer, which vanished unanswered)."""
    mine, alone = COLOR_NAMES[color], g.row.black_id == g.row.white_id
    if not alone and offers.was_declined(g.row.end_offer, mine, offers.COUNT):
        raise IllegalMoveError("end_declined_wait")
    if not alone and offers.was_declined(g.row.end_offer, mine, offers.COUNT, withdrawn=True):
        raise IllegalMoveError("end_withdrawn_wait")
    offer = offers.pending(g.row.end_offer)
    if offer is not None and offer[0] == offers.DRAW:
        raise IllegalMoveError("end_draw_pending" if offer[1] == COLOR_NAMES[color] else "end_answer_draw_first")
    if offer == (offers.COUNT, COLOR_NAMES[color]) and g.row.black_id != g.row.white_id:
        # sent again (two explanations' buttons): it pinged the opponent twice and left a
        # second offer message live (re-check play-test); a draw was refused so already
        raise IllegalMoveError("end_already_offered")


class Ending:
    """Everything that ends a game before the rules do, and the turn timers."""

    def __init__(self, games: Games) -> None:
        self.games = games

    def agreed(self, g: LoadedGame, decision: Decision) -> Decision:
        """An agreement (a draw, an end by count) accepted in ``g``; the end on time if the
        player to move had run out of time first: an accept that comes after the deadline
        comes too late, as a move does (outside review atk41d F4: a player out of time
        accepted the draw offered before the scheduler woke, and drew a lost game)."""
        if self.games.overdue(g):
            return result_of(1 - g.pos.side), "timeout", "finished"
        return decision

    async def finish(self, g: LoadedGame, decision: Decision) -> Ended | None:
        """Store the decided end of ``g`` (``None`` if the compare-and-swap lost)."""
        result, reason, status = decision
        return await self.games.finish(g, g.pos, g.row.actions, result, reason, status)

    async def answer(self, ended: Ended, user_id: int | None) -> TurnResult:
        """The ended game as a turn result, with its final board."""
        g, over = ended
        return turn_result(g, (), over, await board_png(self.games, g, g.pos, None), acted_by=user_id)

    async def end(
        self, channel_id: int, decide: Callable[[LoadedGame], Decision], user_id: int | None = None
    ) -> TurnResult:
        """End the channel's game: ``decide(game)`` gives ``(result, reason, status)`` or refuses."""

        async def attempt(g: LoadedGame) -> Ended | None:
            return await self.finish(g, decide(g))

        return await self.answer(await self.games.write(channel_id, attempt), user_id)

    async def resign(self, channel_id: int, user_id: int) -> TurnResult:
        """The player resigns (at any time); the opponent wins by ``resignation``."""

        def decide(g: LoadedGame) -> Decision:
            return _resignation(g, user_id)

        return await self.end(channel_id, decide, user_id)

    async def ask_resign(self, channel_id: int, user_id: int) -> Question:
        """Store the question "resign this game?" for the player (refused, as a resignation
        would be, to somebody who does not play the channel's game).

        The question lives in the database, not in the message that shows it, so that it
        is answered exactly once (:meth:`confirm_resign`, :meth:`cancel_resign`) whichever
        process gets the press, and after a restart. Asking leaves the game alone: its
        version does not move, so a bot turn being thought about meanwhile is still stored.
        """
        g, _ = await self.games.load(channel_id, fresh=True)
        g.check_player(user_id, need_turn=False)
        row = await self.games.storage.ask_question(g.row.id, user_id, "resign", self.games.clock.now())
        return Question(row.id, row.game_id)

    async def _open_question(self, question_id: int, user_id: int) -> tuple[QuestionRow, GameRow]:
        """The player's pending resignation question and its game, still in play; a
        question answered already raises :class:`QuestionAnsweredError` naming the answer."""
        storage = self.games.storage
        question = await storage.question(question_id) if storable(question_id) else None
        if question is None or question.kind != "resign":
            raise IllegalMoveError("no_question")
        if question.user_id != user_id:
            raise NotAPlayerError("not_your_question")
        if question.status != "pending":
            raise _answered(question.status)
        game = await storage.game(question.game_id)
        if game is None or game.status != "active":
            # Read again: a Resign answered between the two reads ended the game, and the
            # press that lost the race is told that answer, not only that the game is over.
            again = await storage.question(question_id)
            if again is not None and again.status != "pending":
                raise _answered(again.status)
            raise GameOverServiceError("question_game_over", game_id=question.game_id)
        return question, game

    async def confirm_resign(self, question_id: int, user_id: int) -> TurnResult:
        """The question of :meth:`ask_resign` answered Resign: the opponent wins by ``resignation``.

        The first answer wins: the question leaves ``pending`` with a conditional update
        in the same transaction as the game's end, and :meth:`cancel_resign` with another,
        so a Resign and a Cancel pressed at once (two clicks, two devices, two bot
        processes) never both take effect; the later press raises
        :class:`QuestionAnsweredError` naming the answer that stood.
        """
        question, game = await self._open_question(question_id, user_id)

        async def attempt(g: LoadedGame) -> Ended | None:
            if g.row.id != question.game_id:
                raise GameOverServiceError("question_game_over", game_id=question.game_id)
            result = result_of(1 - _resigner(g, user_id))
            answer = (question.id, "resigned")
            return await self.games.finish(g, g.pos, g.row.actions, result, "resignation", "finished", answer)

        try:
            ended = await self.games.write(game.channel_id, attempt)
        except QuestionSettledError:
            raise await self._answered_now(question_id) from None
        return await self.answer(ended, user_id)

    async def cancel_resign(self, question_id: int, user_id: int) -> None:
        """The question of :meth:`ask_resign` answered Cancel: the game goes on (and a
        Resign pressed at the same time no longer ends it, see :meth:`confirm_resign`)."""
        await self._open_question(question_id, user_id)
        if not await self.games.storage.answer_question(question_id, "cancelled", self.games.clock.now()):
            raise await self._answered_now(question_id)

    async def _answered_now(self, question_id: int) -> QuestionAnsweredError:
        """The error for a press that found its question answered a moment ago."""
        question = await self.games.storage.question(question_id)
        return _answered(question.status if question is not None else "cancelled")

    async def end_preview(self, channel_id: int, user_id: int) -> tuple[GameView, str]:
        """The game and the result ending it by count now would give (``1-0``, ``0-1`` or
        ``1/2-1/2``), for the sentence that explains an offer before it is sent; the
        refusals of :meth:`offer_end` that need no search come first."""
        g, _ = await self.games.load(channel_id, fresh=True)
        _check_can_offer_end(g, g.check_player(user_id, need_turn=False))
        if g.pos.phase == "p":
            raise IllegalMoveError("offer_end_placement")
        bot_color = next((c for c in (BLACK, WHITE) if g.player(c).is_bot), None)
        if bot_color is not None and g.pos.side == bot_color:
            raise IllegalMoveError("offer_bot_to_reply")
        return game_view(g), by_count(g)

    async def offer_end(self, channel_id: int, user_id: int) -> OfferResult | TurnResult:
        """Propose ending by count (the barrier rule: more pieces wins, equal is a draw).

        Against the bot the bot answers at once, as a player would (see
        :mod:`bot.service.bot_offers`): the game ends (a :class:`TurnResult`) or a
        :class:`ServiceError` says why not. Between people the offer waits for
        :meth:`accept_end` and lapses when the opponent plays a turn instead. An offer
        answering the opponent's own offer accepts it.
        """
        games = self.games
        g, _ = await games.load(channel_id, fresh=True)
        _check_can_offer_end(g, g.check_player(user_id, need_turn=False))
        if g.pos.phase == "p":
            # Counting pieces means nothing while they are still being placed (the board
            # fills up evenly): the barrier rule is for a blocked movement phase.
            raise IllegalMoveError("offer_end_placement")
        bot_color = next((c for c in (BLACK, WHITE) if g.player(c).is_bot), None)
        if bot_color is not None and not g.player(1 - bot_color).is_bot:
            return await self._offer_to_bot(channel_id, user_id, g, bot_color)

        async def attempt(g: LoadedGame) -> OfferResult | Ended | None:
            color = g.check_player(user_id, need_turn=False)
            opponent = g.player(1 - color)
            if offers.offered_by(g.row.end_offer, offers.COUNT) == COLOR_NAMES[1 - color]:
                return await self.finish(g, (by_count(g), "agreement", "finished"))
            _check_can_offer_end(g, color)
            if offers.offered_by(g.row.end_offer, offers.COUNT) != COLOR_NAMES[color]:
                offered = await games.set_offer(g, offers.with_offer(g.row.end_offer, offers.COUNT, COLOR_NAMES[color]))
                if offered is None:
                    return None
                g = offered
            return OfferResult(game_view(g), g.player(color), opponent, ping=opponent.user_id)

        done: OfferResult | Ended = await games.write(channel_id, attempt, fresh=True)
        return done if isinstance(done, OfferResult) else _by_count(await self.answer(done, user_id))

    async def _offer_to_bot(self, channel_id: int, user_id: int, g: LoadedGame, bot_color: int) -> TurnResult:
        """The bot weighs the offer with its search (in the AI's pool) and ends the game or declines."""
        if g.pos.side == bot_color:
            raise IllegalMoveError("offer_bot_to_reply")
        result = by_count(g)
        try:
            value = await self.games.ai.evaluate(evaluation_request(g, g.player(bot_color).bot_level))
        except Exception:
            log.exception("the AI could not weigh an end offer in game %d", g.row.id)
            raise BotUnavailableError("offer_bot_unavailable") from None
        value_for_bot = -value  # the search values the position for the person to act
        if not bot_accepts(winner_of(result), bot_color, value_for_bot):
            log.info(
                "the bot declines ending game %d by count (%s): playing on is worth %d", g.row.id, result, value_for_bot
            )
            raise BotDeclinesError("offer_bot_declines", result=result)
        judged = g.row.version

        def decide(current: LoadedGame) -> Decision:
            current.check_player(user_id, need_turn=False)
            if current.row.id != g.row.id or current.row.version != judged:
                raise IllegalMoveError("offer_game_moved")
            return result, "agreement", "finished"

        return _by_count(await self.end(channel_id, decide, user_id))

    async def accept_end(self, channel_id: int, user_id: int) -> TurnResult:
        """The opponent accepts the end by count: more pieces wins, equal is a draw."""

        def decide(g: LoadedGame) -> Decision:
            color = g.check_player(user_id, need_turn=False)
            by = offers.offered_by(g.row.end_offer, offers.COUNT)
            if by == COLOR_NAMES[color] and g.row.black_id != g.row.white_id:
                raise IllegalMoveError("own_end_offer", opponent=g.player(1 - color).name)  # the opponent decides
            if by != COLOR_NAMES[1 - color]:
                raise IllegalMoveError("no_offer")
            return self.agreed(g, (by_count(g), "agreement", "finished"))

        return _by_count(await self.end(channel_id, decide, user_id))

    async def decline_end(self, channel_id: int, user_id: int) -> OfferResult:
        """The opponent declines the offer to end by count, or its offerer withdraws it."""
        return await self.decline_offer(channel_id, user_id, offers.COUNT)

    async def decline_offer(self, channel_id: int, user_id: int, kind: str) -> OfferResult:
        """The opponent declines the pending offer of ``kind`` (a draw, an end by count),
        or its offerer withdraws it: the game goes on. The offerer may offer again after
        their next turn, declined or withdrawn alike (each offer notifies the opponent:
        offer, withdraw, offer again must not ping them at will). The result names who
        offered; ``user_id`` tells a withdrawal (the offerer's) from a decline."""
        games = self.games

        async def attempt(g: LoadedGame) -> OfferResult | None:
            color = g.check_player(user_id, need_turn=False)
            by = offers.offered_by(g.row.end_offer, kind)
            if by is None:
                raise IllegalMoveError("no_draw_offer" if kind == offers.DRAW else "no_end_offer_open")
            offerer = BLACK if by == COLOR_NAMES[BLACK] else WHITE
            withdrawn = offerer == color and g.row.black_id != g.row.white_id
            value = offers.declined(g.row.end_offer, by, kind, withdrawn=withdrawn)
            stored = await games.set_offer(g, value)
            if stored is None:
                return None
            return OfferResult(game_view(stored), stored.player(offerer), stored.player(1 - offerer), ping=None)

        result: OfferResult = await games.write(channel_id, attempt, fresh=True)
        return result

    async def cancel(self, channel_id: int, moderator: Moderator | None = None) -> TurnResult:
        """End the channel's game unrated, result ``*`` and reason ``abandoned``: only with
        the moderator capability of the game's guild."""

        def decide(g: LoadedGame) -> Decision:
            if not isinstance(moderator, Moderator) or moderator.guild_id != g.row.guild_id:
                raise NotAModeratorError("moderator_only")
            if moderator.user_id in (g.row.black_id, g.row.white_id) and not moderator.own_table:
                # A player who moderates would end a game they are losing unrated, in one
                # step (play-test): they resign or offer a draw or an end by count instead.
                raise IllegalMoveError("cancel_own_game")
            return ABANDONED

        result = await self.end(channel_id, decide, moderator.user_id if isinstance(moderator, Moderator) else None)
        if result.game_over is not None and isinstance(moderator, Moderator) and moderator.name:
            result = replace(result, game_over=replace(result.game_over, cancelled_by=moderator.name))
        return result

    async def abandon(self, channel_id: int, deleted_by: int | None = None) -> GameView | None:
        """End the channel's game as :meth:`cancel` does (``*``, ``abandoned``, unrated),
        with no moderator: its channel, thread or server is gone, so nobody can play,
        cancel or even see it, and its clock would otherwise make the player to move
        lose a rated game (outside review atk41c, F1). ``None``: no game in play there.

        ``deleted_by``: who deleted the channel or thread, when the adapter could tell
        (on Discord, from the server's audit log). If that is one of the game's players,
        the game is that player's resignation instead, rated as :meth:`resign` rates it:
        a player may not end their own game unrated (``cancel_own_game``), by deleting
        its place either (outside review atk41d, F1).

        No picture is drawn: there is no channel left to show it in."""

        async def attempt(g: LoadedGame) -> Ended | None:
            return await self.finish(g, _lost_by_deleter(g, deleted_by))

        try:
            g, over = await self.games.write(channel_id, attempt, fresh=True)
        except (NoGameError, GameOverServiceError, CorruptGameError):
            return None
        if over.reason == "abandoned":
            log.info("game %d abandoned: its channel %d is gone", g.row.id, channel_id)
        else:
            log.info(
                "game %d ended %s by resignation: its player %d deleted its channel %d",
                g.row.id,
                over.result,
                deleted_by,
                channel_id,
            )
        return game_view(g)

    async def timeout(self, game_id: int) -> TurnResult | None:
        """End a game whose turn deadline has passed: the player to move loses by
        ``timeout``. ``None`` if the game is no longer active or the deadline moved."""
        row = await self.games.storage.game(game_id) if storable(game_id) else None
        if row is None or row.status != "active":
            return None
        now = self.games.clock.now()

        def decide(g: LoadedGame) -> Decision:
            if g.row.id != game_id or g.row.deadline is None or g.row.deadline > now:
                raise _Stale("the timer is stale")
            return result_of(1 - g.pos.side), "timeout", "finished"

        try:
            return await self.end(row.channel_id, decide)
        except (_Stale, CorruptGameError, NoGameError, GameOverServiceError):
            return None  # moved on, set aside, or ended by another process first

    async def reminder(self, game_id: int) -> TimerEvent | None:
        """Mark a due half-time reminder as sent and say whom to remind (``None`` if it
        is no longer due)."""
        storage = self.games.storage
        row = await storage.game(game_id) if storable(game_id) else None
        now = self.games.clock.now()
        if row is None or row.status != "active" or row.remind_at is None or row.remind_at > now:
            return None
        if not await storage.mark_reminded(row.id, row.version):
            return None
        try:
            g, _ = await self.games.load(row.channel_id, fresh=True)
        except ServiceError:
            return None
        player = g.to_move
        if player is None or player.is_bot:
            return None
        remaining = None if row.deadline is None else max(0.0, row.deadline - now)
        return TimerEvent("reminder", game=game_view(g), ping=player.user_id, remaining=remaining)
