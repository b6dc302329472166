"""Puzzles mined from the games people finished (``seega-bot mine-puzzles``), on a real
database written by the service."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path

import pytest

from bot.app import main
from bot.puzzle_mining import finished_games, mine_rows
from bot.service import GameService
from bot.storage import Storage
from engine.coach.puzzles import Puzzle, check, load_bank
from tests.service.helpers import ALICE, BOB, insert_from, play_action


def _shipped(theme: str) -> Puzzle:
    return next(p for p in load_bank() if (p.variant, p.size, p.theme) == ("standard", 5, theme))


async def test_a_finished_game_gives_the_puzzle_it_holds(service: GameService, db_path: object) -> None:
    """A game reaches a shipped puzzle's position, the player finds the capture, the game
    is resigned: mining the database finds that puzzle again, with where it came from;
    a game still in play is not read."""
    puzzle = _shipped("capture")
    mover = BOB if puzzle.spn.split()[1] == "w" else ALICE
    game_id = await insert_from(service, 1, puzzle.spn)
    for action in puzzle.solution:
        await play_action(service, 1, mover.user_id, action)
    await service.resign(1, ALICE.user_id)
    await insert_from(service, 2, puzzle.spn)  # the same position, still in play
    rows = await finished_games(str(db_path))
    assert [r.id for r in rows] == [game_id]
    found = mine_rows(rows)
    assert found, "the puzzle's position was not found"
    first = found[0]
    assert (first.spn, first.solution) == (puzzle.spn, puzzle.solution)
    assert first.id == "db-sta5-0001" and first.source == {"game": game_id, "turn": int(puzzle.spn.split()[-1])}
    assert check(first).ok, "a mined puzzle passes the shipped bank's verification"
    assert mine_rows(rows) == found, "the same database gives the same bank"
    broken = [replace(rows[0], setup="not a position"), replace(rows[0], variant="no-such-rules"), rows[0]]
    assert mine_rows(broken) == found, "a game that cannot be read is skipped, the others mined"


def test_the_command_writes_a_bank_and_refuses_a_missing_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SEEGA_DB", str(tmp_path / "absent.db"))
    out = tmp_path / "bank.json"
    assert main(["mine-puzzles", "--out", str(out), "--env-file", str(tmp_path / "none.env")]) == 2
    assert "no database at" in capsys.readouterr().err and not (tmp_path / "absent.db").exists()
    assert main(["mine-puzzles", "--env-file", str(tmp_path / "none.env")]) == 2
    assert "needs --out" in capsys.readouterr().err
    db = tmp_path / "seega.db"
    asyncio.run(_create(db))
    monkeypatch.setenv("SEEGA_DB", str(db))
    assert main(["mine-puzzles", "--out", str(out), "--env-file", str(tmp_path / "none.env")]) == 0
    bank = json.loads(out.read_text(encoding="utf-8"))
    assert bank["puzzles"] == [] and bank["args"]["games"] == 0


async def _create(path: Path) -> None:
    storage = await Storage.open(path)
    await storage.close()
