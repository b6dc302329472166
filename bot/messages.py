"""Turning service results into Discord messages: content, embed, image and mentions.

Every function here is pure (results in, :class:`Reply` out), so the wording and the
mention rules are decided in one place: a message pings at most the one human whose turn
it is (``allowed_mentions``), never the bot's opponent twice, never ``@everyone``.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import discord

from bot import wording
from bot.i18n import language, t
from bot.results import (
    ChallengeView,
    GameOver,
    GameSummary,
    GameView,
    GuildSettings,
    LeaderboardEntry,
    OfferResult,
    Player,
    PlayerStats,
    TurnEvent,
    TurnResult,
    score_words,
    variant_words,
)
from bot.texts import CONTENT_LIMIT, DESCRIPTION_LIMIT, fit_lines, plain_name, separator

Locale = discord.Locale | str | None

BLACK_STONE = "⚫"
WHITE_STONE = "⚪"
COLOURS = {"black": 0x2B2D31, "white": 0xE8E2D0, "over": 0xC9A227, "info": 0xD9B26F, "cancel": 0x888888}


@dataclass
class Reply:
    """What to send: the keyword arguments of ``send_message``/``followup.send``/``edit``.

    Files are kept as bytes so one reply can be sent twice (a retry) without an exhausted
    file object.
    """

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    view: discord.ui.View | None = None
    ping: int | None = None
    ephemeral: bool = False
    #: Others notified besides ``ping`` (both players, in the first message of a game's thread).
    also_ping: tuple[int, ...] = ()

    def allowed_mentions(self) -> discord.AllowedMentions:
        """Only the human to play is notified; everything else is plain text."""
        users = list(dict.fromkeys(u for u in (self.ping, *self.also_ping) if u))
        if users:
            return discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(u) for u in users])
        return discord.AllowedMentions.none()

    def discord_files(self) -> list[discord.File]:
        return [discord.File(io.BytesIO(data), filename=name) for name, data in self.files]

    def send_kwargs(self) -> dict[str, Any]:
        """For ``InteractionResponse.send_message``, ``Webhook.send`` and ``Messageable.send``."""
        kwargs: dict[str, Any] = {"allowed_mentions": self.allowed_mentions()}
        if self.content:
            kwargs["content"] = self.content
        if self.embeds:
            kwargs["embeds"] = self.embeds
        if self.files:
            kwargs["files"] = self.discord_files()
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        """For ``edit_message``/``edit_original_response``: replaces content, embeds and files."""
        kwargs: dict[str, Any] = {
            "content": self.content,
            "embeds": self.embeds,
            "allowed_mentions": self.allowed_mentions(),
            "view": self.view,
        }
        kwargs["attachments"] = self.discord_files()
        return kwargs


def stone(color: str) -> str:
    return BLACK_STONE if color == "black" else WHITE_STONE


def player_name(player: Player, locale: Locale) -> str:
    return wording.player_name(player, language(locale))


def mention(player: Player, locale: Locale) -> str:
    """A mention for a human (rendered as a name by clients; pings only if allowed)."""
    return player_name(player, locale) if player.is_bot else f"<@{player.user_id}>"


def event_line(event: TurnEvent, locale: Locale) -> str:
    """One line saying what an event did: placements, steps, captures, removals."""
    lang = language(locale)
    who = f"{wording.turn_number(event, lang)} · {stone(event.color)} {player_name(event.player, locale)}"
    return wording.event_line(who, event, lang, wording.bold)


def merge_events(events: Sequence[TurnEvent]) -> list[TurnEvent]:
    """Consecutive events of one player as one (a bot's pair of placements, its chain).

    The service reports a bot turn action by action; one line per player and turn reads
    better, and still lists every step of a chain in order.
    """
    merged: list[TurnEvent] = []
    for event in events:
        last = merged[-1] if merged else None
        if last is not None and last.player == event.player and not last.turn_complete:
            a, b = last.summary, event.summary
            summary = replace(
                a,
                actions=a.actions + b.actions,
                placed=a.placed + b.placed,
                steps=a.steps + b.steps,
                captured=a.captured + b.captured,
                removed=a.removed + b.removed,
                took=a.took + b.took,
            )
            merged[-1] = replace(
                event,
                actions=last.actions + event.actions,
                summary=summary,
                placed=last.placed + event.placed,
                captured=last.captured + event.captured,
                removed=last.removed + event.removed,
                replaced=last.replaced + event.replaced,
                aside=event.aside or last.aside,
            )
        else:
            merged.append(event)
    return merged


def status_line(result: TurnResult, locale: Locale) -> str:
    """Whose turn it is now, or that the game is over."""
    game = result.game
    if result.game_over is not None or result.to_move is None:
        return ""
    color = "black" if result.to_move == game.black else "white"
    if result.to_move.is_bot:
        return t(locale, "turn.bot_thinking", bot=player_name(result.to_move, locale))
    key = "turn.your_chain" if result.chain_pending else "turn.your_turn"
    why = wording.task_text(game, language(locale))
    if why:
        key = {"r": "turn.your_removal", "s": "turn.your_replacement"}.get(game.phase, "turn.your_turn_why")
    elif why := wording.placing_help(game, result.legal, language(locale)):
        key = "turn.your_turn_why"
    line = t(locale, key, mention=mention(result.to_move, locale), stone=stone(color), why=why)
    if game.deadline is not None:
        # A Discord timestamp counts down live in every client, in the reader's own locale.
        line += " " + t(locale, "explain.clock", when=f"<t:{int(game.deadline)}:R>")
    return line


def game_over_text(over: GameOver, locale: Locale, game: GameView | None = None) -> str:
    """The end in a sentence for the channel: it names both players, against the bot too
    ("every piece of Alice was captured", as the picture says): a public message is read
    by others than the person (play-test: "every one of your pieces was captured").
    "You" is for text addressed to one player (the console)."""
    return wording.game_over_text(over, language(locale), game)


def _footer(game: GameView, locale: Locale) -> str:
    """``"Game #1 · turn 14 to play · standard 5x5"``: the turn counter (RULES.md: 1 +
    turns completed) is the turn to play, said so beside the lines above it that tell the
    turns just played ("Turn 13 · ⚪ Bob: ..."); a bare "turn 14" under them read as
    another count (play-test). A finished game counts the turns played, as its picture
    does ("0-1 after 13 turns"), not a turn nobody will play."""
    variant = t(locale, "game.variant", variant=variant_words(game.variant), size=game.size)
    if game.status == "active":
        return t(locale, "game.footer", id=game.id, turn=game.turn, variant=variant)
    return t(locale, "game.footer_over", id=game.id, count=game.turn - 1, variant=variant)


def _pieces_field(game: GameView, color: str, locale: Locale) -> tuple[str, str]:
    index = 0 if color == "black" else 1
    player = game.player(color)
    name = f"{stone(color)} {player_name(player, locale)}"
    if any(game.hand):
        value = t(locale, "game.pieces", board=game.pieces[index], hand=game.hand[index])
    else:  # nobody has a piece to place: no "0 in hand" all through the moves (play-test)
        value = t(locale, "game.pieces_board", board=game.pieces[index])
    return name, value


def thread_name(challenge: ChallengeView, locale: Locale, game: GameView | None = None) -> str:
    """The name of a challenge's thread, as the game is titled: Black vs White (play-test:
    thread "Carol vs Bob", game "Bob vs Carol"). Before the game, the colours chosen say
    the order; colours drawn at random are known only once accepted (``game``).

    A channel's name shows no markdown: the names are as written (:func:`plain_name`),
    not message-safe ("snake\\_case" showed its backslash: outside review, stop 40)."""
    if game is not None:
        black, white = game.black.name, game.white.name
    elif challenge.color == "white":
        black, white = challenge.opponent.name, challenge.challenger.name
    else:
        black, white = challenge.challenger.name, challenge.opponent.name
    return t(locale, "thread.name", a=plain_name(black), b=plain_name(white))[:100]


def board_embed(
    game: GameView, locale: Locale, *, title: str, lines: Sequence[str], image: str | None
) -> discord.Embed:
    """The embed around a board image: what happened, the players and their pieces."""
    over = game.status != "active"
    colour = COLOURS["over"] if over else COLOURS["black" if game.to_move == game.black else "white"]
    embed = discord.Embed(title=title, description="\n".join(lines) or None, colour=colour)
    for color in ("black", "white"):
        name, value = _pieces_field(game, color, locale)
        embed.add_field(name=name, value=value, inline=True)
    if image is not None:
        embed.set_image(url=f"attachment://{image}")
    elif game.text_board:
        # Without the picture its ⛔ marks are gone: the steps the shuttle limit forbids
        # are said under the board, as at the console.
        held = game.shuttle_held
        said = t(locale, "picture.shuttle_held", steps=separator(language(locale)).join(held)) if held else ""
        value = f"```\n{game.text_board}\n```" + (f"\n{said}" if said else "")
        embed.add_field(name=t(locale, "game.board"), value=value, inline=False)
    embed.set_footer(text=_footer(game, locale))
    return embed


def _with_stone(turn: str, lang: str = "en") -> str:
    """``"24. w d1 b4"`` -> ``"24. ⚪ d1 b4"``: the record's side letter, which newcomers
    did not read (Discord play-test), as the stone the rest of the message shows. The parts
    are spaced as ``lang`` spaces them (:func:`bot.texts.separator`): in Arabic with a
    right-to-left mark, so the number and the cells read in the line's order."""
    number, _, rest = turn.partition(" ")
    side, _, actions = rest.partition(" ")
    parts = (
        [number, stone("black" if side == "b" else "white"), *actions.split()] if side in ("b", "w") else turn.split()
    )
    return separator(lang, "word").join(parts)


