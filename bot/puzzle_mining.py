"""``seega-bot mine-puzzles --out FILE``: puzzles from the games people finished.

The shipped bank (``engine/coach/puzzles.json``) is mined from seeded self-play; the
games played on a server hold positions self-play never reaches. This command reads the
finished games of the bot's own database (``SEEGA_DB``: SQLite or PostgreSQL, through
the storage layer, never written), mines each with the engine's miner
(:func:`engine.coach.mine.mine_actions`: the same screening, deep verification and
grading) and writes a bank file that ``python -m engine.coach.mine --merge`` joins to
the shipped one. Deterministic: games in id order, node-limited searches.

Only positions and moves leave the database: a puzzle's ``source`` is the game's number
and turn, no guild, channel or player.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from bot.service.coach_common import rules_of
from bot.storage import GameRow, Storage
from engine.coach.mine import Filters, mine_actions
from engine.coach.puzzles import Puzzle
from engine.errors import SeegaError

#: The deep verification budget (nodes), as for the shipped bank.
DEEP_NODES = 60_000


async def finished_games(database: str) -> list[GameRow]:
    """Every finished game of ``database``, oldest first (read only)."""
    storage = await Storage.open(database)
    try:
        return await storage.all_games("finished")
    finally:
        await storage.close()


def mine_rows(rows: Sequence[GameRow], deep_nodes: int = DEEP_NODES, filters: Filters | None = None) -> list[Puzzle]:
    """The verified puzzles of ``rows``, numbered ``db-<variant><size>-NNNN`` in game order,
    each position once. CPU-heavy: run it outside any event loop (it is a batch command)."""
    found: list[Puzzle] = []
    seen: set[str] = set()
    counts: dict[str, int] = {}
    for row in sorted(rows, key=lambda r: r.id):
        try:
            rules = rules_of(row)
            mined = mine_actions(rules, row.action_list, deep_nodes, filters or Filters(), {"game": row.id}, row.setup)
        except SeegaError:
            continue  # a ruleset or setup this version cannot read: nothing to mine
        for p in mined:
            if p.spn in seen:
                continue
            seen.add(p.spn)
            prefix = f"db-{p.variant[:3]}{p.size}"
            counts[prefix] = counts.get(prefix, 0) + 1
            found.append(replace(p, id=f"{prefix}-{counts[prefix]:04d}"))
    return found


def write_bank(path: Path, puzzles: Sequence[Puzzle], games: int) -> None:
    """Write ``puzzles`` in the bank's layout (what ``--merge`` reads)."""
    data = {
        "tool": "seega-bot mine-puzzles",
        "args": {"games": games, "deep_nodes": DEEP_NODES},
        "puzzles": [p.to_dict() for p in puzzles],
    }
    path.write_text(json.dumps(data, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
