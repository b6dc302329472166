"""Searches for the AI pool's worker processes in tests (module level, so they pickle)."""

from __future__ import annotations

import os
import signal
import time

from engine.ai import TurnRequest, think


def die(request: TurnRequest) -> list[str]:
    """Kill the worker process running it, as the OOM killer would: no answer, ever."""
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable: the process was killed")


#: The seed of a request :func:`hang_on_seed` hangs on.
HANG_SEED = 666


def hang_on_seed(request: TurnRequest) -> list[str]:
    """The real search, except that a request with :data:`HANG_SEED` stops the worker
    (SIGSTOP: alive but hung, as a stuck process is) until someone sends it SIGCONT."""
    if request.seed == HANG_SEED:
        os.kill(os.getpid(), signal.SIGSTOP)
    return think(request)


def nap(seconds: float) -> float:
    """A healthy job: sleep ``seconds`` and answer them."""
    time.sleep(seconds)
    return seconds


def hang(seconds: float) -> float:
    """A job that hangs its worker (SIGSTOP) until someone sends it SIGCONT."""
    os.kill(os.getpid(), signal.SIGSTOP)
    return seconds
