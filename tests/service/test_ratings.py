"""Glicko-2 (Glickman's example) and the leaderboard order."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.ratings import glicko2_update, rate_game
from bot.service import GameService
from bot.storage import RatingRow
from tests.service.helpers import ALICE, BOB, CAROL, GUILD, start_people


def test_glickman_paper_example() -> None:
    rating, rd, vol = glicko2_update(1500, 200, 0.06, [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
    assert rating == pytest.approx(1464.06, abs=0.02)
    assert rd == pytest.approx(151.52, abs=0.01)
    assert vol == pytest.approx(0.05999, abs=0.00001)


def test_rate_game_is_symmetric_for_equal_players() -> None:
    a, b = RatingRow(1, 5, 1, "A"), RatingRow(1, 5, 2, "B")
    a2, b2 = rate_game(a, b, 1.0)
    assert a2.rating > 1500 > b2.rating
    assert a2.rating - 1500 == pytest.approx(1500 - b2.rating)
    assert (a2.games, a2.wins, b2.losses) == (1, 1, 1)
    d1, _ = rate_game(a, b, 0.5)
    assert d1.rating == pytest.approx(1500) and d1.draws == 1


async def test_leaderboard_order_and_rating_history(service: GameService) -> None:
    # Alice beats Bob twice, Bob beats Carol once: Alice > Bob? Carol last.
    for winner, loser in ((ALICE, BOB), (ALICE, BOB), (BOB, CAROL)):
        await start_people(service, 1, winner, loser)
        await service.resign(1, loser.user_id)
    board = await service.leaderboard(GUILD, 5)
    assert [e.name for e in board] == ["Alice", "Bob", "Carol"]
    assert [e.rank for e in board] == [1, 2, 3]
    assert board[0].rating > board[1].rating > board[2].rating
    assert (board[0].wins, board[0].losses, board[1].games) == (2, 0, 3)
    assert await service.leaderboard(GUILD, 7) == []
    history = await service.storage.rating_history(GUILD, ALICE.user_id)
    assert len(history) == 2 and history[0][2] == history[1][1]
    stats = await service.stats(GUILD, BOB.user_id)
    assert stats.versus_people.wins == 1 and stats.versus_people.losses == 2


async def test_a_rated_game_stores_the_players_current_names(service: GameService) -> None:
    """Discord play-test (pt40b): after Alice renamed herself, the leaderboard and her rating
    lines kept the name her first rated game stored. Each rated game stores the names it
    was played under."""
    await start_people(service, 1, ALICE, BOB)
    await service.resign(1, BOB.user_id)
    renamed = replace(ALICE, name="Alexandria")
    await start_people(service, 1, renamed, replace(BOB, name="Bobby"))
    await service.resign(1, BOB.user_id)
    board = await service.leaderboard(GUILD, 5)
    assert [e.name for e in board] == ["Alexandria", "Bobby"]
    rows = await service.storage.ratings_of(GUILD, ALICE.user_id)
    assert [r.name for r in rows] == ["Alexandria"]
