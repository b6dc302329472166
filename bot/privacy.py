"""Which games a person may be shown: their own, and those of the channels they can read.

Games are kept per server, so ``/seega history``, ``/seega games`` and a game named by
number (``/seega record game:``, ``/seega review game:``) reached every game of the
server, those of private channels and threads included: a member could read the moves
of a game played where they cannot look (outside review, stop 40). A game is now shown
to its players, and to others only if they can read its channel (Discord's View Channel
and Read Message History, as the channel's overwrites give them; a private thread also
asks to be in it, or to manage threads). A game named by a number the person may not see
is answered as a game that does not exist, before anything else is said of it.

A channel the bot does not hold in its cache (the game's thread archived after a day of
quiet, which discord.py drops from its cache) is fetched; one that cannot be fetched (a
deleted channel) is not shown to anybody but the players: unsure, the answer is no.

What this cannot do: an answer posted in a channel is read by everyone there, and
whether each of them may read the game's channel is not known; the person who asked is
the one checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeVar

import discord

from bot.results import NoGameError, Player

if TYPE_CHECKING:
    from bot.host import SeegaHost


class Game(Protocol):
    """What is needed of a game to say who may see it (a history line, a game view)."""

    @property
    def channel_id(self) -> int: ...

    @property
    def black(self) -> Player: ...

    @property
    def white(self) -> Player: ...


_G = TypeVar("_G", bound=Game)


async def can_read(interaction: discord.Interaction, game: Game) -> bool:
    """Whether the person behind ``interaction`` may be shown ``game``."""
    if game.channel_id == interaction.channel_id:
        return True
    member = interaction.user
    if member.id in (game.black.user_id, game.white.user_id):
        return True
    guild = interaction.guild
    if guild is None or not isinstance(member, discord.Member):
        return True  # no server, no channels to keep apart
    channel = guild.get_channel_or_thread(game.channel_id)
    if channel is None:
        try:
            fetched = await guild.fetch_channel(game.channel_id)
        except discord.HTTPException:
            return False  # deleted, or out of the bot's sight: unsure
        if not isinstance(fetched, (discord.abc.GuildChannel, discord.Thread)):
            return False
        channel = fetched
    seen = channel.permissions_for(member)
    if not (seen.view_channel and seen.read_message_history):
        return False
    if isinstance(channel, discord.Thread) and channel.type == discord.ChannelType.private_thread:
        # discord.py answers a thread's permissions from its parent's: a private thread
        # also asks its reader to be in it (or to manage threads).
        return seen.manage_threads or await _in_thread(channel, member.id)
    return True


async def _in_thread(thread: discord.Thread, user_id: int) -> bool:
    if any(m.id == user_id for m in thread.members):
        return True
    try:
        await thread.fetch_member(user_id)
    except discord.HTTPException:
        return False
    return True


async def readable(interaction: discord.Interaction, games: list[_G]) -> list[_G]:
    """``games`` without those the person may not be shown (:func:`can_read`), in order."""
    return [g for g in games if await can_read(interaction, g)]


async def must_read(bot: SeegaHost, interaction: discord.Interaction, guild_id: int, game_id: int) -> None:
    """Refuse game ``game_id`` as if it did not exist unless the person may be shown it.

    Raises:
        NoGameError: the game is in a channel the person cannot read.
    """
    shown = await bot.service.get_game(game_id, guild_id)
    if shown is not None and not await can_read(interaction, shown):
        raise NoGameError("no_such_game", game_id=game_id)
