"""Engine speed: perft (make/unmake and bulk-counted), random playouts, and python-chess for scale.

Times are CPU seconds of this process (``time.process_time``), so that other work on
the machine disturbs the figures less. Run: ``.venv/bin/python -m bench.engine``
(python-chess is a benchmark-only dependency: ``pip install -e '.[bench]'``). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from engine import Position, Ruleset
from engine.playout import random_playout

#: Fixed movement-phase positions, reached by seeded random play (see git history).
POSITIONS = {
    5: "b1bbb/bb1bb/w4/www1b/ww2w w m 0/0 - 0 85",
    7: "wbbwwwb/1w1bbb1/3bbbb/www2w1/w1bww1w/bw3b1/bwwww1w b m 0/0 - 0 72",
    9: "bwbwwbwbb/1bww3ww/3w1b1ww/wbb1w2bb/wb2b1bb1/bb1w1w1b1/bbbww1ww1/wwwwww3/wbbbbwbww w m 0/0 - 0 101",
}
DEPTHS = {5: 5, 7: 4, 9: 3}


def make_unmake_perft(pos: Position, depth: int) -> int:
    """Perft that pushes and pops at every node, leaves included (nodes = pushes)."""
    if depth == 0:
        return 1
    total = 0
    push, pop = pos.push_code, pos.pop
    for code in pos.legal_codes():
        push(code)
        total += make_unmake_perft(pos, depth - 1)
        pop()
    return total


def chess_perft(board: object, depth: int) -> int:
    """The same make/unmake perft with python-chess."""
    if depth == 0:
        return 1
    total = 0
    for move in list(board.legal_moves):  # type: ignore[attr-defined]
        board.push(move)  # type: ignore[attr-defined]
        total += chess_perft(board, depth - 1)
        board.pop()  # type: ignore[attr-defined]
    return total


def best_of(runs: int, fn: Callable[[], int]) -> tuple[int, float]:
    """Run ``fn`` ``runs`` times; return its count and the fastest time (as timeit does:
    the other runs measure what else the machine was doing)."""
    times, count = [], 0
    for _ in range(runs):
        t = time.process_time()
        count = fn()
        times.append(time.process_time() - t)
    return count, min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--playouts", type=int, default=300)
    args = parser.parse_args()

    print("perft, standard rules, movement phase")
    print(f"{'size':>4} {'depth':>5} {'nodes':>10} {'make/unmake n/s':>16} {'leaves':>10} {'bulk leaves/s':>14}")
    seega_rate = {}
    for n, spn in POSITIONS.items():
        pos = Position.from_spn(spn, Ruleset.make("standard", n))
        depth = DEPTHS[n]
        nodes, secs = best_of(args.runs, lambda p=pos, d=depth: make_unmake_perft(p, d))
        leaves, bsecs = best_of(args.runs, lambda p=pos, d=depth: p.perft(d))
        seega_rate[n] = nodes / secs
        print(f"{n:>4} {depth:>5} {nodes:>10} {nodes / secs:>16,.0f} {leaves:>10} {leaves / bsecs:>14,.0f}")

    try:
        import chess
    except ImportError:
        print("python-chess not installed (pip install -e '.[bench]'): no comparison")
    else:
        board = chess.Board()
        nodes, secs = best_of(args.runs, lambda: chess_perft(board, 3))
        rate = nodes / secs
        print(f"python-chess {chess.__version__} make/unmake perft(3) from the start: {nodes} nodes, {rate:,.0f} n/s")
        for n, r in seega_rate.items():
            print(f"  Seega {n}x{n} / python-chess: {r / rate:.2f}x")

    print(f"random playouts from the start, {args.runs} batches with seeds 1..{args.runs}: best batch (mean)")
    for variant, n in (("standard", 5), ("ludii", 5), ("standard", 7)):
        rules = Ruleset.make(variant, n)
        count = args.playouts if n == 5 else max(10, args.playouts // 10)
        rates, actions = [], 0
        for seed in range(1, args.runs + 1):
            rng = random.Random(seed)
            t = time.process_time()
            for _ in range(count):
                actions += random_playout(rules, rng)[1]
            rates.append(count / (time.process_time() - t))
        mean = sum(rates) / len(rates)
        per = actions / (count * args.runs)
        print(f"  {variant:<9} {n}x{n}: {max(rates):8.1f} ({mean:.1f}) playouts/s, {per:6.1f} actions/playout")


if __name__ == "__main__":
    main()
