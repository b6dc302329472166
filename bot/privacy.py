"""Which games a person may be shown: those of the channels they can read.

Games are kept per server, so ``/seega history``, ``/seega games`` and a game named by
number (``/seega record game:``, ``/seega review game:``) reached every game of the
server, those of private channels and threads included: a member could read the moves
of a game played where they cannot look (outside review, stop 40). A game is now shown
to a person only if they can read its channel (Discord's View Channel and Read Message
History, as the channel's overwrites give them), and a game named by a number they may
not see is answered as one that does not exist, which tells nothing about it.

What this cannot do: an answer posted in a channel is read by everyone there, and
whether each of them may read the game's channel is not known; the person who asked is
the one checked. A channel the bot no longer knows (deleted, or an archived thread not
in its cache) is not held against anybody: its games stay visible, as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.results import NoGameError

if TYPE_CHECKING:
    from bot.host import SeegaHost


def can_read(interaction: discord.Interaction, channel_id: int) -> bool:
    """Whether the person behind ``interaction`` may read the channel ``channel_id``."""
    if channel_id == interaction.channel_id:
        return True
    guild = interaction.guild
    member = interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return True
    channel = guild.get_channel_or_thread(channel_id)
    if channel is None:
        return True
    seen = channel.permissions_for(member)
    return seen.view_channel and seen.read_message_history


async def must_read(bot: SeegaHost, interaction: discord.Interaction, guild_id: int, game_id: int) -> None:
    """Refuse game ``game_id`` as if it did not exist unless the person may read its channel.

    Raises:
        NoGameError: the game is in a channel the person cannot read.
    """
    shown = await bot.service.get_game(game_id, guild_id)
    if shown is not None and not can_read(interaction, shown.channel_id):
        raise NoGameError("no_such_game", game_id=game_id)
