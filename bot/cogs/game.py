"""Playing: ``/place``, ``/move``, ``/remove`` and the ``/seega`` group, plus the button flows.

Every command is thin: parse (transformers) -> service -> :mod:`bot.messages` -> respond.
The human's turn is answered at once (the service renders off the event loop); when the
bot is to play next, its turn runs in the background under the guild's AI cap and appears
as a followup, so nobody waits on the AI to see their own move.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.cogs.admin import AdminCommands
from bot.cogs.coach import CoachCommands
from bot.cogs.stats import StatsCommands
from bot.i18n import lang, t
from bot.i18n import language as language_of_locale
from bot.messages import Reply, challenge_reply, offer_reply, turn_reply
from bot.results import BOT_LEVELS, ChallengeError, GameView, OfferResult, Player, ServiceError, TimerEvent, TurnResult
from bot.transformers import Cell, MoveFrom
from bot.tree import Refusal, answer_error, send_ephemeral
from bot.views import challenge_view, disabled_copy, end_offer_view, game_view, resign_view
from engine import PRESETS

if TYPE_CHECKING:
    from bot.client import AnyBot

    CogMixin = commands.Cog  # lets the type checker see these mixins as parts of a cog
else:
    CogMixin = object

log = logging.getLogger(__name__)

Send = Callable[[Reply], Awaitable[Any]]

SIZE_CHOICES = [
    Choice(name=_("5x5 (Khamsawee)"), value=5),
    Choice(name=_("7x7 (Sebawee)"), value=7),
    Choice(name=_("9x9 (Tisawee)"), value=9),
]
#: The presets playable on Discord's boards (5, 7 or 9; modern-3x3 is 3x3 only).
VARIANT_CHOICES = [Choice(name=name, value=name) for name, (sizes, _) in PRESETS.items() if {5, 7, 9} & set(sizes)]
COLOR_CHOICES = [
    Choice(name=_("black"), value="black"),
    Choice(name=_("white"), value="white"),
    Choice(name=_("random"), value="random"),
]
LEVEL_CHOICES = [Choice(name=_(level), value=level) for level in BOT_LEVELS]
MAX_CHOICES = 25


def language_of_client(interaction: discord.Interaction) -> str:
    return language_of_locale(interaction.locale)


def client(interaction: discord.Interaction) -> AnyBot:
    bot: AnyBot = interaction.client  # type: ignore[assignment]
    return bot


def as_player(user: discord.abc.User) -> Player:
    return Player(user.id, user.display_name)


def guild_id(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


def channel_id(interaction: discord.Interaction) -> int:
    assert interaction.channel_id is not None
    return interaction.channel_id


# ------------------------------------------------------------------------ sending boards


def interaction_sender(interaction: discord.Interaction) -> Send:
    """Send a reply as this interaction's answer, or as a followup once it is answered."""

    async def send(reply: Reply) -> Any:
        if not interaction.response.is_done():
            callback = await interaction.response.send_message(**reply.send_kwargs())
            return callback.resource
        return await interaction.followup.send(**reply.send_kwargs(), wait=True)

    return send


def channel_sender(bot: AnyBot, channel: int, guild: int | None = None) -> Send:
    """Post into a channel (timers, threads): needs the Send Messages permission."""

    async def send(reply: Reply) -> Any:
        target = bot.get_partial_messageable(channel, guild_id=guild)
        return await target.send(**reply.send_kwargs())

    return send


async def strip_buttons(bot: AnyBot, channel: int, message: Any) -> None:
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


def remember_board(bot: AnyBot, channel: int, message: Any) -> None:
    """Track the channel's latest board message; clear the buttons of the previous one."""
    previous = bot.board_messages.get(channel)
    if previous is not None and previous is not message and getattr(previous, "components", None):
        bot.spawn(strip_buttons(bot, channel, previous), name=f"strip-buttons-{channel}")
    if message is not None:
        bot.board_messages[channel] = message


async def show_turn(
    bot: AnyBot, result: TurnResult, locale: Any, send: Send, *, intro: str = "", then: Send | None = None
) -> None:
    """Post a turn result, then (in the background) the bot's reply if it is the bot's turn."""
    view = game_view(result, locale)
    message = await send(turn_reply(result, locale, view=view, intro=intro))
    remember_board(bot, result.game.channel_id, message)
    if result.bot_to_move:
        bot.spawn(play_bot_turn(bot, result.game, locale, then or send), name=f"bot-turn-{result.game.id}")


