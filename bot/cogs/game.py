"""Playing: ``/place``, ``/move``, ``/remove`` and the ``/seega`` group.

Every command is thin: parse (transformers) -> service -> :mod:`bot.flows` posts the
result. The human's turn is answered at once (the service renders off the event loop);
when the bot is to play next, its turn runs in the background under the guild's AI cap
and appears as a followup, so nobody waits on the AI to see their own move.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import wording
from bot.coach_messages import lesson_answer_text
from bot.cogs.admin import AdminCommands
from bot.cogs.coach import MAX_ANSWER, CoachCommands
from bot.cogs.stats import StatsCommands
from bot.cooldowns import per_person, refund, spend
from bot.flows import (
    accept_crossing,
    as_player,
    challenge_buttons,
    challenge_language,
    channel_id,
    check_thread_rights,
    guild_id,
    remember_challenge_message,
    show_turn,
    turn_language,
)
from bot.host import SeegaHost
from bot.i18n import lang, t
from bot.i18n import language as language_of_locale
from bot.messages import challenge_reply, past_edit, player_name, turn_reply
from bot.results import ServiceError, TurnResult
from bot.senders import in_time, interaction_sender, remember_board
from bot.service import catalog
from bot.transformers import Cell, MoveFrom, PlaceFirst
from bot.tree import Refusal, answer_error
from bot.views import draw_confirm_view, end_confirm_view, game_view, resign_view

if TYPE_CHECKING:
    CogMixin = commands.Cog  # lets the type checker see these mixins as parts of a cog
else:
    CogMixin = object

log = logging.getLogger(__name__)

SIZE_CHOICES = [Choice(name=_(f"{n}x{n} ({catalog.SIZE_NAMES[n]})"), value=n) for n in catalog.SIZES]
#: The presets the bot offers (see :mod:`bot.service.catalog`).
VARIANT_CHOICES = [Choice(name=name, value=name) for name in catalog.VARIANTS]
COLOR_CHOICES = [Choice(name=_(color), value=color) for color in catalog.COLORS]
LEVEL_CHOICES = [Choice(name=_(level), value=level) for level in catalog.LEVELS]
MAX_CHOICES = 25


def language_of_client(interaction: discord.Interaction) -> str:
    return language_of_locale(interaction.locale)


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

    def __init__(self, bot: SeegaHost) -> None:
        self.bot = bot

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await answer_error(interaction, error)

    async def _play(self, interaction: discord.Interaction, call: Awaitable[TurnResult]) -> None:
        guild_id(interaction)
        result = await in_time(interaction, call)
        await show_turn(self.bot, result, interaction.guild_locale, interaction_sender(interaction))

    async def _lesson(self, interaction: discord.Interaction, text: str) -> bool:
        """Answer the user's open lesson exercise here, privately (``False``: a game move)."""
        got = await self.bot.service.lesson_try(
            channel_id(interaction),
            interaction.user.id,
            text.strip()[:MAX_ANSWER],
            admit=lambda: spend("solve", interaction),
        )
        if got is None:
            return False
        await interaction.response.send_message(lesson_answer_text(got, lang(interaction)), ephemeral=True)
        return True

    @app_commands.command(name="place", description=_("Place your pieces: one or two empty cells"))
    @app_commands.describe(first=_("A cell such as b2 (or both, like b2 d4)"), second=_("The second cell of the pair"))
    @app_commands.guild_only()
    async def place(self, interaction: discord.Interaction, first: PlaceFirst, second: Cell | None = None) -> None:
        if await self._lesson(interaction, f"{first} {second or ''}"):
            return
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
        if await self._lesson(interaction, f"{frm} {to or ''}"):
            return
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


