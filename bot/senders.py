"""Where a reply goes: as an interaction's answer, or into a channel; and which board is live.

A :data:`Send` posts one :class:`~bot.messages.Reply` and returns the message it made, so
the callers can edit it later (a bot's chain shown step by step, stale buttons cleared).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import discord

from bot.host import SeegaHost
from bot.messages import Reply
from bot.results import TurnResult

log = logging.getLogger(__name__)

Send = Callable[[Reply], Awaitable[Any]]
T = TypeVar("T")

#: Seconds a command's work may take before its answer is deferred ("Seega is thinking..."):
#: Discord refuses an answer sent more than 3 s after the command.
DEFER_AFTER = 2.0
#: ``interaction.extras`` key: the answer was deferred because the work was slow.
LATE = "deferred_late"


async def in_time(interaction: discord.Interaction, work: Awaitable[T]) -> T:
    """Await a command's ``work`` (a service call), deferring its public answer if the work
    takes longer than :data:`DEFER_AFTER`.

    A write that waits on the database's lock (another process, a checkpoint, a slow
    disk) could take longer than the 3 s Discord allows for an answer: the move was
    stored and its board posted in the channel, yet the player was shown "The
    application did not respond" (noticed at stop 40). Deferred in time, the player sees
    "Seega is thinking..." instead, and :func:`interaction_sender` answers as usual.
    Only the work is raced, never a send, so a deferral cannot cross an answer.
    """
    task = asyncio.ensure_future(work)
    try:
        done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
        if not done and not interaction.response.is_done():
            try:
                await interaction.response.defer(thinking=True)
                interaction.extras[LATE] = True
            except discord.HTTPException as exc:  # too late already: the sender posts in the channel
                log.warning("could not defer interaction %s (%s %s)", interaction.id, exc.status, exc.code)
        return await task
    finally:
        task.cancel()  # only if this caller was cancelled: a finished task ignores it


def interaction_sender(interaction: discord.Interaction) -> Send:
    """Send a reply as this interaction's answer, or as a followup once it is answered.

    A public reply Discord refuses to take as the interaction's answer (an answer more
    than 3 s late: 404 "Unknown interaction", code 10062; a 5xx) is posted in the
    channel instead, and so is every later reply through this sender: what the reply
    says (a stored move, whose turn it is, with its ping) is not lost with the answer
    (outside review, atk40 F1). A private reply is never made public. After a deferral
    for slow work (:func:`in_time`), the first public reply is posted in the channel
    too, so that it pings.
    """
    lost = False

    async def send(reply: Reply) -> Any:
        nonlocal lost
        if interaction.extras.pop(LATE, False):
            # The answer was deferred (in_time). Its first followup would replace "Seega is
            # thinking..." as an edit, and an edit pings nobody: the next player would not
            # be called. The placeholder goes, and the reply is a message of its own.
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
            if not reply.ephemeral:
                lost = True
        if not lost:
            try:
                if not interaction.response.is_done():
                    callback = await interaction.response.send_message(**reply.send_kwargs())
                    return callback.resource
                return await interaction.followup.send(**reply.send_kwargs(), wait=True)
            except discord.HTTPException as exc:
                if reply.ephemeral or interaction.channel_id is None or isinstance(exc, discord.Forbidden):
                    raise
                log.warning(
                    "Discord refused the answer to interaction %s (%s %s); posting it in the channel",
                    interaction.id,
                    exc.status,
                    exc.code,
                )
                lost = True
        bot: SeegaHost = interaction.client  # type: ignore[assignment]
        return await channel_sender(bot, interaction.channel_id or 0, interaction.guild_id)(reply)

    return send


def channel_sender(bot: SeegaHost, channel: int, guild: int | None = None) -> Send:
    """Post into a channel (timers, threads): needs the Send Messages permission."""

    async def send(reply: Reply) -> Any:
        target = bot.get_partial_messageable(channel, guild_id=guild)
        return await target.send(**reply.send_kwargs())

    return send


@dataclass
class Board:
    """A channel's latest board message, and what it should say once a newer board
    supersedes it (``settled``: the keyword arguments of its edit, such as a content
    without "the bot is thinking" or an invitation to capture again; ``None``: it stays
    as it is, but for its buttons)."""

    message: Any
    settled: dict[str, Any] | None = None

    @property
    def id(self) -> Any:
        return self.message.id


async def edit_past(bot: SeegaHost, channel: int, message: Any, changes: dict[str, Any] | None = None) -> None:
    """Remove the buttons of a message that no longer applies, and apply ``changes``
    (best effort).

    An interaction's own message is edited through its webhook, which Discord honours
    for 15 minutes; after that the bot edits it as its author through the channel.
    """
    kwargs: dict[str, Any] = {"view": None, **(changes or {})}
    try:
        await message.edit(**kwargs)
        return
    except discord.HTTPException:
        pass
    try:
        await bot.get_partial_messageable(channel).get_partial_message(message.id).edit(**kwargs)
    except discord.HTTPException:
        log.debug("could not settle message %s", message.id)


async def strip_buttons(bot: SeegaHost, channel: int, message: Any) -> None:
    """Remove the buttons of a message that no longer applies (best effort)."""
    await edit_past(bot, channel, message)


def remember_board(bot: SeegaHost, channel: int, message: Any, settled: dict[str, Any] | None = None) -> None:
    """Track the channel's latest board message (and how it reads once superseded, see
    :class:`Board`); settle the previous one: its buttons go, and its words if they said
    something that no longer holds."""
    previous: Board | None = bot.board_messages.get(channel)
    superseded = previous is not None and previous.message is not message
    if previous is not None and superseded and (previous.settled or getattr(previous.message, "components", None)):
        bot.spawn(edit_past(bot, channel, previous.message, previous.settled), name=f"settle-board-{channel}")
    if message is not None:
        bot.board_messages[channel] = Board(message, settled)


def remember_offer(bot: SeegaHost, channel: int, kind: str, message: Any, lapsed: str) -> None:
    """Track the channel's open offer (``count`` or ``draw``), the message that shows it,
    and what that message is to say if a turn lets the offer lapse (worded as the offer was)."""
    bot.offer_messages[channel] = (kind, message, lapsed)


def forget_offer(bot: SeegaHost, result: TurnResult) -> None:
    """Once a turn result shows that the channel's open offer no longer stands (the game
    ended, or a turn let it lapse), remove the offer's buttons; a lapsed offer's message
    says so (it kept asking to "accept or decline" with no buttons left)."""
    channel = result.game.channel_id
    entry = bot.offer_messages.get(channel)
    if entry is None:
        return
    kind, message, lapsed = entry
    game = result.game
    pending = game.end_offer_by if kind == "count" else game.draw_offer_by
    going_on = result.game_over is None and game.status == "active"
    if going_on and pending is not None:
        return
    bot.offer_messages.pop(channel, None)
    changes = {"content": lapsed, "allowed_mentions": discord.AllowedMentions.none()} if going_on else None
    bot.spawn(edit_past(bot, channel, message, changes), name=f"settle-offer-{channel}")