async def play_bot_turn(bot: AnyBot, game: GameView, locale: Any, send: Send) -> None:
    """Let the AI play its turn (under the guild's cap) and post it."""
    try:
        async with bot.ai_slot(game.guild_id):
            if bot.bot_turn_delay:
                await asyncio.sleep(bot.bot_turn_delay)
            result = await bot.service.bot_turn(game.channel_id)
    except Exception:
        log.exception("the bot could not play its turn in game %s", game.id)
        await send(Reply(content=t(locale, "error.bot_failed", id=game.id)))
        return
    if not result.events and result.game_over is None:
        return
    if bot.chain_step_delay > 0 and sum(1 for e in result.events if e.captured) > 1:
        await show_chain(bot, result, locale, send)
    else:
        await show_turn(bot, result, locale, send)


async def show_chain(bot: AnyBot, result: TurnResult, locale: Any, send: Send) -> None:
    """A bot's capture chain step by step: one message, its board edited after each capture.

    The message is created with its final wording (so the person to move is pinged,
    which an edit would not do), then shows the board after each capturing step in turn.
    """
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
    remember_board(bot, result.game.channel_id, message)


async def stale_button(interaction: discord.Interaction, key: str = "error.stale_button", **params: Any) -> None:
    """Disable the buttons of the clicked message and say privately why."""
    view = disabled_copy(interaction.message)
    if view is not None and not interaction.response.is_done():
        await interaction.response.edit_message(view=view)
    await send_ephemeral(interaction, t(lang(interaction), key, **params))


async def current_game(interaction: discord.Interaction, game_id: int) -> GameView | None:
    """The channel's active game if it is ``game_id`` (else the button is stale)."""
    game = await client(interaction).service.game(channel_id(interaction))
    if game is None or game.id != game_id:
        await stale_button(interaction)
        return None
    return game


# ------------------------------------------------------------------------ button flows


async def button_accept(interaction: discord.Interaction, challenge_id: int) -> None:
    bot = client(interaction)
    challenge = await bot.service.get_challenge(challenge_id)
    if interaction.user.id != challenge.opponent.user_id:
        raise Refusal("error.not_for_you", name=challenge.opponent.name)
    if challenge.status != "pending":
        await stale_button(interaction, "error.challenge_closed")
        return
    thread: discord.Thread | None = None
    message = interaction.message
    if challenge.thread and message is not None and not isinstance(interaction.channel, discord.Thread):
        name = t(lang(interaction), "thread.name", a=challenge.challenger.name, b=challenge.opponent.name)
        thread = await message.create_thread(name=name[:100], auto_archive_duration=1440)
    try:
        result = await bot.service.accept_challenge(
            challenge_id, interaction.user.id, thread.id if thread else None, bot_reply=False
        )
    except ServiceError:
        if thread is not None:
            await _delete_quietly(thread)
        if (await bot.service.get_challenge(challenge_id)).status != "pending":
            await stale_button(interaction, "error.challenge_closed")  # a double click, or too late
            return
        raise
    except Exception:
        if thread is not None:
            await _delete_quietly(thread)
        raise
    accepted = await bot.service.get_challenge(challenge_id)
    bot.challenge_messages.pop(challenge_id, None)  # settled: its expiry will not come
    reply = challenge_reply(accepted, lang(interaction), challenge_view(challenge_id, lang(interaction), disabled=True))
    if thread is not None:
        reply.content = f"{reply.content}\n{t(lang(interaction), 'challenge.go_to_thread', thread=thread.mention)}"
    await interaction.response.edit_message(**{k: v for k, v in reply.send_kwargs().items() if k != "files"})
    send = channel_sender(bot, thread.id, interaction.guild_id) if thread else interaction_sender(interaction)
    await show_turn(bot, result, lang(interaction), send)


async def _delete_quietly(thread: discord.Thread) -> None:
    try:
        await thread.delete()
    except discord.HTTPException:
        log.warning("could not delete thread %s after a failed accept", thread.id)


