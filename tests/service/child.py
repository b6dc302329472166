"""Child processes for the multi-process tests (run as ``python -m tests.service.child``).

``DB`` is a SQLite path or a PostgreSQL URL.

``move DB CHANNEL USER MOVE GOFILE N``: open a service, wait for GOFILE to exist, then fire
N concurrent identical moves and print how many were applied.

``play DB SEED``: play random hot-seat games in four channels forever (the crash test
kills it), continuing the games it finds in the database.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path

from bot.results import Player, ServiceError
from bot.service.limits import LimitError, Limits
from bot.storage import is_postgres_url
from tests.service.helpers import ALICE, BOB, GUILD, Db, close_service, make_service, play_action, start_people

CHANNELS = (1, 2, 3, 4)


def db_target(text: str) -> Db:
    """The database named on the command line: a PostgreSQL URL stays text, else a path."""
    return text if is_postgres_url(text) else Path(text)


async def move(db: str, channel: int, user: int, text: str, gofile: str, n: int) -> None:
    service = await make_service(db_target(db))
    print("ready", flush=True)
    while not os.path.exists(gofile):
        await asyncio.sleep(0.001)

    async def attempt() -> bool:
        try:
            await service.move(channel, user, text)
        except ServiceError:
            return False
        return True

    results = await asyncio.gather(*(attempt() for _ in range(n)))
    print(sum(results), flush=True)
    await close_service(service)


async def play(db: str, seed: int, ready: Callable[[], object] = lambda: print("ready", flush=True)) -> None:
    """Play random hot-seat games in four channels forever, continuing stored ones."""
    rng = random.Random(seed)
    # A kill can leave a challenge open; the table withdraws it and challenges again at
    # once, which the hold after a withdrawal (docs/limits.md) would refuse for 2 minutes.
    service = await make_service(db_target(db), seed=seed, limits=Limits(rechallenge_after=0))
    ready()

    async def table(channel: int) -> None:
        while True:
            try:
                result = await service.board(channel)
            except ServiceError:
                # a pair of players per table: one person may have one challenge pending
                # to the same opponent at a time (docs/limits.md)
                black = Player(ALICE.user_id + 10 * channel, f"{ALICE.name} {channel}")
                try:
                    result = await start_people(service, channel, black, BOB)
                except LimitError:  # a kill left its challenge open: withdraw it and start again
                    for c in await service.storage.pending_challenges_from(GUILD, black.user_id, service.clock.now()):
                        await service.decline_challenge(c.id, black.user_id)
                    result = await start_people(service, channel, black, BOB)
            while result.game_over is None and result.to_move is not None:
                result = await play_action(service, channel, result.to_move.user_id, rng.choice(result.legal))

    await asyncio.gather(*(table(c) for c in CHANNELS))


if __name__ == "__main__":
    if sys.argv[1] == "move":
        asyncio.run(move(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6], int(sys.argv[7])))
    else:
        asyncio.run(play(sys.argv[2], int(sys.argv[3])))
