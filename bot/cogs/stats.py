"""``/seega`` subcommands that look things up: leaderboard, stats, history, record, rules.

A mixin of :class:`bot.cogs.game.SeegaCog` (one Discord group, several feature files).
"""

from __future__ import annotations

import io
import logging
from functools import partial
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import wording
from bot.cooldowns import per_person
from bot.flows import name_of
from bot.host import SeegaHost
from bot.i18n import lang, t
from bot.i18n import language as locale_language
from bot.messages import games_text, history_embed, leaderboard_embed, player_name, rules_embed, stats_embed
from bot.privacy import asked_game, listed, readable
from bot.service import catalog
from bot.texts import CONTENT_LIMIT

if TYPE_CHECKING:
    CogMixin = commands.Cog  # lets the type checker see these mixins as parts of a cog
else:
    CogMixin = object

log = logging.getLogger(__name__)

_SIZES = [Choice(name=f"{n}x{n}", value=n) for n in catalog.SIZES]
#: Characters of a move list in one message (Discord allows 2,000 with the title and fences).
MOVES_ROOM = 1700
_VARIANTS = [Choice(name=name, value=name) for name in catalog.VARIANTS]


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


class StatsCommands(CogMixin):
    """Read-only commands: anybody may use them."""

    bot: SeegaHost

    @app_commands.command(name="leaderboard", description=_("The server's best players by rating"))
    @app_commands.describe(size=_("Board size"))
    @app_commands.choices(size=_SIZES)
    async def leaderboard(self, interaction: discord.Interaction, size: int | None = None) -> None:
        if size is None:  # 5x5, unless only other sizes have rated games (play-test)
            size = await self.bot.service.leaderboard_size(_guild(interaction))
        entries = await self.bot.service.leaderboard(_guild(interaction), size)
        await interaction.response.send_message(embed=leaderboard_embed(entries, size, lang(interaction)))

    @app_commands.command(name="stats", description=_("A player's rating and record"))
    @per_person("stats")
    @app_commands.describe(user=_("Whose stats (you by default)"))
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        who = user or interaction.user
        guild, locale = _guild(interaction), lang(interaction)
        await interaction.response.defer(thinking=True)  # the rating chart takes a moment to draw
        stats = await self.bot.service.stats(guild, who.id, name=name_of(who))
        embed = stats_embed(stats, locale)
        hinted = await self.bot.service.storage.games_with_hints(guild, who.id)
        if hinted:
            embed.add_field(
                name=t(locale, "coach.stats.hints_title"), value=t(locale, "coach.stats.hints", count=hinted)
            )
        chart = await self.bot.service.coach.rating_chart(guild, who.id, name_of(who), partial(t, locale), lang=locale)
        files = [discord.File(io.BytesIO(chart), filename="rating-history.png")] if chart else []
        if chart:
            embed.set_image(url="attachment://rating-history.png")
        await interaction.edit_original_response(embed=embed, attachments=files)

    @app_commands.command(name="history", description=_("Recent games and their results"))
    @app_commands.describe(user=_("Only this player's games"))
    async def history(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        games = await self.bot.service.history(_guild(interaction), user.id if user else None)
        # Public, unless it lists a game the asker alone may read (bot/privacy.py).
        games, private = await readable(interaction, games)
        name = name_of(user) if user else None
        await interaction.response.send_message(embed=history_embed(games, name, lang(interaction)), ephemeral=private)

    @app_commands.command(name="record", description=_("The game record (SGN) and an animated replay"))
    @per_person("record")
    @app_commands.describe(game=_("Game number (default: this channel's last game)"))
    async def record(self, interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None) -> None:
        guild = _guild(interaction)
        # Refused before the public "thinking…": the refusal is then the only thing shown, privately.
        # First: a refusal about the game itself would tell of a hidden one; a game of a
        # channel not everyone reads goes to the asker alone (bot/privacy.py).
        private = game is not None and await asked_game(self.bot, interaction, guild, game)
        await self.bot.service.check_record(guild, game, interaction.channel_id)
        await interaction.response.defer(thinking=True, ephemeral=private)  # the replay may take a moment
        rec = await self.bot.service.record(guild, game, interaction.channel_id, user_id=interaction.user.id)
        files = [discord.File(io.BytesIO(rec.sgn.encode()), filename=rec.filename)]
        if rec.replay is not None and rec.replay_filename:
            files.append(discord.File(io.BytesIO(rec.replay), filename=rec.replay_filename))
        locale = lang(interaction)
        shown = await self.bot.service.get_game(rec.game_id, guild) if game is None else None
        if shown is None:
            text = t(locale, "record.done", id=rec.game_id)
        else:  # the channel's last game played: say which one it is
            black, white = player_name(shown.black, locale), player_name(shown.white, locale)
            text = t(locale, "record.done_last", id=rec.game_id, black=black, white=white)
        await interaction.followup.send(text, files=files, ephemeral=private)

    @app_commands.command(name="moves", description=_("The moves of this channel's game, one line per turn"))
    async def moves(self, interaction: discord.Interaction) -> None:
        game, lines = await self.bot.service.moves(interaction.channel_id or 0)
        locale = lang(interaction)
        head = t(locale, "explain.moves.title", id=game.id)
        ending = f"\n{wording.ending_text(game, locale_language(locale))}" if game.status != "active" else ""
        # the ending names both players (escaped names can be long): the turns get the rest
        frame = len(f"**{head}**\n{t(locale, 'explain.moves.cut', count=len(lines))}\n```\n\n```{ending}")
        room = min(MOVES_ROOM, CONTENT_LIMIT - frame)
        body = lines[:]
        cut = 0
        while body and sum(len(x) + 1 for x in body) > room:  # the newest turns matter most
            body.pop(0)
            cut += 1
        text = "\n".join(body) if body else t(locale, "explain.moves.none")
        note = f"\n{t(locale, 'explain.moves.cut', count=cut)}" if cut else ""
        await interaction.response.send_message(f"**{head}**{note}\n```\n{text}\n```{ending}")

    @app_commands.command(name="games", description=_("The games being played in this server, to watch"))
    async def games(self, interaction: discord.Interaction) -> None:
        locale = lang(interaction)
        found = await self.bot.service.games_in_progress(_guild(interaction))
        found = await listed(interaction, found)  # a public answer: bot/privacy.py
        if not found:
            await interaction.response.send_message(t(locale, "explain.games.none"), ephemeral=True)
            return
        await interaction.response.send_message(games_text(found, locale))

    @app_commands.command(name="rules", description=_("The rules of a preset, short and clear"))
    @app_commands.describe(variant=_("Rules preset"))
    @app_commands.choices(variant=_VARIANTS)
    async def rules(self, interaction: discord.Interaction, variant: str | None = None) -> None:
        if variant is None:  # the server's default variant (a game naming none is played with it)
            guild = interaction.guild_id
            default = (await self.bot.service.get_settings(guild)).default_variant if guild else None
            variant = default or catalog.DEFAULT_VARIANT
        await interaction.response.send_message(embed=rules_embed(variant, lang(interaction)), ephemeral=True)