async def button_decline(interaction: discord.Interaction, challenge_id: int) -> None:
    bot = client(interaction)
    challenge = await bot.service.get_challenge(challenge_id)
    if interaction.user.id not in (challenge.opponent.user_id, challenge.challenger.user_id):
        raise Refusal("error.not_for_you", name=challenge.opponent.name)
    if challenge.status != "pending":
        await stale_button(interaction, "error.challenge_closed")
        return
    try:
        done = await bot.service.decline_challenge(challenge_id, interaction.user.id)
        bot.challenge_messages.pop(challenge_id, None)
    except ChallengeError:
        await stale_button(interaction, "error.challenge_closed")
        return
    reply = challenge_reply(
        done.challenge, lang(interaction), challenge_view(challenge_id, lang(interaction), disabled=True)
    )
    await interaction.response.edit_message(
        content=reply.content, view=reply.view, allowed_mentions=discord.AllowedMentions.none()
    )


async def button_endturn(interaction: discord.Interaction, game_id: int) -> None:
    if await current_game(interaction, game_id) is None:
        return
    bot = client(interaction)
    result = await bot.service.end_turn(channel_id(interaction), interaction.user.id, bot_reply=False)
    await show_turn(bot, result, lang(interaction), interaction_sender(interaction))


async def button_resign(interaction: discord.Interaction, game_id: int) -> None:
    if await current_game(interaction, game_id) is None:
        return
    bot = client(interaction)
    result = await bot.service.resign(channel_id(interaction), interaction.user.id)
    await interaction.response.edit_message(content=t(lang(interaction), "resign.done"), view=None)
    await show_turn(bot, result, lang(interaction), interaction_sender(interaction))


async def button_acceptend(interaction: discord.Interaction, game_id: int) -> None:
    game = await current_game(interaction, game_id)
    if game is None:
        return
    if game.color_of(interaction.user.id) is None:
        raise Refusal("error.not_a_player")
    bot = client(interaction)
    result = await bot.service.accept_end(channel_id(interaction), interaction.user.id)
    await interaction.response.edit_message(view=end_offer_view(game_id, lang(interaction), disabled=True))
    await show_turn(bot, result, lang(interaction), interaction_sender(interaction))


async def button_rematch(interaction: discord.Interaction, game_id: int) -> None:
    bot = client(interaction)
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
        result = await bot.service.play_bot(
            guild, channel_id(interaction), player, opponent.bot_level, size, variant, color, bot_reply=False
        )
        await interaction.response.edit_message(view=disabled_copy(interaction.message))
        await show_turn(bot, result, lang(interaction), interaction_sender(interaction))
        return
    made = await bot.service.challenge(
        guild, channel_id(interaction), player, opponent, size, variant, color, thread=False
    )
    await interaction.response.edit_message(view=disabled_copy(interaction.message))
    reply = challenge_reply(made.challenge, lang(interaction), challenge_view(made.challenge.id, lang(interaction)))
    message = await interaction_sender(interaction)(reply)
    bot.challenge_messages[made.challenge.id] = message


# ------------------------------------------------------------------------ timers


async def announce_timer_event(bot: AnyBot, event: TimerEvent) -> None:
    """Post what the scheduler did in the game's channel."""
    locale: Any = None
    if event.kind == "challenge_expired" and event.challenge is not None:
        challenge = event.challenge
        message = bot.challenge_messages.pop(challenge.id, None)
        reply = challenge_reply(challenge, locale, challenge_view(challenge.id, locale, disabled=True))
        if message is not None:
            try:
                await message.edit(
                    content=reply.content, view=reply.view, allowed_mentions=discord.AllowedMentions.none()
                )
                return
            except discord.HTTPException:
                log.debug("could not edit expired challenge %s", challenge.id)
        await channel_sender(bot, challenge.channel_id, challenge.guild_id)(reply)
        return
    game = event.game or (event.turn.game if event.turn else None)
    if game is None:
        return
    send = channel_sender(bot, game.channel_id, game.guild_id)
    if event.kind == "reminder":
        text = t(
            locale,
            "timer.reminder",
            mention=f"<@{event.ping}>" if event.ping else "",
            remaining=f"<t:{int(game.deadline or 0)}:R>",
        )
        await send(Reply(content=text, ping=event.ping))
    elif event.turn is not None:
        await show_turn(bot, event.turn, locale, send)


# ------------------------------------------------------------------------ autocomplete


def _choices(cells: list[str], typed: str) -> list[Choice[str]]:
    typed = typed.strip().lower()
    return [Choice(name=c, value=c) for c in cells if c.startswith(typed)][:MAX_CHOICES]


