"""Calibrate the win-chance scale of engine/ai/analysis.py from self-play.

Plays seeded games between AI players (easy vs medium and medium vs medium, so both
balanced and lopsided games occur), analyses the movement-phase positions at the
review budget, and fits SCALE in ``1 / (1 + exp(-score / SCALE))`` to the final results
by maximum likelihood (a grid search). Prints the fit; docs/coach.md records it.

Run: ``nice -n 10 python -m bench.coach_calibrate [games] [size]``.
"""

from __future__ import annotations

import argparse
import math
import time

from engine.ai import best_turn
from engine.ai.analysis import analyse
from engine.ai.search import WIN_BOUND
from engine.position import Position
from engine.rules import Ruleset


def play(seed: int, size: int) -> tuple[list[tuple[int, int]], float]:
    """(samples of (side to act, score), Black's final score) for one seeded game."""
    rules = Ruleset.make("standard", size)
    pos = Position(rules)
    levels = ("easy", "medium") if seed % 2 else ("medium", "easy") if seed % 4 == 2 else ("medium", "medium")
    samples: list[tuple[int, int]] = []
    turns = 0
    while pos.result is None and turns < 300:
        if pos.phase == "m" and turns % 3 == 0:
            a = analyse(pos, max_nodes=4000)
            if abs(a.score) < WIN_BOUND:
                samples.append((a.side, a.score))
        for action in best_turn(pos, levels[pos.side], None, seed * 1000 + turns):
            pos.push(action)
        turns += 1
    if pos.result is None or pos.result.winner is None:
        return samples, 0.5
    return samples, 1.0 if pos.result.winner == 0 else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.coach_calibrate", description=__doc__.split("\n")[0])
    parser.add_argument("games", type=int, nargs="?", default=24, help="seeded games to play")
    parser.add_argument("size", type=int, nargs="?", default=5, choices=(5, 7, 9), help="board size")
    args = parser.parse_args()
    games, size = args.games, args.size
    start = time.perf_counter()
    data: list[tuple[int, float]] = []
    for seed in range(games):
        samples, black = play(seed, size)
        for side, score in samples:
            data.append((score, black if side == 0 else 1.0 - black))
    best = (float("inf"), 0.0)
    for scale in range(50, 1001, 10):
        nll = 0.0
        for score, outcome in data:
            p = min(1 - 1e-6, max(1e-6, 1 / (1 + math.exp(-score / scale))))
            nll -= outcome * math.log(p) + (1 - outcome) * math.log(1 - p)
        best = min(best, (nll / max(1, len(data)), float(scale)))
    print(
        f"{games} games {size}x{size}, {len(data)} positions, best SCALE {best[1]:.0f} "
        f"(mean log-loss {best[0]:.3f}) in {time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