def recent_text(turns: Sequence[str], locale: Locale) -> str:
    """The "Last turns" line: ``"Last turns: 2. ⚪ e4 e1 · 3. ⚫ e3 b5"``, marked for the
    reader's direction (outside play-test: the Arabic line scrambled its numbers and cells)."""
    lang = language(locale)
    return t(locale, "explain.recent", turns=separator(lang, "dot").join(_with_stone(turn, lang) for turn in turns))


def turn_reply(
    result: TurnResult, locale: Locale, *, view: discord.ui.View | None = None, intro: str = "", past: bool = False
) -> Reply:
    """The message after a command that changed (or showed) a game.

    ``past``: as it reads once a newer board supersedes it, without whose turn it is nor
    the invitation to capture again (see :func:`past_edit`).
    """
    game = result.game
    lines = [event_line(e, locale) for e in merge_events(result.events)]
    advice = wording.walled_advice(result, language(locale))
    if advice and not past:
        lines.append(advice)
    if result.chain_pending and result.to_move is not None and not past:
        lines.append(wording.chain_prompt(result.legal, language(locale), "turn.chain_hint"))
    news = wording.movement_begins(result, language(locale))
    if news:
        lines.append(f"▶ {news}")
    if game.recent:
        lines.append(recent_text(game.recent, locale))
    over = result.game_over
    if over is not None:
        lines.append(f"🏁 **{game_over_text(over, locale, game)}**")
        for change in over.rating_changes:
            lines.append(
                t(
                    locale,
                    "over.rating",
                    name=change.name,
                    before=round(change.before),
                    after=round(change.after),
                    delta=f"{change.delta:+.0f}",
                )
            )
        if not over.rated and over.result != "*" and not (game.black.is_bot or game.white.is_bot):
            lines.append(t(locale, "over.unrated"))
    title = t(
        locale,
        "game.title",
        black=player_name(game.black, locale),
        white=player_name(game.white, locale),
    )
    png = result.png or next((e.png for e in reversed(result.events) if e.png is not None), None)
    image = f"seega-{game.id}-{game.turn}.png" if png else None
    embed = board_embed(game, locale, title=title, lines=lines, image=image)
    status = "" if past else status_line(result, locale)
    content = "\n".join(x for x in (intro, status) if x) or None
    reply = Reply(content=content, embeds=[embed], view=view, ping=result.ping)
    if png is not None and image is not None:
        reply.files.append((image, png))
    return reply


