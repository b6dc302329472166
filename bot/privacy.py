"""Where a game may be shown: in public, to the asker alone, or not at all.

Games are kept per server, so ``/seega history``, ``/seega games`` and a game named by
number (``/seega record game:``, ``/seega review game:``) reached every game of the
server, those of private channels and threads included: a member could read the moves
of a game played where they cannot look (outside review, stop 40), and a player's own
question, asked in a public channel, posted their private game there for everyone
(play-test, stop 40). So each game asked about from another channel is one of:

* **public**: its channel is one the whole server may read (``@everyone`` has View
  Channel and Read Message History there, and it is not a private thread). Shown in
  public, as before, to whoever can read it.
* **private**: the asker may read it (they played it, or they can read its channel, a
  private thread asking them to be in it or to manage threads), but not everybody may.
  Shown to the asker alone (an ephemeral answer), never in a public list.
* **hidden**: anybody else. Left out of lists, and named by number it is answered as a
  game that does not exist, before anything else is said of it.

A game of the channel asked in is public there: whoever reads the answer reads the game's
channel. A channel the bot does not hold in its cache (the game's thread archived after
a day of quiet, which discord.py drops from its cache) is fetched; one that cannot be
fetched (a deleted channel) is private to the game's players: unsure, nobody else.
Totals (``/seega stats``, the leaderboard, the rating chart) still count every game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol, TypeVar

import discord

from bot.results import NoGameError, Player

if TYPE_CHECKING:
    from bot.host import SeegaHost

Visibility = Literal["public", "private", "hidden"]
Channel = discord.abc.GuildChannel | discord.Thread


class Game(Protocol):
    """What is needed of a game to say who may see it (a history line, a game view)."""

    @property
    def channel_id(self) -> int: ...

    @property
    def black(self) -> Player: ...

    @property
    def white(self) -> Player: ...


_G = TypeVar("_G", bound=Game)


async def visibility(
    interaction: discord.Interaction, game: Game, seen: dict[int, Channel | None] | None = None
) -> Visibility:
    """How ``game`` may be shown to the person behind ``interaction``, where they asked;
    ``seen`` keeps the channels already looked up (a list of games shares it)."""
    if game.channel_id == interaction.channel_id:
        return "public"
    guild = interaction.guild
    member = interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return "public"  # no server, no channels to keep apart
    player = member.id in (game.black.user_id, game.white.user_id)
    if seen is None:
        seen = {}
    if game.channel_id not in seen:
        seen[game.channel_id] = await _channel(guild, game.channel_id)
    channel = seen[game.channel_id]
    if channel is None:
        return "private" if player else "hidden"
    if _everyone_reads(guild, channel):
        return "public" if player or _reads(channel.permissions_for(member)) else "hidden"
    return "private" if player or await _member_reads(channel, member) else "hidden"


async def _channel(guild: discord.Guild, channel_id: int) -> Channel | None:
    """The channel or thread ``channel_id`` of ``guild``: from the cache, else fetched."""
    cached = guild.get_channel_or_thread(channel_id)
    if cached is not None:
        return cached
    try:
        fetched = await guild.fetch_channel(channel_id)
    except discord.HTTPException:
        return None  # deleted, or out of the bot's sight
    return fetched if isinstance(fetched, (discord.abc.GuildChannel, discord.Thread)) else None


def _reads(seen: discord.Permissions) -> bool:
    return seen.view_channel and seen.read_message_history


def _private_thread(channel: Channel) -> bool:
    return isinstance(channel, discord.Thread) and channel.type == discord.ChannelType.private_thread


def _everyone_reads(guild: discord.Guild, channel: Channel) -> bool:
    """Whether the whole server may read ``channel`` (``@everyone``, overwrites counted)."""
    if _private_thread(channel):
        return False
    parent = channel.parent if isinstance(channel, discord.Thread) else channel
    return parent is not None and _reads(parent.permissions_for(guild.default_role))


async def _member_reads(channel: Channel, member: discord.Member) -> bool:
    """Whether ``member`` may read ``channel``: discord.py answers a thread's permissions
    from its parent's, and a private thread also asks to be in it (or to manage threads)."""
    seen = channel.permissions_for(member)
    if not _reads(seen):
        return False
    if not _private_thread(channel) or seen.manage_threads:
        return True
    assert isinstance(channel, discord.Thread)
    if any(m.id == member.id for m in channel.members):
        return True
    try:
        await channel.fetch_member(member.id)
    except discord.HTTPException:
        return False
    return True


async def listed(interaction: discord.Interaction, games: list[_G]) -> list[_G]:
    """``games`` that a public list may show (:func:`visibility` "public"), in order."""
    seen: dict[int, Channel | None] = {}  # one fetch per channel, not per game listed
    return [g for g in games if await visibility(interaction, g, seen) == "public"]


async def readable(interaction: discord.Interaction, games: list[_G]) -> tuple[list[_G], bool]:
    """``games`` the asker may read, in order, and whether any of them is private (then
    the answer goes to the asker alone): a player's own game whose channel is private,
    or gone (a deleted thread), was left out of their own ``/seega history`` though its
    record and their stats had it (play-test pt41)."""
    seen: dict[int, Channel | None] = {}
    shown: list[_G] = []
    private = False
    for game in games:
        kind = await visibility(interaction, game, seen)
        if kind != "hidden":
            shown.append(game)
            private = private or kind == "private"
    return shown, private


async def asked_game(bot: SeegaHost, interaction: discord.Interaction, guild_id: int, game_id: int) -> bool:
    """Whether game ``game_id``, named by number, is answered to the asker alone (private);
    ``False`` for a public one, or one that does not exist (the caller says so).

    Raises:
        NoGameError: the game is hidden from the asker: answered as if it did not exist.
    """
    shown = await bot.service.get_game(game_id, guild_id)
    if shown is None:
        return False
    seen = await visibility(interaction, shown)
    if seen == "hidden":
        raise NoGameError("no_such_game", game_id=game_id)
    return seen == "private"
