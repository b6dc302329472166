"""Moderation is the service's rule: cancel and settings need the guild's moderator capability."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.results import Moderator, NotAModeratorError
from bot.service import GameService
from tests.service.helpers import BOB, GUILD, MOD, snapshot, start_people


@pytest.mark.parametrize("who", [None, Moderator(GUILD + 1, BOB.user_id), BOB.user_id], ids=["none", "other", "id"])
async def test_cancel_refused_without_the_guilds_capability(service: GameService, db_path: Path, who: object) -> None:
    started = await start_people(service, 1)
    before = snapshot(db_path)
    with pytest.raises(NotAModeratorError) as refused:
        await service.cancel(1, who)  # type: ignore[arg-type]  # an adapter passing a bare id is refused too
    assert "Manage Channels" in str(refused.value) and refused.value.text("ar").startswith("هذا لمشرفي")
    assert snapshot(db_path) == before
    game = await service.game(1)
    assert game is not None and game.id == started.game.id and game.status == "active"
    cancelled = await service.cancel(1, MOD)
    assert cancelled.game.status == "cancelled" and cancelled.game_over is not None


@pytest.mark.parametrize("who", [None, Moderator(GUILD + 1, BOB.user_id)], ids=["none", "other"])
async def test_settings_refused_without_the_guilds_capability(service: GameService, db_path: Path, who: object) -> None:
    before = snapshot(db_path)
    with pytest.raises(NotAModeratorError):
        await service.set_settings(GUILD, "45s", moderator=who)  # type: ignore[arg-type]
    assert snapshot(db_path) == before
    assert (await service.get_settings(GUILD)).turn_timeout == 3600
    assert (await service.set_settings(GUILD, "45s", moderator=MOD)).turn_timeout == 45
