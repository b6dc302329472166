"""Learn the placement evaluation (``engine/ai/placement_model.py``) from self-play.

Two steps, both reproducible from a seed:

``generate``
    Plays the placement phase of many games (medium against medium, with a share of
    random placements so the positions cover more than one style) and labels every
    position met with the value a deep hard search gives it, from the first mover's
    point of view, under a node limit (so the label is the same on every machine). The
    label search uses the hand-written evaluation and ordering, never the model, so the
    data does not depend on what is being fitted. One JSON line per position.

``width``
    Measures what the search's placement width costs: in placement positions with more
    empty cells than the width, an exact-root search scores every cell, and the report
    says how often its best cell is among the static ranking's first ``width`` cells
    (the only ones the search tries below the root) and how much the best of those is
    worse. It judges a learned *ordering* before one is fitted (docs/ai.md).

``fit``
    Fits the n-tuple weights by logistic regression on those labels (the label mapped
    to a win chance with the coach's curve, ``engine.ai.analysis.win_chance``), holds
    out every tenth game (its positions also met in the other games left out), and prints
    the held-out loss by stage against two baselines:
    a constant and the hand-written placement evaluation calibrated on the same data.
    ``--write`` stores the weights in ``engine/ai/placement_model.json``.

Commands used for the shipped model (docs/ai.md, "Placement policy")::

    nice -n 10 .venv/bin/python -m bench.learn_placement generate --variant standard \\
        --games 400 --seed 1 --out /tmp/pl-standard-1.jsonl        # and --seed 2, 3 ...
    .venv/bin/python -m bench.learn_placement fit --variant standard \\
        /tmp/pl-standard-*.jsonl --write

and for 7x7 (``--size 7``; 40,000 nodes a label, in a copy with the compiled build)::

    nice -n 5 .venv/bin/python -m bench.learn_placement generate --variant standard --size 7 \\
        --games 700 --seed 71 --nodes 40000 --out /tmp/pl7-71.jsonl      # and --seed 72
    .venv/bin/python -m bench.learn_placement fit --variant standard --size 7 \\
        /tmp/pl7-7[12].jsonl --write
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.ai.analysis import SCALE, win_chance
from engine.ai.evaluate import PLACEMENT_FEATURES, Evaluator
from engine.ai.levels import get_level
from engine.ai.placement import FULL_WIDTH_EMPTIES
from engine.ai.placement_model import MODEL_FILE, STAGES, Trainer, model_key
from engine.ai.player import choose
from engine.ai.search import Limits, Searcher
from engine.ai.tactics import Tactics
from engine.position import Position
from engine.rules import Ruleset

#: Share of placements played at random instead of by medium.
RANDOM_SHARE = 0.15
#: Node limit of the short search that plays the last placements of a ``filled`` game.
LATE_NODES = 4_000
#: The label of a game decided in placement (five in a row): a won position's value.
WIN_LABEL = 2_000


def label_searcher(rules: Ruleset, tt_limit: int = 200_000) -> Searcher:
    """A hard-like searcher on the hand-written evaluation (never the model)."""
    evaluator = Evaluator(rules)
    evaluator.placement_model = None
    hard = get_level("hard")
    searcher = Searcher(
        evaluator,
        Tactics(rules),
        placement_width=hard.placement_width,
        full_width_empties=hard.full_width_empties,
        contempt=0,
        tt_limit=tt_limit,
    )
    return searcher


def searched_value(searcher: Searcher, pos: Position, limits: Limits) -> int:
    """The searched value of ``pos`` for the side to act.

    A lone legal action is searched too (``exact_root``): ``Searcher.search`` plays it
    without a search and scores it 0, which as a label would call every filled board
    where the first mover has a single step (one piece next to the centre) level.
    """
    return searcher.search(pos, limits, exact_root=len(pos.legal_codes()) == 1).score


def first_index(rules: Ruleset) -> int:
    """The first mover's side index (0 Black, 1 White)."""
    return 1 if rules.first_mover == "white" else 0


def first_view(rules: Ruleset, pos: Position, score: int) -> int:
    """``score`` (for the side to act) seen from the first mover's side."""
    return score if pos.side == first_index(rules) else -score


