"""Channels, threads and servers deleted under the bot, as Discord reports them.

The service ends what they held (:mod:`bot.service.gone`: the games abandoned, unrated;
the challenges closed); here the client's listeners and the scheduler's check reach it,
and the messages this process remembered there are forgotten. Nothing is posted where
the game was, which is gone; a deleted thread's parent channel is told by the adapter
(:func:`bot.flows.announce_deleted_thread`).

Who deleted a game's channel or thread is read from the server's audit log
(:func:`deleted_by`; outside review atk41d, F1): one of the game's players, and the game
is their resignation, rated, since a player may not end their own game unrated
(``/seega cancel`` refuses them). The audit log needs View Audit Log: without it, or with
no entry naming the channel, the bot cannot tell who deleted it and the game is
abandoned, unrated, as before. A server the bot leaves, and a channel found gone by a
timer, are not looked up (nobody deleted the games there one by one).
"""

from __future__ import annotations

import asyncio
import datetime
import logging

import discord

from bot.host import SeegaHost
from bot.results import Abandoned

log = logging.getLogger(__name__)

#: Discord's error code for a channel (or thread) that does not exist.
UNKNOWN_CHANNEL = 10003
#: How recent an audit log entry must be to name who deleted a channel that was just
#: deleted (its event comes at once; an older entry is not read as this deletion).
AUDIT_WINDOW = datetime.timedelta(minutes=1)
#: Entries of the audit log read per look-up (the newest of the deletion's kind).
AUDIT_LIMIT = 10
#: Seconds before the audit log is read a second time when it had no entry for the
#: channel: Discord may send the deletion's event before its entry can be read.
AUDIT_RETRY = 1.0

#: What the audit log calls the deletion of a place: ``(action, id of what was deleted)``.
Deletion = tuple[discord.AuditLogAction, int]


async def channel_deleted(
    bot: SeegaHost,
    channel_id: int,
    *,
    guild: discord.Guild | None = None,
    deletions: tuple[Deletion, ...] = (),
) -> Abandoned:
    """A channel or thread was deleted: end its game and close its challenges.

    ``guild`` and ``deletions`` (the audit log actions that may have deleted it: the
    thread's own deletion, its parent channel's) come with Discord's deletion events;
    when the channel holds a game, the audit log is asked who deleted it
    (:func:`deleted_by`). Without them (a timer found the channel gone) nobody is asked.
    """
    deleter = None
    if guild is not None and deletions and await bot.service.game(channel_id) is not None:
        deleter = await deleted_by(guild, deletions)
    ended = await bot.service.channel_deleted(channel_id, deleter)
    forget(bot, ended, (channel_id,))
    if ended.games or ended.challenges:
        abandoned = sum(1 for game in ended.games if game.reason == "abandoned")
        log.info(
            "channel %d deleted: %d game(s) abandoned unrated, %d resigned by the player who deleted it, "
            "%d challenge(s) closed",
            channel_id,
            abandoned,
            len(ended.games) - abandoned,
            len(ended.challenges),
        )
    return ended


async def deleted_by(guild: discord.Guild, deletions: tuple[Deletion, ...]) -> int | None:
    """Who deleted a channel or thread, from the server's audit log: the user of the
    newest entry of one of ``deletions`` (action and target id) made within
    :data:`AUDIT_WINDOW`; ``None`` if nobody can be told.

    Reading the audit log needs View Audit Log. Without it (403), on any other error of
    Discord's, or with no such entry (read twice, :data:`AUDIT_RETRY` apart), the answer
    is ``None``: the game is abandoned, unrated. The bot's own deletions name nobody.
    """
    for attempt in range(2):
        if attempt:
            await asyncio.sleep(AUDIT_RETRY)
        try:
            user_id = await _read_audit_log(guild, deletions)
        except discord.Forbidden:
            log.info("cannot tell who deleted channel %d: no View Audit Log in guild %d", deletions[0][1], guild.id)
            return None
        except discord.HTTPException as exc:
            log.info("cannot read the audit log of guild %d (%s %s)", guild.id, exc.status, exc.code)
            return None
        if user_id is not None:
            me = guild.me  # None only before the server's members are known
            return None if me is not None and user_id == me.id else user_id
    log.info("no audit log entry says who deleted channel %d", deletions[0][1])
    return None


async def _read_audit_log(guild: discord.Guild, deletions: tuple[Deletion, ...]) -> int | None:
    """One reading of the audit log for :func:`deleted_by`."""
    since = discord.utils.utcnow() - AUDIT_WINDOW
    for action, target_id in deletions:
        async for entry in guild.audit_logs(limit=AUDIT_LIMIT, action=action):
            if entry.created_at < since:
                break  # newest first: the rest are older still
            target = entry.target
            if target is not None and target.id == target_id and entry.user_id is not None:
                return entry.user_id
    return None


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
