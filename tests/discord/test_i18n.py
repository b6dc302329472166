"""English and Arabic: command descriptions for Discord's clients, messages by the user's locale."""

from __future__ import annotations

import json
import string
from importlib import resources
from pathlib import Path

import discord
from discord import app_commands

from bot.i18n import SeegaTranslator, t
from bot.service import GameService
from tests.discord.harness import Harness, running


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_language_has_every_message_with_the_same_fields() -> None:
    catalogs = {
        lang: json.loads(resources.files("bot").joinpath("locale", f"{lang}.json").read_text(encoding="utf-8"))
        for lang in ("en", "ar")
    }
    english = catalogs["en"]["messages"]
    arabic = catalogs["ar"]["messages"]
    assert set(english) <= set(arabic)
    for key, template in english.items():
        assert _fields(arabic[key]) == _fields(template), key
    assert t("ar", "button.accept") == "قبول" and t("en-GB", "button.accept") == "Accept"
    assert t("fr", "button.decline") == "Decline", "unknown languages fall back to English"


async def test_translator_hook_for_descriptions_and_choices() -> None:
    """Discord has no Arabic client locale yet; the translator is ready for the day it has."""
    translator = SeegaTranslator()
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.command_description, None)
    arabic = await translator.translate(app_commands.locale_str("Where it goes"), "ar", context)  # type: ignore[arg-type]
    assert arabic == "إلى أين تذهب"
    assert await translator.translate(app_commands.locale_str("Where it goes"), discord.Locale.french, context) is None
    name = app_commands.TranslationContext(app_commands.TranslationContextLocation.command_name, None)
    assert await translator.translate(app_commands.locale_str("move"), "ar", name) is None  # type: ignore[arg-type]


async def test_arabic_by_choice(h: Harness) -> None:
    commands = {c["name"]: c for c in h.fake.commands[h.fake.guild_id]}
    assert not commands["move"].get("name_localizations"), "command names stay as BOT.md fixes them"
    english = await h.slash(h.alice, "seega rules")
    assert "Seega rules" in english.reply.text
    chosen = await h.slash(h.alice, "seega language", {"language": "ar"})
    assert chosen.reply.ephemeral and "بالعربية" in chosen.reply.text
    rules = await h.slash(h.alice, "seega rules")
    assert "قواعد سيجة" in rules.reply.text
    bad = await h.slash(h.alice, "place", {"first": "zz"})
    assert bad.reply.ephemeral and "ليست خانة" in bad.reply.text
    no_game = await h.slash(h.alice, "move", {"from": "b2", "to": "c2"})
    assert "لا توجد مباراة" in no_game.reply.text
    challenge = await h.slash(h.alice, "seega challenge", {"opponent": h.bob})
    assert challenge.reply.button("قبول") and "يتحداك" in challenge.reply.text
    refused = await h.click(h.carol, challenge.reply, "قبول")
    assert refused.reply.ephemeral and "This button is for" in refused.reply.text, "Carol kept English"
    await h.slash(h.alice, "seega language", {"language": "auto"})
    assert "Seega rules" in (await h.slash(h.alice, "seega rules")).reply.text


async def test_the_language_choice_survives_a_restart_and_reaches_other_processes(tmp_path: Path) -> None:
    """Kept in memory only, the choice was lost at each restart and unknown to other shards."""
    async with running(tmp_path) as h:
        await h.slash(h.alice, "seega language", {"language": "ar"})
        alice = h.alice
    async with running(tmp_path) as restarted:  # the same database file, a new process's bot
        assert await restarted.bot.language_of(alice) == "ar", "read back from the database"
        assert "Seega rules" in (await restarted.slash(restarted.bob, "seega rules")).reply.text
        other = GameService(restarted.bot.service.storage, restarted.bot.service.ai)  # another shard's service
        await other.set_language(restarted.bob, "ar")
        restarted.bot.language_prefs.clear()  # as after the cache's lifetime (LANGUAGE_TTL)
        assert "قواعد سيجة" in (await restarted.slash(restarted.bob, "seega rules")).reply.text
