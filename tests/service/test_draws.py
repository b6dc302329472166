"""Draw offers (issue 12): separate from the end by count, answered by the opponent or the bot.

Between people a draw ends the game ½-½ whatever the count and rates it as a draw; a
declined offer cannot be repeated by the same player before their next turn, and one
offer at a time. Against the bot, the bot's search (``medium``, deterministic) decides.
"""

from __future__ import annotations

import contextlib
import random

import pytest

from bot.results import BotDeclinesError, IllegalMoveError, NotAPlayerError, OfferResult, Player
from bot.service import GameService
from bot.wording import game_over_text
from tests.service.helpers import ALICE, BOB, CAROL, GUILD, insert_from, place_all, play_action, snapshot, start_people

BOT = Player.bot("medium")


async def _refused(service: GameService, db_path: object, call, key: str) -> None:  # type: ignore[no-untyped-def]
    before = snapshot(db_path)  # type: ignore[arg-type]
    with pytest.raises((IllegalMoveError, NotAPlayerError)) as caught:
        await call()
    assert caught.value.key == key, caught.value
    assert snapshot(db_path) == before, "a refusal changes nothing"  # type: ignore[arg-type]


async def test_an_accepted_draw_ends_a_rated_game_half_half_whatever_the_count(service: GameService) -> None:
    await insert_from(service, 1, "bbb2/5/5/5/ww3 b m 0/0 - 0 30", ALICE, BOB)  # 3 v 2: by count Alice would win
    offer = await service.offer_draw(1, BOB.user_id)
    assert isinstance(offer, OfferResult) and offer.opponent == ALICE and offer.ping == ALICE.user_id
    game = await service.game(1)
    assert game is not None and game.draw_offer_by == "white" and game.end_offer_by is None
    ended = await service.accept_draw(1, ALICE.user_id)
    over = ended.game_over
    assert over is not None and over.result == "1/2-1/2" and over.reason == "agreement"
    assert over.rated and len(over.rating_changes) == 2
    # equal ratings before: a draw leaves both ratings where they were (only the deviation shrinks)
    assert all(abs(c.after - c.before) < 0.5 and c.rd_after < c.rd_before for c in over.rating_changes)
    stats = await service.stats(GUILD, ALICE.user_id)
    assert stats.versus_people.draws == 1 and stats.versus_people.wins == 0


async def test_only_the_opponent_answers_and_an_offer_is_not_an_end_by_count(
    service: GameService, db_path: object
) -> None:
    await insert_from(service, 1, "bbb2/5/5/5/ww3 b m 0/0 - 0 30", ALICE, BOB)
    await _refused(service, db_path, lambda: service.accept_draw(1, ALICE.user_id), "no_draw_offer")
    await service.offer_draw(1, ALICE.user_id)
    await _refused(service, db_path, lambda: service.accept_draw(1, ALICE.user_id), "own_draw_offer")  # Bob decides
    await _refused(service, db_path, lambda: service.accept_draw(1, CAROL.user_id), "not_a_player")
    await _refused(service, db_path, lambda: service.accept_end(1, BOB.user_id), "no_offer")
    await _refused(service, db_path, lambda: service.offer_draw(1, ALICE.user_id), "draw_already_offered")
    both = await service.offer_draw(1, BOB.user_id)  # Bob offers back: that is an agreement
    assert not isinstance(both, OfferResult) and both.game_over is not None
    assert both.game_over.result == "1/2-1/2"


