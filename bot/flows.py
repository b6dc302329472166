"""What the bot posts after a command, a button or a timer: boards, the bot's replies, and
what each button does.

Commands (:mod:`bot.cogs`), buttons (:mod:`bot.views`) and timers (:mod:`bot.client`) all
end here: :func:`show_turn` posts a result and, when the bot is to play next, starts its
turn in the background under the guild's AI cap, so nobody waits on the AI to see their
own move. The button handlers are collected in :data:`BUTTON_HANDLERS`, which the bot
holds and the buttons call by reference.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands

from bot import lost, wording
from bot.cooldowns import refund, spend
from bot.host import ButtonHandlers, SeegaHost, host_of
from bot.i18n import lang, person_language, t
from bot.messages import (
    Reply,
    challenge_reply,
    draw_offer_reply,
    offer_reply,
    past_edit,
    player_name,
    thread_name,
    turn_reply,
)
from bot.results import (
    ChallengeError,
    ChallengeView,
    ChannelBusyError,
    GameView,
    Moderator,
    OfferResult,
    Player,
    ServiceError,
    TimerEvent,
    TurnResult,
)
from bot.senders import Send, channel_sender, forget_offer, in_time, interaction_sender, remember_board, remember_offer
from bot.texts import written_name
from bot.tree import Refusal, send_ephemeral, service_error_text
from bot.views import challenge_view, disabled_copy, draw_offer_view, end_offer_view, game_view

log = logging.getLogger(__name__)

# Discord's code for a second thread asked of one message (a thread takes its message's id).
THREAD_ALREADY_CREATED = 160004


def name_of(user: discord.abc.User) -> str:
    """The name a person is shown by: their display name as one line that cannot turn the
    rest of a message around, in its message-safe form (:func:`~bot.texts.written_name`).

    The one place the adapter reads a display name, so every message gets it: Discord shows
    the name as its owner wrote it, never as markdown around the bot's words (a heading, a
    quote, code, a spoiler), a mention of somebody else, a link (outside review, stops 36
    and 40). The service and the rows keep this form; pictures and the text board take the
    escapes off (:func:`~bot.texts.plain_name`).
    """
    return written_name(user.display_name)


def as_player(user: discord.abc.User) -> Player:
    return Player(user.id, name_of(user))


def moderator_of(interaction: discord.Interaction) -> Moderator | None:
    """The moderator capability, if the person may moderate this server.

    From their server-wide permissions (their roles; the owner and administrators too),
    never from ``interaction.permissions``, which a single channel's overwrites can grant.
    """
    member = interaction.user
    if interaction.guild_id is None or not isinstance(member, discord.Member):
        return None
    if not member.guild_permissions.manage_channels:
        return None
    return Moderator(interaction.guild_id, member.id, name_of(member))


def guild_id(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


def channel_id(interaction: discord.Interaction) -> int:
    assert interaction.channel_id is not None
    return interaction.channel_id


def check_thread_rights(interaction: discord.Interaction, challenger: str | None = None) -> None:
    """Refuse a game in a new thread where the bot may not make one or post in it.

    Asked before anything is stored (the challenge, the game): without Create Public
    Threads the accepter was told "something went wrong"; without Send Messages in
    Threads the game started in an empty thread, its first board refused, and the player
    to move, never pinged, lost on time (outside review atk41c, F2). A challenge made
    inside a thread plays in that thread and makes none.

    ``challenger``: at an Accept, whose challenge it is. The accepter cannot send it
    without a thread, only its challenger can (the challenge's own words sent them round
    in a loop: their challenge back accepted the one refused, play-test pt41).
    """
    if isinstance(interaction.channel, discord.Thread):
        return
    rights = interaction.app_permissions
    if not (rights.create_public_threads and rights.send_messages_in_threads):
        if challenger is not None:
            raise Refusal("error.no_thread_permission_accept", challenger=challenger)
        raise Refusal("error.no_thread_permission")


# ------------------------------------------------------------------------ boards

#: Words put above a board, written once the board's language is known.
Intro = Callable[[str], str]


def guild_locale_of(bot: SeegaHost, guild: int | None) -> Any:
    """A server's language setting (``preferred_locale``), where no interaction brings it
    (a timer); ``None`` (English) for a server not in the cache."""
    found = bot.get_guild(guild) if guild is not None else None
    return found.preferred_locale if found is not None else None


async def turn_language(bot: SeegaHost, result: TurnResult, guild_locale: Any) -> str:
    """The language of a game's board message: that of the person it is for
    (``result.reader``: the player to move...), the picture's language too, whoever
    acted (:func:`~bot.i18n.person_language`)."""
    return await person_language(bot, result.reader, guild_locale)


async def show_turn(
    bot: SeegaHost,
    result: TurnResult,
    guild_locale: Any,
    send: Send,
    *,
    intro: Intro | None = None,
    then: Send | None = None,
    also_ping: tuple[int, ...] = (),
) -> None:
    """Post a turn result, then (in the background) the bot's reply if it is the bot's turn.

    The message speaks the language of the person it is for (:func:`turn_language`), its
    ``intro`` too, whoever acted; ``guild_locale``: the server's language, for a person
    who chose none. The message is remembered as the channel's board with how it reads
    once superseded (:func:`~bot.messages.past_edit`), and an offer the result ended
    loses its buttons.

    The result is stored already: the bot's turn starts whatever becomes of the post
    (Discord refusing a late answer raised here, and the bot never played: outside
    review, atk40 F1).
    """
    locale = await turn_language(bot, result, guild_locale)
    above = "\n".join(filter(None, (late_note(result, locale), intro(locale) if intro is not None else "")))
    view = game_view(result, locale)
    reply = turn_reply(result, locale, view=view, intro=above)
    reply.also_ping = also_ping
    try:
        message = await send(reply)
    finally:
        # Spawned here, the task runs only once this returns: after the board below is
        # remembered, so the bot's board supersedes it in that order.
        if result.bot_to_move:
            task = play_bot_turn(bot, result.game, guild_locale, locale, then or send)
            bot.spawn(task, name=f"bot-turn-{result.game.id}")
    remember_board(bot, result.game.channel_id, message, past_edit(result, locale, above))
    forget_offer(bot, result)
    if result.closed_challenges:
        closing = close_challenge_messages(bot, result.closed_challenges, guild_locale)
        bot.spawn(closing, name=f"close-challenges-{result.game.id}")


def late_note(result: TurnResult, locale: str) -> str:
    """For a turn that came after its player's time ran out (not played: the game ended on
    time instead), the words that tell them so above the final board; else ``""``."""
    over = result.game_over
    if not result.late or over is None or over.loser is None:
        return ""
    return t(locale, "timer.move_too_late", name=player_name(over.loser, locale))


async def play_bot_turn(bot: SeegaHost, game: GameView, guild_locale: Any, locale: str, send: Send) -> None:
    """Let the AI play its turn and post it (the service keeps the guild's AI line).

    ``locale``: the language of the board it answers, for a failure's message."""
    try:
        if bot.bot_turn_delay:
            await asyncio.sleep(bot.bot_turn_delay)
        result = await bot.service.bot_turn(game.channel_id)
    except ServiceError as exc:  # e.g. the AI could not answer: the game waits, the scheduler retries
        log.warning("the bot's turn in game %s waits: %s", game.id, exc)
        await send(Reply(content=service_error_text(locale, exc)))
        return
    except Exception:
        log.exception("the bot could not play its turn in game %s", game.id)
        await send(Reply(content=t(locale, "error.bot_failed", id=game.id)))
        return
    if not result.events and result.game_over is None:
        return
    if bot.chain_step_delay > 0 and sum(1 for e in result.events if e.captured) > 1:
        await show_chain(bot, result, guild_locale, send)
    else:
        await show_turn(bot, result, guild_locale, send)


async def show_chain(bot: SeegaHost, result: TurnResult, guild_locale: Any, send: Send) -> None:
    """A bot's capture chain step by step: one message, its board edited after each capture.

    The message is created with its final wording (so the person to move is pinged,
    which an edit would not do), then shows the board after each capturing step in turn.
    """
    locale = await turn_language(bot, result, guild_locale)
    final = turn_reply(result, locale, view=game_view(result, locale))
    cuts = [i + 1 for i, event in enumerate(result.events) if event.captured]
    frames = []
    for cut in cuts[:-1]:
        events = result.events[:cut]
        partial = replace(result, events=events, png=events[-1].png, game_over=None, chain_pending=False)
        frame = turn_reply(partial, locale)
        frame.content, frame.ping = final.content, final.ping
        frames.append(frame)
    message = await send(frames[0])
    for frame in [*frames[1:], final]:
        await asyncio.sleep(bot.chain_step_delay)
        try:
            await message.edit(**frame.edit_kwargs())
        except discord.HTTPException:
            log.warning("could not show the next step of the bot's chain in game %s", result.game.id)
            break
    remember_board(bot, result.game.channel_id, message, past_edit(result, locale))
    forget_offer(bot, result)


# ------------------------------------------------------------------------ buttons


async def stale_button(interaction: discord.Interaction, key: str = "error.stale_button", **params: Any) -> None:
    """Disable the buttons of the clicked message and say privately why."""
    view = disabled_copy(interaction.message)
    if view is not None and not interaction.response.is_done():
        await interaction.response.edit_message(view=view)
    await send_ephemeral(interaction, t(lang(interaction), key, **params))


async def current_game(interaction: discord.Interaction, game_id: int) -> GameView | None:
    """The channel's active game if it is ``game_id`` (else the button is stale)."""
    game = await host_of(interaction).service.game(channel_id(interaction))
    if game is None or game.id != game_id:
        await stale_button(interaction)
        return None
    return game


async def challenge_language(bot: SeegaHost, challenge: ChallengeView, guild_locale: Any) -> str:
    """The language of a challenge's message, its buttons and what it later says (accepted,
    declined, expired): the challenged person's, whom it asks (:func:`~bot.i18n.person_language`)."""
    return await person_language(bot, challenge.opponent.user_id, guild_locale)


async def challenge_buttons(
    bot: SeegaHost, challenge: ChallengeView, locale: str, guild_locale: Any, *, disabled: bool = False
) -> discord.ui.View:
    """A challenge's buttons in ``locale`` (the challenged person's), Decline naming the
    challenger's withdrawal in the challenger's language (:func:`~bot.views.challenge_view`)."""
    challenger = await person_language(bot, challenge.challenger.user_id, guild_locale)
    return challenge_view(challenge.id, locale, disabled=disabled, challenger=challenger)


async def edit_challenge_message(bot: SeegaHost, challenge: ChallengeView, reply: Reply) -> bool:
    """Show a settled challenge on its message, if this process posted it (whether it could).

    By channel and id, as the message's author: ``message.edit`` would go through the
    interaction's token, which Discord honours for 15 minutes only, while a challenge may
    stay open for up to 7 days.
    """
    message = bot.challenge_messages.pop(challenge.id, None)  # settled: its expiry will not come
    if message is None:
        return False
    where = getattr(getattr(message, "channel", None), "id", None) or challenge.channel_id
    try:
        await (
            bot.get_partial_messageable(where, guild_id=challenge.guild_id)
            .get_partial_message(message.id)
            .edit(content=reply.content, view=reply.view, allowed_mentions=discord.AllowedMentions.none())
        )
    except discord.HTTPException:
        log.debug("could not show settled challenge %s", challenge.id)
        return False
    return True


async def remember_challenge_message(
    bot: SeegaHost, challenge: ChallengeView, message: discord.Message, guild_locale: Any
) -> None:
    """Keep a just-posted challenge's message for its later edits, and show at once a
    settlement that came while it was being posted.

    The challenge is stored before its message exists: a crossing Rematch, a decline or a
    game's start that settles it in between finds no message to edit, and the post would
    stay an open challenge with a live Accept (a CI run under load; Discord's latency
    makes that order common).
    """
    bot.challenge_messages[challenge.id] = message
    now = await bot.service.get_challenge(challenge.id)
    if now.status == "pending":
        return
    said = await challenge_language(bot, now, guild_locale)
    view = await challenge_buttons(bot, now, said, guild_locale, disabled=True)
    await edit_challenge_message(bot, now, challenge_reply(now, said, view))


async def close_challenge_messages(bot: SeegaHost, challenges: tuple[ChallengeView, ...], guild_locale: Any) -> None:
    """The challenges a game's start closed lose their buttons and say why (best effort),
    each in its challenged person's language, as it was posted."""
    for challenge in challenges:
        locale = await challenge_language(bot, challenge, guild_locale)
        await edit_challenge_message(
            bot,
            challenge,
            challenge_reply(
                challenge, locale, await challenge_buttons(bot, challenge, locale, guild_locale, disabled=True)
            ),
        )


async def _settled_challenge(interaction: discord.Interaction, challenge: ChallengeView, text: str) -> None:
    """A settled challenge's button: its message shows how it was settled, its buttons
    disabled, and the presser is told ``text`` privately."""
    host = host_of(interaction)
    host.challenge_messages.pop(challenge.id, None)
    locale = await challenge_language(host, challenge, interaction.guild_locale)  # as it was posted
    view = await challenge_buttons(host, challenge, locale, interaction.guild_locale, disabled=True)
    reply = challenge_reply(challenge, locale, view)
    if not interaction.response.is_done():
        if challenge.status == "accepted":  # it says so already (and where the game is)
            await interaction.response.edit_message(view=reply.view)
        else:
            await interaction.response.edit_message(
                content=reply.content, view=reply.view, allowed_mentions=discord.AllowedMentions.none()
            )
    await send_ephemeral(interaction, text)


async def button_accept(interaction: discord.Interaction, challenge_id: int) -> None:
    bot = host_of(interaction)
    challenge = await bot.service.get_challenge(challenge_id)
    if interaction.user.id not in (challenge.opponent.user_id, challenge.challenger.user_id):
        raise Refusal("error.not_for_you", name=challenge.opponent.name)
    if challenge.status != "pending":
        await _settled_challenge(interaction, challenge, t(lang(interaction), "error.challenge_closed"))
        return
    if interaction.user.id == challenge.challenger.user_id:
        raise Refusal("error.own_challenge")  # their Decline withdraws it
    await _accept(interaction, challenge, interaction.message)


async def accept_crossing(interaction: discord.Interaction, challenge: ChallengeView) -> None:
    """A challenge (or Rematch) answered the opponent's own pending challenge in the
    channel: the service stored nothing, and the presser accepts that challenge instead,
    as its Accept would (two crossing challenges were posted, and both could be accepted)."""
    await _accept(interaction, challenge, None, crossed=True)


async def _accept(
    interaction: discord.Interaction,
    challenge: ChallengeView,
    message: discord.Message | None,
    *,
    crossed: bool = False,
) -> None:
    """Accept ``challenge`` for the presser: its own message (``message``, whose Accept
    was pressed, or the one this process posted) says so, and the game starts."""
    bot = host_of(interaction)
    locale = lang(interaction)
    challenge_id = challenge.id
    thread: discord.Thread | None = None
    said = await challenge_language(bot, challenge, interaction.guild_locale)
    if challenge.thread and not isinstance(interaction.channel, discord.Thread):
        check_thread_rights(interaction, challenge.challenger.name)  # the rights may have gone since
        name = thread_name(challenge, said)
        if message is not None:
            try:
                thread = await message.create_thread(name=name, auto_archive_duration=1440)
            except discord.HTTPException as exc:
                if exc.code != THREAD_ALREADY_CREATED:
                    raise
                # Another press made the game's thread first (Discord makes one thread from a
                # message): that press starts the game and edits the challenge's message.
                await send_ephemeral(interaction, t(locale, "error.challenge_closed"))
                return
        elif isinstance(interaction.channel, discord.TextChannel):
            thread = await interaction.channel.create_thread(
                name=name, auto_archive_duration=1440, type=discord.ChannelType.public_thread
            )
    try:
        result = await bot.service.accept_challenge(
            challenge_id, interaction.user.id, thread.id if thread else None, bot_reply=False
        )
    except ServiceError as exc:
        if thread is not None:
            await _delete_unused(bot, thread)
        now = await bot.service.get_challenge(challenge_id)
        if now.status == "closed" and isinstance(exc, ChannelBusyError):
            # Accepted into a channel that has a game: closed, never to start one later.
            if crossed:
                view = await challenge_buttons(bot, now, said, interaction.guild_locale, disabled=True)
                closed = challenge_reply(now, said, view)
                await edit_challenge_message(bot, now, closed)
                await send_ephemeral(interaction, service_error_text(locale, exc))
            else:
                await _settled_challenge(interaction, now, service_error_text(locale, exc))
            return
        if now.status != "pending" and not crossed:  # a double click, or too late
            await _settled_challenge(interaction, now, t(locale, "error.challenge_closed"))
            return
        raise
    except Exception:
        if thread is not None:
            await _delete_unused(bot, thread)
        raise
    named = thread_name(challenge, said, result.game)
    if thread is not None and named != thread.name:
        await _rename_quietly(thread, named)  # colours drawn at random
    accepted = await bot.service.get_challenge(challenge_id)
    view = await challenge_buttons(bot, accepted, said, interaction.guild_locale, disabled=True)
    reply = challenge_reply(accepted, said, view)
    if thread is not None:
        reply.content = f"{reply.content}\n{t(said, 'challenge.go_to_thread', thread=thread.mention)}"

    def crossed_note(locale: str) -> str:
        return t(locale, "challenge.crossed", challenger=challenge.challenger.name, opponent=challenge.opponent.name)

    def differs(locale: str) -> str:
        text = wording.differences_text(result.game.variant, locale, result.game.size)
        return "\n".join(line for line in (crossed_note(locale) if crossed else "", text) if line)

    if crossed:
        await edit_challenge_message(bot, accepted, reply)
        if thread is not None:
            await interaction_sender(interaction)(Reply(content=f"{crossed_note(said)}\n{reply.content}"))
    else:
        bot.challenge_messages.pop(challenge_id, None)  # settled: its expiry will not come
        await interaction.response.edit_message(**{k: v for k, v in reply.send_kwargs().items() if k != "files"})
    if thread is None:
        await show_turn(bot, result, interaction.guild_locale, interaction_sender(interaction), intro=differs)
        return
    # The thread is new: its first message names and notifies both players, so the
    # challenger (who did not click anything) finds the game too.
    players = (challenge.challenger.user_id, challenge.opponent.user_id)

    def welcome(locale: str) -> str:
        intro = t(locale, "thread.welcome", challenger=f"<@{players[0]}>", opponent=f"<@{players[1]}>")
        return f"{intro}\n{differs(locale)}" if differs(locale) else intro

    send = channel_sender(bot, thread.id, interaction.guild_id)
    await show_turn(bot, result, interaction.guild_locale, send, intro=welcome, also_ping=players)


async def _rename_quietly(thread: discord.Thread, name: str) -> None:
    """The thread named as its game (Black vs White); the old name stays if Discord refuses."""
    try:
        await thread.edit(name=name)
    except discord.HTTPException:
        log.warning("could not rename thread %s", thread.id)


async def _delete_unused(bot: SeegaHost, thread: discord.Thread) -> None:
    """Delete the thread this press made for a game that did not start, unless a game
    lives in it: a thread holding a game is never removed by a losing press (play-test
    pt40b: the losing Accept deleted the winner's thread)."""
    if await bot.service.game(thread.id) is None:
        await _delete_quietly(thread)


async def _delete_quietly(thread: discord.Thread) -> None:
    """Delete the thread made for a game that did not start; without the right to delete
    it (Manage Threads), archive it: it leaves the channel's list of threads, where an
    empty "Seega: Carol vs Bob" stayed (Discord play-test, stop 40)."""
    try:
        await thread.delete()
        return
    except discord.HTTPException:
        pass
    try:
        await thread.edit(archived=True)  # its creator may archive it
    except discord.HTTPException:
        log.warning("could not delete nor archive thread %s after a failed accept", thread.id)


async def button_decline(interaction: discord.Interaction, challenge_id: int) -> None:
    bot = host_of(interaction)
    challenge = await bot.service.get_challenge(challenge_id)
    if interaction.user.id not in (challenge.opponent.user_id, challenge.challenger.user_id):
        raise Refusal("error.not_for_you", name=challenge.opponent.name)
    if challenge.status != "pending":
        await _settled_challenge(interaction, challenge, t(lang(interaction), "error.challenge_closed"))
        return
    try:
        done = await bot.service.decline_challenge(challenge_id, interaction.user.id)
        bot.challenge_messages.pop(challenge_id, None)
    except ChallengeError:
        settled = await bot.service.get_challenge(challenge_id)
        await _settled_challenge(interaction, settled, t(lang(interaction), "error.challenge_closed"))
        return
    said = await challenge_language(bot, challenge, interaction.guild_locale)  # as it asked, whoever answers
    view = await challenge_buttons(bot, done.challenge, said, interaction.guild_locale, disabled=True)
    reply = challenge_reply(done.challenge, said, view)
    await interaction.response.edit_message(
        content=reply.content, view=reply.view, allowed_mentions=discord.AllowedMentions.none()
    )


async def button_end_turn(interaction: discord.Interaction, game_id: int) -> None:
    if await current_game(interaction, game_id) is None:
        return
    bot = host_of(interaction)
    result = await in_time(
        interaction, bot.service.end_turn(channel_id(interaction), interaction.user.id, bot_reply=False)
    )
    await show_turn(bot, result, interaction.guild_locale, interaction_sender(interaction))


async def button_resign(interaction: discord.Interaction, question_id: int) -> None:
    """The private resignation question's Resign. The service answers the stored question
    first come, first served: a Cancel pressed at the same time (another device, another
    shard) is told privately that the question was answered, and the reverse."""
    bot = host_of(interaction)
    result = await bot.service.confirm_resign(question_id, interaction.user.id)
    await interaction.response.edit_message(content=t(lang(interaction), "resign.done"), view=None)
    await show_turn(bot, result, interaction.guild_locale, interaction_sender(interaction))


async def button_cancel_resign(interaction: discord.Interaction, question_id: int) -> None:
    """The private resignation question's Cancel: the game goes on, and it says so (only
    if Resign was not pressed first: then the service refuses and names that answer)."""
    await host_of(interaction).service.cancel_resign(question_id, interaction.user.id)
    await interaction.response.edit_message(content=t(lang(interaction), "resign.cancelled"), view=None)


async def button_resign_outdated(interaction: discord.Interaction, game_id: int) -> None:
    """A resignation question asked before the questions were stored: ask again."""
    await stale_button(interaction, "error.resign_outdated")


async def _offer_answer(interaction: discord.Interaction, game_id: int) -> GameView | None:
    """The game an offer's button answers (``None``: the button is stale and was told
    so); an onlooker's press is refused."""
    game = await current_game(interaction, game_id)
    if game is not None and game.color_of(interaction.user.id) is None:
        raise Refusal("error.not_a_player")
    return game


async def offer_language(interaction: discord.Interaction, opponent: int) -> str:
    """The language of an offer's message, its buttons and its answer: the language of
    the player it asks (``opponent``), whoever presses (the offerer's Decline withdraws it)."""
    return await person_language(host_of(interaction), opponent, interaction.guild_locale)


async def offerer_language(interaction: discord.Interaction, offerer: int) -> str:
    """The offerer's language: the second half of the offer's Decline button, their word
    for withdrawing it (:func:`~bot.views.end_offer_view`)."""
    return await person_language(host_of(interaction), offerer, interaction.guild_locale)


async def _accepted(
    interaction: discord.Interaction, result: TurnResult, key: str, view: Callable[[str, str], discord.ui.View]
) -> None:
    """An accepted offer's message says so (as a declined one does; it kept asking under
    greyed buttons: re-check play-test), and the final board says who accepted, in ``key``'s
    words: the offer does not say them a second time (play-test). Only the player asked
    accepts, so the offer keeps their language."""
    host_of(interaction).offer_messages.pop(channel_id(interaction), None)  # answered here
    locale, name = await offer_language(interaction, interaction.user.id), name_of(interaction.user)
    game = result.game
    offerer = await offerer_language(
        interaction, game.white.user_id if game.black.user_id == interaction.user.id else game.black.user_id
    )
    quiet = discord.AllowedMentions.none()
    over = result.game_over
    if over is not None and over.reason == "timeout" and over.loser is not None:
        # Accepted after the player to move ran out of time: the game ended on time, not
        # as agreed, and both messages say so (play-test pt41: "Carol accepts the draw."
        # above "Alice wins: Carol ran out of time.").
        loser = over.loser
        content = t(locale, "offer.too_late_here", name=player_name(loser, locale))

        def intro(x: str) -> str:
            return t(x, "timer.answer_too_late", name=player_name(loser, x))

    else:
        content = t(locale, "offer.accepted_here", name=f"**{name}**")

        def intro(x: str) -> str:
            return t(x, key, name=name)

    await interaction.response.edit_message(content=content, view=view(locale, offerer), allowed_mentions=quiet)
    bot = host_of(interaction)
    await show_turn(bot, result, interaction.guild_locale, interaction_sender(interaction), intro=intro)


async def button_accept_end(interaction: discord.Interaction, game_id: int) -> None:
    if await _offer_answer(interaction, game_id) is None:
        return
    result = await host_of(interaction).service.accept_end(channel_id(interaction), interaction.user.id)
    await _accepted(
        interaction, result, "offer.accepted", lambda x, o: end_offer_view(game_id, x, disabled=True, offerer=o)
    )


async def button_decline_end(interaction: discord.Interaction, game_id: int) -> None:
    """The opponent declines the offer to end by count; the offerer withdraws it."""
    if await _offer_answer(interaction, game_id) is None:
        return
    bot = host_of(interaction)
    done = await bot.service.decline_end(channel_id(interaction), interaction.user.id)
    bot.offer_messages.pop(channel_id(interaction), None)
    locale = await offer_language(interaction, done.opponent.user_id)
    offerer = player_name(done.offered_by, locale)
    if interaction.user.id == done.offered_by.user_id and done.offered_by.user_id != done.opponent.user_id:
        text = t(locale, "offer.withdrawn", name=offerer)
    else:
        text = t(locale, "offer.declined", name=player_name(done.opponent, locale), offerer=offerer)
    offerer_lang = await offerer_language(interaction, done.offered_by.user_id)
    view = end_offer_view(game_id, locale, disabled=True, offerer=offerer_lang)
    await interaction.response.edit_message(content=text, view=view, allowed_mentions=discord.AllowedMentions.none())


def lapsed_text(offer: OfferResult, key: str, locale: str) -> str:
    """What an offer's message says once its opponent played on instead of answering it."""
    return t(locale, key, offerer=player_name(offer.offered_by, locale), player=player_name(offer.opponent, locale))


async def button_offer_end(interaction: discord.Interaction, game_id: int) -> None:
    """The explanation's button: send the offer to end by count (the bot answers at once)."""
    if await current_game(interaction, game_id) is None:
        return
    bot = host_of(interaction)
    outcome = await bot.service.offer_end(channel_id(interaction), interaction.user.id)
    await interaction.response.edit_message(content=t(lang(interaction), "offer.sent"), view=None)
    send = interaction_sender(interaction)
    if isinstance(outcome, OfferResult):
        locale = await offer_language(interaction, outcome.opponent.user_id)
        offerer = await offerer_language(interaction, outcome.offered_by.user_id)
        message = await send(offer_reply(outcome, locale, end_offer_view(game_id, locale, offerer=offerer)))
        remember_offer(bot, channel_id(interaction), "count", message, lapsed_text(outcome, "offer.lapsed", locale))
    else:
        ended = outcome.game
        bot_player = ended.black if ended.black.is_bot else ended.white

        def intro(locale: str) -> str:
            return t(locale, "offer.bot_accepts", name=player_name(bot_player, locale))

        await show_turn(bot, outcome, interaction.guild_locale, send, intro=intro)


async def button_offer_draw(interaction: discord.Interaction, game_id: int) -> None:
    """The confirmation's button: send the offer (against the bot: its answer at once)."""
    if await current_game(interaction, game_id) is None:
        return
    bot = host_of(interaction)
    outcome = await bot.service.offer_draw(channel_id(interaction), interaction.user.id)
    await interaction.response.edit_message(content=t(lang(interaction), "draw.sent"), view=None)
    send = interaction_sender(interaction)
    if isinstance(outcome, OfferResult):
        locale = await offer_language(interaction, outcome.opponent.user_id)
        offerer = await offerer_language(interaction, outcome.offered_by.user_id)
        message = await send(draw_offer_reply(outcome, locale, draw_offer_view(game_id, locale, offerer=offerer)))
        remember_offer(bot, channel_id(interaction), "draw", message, lapsed_text(outcome, "draw.lapsed", locale))
    else:
        game = outcome.game
        bot_player = game.black if game.black.is_bot else game.white

        def intro(locale: str) -> str:
            return t(locale, "draw.accepted", name=player_name(bot_player, locale))

        await show_turn(bot, outcome, interaction.guild_locale, send, intro=intro)


async def button_accept_draw(interaction: discord.Interaction, game_id: int) -> None:
    if await _offer_answer(interaction, game_id) is None:
        return
    result = await host_of(interaction).service.accept_draw(channel_id(interaction), interaction.user.id)
    await _accepted(
        interaction, result, "draw.accepted", lambda x, o: draw_offer_view(game_id, x, disabled=True, offerer=o)
    )


async def button_decline_draw(interaction: discord.Interaction, game_id: int) -> None:
    if await _offer_answer(interaction, game_id) is None:
        return
    declined = await host_of(interaction).service.decline_draw(channel_id(interaction), interaction.user.id)
    host_of(interaction).offer_messages.pop(channel_id(interaction), None)
    locale = await offer_language(interaction, declined.opponent.user_id)
    offerer = player_name(declined.offered_by, locale)
    if interaction.user.id == declined.offered_by.user_id != declined.opponent.user_id:
        text = t(locale, "draw.withdrawn", name=offerer)  # its offerer's Decline withdraws it
    else:
        text = t(locale, "draw.declined", name=player_name(declined.opponent, locale), offerer=offerer)
    offerer_lang = await offerer_language(interaction, declined.offered_by.user_id)
    view = draw_offer_view(game_id, locale, disabled=True, offerer=offerer_lang)
    await interaction.response.edit_message(content=text, view=view, allowed_mentions=discord.AllowedMentions.none())


async def is_member(guild: discord.Guild | None, user_id: int) -> bool:
    """Whether ``user_id`` is still a member of ``guild``: the cache, else Discord (the bot
    has no members intent). Only Discord's "Unknown Member" says no: an outage does not."""
    if guild is None or guild.get_member(user_id) is not None:
        return True
    try:
        await guild.fetch_member(user_id)
    except discord.NotFound:
        return False
    except discord.HTTPException:
        log.info("could not look up member %d of guild %d", user_id, guild.id)
    return True


async def button_rematch(interaction: discord.Interaction, game_id: int) -> None:
    bot = host_of(interaction)
    guild = guild_id(interaction)
    old = await bot.service.get_game(game_id, guild)
    if old is None:
        raise Refusal("error.not_a_player")
    black, white, size, variant = old.black, old.white, old.size, old.variant
    me = interaction.user.id
    if me not in (black.user_id, white.user_id) or (black.is_bot and white.is_bot):
        raise Refusal("error.not_a_player")
    my_old_color = "black" if black.user_id == me and not black.is_bot else "white"
    color = "white" if my_old_color == "black" else "black"  # swap colours for the rematch
    opponent = white if my_old_color == "black" else black
    player = as_player(interaction.user)
    if opponent.is_bot:
        assert opponent.bot_level is not None
        spend("play-bot", interaction)  # the same game as /seega play-bot starts, the same limit
        result = await bot.service.play_bot(
            guild, channel_id(interaction), player, opponent.bot_level, size, variant, color, bot_reply=False
        )
        await interaction.response.edit_message(view=disabled_copy(interaction.message))
        await show_turn(bot, result, interaction.guild_locale, interaction_sender(interaction))
        return
    # A challenge that pings the opponent as /seega challenge does, so the same limit: a
    # finished game's /seega board hands out a Rematch each time, and without it one
    # person pinged another 18 times a minute (outside review atk41c F3).
    if not await is_member(interaction.guild, opponent.user_id):
        # They left the server: a challenge they could never accept (outside review atk41d
        # F3; /seega challenge refuses it too).
        raise Refusal("error.not_a_member", name=opponent.name)
    spend("challenge", interaction)
    try:
        made = await bot.service.challenge(
            guild, channel_id(interaction), player, opponent, size, variant, color, thread=False
        )
    except ServiceError:
        refund("challenge", interaction)  # refused, it pinged nobody: it does not count
        raise
    await interaction.response.edit_message(view=disabled_copy(interaction.message))
    if made.crossing:  # the opponent pressed Rematch first: this press accepts their challenge
        await accept_crossing(interaction, made.challenge)
        return
    said = await challenge_language(bot, made.challenge, interaction.guild_locale)
    view = await challenge_buttons(bot, made.challenge, said, interaction.guild_locale)
    reply = challenge_reply(made.challenge, said, view)
    message = await interaction_sender(interaction)(reply)
    await remember_challenge_message(bot, made.challenge, message, interaction.guild_locale)


#: What each button does (the bot holds this; :mod:`bot.views` calls through it).
BUTTON_HANDLERS = ButtonHandlers(
    accept=button_accept,
    decline=button_decline,
    end_turn=button_end_turn,
    resign=button_resign,
    accept_end=button_accept_end,
    decline_end=button_decline_end,
    cancel_resign=button_cancel_resign,
    rematch=button_rematch,
    offer_end=button_offer_end,
    offer_draw=button_offer_draw,
    accept_draw=button_accept_draw,
    decline_draw=button_decline_draw,
    resign_outdated=button_resign_outdated,
)


# ------------------------------------------------------------------------ timers


async def announce_deleted_thread(bot: SeegaHost, games: tuple[GameView, ...], parent_id: int | None) -> None:
    """Say in the parent channel that a game's thread was deleted, and how the game ended
    (abandoned, or the deleting player's resignation, whose winner is pinged). Nothing was
    said: the winner of a rated game learnt nothing, and the parent's "The game is on in
    #thread" pointed at a thread that was gone (play-test pt41). Best effort: the parent
    may be gone too, or closed to the bot."""
    if parent_id is None:
        return
    for game in games:
        locale = await person_language(bot, None, guild_locale_of(bot, game.guild_id))
        names = {"id": game.id, "black": player_name(game.black, locale), "white": player_name(game.white, locale)}
        ping = None
        if game.result in ("1-0", "0-1"):
            winner, loser = (game.black, game.white) if game.result == "1-0" else (game.white, game.black)
            # A person is named by mention and pinged; the bot by its name (review atk41e F3:
            # "<@0> wins." when a person deleted their game against the bot).
            shown = player_name(winner, locale) if winner.is_bot else f"<@{winner.user_id}>"
            text = t(locale, "game.thread_deleted_resigned", loser=player_name(loser, locale), winner=shown, **names)
            ping = None if winner.is_bot else winner.user_id
        else:
            text = t(locale, "game.thread_deleted", **names)
        try:
            await channel_sender(bot, parent_id, game.guild_id)(Reply(content=text, ping=ping))
        except discord.HTTPException as exc:
            log.info("could not tell channel %s that game %s's thread was deleted (%s)", parent_id, game.id, exc.status)


async def announce_timer_event(bot: SeegaHost, event: TimerEvent) -> None:
    """Post what the scheduler did in the game's channel, each message in the language of
    the person it is for (nobody acted: a timer fired), else the server's.

    What Discord refuses is logged as one warning, and the scheduler goes on (the event
    is applied already: a timeout stays rated, as the contract says). A game channel
    Discord calls unknown was deleted unnoticed: its game is abandoned, unrated.
    """
    try:
        await _announce(bot, event)
    except discord.Forbidden as exc:
        log.warning(
            "cannot post the %s of %s in channel %s: missing permission (%s %s)",
            event.kind,
            _what(event),
            _where(event),
            exc.status,
            exc.code,
        )
    except discord.NotFound as exc:
        if exc.code != lost.UNKNOWN_CHANNEL:
            raise
        log.warning("cannot post the %s of %s: channel %s is gone", event.kind, _what(event), _where(event))
        game = _game_of(event)
        if game is not None:
            await lost.channel_deleted(bot, game.channel_id)


def _game_of(event: TimerEvent) -> GameView | None:
    """The game a timer event is about (``None``: a challenge's)."""
    return event.game or (event.turn.game if event.turn else None)


def _what(event: TimerEvent) -> str:
    """The game or challenge a timer event is about, for a log line."""
    game = _game_of(event)
    if game is not None:
        return f"game {game.id}"
    return f"challenge {event.challenge.id}" if event.challenge is not None else "nothing"


def _where(event: TimerEvent) -> int | None:
    """The channel a timer event is announced in, for a log line."""
    game = _game_of(event)
    if game is not None:
        return game.channel_id
    return event.challenge.channel_id if event.challenge is not None else None


async def _announce(bot: SeegaHost, event: TimerEvent) -> None:
    """Post one timer event (:func:`announce_timer_event`)."""
    if event.kind == "challenge_expired" and event.challenge is not None:
        challenge = event.challenge
        locale = await challenge_language(bot, challenge, guild_locale_of(bot, challenge.guild_id))
        view = await challenge_buttons(bot, challenge, locale, guild_locale_of(bot, challenge.guild_id), disabled=True)
        reply = challenge_reply(challenge, locale, view)
        if not await edit_challenge_message(bot, challenge, reply):
            await channel_sender(bot, challenge.channel_id, challenge.guild_id)(reply)
        return
    game = _game_of(event)
    if game is None:
        return
    send = channel_sender(bot, game.channel_id, game.guild_id)
    guild_locale = guild_locale_of(bot, game.guild_id)
    if event.kind == "reminder":
        text = t(
            await person_language(bot, event.ping, guild_locale),
            "timer.reminder",
            mention=f"<@{event.ping}>" if event.ping else "",
            remaining=f"<t:{int(game.deadline or 0)}:R>",
        )
        await send(Reply(content=text, ping=event.ping))
    elif event.turn is not None:
        await show_turn(bot, event.turn, guild_locale, send)
