"""Mine puzzles from seeded AI self-play: ``python -m engine.coach.mine``.

Reproducible: the games are played by the depth-limited levels (easy and medium, whose
choices depend only on the seed) and every verification search is node- or
depth-bounded, so the same arguments give the same bank on every machine.

For every movement-phase position at the start of a turn:

1. **screen**: every distinct turn is played and valued by a depth-2 search
   (:func:`engine.coach.puzzles.check_position`); the best must be decisive and beat
   every other turn by :data:`~engine.coach.puzzles.CHECK_MARGIN`;
2. **deep verification**: a search that gives every first action an exact score at
   ``--deep-nodes`` nodes must agree: the solution's first action best, decisive
   (:data:`DEEP_DECISIVE`) and ahead of every other first action by :data:`DEEP_MARGIN`;
   each later action of a chain is verified the same way (stopping the chain included);
3. **grading**: the difficulty is the shallowest depth at which a fresh search finds the
   solution's first action and keeps it at every deeper depth up to :data:`GRADE_DEPTH`
   (each depth within :data:`GRADE_NODES` nodes, up to the first depth the budget cannot
   complete).

Usage: ``python -m engine.coach.mine --out engine/coach/puzzles.json --games 40 --seed 1``
(``--config standard:5`` may be repeated; the defaults cover five variants on 5x5 and
three on 7x7). Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine.ai import best_turn
from engine.ai.levels import get_level
from engine.ai.player import components, make_searcher
from engine.ai.search import WIN_BOUND, Limits
from engine.coach.puzzles import CHECK_DECISIVE, CHECK_MARGIN, Puzzle, TooManyTurns, valued_turns
from engine.errors import SeegaError
from engine.position import START, Position
from engine.rules import Ruleset, format_value

DEEP_MARGIN = 150
DEEP_DECISIVE = 150
GRADE_DEPTH = 7
GRADE_NODES = 25_000
#: A puzzle's best other turn may be worth at most this (cheap check), or
#: :data:`MAX_OTHER_WIN` when the solution forces a win: a position already won
#: whatever the mover does teaches nothing.
MAX_OTHER = 300
MAX_OTHER_WIN = 1000
#: Gains are stored capped (a forced win is "5000").
GAIN_CAP = 5000
#: Turns of one game between two puzzles taken from it (they would look alike).
SPACING = 4
MAX_TURNS = 400
DEFAULT_CONFIGS = (
    "standard:5",
    "seejeh:5",
    "aljaafreh:5",
    "fouze:5",
    "lane:5",
    "standard:7",
    "seejeh:7",
    "ludii:7",
)
PAIRINGS = (("easy", "medium"), ("medium", "easy"), ("easy", "easy"))


@dataclass(frozen=True)
class Config:
    """One ruleset to mine."""

    variant: str
    size: int

    @classmethod
    def parse(cls, text: str) -> Config:
        variant, _, size = text.partition(":")
        return cls(variant, int(size or 5))


def _deep_ok(pos: Position, code: int, deep_nodes: int) -> tuple[bool, int, int]:
    """(verified, score of ``code``, margin over the next best) by an exact-root search."""
    codes = pos.legal_codes()
    if len(codes) == 1:
        return codes[0] == code, 0, DEEP_MARGIN
    searcher = make_searcher(pos.rules, get_level("hard"))
    result = searcher.search(pos, Limits(max_nodes=deep_nodes), exact_root=True)
    scores = result.scores
    if code not in scores or result.best != code:
        return False, 0, 0
    mine = scores[code]
    others = [v for c, v in scores.items() if c != code]
    margin = mine - max(others) if others else DEEP_MARGIN
    return margin >= DEEP_MARGIN, mine, margin


def verify_deep(pos: Position, actions: tuple[str, ...], deep_nodes: int) -> tuple[bool, int, int]:
    """(verified, margin of the first action, its score): every action of the solving
    turn is the clear best, and the first is decisive."""
    p = pos.copy()
    first_gain = first_score = 0
    for i, text in enumerate(actions):
        code = p.table.codes[p.play(text)]
        p.pop()
        ok, score, margin = _deep_ok(p, code, deep_nodes)
        if not ok:
            return False, 0, 0
        if i == 0:
            if score < DEEP_DECISIVE:
                return False, 0, 0
            first_gain, first_score = margin, score
        p.push_code(code)
    return True, first_gain, first_score


def grade(pos: Position, first: str) -> int:
    """Difficulty 1..5 from the shallowest depth that finds ``first`` and keeps it.

    Depths 1, 2, ... :data:`GRADE_DEPTH` are searched by fresh searchers of at most
    :data:`GRADE_NODES` nodes each, until a depth cannot be completed within that budget
    (a search that proves a forced end completes every depth). The difficulty maps the
    shallowest depth from which every completed depth chose the solution; a solution no
    completed depth chose is 5.
    """
    code = pos.table.codes[pos.copy().play(first)]
    found: int | None = None
    for depth in range(1, GRADE_DEPTH + 1):
        searcher = make_searcher(pos.rules, get_level("hard"))
        result = searcher.search(pos, Limits(max_depth=depth, max_nodes=GRADE_NODES))
        if result.depth < depth and abs(result.score) < WIN_BOUND:
            break  # the budget ran out: deeper depths are not known
        if result.best == code:
            found = found or depth
        else:
            found = None
    return {1: 1, 2: 2, 3: 3, 4: 3, 5: 4, 6: 4, 7: 5}.get(found or GRADE_DEPTH + 1, 5)


def theme(pos: Position, actions: tuple[str, ...], win: bool) -> str:
    """The puzzle's theme, read off the solving turn."""
    if win:
        return "win"
    p = pos.copy()
    enemy = 1 - p.side
    takes: list[int] = []
    for text in actions:
        before = p.bb[enemy].bit_count()
        p.play(text)
        takes.append(before - p.bb[enemy].bit_count())
    if not takes[0]:
        return "quiet"
    if sum(1 for t in takes if t) >= 2:
        return "chain"
    return "double" if takes[0] >= 2 else "capture"