async def test_a_declined_offer_waits_for_the_offerers_next_turn(service: GameService, db_path: object) -> None:
    start = await start_people(service, 1)
    await _refused(service, db_path, lambda: service.decline_draw(1, BOB.user_id), "no_draw_offer")
    await service.offer_draw(1, ALICE.user_id)  # a draw may be offered at any time, placement too
    declined = await service.decline_draw(1, BOB.user_id)
    assert declined.offered_by == ALICE and declined.opponent == BOB
    assert (await service.game(1)).draw_offer_by is None  # type: ignore[union-attr]
    for _ in range(3):  # the spam the rule is for
        await _refused(service, db_path, lambda: service.offer_draw(1, ALICE.user_id), "draw_declined_wait")
    offer = await service.offer_draw(1, BOB.user_id)  # the other player may still offer
    assert isinstance(offer, OfferResult)
    await service.decline_draw(1, ALICE.user_id)
    await service.place(1, ALICE.user_id, "a1 b1")  # Alice plays her turn: she may offer again
    again = await service.offer_draw(1, ALICE.user_id)
    assert isinstance(again, OfferResult)
    await _refused(service, db_path, lambda: service.offer_draw(1, BOB.user_id), "draw_declined_wait")
    await service.place(1, BOB.user_id, "a5 b5")  # Bob plays on: Alice's offer lapses
    game = await service.game(1)
    assert game is not None and game.draw_offer_by is None and game.status == "active"
    assert start.game.id == game.id


async def test_one_pending_offer_at_a_time(service: GameService, db_path: object) -> None:
    placed = await place_all(service, 1, await start_people(service, 1), random.Random(4))
    assert placed.game.phase == "m"
    await service.offer_end(1, ALICE.user_id)
    await _refused(service, db_path, lambda: service.offer_draw(1, ALICE.user_id), "draw_count_pending")
    await _refused(service, db_path, lambda: service.offer_draw(1, BOB.user_id), "draw_answer_count_first")
    ended = await service.accept_end(1, BOB.user_id)
    assert ended.game_over is not None and ended.game_over.reason == "agreement"


async def test_the_bot_accepts_a_draw_when_it_is_not_ahead(service: GameService) -> None:
    await insert_from(service, 1, "b3w/5/5/5/w3b b m 0/0 - 0 30", ALICE, BOT)  # 2 v 2, even
    ended = await service.offer_draw(1, ALICE.user_id)
    assert not isinstance(ended, OfferResult)
    assert ended.game_over is not None and ended.game_over.result == "1/2-1/2" and not ended.game_over.rated


async def test_the_bot_declines_when_ahead_and_the_offer_cannot_be_repeated(
    service: GameService, db_path: object
) -> None:
    await insert_from(service, 1, "3bw/w1wbb/5/4w/b4 b m 0/0 - 0 30", ALICE, BOT)  # 4 v 4, White better
    with pytest.raises(BotDeclinesError) as caught:
        await service.offer_draw(1, ALICE.user_id)
    assert "declines the draw" in str(caught.value)
    await _refused(service, db_path, lambda: service.offer_draw(1, ALICE.user_id), "draw_declined_wait")
    game = await service.game(1)
    assert game is not None and game.status == "active"
    mover = game.to_move
    assert mover == ALICE
    legal = (await service.board(1)).legal
    played = await play_action(service, 1, ALICE.user_id, legal[0])  # Alice's turn, then the bot's reply
    if played.to_move == ALICE:  # her turn done, she may offer again (the bot judges afresh)
        with contextlib.suppress(BotDeclinesError):
            await service.offer_draw(1, ALICE.user_id)


async def test_never_while_the_bot_is_to_reply(service: GameService, db_path: object) -> None:
    await insert_from(service, 1, "b3w/5/5/5/w3b w m 0/0 - 0 30", ALICE, BOT)  # the bot (White) is to move
    await _refused(service, db_path, lambda: service.offer_draw(1, ALICE.user_id), "offer_bot_to_reply")


async def test_the_preview_refuses_before_anything_is_explained(service: GameService, db_path: object) -> None:
    await insert_from(service, 1, "bbb2/5/5/5/ww3 b m 0/0 - 0 30", ALICE, BOB)
    game = await service.draw_preview(1, ALICE.user_id)
    assert game.draw_offer_by is None
    await service.offer_draw(1, ALICE.user_id)
    await _refused(service, db_path, lambda: service.draw_preview(1, ALICE.user_id), "draw_already_offered")
    await _refused(service, db_path, lambda: service.draw_preview(1, CAROL.user_id), "not_a_player")
    await insert_from(service, 2, "b3w/5/5/5/w3b w m 0/0 - 0 30", ALICE, BOT)
    await _refused(service, db_path, lambda: service.draw_preview(2, ALICE.user_id), "offer_bot_to_reply")


