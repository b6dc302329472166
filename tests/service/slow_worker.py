"""A real ``seega-bot worker`` whose search never ends (run as ``python -m tests.service.slow_worker URL``).

The queue, the heartbeat and the job handling are the real ``bot.ai_jobs.serve``; only
the engine's search is replaced by one that sleeps, so a test can SIGKILL the worker
while it holds a job, deterministically.
"""

from __future__ import annotations

import asyncio
import sys
import time

from bot import ai_jobs
from engine.ai import TurnRequest


def slow_think(request: TurnRequest) -> list[str]:
    """Think forever (until killed)."""
    time.sleep(3600)
    raise AssertionError("unreachable")


if __name__ == "__main__":
    ai_jobs.think = slow_think  # type: ignore[assignment]
    asyncio.run(ai_jobs.serve(sys.argv[1], 1, heartbeat=float(sys.argv[2])))