def generate(
    rules: Ruleset,
    games: int,
    seed: int,
    nodes: int,
    out: Path,
    label: str = "search",
    play: str = "medium",
    play_nodes: int = LATE_NODES,
    label_from: int = 0,
) -> None:
    """Play ``games`` placement phases and write one labelled position per line.

    Only positions with at least ``label_from`` pieces placed are labelled and written:
    on 9x9 a label search sees the movement phase only in the last sixth of placement,
    so data for the stages whose labels vary comes five times as fast that way.

    ``label="search"`` labels each position by its own search. ``label="filled"`` plays
    on to the filled board and labels every position of the game by that board's
    searched value (``nodes`` for that one search): a return, not a bootstrap, so a
    position early in placement is labelled by what the movement phase makes of it even
    where no search from there could see that far (the ``ludii`` preset, whose opening
    tactics lie 10 to 15 plies beyond the middle of placement). The last placements (at
    most ``FULL_WIDTH_EMPTIES`` empty cells) are then played by a short full-width search,
    so the filled boards are ones a real player would reach.

    ``play="search"`` places every piece by the label searcher itself (``play_nodes``
    each, no model), random only in the first half of placement: the data then show
    what the search's own later placements make of a position, not medium's, which a
    stronger player does not follow into the same structures.
    """
    rng = random.Random(seed)
    medium = get_level("medium")
    labeller = label_searcher(rules)
    started = time.perf_counter()
    count = 0
    with out.open("w", encoding="utf-8") as sink:
        for g in range(games):
            pos = Position(rules)
            labeller.tt.clear()
            rows: list[dict[str, int]] = []
            while pos.result is None and pos.phase == "p":
                if (pos.bb[0] | pos.bb[1]).bit_count() >= label_from:
                    row = {"game": seed * 100_000 + g, "black": pos.bb[0], "white": pos.bb[1], "side": pos.side}
                    if label == "search":
                        score = searched_value(labeller, pos, Limits(max_depth=14, max_nodes=nodes))
                        row["score"] = first_view(rules, pos, score)
                    rows.append(row)
                codes = pos.legal_codes()
                empties = rules.size * rules.size - (pos.bb[0] | pos.bb[1]).bit_count()
                early = 2 * empties > rules.size * rules.size
                if rng.random() < RANDOM_SHARE and (play == "medium" or early):
                    code = rng.choice(codes)
                elif play == "search":
                    code = labeller.search(pos, Limits(max_depth=14, max_nodes=play_nodes)).best
                elif label == "filled" and empties <= FULL_WIDTH_EMPTIES + 1:
                    code = labeller.search(pos, Limits(max_depth=14, max_nodes=LATE_NODES)).best
                else:
                    code = choose(pos, medium, seed=rng.randrange(1 << 30)).code
                pos.push_code(code)
            if label == "filled":
                if pos.result is not None:
                    value = (
                        0
                        if pos.result.winner is None
                        else (WIN_LABEL if pos.result.winner == first_index(rules) else -WIN_LABEL)
                    )
                else:
                    # A fresh searcher: the label is the filled board's alone, not
                    # coloured by the history and killers of this game's placements.
                    value = first_view(rules, pos, searched_value(label_searcher(rules), pos, Limits(max_nodes=nodes)))
                for row in rows:
                    row["score"] = value
            for row in rows:
                sink.write(json.dumps(row) + "\n")
            count += len(rows)
            if (g + 1) % 10 == 0:
                rate = count / (time.perf_counter() - started)
                print(f"{g + 1} games, {count} positions, {rate:.1f} positions/s", file=sys.stderr, flush=True)
    print(f"wrote {count} positions of {games} games to {out} in {time.perf_counter() - started:.0f} s")


@dataclass(frozen=True)
class WidthRecord:
    """One placement position of ``width``: every cell's exact-root score and the static ranking."""

    side: int
    scores: dict[int, int]
    ranking: list[int]

    def loss(self, width: int) -> int:
        """How much worse the best of the first ``width`` ranked cells is than the best cell."""
        return max(self.scores.values()) - max(self.scores[c] for c in self.ranking[:width])