async def _safe(coro: Awaitable[list[str]]) -> list[str]:
    """Autocomplete never raises: no game, not a player... simply means no suggestions."""
    try:
        return await coro
    except Exception as exc:  # suggestions are best effort; the command itself reports errors
        log.debug("autocomplete: %s", exc)
        return []


class PlayCog(commands.Cog):
    """The top-level game commands: ``/place``, ``/move``, ``/remove``."""

    def __init__(self, bot: AnyBot) -> None:
        self.bot = bot

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await answer_error(interaction, error)

    async def _play(self, interaction: discord.Interaction, call: Awaitable[TurnResult]) -> None:
        guild_id(interaction)
        result = await call
        await show_turn(self.bot, result, lang(interaction), interaction_sender(interaction))

    @app_commands.command(name="place", description=_("Place your pieces: one or two empty cells"))
    @app_commands.describe(first=_("A cell such as b2"), second=_("The second cell of the pair"))
    @app_commands.guild_only()
    async def place(self, interaction: discord.Interaction, first: Cell, second: Cell | None = None) -> None:
        await self._play(
            interaction,
            self.bot.service.place(channel_id(interaction), interaction.user.id, first, second, bot_reply=False),
        )

    @place.autocomplete("first")
    @place.autocomplete("second")
    async def place_cells(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        cells = await _safe(self.bot.service.legal_place_cells(channel_id(interaction), interaction.user.id))
        chosen = (getattr(interaction.namespace, "first", None) or "").strip().lower()
        return _choices([c for c in cells if c != chosen], current)

    @app_commands.command(name="move", description=_("Step one of your pieces to a neighbouring empty cell"))
    @app_commands.rename(frm="from")
    @app_commands.describe(frm=_("The piece to move (or the whole step, like b2 c2)"), to=_("Where it goes"))
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction, frm: MoveFrom, to: Cell | None = None) -> None:
        await self._play(
            interaction, self.bot.service.move(channel_id(interaction), interaction.user.id, frm, to, bot_reply=False)
        )

    @move.autocomplete("frm")
    async def move_from(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        cells = await _safe(self.bot.service.legal_from_cells(channel_id(interaction), interaction.user.id))
        return _choices(cells, current)

    @move.autocomplete("to")
    async def move_to(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        frm = (getattr(interaction.namespace, "from", None) or "").strip().lower()
        cells = await _safe(self.bot.service.legal_to_cells(channel_id(interaction), frm or None, interaction.user.id))
        return _choices(cells, current)

    @app_commands.command(name="remove", description=_("Remove a piece when a blocked-player rule asks for it"))
    @app_commands.describe(cell=_("The piece to remove"))
    @app_commands.guild_only()
    async def remove(self, interaction: discord.Interaction, cell: Cell) -> None:
        await self._play(
            interaction, self.bot.service.remove(channel_id(interaction), interaction.user.id, cell, bot_reply=False)
        )

    @remove.autocomplete("cell")
    async def remove_cells(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        cells = await _safe(self.bot.service.legal_remove_cells(channel_id(interaction), interaction.user.id))
        return _choices(cells, current)


def _cooldown_key(interaction: discord.Interaction) -> tuple[int | None, int]:
    return (interaction.guild_id, interaction.user.id)


class GameCommands(CogMixin):
    """``/seega`` subcommands that start, play and end games (mixed into :class:`SeegaCog`)."""

    bot: AnyBot

    @app_commands.command(name="challenge", description=_("Challenge someone to a game of Seega"))
    @app_commands.describe(
        opponent=_("Who you want to play"),
        size=_("Board size"),
        variant=_("Rules preset"),
        color=_("Your colour"),
        thread=_("Play in a new thread"),
    )
    @app_commands.choices(size=SIZE_CHOICES, variant=VARIANT_CHOICES, color=COLOR_CHOICES)  # type: ignore[misc]
    @app_commands.checks.cooldown(3, 60.0, key=_cooldown_key)
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.User,
        size: int = 5,
        variant: str | None = None,
        color: str = "random",
        thread: bool = False,
    ) -> None:
        locale = lang(interaction)
        if opponent.id == interaction.user.id:
            raise Refusal("error.self_challenge")
        if opponent.bot:
            raise Refusal("error.challenge_bot")
        made = await self.bot.service.challenge(
            guild_id(interaction),
            channel_id(interaction),
            as_player(interaction.user),
            as_player(opponent),
            size,
            variant,
            color,
            thread,
        )
        reply = challenge_reply(made.challenge, locale, challenge_view(made.challenge.id, locale))
        message = await interaction_sender(interaction)(reply)
        self.bot.challenge_messages[made.challenge.id] = message

    @app_commands.command(name="play-bot", description=_("Play a game against the bot"))
    @app_commands.describe(
        level=_("How strong the bot plays"), size=_("Board size"), variant=_("Rules preset"), color=_("Your colour")
    )
    @app_commands.choices(level=LEVEL_CHOICES, size=SIZE_CHOICES, variant=VARIANT_CHOICES, color=COLOR_CHOICES)  # type: ignore[misc]
    @app_commands.checks.cooldown(2, 30.0, key=_cooldown_key)
    async def play_bot(
        self,
        interaction: discord.Interaction,
        level: str = "medium",
        size: int = 5,
        variant: str | None = None,
        color: str = "random",
    ) -> None:
        result = await self.bot.service.play_bot(
            guild_id(interaction),
            channel_id(interaction),
            as_player(interaction.user),
            level,
            size,
            variant,
            color,
            bot_reply=False,
        )
        intro = t(lang(interaction), "game.started_bot", level=t(lang(interaction), f"level.{level}"))
        await show_turn(self.bot, result, lang(interaction), interaction_sender(interaction), intro=intro)

    @app_commands.command(name="end-turn", description=_("Stop a chain of captures"))
    async def end_turn(self, interaction: discord.Interaction) -> None:
        result = await self.bot.service.end_turn(channel_id(interaction), interaction.user.id, bot_reply=False)
        await show_turn(self.bot, result, lang(interaction), interaction_sender(interaction))

    @app_commands.command(name="board", description=_("Show the current board again"))
    async def board(self, interaction: discord.Interaction) -> None:
        result = await self.bot.service.board(channel_id(interaction))
        reply = turn_reply(result, lang(interaction), view=game_view(result, lang(interaction)))
        reply.ping = None  # looking is not a reason to notify the player to move
        message = await interaction_sender(interaction)(reply)
        remember_board(self.bot, channel_id(interaction), message)

    @app_commands.command(name="resign", description=_("Resign the game (asks to confirm)"))
    async def resign(self, interaction: discord.Interaction) -> None:
        game = await self.bot.service.game(channel_id(interaction))
        if game is None:
            raise Refusal("error.no_game")
        if game.color_of(interaction.user.id) is None:
            raise Refusal("error.not_a_player")
        await interaction.response.send_message(
            t(lang(interaction), "resign.confirm"), view=resign_view(game.id, lang(interaction)), ephemeral=True
        )

    @app_commands.command(name="offer-end", description=_("Propose to end the game by counting pieces"))
    async def offer_end(self, interaction: discord.Interaction) -> None:
        outcome = await self.bot.service.offer_end(channel_id(interaction), interaction.user.id)
        send = interaction_sender(interaction)
        if isinstance(outcome, OfferResult):
            await send(offer_reply(outcome, lang(interaction), end_offer_view(outcome.game.id, lang(interaction))))
        else:
            await show_turn(self.bot, outcome, lang(interaction), send)

    @app_commands.command(name="language", description=_("The language the bot answers you in"))
    @app_commands.describe(language=_("auto follows your Discord language"))
    @app_commands.choices(
        language=[
            Choice(name=_("auto (Discord's language)"), value="auto"),
            Choice(name="English", value="en"),
            Choice(name="العربية", value="ar"),
        ]
    )
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        chosen = None if language == "auto" else language
        await self.bot.set_language_of(interaction.user.id, chosen)
        interaction.extras["lang"] = chosen or language_of_client(interaction)
        await interaction.response.send_message(t(lang(interaction), "language.set"), ephemeral=True)


@app_commands.guild_only()  # games live in server channels
class SeegaCog(
    GameCommands,
    StatsCommands,
    AdminCommands,
    CoachCommands,
    commands.GroupCog,
    group_name="seega",
    group_description=_("Play Seega, the Egyptian board game"),
):
    """The ``/seega`` group."""

    def __init__(self, bot: AnyBot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await answer_error(interaction, error)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PlayCog(bot))  # type: ignore[arg-type]
    await bot.add_cog(SeegaCog(bot))  # type: ignore[arg-type]
