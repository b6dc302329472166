"""A person's turn: place, move, remove, end a chain; then, if asked, the bot's reply.

Each command is checked by :mod:`bot.service.commands` on a copy of the position and
stored through :meth:`~bot.service.games.Games.write`, the one conflict-retry path.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from bot.results import BadInputError, BotUnavailableError, GameOver, TurnResult
from bot.service import commands
from bot.service.bot_turns import BotTurns
from bot.service.games import Games
from bot.service.loaded import LoadedGame, result_of
from bot.service.snapshots import (
    board_png,
    last_png,
    pass_events,
    play_forced_passes,
    turn_event,
    turn_result,
    with_passes,
)
from engine import Action, Position
from engine.board import ascii_typed
from engine.summary import TurnSummary

#: (the game after, the command's actions, the game before, the end if any, the whole
#: turn for the picture, the passes played for the next player with their reasons)
Played = tuple[LoadedGame, list[Action], Position, GameOver | None, TurnSummary | None, list[Any]]


@dataclass(frozen=True)
class _TooLate:
    """A command of the player to move that came after their deadline: the game ended by
    timeout instead (the scheduler may wake up to a minute after a deadline; a move
    made in that minute counted, outside review atk41c F7)."""

    game: LoadedGame
    over: GameOver


class Turns:
    """The commands of the player to move."""

    def __init__(self, games: Games, bots: BotTurns) -> None:
        self.games = games
        self.bots = bots

    async def _apply(
        self, channel_id: int, user_id: int, play: Callable[[Position], list[Action]], bot_reply: bool
    ) -> TurnResult:
        """Check ``play`` for ``user_id``'s turn, store it, and answer with the result."""
        line = self.games.ai_queue
        #: The guild whose AI line keeps a place for the bot's reply (from the check on).
        kept: list[int] = []

        async def attempt(g: LoadedGame) -> Played | _TooLate | None:
            g.check_player(user_id)
            if self.games.overdue(g):
                return await self._time_out(g)
            pos = g.pos.copy()
            actions = play(pos)
            if pos.result is None and g.player(pos.side).is_bot and not g.player(g.pos.side).is_bot:
                line.check(g.row.guild_id, user_id, channel_id)  # the bot replies: is there room?
                kept.append(g.row.guild_id)
            before_passes = pos.copy()
            passes = play_forced_passes(g, pos)  # a pass that is the next player's only action
            # the whole turn so far (a chain's every step), and the passes after it
            picture = with_passes(before_passes, [a for a, _ in passes])
            done = await self.games.commit(g, pos, actions + [a for a, _ in passes])
            return None if done is None else (done[0], actions, g.pos, done[1], picture, passes)

        try:
            done: Played | _TooLate = await self.games.write(channel_id, attempt)
        except BaseException:
            for guild_id in kept[-1:]:
                line.release(guild_id, user_id, channel_id)  # nothing stored: no bot turn due
            raise
        if isinstance(done, _TooLate):
            return await self._too_late(done, user_id)
        g = done[0]
        if kept and not (done[3] is None and g.to_move is not None and g.to_move.is_bot):
            line.release(kept[-1], user_id, channel_id)  # checked, then stored otherwise
        return await self._after(channel_id, done, user_id, bot_reply)

    async def _time_out(self, g: LoadedGame) -> _TooLate | None:
        """End ``g`` as the scheduler's timeout would (the player to move loses, rated);
        ``None`` if the compare-and-swap lost."""
        ended = await self.games.finish(g, g.pos, g.row.actions, result_of(1 - g.pos.side), "timeout")
        return None if ended is None else _TooLate(*ended)

    async def _too_late(self, late: _TooLate, user_id: int) -> TurnResult:
        """The answer to a command that came too late: the game's end on time, marked
        ``late`` so that the player is told their turn was not played."""
        png = await board_png(self.games, late.game, late.game.pos, None)
        return replace(turn_result(late.game, (), late.over, png, acted_by=user_id), late=True)

    async def _after(self, channel_id: int, done: Played, user_id: int, bot_reply: bool) -> TurnResult:
        g, actions, before, over, picture, passes = done
        after = before.copy()
        for action in actions:
            after.push(action)
        event = turn_event(g, before, after, actions, after.spn())
        png = await board_png(self.games, g, g.pos, picture)
        event = replace(event, png=png)
        events = [event, *pass_events(g, after, passes)]
        if over is None and g.to_move is not None and g.to_move.is_bot:
            if not bot_reply:
                return turn_result(g, events, None, png, acted_by=user_id, bot_to_move=True)
            try:
                bot = await self.bots.play(channel_id, g)
            except BotUnavailableError:
                bot = None  # the person's turn stands; the bot's waits for its retry
            if bot is not None:
                g, bot_events, over = bot
                events.extend(bot_events)
                png = last_png(bot_events, png)
        return turn_result(g, events, over, png, acted_by=user_id)

    async def place(
        self, channel_id: int, user_id: int, first: str, second: str | None = None, *, bot_reply: bool = True
    ) -> TurnResult:
        """Place one or two pieces (``first`` may also hold both cells: ``"a1 b2"``)."""
        cells = [c for c in re.split(r"[\s,;]+", ascii_typed(first or "")) if c]  # "a١،b٢" too
        if second and second.strip():
            cells.append(second.strip())
        if not cells:
            raise BadInputError("missing_cell")
        return await self._apply(channel_id, user_id, lambda pos: commands.play_place(pos, cells), bot_reply)

    async def move(
        self, channel_id: int, user_id: int, frm: str, to: str | None = None, *, bot_reply: bool = True
    ) -> TurnResult:
        """Step a piece; ``frm`` may hold both cells (``"b2 c2"``, ``"b2-c2"``) with ``to``
        empty, or a whole chain of captures (``"d3 c3 b3"``), played whole or not at all."""
        chain = commands.split_chain_text(frm or "") if not (to and to.strip()) else None
        if chain is not None:
            return await self._apply(channel_id, user_id, lambda pos: commands.play_chain(pos, chain), bot_reply)
        try:
            commands.parse_move(frm, to)  # a refusal the board does not change comes before the game is read
        except BadInputError as exc:
            if exc.key not in ("bad_cell_split", "bad_move_meant"):
                raise  # a cell suggested ("i9"?) only if the game's board has it: asked below

        def step(pos: Position) -> list[Action]:
            return commands.play_step(pos, *commands.parse_move(frm, to, pos))

        return await self._apply(channel_id, user_id, step, bot_reply)

    async def remove(self, channel_id: int, user_id: int, cell: str, *, bot_reply: bool = True) -> TurnResult:
        """The removal a blocked-player rule asks for (or a replacement in five-in-a-row)."""
        return await self._apply(channel_id, user_id, lambda pos: commands.play_remove(pos, cell), bot_reply)

    async def end_turn(self, channel_id: int, user_id: int, *, bot_reply: bool = True) -> TurnResult:
        """Stop a chain of captures (also plays ``pass`` when that is the only action)."""
        return await self._apply(channel_id, user_id, commands.play_end, bot_reply)