def width_records(rules: Ruleset, games: int, seed: int, nodes: int, width: int, play_nodes: int) -> list[WidthRecord]:
    """Placement positions with more than ``width`` empty cells, each scored cell by cell.

    Games are placed at random while more than half the board is empty (60% of those
    placements) and otherwise by the label searcher at ``play_nodes``; 70% of the
    positions met are measured, by an exact-root search of ``nodes``.
    """
    rng = random.Random(seed)
    searcher = label_searcher(rules)
    tactics = Tactics(rules)
    records = []
    for _ in range(games):
        pos = Position(rules)
        searcher.tt.clear()
        while pos.result is None and pos.phase == "p":
            codes = pos.legal_codes()
            if len(codes) > width and rng.random() < 0.7:
                result = searcher.search(pos, Limits(max_nodes=nodes), exact_root=True)
                records.append(WidthRecord(pos.side, dict(result.scores), tactics.order_placements(pos, codes)))
            if 2 * len(codes) > rules.size * rules.size and rng.random() < 0.6:
                code = rng.choice(codes)
            else:
                code = searcher.search(pos, Limits(max_nodes=play_nodes)).best
            pos.push_code(code)
    return records


def width_report(records: list[WidthRecord], width: int) -> None:
    """Print, for each side to place, how often the cut keeps the best cell and what it loses."""
    print("side | positions | best cell kept | mean loss (centipieces) | loss over 20")
    for side in (0, 1):
        mine = [r for r in records if r.side == side]
        if not mine:
            continue
        losses = [r.loss(width) for r in mine]
        kept = sum(loss == 0 for loss in losses) / len(mine)
        over = sum(loss > 20 for loss in losses) / len(mine)
        mean = sum(losses) / len(mine)
        print(f"{'Black' if side == 0 else 'White'} | {len(mine)} | {kept:.2f} | {mean:.1f} | {over:.2f}")


def read_rows(paths: list[Path]) -> Iterator[dict[str, int]]:
    for path in paths:
        with path.open(encoding="utf-8") as source:
            for line in source:
                if line.endswith("\n"):  # a file still being written may end in half a line
                    yield json.loads(line)


def first_second(rules: Ruleset, row: dict[str, int]) -> tuple[int, int]:
    """The first mover's and the second mover's pieces of a data row."""
    if rules.first_mover == "white":
        return row["white"], row["black"]
    return row["black"], row["white"]


def _loss(p: float, target: float) -> float:
    """Cross-entropy minus the target's own entropy (0 for a perfect prediction)."""
    p = min(max(p, 1e-9), 1 - 1e-9)
    loss = -(target * math.log(p) + (1 - target) * math.log(1 - p))
    if 0 < target < 1:
        loss += target * math.log(target) + (1 - target) * math.log(1 - target)
    return loss


def fit(rules: Ruleset, paths: list[Path], epochs: int, rate: float, write: bool, stages: int = STAGES) -> None:
    """Fit the model (``stages`` equal parts of the placement phase, each with its own
    weights), report held-out losses by stage, optionally store it."""
    rows = list(read_rows(paths))
    train = [r for r in rows if r["game"] % 10 != 0]
    # Medium plays the same placements from the same position, so early positions recur
    # across games: a held-out position also met in training would measure memory, not
    # judgement, and is left out of the report.
    seen = {(r["black"], r["white"], r["side"]) for r in train}
    held = [r for r in rows if r["game"] % 10 == 0 and (r["black"], r["white"], r["side"]) not in seen]
    print(f"{len(rows)} positions: {len(train)} to fit, {len(held)} held out (positions not met in fitting)")
    hand = Evaluator(rules)
    hand.placement_model = None
    first_side = 1 if rules.first_mover == "white" else 0

    def hand_value(r: dict[str, int]) -> int:
        first, second = first_second(rules, r)
        own, opp = (first, second) if r["side"] == first_side else (second, first)
        v = hand.placement(own, opp, r["side"])
        return v if r["side"] == first_side else -v

    # Calibrate the hand-written evaluation and the constant on the training rows.
    mean = sum(win_chance(r["score"]) for r in train) / len(train)
    # The mean label at each count of pieces placed (and side to act): a baseline that
    # knows the stage, which the model's bias also learns.
    sums: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for r in train:
        key = ((r["black"] | r["white"]).bit_count(), r["side"])
        sums[key][0] += win_chance(r["score"])
        sums[key][1] += 1
    by_count = {k: v[0] / v[1] for k, v in sums.items()}
    best_k, best_loss = 1.0, math.inf
    for k in (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0):
        loss = sum(_loss(win_chance(round(k * hand_value(r))), win_chance(r["score"])) for r in train)
        if loss < best_loss:
            best_k, best_loss = k, loss
    trainer = Trainer(rules, stages)
    rng = random.Random(1)
    for epoch in range(epochs):
        rng.shuffle(train)
        total = 0.0
        for r in train:
            first, second = first_second(rules, r)
            total += trainer.step(first, second, win_chance(r["score"]), rate)
        print(f"epoch {epoch + 1}: training loss {1000 * total / len(train):.1f}", flush=True)
    model = trainer.model()
    by_stage: dict[int, list[tuple[float, float, float, float]]] = defaultdict(list)
    for r in held:
        first, second = first_second(rules, r)
        target = win_chance(r["score"])
        stage = model.stage((first | second).bit_count())
        by_stage[stage].append(
            (
                _loss(mean, target),
                _loss(by_count.get(((first | second).bit_count(), r["side"]), mean), target),
                _loss(win_chance(round(best_k * hand_value(r))), target),
                _loss(win_chance(model.value(first, second)), target),
            )
        )
    print(f"held-out excess loss x1000 (hand-written scaled by {best_k}):")
    print("stage (pieces placed) | positions | constant | mean by pieces placed | hand-written | fitted")
    totals = [0.0, 0.0, 0.0, 0.0]
    n = 0
    for stage in sorted(by_stage):
        losses = by_stage[stage]
        stage_sums = [sum(x[i] for x in losses) for i in range(4)]
        totals = [t + s for t, s in zip(totals, stage_sums, strict=True)]
        n += len(losses)
        low, high = model.stage_range(stage)
        print(f"{low}-{high} | {len(losses)} | " + " | ".join(f"{1000 * s / len(losses):.1f}" for s in stage_sums))
    print("all | " + str(n) + " | " + " | ".join(f"{1000 * t / n:.1f}" for t in totals))
    if write:
        model.save(MODEL_FILE)
        print(f"wrote {MODEL_FILE} ({model_key(rules.variant, rules.size)})")


