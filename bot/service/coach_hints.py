"""``/seega hint``: the AI's suggestion for the asker's turn, with reasons, privately.

Allowed in games against the bot and in games one person plays alone (neither is rated);
refused in games between people, which are rated. Each player may take at most the
guild's limit of hints per game (3 by default, ``/seega settings hints:``, stored in
``coach_settings.hint_limit``); the count
is stored, so records and reviews can say that hints were used. A hint for a forced
turn (one legal action, and the turn ends with it) is free: it is read off the rules,
without a search, and not counted (play-test: "Hint (1 of 3): play b1-b2: the only legal
move"); only a guild that turned hints off (limit 0, ``/seega settings hints:0``) refuses
it, saying that hints are off here. A hint asked for again
at the same position (nothing played since) is the same hint and is not counted again
(fresh-eyes play-test: three hints in a row, "play e1" each time, used all three).

A hint's search runs in the coach's slot of the AI workers, which every member's hints
and reviews share. The same position's hint asked again while its search runs waits for
that search instead of starting another, and one person's searches run one at a time
(the others wait outside the shared line): fifty ``/seega hint`` at once from one member
ran fifty searches of one position in that slot, and another member's hint waited 3.5 s
behind them instead of 0.4 s (``bench/flood.py``, docs/limits.md).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from bot.clock import Clock
from bot.results import (
    BadInputError,
    GameOverServiceError,
    Moderator,
    NoGameError,
    NotAModeratorError,
    NotAPlayerError,
    NotYourTurnError,
)
from bot.service.coach_common import is_practice, job_for, position_of
from bot.service.coach_results import HintResult, NamesShown, Wording, draws_a_mark
from bot.service.coach_work import CoachWork, Pictures, in_thread
from bot.service.games import no_game_error
from bot.service.limits import OneAtATime
from bot.service.snapshots import names_of
from bot.storage import GameMovedOnError, GameRow, Storage
from bot.texts import FALLBACK
from engine.actions import Action
from engine.coach.hints import HINT_NODES, Advice, advise_job, forced_turn, turn_reasons
from engine.outcome import COLOR_NAMES
from engine.position import Position

DEFAULT_HINT_LIMIT = 3
MAX_HINT_LIMIT = 20


#: Finished hint searches kept (each a few short strings), the most recently used.
ADVICE_KEPT = 256


class Hints:
    """The hint use case and its guild setting."""

    def __init__(self, storage: Storage, clock: Clock, work: CoachWork, pictures: Pictures | None) -> None:
        self.storage = storage
        self.clock = clock
        self.work = work
        self.pictures = pictures
        #: (game id, actions played): the search under way for that position, shared by
        #: every request for it while it runs.
        self._running: dict[tuple[int, str], asyncio.Future[Advice]] = {}
        #: The advice of the last positions searched: a node-limited search gives the
        #: same advice every time, so a hint asked again a moment later (the same player,
        #: or a rematch of the same line) is not searched again.
        self._done: OrderedDict[tuple[int, str], Advice] = OrderedDict()
        #: One person's searches (of different games) run one at a time.
        self._searching = OneAtATime()

    async def limit(self, guild_id: int) -> int:
        """The guild's hint limit per player and game."""
        return await self.storage.hint_limit(guild_id, DEFAULT_HINT_LIMIT)

    async def set_limit(self, guild_id: int, limit: int, moderator: Moderator | None = None) -> int:
        """Set the guild's hint limit (0 turns hints off); only with the guild's moderator capability."""
        if not isinstance(moderator, Moderator) or moderator.guild_id != guild_id:
            raise NotAModeratorError("moderator_only")
        if not 0 <= limit <= MAX_HINT_LIMIT:
            raise BadInputError("coach_hint_limit_range", max=MAX_HINT_LIMIT)
        await self.storage.save_hint_limit(guild_id, limit)
        return limit

    async def hint(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        wording: Wording | None = None,
        names_shown: NamesShown | None = None,
        *,
        lang: str = FALLBACK,
    ) -> HintResult:
        """The suggestion for ``user_id``'s turn in the channel's game (``wording`` words the
        picture's legend, ``lang`` names the language of the board's own words: the same
        reader's; ``names_shown`` turns the game's names into the ones the adapter says,
        like the console's "You", as for reviews)."""
        row = await self.storage.active_game(channel_id)
        if row is None:
            raise await no_game_error(self.storage, channel_id)
        if row.guild_id != guild_id:
            raise NoGameError("no_game")
        black, white = names_of(row, lang)
        people = {i for i, lvl in ((row.black_id, row.black_level), (row.white_id, row.white_level)) if lvl is None}
        if user_id not in people:
            raise NotAPlayerError("not_a_player", black=black, white=white)
        if not is_practice(row):
            raise BadInputError("coach_hint_rated")
        limit = await self.limit(guild_id)
        if limit == 0:  # said as what it is, not "you have used all 0 hints" (play-test)
            raise BadInputError("coach_hints_off")
        pos = position_of(row)
        if pos.result is not None:
            raise GameOverServiceError("coach_hint_game_over")
        mover = (row.black_id, row.black_level) if pos.side == 0 else (row.white_id, row.white_level)
        if mover != (user_id, None):
            raise NotYourTurnError("coach_hint_not_your_turn", color=COLOR_NAMES[pos.side])
        used = await self.storage.hint_count(row.id, user_id)
        forced = forced_turn(pos)
        ply = len(row.action_list)  # the position: a hint asked again before a move is the same hint
        again = await self.storage.hint_taken_at(row.id, user_id, ply)
        if used >= limit and not again and forced is None:
            raise BadInputError("coach_hint_limit", limit=limit)
        if forced is not None:
            texts = tuple(str(a) for a in forced)
            reasons = tuple((key, dict(params)) for key, params in turn_reasons(pos, forced))
            image = await self._picture(pos, list(forced), (black, white), wording, names_shown, lang)
            return HintResult(row.id, texts, reasons, used, limit, None, image, free=True)
        advice = await self._advice(row, user_id)
        try:
            taken = await self.storage.take_hint(
                row.id, user_id, pos.turn, limit, self.clock.now(), ply, actions=row.actions
            )
        except GameMovedOnError:
            raise BadInputError("coach_hint_moved_on") from None
        if taken is None:
            raise BadInputError("coach_hint_limit", limit=limit)
        suggested = [Action.parse(a) for a in advice.actions]
        image = await self._picture(pos, suggested, (black, white), wording, names_shown, lang)
        reasons = tuple((key, dict(params)) for key, params in advice.reasons)
        return HintResult(row.id, advice.actions, reasons, taken, limit, advice.win_chance, image, again=again)

    async def _advice(self, row: GameRow, user_id: int) -> Advice:
        """The search's advice for the game's position: one search however many ask at
        once, and none for a position searched a moment ago.

        Keyed by the actions themselves, not their number: after a takeback the same
        number of actions is another position."""
        key = (row.id, row.actions)
        done = self._done.get(key)
        if done is not None:
            self._done.move_to_end(key)
            return done
        running = self._running.get(key)
        if running is None:
            running = asyncio.ensure_future(self._search(row, user_id, key))
            self._running[key] = running
            running.add_done_callback(lambda _f: self._running.pop(key, None))
        return await asyncio.shield(running)

    async def _search(self, row: GameRow, user_id: int, key: tuple[int, str]) -> Advice:
        async with self._searching.turn(user_id):
            advice = await self.work.run(advise_job, job_for(row, tuple(row.action_list), HINT_NODES))
        self._done[key] = advice
        while len(self._done) > ADVICE_KEPT:
            self._done.popitem(last=False)
        return advice

    async def _picture(
        self,
        pos: Position,
        actions: list[Action],
        names: tuple[str, str],
        wording: Wording | None,
        names_shown: NamesShown | None,
        lang: str = FALLBACK,
    ) -> bytes | None:
        """The board with the suggestion drawn on it (``None`` without a renderer)."""
        if self.pictures is None:
            return None
        w = wording or (lambda key, **p: key)
        drawn = draws_a_mark([str(a) for a in actions])
        legend = (w("coach.legend.played"), w("coach.legend.hint")) if drawn else None
        players = names if names_shown is None else names_shown(names)
        image: bytes = await in_thread(
            self.pictures.suggestion_image, pos, actions, players=players, legend=legend, lang=lang
        )
        return image
