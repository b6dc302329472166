"""Offers to end by count against the bot: it answers as a player would, never while it is to reply.

Positions are inserted as they stand (movement phase, 5x5 standard); the bot plays at
``medium``, whose depth-limited search gives the same values on every machine. The bot's
verdicts follow from those values: a count it wins is accepted, a drawn count only when
it is not ahead by more than half a piece, a lost count only when the game is lost anyway.
"""

from __future__ import annotations

import pytest

from bot.results import IllegalMoveError, Player
from bot.service import GameService
from tests.service.helpers import ALICE, GUILD, insert_from, play_action, snapshot, start_people

BOT = Player.bot("medium")


async def _offer_refused(service: GameService, db_path: object, key: str) -> None:
    before = snapshot(db_path)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError) as caught:
        await service.offer_end(1, ALICE.user_id)
    assert caught.value.key == key
    assert snapshot(db_path) == before, "a declined offer changes nothing"  # type: ignore[arg-type]


async def test_never_while_the_bot_is_to_reply(service: GameService, db_path: object) -> None:
    """The review's exploit: place two pieces, offer the end before the bot places, win 1-0."""
    result = await service.play_bot(GUILD, 1, ALICE, "expert", color="black")
    result = await play_action(service, 1, ALICE.user_id, "a1")
    result = await service.place(1, ALICE.user_id, "b1", bot_reply=False)
    assert result.bot_to_move
    await _offer_refused(service, db_path, "offer_end_placement")  # no count while pieces are placed
    game = await service.game(1)
    assert game is not None and game.result is None


async def test_never_while_the_bot_is_to_reply_in_the_movement_phase(service: GameService, db_path: object) -> None:
    await insert_from(service, 1, "bbb2/5/5/5/ww3 w m 0/0 - 0 30", ALICE, BOT)  # the bot (White) is to move
    await _offer_refused(service, db_path, "offer_bot_to_reply")


async def test_no_count_during_placement_between_people(service: GameService, db_path: object) -> None:
    """Issue 12: a draw by count after four placements ended a rated game at once."""
    await start_people(service, 1)
    await service.place(1, ALICE.user_id, "a1 b1")
    await _offer_refused(service, db_path, "offer_end_placement")
    assert (await service.game(1)).end_offer_by is None  # type: ignore[union-attr]


async def test_a_drawn_count_is_accepted_when_the_bot_is_not_ahead(service: GameService) -> None:
    await insert_from(service, 1, "b3w/5/5/5/w3b b m 0/0 - 0 30", ALICE, BOT)
    ended = await service.offer_end(1, ALICE.user_id)
    assert ended.game_over is not None and ended.game_over.result == "1/2-1/2"
    assert ended.game_over.reason == "agreement"


async def test_a_drawn_count_is_declined_when_the_bot_is_ahead(service: GameService, db_path: object) -> None:
    await insert_from(service, 1, "3bw/w1wbb/5/4w/b4 b m 0/0 - 0 30", ALICE, BOT)  # 4 v 4, White better
    await _offer_refused(service, db_path, "offer_bot_declines")


async def test_a_lost_count_is_declined_while_the_game_is_open(service: GameService, db_path: object) -> None:
    await insert_from(service, 1, "bbb2/5/5/5/ww3 b m 0/0 - 0 30", ALICE, BOT)  # 3 v 2 for Alice
    await _offer_refused(service, db_path, "offer_bot_declines")


async def test_a_lost_count_is_accepted_when_the_game_is_lost_anyway(service: GameService) -> None:
    await insert_from(service, 1, "1bw2/3b1/5/5/5 b m 0/0 - 0 30", ALICE, BOT)  # d4-d5 takes the last piece
    ended = await service.offer_end(1, ALICE.user_id)
    assert ended.game_over is not None and ended.game_over.result == "1-0"


async def test_a_count_the_bot_wins_is_accepted(service: GameService) -> None:
    await insert_from(service, 1, "bbb2/5/5/5/ww3 w m 0/0 - 0 30", BOT, ALICE)  # the bot is Black, 3 v 2
    ended = await service.offer_end(1, ALICE.user_id)
    assert ended.game_over is not None and ended.game_over.result == "1-0"
    assert ended.game_over.winner == BOT


async def test_the_offer_is_explained_with_what_it_would_give_before_it_is_sent(
    service: GameService, db_path: object
) -> None:
    """Issue 12: the end-by-count offer says what it means before it is sent."""
    from bot import wording

    await insert_from(service, 1, "bbb2/5/5/5/ww3 b m 0/0 - 0 30", ALICE, BOT)
    before = snapshot(db_path)  # type: ignore[arg-type]
    game, result = await service.end_preview(1, ALICE.user_id)
    assert result == "1-0" and snapshot(db_path) == before, "explaining sends nothing"  # type: ignore[arg-type]
    said = wording.end_offer_explained(game, result, ALICE.user_id, "en")
    assert "Now 3 black, 2 white: Alice would win." in said and "The bot answers at once" in said
    assert "سيفوز Alice" in wording.end_offer_explained(game, result, ALICE.user_id, "ar")
    await start_people(service, 2)
    with pytest.raises(IllegalMoveError) as caught:
        await service.end_preview(2, ALICE.user_id)
    assert caught.value.key == "offer_end_placement"
