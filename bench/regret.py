"""How much a level's choices lose against a long search's, position by position.

Two versions of the AI are hard to tell apart by games: against Ludii's Alpha-Beta a
series of 129 White games each left a 0.066 gap at 1.3 standard errors (docs/ai.md).
This measures the choices instead. A *reference* search scores every legal action of
each position exactly (an exact-root search under a node limit, hard's searcher, so
the same on every machine); a level then chooses in the same positions under its own
budget, and its **regret** is the reference's best score minus the score of the action
it chose (0 when it chose an action the reference rates best). One hundred positions
separate versions whose mean regrets differ by a few centipieces, in minutes, and say
in which phase and at how many empty cells the choices go wrong.

The reference shares the evaluation it judges: a version with a different evaluation
is judged by this one's deeper view. The measure shows what more depth would change;
whether a new evaluation is better needs games.

Three steps::

    # White's placements with 4 to 16 empty cells, from ../shared/ludii match logs
    .venv/bin/python -m bench.regret positions /tmp/ludii-logs/*/game_*.jsonl --phase p \\
        --empties 4-16 --count 120 --out /tmp/pos.txt
    # every action scored by a 4,000,000-node exact-root search (10 s in the compiled build)
    .venv/bin/python -m bench.regret reference /tmp/pos.txt --variant ludii --nodes 4000000 \\
        --out /tmp/ref.jsonl
    # hard at 1 s chooses in the same positions; the report by empty cells
    .venv/bin/python -m bench.regret play /tmp/ref.jsonl --variant ludii --level hard --movetime 1000
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.ai.levels import get_level
from engine.ai.player import choose, make_searcher
from engine.ai.search import Limits
from engine.notation import read_spn
from engine.rules import Ruleset


@dataclass(frozen=True)
class Reference:
    """One position and the reference search's exact score of each legal action."""

    spn: str
    scores: dict[int, int]
    depth: int

    def regret(self, code: int) -> int:
        """How much worse ``code`` is than the best action (centipieces, 0 if best).

        An action the reference did not score (not legal in the position) is an error,
        not a regret: a caller comparing the wrong files would get numbers otherwise.
        """
        if code not in self.scores:
            raise ValueError(f"action code {code} is not one of the {len(self.scores)} scored in {self.spn}")
        return max(self.scores.values()) - self.scores[code]


def empties(spn: str) -> int:
    """The empty cells of an SPN's board (the digits of its first field), centre included."""
    return sum(int(ch) for ch in spn.split()[0] if ch.isdigit())


