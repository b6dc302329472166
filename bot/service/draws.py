"""A draw offer: ½-½ by agreement, whatever the count (the end-by-count offer is the other one).

Between people the offer waits for the opponent's answer (Accept or Decline) and lapses
when the opponent plays a turn instead; against the bot, the bot answers at once with its
own search (in the AI's pool, the same judgement as an end by count that would be a draw:
see :mod:`bot.service.bot_offers`). A game holds one pending offer
(:mod:`bot.service.offers`); a player whose draw offer was declined may not offer another
until they have played a turn, so an offer cannot be used to nag.
"""

from __future__ import annotations

import logging

from bot.results import BotDeclinesError, BotUnavailableError, GameView, IllegalMoveError, OfferResult, TurnResult
from bot.service import offers
from bot.service.bot_offers import bot_accepts, evaluation_request
from bot.service.ending import Decision, Ended, Ending
from bot.service.loaded import LoadedGame
from bot.service.snapshots import game_view
from engine import BLACK, COLOR_NAMES, WHITE

log = logging.getLogger(__name__)

DRAW: Decision = ("1/2-1/2", "agreement", "finished")


def _offerer_color(g: LoadedGame, user_id: int) -> int:
    """The colour offering: the player's, or at a one-person table the side to move."""
    color = g.check_player(user_id, need_turn=False)
    return g.pos.side if g.row.black_id == g.row.white_id else color


def _check_can_offer(g: LoadedGame, color: int) -> None:
    """Refuse a second offer while one waits, and a repeat before the next turn."""
    mine = COLOR_NAMES[color]
    if offers.was_declined(g.row.end_offer, mine):
        raise IllegalMoveError("draw_declined_wait")
    if offers.was_declined(g.row.end_offer, mine, withdrawn=True):
        raise IllegalMoveError("draw_withdrawn_wait")
    offer = offers.pending(g.row.end_offer)
    if offer is None:
        return
    kind, by = offer
    if by == mine:
        raise IllegalMoveError("draw_already_offered" if kind == offers.DRAW else "draw_count_pending")
    if kind == offers.COUNT:
        # Playing on answers it only for the player to move; the other answers with the buttons.
        raise IllegalMoveError("draw_answer_count_first" if g.pos.side == color else "draw_answer_count_first_wait")


class Draws:
    """Offering, accepting and declining a draw."""

    def __init__(self, ending: Ending) -> None:
        self.ending = ending
        self.games = ending.games

    async def preview(self, channel_id: int, user_id: int) -> GameView:
        """The game, if ``user_id`` may offer a draw now; else the refusal :meth:`offer`
        would give (checked before the offer is explained, so nobody reads what a draw
        means only to be told they cannot offer one)."""
        g, _ = await self.games.load(channel_id, fresh=True)
        _check_can_offer(g, _offerer_color(g, user_id))
        bot_color = next((c for c in (BLACK, WHITE) if g.player(c).is_bot), None)
        if bot_color is not None and g.pos.side == bot_color:
            raise IllegalMoveError("offer_bot_to_reply")
        return game_view(g)

    async def offer(self, channel_id: int, user_id: int) -> OfferResult | TurnResult:
        """Offer a draw: an :class:`OfferResult` waiting for the opponent, or (against the
        bot, or answering the opponent's own draw offer) the drawn game's :class:`TurnResult`.

        Raises:
            BotDeclinesError: the bot judged playing on better for it.
            IllegalMoveError: an offer is already waiting, or this player's last draw
                offer was declined and they have not played a turn since.
        """
        games = self.games
        g, _ = await games.load(channel_id, fresh=True)
        _check_can_offer(g, _offerer_color(g, user_id))
        bot_color = next((c for c in (BLACK, WHITE) if g.player(c).is_bot), None)
        if bot_color is not None and not g.player(1 - bot_color).is_bot:
            return await self._offer_to_bot(channel_id, user_id, g, bot_color)

        async def attempt(g: LoadedGame) -> OfferResult | Ended | None:
            color = _offerer_color(g, user_id)
            if offers.offered_by(g.row.end_offer, offers.DRAW) == COLOR_NAMES[1 - color]:
                return await self.ending.finish(g, DRAW)  # both offered: that is an agreement
            _check_can_offer(g, color)
            stored = await games.set_offer(g, offers.with_offer(g.row.end_offer, offers.DRAW, COLOR_NAMES[color]))
            if stored is None:
                return None
            opponent = stored.player(1 - color)
            return OfferResult(game_view(stored), stored.player(color), opponent, ping=opponent.user_id)

        done: OfferResult | Ended = await games.write(channel_id, attempt, fresh=True)
        if isinstance(done, OfferResult):
            return done
        return await self.ending.answer(done, user_id)

    async def _offer_to_bot(self, channel_id: int, user_id: int, g: LoadedGame, bot_color: int) -> TurnResult:
        """The bot weighs the draw with its search (in the AI's pool), as it weighs a count that is a draw."""
        if g.pos.side == bot_color:
            raise IllegalMoveError("offer_bot_to_reply")
        try:
            value = await self.games.ai.evaluate(evaluation_request(g, g.player(bot_color).bot_level))
        except Exception:
            log.exception("the AI could not weigh a draw offer in game %d", g.row.id)
            raise BotUnavailableError("offer_bot_unavailable") from None
        value_for_bot = -value  # the search values the position for the person to act
        judged = g.row.version
        if not bot_accepts(None, bot_color, value_for_bot):
            log.info("the bot declines a draw in game %d: playing on is worth %d", g.row.id, value_for_bot)

            async def remember(current: LoadedGame) -> LoadedGame | None:
                if current.row.id != g.row.id or current.row.version != judged:
                    return current  # the game moved on: nothing to remember
                return await self.games.set_offer(
                    current, offers.declined(current.row.end_offer, COLOR_NAMES[1 - bot_color])
                )

            await self.games.write(channel_id, remember, fresh=True)
            raise BotDeclinesError("draw_bot_declines")

        def decide(current: LoadedGame) -> Decision:
            current.check_player(user_id, need_turn=False)
            if current.row.id != g.row.id or current.row.version != judged:
                raise IllegalMoveError("offer_game_moved")
            return DRAW

        return await self.ending.end(channel_id, decide, user_id)

    async def accept(self, channel_id: int, user_id: int) -> TurnResult:
        """The opponent accepts the draw: the game ends ½-½ (rated as a draw between people)."""

        def decide(g: LoadedGame) -> Decision:
            color = g.check_player(user_id, need_turn=False)
            by = offers.offered_by(g.row.end_offer, offers.DRAW)
            if by == COLOR_NAMES[color] and g.row.black_id != g.row.white_id:
                # their own offer (it said "There is no draw offer for you to answer")
                raise IllegalMoveError("own_draw_offer", opponent=g.player(1 - color).name)
            if by is None:
                raise IllegalMoveError("no_draw_offer")
            return self.ending.agreed(g, DRAW)

        return await self.ending.end(channel_id, decide, user_id)

    async def decline(self, channel_id: int, user_id: int) -> OfferResult:
        """The opponent declines the draw offer, or its offerer withdraws it: the offerer
        waits for their next turn either way (:meth:`Ending.decline_offer`)."""
        return await self.ending.decline_offer(channel_id, user_id, offers.DRAW)