@dataclass(frozen=True)
class Filters:
    """How demanding the miner is (command-line options, recorded in the bank).

    Attributes:
        max_other: the best other turn may be worth at most this (cheap check).
        max_other_win: the same beside a solution that forces a win (0: no cap).
        spacing: turns of one game between two puzzles taken from it.
    """

    max_other: int = MAX_OTHER
    max_other_win: int = MAX_OTHER_WIN
    spacing: int = SPACING


def candidate(
    pos: Position, deep_nodes: int, filters: Filters = Filters()
) -> tuple[tuple[str, ...], int, str, int] | None:
    """(solution, difficulty, theme, gain) if ``pos`` makes a verified puzzle, else ``None``."""
    if pos.phase != "m" or pos.state != START or pos.result is not None or len(pos.legal_codes()) < 2:
        return None
    _evaluator, tactics = components(pos.rules)
    if not any(tactics.capture_count(pos, c) for c in pos.legal_codes()):
        return None  # only positions with a capture on the board are screened (docs/coach.md)
    try:
        valued = valued_turns(pos)
    except TooManyTurns:
        return None
    if len(valued) < 2:
        return None
    (actions, after, value), (_a2, _p2, second) = valued[0], valued[1]
    if value < CHECK_DECISIVE or second > value - CHECK_MARGIN:
        return None
    cap = filters.max_other_win if value >= WIN_BOUND else filters.max_other
    if cap and second > cap:
        return None
    text = tuple(str(a) for a in actions)
    ok, gain, score = verify_deep(pos, text, deep_nodes)
    if not ok:
        return None
    win = (after.result is not None and after.result.winner == pos.side) or score >= WIN_BOUND
    return text, grade(pos, text[0]), theme(pos, text, win), min(gain, GAIN_CAP)


def mine_game(config: Config, seed: int, deep_nodes: int, filters: Filters = Filters()) -> list[Puzzle]:
    """The puzzles found in one seeded self-play game."""
    rules = Ruleset.make(config.variant, config.size)
    pos = Position(rules)
    levels = PAIRINGS[seed % len(PAIRINGS)]
    found: list[Puzzle] = []
    last = -filters.spacing
    turns = 0
    while pos.result is None and turns < MAX_TURNS:
        if pos.phase == "m" and turns - last >= filters.spacing:
            spn = pos.spn()
            fresh = Position.from_spn(spn, rules)  # a puzzle has no shuttle history
            got = candidate(fresh, deep_nodes, filters)
            if got is not None:
                solution, difficulty, kind, gain = got
                source = {"seed": seed, "turn": pos.turn, "levels": list(levels)}
                found.append(Puzzle("", config.variant, config.size, (), spn, solution, difficulty, kind, gain, source))
                last = turns
        for action in best_turn(pos, levels[pos.side], None, seed * 7919 + turns):
            pos.push(action)
        turns += 1
    return found


def mine_actions(
    rules: Ruleset,
    actions: Sequence[str],
    deep_nodes: int,
    filters: Filters = Filters(),
    source: dict[str, object] | None = None,
    setup: str | None = None,
) -> list[Puzzle]:
    """The puzzles found in a game people played (a stored game's actions, in order).

    The same screening, verification and grading as :func:`mine_game`, at the start of
    each movement turn, ``filters.spacing`` turns apart; ``source`` (e.g. the stored
    game's number) is kept with each puzzle with the turn it came from. A game whose
    actions stop being legal (a record from an older rules version) is mined up to there.
    """
    pos = Position.from_spn(setup, rules) if setup else Position(rules)
    found: list[Puzzle] = []
    last = -filters.spacing
    screened = -1
    turns = 0
    for text in actions:
        if pos.result is not None:
            break
        if pos.state == START and pos.turn != screened:
            screened = pos.turn
            turns += 1
            if pos.phase == "m" and turns - last >= filters.spacing:
                spn = pos.spn()
                got = candidate(Position.from_spn(spn, rules), deep_nodes, filters)
                if got is not None:
                    solution, difficulty, kind, gain = got
                    where = {**(source or {}), "turn": pos.turn}
                    options = tuple(f"{k}={format_value(v)}" for k, v in sorted(rules.overrides().items()))
                    found.append(
                        Puzzle("", rules.variant, rules.size, options, spn, solution, difficulty, kind, gain, where)
                    )
                    last = turns
        try:
            pos.play(text)
        except SeegaError:
            break
    return found


