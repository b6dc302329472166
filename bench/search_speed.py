"""Search speed: fixed-depth searches from fixed positions (not a test; prints figures).

Usage (from the repository root)::

    nice -n 10 .venv/bin/python -m bench.search_speed            # the table
    nice -n 10 .venv/bin/python -m bench.search_speed --profile  # plus a cProfile of the same run

Every position gets a fresh hard-level searcher (empty transposition table) and is
searched to a fixed depth without a clock, so the node counts are the same on every
machine for one version of the code; only the seconds depend on the machine and its
load. Two figures matter: nodes per second (the cost of one node) and the seconds to
reach the depth (which also counts any change in the tree's size). Compare two versions
in the same run, on the same machine: ``--repeat`` takes the best of several runs.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Position, Ruleset
from engine.ai.levels import get_level
from engine.ai.player import make_searcher
from engine.ai.search import Limits
from engine.compiled import build_name

#: (variant, size, SPN, depth): middle games from seeded medium self-play, an early
#: placement position, the ludii preset and one 7x7 board.
POSITIONS = (
    ("standard", 5, "bbbwb/ww1ww/ww2b/b1b1w/bwwbb w m 0/0 - 1 17", 11),
    ("standard", 5, "bbbww/w1bbw/wbbww/bb1ww/b2b1 b m 0/0 - 11 36", 11),
    ("standard", 5, "1b1bw/b1bww/wbwwb/w1bbw/1wbbw b m 0/0 - 15 44", 11),
    ("standard", 5, "b1www/w1w1w/w2w1/4w/bwwbb b m 0/0 - 0 30", 10),
    ("ludii", 5, "bbwwb/2b1b/bbb1b/ww2w/ww1ww w m 0/0 - 1 30", 11),
    ("ludii", 5, "bw1ww/bb1bb/3bb/1bb2/1b2b w m 0/0 - 0 40", 10),
    ("standard", 7, "w1ww1wb/bw1w1wb/bww1wwb/3bw1w/1bbw1ww/2bwwbb/bb1bb1b b m 0/0 - 3 56", 8),
    ("standard", 5, "2w1w/w1b2/bb1bb/2w2/4b w p 6/8 - 0 6", 8),
    ("standard", 5, "w1bwb/wwb1b/1b1bw/w1bbw/wwbbw b p 2/2 - 0 11", 10),
)


def run(depth_delta: int, contempt: int | None = None) -> tuple[int, float, list[str]]:
    total_nodes = 0
    total_seconds = 0.0
    lines = []
    for variant, size, spn, depth in POSITIONS:
        rules = Ruleset.make(variant, size)
        pos = Position.from_spn(spn, rules)
        searcher = make_searcher(rules, get_level("hard"))
        if contempt is not None and hasattr(searcher, "contempt"):
            searcher.contempt = contempt
        d = max(1, depth + depth_delta)
        t0 = time.process_time()
        result = searcher.search(pos, Limits(max_depth=d))
        seconds = time.process_time() - t0
        total_nodes += result.nodes
        total_seconds += seconds
        best = pos.table.actions[result.best]
        lines.append(
            f"| {variant} {size}x{size} `{spn}` | {d} | {best} | {result.score} | {result.nodes:,} "
            f"| {seconds:.2f} | {result.nodes / seconds:,.0f} |"
        )
    return total_nodes, total_seconds, lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth-delta", type=int, default=0, help="add this to every position's depth")
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one run")
    parser.add_argument(
        "--contempt", type=int, default=None, help="override the repetition contempt (0: no repetition detection)"
    )
    args = parser.parse_args(argv)
    best: tuple[int, float, list[str]] | None = None
    for _ in range(args.repeat):
        res = run(args.depth_delta, args.contempt)
        if best is None or res[1] < best[1]:
            best = res
    assert best is not None
    nodes, seconds, lines = best
    print(f"engine build: {build_name()}\n")
    print("| position | depth | best | score | nodes | s | nodes/s |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(lines))
    print(f"| **total** | | | | {nodes:,} | {seconds:.2f} | {nodes / seconds:,.0f} |")
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        run(args.depth_delta)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