def _range(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    return int(low), int(high or low)


def positions(
    logs: Iterable[Path], phase: str, empty_range: tuple[int, int], turn_range: tuple[int, int]
) -> Iterator[str]:
    """The positions of ``../shared/ludii`` match logs where our engine was to act at a
    turn start, in ``phase`` (``p`` or ``m``), with the board's empty cells and the turn
    in the given ranges (inclusive). Each log is one game (``game_NNN.jsonl``): a line
    per action, then an ``end`` line naming the engine's side; unfinished games are
    skipped. An SPN met twice is given once."""
    seen: set[str] = set()
    for path in logs:
        lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        ends = [line for line in lines if line.get("end")]
        if not ends:
            continue
        side = ends[-1]["engine_side"]
        for line in lines:
            spn = line.get("spn")
            if not spn or line.get("side") != side:
                continue
            fields = spn.split()
            if fields[2] != phase or not turn_range[0] <= line["turn"] <= turn_range[1]:
                continue
            if phase == "m" and fields[4] != "-":
                continue  # a chain's later steps: the turn's first step decides
            if empty_range[0] <= empties(spn) <= empty_range[1] and spn not in seen:
                seen.add(spn)
                yield spn


def reference(rules: Ruleset, spn: str, nodes: int) -> Reference:
    """Score every legal action of ``spn`` with a fresh exact-root search of hard's kind."""
    pos = read_spn(spn, rules)
    searcher = make_searcher(rules, get_level("hard"))
    result = searcher.search(pos, Limits(max_nodes=nodes), exact_root=True)
    scores = dict(result.scores)
    if not scores:  # one legal action: nothing to choose, nothing to lose
        scores = {code: 0 for code in pos.legal_codes()}
    return Reference(spn, scores, result.depth)


def read_references(path: Path) -> list[Reference]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [Reference(r["spn"], {int(k): v for k, v in r["scores"].items()}, r["depth"]) for r in rows]


def write_reference(ref: Reference, out: Path) -> None:
    with out.open("a") as f:
        f.write(json.dumps({"spn": ref.spn, "scores": ref.scores, "depth": ref.depth}) + "\n")


def regrets(
    rules: Ruleset, refs: list[Reference], level: str, movetime_ms: int | None, nodes: int | None
) -> list[tuple[Reference, int]]:
    """``level``'s regret in each reference position. The choices share the level's
    searcher, as a bot process's do; the Ludii harness starts a process per action, so
    its searches begin with an empty table, which this measure does not reproduce."""
    out = []
    for ref in refs:
        pos = read_spn(ref.spn, rules)
        choice = choose(pos, get_level(level), movetime_ms, seed=1, max_nodes=nodes)
        out.append((ref, ref.regret(choice.code)))
    return out


def report(rows: list[tuple[Reference, int]]) -> None:
    """Mean regret, the share of best choices, and both by the board's empty cells."""
    if not rows:
        print("no positions")
        return

    def line(label: str, part: list[tuple[Reference, int]]) -> None:
        mean = sum(r for _ref, r in part) / len(part)
        best = sum(r == 0 for _ref, r in part)
        print(f"{label} | {len(part)} | {mean:.1f} | {best}/{len(part)}")

    print("empty cells | positions | mean regret (centipieces) | best choices")
    by_empty: dict[int, list[tuple[Reference, int]]] = {}
    for row in rows:
        by_empty.setdefault(empties(row[0].spn), []).append(row)
    for e in sorted(by_empty):
        line(str(e), by_empty[e])
    line("all", rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    pos = sub.add_parser("positions", help="our engine's positions from ../shared/ludii match logs")
    pos.add_argument("logs", type=Path, nargs="+")
    pos.add_argument("--phase", choices=("p", "m"), default="p")
    pos.add_argument("--empties", type=_range, default=(0, 81), help="board empty cells, e.g. 4-16")
    pos.add_argument("--turns", type=_range, default=(1, 10_000), help="turns, e.g. 13-30")
    pos.add_argument("--count", type=int, default=120, help="how many, drawn at random (seeded)")
    pos.add_argument("--seed", type=int, default=29)
    pos.add_argument("--out", type=Path, required=True)
    ref = sub.add_parser("reference", help="score every action of each position")
    ref.add_argument("positions", type=Path)
    ref.add_argument("--nodes", type=int, default=4_000_000, help="node limit of each exact-root search")
    ref.add_argument("--out", type=Path, required=True, help="appended to, one JSON line a position")
    play = sub.add_parser("play", help="a level's regret in the reference positions")
    play.add_argument("references", type=Path)
    play.add_argument("--level", default="hard")
    play.add_argument("--movetime", type=int, default=None, help="ms an action (default: the level's)")
    play.add_argument("--nodes", type=int, default=None, help="a node limit instead (the same on every machine)")
    for sp in (ref, play):
        sp.add_argument("--variant", default="standard")
        sp.add_argument("--size", type=int, default=5, choices=(5, 7, 9))
    args = parser.parse_args(argv)
    if args.command == "positions":
        found = list(positions(args.logs, args.phase, args.empties, args.turns))
        random.Random(args.seed).shuffle(found)
        args.out.write_text("".join(spn + "\n" for spn in found[: args.count]))
        print(f"wrote {min(len(found), args.count)} of {len(found)} positions to {args.out}")
        return
    rules = Ruleset.make(args.variant, args.size)
    if args.command == "reference":
        for spn in args.positions.read_text().splitlines():
            if spn.strip():
                write_reference(reference(rules, spn.strip(), args.nodes), args.out)
                print(".", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        return
    report(regrets(rules, read_references(args.references), args.level, args.movetime, args.nodes))


if __name__ == "__main__":
    main()
