"""Where a reply goes: as an interaction's answer, or into a channel; and which board is live.

A :data:`Send` posts one :class:`~bot.messages.Reply` and returns the message it made, so
the callers can edit it later (a bot's chain shown step by step, stale buttons cleared).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.host import SeegaHost
from bot.messages import Reply

log = logging.getLogger(__name__)

Send = Callable[[Reply], Awaitable[Any]]


def interaction_sender(interaction: discord.Interaction) -> Send:
    """Send a reply as this interaction's answer, or as a followup once it is answered."""

    async def send(reply: Reply) -> Any:
        if not interaction.response.is_done():
            callback = await interaction.response.send_message(**reply.send_kwargs())
            return callback.resource
        return await interaction.followup.send(**reply.send_kwargs(), wait=True)

    return send


def channel_sender(bot: SeegaHost, channel: int, guild: int | None = None) -> Send:
    """Post into a channel (timers, threads): needs the Send Messages permission."""

    async def send(reply: Reply) -> Any:
        target = bot.get_partial_messageable(channel, guild_id=guild)
        return await target.send(**reply.send_kwargs())

    return send


async def strip_buttons(bot: SeegaHost, channel: int, message: Any) -> None:
    """Remove the buttons of a board message that no longer applies (best effort).

    An interaction's own message is edited through its webhook, which Discord honours
    for 15 minutes; after that the bot edits it as its author through the channel.
    """
    try:
        await message.edit(view=None)
        return
    except discord.HTTPException:
        pass
    try:
        await bot.get_partial_messageable(channel).get_partial_message(message.id).edit(view=None)
    except discord.HTTPException:
        log.debug("could not clear the buttons of message %s", message.id)


def remember_board(bot: SeegaHost, channel: int, message: Any) -> None:
    """Track the channel's latest board message; clear the buttons of the previous one."""
    previous = bot.board_messages.get(channel)
    if previous is not None and previous is not message and getattr(previous, "components", None):
        bot.spawn(strip_buttons(bot, channel, previous), name=f"strip-buttons-{channel}")
    if message is not None:
        bot.board_messages[channel] = message
