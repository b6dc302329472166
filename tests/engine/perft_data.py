"""Builds ``tests/engine/data/perft.json``: perft counts agreed by two implementations.

Run ``python -m tests.engine.perft_data`` from the repository root. Every count is
computed by the fast engine and by :mod:`tests.engine.reference`, and written only when
they agree; a disagreement prints the divide of both and stops. The midgame positions
come from seeded random games, so the file is reproducible.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from engine import Position, Ruleset
from tests.engine.reference import RefGame, divide, perft

DATA = Path(__file__).parent / "data" / "perft.json"


def random_position(preset: str, size: int, options: list[str], seed: int, plies: int) -> str:
    """The SPN after ``plies`` random legal actions from the start (an ongoing game)."""
    rules = Ruleset.make(preset, size, options)
    rng = random.Random(seed)
    pos = Position(rules)
    for _ in range(plies):
        codes = pos.legal_codes()
        if not codes:
            break
        pos.push_code(rng.choice(codes))
    assert pos.outcome() is None, "pick another seed: the game ended"
    return pos.spn()


def cases() -> list[dict[str, object]]:
    """The positions, each with its ruleset and the deepest depth to store."""
    full = "bbwwb/bbwww/bb1ww/bbwww/bbwwb"
    out: list[dict[str, object]] = [
        {"name": "placement start 5x5", "spn": "5/5/5/5/5 b p 12/12 - 0 1", "variant": "standard", "depth": 3},
        {"name": "placement mid-pair 5x5", "spn": "5/5/5/5/b4 b p 11/12 1 0 1", "variant": "standard", "depth": 3},
        {"name": "lane opening 7x7", "spn": "7/7/7/7/7/7/7 b p 24/24 - 0 1", "variant": "lane", "size": 7, "depth": 6},
        {"name": "two-then-one placement", "spn": "5/5/5/5/bb3 w p 10/12 - 0 2", "variant": "two-then-one", "depth": 3},
        {"name": "first move 5x5", "spn": f"{full} w m 0/0 - 0 13", "variant": "standard", "depth": 6},
        {"name": "lose exception 5x5", "spn": f"{full} b m 0/0 - 0 13", "variant": "aljaafreh", "depth": 6},
        {"name": "chain same", "spn": "4w/3b1/3w1/bw3/2b2 b m 0/0 - 3 20", "variant": "standard", "depth": 4},
        {
            "name": "chain any",
            "spn": "4w/3b1/3w1/bw3/2b2 b m 0/0 - 3 20",
            "variant": "standard",
            "options": ["chain=any"],
            "depth": 4,
        },
        {"name": "blocked pass", "spn": "5/5/5/w4/bw2w b m 0/0 - 3 30", "variant": "standard", "depth": 5},
        {"name": "remove-by-blocked", "spn": "5/5/5/w4/bw2w b m 0/0 - 3 30", "variant": "fouze", "depth": 5},
        {"name": "remove-by-opponent", "spn": "4w/2w2/1wbw1/2w2/5 b m 0/0 - 3 30", "variant": "lane", "depth": 5},
        {
            "name": "capture-one",
            "spn": "4w/2w2/1wbw1/w1w2/bw3 b m 0/0 - 3 30",
            "variant": "standard",
            "options": ["blocked=capture-one"],
            "depth": 4,
        },
        {
            "name": "replacement phase",
            "spn": "bwbwb/wbwbw/bw1wb/wbwbw/bwbwb b s 0/0 - 0 13",
            "variant": "five-in-a-row",
            "depth": 2,
        },
        {"name": "modern-3x3 start", "spn": "3/3/3 b p 3/3 - 0 1", "variant": "modern-3x3", "size": 3, "depth": 6},
        {
            "name": "seejeh line capture 7x7",
            "spn": "2w4/7/7/7/7/b6/1wbwbwb b m 0/0 - 0 40",
            "variant": "seejeh",
            "size": 7,
            "depth": 3,
        },
    ]
    randoms = [
        ("midgame 5x5", "standard", 5, [], 7, 40, 5),
        ("midgame 5x5 fouze", "fouze", 5, [], 3, 36, 4),
        ("ludii midgame 5x5", "ludii", 5, [], 11, 50, 4),
        ("midgame 7x7", "standard", 7, [], 5, 90, 3),
        ("midgame 9x9", "standard", 9, [], 2, 140, 3),
        ("ludii midgame 7x7", "ludii", 7, [], 4, 110, 3),
    ]
    for name, variant, size, options, seed, plies, depth in randoms:
        spn = random_position(variant, size, options, seed, plies)
        out.append({"name": name, "spn": spn, "variant": variant, "size": size, "options": options, "depth": depth})
    return out


def main() -> int:
    entries = []
    for case in cases():
        variant = str(case["variant"])
        spn = str(case["spn"])
        size = int(case.get("size", 5))  # type: ignore[call-overload]
        options = list(case.get("options", []))  # type: ignore[call-overload]
        rules = Ruleset.make(variant, size, options)
        # Store the settled SPN (a blocked rule may already have moved it to phase r).
        spn = Position.from_spn(spn, rules).spn()
        if RefGame.from_spn(spn, rules).spn() != spn:
            print(f"MISMATCH {case['name']}: the reference settles {spn} differently", file=sys.stderr)
            return 1
        depths: dict[str, int] = {}
        for depth in range(1, int(case["depth"]) + 1):  # type: ignore[call-overload]
            fast = Position.from_spn(spn, rules).perft(depth)
            slow = perft(RefGame.from_spn(spn, rules), depth)
            if fast != slow:
                print(f"MISMATCH {case['name']} depth {depth}: engine {fast}, reference {slow}", file=sys.stderr)
                ref = divide(RefGame.from_spn(spn, rules), depth)
                pos = Position.from_spn(spn, rules)
                for action in pos.legal_actions():
                    pos.push(action)
                    count = pos.perft(depth - 1)
                    pos.pop()
                    mark = "" if ref.get(str(action)) == count else "   <-- reference " + str(ref.get(str(action)))
                    print(f"  {action}: {count}{mark}", file=sys.stderr)
                return 1
            depths[str(depth)] = fast
        print(f"{case['name']}: {depths}")
        entries.append(
            {"name": case["name"], "spn": spn, "variant": variant, "size": size, "options": options, "depths": depths}
        )
    DATA.write_text(json.dumps(entries, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