async def test_a_takeback_is_no_way_around_a_declined_draw(service: GameService, db_path: object) -> None:
    await insert_from(service, 1, "3bw/w1wbb/5/4w/b4 b m 0/0 - 0 30", ALICE, BOT)  # the bot is better: it declines
    legal = (await service.board(1)).legal
    await play_action(service, 1, ALICE.user_id, legal[0])  # a turn, and the bot's reply
    with pytest.raises(BotDeclinesError):
        await service.offer_draw(1, ALICE.user_id)
    await service.takeback(1, ALICE.user_id)
    await _refused(service, db_path, lambda: service.offer_draw(1, ALICE.user_id), "draw_declined_wait")


async def test_an_offer_to_end_is_declined_or_withdrawn_and_a_decline_waits_for_a_turn(
    service: GameService, db_path: object
) -> None:
    """Play-test finding: the offer to end by count had only Accept. The opponent now
    declines it (the offerer may offer again after their next turn, as for a draw) and the
    offerer withdraws it; the offerer's own Accept says it is their own offer."""
    await insert_from(service, 1, "bbb2/5/5/5/ww3 b m 0/0 - 0 30", ALICE, BOB)  # Alice (Black) to move
    await _refused(service, db_path, lambda: service.decline_end(1, BOB.user_id), "no_end_offer_open")
    await service.offer_end(1, ALICE.user_id)
    await _refused(service, db_path, lambda: service.accept_end(1, ALICE.user_id), "own_end_offer")
    await _refused(service, db_path, lambda: service.decline_end(1, CAROL.user_id), "not_a_player")
    # Bob, not to move, cannot play on to answer: he is told to use the buttons
    await _refused(service, db_path, lambda: service.offer_draw(1, BOB.user_id), "draw_answer_count_first_wait")
    withdrawn = await service.decline_end(1, ALICE.user_id)
    assert withdrawn.offered_by == ALICE and withdrawn.opponent == BOB
    assert (await service.game(1)).end_offer_by is None  # type: ignore[union-attr]
    # A withdrawal waits for the offerer's next turn too: offer, withdraw, offer again
    # notified the opponent each time, as often as the offerer clicked.
    await _refused(service, db_path, lambda: service.offer_end(1, ALICE.user_id), "end_withdrawn_wait")
    await service.offer_end(1, BOB.user_id)
    declined = await service.decline_end(1, ALICE.user_id)
    assert declined.offered_by == BOB and declined.opponent == ALICE
    await service.move(1, ALICE.user_id, "a5", "a4")  # Alice's turn: she may offer again
    await service.move(1, BOB.user_id, "a1", "a2")
    await service.offer_end(1, ALICE.user_id)
    declined = await service.decline_end(1, BOB.user_id)
    assert declined.offered_by == ALICE and declined.opponent == BOB
    game = await service.game(1)
    assert game is not None and game.end_offer_by is None and game.status == "active"
    await _refused(service, db_path, lambda: service.end_preview(1, ALICE.user_id), "end_declined_wait")
    await _refused(service, db_path, lambda: service.offer_end(1, ALICE.user_id), "end_declined_wait")
    offer = await service.offer_draw(1, ALICE.user_id)  # a declined count is no declined draw
    assert isinstance(offer, OfferResult)
    await service.decline_draw(1, BOB.user_id)
    await service.move(1, ALICE.user_id, "a4", "a3")  # Alice's turn: she may offer again
    again = await service.offer_end(1, ALICE.user_id)
    assert isinstance(again, OfferResult)


