"""Moderator ``/seega`` subcommands: cancel a game, change the server's settings.

Both need Manage Channels server-wide (from the person's roles, not a channel's
overwrites: settings apply to the whole server). The adapter turns that permission into
the service's :class:`~bot.results.Moderator` capability and the service refuses
moderation without it. ``default_permissions`` only hides the commands in Discord's
menus (and applies to top-level commands only), so it is not what enforces the rule.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.flows import moderator_of, show_turn
from bot.host import SeegaHost
from bot.i18n import lang
from bot.messages import settings_embed
from bot.results import NotAModeratorError
from bot.senders import in_time, interaction_sender
from bot.service import catalog
from bot.service.coach_hints import MAX_HINT_LIMIT

if TYPE_CHECKING:
    CogMixin = commands.Cog  # lets the type checker see these mixins as parts of a cog
else:
    CogMixin = object

log = logging.getLogger(__name__)


class AdminCommands(CogMixin):
    """Moderation: Manage Channels required."""

    bot: SeegaHost

    @app_commands.command(name="cancel", description=_("Moderators: end this channel's game, unrated"))
    @app_commands.default_permissions(manage_channels=True)
    async def cancel(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        result = await in_time(interaction, self.bot.service.cancel(interaction.channel_id, moderator_of(interaction)))
        log.info("game %s cancelled by moderator %s", result.game.id, interaction.user.id)
        await show_turn(self.bot, result, interaction.guild_locale, interaction_sender(interaction))

    @app_commands.command(
        name="settings", description=_("Moderators: timeouts, default variant and hints of this server")
    )
    @app_commands.describe(
        turn_timeout=_("Time for a turn, like 45s, 10m, 1h, 3d"),
        challenge_timeout=_("How long a challenge stays open, like 10m"),
        default_variant=_("Preset used when a challenge names none"),
        hints=_("Hints per player and game (0 turns hints off)"),
    )
    @app_commands.choices(default_variant=[Choice(name=name, value=name) for name in catalog.VARIANTS])
    @app_commands.default_permissions(manage_channels=True)
    async def settings(
        self,
        interaction: discord.Interaction,
        turn_timeout: str | None = None,
        challenge_timeout: str | None = None,
        default_variant: str | None = None,
        hints: app_commands.Range[int, 0, MAX_HINT_LIMIT] | None = None,
    ) -> None:
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        moderator = moderator_of(interaction)
        showing = turn_timeout is None and challenge_timeout is None and default_variant is None and hints is None
        if showing and moderator is None:
            raise NotAModeratorError("moderator_only")  # the one wording of the refusal
        before = await self.bot.service.get_settings(interaction.guild_id)
        if showing:
            embed = settings_embed(before, lang(interaction))
        else:
            current = await self.bot.service.set_settings(
                interaction.guild_id, turn_timeout, challenge_timeout, default_variant, hints=hints, moderator=moderator
            )
            embed = settings_embed(current, lang(interaction), before)
        await interaction.response.send_message(embed=embed, ephemeral=True)
