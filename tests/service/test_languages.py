"""A member's language choice is stored: it survives restarts and is shared by every process."""

from __future__ import annotations

import pytest

from bot.results import BadInputError
from bot.service import GameService
from tests.service.helpers import ALICE, BOB, Db, close_service, make_service


async def test_the_choice_is_stored_and_read_back_after_a_restart(service: GameService, db_path: Db) -> None:
    assert await service.get_language(ALICE.user_id) is None, "no choice: follow the Discord client"
    await service.set_language(ALICE.user_id, "ar")
    await service.set_language(BOB.user_id, "en")
    await service.set_language(BOB.user_id, "ar")
    restarted = await make_service(db_path)
    try:
        assert await restarted.get_language(ALICE.user_id) == "ar"
        assert await restarted.get_language(BOB.user_id) == "ar", "the latest choice"
        await restarted.set_language(ALICE.user_id, None)
        assert await service.get_language(ALICE.user_id) is None, "auto: back to the client's language"
    finally:
        await close_service(restarted)


async def test_only_the_bots_languages(service: GameService) -> None:
    for bad in ("fr", "x" * 5000, "ar; DROP TABLE games"):
        with pytest.raises(BadInputError) as caught:
            await service.set_language(ALICE.user_id, bad)
        assert caught.value.key == "bad_language" and len(caught.value.message) < 200
    assert await service.get_language(ALICE.user_id) is None
    assert await service.get_language(2**70) is None