class GameCommands(CogMixin):
    """``/seega`` subcommands that start, play and end games (mixed into :class:`SeegaCog`)."""

    bot: SeegaHost

    @app_commands.command(name="challenge", description=_("Challenge someone to a game of Seega"))
    @app_commands.describe(
        opponent=_("Who you want to play"),
        size=_("Board size"),
        variant=_("Rules preset"),
        color=_("Your colour"),
        thread=_("Play in a new thread"),
    )
    @app_commands.choices(size=SIZE_CHOICES, variant=VARIANT_CHOICES, color=COLOR_CHOICES)  # type: ignore[misc]
    @per_person("challenge")
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.User,
        size: int = catalog.DEFAULT_SIZE,
        variant: str | None = None,
        color: str = catalog.DEFAULT_COLOR,
        thread: bool = False,
    ) -> None:
        try:
            if opponent.id == interaction.user.id:
                raise Refusal("error.self_challenge")
            if opponent.bot:
                raise Refusal("error.challenge_bot")
            if not isinstance(opponent, discord.Member):
                # A user id typed into the option resolves to a user with no member: a public
                # challenge nobody could ever accept (outside review atk41c, F9).
                raise Refusal("error.not_a_member", name=as_player(opponent).name)
            if thread:
                check_thread_rights(interaction)
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
        except (Refusal, ServiceError):
            refund("challenge", interaction)  # refused, it pinged nobody: it does not count
            raise
        if made.crossing:  # the opponent's challenge to this person is pending here: accept it
            await accept_crossing(interaction, made.challenge)
            return
        # It asks the opponent: their language, buttons too (not the challenger's: play-test).
        locale = await challenge_language(self.bot, made.challenge, interaction.guild_locale)
        view = await challenge_buttons(self.bot, made.challenge, locale, interaction.guild_locale)
        reply = challenge_reply(made.challenge, locale, view)
        message = await interaction_sender(interaction)(reply)
        await remember_challenge_message(self.bot, made.challenge, message, interaction.guild_locale)

    @app_commands.command(name="play-bot", description=_("Play a game against the bot"))
    @app_commands.describe(
        level=_("How strong the bot plays"), size=_("Board size"), variant=_("Rules preset"), color=_("Your colour")
    )
    @app_commands.choices(level=LEVEL_CHOICES, size=SIZE_CHOICES, variant=VARIANT_CHOICES, color=COLOR_CHOICES)  # type: ignore[misc]
    @per_person("play-bot")
    async def play_bot(
        self,
        interaction: discord.Interaction,
        level: str = catalog.DEFAULT_LEVEL,
        size: int = catalog.DEFAULT_SIZE,
        variant: str | None = None,
        color: str = catalog.DEFAULT_COLOR,
    ) -> None:
        result = await in_time(
            interaction,
            self.bot.service.play_bot(
                guild_id(interaction),
                channel_id(interaction),
                as_player(interaction.user),
                level,
                size,
                variant,
                color,
                bot_reply=False,
            ),
        )
        level = catalog.check_level(level)  # accepted above, so known: "Easy" is shown as easy

        def intro(locale: str) -> str:
            started = t(locale, "game.started_bot", level=t(locale, f"level.{level}"))
            differs = wording.differences_text(result.game.variant, locale, result.game.size)
            return f"{started}\n{differs}" if differs else started

        await show_turn(self.bot, result, interaction.guild_locale, interaction_sender(interaction), intro=intro)

    @app_commands.command(
        name="end-turn",
        description=_("Stop a chain of captures, or pass (a pass that is your only move is played for you)"),
    )
    async def end_turn(self, interaction: discord.Interaction) -> None:
        # Inside a lesson's exercise (lesson 5 teaches it), end-turn stops the lesson's
        # chain, as /move plays it, and is judged privately: it went to the channel's game.
        got = await self.bot.service.lesson_try(
            channel_id(interaction), interaction.user.id, "end", admit=lambda: spend("solve", interaction)
        )
        if got is not None:
            await interaction.response.send_message(lesson_answer_text(got, lang(interaction)), ephemeral=True)
            return
        result = await in_time(
            interaction, self.bot.service.end_turn(channel_id(interaction), interaction.user.id, bot_reply=False)
        )
        await show_turn(self.bot, result, interaction.guild_locale, interaction_sender(interaction))

    @app_commands.command(
        name="takeback", description=_("Take back your last turn against the bot (games between people: no)")
    )
    @per_person("takeback")
    async def takeback(self, interaction: discord.Interaction) -> None:
        result = await in_time(interaction, self.bot.service.takeback(channel_id(interaction), interaction.user.id))
        await show_turn(
            self.bot,
            result,
            interaction.guild_locale,
            interaction_sender(interaction),
            intro=lambda locale: t(locale, "explain.takeback.done"),
        )

    @app_commands.command(name="board", description=_("Show the current board again"))
    @per_person("board")
    async def board(self, interaction: discord.Interaction) -> None:
        result = await self.bot.service.board(channel_id(interaction), interaction.user.id)
        # Public, and it tells the player to move to play: in their language, whoever
        # looks, as every board of the game (its picture is drawn so).
        locale = await turn_language(self.bot, result, interaction.guild_locale)
        reply = turn_reply(result, locale, view=game_view(result, locale))
        reply.ping = None  # looking is not a reason to notify the player to move
        message = await interaction_sender(interaction)(reply)
        remember_board(self.bot, channel_id(interaction), message, past_edit(result, locale))

    @app_commands.command(name="resign", description=_("Resign the game (asks to confirm)"))
    async def resign(self, interaction: discord.Interaction) -> None:
        game = await self.bot.service.game(channel_id(interaction))
        if game is None:
            raise Refusal("error.no_game")
        if game.color_of(interaction.user.id) is None:
            raise Refusal("error.not_a_player")
        question = await self.bot.service.ask_resign(channel_id(interaction), interaction.user.id)
        locale = lang(interaction)
        ahead = wording.resign_ahead(game, game.color_of(interaction.user.id), locale)
        asked = t(locale, "resign.confirm") + (f" {ahead}" if ahead else "")
        await interaction.response.send_message(asked, view=resign_view(question.id, locale), ephemeral=True)

    @app_commands.command(
        name="offer-end", description=_("Propose ending now by count: more pieces on the board wins, equal is a draw")
    )
    async def offer_end(self, interaction: discord.Interaction) -> None:
        """Say privately what ending by count means and would give now, with the button
        that sends the offer (a refusal, such as during placement, comes at once)."""
        game, result = await self.bot.service.end_preview(channel_id(interaction), interaction.user.id)
        locale = lang(interaction)
        text = wording.end_offer_explained(game, result, interaction.user.id, language_of_locale(locale))
        await interaction.response.send_message(text, view=end_confirm_view(game.id, locale), ephemeral=True)

    @app_commands.command(
        name="draw", description=_("Offer a draw (asks to confirm; the opponent accepts or declines)")
    )
    async def draw(self, interaction: discord.Interaction) -> None:
        """Explain what a draw offer means (privately), with the button that sends it."""
        game = await self.bot.service.draw_preview(channel_id(interaction), interaction.user.id)
        locale = lang(interaction)
        opponent = game.white if game.color_of(interaction.user.id) == "black" else game.black
        key = "draw.explain.bot" if opponent.is_bot else "draw.explain.people"
        await interaction.response.send_message(
            t(locale, key, opponent=player_name(opponent, locale)),
            view=draw_confirm_view(game.id, locale),
            ephemeral=True,
        )

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

    def __init__(self, bot: SeegaHost) -> None:
        self.bot = bot
        super().__init__()

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await answer_error(interaction, error)


async def setup(bot: commands.Bot) -> None:
    host: SeegaHost = bot  # type: ignore[assignment]
    await bot.add_cog(PlayCog(host))
    await bot.add_cog(SeegaCog(host))