def term_values(evaluator: Evaluator, first: int, second: int) -> list[int]:
    """The hand-written placement terms (``PLACEMENT_FEATURES``) of a board from the first
    mover's side, in that order: ``evaluator.placement`` is their weighted sum."""
    terms = evaluator.placement_terms(first, second, evaluator.first_mover)
    return [terms[name] for name in PLACEMENT_FEATURES]


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``x`` with ``matrix @ x == vector`` (Gaussian elimination with pivoting; small systems)."""
    n = len(vector)
    a = [[*row, v] for row, v in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            f = a[r][col] / a[col][col]
            if f:
                for c in range(col, n + 1):
                    a[r][c] -= f * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def _logistic(samples: list[tuple[list[int], int, float, float]], features: int, stages: int) -> list[float]:
    """Newton's method for a logistic fit: ``features`` weights shared by all samples and
    one bias per stage. A sample is (feature values, stage, fixed logit offset, target)."""
    n = features + stages
    w = [0.0] * n
    for _ in range(15):
        grad = [0.0] * n
        hess = [[1e-4 if i == j else 0.0 for j in range(n)] for i in range(n)]  # a ridge for unseen stages
        for x, stage, offset, target in samples:
            idx = [*range(features), features + stage]
            vals = [*x[:features], 1]
            z = offset + sum(w[i] * v for i, v in zip(idx, vals, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            g, h = p - target, p * (1 - p)
            for i, vi in zip(idx, vals, strict=True):
                grad[i] += g * vi
                for j, vj in zip(idx, vals, strict=True):
                    hess[i][j] += h * vi * vj
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
    return w


def fit_terms(rules: Ruleset, paths: list[Path]) -> dict[str, int]:
    """Fit the four hand-written placement weights (centipieces) to the labels; print the
    held-out excess loss against a bias per count of pieces placed and the shipped weights.

    Four weights cannot learn a pattern, only how much each kind of cell is worth; with
    every tenth game held out that is what the data can support without memory.
    """
    rows = list(read_rows(paths))
    hand = Evaluator(rules)
    hand.placement_model = None
    stages = rules.size * rules.size
    shipped = [hand.p_adj, hand.p_edge, hand.p_corner, hand.p_entry]
    k = len(PLACEMENT_FEATURES)
    data = []
    for r in rows:
        x = term_values(hand, *first_second(rules, r))
        data.append((x, (r["black"] | r["white"]).bit_count(), win_chance(r["score"]), r["game"] % 10 == 0))
    train = [(x, st, 0.0, t) for x, st, t, held in data if not held]
    held = [(x, st, t) for x, st, t, h in data if h]
    print(f"{len(rows)} positions: {len(train)} to fit, {len(held)} held out (every tenth game)")
    fitted = _logistic(train, k, stages)
    bias_only = _logistic(train, 0, stages)
    as_shipped = _logistic(
        [(x, st, sum(a * b for a, b in zip(shipped, x, strict=True)) / SCALE, t) for x, st, _o, t in train], 0, stages
    )

    def held_loss(weights: list[float], biases: list[float]) -> float:
        total = sum(_loss(1 / (1 + math.exp(-(sum(a * b for a, b in zip(weights, x, strict=True)) + biases[st]))), t)
                    for x, st, t in held)  # fmt: skip
        return 1000 * total / len(held)

    print("held-out excess loss x1000: bias by pieces placed | shipped weights | fitted weights")
    shipped_logit = [w / SCALE for w in shipped]
    print(f"{held_loss([0.0] * k, bias_only):.1f} | {held_loss(shipped_logit, as_shipped):.1f} | "
          f"{held_loss(fitted[:k], fitted[k:]):.1f}")  # fmt: skip
    weights = {name: round(SCALE * w) for name, w in zip(PLACEMENT_FEATURES, fitted[:k], strict=True)}
    print(f"shipped {dict(zip(PLACEMENT_FEATURES, shipped, strict=True))}, fitted {weights}")
    return weights


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="play and label placement positions")
    gen.add_argument("--variant", default="standard")
    gen.add_argument("--games", type=int, default=100)
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--nodes", type=int, default=20_000, help="node limit of each label search")
    gen.add_argument("--out", type=Path, required=True)
    gen.add_argument(
        "--label",
        choices=("search", "filled"),
        default="search",
        help="label by each position's search, or by the searched value of the game's filled board",
    )
    gen.add_argument(
        "--play",
        choices=("medium", "search"),
        default="medium",
        help="who places: medium (15%% at random), or the label searcher itself (random in the first half only)",
    )
    gen.add_argument("--play-nodes", type=int, default=LATE_NODES, help="node limit of each placement by --play search")
    gen.add_argument(
        "--label-from", type=int, default=0, help="label only positions with at least this many pieces placed"
    )
    wid = sub.add_parser("width", help="what the placement width costs against an exact-root search")
    wid.add_argument("--variant", default="standard")
    wid.add_argument("--games", type=int, default=20)
    wid.add_argument("--seed", type=int, default=1)
    wid.add_argument("--nodes", type=int, default=1_000_000, help="node limit of each exact-root search")
    wid.add_argument("--width", type=int, default=get_level("hard").placement_width)
    wid.add_argument("--play-nodes", type=int, default=20_000, help="node limit of each searched placement")
    fitp = sub.add_parser("fit", help="fit the model to generated positions")
    fitp.add_argument("--variant", default="standard")
    fitp.add_argument("--epochs", type=int, default=8)
    fitp.add_argument("--rate", type=float, default=0.002)
    fitp.add_argument("--write", action="store_true", help=f"store the weights in {MODEL_FILE}")
    fitp.add_argument(
        "--stages",
        type=int,
        default=STAGES,
        help=f"equal parts of the placement phase, each with its own weights (default {STAGES})",
    )
    fitp.add_argument(
        "--terms", action="store_true", help="fit the four hand-written placement weights instead of the n-tuple model"
    )
    fitp.add_argument("data", type=Path, nargs="+")
    for sp in (gen, wid, fitp):
        sp.add_argument("--size", type=int, default=5, choices=(5, 7, 9), help="board size (default 5)")
    args = parser.parse_args(argv)
    rules = Ruleset.make(args.variant, args.size)
    if args.command == "generate":
        generate(
            rules, args.games, args.seed, args.nodes, args.out, args.label, args.play, args.play_nodes, args.label_from
        )
    elif args.command == "width":
        width_report(width_records(rules, args.games, args.seed, args.nodes, args.width, args.play_nodes), args.width)
    elif args.terms:
        fit_terms(rules, args.data)
    else:
        fit(rules, args.data, args.epochs, args.rate, args.write, args.stages)


if __name__ == "__main__":
    main()