def past_edit(result: TurnResult, locale: Locale, intro: str = "") -> dict[str, Any] | None:
    """The edit of a board message once a newer board supersedes it, if its words would
    mislead when read later: "the bot is thinking" (the bot has played since), or "you
    may capture again, or press End turn" (the chain is over). ``None``: it stays as it is.
    """
    if result.game_over is not None or result.to_move is None:
        return None
    if result.to_move.is_bot:
        return {"content": intro or None, "allowed_mentions": discord.AllowedMentions.none()}
    if result.chain_pending:
        past = turn_reply(result, locale, intro=intro, past=True)
        return {"content": past.content, "embeds": past.embeds, "allowed_mentions": discord.AllowedMentions.none()}
    return None


def challenge_reply(challenge: ChallengeView, locale: Locale, view: discord.ui.View | None) -> Reply:
    """The challenge message: pings the challenged person only."""
    color = challenge.color
    if color == "random":
        colors = t(locale, "challenge.colors_random")
    else:
        colors = t(locale, "challenge.colors", challenger=challenge.challenger.name, color=t(locale, f"color.{color}"))
    status = challenge.status
    if status == "pending":
        body = t(
            locale,
            "challenge.pending",
            opponent=f"<@{challenge.opponent.user_id}>",
            challenger=challenge.challenger.name,
            size=challenge.size,
            variant=variant_words(challenge.variant),
            colors=colors,
            expires=f"<t:{int(challenge.expires_at)}:R>",
        )
        if challenge.thread:
            body += "\n" + t(locale, "challenge.in_thread")
        return Reply(content=body, view=view, ping=challenge.opponent.user_id)
    body = t(
        locale,
        f"challenge.{status}",
        opponent=challenge.opponent.name,
        challenger=challenge.challenger.name,
        size=challenge.size,
        variant=variant_words(challenge.variant),
    )
    return Reply(content=body, view=view)


