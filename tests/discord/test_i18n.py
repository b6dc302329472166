"""English and Arabic: command descriptions for Discord's clients, messages by the user's locale."""

from __future__ import annotations

import json
import string
from importlib import resources
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.clock import FakeClock
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
    assert challenge.reply.button("Accept") and "challenges you" in challenge.reply.text, "it asks Bob, in his"
    refused = await h.click(h.carol, challenge.reply, "Accept")
    assert refused.reply.ephemeral and "This button is for" in refused.reply.text, "Carol kept English"
    withdrawn = await h.click(h.alice, challenge.reply, "Decline")
    assert "withdr" in challenge.reply.text.lower() and not withdrawn.reply.ephemeral, "still Bob's language"
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


class LanguageSpy:
    """The real renderer, noting the language of each board picture it draws."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.langs: list[str] = []

    def render_board(self, *args: Any, **kwargs: Any) -> bytes:
        self.langs.append(kwargs.get("lang", "en"))
        data: bytes = self.inner.render_board(*args, **kwargs)
        return data

    def render_replay(self, *args: Any, **kwargs: Any) -> bytes:
        data: bytes = self.inner.render_replay(*args, **kwargs)
        return data


def spy_on_pictures(h: Harness) -> LanguageSpy:
    spy = LanguageSpy(h.bot.service.games.renderer)
    h.bot.service.games.renderer = spy
    return spy


async def test_a_message_to_one_person_is_in_their_language_and_a_board_in_the_language_of_who_plays_next(
    h: Harness,
) -> None:
    """The play-test: Carol (Arabic) challenged Mod (English); every public message was in
    the language of whoever acted last, so Mod got an Arabic challenge and Arabic buttons,
    and each player's "your turn" came in the other's language."""
    spy = spy_on_pictures(h)
    await h.slash(h.carol, "seega language", {"language": "ar"})
    challenge = (await h.slash(h.carol, "seega challenge", {"opponent": h.mod, "color": "black"})).reply
    assert "challenges you" in challenge.text and "Carol plays black" in challenge.text, challenge.text
    assert challenge.button("Accept") and challenge.button("Decline")
    accept = await h.click(h.mod, challenge, "Accept", followup=True)
    assert "accepted" in challenge.text, "the challenge stays in Mod's language once answered"
    first = accept.followups[0]
    assert first.pinged_user_ids() == {h.carol} and "دورك" in first.content, first.content
    assert "المباراة #" in first.text and spy.langs[-1] == "ar", "Carol is to play: her board, her language"

    placed = (await h.slash(h.carol, "place", {"first": "a1", "second": "b1"})).reply
    assert placed.pinged_user_ids() == {h.mod} and "your turn" in placed.content, placed.content
    assert "Game #" in placed.text and "المباراة" not in placed.text and spy.langs[-1] == "en"

    ask = await h.slash(h.carol, "seega draw")
    assert ask.reply.ephemeral and "التعادل" in ask.reply.text, "private: the clicker's own language"
    offer = (await h.click(h.carol, ask.reply, "seega:drawoffer", followup=True)).followups[0]
    assert offer.pinged_user_ids() == {h.mod} and "offers a draw" in offer.text, offer.text
    assert offer.button("Accept the draw") and offer.button("Decline")
    declined = await h.click(h.mod, offer, "Decline")
    assert "declines the draw" in offer.text and not declined.reply.ephemeral

    board = (await h.slash(h.carol, "seega board")).reply
    assert "your turn" in board.content and spy.langs[-1] == "en", "Mod is to play, whoever asks to look"

    await h.slash(h.mod, "place", {"first": "c1", "second": "d1"})
    again = h.fake.last_message()
    assert "دورك" in again.content and spy.langs[-1] == "ar"


async def test_the_timers_and_a_rematch_speak_to_each_player_in_their_language(tmp_path: Path) -> None:
    """A reminder pings one person, a time-out ends the turn of one: their language,
    though no one of them acted; a rematch challenges the other player in theirs."""
    clock = FakeClock()
    async with running(tmp_path, clock=clock) as h:
        spy = spy_on_pictures(h)
        await h.slash(h.mod, "seega settings", {"turn_timeout": "1m"})
        await h.slash(h.carol, "seega language", {"language": "ar"})
        challenge = (await h.slash(h.bob, "seega challenge", {"opponent": h.carol, "color": "black"})).reply
        assert "يتحداك" in challenge.text and challenge.button("قبول") and challenge.button("رفض")
        assert "Bob يلعب باللون الأسود" in challenge.text, "one article: not بالـالأسود"
        accept = await h.click(h.carol, challenge, "قبول", followup=True)
        assert "your turn" in accept.followups[0].content and spy.langs[-1] == "en", "Bob (English) plays first"
        await h.slash(h.bob, "place", {"first": "a1", "second": "b1"})

        clock.advance(31)
        reminder = await h.fake.wait_for(
            lambda: next((m for m in h.fake.channel_messages() if "مضى نصف وقت دورك" in m.text), None),
            what="Carol's half-time reminder, in Arabic",
        )
        assert reminder.pinged_user_ids() == {h.carol}
        clock.advance(30)
        over = await h.fake.wait_for(
            lambda: next((m for m in h.fake.channel_messages() if "🏁" in m.text), None), what="the time-out"
        )
        assert "Game #" not in over.text and spy.langs[-1] == "ar", "Carol ran out of time: her language"

        rematch = await h.click(h.bob, over, "seega:rematch", followup=True)
        again = rematch.followups[0]
        assert "يتحداك" in again.text and again.button("قبول"), "Bob's rematch challenges Carol in Arabic"


async def test_a_failed_language_lookup_never_loses_a_posted_turn(h: Harness) -> None:
    """Outside review (stop 38): the addressed person's language is read after the turn
    is stored, and a database error there answered "nothing was changed" for a turn that
    was stored, and posted no board. The language is cosmetic: the server's is used."""
    from bot.results import StorageBusyError

    challenge = (await h.slash(h.carol, "seega challenge", {"opponent": h.mod, "color": "black"})).reply
    await h.click(h.mod, challenge, "Accept", followup=True)

    async def busy(user_id: int) -> str | None:
        raise StorageBusyError("storage_busy")

    h.bot.service.get_language = busy  # type: ignore[method-assign]
    h.bot.language_prefs.clear()
    placed = (await h.slash(h.carol, "place", {"first": "a1", "second": "b1"})).reply
    assert not placed.ephemeral and placed.pinged_user_ids() == {h.mod}, placed.text
    assert "your turn" in placed.content and placed.png(), placed.content
    game = await h.bot.service.game(h.fake.channel_id)
    assert game is not None and game.turn == 2


