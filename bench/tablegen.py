"""Generate the endgame tables (``ludii`` or ``standard`` family, 5x5 or 7x7) into ``engine/data/``.

Usage (from the repository root; prints each material's size and time)::

    nice -n 10 .venv/bin/python -m bench.tablegen --pieces 6             # 5x5, as shipped
    nice -n 10 .venv/bin/python -m bench.tablegen --size 7 --pieces 4    # 7x7, as shipped
    nice -n 10 .venv/bin/python -m bench.tablegen --family standard --pieces 6   # standard, 5x5

The computation is :func:`engine.ai.endgame.generate` (pure, deterministic: the same
files on every machine); this script only times it and writes one compressed file per
material (``engine/data/seega<size>-<family>-<black>v<white>.xz``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.ai.endgame import DATA_DIR, FAMILIES, generate, pack, table_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pieces", type=int, default=5, help="most pieces in all (both sides)")
    parser.add_argument("--size", type=int, default=5, choices=(5, 7), help="the board size")
    parser.add_argument("--family", default="ludii", choices=sorted(FAMILIES), help="the preset solved")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    c0 = time.process_time()

    def progress(message: str) -> None:
        print(f"{time.perf_counter() - t0:7.1f} s wall, {time.process_time() - c0:7.1f} s CPU: {message}", flush=True)

    tables = generate(args.pieces, progress, size=args.size, family=args.family)
    DATA_DIR.mkdir(exist_ok=True)
    total = 0
    for (nb, nw), arrays in sorted(tables.items()):
        data = pack(arrays)
        table_path(nb, nw, args.size, args.family).write_bytes(data)
        total += len(data)
    print(f"{len(tables)} materials, {total:,} bytes compressed, {time.perf_counter() - t0:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
