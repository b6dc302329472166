"""A real ``seega-bot worker`` whose search answers garbage (a worker of another release,
a broken one): run as ``python -m tests.service.garbage_worker URL``. The queue and the
bookkeeping are the real ``bot.ai_jobs``; only the search of a turn is replaced.
"""

from __future__ import annotations

import asyncio
import sys

from bot import ai_jobs


def garbage_turn(payload: bytes) -> bytes:
    """Not a turn in any game."""
    return b"zz99 ??"


if __name__ == "__main__":
    ai_jobs.run_turn = garbage_turn
    asyncio.run(ai_jobs.serve_forever(sys.argv[1], 1, heartbeat=1.0))
