"""Random commands, legal and not, from players and onlookers: a refused command never changes
the database, an accepted one always leaves a record that replays to the stored position."""

from __future__ import annotations

import random

from bot.results import ServiceError
from bot.service import GameService
from engine import Position, Ruleset
from tests.service.helpers import ALICE, BOB, CAROL, MOD, Db, query, start_people

CELLS = [f"{f}{r}" for f in "abcdef" for r in range(1, 7)] + ["", "zz", "a0", "b2 c2 d2"]


def _game_row(db: Db) -> tuple[object, ...]:
    return query(db, "SELECT actions, spn, status, result, version FROM games ORDER BY id DESC LIMIT 1")[0]


def _replays(row: tuple[object, ...], variant: str) -> bool:
    actions, spn = str(row[0]), str(row[1])
    pos = Position(Ruleset.make(variant, 5))
    for a in actions.split():
        pos.play(a)
    return pos.spn() == spn


async def _random_command(service: GameService, rng: random.Random, user: int) -> None:
    kind = rng.random()
    if kind < 0.3:
        await service.place(1, user, rng.choice(CELLS), rng.choice([None, rng.choice(CELLS)]))
    elif kind < 0.75:
        await service.move(1, user, rng.choice(CELLS), rng.choice([None, rng.choice(CELLS)]))
    elif kind < 0.85:
        await service.remove(1, user, rng.choice(CELLS))
    elif kind < 0.99:
        await service.end_turn(1, user)
    else:
        await service.resign(1, user)


async def test_random_commands_keep_the_database_consistent(service: GameService, db_path: Db) -> None:
    rng = random.Random(11)
    refused = accepted = 0
    for variant in ("standard", "seejeh", "fouze", "lane"):
        result = await start_people(service, 1, ALICE, BOB, 5, variant)
        for _ in range(400):
            if result.game_over is not None or result.to_move is None:
                break
            before = _game_row(db_path)
            if rng.random() < 0.5:  # half the time a legal action of the player to move
                action = rng.choice(result.legal)
                user = result.to_move.user_id
                try:
                    if action in ("end", "pass"):
                        result = await service.end_turn(1, user)
                    elif action.startswith("x"):
                        result = await service.remove(1, user, action[1:])
                    elif "-" in action:
                        result = await service.move(1, user, action)
                    else:
                        result = await service.place(1, user, action)
                except ServiceError as exc:
                    raise AssertionError(f"the legal action {action} was refused: {exc}") from None
                accepted += 1
                assert _replays(_game_row(db_path), variant)
                continue
            try:
                await _random_command(service, rng, rng.choice([ALICE, BOB, CAROL]).user_id)
            except ServiceError as exc:
                refused += 1
                assert str(exc) and _game_row(db_path) == before
                continue
            accepted += 1
            row = _game_row(db_path)
            assert row != before and _replays(row, variant)
            result = await service.board(1) if row[2] == "active" else result
            if row[2] != "active":
                break
        if (await service.game(1)) is not None:
            await service.cancel(1, MOD)
    assert refused > 100 and accepted > 100
