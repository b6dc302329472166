"""Where the coach's CPU work runs: analyses in the AI workers, pictures in a thread.

Analyses (a review's positions, a hint) are picklable jobs run by the same executor as
the AI's turns, so they happen in worker processes, never on the event loop. A review
has many jobs; at most ``parallel`` of them are in the executor at once, so a bot turn
asked for meanwhile waits for at most that many short jobs, never for a whole review.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, Protocol, TypeVar

A = TypeVar("A")
R = TypeVar("R")


class Pictures(Protocol):
    """The drawing functions the coach uses (:mod:`bot.render.coach_pictures` has them)."""

    def suggestion_image(
        self,
        position: Any,
        suggestion: Any,
        played: Any = (),
        *,
        players: Any = ...,
        legend: Any = ...,
        lang: str = ...,
    ) -> bytes:
        """A board with a suggested turn (and a played one) drawn on it, its words in ``lang``."""
        ...

    def board_png(self, position: Any, *, players: Any = ..., marks: Any = ..., lang: str = ...) -> bytes:
        """A plain board, ``marks`` (cell names) ringed, its words in ``lang``."""
        ...

    def evaluation_chart(self, curve: Any, marks: Any, words: Any, *, first_turn: int = 0) -> bytes:
        """A review's evaluation graph."""
        ...

    def rating_chart(self, series: Any, words: Any) -> bytes:
        """A rating history."""
        ...

    def chart_words(
        self, title: str, top: str = "", bottom: str = "", x_axis: str = "", legend: Any = None, lang: str = ...
    ) -> Any:
        """The words of a chart in ``lang`` (its direction too)."""
        ...

    def shown_name(self, name: str, lang: str = ..., fallback: str | None = ...) -> str:
        """A player's name as the pictures say it (the console's "You" in ``lang``;
        ``fallback`` for a name the font cannot draw)."""
        ...


class CoachWork(Protocol):
    """Runs a picklable CPU-bound function off the event loop."""

    async def run(self, fn: Callable[[A], R], arg: A) -> R:
        """``fn(arg)`` in a worker."""
        ...


class ExecutorWork:
    """Runs jobs in an executor, at most ``parallel`` at a time.

    Args:
        executor: where to run (the AI runner's process pool in production); a
            callable returning it is also accepted, for pools that get replaced.
        parallel: how many jobs may be in the executor at once.
    """

    def __init__(self, executor: Executor | Callable[[], Executor], parallel: int = 1) -> None:
        self._executor = executor
        self.parallel = max(1, parallel)
        self._slots: asyncio.Semaphore | None = None

    def _current(self) -> Executor:
        ex = self._executor
        return ex if isinstance(ex, Executor) else ex()

    async def run(self, fn: Callable[[A], R], arg: A) -> R:
        """``fn(arg)`` in the executor, waiting for a free slot first."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.parallel)
        async with self._slots:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._current(), fn, arg)


def thread_work() -> ExecutorWork:
    """Jobs in one background thread (tests and the console, like ``ThreadAiRunner``)."""
    return ExecutorWork(ThreadPoolExecutor(max_workers=1, thread_name_prefix="seega-coach"))


class RunnerWork:
    """Runs jobs through an AI runner's own ``run`` (the PostgreSQL job queue of
    :mod:`bot.ai_jobs`, whose workers may be on other machines), at most ``parallel``
    at a time from this process."""

    def __init__(self, run: Callable[[Callable[[Any], Any], Any], Awaitable[Any]], parallel: int = 1) -> None:
        self._run = run
        self.parallel = max(1, parallel)
        self._slots: asyncio.Semaphore | None = None

    async def run(self, fn: Callable[[A], R], arg: A) -> R:
        """``fn(arg)`` as a job, waiting for a free slot first."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.parallel)
        async with self._slots:
            result: R = await self._run(fn, arg)
            return result


def work_for(ai: Any, parallel: int = 1) -> CoachWork:
    """Where the coach's jobs run: through the AI runner's own ``run`` (the job queue of
    :mod:`bot.ai_jobs`, or the process pool's workers with its limit on a hung worker),
    else in its executor; a thread of its own for a runner with neither."""
    queue = getattr(ai, "run", None)
    if callable(queue):
        return RunnerWork(queue, parallel)
    executor = getattr(ai, "executor", None)
    if callable(executor):
        return ExecutorWork(executor, parallel)
    return thread_work()


def default_pictures() -> Pictures | None:
    """``bot.render.coach_pictures`` if it can be imported (Pillow and fonts), else ``None``."""
    try:
        from bot.render import coach_pictures
    except Exception:  # pictures are optional, as for the boards (bot.service.rendering)
        return None
    return coach_pictures


async def in_thread(fn: Callable[..., R], *args: Any, **kwargs: Any) -> R:
    """Run a picture-drawing function in a thread (Pillow releases the GIL while it works)."""
    return await asyncio.to_thread(functools.partial(fn, *args, **kwargs))