def offer_reply(offer: OfferResult, locale: Locale, view: discord.ui.View | None) -> Reply:
    game = offer.game
    body = t(
        locale,
        "offer.pending",
        opponent=mention(offer.opponent, locale),
        name=player_name(offer.offered_by, locale),
        black=game.pieces[0],
        white=game.pieces[1],
    )
    return Reply(content=body, view=view, ping=offer.ping)


def draw_offer_reply(offer: OfferResult, locale: Locale, view: discord.ui.View | None) -> Reply:
    """The public draw offer, pinging the opponent, with Accept and Decline."""
    name = player_name(offer.offered_by, locale)
    body = t(locale, "draw.pending", opponent=mention(offer.opponent, locale), name=name)
    return Reply(content=body, view=view, ping=offer.ping)


def leaderboard_embed(entries: Sequence[LeaderboardEntry], size: int, locale: Locale) -> discord.Embed:
    embed = discord.Embed(title=t(locale, "leaderboard.title", size=size), colour=COLOURS["info"])
    if not entries:
        embed.description = t(locale, "leaderboard.empty")
        return embed
    lines = [
        t(
            locale,
            "leaderboard.line",
            rank=e.rank,
            name=e.name,
            rating=round(e.rating),
            rd=round(e.rd),
            wins=e.wins,
            losses=e.losses,
            draws=e.draws,
        )
        for e in entries
    ]
    embed.description = "\n".join(lines)
    return embed


