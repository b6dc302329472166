"""The command tree and the one place where errors become answers.

Errors are handled in layers (as in RoboDanny): parsers raise ``ValueError``,
transformers turn it into an ``AppCommandError``, the service raises a
:class:`~bot.results.ServiceError` whose message names what was wrong and what is allowed,
and :func:`answer_error` answers all of them ephemerally in the user's language. Anything
unexpected is logged with its traceback under a short error id, and the user gets an
apology quoting that id so a moderator can find the log line.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from typing import Any

import discord
from discord import app_commands

from bot.ai_pool import AiUnavailableError
from bot.i18n import lang, language, resolve_language, t
from bot.results import ServiceError, clip_typed
from bot.transformers import CellError

log = logging.getLogger(__name__)

#: Discord refuses a message whose content is longer.
MESSAGE_LIMIT = 2000


class Refusal(Exception):
    """A request the adapter itself refuses (a stale button, someone else's button).

    Attributes:
        key: the message key; ``params`` format it.
    """

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def error_text(locale: discord.Locale | str | None, error: BaseException) -> str | None:
    """The answer for an expected error, or ``None`` when the error is unexpected."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        inner = error.__cause__ or getattr(error, "original", None)
        if isinstance(inner, BaseException) and inner is not error:
            found = error_text(locale, inner)
            if found is not None or isinstance(error, app_commands.CommandInvokeError):
                return found
    if isinstance(error, Refusal):
        return t(locale, error.key, **error.params)
    if isinstance(error, ServiceError):
        return service_error_text(locale, error)
    if isinstance(error, CellError):
        return t(locale, "error.bad_cell", value=error.value)
    if isinstance(error, app_commands.CommandOnCooldown):
        return t(locale, "error.cooldown", seconds=max(1, round(error.retry_after)))
    if isinstance(error, app_commands.MissingPermissions | app_commands.BotMissingPermissions):
        return t(locale, "service.moderator_only")  # the service's refusal, word for word
    if isinstance(error, app_commands.NoPrivateMessage):
        return t(locale, "error.guild_only")
    if isinstance(error, app_commands.CheckFailure):
        return t(locale, "error.check_failed")
    if isinstance(error, app_commands.TransformerError):
        return t(locale, "error.bad_value", value=clip_typed(str(error.value)))
    if isinstance(error, app_commands.CommandNotFound):
        return t(locale, "error.unknown_command")
    if isinstance(error, AiUnavailableError):  # a hint or a review whose workers failed
        return t(locale, "error.ai_unavailable")
    return None


def service_error_text(locale: discord.Locale | str | None, error: ServiceError) -> str:
    """A service error in the user's language (its key and parameters, worded by the locale)."""
    return error.text(language(locale))


async def send_ephemeral(interaction: discord.Interaction, text: str) -> None:
    """Answer ``interaction`` privately, whatever state its response is in."""
    text = clip_typed(text, MESSAGE_LIMIT)
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True)
            return
        if interaction.response.type == discord.InteractionResponseType.deferred_channel_message:
            # A public "thinking..." would show the error to everyone: remove it first.
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error answer to interaction %s", interaction.id, exc_info=True)


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer an error ephemerally; log unexpected ones with an id the user can quote."""
    if interaction.extras.get("error_answered"):
        return
    interaction.extras["error_answered"] = True
    text = error_text(lang(interaction), error)
    if text is None:
        error_id = secrets.token_hex(4)
        original = getattr(error, "original", None) or error
        command = interaction.command.qualified_name if interaction.command else interaction.data
        log.error(
            "unexpected error %s in %s (user %s, channel %s)",
            error_id,
            command,
            interaction.user.id,
            interaction.channel_id,
            exc_info=original,
        )
        text = t(lang(interaction), "error.unexpected", error_id=error_id)
    await send_ephemeral(interaction, text)


class SeegaTree(app_commands.CommandTree[Any]):
    """The command tree: commands work in servers only, and errors are answered."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        await resolve_language(interaction)
        if interaction.guild_id is None and interaction.type == discord.InteractionType.application_command:
            raise app_commands.NoPrivateMessage()
        return True

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await answer_error(interaction, error)
