"""Match two checkouts of the engine against each other (not a test; prints a score).

Usage (from the repository root)::

    git archive OLD_COMMIT engine | tar -x -C /tmp/old      # a copy of another version
    nice -n 10 .venv/bin/python -m bench.versus --a . --b /tmp/old --games 16 \\
        --level hard --movetime 200 --variant standard --size 5

Each side runs in its own worker process with its own ``engine`` package (``--a`` and
``--b`` are directories holding one), and answers :func:`engine.ai.think` requests, so
two versions of the AI play through the public API with their own warm state. Openings
are ``--opening`` random placements seeded by ``--seed``; each is played twice with the
colours swapped. Games longer than ``--max-turns`` are adjudicated on pieces.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def worker(root: str) -> int:
    """Answer one JSON request per line with the AI's turn (a JSON list of actions)."""
    sys.path.insert(0, str(Path(root).resolve()))
    from engine.ai import TurnRequest, think

    for line in sys.stdin:
        req = json.loads(line)
        req["options"] = tuple(req.get("options", ()))
        req["actions"] = tuple(req["actions"])
        print(json.dumps(think(TurnRequest(**req))), flush=True)
    return 0


class Player:
    """A worker process running one version of the engine."""

    def __init__(self, root: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", root],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def turn(self, request: dict[str, object]) -> list[str]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        answer: list[str] = json.loads(self.proc.stdout.readline())
        return answer

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--a", default=str(ROOT), help="directory holding version A's engine package")
    parser.add_argument("--b", required=False, help="directory holding version B's engine package")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--level-b", default=None, help="B's level (default: --level)")
    parser.add_argument("--movetime", type=int, default=200)
    parser.add_argument("--movetime-b", type=int, default=None)
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opening", type=int, default=4)
    parser.add_argument("--max-turns", type=int, default=300)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args.worker)
    sys.path.insert(0, str(ROOT))
    from engine import Position, Ruleset

    rules = Ruleset.make(args.variant, args.size)
    players = {"A": Player(args.a), "B": Player(args.b or args.a)}
    settings = {
        "A": (args.level, args.movetime),
        "B": (args.level_b or args.level, args.movetime_b or args.movetime),
    }
    points = 0.0
    by_colour = {"black": 0.0, "white": 0.0}
    t0 = time.perf_counter()
    for g in range(args.games):
        rng = random.Random(args.seed * 1000 + g // 2)
        pos = Position(rules)
        actions: list[str] = []
        for _ in range(args.opening):
            action = pos.legal_actions()[rng.randrange(len(pos.legal_actions()))]
            pos.push(action)
            actions.append(str(action))
        a_black = g % 2 == 0
        while pos.result is None and pos.turn <= args.max_turns:
            who = "A" if (pos.side == 0) == a_black else "B"
            level, movetime = settings[who]
            request = {
                "variant": args.variant,
                "size": args.size,
                "actions": actions,
                "level": level,
                "movetime_ms": movetime,
                "seed": args.seed * 7919 + g * 131 + pos.turn,
            }
            for text in players[who].turn(request):
                pos.play(text)
                actions.append(text)
        if pos.result is not None:
            winner = pos.result.winner
        else:
            b, w = pos.count(0), pos.count(1)
            winner = 0 if b > w else 1 if w > b else None
        a_colour = 0 if a_black else 1
        score = 0.5 if winner is None else (1.0 if winner == a_colour else 0.0)
        points += score
        by_colour["black" if a_black else "white"] += score
        reason = pos.result.reason if pos.result is not None else "adjudicated"
        print(
            f"game {g + 1}: A as {'black' if a_black else 'white'} scores {score} ({reason}, "
            f"{pos.count(0)}-{pos.count(1)}, turn {pos.turn}); A {points}/{g + 1}",
            flush=True,
        )
    for p in players.values():
        p.close()
    print(
        f"A {points}/{args.games} ({100 * points / max(1, args.games):.0f}%), as black {by_colour['black']}, "
        f"as white {by_colour['white']}; {time.perf_counter() - t0:.0f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
