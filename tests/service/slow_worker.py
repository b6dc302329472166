"""A real ``seega-bot worker`` whose search never ends.

Run as ``python -m tests.service.slow_worker URL HEARTBEAT [TIME_LIMIT]``.

The queue, the heartbeat and the job handling are the real ``bot.ai_jobs.serve_forever``; only
the engine's search is replaced by one that sleeps, so a test can SIGKILL the worker
while it holds a job, deterministically.
"""

from __future__ import annotations

import asyncio
import sys
import time

from bot import ai_jobs


def slow_turn(payload: bytes) -> bytes:
    """Think forever (until killed), in the worker's search process."""
    time.sleep(3600)
    raise AssertionError("unreachable")


if __name__ == "__main__":
    ai_jobs.run_turn = slow_turn
    ai_jobs.run_call = slow_turn  # a named call (a position's value, a hint) never ends either
    limit = {"time_limit": float(sys.argv[3])} if len(sys.argv) > 3 else {}
    asyncio.run(ai_jobs.serve_forever(sys.argv[1], 1, heartbeat=float(sys.argv[2]), **limit))
