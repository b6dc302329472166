"""AI ladder benchmark: each level against the level below (not a test; prints a table).

Usage (from the repository root)::

    nice -n 10 .venv/bin/python bench/ai.py                      # full ladder, default times
    nice -n 10 .venv/bin/python bench/ai.py --movetime-scale 0.1 # every level's time x0.1
    nice -n 10 .venv/bin/python bench/ai.py --time hard=200 --time expert=600 --games 40

Every pairing plays ``--games`` games from openings made of ``--opening`` random
placements (seeded by ``--seed``); each opening is played twice with the colours
swapped, so colours alternate. Standard 5x5 for the ladder, plus one 7x7 pairing
(hard against medium). The table gives the upper level's score, the average depth its
searches completed, nodes per second and time per searched action.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Position, Ruleset
from engine.ai.levels import Level, get_level
from engine.ai.player import play_turn

LADDER = (("medium", "easy"), ("hard", "medium"), ("expert", "hard"))


@dataclass
class Stats:
    """Search figures of one level over a match."""

    searches: int = 0
    depth: int = 0
    nodes: int = 0
    seconds: float = 0.0
    worst: float = 0.0
    turns: int = 0
    turn_seconds: float = 0.0
    over_budget: int = 0

    def add_turn(self, choices: list, seconds: float, budget_ms: int) -> None:  # type: ignore[type-arg]
        self.turns += 1
        self.turn_seconds += seconds
        for choice in choices:
            res = choice.result
            if res is None:
                continue
            self.searches += 1
            self.depth += res.depth
            self.nodes += res.nodes
            self.seconds += res.elapsed
            self.worst = max(self.worst, res.elapsed)
            if res.elapsed > budget_ms / 1000 * 1.1 + 0.05:
                self.over_budget += 1


@dataclass
class Match:
    """One pairing's totals."""

    upper: str
    lower: str
    size: int
    games: int = 0
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    stats: dict[str, Stats] = field(default_factory=dict)


def opening(rules: Ruleset, seed: int, actions: int) -> Position:
    """A start position after ``actions`` random placements."""
    rng = random.Random(seed)
    pos = Position(rules)
    for _ in range(actions):
        if pos.phase != "p" or pos.result is not None:
            break
        pos.push_code(rng.choice(pos.legal_codes()))
    return pos


def play(
    rules: Ruleset,
    levels: tuple[Level, Level],
    times: tuple[int, int],
    start: Position,
    seed: int,
    stats: tuple[Stats, Stats],
    max_turns: int,
) -> int | None:
    """Play one game (black = levels[0]); return the winner or ``None`` for a draw."""
    pos = start.copy()
    while pos.result is None and pos.turn <= max_turns:
        who = pos.side
        t0 = time.perf_counter()
        # The level's own budget for this position, on the match's base time.
        budget = levels[who].movetime_for(pos.phase, len(pos.legal_codes()), times[who])
        choices = play_turn(pos, levels[who], budget, seed + pos.turn)
        stats[who].add_turn(choices, time.perf_counter() - t0, budget)
    return pos.result.winner if pos.result is not None else None


def run_match(
    upper: str,
    lower: str,
    size: int,
    games: int,
    times: dict[str, int],
    seed: int,
    opening_actions: int,
    max_turns: int,
) -> Match:
    rules = Ruleset.make("standard", size)
    lv = {name: get_level(name) for name in (upper, lower)}
    match = Match(upper, lower, size, stats={upper: Stats(), lower: Stats()})
    for g in range(games):
        start = opening(rules, seed + g // 2, opening_actions)
        upper_black = g % 2 == 0
        names = (upper, lower) if upper_black else (lower, upper)
        winner = play(
            rules,
            (lv[names[0]], lv[names[1]]),
            (times[names[0]], times[names[1]]),
            start,
            seed * 1000 + g,
            (match.stats[names[0]], match.stats[names[1]]),
            max_turns,
        )
        upper_colour = 0 if upper_black else 1
        match.games += 1
        if winner is None:
            match.draws += 1
            match.points += 0.5
        elif winner == upper_colour:
            match.wins += 1
            match.points += 1
        else:
            match.losses += 1
        print(
            f"  {upper} vs {lower} {size}x{size} game {g + 1}: "
            f"{'draw' if winner is None else ('win' if winner == upper_colour else 'loss')} "
            f"({match.points}/{match.games})",
            flush=True,
        )
    return match


def table(matches: list[Match], times: dict[str, int]) -> str:
    lines = [
        "| pairing | board | games | score (upper) | W-D-L | upper: avg depth | nodes/s | ms/search (avg, max) "
        "| lower: avg depth | over budget |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for m in matches:
        up, lo = m.stats[m.upper], m.stats[m.lower]
        pct = 100 * m.points / m.games if m.games else 0
        nps = up.nodes / up.seconds if up.seconds else 0
        avg = 1000 * up.seconds / up.searches if up.searches else 0
        lines.append(
            f"| {m.upper} ({times[m.upper]} ms) vs {m.lower} ({times[m.lower]} ms) | {m.size}x{m.size} | {m.games} "
            f"| {m.points:g} ({pct:.0f}%) | {m.wins}-{m.draws}-{m.losses} "
            f"| {up.depth / max(1, up.searches):.1f} | {nps:,.0f} | {avg:.0f}, {1000 * up.worst:.0f} "
            f"| {lo.depth / max(1, lo.searches):.1f} | {up.over_budget + lo.over_budget} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="games per pairing (even)")
    parser.add_argument("--games7", type=int, default=None, help="games of the 7x7 pairing (default: --games)")
    parser.add_argument("--movetime-scale", type=float, default=1.0, help="multiply every level's default time")
    parser.add_argument("--time", action="append", default=[], metavar="LEVEL=MS", help="a level's time per action")
    parser.add_argument("--pairs", default="medium:easy,hard:medium,expert:hard", help="upper:lower,...")
    parser.add_argument("--pair7", default="hard:medium", help="the 7x7 pairing ('' for none)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--opening", type=int, default=4, help="random placements before the levels play")
    parser.add_argument("--max-turns", type=int, default=400, help="adjudicate as a draw after this many turns")
    args = parser.parse_args(argv)
    times = {
        name: max(1, round(get_level(name).movetime_ms * args.movetime_scale))
        for name in ("easy", "medium", "hard", "expert")
    }
    for item in args.time:
        name, _, ms = item.partition("=")
        times[get_level(name).name] = int(ms)
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",") if p]
    matches = []
    t0 = time.perf_counter()
    for upper, lower in pairs:
        matches.append(run_match(upper, lower, 5, args.games, times, args.seed, args.opening, args.max_turns))
        print(table(matches[-1:], times).splitlines()[-1], flush=True)
    if args.pair7:
        upper, lower = args.pair7.split(":")
        games7 = args.games if args.games7 is None else args.games7
        matches.append(run_match(upper, lower, 7, games7, times, args.seed, args.opening, args.max_turns))
    print()
    print(
        f"time per action: {', '.join(f'{k} {v} ms' for k, v in times.items())}; "
        f"easy and medium are depth-limited (1 and 2), their time is a cap; total {time.perf_counter() - t0:.0f} s"
    )
    print(table(matches, times))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
