"""``/seega hint``, ``review``, ``puzzle``, ``solve`` and ``learn``: the coach.

A mixin of the ``/seega`` group cog (one Discord group, one file per feature). The work
is the service's (``bot.service.coach``); this file only reads options, shows progress,
and sends text and pictures. Hints, answers and lessons are private (ephemeral); a
review and a puzzle are posted for the channel. ``/seega solve`` answers whichever of the
puzzle and the lesson was shown last (docs/commands.md); the hint limit is one of
``/seega settings`` (``bot.cogs.admin``).
"""

from __future__ import annotations

import io
import logging
import time
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.coach_messages import (
    hint_text,
    lesson_text,
    puzzle_leaders_text,
    puzzle_text,
    review_parts,
    solve_text,
    wording,
)
from bot.cooldowns import per_person
from bot.flows import name_of
from bot.host import SeegaHost
from bot.i18n import lang, t
from bot.messages import COLOURS
from bot.privacy import asked_game
from bot.service.coach_results import PuzzleAnswer
from bot.tree import Refusal

if TYPE_CHECKING:
    CogMixin = commands.Cog  # lets the type checker see these mixins as parts of a cog
else:
    CogMixin = object

log = logging.getLogger(__name__)

#: Seconds between two progress edits of a review message (Discord rate-limits edits).
PROGRESS_EVERY = 1.5
MAX_ANSWER = 100


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


def _files(*named: tuple[str, bytes | None]) -> list[discord.File]:
    return [discord.File(io.BytesIO(data), filename=name) for name, data in named if data is not None]


class CoachCommands(CogMixin):
    """The coach's commands, over ``self.bot.service.coach``."""

    bot: SeegaHost

    @app_commands.command(name="hint", description=_("The bot's suggestion for your turn (practice games only)"))
    @per_person("hint")
    async def hint(self, interaction: discord.Interaction) -> None:
        locale = lang(interaction)
        assert interaction.channel_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        hints = self.bot.service.coach.hints
        result = await hints.hint(
            _guild(interaction), interaction.channel_id, interaction.user.id, wording(locale), lang=locale
        )
        await interaction.edit_original_response(
            content=hint_text(result, locale), attachments=_files(("hint.png", result.image))
        )

    @app_commands.command(name="review", description=_("The engine's review of a finished game"))
    @per_person("review")
    @app_commands.describe(game=_("Game number (default: this channel's last game)"))
    async def review(self, interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None) -> None:
        locale = lang(interaction)
        guild = _guild(interaction)
        assert interaction.channel_id is not None
        # Refused before the public "thinking…": the refusal is then the only thing shown, privately.
        # First: a refusal about the game itself would tell of a hidden one; a game of a
        # channel not everyone reads goes to the asker alone (bot/privacy.py).
        private = game is not None and await asked_game(self.bot, interaction, guild, game)
        await self.bot.service.coach.reviews.check(guild, interaction.channel_id, game)
        await interaction.response.defer(thinking=True, ephemeral=private)
        last = [0.0]

        async def progress(done: int, total: int) -> None:
            now = time.monotonic()
            if now - last[0] < PROGRESS_EVERY and done < total:
                return
            last[0] = now
            await interaction.edit_original_response(content=t(locale, "coach.review.progress", done=done, total=total))

        result = await self.bot.service.coach.reviews.review(
            guild,
            interaction.channel_id,
            game,
            progress=progress,
            wording=wording(locale),
            user_id=interaction.user.id,
            lang=locale,
        )
        files = _files(("review.png", result.chart), *((f"moment-{m.number}.png", m.image) for m in result.moments))
        content, moments = review_parts(result, locale)
        embed = discord.Embed(description=moments, colour=COLOURS["info"]) if moments else None
        await interaction.edit_original_response(content=content, embed=embed, attachments=files)

    @app_commands.command(
        name="puzzle", description=_("The puzzle of the day, or another one; answer with /seega solve")
    )
    @per_person("puzzle")
    @app_commands.describe(
        new=_("Show another puzzle instead of today's"),
        top=_("Show the server's best puzzle solvers instead"),
    )
    async def puzzle(self, interaction: discord.Interaction, new: bool = False, top: bool = False) -> None:
        locale = lang(interaction)
        guild = _guild(interaction)
        user = interaction.user
        coach = self.bot.service.coach
        if new and top:
            raise Refusal("service.puzzle_new_and_top")
        if top:
            leaders = await coach.puzzles.leaderboard(guild)
            await interaction.response.send_message(puzzle_leaders_text(leaders, locale))
            return
        await interaction.response.defer(thinking=True)
        view = await coach.puzzles.show(guild, user.id, name_of(user), new=new, lang=locale)
        await interaction.edit_original_response(
            content=puzzle_text(view, locale), attachments=_files(("puzzle.png", view.image))
        )

    @app_commands.command(name="solve", description=_("Your answer to the puzzle or the lesson's exercise shown last"))
    @per_person("solve")
    @app_commands.describe(answer=_("The cells of your turn, like b2 c2 (a chain: b2 c2 c3)"))
    async def solve(self, interaction: discord.Interaction, answer: str) -> None:
        locale = lang(interaction)
        guild = _guild(interaction)
        user = interaction.user
        await interaction.response.defer(ephemeral=True, thinking=True)
        got = await self.bot.service.coach.solve(
            guild, user.id, name_of(user), answer[:MAX_ANSWER], interaction.channel_id, lang=locale
        )
        image = got.image if isinstance(got, PuzzleAnswer) else None
        await interaction.edit_original_response(
            content=solve_text(got, locale), attachments=_files(("solution.png", image))
        )

    @app_commands.command(name="learn", description=_("Learn Seega in eight short lessons"))
    @per_person("learn")
    @app_commands.describe(lesson=_("Lesson number (default: your next one)"))
    async def learn(
        self, interaction: discord.Interaction, lesson: app_commands.Range[int, 1, 8] | None = None
    ) -> None:
        locale = lang(interaction)
        user = interaction.user.id
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.bot.service.show_lesson(
            user, lesson, interaction.channel_id, guild_id=interaction.guild_id, lang=locale
        )
        await interaction.edit_original_response(
            content=lesson_text(view, locale), attachments=_files(("lesson.png", view.image))
        )
