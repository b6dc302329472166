"""Looking things up: the board, legal cells for autocomplete, ratings, history, records.

Nothing here changes a game (a corrupt active game found while looking is set aside).
"""

from __future__ import annotations

import asyncio
import logging
import time

from bot.explain import cell_names
from bot.results import (
    BadInputError,
    CorruptGameError,
    GameOver,
    GameOverServiceError,
    GameSummary,
    GameView,
    LeaderboardEntry,
    NoGameError,
    PlayerStats,
    RatingView,
    RecordResult,
    ServiceError,
    Tally,
    TurnResult,
)
from bot.service import catalog, commands
from bot.service.games import Games
from bot.service.limits import OneAtATime
from bot.service.loaded import LoadedGame, winner_of
from bot.service.numbers import list_length, storable
from bot.service.snapshots import board_png, game_summary, game_view, names_of, reader_language, turn_result, whole_turn
from bot.storage import GameRow
from bot.texts import plain_name
from engine import Action, GameRecord
from engine.actions import PLACE, REMOVE, STEP
from engine.board import parse_cell

log = logging.getLogger(__name__)


#: Replays drawn at once in this process. Drawing one holds the GIL for most of a second
#: or more (0.7 s for 130 frames); six at once made the event loop answer 20 ms late at
#: p95 and 86 ms at worst, so the others wait their turn (docs/limits.md).
REPLAYS_AT_ONCE = 2


