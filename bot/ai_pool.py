"""The AI runner: how the service asks the engine's AI for a turn without blocking.

The service depends only on the :class:`AiRunner` protocol; the default
:class:`ProcessPoolAiRunner` runs :func:`engine.ai.think` in worker processes
(``SEEGA_AI_WORKERS`` of them), so a long search never stalls the event loop or the GIL.
:class:`ThreadAiRunner` runs it in a thread, for tests and the console where a second
process is not worth its start-up time.

A worker process can die (the OOM killer, a SIGKILL). A :class:`ProcessPoolExecutor` with
a dead worker is broken for good: every later call raises ``BrokenProcessPool``. The pool
runner therefore replaces a broken pool and asks again; when even fresh pools keep dying
it raises :class:`AiUnavailableError`, and the service lets the game wait and retries
later instead of playing some other move in the AI's name.

A worker can also hang without dying (stopped by SIGSTOP, stuck in a bug): its job never
answers. Once a job has been in a worker far longer than its own time budget allows
(:func:`ai_time_limit`), the pool is replaced (the hung worker killed) and the AI is
unavailable, as above. Other callers' jobs that the replaced pool dropped or lost are
asked again in the new pool: none reaches its caller as a ``CancelledError``.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol, TypeVar

from engine.ai import TurnRequest, position_value, think
from engine.ai.levels import LEVEL_TABLE

log = logging.getLogger(__name__)

_A = TypeVar("_A")
_T = TypeVar("_T")


class AiUnavailableError(RuntimeError):
    """The AI could not answer: its worker processes died on every attempt."""


class _PoolReplacedError(Exception):
    """A job was cancelled by its pool's shutdown (the pool replaced, or closed)."""


class AiRunner(Protocol):
    """Chooses the AI's whole turn (a placement pair, a capture chain) as action texts."""

    async def choose_turn(self, request: TurnRequest) -> list[str]:
        """The actions of the AI's turn for ``request``."""
        ...

    async def evaluate(self, request: TurnRequest) -> int:
        """:func:`engine.ai.position_value`: the AI's value of the position for the side to act."""
        ...

    def close(self) -> None:
        """Release workers."""
        ...


#: Seconds any AI job may take in a worker beyond what its budget explains (a fresh
#: worker loading its tables, a machine under load) before the worker is taken as hung.
AI_TIME_MARGIN = 60.0
#: Actions' budgets a job may use: a turn costs about one action's budget (the search's
#: line usually holds the rest of the turn), each action searched afresh another one.
AI_TIME_ACTIONS = 10
#: Seconds a coach's job (a review's position, a hint) may take in a worker: their node
#: budgets (8,000 to 12,000 nodes a search) take under half a second on a 9x9 board, so
#: this is over a hundred times that.
AI_JOB_SECONDS = AI_TIME_MARGIN
#: How often (seconds) a job waiting for a free worker is looked at: its time limit runs
#: from when a worker takes it, not from when it was asked for.
AI_POLL_SECONDS = 0.5


def ai_time_limit(request: TurnRequest) -> float:
    """Seconds a worker may spend on ``request`` before it is taken as hung: far above its
    budget (the level's time per action, the longer one for a late placement, or the
    budget the request names), :data:`AI_TIME_ACTIONS` actions of it and
    :data:`AI_TIME_MARGIN` on top (easy: 70 s; expert: 150 s)."""
    level = LEVEL_TABLE.get(request.level, LEVEL_TABLE["expert"])
    per_action_ms = (request.movetime_ms or level.movetime_ms) * max(1.0, level.focus)
    return AI_TIME_MARGIN + AI_TIME_ACTIONS * per_action_ms / 1000


def default_workers() -> int:
    """``SEEGA_AI_WORKERS`` if set, else the number of CPU cores."""
    value = os.environ.get("SEEGA_AI_WORKERS", "").strip()
    if value:
        try:
            return max(1, int(value))
        except ValueError:
            log.warning("SEEGA_AI_WORKERS=%r is not a number; using the CPU count", value)
    return os.cpu_count() or 1


