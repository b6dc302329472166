"""Value every filled 5x5 board of a preset and write its filled-board table.

Usage (from the repository root)::

    nice -n 10 .venv/bin/python -m bench.filledgen label --variant ludii --work /tmp/filled --jobs 2
    .venv/bin/python -m bench.filledgen assemble --variant ludii --work /tmp/filled
    # -> engine/data/seega5-ludii-filled.xz

``label`` searches each of the 339,106 boards that are the smallest of their eight
symmetric images (the label searcher of ``bench/learn_placement.py``: hard's search on
the hand-written evaluation, no repetition contempt, a fresh searcher per board, so each
value depends on its board alone). The search is node-limited, so the values are the
same on every machine and build; a compiled build (``bench.compile``, in a copy) only
makes them sooner. Each job appends ``mask value`` lines to its own file in ``--work``
and skips the boards already there, so an interrupted run goes on where it stopped.
``assemble`` spreads the values over the symmetric images and writes the table.
"""

from __future__ import annotations

import argparse
import sys
import time
from array import array
from itertools import combinations
from multiprocessing import Process
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.learn_placement import label_searcher, searched_value
from engine.ai.filled import (
    CENTRE,
    DATA_DIR,
    ENTRIES,
    NODES,
    PIECES,
    PRESETS,
    SIZE,
    canonical,
    file_name,
    images_of,
    index_of,
    pack,
    quantize,
)
from engine.ai.search import Limits
from engine.position import Position
from engine.rules import Ruleset

CELLS = [c for c in range(SIZE * SIZE) if c != CENTRE]


def canonical_boards() -> list[int]:
    """The White masks of every filled board that is the smallest of its images."""
    out = []
    for chosen in combinations(CELLS, PIECES):
        mask = 0
        for c in chosen:
            mask |= 1 << c
        if mask == canonical(mask):
            out.append(mask)
    return out


def filled_position(white: int, rules: Ruleset) -> Position:
    """The filled board with these White cells, the first mover to step."""
    rows = []
    for r in range(SIZE - 1, -1, -1):
        row = ""
        for f in range(SIZE):
            c = r * SIZE + f
            row += "1" if c == CENTRE else ("w" if white >> c & 1 else "b")
        rows.append(row)
    first = "b" if rules.first_mover == "black" else "w"
    return Position.from_spn(f"{'/'.join(rows)} {first} m 0/0 - 0 13", rules)


def label(white: int, nodes: int, rules: Ruleset) -> int:
    """The searched value of one filled board for the side to step (a fresh searcher)."""
    return searched_value(label_searcher(rules), filled_position(white, rules), Limits(max_nodes=nodes))


def _part(work: Path, job: int, jobs: int) -> Path:
    return work / f"part-{job}-of-{jobs}.txt"


def _done(path: Path) -> set[int]:
    if not path.exists():
        return set()
    done = set()
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) == 2:
            done.add(int(parts[0]))
    return done


def _label_job(boards: list[int], work: Path, job: int, jobs: int, nodes: int, rules: Ruleset) -> None:
    path = _part(work, job, jobs)
    done = _done(path)
    mine = [b for i, b in enumerate(boards) if i % jobs == job and b not in done]
    started = time.perf_counter()
    with path.open("a") as sink:
        for count, white in enumerate(mine, 1):
            sink.write(f"{white} {label(white, nodes, rules)}\n")
            if count % 1000 == 0:
                sink.flush()
                rate = count / (time.perf_counter() - started)
                print(f"job {job}: {count}/{len(mine)} boards, {rate:.1f}/s", file=sys.stderr, flush=True)


def boards_file(work: Path) -> list[int]:
    """The canonical boards, computed once per work folder (about a minute)."""
    path = work / "boards.bin"
    if path.exists():
        masks = array("I")
        masks.frombytes(path.read_bytes())
        return list(masks)
    boards = canonical_boards()
    path.write_bytes(array("I", boards).tobytes())
    return boards


def assemble(work: Path, out: Path) -> int:
    """Read every job's values and write the table; returns the boards missing."""
    values: dict[int, int] = {}
    for path in sorted(work.glob("part-*.txt")):
        for line in path.read_text().splitlines():
            parts = line.split()
            if len(parts) == 2:
                values[int(parts[0])] = int(parts[1])
    table = array("b", bytes(ENTRIES))
    missing = 0
    for white in boards_file(work):
        if white not in values:
            missing += 1
            continue
        unit = quantize(values[white])
        for image in set(images_of(white)):
            table[index_of(image)] = unit
    if not missing:
        out.write_bytes(pack(table))
    return missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("label", "assemble"))
    parser.add_argument("--variant", choices=PRESETS, default=PRESETS[0])
    parser.add_argument("--work", type=Path, required=True, help="folder for the boards and the jobs' values")
    parser.add_argument("--nodes", type=int, default=NODES, help="nodes per board's search (the shipped table: NODES)")
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--out", type=Path, default=None, help="default: the shipped file in engine/data/")
    args = parser.parse_args(argv)
    rules = Ruleset.make(args.variant, SIZE)
    out = args.out or DATA_DIR / file_name(args.variant)
    args.work.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    boards = boards_file(args.work)
    print(f"{len(boards)} boards up to symmetry ({time.perf_counter() - started:.0f} s)", flush=True)
    if args.command == "assemble":
        missing = assemble(args.work, out)
        if missing:
            print(f"{missing} boards not labelled yet: nothing written", file=sys.stderr)
            return 1
        print(f"wrote {out} ({out.stat().st_size} bytes)")
        return 0
    procs = [
        Process(target=_label_job, args=(boards, args.work, j, args.jobs, args.nodes, rules)) for j in range(args.jobs)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    print(f"labelled in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