async def test_a_challenges_decline_button_names_the_withdrawal_in_the_challengers_language(h: Harness) -> None:
    """The challenge asks the opponent, in their language, buttons too; but its Decline is
    also how the challenger takes it back, and an Arabic challenger read only "Decline"
    in English. The button names both: the opponent's Decline, the challenger's Withdraw."""
    await h.slash(h.alice, "seega language", {"language": "ar"})
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob})).reply
    assert "challenges you" in challenge.text, "it asks Bob, in his language"
    assert challenge.button("Accept")["label"] == "Accept"
    assert challenge.button("Decline")["label"] == "Decline / سحب التحدي"
    withdrawn = await h.click(h.alice, challenge, "Decline")
    assert "withdrew" in challenge.text and not withdrawn.reply.ephemeral, challenge.text
    assert challenge.button("Decline")["label"] == "Decline / سحب التحدي", "the same label, disabled"
    same = (await h.slash(h.carol, "seega challenge", {"opponent": h.bob})).reply  # both English
    assert same.button("Decline")["label"] == "Decline / Withdraw"


def test_the_arabic_last_turns_line_marks_its_numbers_and_cells_right_to_left() -> None:
    """Outside play-test: "آخر الأدوار: 2. ⚪ e4 e1 · 3. ⚫ e3 b5" had no direction marks, so
    the turn numbers and cells scrambled in the right-to-left line. Each part is followed by
    the right-to-left mark the Arabic cell lists use; English is unchanged."""
    from bot.messages import recent_text

    rlm = "\u200f"
    turns = ("2. w e4 e1", "3. b e3 b5")
    assert recent_text(turns, "en") == "Last turns: 2. ⚪ e4 e1 · 3. ⚫ e3 b5"
    arabic = recent_text(turns, "ar")
    assert arabic == f"آخر الأدوار: 2.{rlm} ⚪{rlm} e4{rlm} e1 ·{rlm} 3.{rlm} ⚫{rlm} e3{rlm} b5"
