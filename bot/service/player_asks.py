"""What players ask for in their first hour: a takeback against the bot, the move list,
and the games in progress in a server (to watch).

A takeback goes back to the start of the person's last turn (the bot's reply included,
see :mod:`bot.service.takeback`); it is for games against the bot, which are never
rated, and refused between people, whose games are.
"""

from __future__ import annotations

from bot.explain.turns import moves_text
from bot.results import GameView, IllegalMoveError, NoGameError, TurnResult
from bot.service import offers
from bot.service.games import Games
from bot.service.loaded import LoadedGame, replay
from bot.service.numbers import storable
from bot.service.snapshots import board_png, game_view, turn_result, whole_turn
from bot.service.takeback import takeback
from bot.storage import GameRow
from engine import Position, Ruleset

#: Games listed by ``/seega games`` at most (a Discord message has room for about this many).
MAX_LISTED = 20


class PlayerAsks:
    """Takebacks, move lists and the list of games in progress."""

    def __init__(self, games: Games) -> None:
        self.games = games

    async def takeback(self, channel_id: int, user_id: int) -> TurnResult:
        """Take back the person's last turn (and the bot's reply) in a game against the bot."""
        games = self.games

        async def attempt(g: LoadedGame) -> LoadedGame | None:
            color = g.check_player(user_id, need_turn=False)
            if not (g.black.is_bot or g.white.is_bot):
                raise IllegalMoveError("takeback_people")
            back, count = takeback(g.pos, color)
            if count == 0:
                raise IllegalMoveError("takeback_nothing")
            actions = g.row.action_list[:-count]
            now = games.clock.now()
            deadline, remind_at = await games.deadline_for(g, back, now)  # noted once stored
            offer = offers.without_pending(g.row.end_offer)
            # the hints past the turns taken back are unmarked in the same transaction
            return await games.store(g, back, " ".join(actions), now, deadline, remind_at, offer, takeback=True)

        g = await games.write(channel_id, attempt, fresh=True)
        png = await board_png(games, g, g.pos, whole_turn(g.pos))
        return turn_result(g, png=png, acted_by=user_id)

    async def moves(
        self, channel_id: int, game_id: int | None = None, guild_id: int | None = None
    ) -> tuple[GameView, list[str]]:
        """The channel's game (the one in progress, else the last one) in notation, a line a
        turn; or game ``game_id`` of server ``guild_id``, as ``record`` finds any game."""
        storage = self.games.storage
        if game_id is not None:
            row = await storage.game(game_id) if storable(game_id) else None
            if row is None or row.guild_id != guild_id:
                raise NoGameError("no_such_game", game_id=game_id)
        else:
            row = await storage.active_game(channel_id) or await storage.latest_game(channel_id)
            if row is None:
                raise await self.games.no_game(channel_id)
        rules = Ruleset.make(row.variant, row.size, [o for o in row.options.split(",") if o])
        start = Position.from_spn(row.setup, rules) if row.setup else Position(rules)
        pos = replay(row)
        return game_view(LoadedGame(row, pos)), moves_text(start, pos.move_stack)

    async def in_progress(self, guild_id: int) -> list[GameView]:
        """The active games of a server, newest first (at most :data:`MAX_LISTED`)."""
        rows = await self.games.storage.active_games_in(guild_id, MAX_LISTED)
        return [game_view(LoadedGame(row, Position.from_spn(row.spn, _rules(row)))) for row in rows]


def _rules(row: GameRow) -> Ruleset:
    return Ruleset.make(row.variant, row.size, [o for o in row.options.split(",") if o])