async def test_a_draw_offer_is_withdrawn_by_its_offerer(service: GameService, db_path: object) -> None:
    """The offer to end by count could be withdrawn with its Decline button, a draw offer
    could not ("There is no draw offer for you to answer" to the one who made it): both
    kinds of offer now work alike, and the offerer waits for their next turn to offer again."""
    await insert_from(service, 1, "bbb2/5/5/5/ww3 b m 0/0 - 0 30", ALICE, BOB)  # Alice (Black) to move
    await service.offer_draw(1, ALICE.user_id)
    withdrawn = await service.decline_draw(1, ALICE.user_id)
    assert withdrawn.offered_by == ALICE and withdrawn.opponent == BOB
    assert (await service.game(1)).draw_offer_by is None  # type: ignore[union-attr]
    # not again before her next turn: offer and withdraw, over and over, notified Bob each time
    await _refused(service, db_path, lambda: service.offer_draw(1, ALICE.user_id), "draw_withdrawn_wait")
    await _refused(service, db_path, lambda: service.draw_preview(1, ALICE.user_id), "draw_withdrawn_wait")
    await _refused(service, db_path, lambda: service.decline_draw(1, CAROL.user_id), "not_a_player")
    await service.move(1, ALICE.user_id, "a5", "a4")  # Alice's turn: she may offer again
    again = await service.offer_draw(1, ALICE.user_id)
    assert isinstance(again, OfferResult)


async def test_an_offer_to_end_waits_for_an_open_draw_offer(service: GameService, db_path: object) -> None:
    """One offer waits at a time: a draw offered while an end by count waits was refused,
    but an end by count offered over a waiting draw offer silently replaced it (the
    opponent's draw question vanished, and the offerer's own draw too)."""
    await insert_from(service, 1, "bbb2/5/5/5/ww3 b m 0/0 - 0 30", ALICE, BOB)  # Alice (Black) to move
    await service.offer_draw(1, BOB.user_id)
    await _refused(service, db_path, lambda: service.end_preview(1, ALICE.user_id), "end_answer_draw_first")
    await _refused(service, db_path, lambda: service.offer_end(1, ALICE.user_id), "end_answer_draw_first")
    await _refused(service, db_path, lambda: service.offer_end(1, BOB.user_id), "end_draw_pending")
    game = await service.game(1)
    assert game is not None and game.draw_offer_by == "white" and game.end_offer_by is None


async def test_an_offer_to_end_sent_twice_is_refused_the_second_time(service: GameService, db_path: object) -> None:
    """Two explanations open, both **Offer to end** pressed: both went through, the
    opponent was pinged twice and the copy's buttons stayed live (re-check play-test). A
    draw offered twice was already refused; an offer to end is now refused alike."""
    await insert_from(service, 1, "bbb2/5/5/5/ww3 b m 0/0 - 0 30", ALICE, BOB)
    first = await service.offer_end(1, ALICE.user_id)
    assert isinstance(first, OfferResult) and first.ping == BOB.user_id
    await _refused(service, db_path, lambda: service.offer_end(1, ALICE.user_id), "end_already_offered")
    await _refused(service, db_path, lambda: service.end_preview(1, ALICE.user_id), "end_already_offered")


async def test_an_even_end_by_count_says_so_and_an_even_draw_says_draw(service: GameService) -> None:
    """Play-test: an end by count accepted with equal pieces read "both players agreed to a
    draw"; it is "ended by count, agreed: 2 pieces each". A draw offer accepted with equal
    pieces still says the players agreed to a draw."""
    even = "b3w/5/5/5/w3b b m 0/0 - 0 30"  # 2 v 2
    await insert_from(service, 1, even, ALICE, BOB)
    await service.offer_end(1, ALICE.user_id)
    ended = await service.accept_end(1, BOB.user_id)
    assert ended.game_over is not None and ended.game_over.result == "1/2-1/2"
    said = game_over_text(ended.game_over, "en", ended.game)
    assert said == "Draw: ended by count, agreed: 2 pieces each.", said
    assert "{" not in game_over_text(ended.game_over, "ar", ended.game)
    await insert_from(service, 2, even, ALICE, BOB)
    await service.offer_draw(2, ALICE.user_id)
    drawn = await service.accept_draw(2, BOB.user_id)
    assert drawn.game_over is not None
    assert game_over_text(drawn.game_over, "en", drawn.game) == "Draw: both players agreed to a draw, 2 pieces each."