def stats_embed(stats: PlayerStats, locale: Locale) -> discord.Embed:
    embed = discord.Embed(title=t(locale, "stats.title", name=stats.name), colour=COLOURS["info"])
    if stats.ratings:
        embed.add_field(
            name=t(locale, "stats.ratings"),
            value="\n".join(
                t(locale, "stats.rating_line", size=r.size, rating=round(r.rating), rd=round(r.rd), games=r.games)
                for r in stats.ratings
            ),
            inline=False,
        )
    people = stats.versus_people
    embed.add_field(
        name=t(locale, "stats.vs_people"),
        value=t(locale, "stats.tally", wins=people.wins, losses=people.losses, draws=people.draws),
        inline=False,
    )
    if stats.versus_bot:
        embed.add_field(
            name=t(locale, "stats.vs_bot"),
            value="\n".join(
                f"{t(locale, f'level.{level}')}: "
                + t(locale, "stats.tally", wins=tally.wins, losses=tally.losses, draws=tally.draws)
                for level, tally in stats.versus_bot.items()
            ),
            inline=False,
        )
    if stats.active_games:
        embed.set_footer(text=t(locale, "stats.active", count=stats.active_games))
    return embed


def history_embed(games: Sequence[GameSummary], name: str | None, locale: Locale) -> discord.Embed:
    title = t(locale, "history.title_user", name=name) if name else t(locale, "history.title")
    embed = discord.Embed(title=title, colour=COLOURS["info"])
    if not games:
        embed.description = t(locale, "history.empty")
        return embed
    lines = []
    for g in games:
        # The ending says who won and why; the score alone is added, for a game with one
        # ("in progress (*, in progress)", "resigned. (0-1, resignation)": the play-test)
        scored = g.result not in (None, "*")
        lines.append(
            t(
                locale,
                "history.line_scored" if scored else "history.line",
                ending=wording.ending_text(g, language(locale)),
                id=g.id,
                black=player_name(g.black, locale),
                white=player_name(g.white, locale),
                result=score_words(g.result or "*"),
                size=g.size,
                variant=variant_words(g.variant),
                when=f"<t:{int(g.ended_at or g.created_at)}:R>",
            )
        )
    more = partial(t, locale, "history.more")
    embed.description = "\n".join(fit_lines(lines, DESCRIPTION_LIMIT, lambda count: more(count=count)))
    return embed


def games_text(games: Sequence[GameView], locale: Locale) -> str:
    """``/seega games``: the games being played in a server, one line each, as many as a
    message holds (20 games of people with 32-character names passed 2,000 characters)."""
    title = f"**{t(locale, 'explain.games.title')}**"
    lines = [
        t(
            locale,
            "explain.games.line",
            id=g.id,
            black=g.black.name,
            white=g.white.name,
            variant=variant_words(g.variant),
            size=g.size,
            turn=g.turn,
            where=f"<#{g.channel_id}>",  # a channel mention is a link to the game
        )
        for g in games
    ]
    more = partial(t, locale, "explain.games.more")
    return "\n".join([title, *fit_lines(lines, CONTENT_LIMIT - len(title) - 1, lambda count: more(count=count))])


def settings_embed(settings: GuildSettings, locale: Locale, before: GuildSettings | None = None) -> discord.Embed:
    """The server's settings, each by its name in words and the option people type; after
    a change (``before`` given), what changed is said above them."""
    lang = language(locale)
    embed = discord.Embed(title=t(locale, "settings.title"), colour=COLOURS["info"])
    if before is not None:
        embed.description = wording.settings_change_text(before, settings, lang)
    for label, value in wording.settings_items(settings, lang):
        embed.add_field(name=label, value=value)
    return embed


def rules_embed(variant: str, locale: Locale) -> discord.Embed:
    """The rules of a preset, generated from its options so they never disagree with the engine."""
    lines = wording.rules_lines(variant, language(locale))
    differs = wording.differences_text(variant, language(locale))  # at the top, for a non-standard variant
    full = "\n".join(f"• {line}" for line in lines)
    if differs:  # then the whole list, headed as such (play-test: it followed unannounced)
        full = t(locale, "rules.all") + "\n" + full
    embed = discord.Embed(
        title=t(locale, "rules.title", variant=variant_words(variant)),
        description="\n\n".join(x for x in (differs, full) if x),
        colour=COLOURS["info"],
    )
    return embed