class _ExecutorAiRunner:
    """Runs :func:`engine.ai.think` (or ``search``, a picklable stand-in) in an executor."""

    def __init__(self, executor: Executor, search: Callable[[TurnRequest], list[str]] = think) -> None:
        self._executor = executor
        self.search = search

    async def choose_turn(self, request: TurnRequest) -> list[str]:
        """Run the search in the executor and wait for it without blocking the loop."""
        return await self._run(self.search, request)

    async def evaluate(self, request: TurnRequest) -> int:
        """Run :func:`engine.ai.position_value` in the executor."""
        return await self._run(position_value, request)

    async def _run(self, work: Callable[[TurnRequest], _T], request: TurnRequest) -> _T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, work, request)

    def executor(self) -> Executor:
        """The executor the searches run in (the coach runs its analyses there too, but
        for the process pool's, which it reaches through :meth:`ProcessPoolAiRunner.run`)."""
        return self._executor

    def close(self) -> None:
        """Shut the executor down (running searches finish first)."""
        self._executor.shutdown(wait=True, cancel_futures=True)


class ProcessPoolAiRunner(_ExecutorAiRunner):
    """The default runner: a pool of ``workers`` processes (``SEEGA_AI_WORKERS``).

    Workers are started by a fork server (spawned where there is none): forking the
    bot itself would copy a process that runs threads (the database's, the gateway's)
    and could inherit a lock some thread held at that instant.
    """

    #: Fresh pools tried for one request before giving up (each after a worker died).
    ATTEMPTS = 3

    def __init__(self, workers: int | None = None, search: Callable[[TurnRequest], list[str]] = think) -> None:
        self.workers = workers or default_workers()
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        self._context = multiprocessing.get_context(method)
        #: How many broken pools were replaced (for logs and tests).
        self.restarts = 0
        #: Jobs handed to a pool and not known to be finished, in the order handed in.
        self._jobs: list[tuple[Executor, Future[Any]]] = []
        super().__init__(self._new_pool(), search)
        log.info("AI pool: %d worker processes (%s)", self.workers, method)

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=self._context)

    def time_limit(self, request: TurnRequest) -> float:
        """Seconds a worker may spend on ``request`` before it is taken as hung (:func:`ai_time_limit`)."""
        return ai_time_limit(request)

    async def _run(self, work: Callable[[TurnRequest], _T], request: TurnRequest) -> _T:
        """Run ``work`` in a worker within :meth:`time_limit` (see :meth:`_in_worker`)."""
        return await self._in_worker(work, request, self.time_limit(request))

    async def run(self, fn: Callable[[_A], _T], arg: _A) -> _T:
        """A coach's job in a worker, within :data:`AI_JOB_SECONDS` (see :meth:`_in_worker`)."""
        return await self._in_worker(fn, arg, AI_JOB_SECONDS)

    async def call(self, work: Callable[[_A], _T], arg: _A, limit: float) -> _T:
        """``work(arg)`` in a worker within ``limit`` seconds: what ``seega-bot worker``
        runs its queue's jobs with, so a search process that dies or hangs there is
        replaced as here (outside review atk41a: it failed every later job for ever)."""
        return await self._in_worker(work, arg, limit)

    def abandon(self) -> None:
        """Stop at once: drop waiting jobs and kill the worker processes (a worker
        shutting down must not wait for a search that may hang)."""
        _kill(self._executor)

    async def _in_worker(self, work: Callable[[_A], _T], arg: _A, limit: float) -> _T:
        """Run ``work`` in a worker; if the pool is broken, replace it and ask again.

        A job still waiting in a pool that was replaced because of some other job (one
        that hung) is cancelled by that pool's shutdown: it is asked again in the new
        pool, as when a worker dies, and never reaches the caller as ``CancelledError``
        (a task nobody cancelled: the scheduler's loop ended on it for good).

        Raises:
            AiUnavailableError: a worker died in each of :data:`ATTEMPTS` pools, or the
                worker hung (no answer within ``limit`` seconds; the pool is replaced).
        """
        for attempt in range(1, self.ATTEMPTS + 1):
            pool = self._executor
            try:
                return await self._answer(pool, self._submit(pool, work, arg), limit)
            except BrokenProcessPool:
                log.warning("an AI worker process died (attempt %d of %d); starting a new pool", attempt, self.ATTEMPTS)
                self._replace(pool)
            except _PoolReplacedError:
                if self._executor is pool:  # shut down by close(), not replaced
                    raise AiUnavailableError("the AI pool was shut down") from None
                log.warning("an AI job was dropped with its pool (attempt %d of %d); retrying", attempt, self.ATTEMPTS)
            except TimeoutError:
                # Not asked again: the job itself may be what hangs the worker.
                log.error("an AI worker gave no answer in %.0f s: it hangs; starting a new pool", limit)
                self._replace(pool)
                raise AiUnavailableError("an AI worker process hung") from None
        raise AiUnavailableError(f"AI worker processes died {self.ATTEMPTS} times in a row")

    def _submit(self, pool: Executor, work: Callable[[_A], _T], arg: _A) -> Future[_T]:
        """Hand ``work`` to ``pool``, remembering the order jobs were handed in (see
        :meth:`_in_a_worker`)."""
        job = pool.submit(work, arg)
        self._jobs = [(p, j) for p, j in self._jobs if not j.done()]
        self._jobs.append((pool, job))
        return job

    def _in_a_worker(self, pool: Executor, job: Future[Any]) -> bool:
        """Whether a worker of ``pool`` has taken ``job``: its time limit runs from then.

        ``job.running()`` alone is not enough: it is true as soon as the job is in the
        executor's call queue, which holds one job more than there are workers, so a
        short job waiting behind a long healthy one was timed as if it ran, taken as
        hung and the healthy search killed with its pool (outside review, atk40b). The
        executor hands jobs to its workers in the order they were submitted, so a job
        is in a worker once fewer than ``workers`` jobs submitted before it to the same
        pool are unfinished. (Measured here, in the bot's process: a worker reporting
        its own start would need shared memory passed to every job; this errs only on
        the generous side, by the time a result takes to come back.)
        """
        if not job.running():
            return False
        ahead = 0
        for other_pool, other in self._jobs:
            if other is job:
                return ahead < self.workers
            if other_pool is pool and not other.done():
                ahead += 1
        return True

    async def _answer(self, pool: Executor, job: Future[_T], limit: float) -> _T:
        """The job's answer; ``TimeoutError`` once it has been in a worker for ``limit``
        seconds (the time it waited for a free worker does not count, see
        :meth:`_in_a_worker`); :class:`_PoolReplacedError` if its pool dropped it."""
        loop = asyncio.get_running_loop()
        answer = asyncio.wrap_future(job)
        started: float | None = None
        try:
            while True:
                if started is None and self._in_a_worker(pool, job):
                    started = loop.time()
                step = AI_POLL_SECONDS if started is None else started + limit - loop.time()
                if step <= 0:
                    raise TimeoutError
                done, _ = await asyncio.wait({answer}, timeout=step)
                if done:
                    if job.cancelled():
                        # asyncio.wait returned, so this task was not cancelled: the
                        # pool's shutdown cancelled the job (see _in_worker).
                        raise _PoolReplacedError
                    return answer.result()
        except BaseException:
            answer.cancel()  # a job not started yet is dropped; a running one cannot be stopped
            raise

    def _replace(self, broken: Executor) -> None:
        """Put a fresh pool in place of ``broken`` (once, however many requests saw it break)."""
        if self._executor is not broken:
            return
        self._executor = self._new_pool()
        self.restarts += 1
        _kill(broken)


def _kill(pool: Executor) -> None:
    """Shut ``pool`` down without waiting and kill its worker processes.

    A dead worker may have died holding the task queue's lock: the survivors then wait
    for it for ever, and CPython 3.11's executor joins them at exit, so the process would
    never end. A hung one never ends by itself. They belong to a pool given up anyway.
    """
    survivors = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in survivors:
        if process.is_alive():
            process.kill()


class ThreadAiRunner(_ExecutorAiRunner):
    """Runs the AI in one background thread (tests, the console)."""

    def __init__(self) -> None:
        super().__init__(ThreadPoolExecutor(max_workers=1, thread_name_prefix="seega-ai"))
