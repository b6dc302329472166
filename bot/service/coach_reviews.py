"""``/seega review``: every turn of a finished game judged by the engine, stored once.

The positions are analysed one job at a time in the AI workers (see
:mod:`bot.service.coach_work`), with ``progress(done, total)`` after each, so a message can
say "reviewing turn 12 of 48". The review is stored as JSON (``coach_reviews``); asking
again is answered from the table at once. Two requests for the same game while it runs
share the one review.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable

from bot.clock import Clock
from bot.results import BadInputError, NoGameError
from bot.service.coach_common import job_for, whole_turns
from bot.service.coach_results import KeyMoment, NamesShown, ReviewResult, Wording
from bot.service.coach_work import CoachWork, Pictures, in_thread
from bot.service.limits import LimitError, OneAtATime
from bot.service.snapshots import names_of
from bot.storage import GameRow, Storage
from bot.texts import FALLBACK, Text
from engine.actions import Action
from engine.ai.analysis import Analysis
from engine.coach.hints import moment_reasons
from engine.coach.review import REVIEW_VERSION, GameReview, build_review, run_job
from engine.record import GameRecord

log = logging.getLogger(__name__)

#: Nodes per position: about 0.1 s a position on a 5x5 board in one worker.
REVIEW_NODES = 8000
Progress = Callable[[int, int], Awaitable[None]]


def _version(data: object) -> int:
    """The judgement version of a stored review's JSON (1 when it has none)."""
    version = data.get("version", 1) if isinstance(data, dict) else 1
    return version if isinstance(version, int) else 1


