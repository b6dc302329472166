"""Channels, threads and servers deleted under the bot, as Discord reports them.

The service ends what they held (:mod:`bot.service.gone`: the games abandoned, unrated;
the challenges closed); here the client's listeners and the scheduler's check reach it,
and the messages this process remembered there are forgotten. Nothing is posted: the
place the game was shown in is gone, and the result stays in ``/seega history``.
"""

from __future__ import annotations

import logging

import discord

from bot.host import SeegaHost
from bot.results import Abandoned

log = logging.getLogger(__name__)

#: Discord's error code for a channel (or thread) that does not exist.
UNKNOWN_CHANNEL = 10003


async def channel_deleted(bot: SeegaHost, channel_id: int) -> Abandoned:
    """A channel or thread was deleted: end its game and close its challenges."""
    ended = await bot.service.channel_deleted(channel_id)
    forget(bot, ended, (channel_id,))
    if ended.games or ended.challenges:
        log.info(
            "channel %d deleted: %d game(s) abandoned unrated, %d challenge(s) closed",
            channel_id,
            len(ended.games),
            len(ended.challenges),
        )
    return ended


async def guild_removed(bot: SeegaHost, guild_id: int) -> Abandoned:
    """The bot left a server (removed, or the server deleted): end its games, close its challenges."""
    ended = await bot.service.guild_left(guild_id)
    forget(bot, ended, tuple(game.channel_id for game in ended.games))
    log.info(
        "left guild %d: %d game(s) abandoned unrated, %d challenge(s) closed",
        guild_id,
        len(ended.games),
        len(ended.challenges),
    )
    return ended


def forget(bot: SeegaHost, ended: Abandoned, channels: tuple[int, ...]) -> None:
    """Drop the remembered messages of what ended: they are gone with their channel."""
    for channel in channels:
        bot.board_messages.pop(channel, None)
        bot.offer_messages.pop(channel, None)
    for challenge in ended.challenges:
        bot.challenge_messages.pop(challenge.id, None)


async def channel_is_gone(client: discord.Client, channel_id: int) -> bool:
    """Whether Discord says the channel (or thread) does not exist: asked before a
    game's timer acts, for a channel deleted while the bot was down (no event came).

    A channel in the cache exists (the cache follows the deletion events); one not
    there (an archived thread, a server of another shard) is fetched, and only "Unknown
    Channel" counts as gone: a missing permission or an outage is not a deletion.
    """
    if client.get_channel(channel_id) is not None:
        return False
    try:
        await client.fetch_channel(channel_id)
    except discord.NotFound as exc:
        return exc.code == UNKNOWN_CHANNEL
    except discord.HTTPException as exc:
        log.info("could not fetch channel %d before its timer (%s %s)", channel_id, exc.status, exc.code)
    return False
