"""The catalogue is the one list of what the bot offers, and every adapter offers exactly it."""

from __future__ import annotations

import pytest
from discord import app_commands

from bot.cogs.admin import AdminCommands
from bot.cogs.game import GameCommands
from bot.cogs.stats import StatsCommands
from bot.console import HELP
from bot.results import BadInputError
from bot.service import GameService, catalog
from engine.ai import LEVELS
from engine.rules import PRESETS
from tests.service.helpers import ALICE, BOB, CAROL, GUILD, MOD


def choices(command: object, parameter: str) -> list[object]:
    assert isinstance(command, app_commands.Command)
    return [c.value for c in command._params[parameter].choices]


def test_the_catalogue_offers_the_presets_played_on_the_bots_boards() -> None:
    assert tuple(v for v, (sizes, _) in PRESETS.items() if {5, 7, 9} & set(sizes)) == catalog.VARIANTS
    assert "modern-3x3" not in catalog.VARIANTS and "standard" in catalog.VARIANTS
    assert catalog.VARIANT_SIZES["five-in-a-row"] == (5,)
    assert catalog.LEVELS is LEVELS  # the engine's list, not a copy
    assert catalog.DEFAULT_VARIANT in catalog.VARIANTS


def test_every_command_offers_exactly_the_catalogue() -> None:
    assert choices(AdminCommands.settings, "default_variant") == list(catalog.VARIANTS)
    assert choices(GameCommands.challenge, "variant") == list(catalog.VARIANTS)
    assert choices(GameCommands.play_bot, "variant") == list(catalog.VARIANTS)
    assert choices(GameCommands.play_bot, "level") == list(catalog.LEVELS)
    assert choices(GameCommands.play_bot, "size") == list(catalog.SIZES)
    assert choices(StatsCommands.rules, "variant") == list(catalog.VARIANTS)
    assert choices(StatsCommands.leaderboard, "size") == list(catalog.SIZES)
    assert "Variants: " + ", ".join(catalog.VARIANTS) + "\n" in HELP


def test_the_help_names_every_variant_the_table_shows_the_rules_of() -> None:
    """Console play-test: the help left modern-3x3 out, though ``rules`` shows it; it is
    named apart, as rules only, from the catalogue's list."""
    import io

    from bot.console import ConsoleTable

    assert catalog.RULES_ONLY == ("modern-3x3",)
    assert all(v in HELP for v in catalog.RULES_VARIANTS)
    assert HELP.rstrip().endswith("Rules only (with /seega rules; their boards are not played here): modern-3x3 (3×3)")
    table = ConsoleTable(None, io.StringIO())  # type: ignore[arg-type]  # completion needs no service
    complete = table.completer(lambda: "/seega rules ")
    assert complete("variant:mo", 0) == "variant:modern-3x3"


async def test_every_default_variant_offered_is_accepted(service: GameService) -> None:
    for variant in choices(AdminCommands.settings, "default_variant"):
        assert isinstance(variant, str)
        assert (await service.set_settings(GUILD, default_variant=variant, moderator=MOD)).default_variant == variant
    with pytest.raises(BadInputError) as refused:
        await service.set_settings(GUILD, default_variant="modern-3x3", moderator=MOD)
    assert refused.value.key == "bad_variant" and "standard" in refused.value.message


async def test_a_challenge_uses_the_guilds_default_variant(service: GameService) -> None:
    await service.set_settings(GUILD, default_variant="lane", moderator=MOD)
    made = await service.challenge(GUILD, 1, ALICE, BOB)
    assert made.challenge.variant == "lane"
    with pytest.raises(BadInputError) as refused:
        await service.challenge(GUILD, 2, ALICE, BOB, 7, "five-in-a-row")
    assert refused.value.key == "bad_size" and refused.value.params["sizes"] == ["5×5"]
    assert refused.value.message == "five-in-a-row is played on 5×5, not 7×7."
    assert refused.value.text("ar") == "تُلعب الصيغة five-in-a-row على 5×5، لا على 7×7."


async def test_a_default_variant_not_played_on_the_asked_size_gives_way_to_standard(service: GameService) -> None:
    """A 5x5-only default applies on 5x5; on 7x7 or 9x9 the game is ``standard``, not refused."""
    await service.set_settings(GUILD, default_variant="five-in-a-row", moderator=MOD)
    assert (await service.challenge(GUILD, 1, ALICE, BOB)).challenge.variant == "five-in-a-row"
    assert (await service.challenge(GUILD, 2, ALICE, CAROL, 7)).challenge.variant == "standard"
    game = await service.play_bot(GUILD, 3, BOB, "easy", 9, color="black")
    assert game.game.variant == "standard" and game.game.size == 9
    with pytest.raises(BadInputError):  # a variant named is still checked against the size
        await service.challenge(GUILD, 4, CAROL, BOB, 7, "five-in-a-row")
