"""Numbers past what the database holds are answered, not tracebacks (issue 9 item 7).

SQLite holds integers of -2^63 .. 2^63-1; a larger id reached the driver and raised
``OverflowError``. Each use case that takes an id or a length from outside gets one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.results import BadInputError, ChallengeError, NoGameError
from bot.service import GameService
from tests.service.helpers import ALICE, BOB, GUILD, MOD, snapshot, start_people

HUGE = [2**63, 10**20, 99999999999999999999999, -(2**63) - 1, 10**5000]


async def test_ids_past_the_database_range_name_nothing(service: GameService, db_path: Path) -> None:
    await start_people(service, 1, ALICE, BOB)
    await service.challenge(GUILD, 2, ALICE, BOB)
    before = snapshot(db_path)
    for huge in HUGE:
        with pytest.raises(NoGameError) as caught:
            await service.record(GUILD, huge)
        assert caught.value.key == "no_such_game" and len(caught.value.message) < 200
        assert await service.get_game(huge) is None
        assert await service.timeout(huge) is None
        assert await service.reminder(huge) is None
        for call in (service.accept_challenge, service.decline_challenge):
            with pytest.raises(ChallengeError):
                await call(huge, BOB.user_id)
        with pytest.raises(ChallengeError):
            await service.get_challenge(huge)
        assert await service.history(GUILD, huge) == []
        with pytest.raises(BadInputError) as refused:
            await service.stats(GUILD, huge)
        assert refused.value.key == "bad_number"
    assert snapshot(db_path) == before


async def test_list_lengths_are_clamped(service: GameService) -> None:
    for channel in (1, 2, 3):
        await start_people(service, channel, ALICE, BOB)
        await service.resign(channel, ALICE.user_id)
    assert len(await service.history(GUILD, None, -1)) == 1, "a negative LIMIT would mean every game"
    assert len(await service.history(GUILD, None, 10**30)) == 3
    assert await service.leaderboard(GUILD, 5, 10**30) != []
    with pytest.raises(BadInputError):
        await service.leaderboard(GUILD, 10**5000)


async def test_a_timeout_in_seconds_with_thousands_of_digits_is_out_of_range(service: GameService) -> None:
    for value in (10**5000, -(10**5000), 0, 10**20):
        with pytest.raises(BadInputError) as caught:
            await service.set_settings(GUILD, turn_timeout=value, moderator=MOD)
        assert caught.value.key == "duration_out_of_range" and len(caught.value.message) < 300
    assert (await service.set_settings(GUILD, turn_timeout=600, moderator=MOD)).turn_timeout == 600
