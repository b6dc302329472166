"""The AI runner: how the service asks the engine's AI for a turn without blocking.

The service depends only on the :class:`AiRunner` protocol; the default
:class:`ProcessPoolAiRunner` runs :func:`engine.ai.think` in worker processes
(``SEEGA_AI_WORKERS`` of them), so a long search never stalls the event loop or the GIL.
:class:`ThreadAiRunner` runs it in a thread, for tests and the console where a second
process is not worth its start-up time.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Protocol

from engine.ai import TurnRequest, think

log = logging.getLogger(__name__)


class AiRunner(Protocol):
    """Chooses the AI's whole turn (a placement pair, a capture chain) as action texts."""

    async def choose_turn(self, request: TurnRequest) -> list[str]:
        """The actions of the AI's turn for ``request``."""
        ...

    def close(self) -> None:
        """Release workers."""
        ...


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
    """Runs :func:`engine.ai.think` in an executor."""

    def __init__(self, executor: Executor) -> None:
        self._executor = executor

    async def choose_turn(self, request: TurnRequest) -> list[str]:
        """Run the search in the executor and wait for it without blocking the loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, think, request)

    def executor(self) -> Executor:
        """The executor the searches run in (the coach runs its analyses there too)."""
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

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or default_workers()
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        context = multiprocessing.get_context(method)
        super().__init__(ProcessPoolExecutor(max_workers=self.workers, mp_context=context))
        log.info("AI pool: %d worker processes (%s)", self.workers, method)


class ThreadAiRunner(_ExecutorAiRunner):
    """Runs the AI in one background thread (tests, the console)."""

    def __init__(self) -> None:
        super().__init__(ThreadPoolExecutor(max_workers=1, thread_name_prefix="seega-ai"))
