"""Channels, threads and servers the bot has lost: their games end, their challenges close.

A game lives in one channel or thread. Once that is deleted (or the bot is removed from
the server) nobody can see, play or ``/seega cancel`` it, yet its clock ran on and the
player to move lost a rated game on time (outside review atk41c, F1; a moderator who
plays could delete the thread to win that way). So such a game ends as a moderator's
cancel ends it: result ``*``, reason ``abandoned``, unrated. The adapter calls here on
Discord's events for a deleted channel, thread or server, and the scheduler when a due
timer finds the channel unknown (deleted while the bot was down).

One exception: when the adapter can tell that one of the game's two players deleted its
channel or thread (Discord's audit log), that player resigned, rated, since a player may
not end their own game unrated (``cancel_own_game``; outside review atk41d, F1).
"""

from __future__ import annotations

from bot.results import Abandoned, GameView
from bot.service.ending import Ending
from bot.service.games import Games
from bot.service.starting import Starting

#: Games of a lost server read at a time.
GUILD_BATCH = 200


class Gone:
    """Ends what a deleted channel, thread or server held."""

    def __init__(self, games: Games, starting: Starting, ending: Ending) -> None:
        self.games = games
        self.starting = starting
        self.ending = ending

    async def channel(self, channel_id: int, deleted_by: int | None = None) -> Abandoned:
        """A channel or thread was deleted: its game is abandoned, its challenges closed.
        Deleted by one of the game's players (``deleted_by``, when the adapter could
        tell): the game is that player's resignation, rated (:meth:`Ending.abandon`)."""
        game = await self.ending.abandon(channel_id, deleted_by)
        closed = await self.starting.close_challenges_in(channel_id)
        return Abandoned(() if game is None else (game,), tuple(closed))

    async def guild(self, guild_id: int) -> Abandoned:
        """The bot was removed from a server (or the server was deleted): every game in
        play there is abandoned and every pending challenge closed. Its ratings and
        history stay, should the bot be invited back."""
        games = await self._abandon_games_of(guild_id)
        closed = await self.starting.close_challenges_of_guild(guild_id)
        return Abandoned(tuple(games), tuple(closed))

    async def _abandon_games_of(self, guild_id: int) -> list[GameView]:
        """Abandon the server's active games, a batch at a time; a game that would not
        end (set aside as corrupt, say) is tried once, never looped on."""
        ended: list[GameView] = []
        tried: set[int] = set()
        while True:
            rows = [r for r in await self.games.storage.active_games_in(guild_id, GUILD_BATCH) if r.id not in tried]
            if not rows:
                return ended
            for row in rows:
                tried.add(row.id)
                game = await self.ending.abandon(row.channel_id)
                if game is not None:
                    ended.append(game)
