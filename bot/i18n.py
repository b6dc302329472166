"""English and Arabic: command descriptions through discord.py's Translator, messages by locale.

Texts live in ``bot/locale/<lang>.json`` (read by :mod:`bot.texts`): ``messages`` maps a key
to a ``str.format`` template; ``commands`` maps an English description or choice name to its translation
(Discord shows those in each user's client language). A key or string missing in a
language falls back to English, so a half-translated file never breaks a command.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot import texts
from bot.texts import FALLBACK, LANGUAGES


def language(locale: discord.Locale | str | None) -> str:
    """The language we have for a Discord locale (``ar`` for Arabic, else English)."""
    value = locale.value if isinstance(locale, discord.Locale) else (locale or FALLBACK)
    lang = value.split("-")[0].lower()
    return lang if lang in LANGUAGES else FALLBACK


def lang(interaction: discord.Interaction) -> str:
    """The language to answer ``interaction`` in: the user's ``/seega language`` choice, or
    the language of their Discord client.

    Discord has no Arabic client locale, so Arabic speakers choose it with
    ``/seega language``; the choice is looked up once per interaction (see
    :func:`resolve_language`) and kept in ``interaction.extras``.
    """
    chosen = interaction.extras.get("lang")
    return chosen if isinstance(chosen, str) else language(interaction.locale)


async def resolve_language(interaction: discord.Interaction) -> None:
    """Look up the user's language choice (if the client supports it) for :func:`lang`."""
    if "lang" in interaction.extras:
        return
    lookup = getattr(interaction.client, "language_of", None)
    interaction.extras["lang"] = (await lookup(interaction.user.id) if lookup else None) or language(interaction.locale)


async def person_language(client: Any, user_id: int | None, guild_locale: discord.Locale | str | None) -> str:
    """The language of a message addressed to ``user_id`` in a server: their ``/seega
    language`` choice, else the server's language (``guild_locale``).

    Their own client's language is not known there: they did not send the interaction
    (the other player did, or a timer fired). A challenge, an offer, a reminder, a board
    whose turn is theirs: each speaks to one person, in theirs, not in the language of
    whoever acted (play-test). docs/deploy.md, "Languages".
    """
    lookup = getattr(client, "language_of", None)
    chosen = await lookup(user_id) if lookup is not None and user_id is not None else None
    return chosen if isinstance(chosen, str) and chosen in LANGUAGES else language(guild_locale)


def t(locale: discord.Locale | str | None, key: str, **params: Any) -> str:
    """The message ``key`` in the language of ``locale``, formatted with ``params``
    (see :func:`bot.texts.text`: English stands in for a missing key or parameter)."""
    return texts.text(language(locale), key, **params)


def has(locale: discord.Locale | str | None, key: str) -> bool:
    """Whether the language of ``locale`` has its own text for ``key``."""
    return texts.has(language(locale), key)


class SeegaTranslator(app_commands.Translator):
    """Translates command and option descriptions and choice names (never command names).

    Command and option names stay as ``docs/commands.md`` fixes them, so people can share
    instructions across languages.
    """

    _translated = (
        app_commands.TranslationContextLocation.command_description,
        app_commands.TranslationContextLocation.group_description,
        app_commands.TranslationContextLocation.parameter_description,
        app_commands.TranslationContextLocation.choice_name,
    )

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext[Any, Any],
    ) -> str | None:
        if context.location not in self._translated:
            return None
        lang = language(locale)
        if lang == FALLBACK:
            return None
        return texts.catalog(lang).get("commands", {}).get(string.message)
