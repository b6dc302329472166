"""Shared helpers of the service tests: databases, players, scripted games, snapshots."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from bot.ai_pool import ThreadAiRunner
from bot.clock import FakeClock
from bot.results import Player, TurnResult
from bot.service import GameService
from bot.storage import NewGame, Storage
from engine import Position, Ruleset

GUILD = 10
ALICE = Player(101, "Alice")
BOB = Player(102, "Bob")
CAROL = Player(103, "Carol")

TABLES = ("games", "challenges", "ratings", "rating_history", "guild_settings", "schema_version")


def snapshot(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, for "the database did not change" checks."""
    conn = sqlite3.connect(path)
    try:
        out = {}
        for table in TABLES:
            out[table] = sorted(conn.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
        return out
    finally:
        conn.close()


async def make_service(path: Path, clock: FakeClock | None = None, seed: int = 1) -> GameService:
    """A service over a real SQLite file, a fake clock and the real AI in a thread."""
    storage = await Storage.open(path)
    return GameService(storage, ThreadAiRunner(), None, clock or FakeClock(), random.Random(seed))


async def close_service(service: GameService) -> None:
    """Close the database and the AI thread."""
    await service.storage.close()
    service.ai.close()


async def start_people(
    service: GameService,
    channel: int,
    black: Player = ALICE,
    white: Player = BOB,
    size: int = 5,
    variant: str = "standard",
) -> TurnResult:
    """A game between two people, ``black`` as Black, through challenge and accept."""
    ch = await service.challenge(GUILD, channel, black, white, size, variant, "black")
    return await service.accept_challenge(ch.challenge.id, white.user_id)


async def insert_from(
    service: GameService,
    channel: int,
    spn: str,
    black: Player = ALICE,
    white: Player = BOB,
    variant: str = "standard",
    size: int = 5,
    options: tuple[str, ...] = (),
    guild_id: int = GUILD,
) -> int:
    """Insert an active game that starts from the position ``spn`` (for chains, blocks...)."""
    rules = Ruleset.make(variant, size, list(options))
    pos = Position.from_spn(spn, rules)
    row = await service.storage.insert_game(
        NewGame(
            guild_id=guild_id,
            channel_id=channel,
            variant=variant,
            size=size,
            options=rules.options_text(),
            black_id=black.user_id,
            black_name=black.name,
            black_level=black.bot_level,
            white_id=white.user_id,
            white_name=white.name,
            white_level=white.bot_level,
            spn=pos.spn(),
            created_at=service.clock.now(),
            setup=pos.spn(),
        )
    )
    return row.id


async def play_action(service: GameService, channel: int, user_id: int, action: str) -> TurnResult:
    """Play one action text through the matching service command."""
    if action in ("end", "pass"):
        return await service.end_turn(channel, user_id)
    if action.startswith("x"):
        return await service.remove(channel, user_id, action[1:])
    if "-" in action:
        return await service.move(channel, user_id, action)
    return await service.place(channel, user_id, action)


async def play_out(
    service: GameService, channel: int, result: TurnResult, rng: random.Random, max_commands: int = 2000
) -> TurnResult:
    """Play random legal commands for whoever is to move until the game ends."""
    for _ in range(max_commands):
        if result.game_over is not None or result.to_move is None:
            return result
        action = rng.choice(result.legal)
        result = await play_action(service, channel, result.to_move.user_id, action)
    raise AssertionError("the game did not end")