class Reviews:
    """The review use case."""

    def __init__(
        self, storage: Storage, clock: Clock, work: CoachWork, pictures: Pictures | None, nodes: int = REVIEW_NODES
    ) -> None:
        self.storage = storage
        self.clock = clock
        self.work = work
        self.pictures = pictures
        self.nodes = nodes
        self._running: dict[int, asyncio.Future[GameReview]] = {}
        #: user -> (the game whose review is being computed for them, how many of their
        #: requests wait for it): one review computed per person at a time.
        self._asked: dict[int, tuple[int, int]] = {}
        #: A person's review pictures are drawn one request at a time (a stored review
        #: is answered at once, and each answer draws a chart and a board per key moment).
        self._drawing = OneAtATime()

    async def _row(self, guild_id: int, channel_id: int, game_id: int | None) -> GameRow:
        if game_id is not None:
            row = await self.storage.game(game_id)
            if row is None or row.guild_id != guild_id:
                raise NoGameError("no_such_game", game_id=game_id)
        else:  # the channel's last game that can be reviewed, else the refusal of its last game
            row = await self.storage.latest_reviewable_game(channel_id) or await self.storage.latest_game(channel_id)
            if row is None:
                raise NoGameError("no_game_yet")
        # A cancelled game with turns played is reviewed like any ended game (an unrated
        # bot game is too); one cancelled before its first turn has nothing to review.
        if row.status == "cancelled" and not whole_turns(row).turns:
            raise BadInputError("coach_review_cancelled", game_id=row.id)
        if row.status == "cancelled":
            return row
        if row.status != "finished":
            raise BadInputError(
                "coach_review_unfinished",
                game_id=row.id,
                status=Text.of(f"status.{row.status}"),  # "in progress", never "active" (play-test)
            )
        return row

    async def check(self, guild_id: int, channel_id: int, game_id: int | None = None) -> int:
        """The id of the game :meth:`review` would review, or its refusal (no such game, not
        finished), checked before any work so an adapter can answer it at once."""
        return (await self._row(guild_id, channel_id, game_id)).id

    async def review(
        self,
        guild_id: int,
        channel_id: int,
        game_id: int | None = None,
        *,
        progress: Progress | None = None,
        wording: Wording | None = None,
        names_shown: NamesShown | None = None,
        user_id: int | None = None,
        lang: str = FALLBACK,
    ) -> ReviewResult:
        """Review a finished game (by id, or the channel's last game); stored after the first time.

        ``names_shown`` turns the game's (Black, White) names into the ones the adapter
        says (the console's "You" for the person at the keyboard), in the text and the
        pictures alike; the stored review holds no names. ``lang`` is the language of the
        key moments' boards (``wording`` words the rest, for the same reader).

        Raises:
            LimitError: ``coach_review_busy``: a review is still being computed for
                ``user_id`` (another game's): one at a time per person, so one member's
                many requests cannot fill the coach's queue before everybody else's.
        """
        row = await self._row(guild_id, channel_id, game_id)
        record = whole_turns(row)
        stored = await self.storage.coach_review(row.id)
        data = json.loads(stored[1]) if stored is not None else None
        # A review stored by an earlier judgement (before the material floor and the
        # placed pairs judged by both cells) is computed again once: the newcomer who
        # asked again would still read "0 blunders" of a game lost 0 to 12.
        cached = stored is not None and stored[0] == self.nodes and _version(data) >= REVIEW_VERSION
        if data is not None and cached:
            review = GameReview.from_dict(data)
        else:
            review = await self._computed(row, record, progress, user_id)
        hints = sum((await self.storage.hint_counts([row.id])).values())
        names = names_of(row, lang) if names_shown is None else names_shown(names_of(row, lang))
        async with self._drawing.turn(user_id):
            chart, moments = await self._pictures(row.id, names, record, review, wording, lang)
        return ReviewResult(row.id, names, review, cached, chart, moments, hints, row.status == "cancelled")

    async def _computed(
        self, row: GameRow, record: GameRecord, progress: Progress | None, user_id: int | None
    ) -> GameReview:
        """The review of ``row``, computed once however many ask for it at once."""
        if user_id is not None:
            game, waiting = self._asked.get(user_id, (row.id, 0))
            if game != row.id:
                raise LimitError("coach_review_busy", game_id=game)
            self._asked[user_id] = (game, waiting + 1)
        try:
            running = self._running.get(row.id)
            if running is None:
                running = asyncio.ensure_future(self._run(row, record, progress))
                self._running[row.id] = running
                game_id = row.id  # bound now: the callback runs when the review is done
                running.add_done_callback(lambda _f: self._running.pop(game_id, None))
            return await asyncio.shield(running)
        finally:
            if user_id is not None:
                game, waiting = self._asked[user_id]
                if waiting > 1:
                    self._asked[user_id] = (game, waiting - 1)
                else:
                    del self._asked[user_id]

    async def _run(self, row: GameRow, record: GameRecord, progress: Progress | None) -> GameReview:
        done: list[str] = []
        jobs = []
        for actions in record.turns:
            played = tuple(str(a) for a in actions)
            jobs.append(job_for(row, tuple(done), self.nodes, played))
            done.extend(played)
        jobs.append(job_for(row, tuple(done), self.nodes))
        analyses: list[Analysis] = []
        turns = len(record.turns)
        for i, job in enumerate(jobs):
            analyses.append(await self.work.run(run_job, job))
            if progress is not None and i > 0:  # job i is the position after turn i: turn i is reviewed
                try:
                    await progress(i, turns)
                except Exception:  # a failed progress message must not lose the review
                    log.warning("review progress update failed", exc_info=True)
        review = await in_thread(build_review, record, analyses, self.nodes)
        await self.storage.save_coach_review(row.id, self.nodes, json.dumps(review.to_dict()), self.clock.now())
        return review

    async def _pictures(
        self,
        game_id: int,
        names: tuple[str, str],
        record: GameRecord,
        review: GameReview,
        wording: Wording | None,
        lang: str = FALLBACK,
    ) -> tuple[bytes | None, tuple[KeyMoment, ...]]:
        pics = self.pictures
        start = record.start()
        befores = []
        pos = start.copy()
        for actions in record.turns:
            befores.append(pos.copy())
            for action in actions:
                pos.push(action)
        w = wording or (lambda key, **p: key)
        legend = (w("coach.legend.played"), w("coach.legend.better"))
        moments = []
        for index in review.key_moments:
            verdict = review.turns[index]
            before = befores[index]
            played = [Action.parse(a) for a in verdict.played]
            best = [Action.parse(a) for a in verdict.best]
            # The engine's answer to the turn played is the next verdict's best turn.
            following = review.turns[index + 1] if index + 1 < len(review.turns) else None
            answered = following is not None and following.side != verdict.side
            reply = [Action.parse(a) for a in following.best] if following and answered else []
            # And the turn the opponent played: the engine's answer may be a quiet winning
            # step while the bot took three pieces (console play-test).
            replied = [Action.parse(a) for a in following.played] if following and answered else []
            # A placement's consequence shows in the line the review's search expects after it.
            line = [Action.parse(a) for a in verdict.line]
            # In a thread: no search, but the walks of what each side can take cost up to
            # 0.3 s on a 9x9 board with chains, and the review is shown again at each asking.
            played_why, best_why = await in_thread(moment_reasons, before, played, best, reply, replied, line)
            image = None
            if pics is not None:
                image = await in_thread(
                    pics.suggestion_image, before, best, played, players=names, legend=legend, lang=lang
                )
            player = names[verdict.side]
            moments.append(
                KeyMoment(
                    index,
                    verdict.number,
                    verdict.side,
                    player,
                    verdict.label,
                    verdict.played,
                    verdict.best,
                    verdict.loss,
                    image,
                    tuple((key, dict(params)) for key, params in played_why),
                    tuple((key, dict(params)) for key, params in best_why),
                )
            )
        chart = None
        if pics is not None:
            words = pics.chart_words(
                w(
                    "coach.review.chart_title",
                    black=pics.shown_name(names[0], lang, w("color.black").capitalize()),
                    white=pics.shown_name(names[1], lang, w("color.white").capitalize()),
                    id=game_id,
                ),
                w("coach.review.chart_top"),
                w("coach.review.chart_bottom"),
                w("coach.review.chart_turn"),
                {"blunder": w("coach.class.blunder"), "mistake": w("coach.class.mistake")},
                lang=lang,
            )
            marks = {v.index + 1: v.label for v in review.turns if v.label in ("blunder", "mistake")}
            chart = await in_thread(pics.evaluation_chart, review.curve, marks, words, first_turn=start.turn - 1)
        return chart, tuple(moments)
