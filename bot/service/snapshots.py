"""Loaded games as the plain results adapters get: views, turn results, events, pictures.

Every use case answers with these, so a :class:`~bot.results.TurnResult` is built the same
way whether a person played, the bot replied, a timer fired or someone only looked.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.explain.passes import forced_passes
from bot.explain.removals import removal_reason
from bot.explain.tasks import task_line
from bot.explain.turns import centre_kept, recent_turns, replacement_emptied
from bot.results import (
    ChallengeView,
    GameOver,
    GameSummary,
    GameView,
    Player,
    TurnEvent,
    TurnResult,
    player_name,
)
from bot.service import commands, offers
from bot.service.games import Games
from bot.service.loaded import LoadedGame
from bot.service.numbers import storable
from bot.storage import ChallengeRow, GameRow
from bot.texts import FALLBACK, LANGUAGES
from engine import BLACK, COLOR_NAMES, WHITE, Action, Outcome, Position
from engine.actions import END
from engine.position import ONE
from engine.summary import TurnSummary, last_turn, shuttle_holds, summarize_turn

log = logging.getLogger(__name__)


def game_view(g: LoadedGame) -> GameView:
    """A snapshot of a loaded game."""
    r, pos = g.row, g.pos
    return GameView(
        id=r.id,
        guild_id=r.guild_id,
        channel_id=r.channel_id,
        variant=r.variant,
        size=r.size,
        options=r.options,
        black=g.black,
        white=g.white,
        spn=r.spn,
        status=r.status,
        phase=pos.phase,
        to_move=g.to_move,
        turn=pos.turn,
        pieces=(pos.count(BLACK), pos.count(WHITE)),
        hand=(pos.hand[0], pos.hand[1]),
        result=r.result,
        reason=r.reason,
        deadline=r.deadline,
        end_offer_by=offers.offered_by(r.end_offer, offers.COUNT),
        draw_offer_by=offers.offered_by(r.end_offer, offers.DRAW),
        created_at=r.created_at,
        ended_at=r.ended_at,
        recent=tuple(recent_turns(pos)),
        task=task_line(pos) if r.status == "active" else None,
        shuttle_held=shuttle_steps(pos) if r.status == "active" and pos.phase == "m" else (),
    )


def shuttle_steps(pos: Position) -> tuple[str, ...]:
    """The steps the shuttle limit forbids the side to move in ``pos`` (``"d2-c2"``), as
    the picture marks them (not the other side's: play-test pt40)."""
    names = pos.geo.names
    return tuple(f"{names[piece]}-{names[cell]}" for piece, cell in shuttle_holds(pos, pos.side))


def turn_result(
    g: LoadedGame,
    events: Sequence[TurnEvent] = (),
    game_over: GameOver | None = None,
    png: bytes | None = None,
    acted_by: int | None = None,
    bot_to_move: bool = False,
) -> TurnResult:
    """The game after a command: what happened, who is to move (pinged unless they acted)."""
    to_move = g.to_move
    pos = g.pos
    legal_actions = pos.legal_actions() if to_move is not None else []
    chain = any(a.kind == END for a in legal_actions)
    ping = None
    if to_move is not None and not to_move.is_bot and to_move.user_id != acted_by:
        ping = to_move.user_id
    reader = public_reader(g)
    legal = tuple(sorted(commands.action_text(a) for a in legal_actions))
    return TurnResult(
        game=game_view(g),
        events=tuple(events),
        to_move=to_move,
        ping=ping,
        chain_pending=chain,
        legal=legal,
        game_over=game_over,
        bot_to_move=bot_to_move,
        png=png,
        reader=reader if reader is not None and storable(reader) else None,
    )


def turn_event(
    g: LoadedGame, before: Position, after: Position, actions: list[Action], spn: str | None = None
) -> TurnEvent:
    """What ``actions`` did, played from ``before`` to ``after``."""
    summary = summarize_turn(before, actions)
    names = before.geo.names
    cells = tuple(names[c] for c in summary.placed)
    if cells and before.phase == "p" and before.state == ONE:
        # The second piece of a pair placed by a command of its own: the message names the
        # turn's whole placement ("placed on a1, b2"), as when both are given at once; the
        # second cell alone read as if the turn had placed one piece (play-test).
        start, earlier = last_turn(before)
        cells = tuple(names[c] for c in summarize_turn(start, earlier).placed) + cells
    # In the five-in-a-row replacement phase /place replaces an enemy piece: "placed on
    # a1" under a board where a1 is empty read as a bug (console play-test).
    replacing = before.phase == "s"
    return TurnEvent(
        player=g.player(before.side),
        color=COLOR_NAMES[before.side],
        actions=tuple(str(a) for a in actions),
        summary=summary,
        placed=() if replacing else cells,
        captured=tuple(names[c] for c, _ in summary.captured),
        removed=tuple(names[c] for c, _ in summary.removed),
        turn_complete=after.turn != before.turn or after.side != before.side or after.result is not None,
        spn=spn or after.spn(),
        aside=centre_kept(before, actions) or replacement_emptied(before, actions) or removal_reason(before, actions),
        replaced=cells if replacing else (),
    )


async def reader_language(games: Games, user_id: int | None) -> str:
    """The language of a picture drawn for ``user_id``: their ``/seega language``
    choice, else English (the service does not see a Discord server's language, and
    Discord has none that is Arabic, so the server's language is English too).

    A game's board is drawn for its :func:`public_reader`, and the Discord adapter words
    the message around it for the same person by the same choice, so the picture and
    the text under it speak one language. Without a person (two bots) both are English.
    docs/deploy.md, "Languages".
    """
    if user_id is None or not storable(user_id):
        return FALLBACK
    chosen = await games.storage.user_language(user_id)
    return chosen if chosen in LANGUAGES else FALLBACK


def names_of(row: GameRow, lang: str = FALLBACK) -> tuple[str, str]:
    """``(black, white)`` names, the bot's in ``lang`` (as the messages and the board
    pictures name it)."""
    black = Player(row.black_id, row.black_name, row.black_level)
    white = Player(row.white_id, row.white_name, row.white_level)
    return player_name(black, lang), player_name(white, lang)


def public_reader(g: LoadedGame) -> int | None:
    """The person a game's board message is for, in whose language it is worded and
    drawn: the player to move, who must act on it (against the bot, while the bot is to
    move, the person it plays); once the game is over, the player whose turn it was when
    it ended (the one who ran out of time, who was left without a move...). ``None`` when
    no person plays.

    It depends on the game only, never on who acted, so a message about the game does not
    switch language with each player's command (play-test: each player's "your turn" came
    in the other's language). docs/deploy.md, "Languages".
    """
    side = g.pos.side
    for player in (g.player(side), g.player(1 - side)):
        if not player.is_bot:
            return player.user_id
    return None


async def board_png(
    games: Games,
    g: LoadedGame,
    pos: Position,
    summary: TurnSummary | None,
    *,
    lang: str | None = None,
) -> bytes | None:
    """The board picture (drawn off the event loop), or ``None`` without a renderer or on failure.

    Its words are in the language of the game's :func:`public_reader` (as the message it
    is posted with), whoever acted. ``lang``: that language when the caller already read
    it (a bot's reply draws one board per step, all for the same person).
    """
    renderer = games.renderer
    if renderer is None:
        return None
    outcome = None
    if g.row.status == "finished" and g.row.result in ("1-0", "0-1", "1/2-1/2") and pos.result is None:
        outcome = Outcome.from_result(g.row.result, g.row.reason or "abandoned")
    elif g.row.status == "cancelled":
        # Cancelled: drawn as such, not as a game still waiting for its player to move.
        outcome = Outcome(None, "abandoned")
    time_left = None
    if outcome is None and pos.result is None and g.row.deadline is not None and not g.player(pos.side).is_bot:
        time_left = max(0.0, g.row.deadline - games.clock.now())
    try:
        if lang is None:
            lang = await reader_language(games, public_reader(g))
        # The bot is named in the picture's language, as in the message beside it.
        players = (player_name(g.black, lang), player_name(g.white, lang))
        draw = renderer.render_board
        if outcome is None:
            return await asyncio.to_thread(draw, pos, summary, players=players, time_left=time_left, lang=lang)
        return await asyncio.to_thread(draw, pos, summary, players=players, outcome=outcome, lang=lang)
    except Exception:  # a picture is never worth losing a turn over
        log.exception("rendering game %d failed", g.row.id)
        return None


def play_forced_passes(g: LoadedGame, pos: Position) -> list[tuple[Action, tuple[str, dict[str, Any]]]]:
    """Play on ``pos`` every pass that is the side to act's only action (with its reason)."""
    return forced_passes(pos, (g.row.black_name, g.row.white_name))


def pass_events(g: LoadedGame, before: Position, passes: Sequence[tuple[Action, Any]]) -> list[TurnEvent]:
    """One event per forced pass, played from ``before``, each with its reason."""
    pos = before.copy()
    events = []
    for action, reason in passes:
        start = pos.copy()
        pos.push(action)
        events.append(replace(turn_event(g, start, pos, [action]), note=reason))
    return events


def last_png(events: Sequence[TurnEvent], default: bytes | None = None) -> bytes | None:
    """The newest picture among ``events`` (a pass played for someone has none of its own)."""
    return next((e.png for e in reversed(events) if e.png is not None), default)


def whole_turn(pos: Position) -> TurnSummary | None:
    """The turn of the last action played on ``pos``, from its start (a chain, whole)."""
    start, actions = last_turn(pos)
    return summarize_turn(start, actions) if actions else None


def with_passes(pos: Position, passes: Sequence[Action]) -> TurnSummary | None:
    """The turn that ``pos`` ends with, followed by the passes then played for the next
    player (their only action), so the picture says "White is blocked and passes"
    instead of showing the turn as if nothing followed."""
    start, actions = last_turn(pos)
    if not actions:
        return None
    return summarize_turn(start, [*actions, *passes])


def spn_turn(spn: str) -> int:
    """The turn number written in an SPN (1 if unreadable)."""
    try:
        return int(spn.split()[-1])
    except (ValueError, IndexError):
        return 1


def game_summary(r: GameRow) -> GameSummary:
    """A stored game as a line of history."""
    return GameSummary(
        id=r.id,
        channel_id=r.channel_id,
        variant=r.variant,
        size=r.size,
        black=Player(r.black_id, r.black_name, r.black_level),
        white=Player(r.white_id, r.white_name, r.white_level),
        status=r.status,
        result=r.result,
        reason=r.reason,
        created_at=r.created_at,
        ended_at=r.ended_at,
        turns=spn_turn(r.spn) - 1,
        spn=r.spn,
        options=r.options,
    )


def challenge_view(c: ChallengeRow) -> ChallengeView:
    """A stored challenge as adapters see it."""
    return ChallengeView(
        id=c.id,
        guild_id=c.guild_id,
        channel_id=c.channel_id,
        challenger=Player(c.challenger_id, c.challenger_name),
        opponent=Player(c.opponent_id, c.opponent_name),
        size=c.size,
        variant=c.variant,
        color=c.color,
        thread=bool(c.thread),
        status=c.status,
        created_at=c.created_at,
        expires_at=c.expires_at,
        game_id=c.game_id,
    )