class Queries:
    """Read-only use cases: anybody may call them."""

    def __init__(self, games: Games) -> None:
        self.games = games
        self._drawing: asyncio.Semaphore | None = None  # made in the running loop, on first use
        #: One replay per person in the line at a time: the rest of theirs wait outside it.
        self._replays_of = OneAtATime()

    async def board(self, channel_id: int, user_id: int | None = None) -> TurnResult:
        """The channel's game as it stands (anyone may look); after the game, its final
        board with how it ended, so the end stays reachable. The picture speaks the
        language of the player to move (:func:`~bot.service.snapshots.public_reader`), as
        every board of the game, whoever asked (``user_id`` is not its reader)."""
        try:
            g, _ = await self.games.load(channel_id, fresh=True)
        except GameOverServiceError:
            return await self._final_board(channel_id)
        return turn_result(g, png=await board_png(self.games, g, g.pos, whole_turn(g.pos)))

    async def _final_board(self, channel_id: int) -> TurnResult:
        """The last game of the channel at its end (a finished or cancelled game)."""
        row = await self.games.storage.latest_game(channel_id)
        if row is None or row.status == "active":
            raise await self.games.no_game(channel_id)
        g = LoadedGame(row, await self.games.restore(row, set_aside=False))
        winner = winner_of(row.result) if row.status == "finished" else None
        over = GameOver(
            result=row.result or "*",
            reason=row.reason or "abandoned",
            winner=None if winner is None else g.player(winner),
            loser=None if winner is None else g.player(1 - winner),
            rated=row.status == "finished" and row.black_level is None and row.white_level is None,
        )
        return turn_result(g, (), over, await board_png(self.games, g, g.pos, whole_turn(g.pos)))

    async def game(self, channel_id: int) -> GameView | None:
        """The channel's active game, or ``None``."""
        try:
            g, _ = await self.games.load(channel_id, fresh=True)
        except (NoGameError, GameOverServiceError):
            return None
        return game_view(g)

    # ----------------------------------------------------------------- autocomplete
    async def _legal(self, channel_id: int, user_id: int | None) -> list[Action]:
        """Legal actions for autocomplete: from the cache when possible (no replay)."""
        try:
            g, _ = await self.games.load(channel_id)
        except ServiceError:
            return []
        if user_id is not None:
            color = g.color_of(user_id)
            if color is None or color != g.pos.side:
                return []
        return g.pos.legal_actions()

    async def legal_place_cells(self, channel_id: int, user_id: int | None = None) -> list[str]:
        """Cells the player to move may place on now (empty when it is not placement)."""
        return cell_names([a.src for a in await self._legal(channel_id, user_id) if a.kind == PLACE])

    async def legal_from_cells(self, channel_id: int, user_id: int | None = None) -> list[str]:
        """Cells the player to move may step from now."""
        return cell_names([a.src for a in await self._legal(channel_id, user_id) if a.kind == STEP])

    async def legal_to_cells(self, channel_id: int, frm: str | None = None, user_id: int | None = None) -> list[str]:
        """Cells a step from ``frm`` may go to (every destination if ``frm`` is empty or bad)."""
        steps = [a for a in await self._legal(channel_id, user_id) if a.kind == STEP]
        src = None
        if frm:
            cells = commands.split_move_text(frm)
            if cells:
                src = parse_cell(cells[0])
        return cell_names([a.dst for a in steps if src is None or a.src == src])

    async def legal_remove_cells(self, channel_id: int, user_id: int | None = None) -> list[str]:
        """Cells a due removal may take."""
        return cell_names([a.src for a in await self._legal(channel_id, user_id) if a.kind == REMOVE])

    # ----------------------------------------------------------------- people and games
    async def leaderboard(self, guild_id: int, size: int = 5, limit: int = 10) -> list[LeaderboardEntry]:
        """The guild's top players by Glicko-2 rating on ``size``."""
        catalog.check_size(size)
        rows = await self.games.storage.leaderboard(guild_id, size, list_length(limit))
        return [
            LeaderboardEntry(i + 1, r.user_id, r.name, r.rating, r.rd, r.games, r.wins, r.losses, r.draws)
            for i, r in enumerate(rows)
        ]

    async def leaderboard_size(self, guild_id: int) -> int:
        """The board size a leaderboard asked with no size shows: the default size when it
        has rated players, else the first size that has some, else the default size."""
        sizes = (catalog.DEFAULT_SIZE, *(s for s in catalog.SIZES if s != catalog.DEFAULT_SIZE))
        for size in sizes:
            if await self.games.storage.leaderboard(guild_id, size, 1):
                return size
        return catalog.DEFAULT_SIZE

    async def stats(self, guild_id: int, user_id: int, name: str | None = None) -> PlayerStats:
        """A player's ratings, record against people and record against each bot level."""
        if not storable(user_id):
            raise BadInputError("bad_number", value=user_id)
        storage = self.games.storage
        ratings = await storage.ratings_of(guild_id, user_id)
        tallies = await storage.tallies(guild_id, user_id)
        people = Tally()
        bots: dict[str, Tally] = {}
        for t in tallies:
            tally = Tally(t.wins, t.losses, t.draws)
            if t.bot_level is None:
                people = tally
            else:
                bots[t.bot_level] = tally
        if name is None:
            recent = await storage.history(guild_id, user_id, 1)
            if ratings:
                name = ratings[-1].name
            elif recent:
                name = recent[0].black_name if recent[0].black_id == user_id else recent[0].white_name
            else:
                name = f"user {user_id}"
        return PlayerStats(
            user_id=user_id,
            name=name,
            ratings=tuple(
                RatingView(r.size, r.rating, r.rd, r.vol, r.games, r.wins, r.losses, r.draws) for r in ratings
            ),
            versus_people=people,
            versus_bot={lvl: bots[lvl] for lvl in catalog.LEVELS if lvl in bots},
            active_games=await storage.active_count(guild_id, user_id),
        )

    async def history(self, guild_id: int, user_id: int | None = None, limit: int = 10) -> list[GameSummary]:
        """Recent games of the guild (of ``user_id`` if given), newest first."""
        if user_id is not None and not storable(user_id):
            return []
        return [game_summary(r) for r in await self.games.storage.history(guild_id, user_id, list_length(limit))]

    async def get_game(self, game_id: int, guild_id: int | None = None) -> GameSummary | None:
        """Any game by id (a rematch button, a record link), or ``None``; ``guild_id``
        limits the search to one guild."""
        row = await self.games.storage.game(game_id) if storable(game_id) else None
        if row is None or (guild_id is not None and row.guild_id != guild_id):
            return None
        return game_summary(row)

    async def record_row(self, guild_id: int, game_id: int | None = None, channel_id: int | None = None) -> GameRow:
        """The game :meth:`record` would write, or its refusal: checked before anything is
        drawn, so an adapter can answer it at once.

        By id, or else the channel's latest game with a turn played (finished, or the one
        in progress): a game cancelled before its first turn has an empty record, and was
        picked over the real game before it (play-test)."""
        storage = self.games.storage
        if game_id is not None:
            row = await storage.game(game_id) if storable(game_id) else None
            if row is None or row.guild_id != guild_id:
                raise NoGameError("no_such_game", game_id=game_id)
        elif channel_id is not None:
            row = await storage.latest_played_game(channel_id)
            if row is None:
                raise NoGameError("no_game_yet")
        else:
            raise BadInputError("missing_game")
        if row.status == "corrupt":
            raise CorruptGameError("corrupt_record", game_id=row.id)
        return row

    async def record(
        self,
        guild_id: int,
        game_id: int | None = None,
        channel_id: int | None = None,
        *,
        replay: bool = True,
        user_id: int | None = None,
    ) -> RecordResult:
        """The SGN record of a game (by id, or the channel's latest played: :meth:`record_row`)
        and an animated replay.

        ``user_id``: who asked; the replay's words are in their language, as the message
        posted with it (:func:`reader_language`). The SGN file is the standard's, in English.
        """
        storage = self.games.storage
        row = await self.record_row(guild_id, game_id, channel_id)
        pos = await self.games.restore(row, set_aside=row.status == "active")
        record = GameRecord.from_position(
            pos,
            row.setup,
            Black=plain_name(row.black_name),  # a record holds names as written, no markdown
            White=plain_name(row.white_name),
            Date=time.strftime("%Y.%m.%d", time.gmtime(row.created_at)),
        )
        if row.status != "active" and record.result == "*" and row.result:
            record.result = row.result
            record.termination = row.reason
        record.tags["Game"] = str(row.id)
        hints = (await storage.hint_counts([row.id])).get(row.id)
        if hints:
            record.tags["Hints"] = str(hints)  # the coach's hints were used (docs/coach.md)
        sgn = record.to_sgn()
        data = None
        name = None
        renderer = self.games.renderer
        if replay and renderer is not None:
            if self._drawing is None:
                self._drawing = asyncio.Semaphore(REPLAYS_AT_ONCE)
            try:
                lang = await reader_language(self.games, user_id)
                players = names_of(row, lang)
                async with self._replays_of.turn(user_id), self._drawing:
                    data = await asyncio.to_thread(renderer.render_replay, record, players=players, lang=lang)
                ext = "gif" if data[:3] == b"GIF" else "png"
                name = f"seega-{row.id}.{ext}"
            except Exception:
                log.exception("rendering the replay of game %d failed", row.id)
                data = None
        return RecordResult(row.id, sgn, f"seega-{row.id}.sgn", data, name)
