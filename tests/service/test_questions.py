"""The resignation question ("resign this game?") is stored and answered exactly once.

Resign and Cancel pressed at the same instant (two clicks, two devices, two bot processes
on one database) must not both take effect: the first answer stands, in the database,
and the other is refused with :class:`QuestionAnsweredError` naming it.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.clock import FakeClock
from bot.results import GameOverServiceError, IllegalMoveError, NotAPlayerError, QuestionAnsweredError, TurnResult
from bot.service import GameService
from tests.service.helpers import ALICE, BOB, Db, close_service, make_service, query, start_people

CAROL = 3


def _status(db: Db, question_id: int) -> str:
    return str(query(db, "SELECT status FROM questions WHERE id = ?", (question_id,))[0][0])


async def _one_answer(db: Db, a: GameService, b: GameService, channel: int, resign_first: bool) -> str:
    """Resign through ``a`` and Cancel through ``b`` at once; checks that exactly one
    stood, in the database and in what each press was told."""
    question = await a.ask_resign(channel, BOB.user_id)
    presses = [a.confirm_resign(question.id, BOB.user_id), b.cancel_resign(question.id, BOB.user_id)]
    if not resign_first:
        presses.reverse()
    results = await asyncio.gather(*presses, return_exceptions=True)
    resigned, cancelled = results if resign_first else results[::-1]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(refused) == 1 and isinstance(refused[0], QuestionAnsweredError), results
    games = query(db, "SELECT status, reason FROM games WHERE channel_id = ?", (channel,))
    status = _status(db, question.id)
    if isinstance(resigned, TurnResult):
        assert status == "resigned" and games == [("finished", "resignation")]
        assert resigned.game_over is not None and resigned.game_over.reason == "resignation"
        assert "you resigned" in str(cancelled)
    else:
        assert status == "cancelled" and games == [("active", None)], games
        assert cancelled is None
        assert "you chose Cancel" in str(resigned)
        assert await a.game(channel) is not None and await b.game(channel) is not None
    return status


@pytest.mark.parametrize("resign_first", [True, False])
async def test_resign_and_cancel_at_once_one_answer_stands(
    service: GameService, db_path: Db, resign_first: bool
) -> None:
    await start_people(service, 1)
    await _one_answer(db_path, service, service, 1, resign_first)


@pytest.mark.parametrize("resign_first", [True, False])
async def test_resign_and_cancel_through_two_processes(db_path: Db, resign_first: bool) -> None:
    """Two services (two bot processes, each its own connections and cache) on one database,
    each with the game loaded: the press each gets races the other's in the database."""
    clock = FakeClock()
    a, b = await make_service(db_path, clock), await make_service(db_path, clock)
    try:
        for channel in range(1, 7):  # a few rounds: either press may reach the database first
            await start_people(a, channel)
            await b.board(channel)
            if await _one_answer(db_path, a, b, channel, resign_first) == "cancelled":
                # End the game that went on: a person may have only so many at once
                # (CI: the sixth round refused "You already play 5 games at once").
                again = await a.ask_resign(channel, BOB.user_id)
                await a.confirm_resign(again.id, BOB.user_id)
    finally:
        await close_service(a)
        await close_service(b)


async def test_a_second_answer_changes_nothing_and_names_the_first(service: GameService, db_path: Db) -> None:
    await start_people(service, 1)
    question = await service.ask_resign(1, BOB.user_id)
    await service.cancel_resign(question.id, BOB.user_id)
    for again in (service.confirm_resign, service.cancel_resign):
        with pytest.raises(QuestionAnsweredError, match="already answered: you chose Cancel"):
            await again(question.id, BOB.user_id)
    assert await service.game(1) is not None and _status(db_path, question.id) == "cancelled"
    # A question asked again is a new one: answered Resign, the game ends once.
    second = await service.ask_resign(1, BOB.user_id)
    over = await service.confirm_resign(second.id, BOB.user_id)
    assert over.game_over is not None and over.game_over.winner == ALICE
    for again in (service.confirm_resign, service.cancel_resign):
        with pytest.raises(QuestionAnsweredError, match="already answered: you resigned"):
            await again(second.id, BOB.user_id)
    assert query(db_path, "SELECT COUNT(*) FROM rating_history") == [(2,)], "rated once"


async def test_a_question_is_its_askers_and_its_games(service: GameService, db_path: Db) -> None:
    await start_people(service, 1)
    question = await service.ask_resign(1, BOB.user_id)
    with pytest.raises(NotAPlayerError):
        await service.confirm_resign(question.id, ALICE.user_id)
    with pytest.raises(NotAPlayerError):
        await service.ask_resign(1, CAROL)
    await service.resign(1, ALICE.user_id)  # the game ends otherwise (/seega resign in the console)
    await start_people(service, 1)  # and a new one starts in the channel
    with pytest.raises(GameOverServiceError, match="game #1, which is over"):
        await service.confirm_resign(question.id, BOB.user_id)
    game = await service.game(1)
    assert game is not None and game.status == "active" and _status(db_path, question.id) == "pending"


async def test_asking_again_shows_the_same_open_question(service: GameService, db_path: Db) -> None:
    """Each /seega resign stored a new row, so one person repeating it (a thousand times)
    grew the table without bound; asking again now returns the question still open."""
    await start_people(service, 1)
    asked = [await service.ask_resign(1, BOB.user_id) for _ in range(50)]
    assert {q.id for q in asked} == {asked[0].id}
    assert query(db_path, "SELECT COUNT(*) FROM questions") == [(1,)]
    await service.cancel_resign(asked[-1].id, BOB.user_id)
    with pytest.raises(QuestionAnsweredError):
        await service.confirm_resign(asked[0].id, BOB.user_id)  # the first message's button: the same question
    fresh = await service.ask_resign(1, BOB.user_id)
    assert fresh.id != asked[0].id and _status(db_path, fresh.id) == "pending"
    alices = await service.ask_resign(1, ALICE.user_id)
    assert alices.id not in (fresh.id, asked[0].id), "each player has their own question"


async def test_questions_out_of_any_range_are_refused_and_change_nothing(service: GameService, db_path: Db) -> None:
    """Hostile ids (a forged button): huge, negative, none stored; refused before any query
    can fail on them, and the real question is still open."""
    await start_people(service, 1)
    question = await service.ask_resign(1, BOB.user_id)
    for forged in (10**40, -(10**40), 2**63, 0, question.id + 1000):
        for press in (service.confirm_resign, service.cancel_resign):
            with pytest.raises(IllegalMoveError, match="no longer exists"):
                await press(forged, BOB.user_id)
    assert _status(db_path, question.id) == "pending"
    assert (await service.game(1)) is not None