def main(argv: list[str] | None = None) -> int:
    """Mine, number and write the bank; print a summary."""
    parser = argparse.ArgumentParser(prog="python -m engine.coach.mine", description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="engine/coach/puzzles.json")
    parser.add_argument("--config", action="append", help="VARIANT:SIZE (repeatable)")
    parser.add_argument("--games", type=int, default=30, help="games per config")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deep-nodes", type=int, default=60_000)
    parser.add_argument("--max-other", type=int, default=MAX_OTHER, help="cap on the best other turn")
    parser.add_argument(
        "--max-other-win", type=int, default=MAX_OTHER_WIN, help="the same beside a forced win (0: none)"
    )
    parser.add_argument("--spacing", type=int, default=SPACING, help="turns between two puzzles of one game")
    parser.add_argument("--merge", nargs="*", help="instead of mining, join these bank files into --out")
    parser.add_argument("--regrade", help="instead of mining, grade this bank's puzzles again into --out")
    parser.add_argument("--limit", type=int, default=0, help="stop a config after this many puzzles (0: no limit)")
    args = parser.parse_args(argv)
    if args.merge:
        return merge(args.merge, args.out)
    if args.regrade:
        return regrade(args.regrade, args.out)
    filters = Filters(args.max_other, args.max_other_win, args.spacing)
    configs = [Config.parse(c) for c in (args.config or DEFAULT_CONFIGS)]
    bank: list[Puzzle] = []
    seen: set[str] = set()
    start = time.perf_counter()
    for config in configs:
        count = 0
        prefix = f"{config.variant[:3]}{config.size}"
        for g in range(args.games):
            seed = args.seed * 100_000 + g
            for p in mine_game(config, seed, args.deep_nodes, filters):
                if p.spn in seen:
                    continue
                seen.add(p.spn)
                count += 1
                bank.append(Puzzle(f"{prefix}-{count:04d}", *_fields(p)))
            _write(args, bank)
            print(
                f"{config.variant}:{config.size} game {g + 1}/{args.games}: {count} puzzles, "
                f"{time.perf_counter() - start:.0f} s",
                file=sys.stderr,
            )
            if args.limit and count >= args.limit:
                break
    _write(args, bank)
    print(f"{len(bank)} puzzles in {time.perf_counter() - start:.0f} s -> {args.out}")
    return 0


def _write(args: argparse.Namespace, bank: list[Puzzle]) -> None:
    """Write the bank so far (after every game, so a stopped run keeps what it found)."""
    data = {
        "tool": "python -m engine.coach.mine",
        "args": {k: v for k, v in vars(args).items() if k not in ("out", "merge")},
        "puzzles": [p.to_dict() for p in bank],
    }
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=0, ensure_ascii=False)
        fh.write("\n")


def regrade(path: str, out: str) -> int:
    """Grade a bank's puzzles again with :func:`grade` (its positions and solutions kept)."""
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    for item in data["puzzles"]:
        rules = Ruleset.make(item["variant"], item["size"], item.get("options", ()))
        item["difficulty"] = grade(Position.from_spn(item["spn"], rules), item["solution"][0])
    data["regraded"] = True
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=0, ensure_ascii=False)
        fh.write("\n")
    print(f"{len(data['puzzles'])} puzzles graded again -> {out}")
    return 0


def merge(paths: list[str], out: str) -> int:
    """Join bank files mined by separate runs (ids are unique per ruleset and size)."""
    puzzles: list[dict[str, object]] = []
    runs: list[object] = []
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        runs.append(data.get("args"))
        puzzles.extend(data["puzzles"])
    ids = [p["id"] for p in puzzles]
    if len(set(ids)) != len(ids):
        raise SystemExit("error: the banks share puzzle ids; mine each ruleset in one run")
    with open(out, "w", encoding="utf-8") as fh:
        json.dump({"tool": "python -m engine.coach.mine", "runs": runs, "puzzles": puzzles}, fh, indent=0)
        fh.write("\n")
    print(f"{len(puzzles)} puzzles -> {out}")
    return 0


def _fields(p: Puzzle) -> tuple[str, int, tuple[str, ...], str, tuple[str, ...], int, str, int, dict[str, object]]:
    return (p.variant, p.size, p.options, p.spn, p.solution, p.difficulty, p.theme, p.gain, p.source)


if __name__ == "__main__":
    raise SystemExit(main())
