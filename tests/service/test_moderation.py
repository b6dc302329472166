"""Moderation is the service's rule: cancel and settings need the guild's moderator capability."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.results import IllegalMoveError, Moderator, NotAModeratorError
from bot.service import GameService
from bot.wording import game_over_text
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


async def test_a_moderator_may_not_cancel_a_game_they_play_in(service: GameService, db_path: Path) -> None:
    """Play-test: a losing moderator cancelled their own rated game, silently dodging the
    rating loss. They are told to resign or offer a draw or an end by count; another
    moderator's cancel names who cancelled."""
    playing = Moderator(GUILD, BOB.user_id, "Bob")
    await start_people(service, 1)
    before = snapshot(db_path)
    with pytest.raises(IllegalMoveError) as refused:
        await service.cancel(1, playing)
    assert refused.value.key == "cancel_own_game" and "resign" in refused.value.message
    assert "cancel_own_game" not in refused.value.text("ar")
    assert snapshot(db_path) == before
    cancelled = await service.cancel(1, Moderator(GUILD, MOD.user_id, "Mod"))
    assert cancelled.game_over is not None and cancelled.game_over.cancelled_by == "Mod"
    said = game_over_text(cancelled.game_over, "en", cancelled.game)
    assert "cancelled by a moderator (Mod)" in said, said  # the public message's title names both players
    assert "{" not in game_over_text(cancelled.game_over, "ar", cancelled.game)
