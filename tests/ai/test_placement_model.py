"""The learned placement evaluation: its symmetry, its lookup tables, when it is used,
and that its trainer learns a pattern it is shown."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from engine import Position, Ruleset
from engine.ai import analysis
from engine.ai import placement_model as pm
from engine.ai.evaluate import Evaluator, default_weights
from engine.ai.placement_model import PlacementModel, Shape, Trainer, base_shapes, symmetries


def _image(bits: int, mapping: list[int]) -> int:
    out = 0
    while bits:
        low = bits & -bits
        bits ^= low
        out |= 1 << mapping[low.bit_length() - 1]
    return out


def _placements(rules: Ruleset, count: int, seed: int) -> list[tuple[int, int]]:
    """(first mover's, second mover's) pieces of random placement positions."""
    rng = random.Random(seed)
    first = 1 if rules.first_mover == "white" else 0
    out = []
    for _ in range(count):
        pos = Position(rules)
        for _ in range(rng.randrange(2 * rules.pieces)):
            pos.push_code(rng.choice(pos.legal_codes()))
        out.append((pos.bb[first], pos.bb[1 - first]))
    return out


def _random_model(rules: Ruleset, seed: int) -> PlacementModel:
    rng = random.Random(seed)
    weights = {
        name: [[rng.uniform(-0.2, 0.2) for _ in range(3 ** len(cells))] for _ in range(pm.STAGES)]
        for name, cells in base_shapes(rules.size).items()
    }
    bias = [[rng.uniform(-0.1, 0.1) for _ in range(5)] for _ in range(2 * rules.pieces + 1)]
    return PlacementModel(rules, weights, bias)


@pytest.mark.parametrize("n", [5, 7, 9])
def test_the_eight_symmetries_are_distinct_permutations(n: int) -> None:
    maps = symmetries(n)
    assert len({tuple(m) for m in maps}) == 8
    for m in maps:
        assert sorted(m) == list(range(n * n))
    for cells in base_shapes(n).values():
        shape = Shape("x", cells, n)
        assert all(len(set(image)) == len(cells) for image in shape.images)


def test_the_value_is_the_same_on_every_symmetric_image() -> None:
    rules = Ruleset.make("standard", 5)
    model = _random_model(rules, 1)
    for first, second in _placements(rules, 40, 2):
        values = {model.value(_image(first, m), _image(second, m)) for m in symmetries(5)}
        assert len(values) == 1, values


def test_lookup_tables_agree_with_the_trainers_direct_sum() -> None:
    rules = Ruleset.make("standard", 5)
    trainer = Trainer(rules)
    rng = random.Random(3)
    for shape in trainer.weights.values():
        for stage in shape:
            stage[:] = [rng.uniform(-0.3, 0.3) for _ in stage]
    model = trainer.model()
    for first, second in _placements(rules, 60, 4):
        placed = (first | second).bit_count()
        diff = max(-2, min(2, first.bit_count() - second.bit_count())) + 2
        stage = model.stage(placed)
        assert stage == min(2, placed * 3 // 25)  # thirds of the 24 pieces
        logit = trainer.bias[placed][diff] + sum(
            trainer.weights[s.name][stage][s.index(image, first, second)] for s in trainer.shapes for image in s.images
        )
        # Each table entry is rounded to a centipiece: at most half a unit per lookup.
        assert abs(model.value(first, second) - logit * pm.SCALE) <= 0.5 * 40


def test_a_model_may_split_the_placement_phase_into_more_stages(tmp_path: Path) -> None:
    """A model fitted with six stages (``fit --stages 6``) uses sixths of the phase, its
    tables agree with its trainer's sum, and it comes back from the file with six."""
    rules = Ruleset.make("standard", 7)
    trainer = Trainer(rules, stages=6)
    rng = random.Random(12)
    for shape in trainer.weights.values():
        assert len(shape) == 6
        for stage in shape:
            stage[:] = [rng.uniform(-0.3, 0.3) for _ in stage]
    model = trainer.model()
    assert model.stages == 6
    assert [model.stage_range(s) for s in range(6)] == [(0, 8), (9, 16), (17, 24), (25, 32), (33, 40), (41, 48)]
    for first, second in _placements(rules, 40, 13):
        placed = (first | second).bit_count()
        diff = max(-2, min(2, first.bit_count() - second.bit_count())) + 2
        stage = model.stage(placed)
        assert stage == min(5, placed * 6 // 49)
        logit = trainer.bias[placed][diff] + sum(
            trainer.weights[s.name][stage][s.index(image, first, second)] for s in trainer.shapes for image in s.images
        )
        assert abs(model.value(first, second) - logit * pm.SCALE) <= 0.5 * 54
    path = tmp_path / "model.json"
    model.save(path)
    entry = json.loads(path.read_text(encoding="utf-8"))["standard/7"]
    again = PlacementModel(rules, entry["weights"], entry["bias"])
    assert again.stages == 6
    # Shapes with different stage counts are not a model.
    entry["weights"]["arm"] = entry["weights"]["arm"][:3]
    with pytest.raises(ValueError, match="same number of stages"):
        PlacementModel(rules, entry["weights"], entry["bias"])


def test_the_scale_is_the_coachs() -> None:
    assert pm.SCALE == analysis.SCALE


def test_the_shipped_model_is_used_only_for_its_preset() -> None:
    assert pm.load(Ruleset.make("standard", 5)) is not None
    assert pm.load(Ruleset.make("standard", 5, {"turn_limit": "300"})) is not None
    assert pm.load(Ruleset.make("standard", 5, {"chain": "any"})) is None
    assert pm.load(Ruleset.make("standard", 5, {"first_mover": "black"})) is None
    seven = pm.load(Ruleset.make("standard", 7))  # its own weights, fitted on 7x7
    assert seven is not None and seven.rules.size == 7 and seven is not pm.load(Ruleset.make("standard", 5))
    assert pm.load(Ruleset.make("standard", 7, {"chain": "any"})) is None
    assert pm.load(Ruleset.make("standard", 9)) is None
    assert pm.load(Ruleset.make("seejeh", 5)) is None
    assert pm.load(Ruleset.make("ludii", 5)) is None  # a fit with filled-board labels played worse
    stored = json.loads(pm.MODEL_FILE.read_text(encoding="utf-8"))
    for key, entry in stored.items():
        variant, size = key.split("/")
        assert key == pm.model_key(variant, int(size)) and entry["size"] == int(size)
        assert set(entry["weights"]) == set(base_shapes(entry["size"]))
        assert len(entry["bias"]) == 2 * Ruleset.make(variant, entry["size"]).pieces + 1


@pytest.mark.parametrize("size", [5, 7])
def test_the_evaluator_scores_placement_with_the_model_from_either_side(size: int) -> None:
    rules = Ruleset.make("standard", size)
    evaluator = Evaluator(rules)
    model = evaluator.placement_model
    assert model is not None
    rng = random.Random(6)
    checked = 0
    for _ in range(20):
        pos = Position(rules)
        while pos.phase == "p":
            first, second = pos.bb[1], pos.bb[0]  # standard: White places last and moves first
            expected = model.value(first, second)
            assert evaluator(pos) == (expected if pos.side == 1 else -expected)
            checked += 1
            pos.push_code(rng.choice(pos.legal_codes()))
    assert checked > 400
    # Other rules, and explicit weights (the tuning script's), keep the hand-written terms.
    assert Evaluator(Ruleset.make("standard", 9)).placement_model is None
    assert Evaluator(rules, default_weights()).placement_model is None


def test_the_trainer_learns_a_pattern_it_is_shown() -> None:
    """Targets from a hidden rule (who holds more cells next to the centre): the fit
    must predict held-out positions far better than a constant."""
    rules = Ruleset.make("standard", 5)
    centre_adj = sum(1 << c for c in (7, 11, 13, 17))

    def target(first: int, second: int) -> float:
        edge = (first & centre_adj).bit_count() - (second & centre_adj).bit_count()
        return 1.0 / (1.0 + math.exp(-1.2 * edge))

    data = _placements(rules, 700, 7)
    train, held = data[:600], data[600:]
    trainer = Trainer(rules)
    for _ in range(6):
        for first, second in train:
            trainer.step(first, second, target(first, second), 0.01)
    model = trainer.model()
    mean = sum(target(f, s) for f, s in train) / len(train)
    err_model = sum((analysis.win_chance(model.value(f, s)) - target(f, s)) ** 2 for f, s in held)
    err_const = sum((mean - target(f, s)) ** 2 for f, s in held)
    assert err_model < 0.2 * err_const, (err_model, err_const)


def test_weights_round_trip_through_the_file(tmp_path: Path) -> None:
    rules = Ruleset.make("standard", 5)
    model = _random_model(rules, 8)
    path = tmp_path / "model.json"
    path.write_text(json.dumps({"ludii/5": {"kept": True}, "standard/7": {"kept": True}}), encoding="utf-8")
    model.save(path)
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert stored["ludii/5"] == stored["standard/7"] == {"kept": True}
    again = PlacementModel(rules, stored["standard/5"]["weights"], stored["standard/5"]["bias"])
    for first, second in _placements(rules, 30, 9):
        assert abs(again.value(first, second) - model.value(first, second)) <= 40


def test_the_generator_labels_every_placement_from_the_first_movers_side(tmp_path: Path) -> None:
    from bench.learn_placement import first_view, generate, label_searcher, read_rows
    from engine.ai.search import Limits

    rules = Ruleset.make("standard", 5)
    out = tmp_path / "data.jsonl"
    generate(rules, games=1, seed=5, nodes=300, out=out)
    rows = list(read_rows([out]))
    assert len(rows) == 2 * rules.pieces  # every placement of the game
    assert [(r["black"] | r["white"]).bit_count() for r in rows] == list(range(2 * rules.pieces))
    # The first row (the empty board, a fresh table) is a fresh search's value, turned to
    # the first mover's side (White, the last placer, in standard; Black places first).
    pos = Position(rules)
    score = label_searcher(rules).search(pos, Limits(max_depth=14, max_nodes=300)).score
    assert rows[0]["side"] == 0 and rows[0]["score"] == first_view(rules, pos, score) == -score
    assert label_searcher(rules).evaluate.placement_model is None  # type: ignore[attr-defined]


def test_the_generator_can_label_only_the_late_placements(tmp_path: Path) -> None:
    """``--label-from N``: the same game is played, and only its positions with at least
    N pieces placed are searched and written."""
    from bench.learn_placement import generate, read_rows

    rules = Ruleset.make("standard", 5)
    every, late = tmp_path / "every.jsonl", tmp_path / "late.jsonl"
    generate(rules, games=2, seed=6, nodes=200, out=every)
    generate(rules, games=2, seed=6, nodes=200, out=late, label_from=20)
    all_rows, late_rows = list(read_rows([every])), list(read_rows([late]))
    assert len(late_rows) == 2 * 4  # 20, 21, 22 and 23 pieces placed, in each game
    assert all((r["black"] | r["white"]).bit_count() >= 20 for r in late_rows)
    positions = [(r["game"], r["black"], r["white"], r["side"]) for r in all_rows]
    assert [(r["game"], r["black"], r["white"], r["side"]) for r in late_rows] == [
        p for p in positions if (p[1] | p[2]).bit_count() >= 20
    ]


def _after(pos: Position, code: int) -> tuple[int, int]:
    """The (Black, White) pieces after ``code``, the position left as it was."""
    pos.push_code(code)
    out = (pos.bb[0], pos.bb[1])
    pos.pop()
    return out


def test_filled_labels_are_the_searched_value_of_the_games_filled_board(tmp_path: Path) -> None:
    """``--label filled``: every position of a game carries one label, the value a fresh
    search gives the board the game filled, from the first mover's side."""
    from bench.learn_placement import first_view, generate, label_searcher, read_rows, searched_value
    from engine.ai.search import Limits

    rules = Ruleset.make("ludii", 5)
    out = tmp_path / "data.jsonl"
    # Seed 5's game searched the filled board 3 centipieces apart from a fresh search
    # while the label searcher kept its placement history; seed 9's two games agreed.
    generate(rules, games=1, seed=5, nodes=800, out=out, label="filled")
    first = out.read_text(encoding="utf-8")
    generate(rules, games=2, seed=9, nodes=800, out=out, label="filled")
    out.write_text(first + out.read_text(encoding="utf-8"), encoding="utf-8")
    rows = list(read_rows([out]))
    assert len(rows) == 3 * 2 * rules.pieces
    lone_steps = 0
    for game in {r["game"] for r in rows}:
        own = [r for r in rows if r["game"] == game]
        assert len(own) == 2 * rules.pieces and len({r["score"] for r in own}) == 1
        # Replay the game through its rows, then the last (forced) placement.
        filled = Position(rules)
        for row in own[1:]:
            filled.push_code(next(c for c in filled.legal_codes() if _after(filled, c) == (row["black"], row["white"])))
        (last,) = filled.legal_codes()
        filled.push_code(last)
        assert filled.phase == "m" and filled.side == 0  # Black moves first under ludii
        # One of these boards leaves Black a single first step: searched, not called level.
        score = searched_value(label_searcher(rules), filled, Limits(max_nodes=800))
        assert own[0]["score"] == first_view(rules, filled, score) == score
        lone = len(filled.legal_codes()) == 1
        lone_steps += lone
        assert score != 0 or not lone
    assert lone_steps == 1


def test_search_play_places_the_second_half_by_the_label_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--play search``: random placements only while more than half the board is
    empty; after that every piece is placed by the label searcher at ``play_nodes``."""
    import bench.learn_placement as learn
    from engine.ai.search import Limits

    monkeypatch.setattr(learn, "RANDOM_SHARE", 1.0)  # every placement random where allowed
    rules = Ruleset.make("ludii", 5)
    out = tmp_path / "data.jsonl"
    learn.generate(rules, games=1, seed=3, nodes=600, out=out, label="filled", play="search", play_nodes=500)
    rows = list(learn.read_rows([out]))
    assert len(rows) == 2 * rules.pieces and len({r["score"] for r in rows}) == 1
    # No search ran in the random first half, so a fresh searcher replays the rest exactly.
    first_searched = next(i for i, r in enumerate(rows) if 2 * (25 - (r["black"] | r["white"]).bit_count()) <= 25)
    assert first_searched == 13  # 12 empty cells: the second half begins
    pos = Position(rules)
    for row in rows[1 : first_searched + 1]:
        pos.push_code(next(c for c in pos.legal_codes() if _after(pos, c) == (row["black"], row["white"])))
    searcher = learn.label_searcher(rules)
    for row in rows[first_searched + 1 :]:
        best = searcher.search(pos, Limits(max_depth=14, max_nodes=500)).best
        assert _after(pos, best) == (row["black"], row["white"])
        pos.push_code(best)


def test_placements_near_the_root_are_ranked_by_the_model() -> None:
    from engine.ai.levels import get_level
    from engine.ai.ordering import MODEL_ORDER_PLIES
    from engine.ai.player import make_searcher

    rules = Ruleset.make("standard", 5)
    ordering = make_searcher(rules, get_level("hard")).ordering
    model = ordering.model
    assert model is not None
    rng = random.Random(11)
    for _ in range(10):
        pos = Position(rules)
        for _ in range(rng.randrange(2 * rules.pieces - 2)):
            pos.push_code(rng.choice(pos.legal_codes()))
        codes = pos.legal_codes()
        first, second = pos.bb[1], pos.bb[0]  # standard: White moves first
        if pos.side == 1:
            gains = {c: model.value(first | 1 << c, second) for c in codes}
        else:
            gains = {c: -model.value(first, second | 1 << c) for c in codes}
        ordered, _caps = ordering.order(pos, codes, -1, 0, prune=False)
        assert sorted(ordered) == sorted(codes)
        assert [gains[c] for c in ordered] == sorted(gains.values(), reverse=True)
        deeper, _caps = ordering.order(pos, codes, -1, MODEL_ORDER_PLIES + 1, prune=False)
        assert deeper == ordering.tactics.order_placements(pos, codes)


def test_the_width_report_measures_the_static_rankings_cut() -> None:
    """``width``: every measured position has more empty cells than the width; each
    cell's score is its exact-root value; the loss is what keeping only the ranking's
    first ``width`` cells costs, 0 exactly when the best cell is among them."""
    from bench.learn_placement import width_records
    from engine.ai.tactics import Tactics

    rules = Ruleset.make("ludii", 5)
    records = width_records(rules, games=1, seed=4, nodes=400, width=3, play_nodes=300)
    assert records and {r.side for r in records} == {0, 1}
    tactics = Tactics(rules)
    for r in records:
        assert len(r.scores) > 3 and sorted(r.ranking) == sorted(r.scores)
        values = [tactics.cell_values[c] for c in r.ranking]
        assert values == sorted(values, reverse=True)  # the static ranking
        best = max(r.scores.values())
        assert r.loss(3) == best - max(r.scores[c] for c in r.ranking[:3]) >= 0
        assert (r.loss(3) == 0) == any(r.scores[c] == best for c in r.ranking[:3])
        assert r.loss(len(r.ranking)) == 0


def test_the_term_fit_recovers_the_weights_that_made_the_labels(tmp_path: Path) -> None:
    """``fit --terms``: the four hand-written terms, weighted as the evaluator weights
    them, are its placement value; labels made from known weights give those weights back."""
    from bench.learn_placement import fit_terms, term_values

    rules = Ruleset.make("ludii", 5)
    hand = Evaluator(rules)
    hand.placement_model = None
    rng = random.Random(8)
    truth = [-20, -60, -90, 30]
    rows = []
    for game in range(400):
        cells = rng.sample([c for c in range(25) if c != 12], rng.randrange(2, 24))
        black = sum(1 << c for c in cells[::2])
        white = sum(1 << c for c in cells[1::2])
        x = term_values(hand, black, white)  # Black moves first under ludii
        shipped = [hand.p_adj, hand.p_edge, hand.p_corner, hand.p_entry]
        assert sum(w * v for w, v in zip(shipped, x, strict=True)) == hand.placement(black, white, 0)
        score = sum(w * v for w, v in zip(truth, x, strict=True))
        rows.append({"game": game, "black": black, "white": white, "side": 0, "score": score})
    data = tmp_path / "terms.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    fitted = fit_terms(rules, [data])
    assert list(fitted) == ["centre_adjacent", "edge", "corner", "entry_capture"]
    assert all(abs(f - t) <= 2 for f, t in zip(fitted.values(), truth, strict=True)), fitted


@pytest.mark.parametrize("n", [5, 7, 9])
def test_the_shapes_reach_the_centre_on_every_size(n: int) -> None:
    """The arm is the first step into the centre and the piece it would capture: the
    four cells next to the centre and the one beyond one of them (on 7x7 b4 beyond c4,
    not the edge cell a4); the 2x2 blocks run from the corner to the centre (on 7x7 six
    of them, not only the three of the corner)."""
    m = n // 2
    centre = m * n + m
    shapes = base_shapes(n)
    assert shapes["arm"] == [centre - 1, centre - n, centre + n, centre + 1, centre - 2]
    blocks = [cells for name, cells in shapes.items() if name.startswith("block")]
    assert len(blocks) == m * (m + 1) // 2
    assert any(centre in cells for cells in blocks) and any(0 in cells for cells in blocks)
    rows = [name for name in shapes if name.startswith(("line", "half"))]
    if n <= 7:
        assert rows == [f"line{r}" for r in range(m + 1)]
    else:
        # On 9x9 a whole row would have 3**9 states a stage (about 1.4 million table
        # entries in all): half rows, edge to middle column, stand in.
        assert rows == [f"half{r}" for r in range(m + 1)]
        assert all(shapes[f"half{r}"] == [r * n + f for f in range(m + 1)] for r in range(m + 1))
    # With the eight symmetries the row shapes still see every cell of every row and column.
    for r in range(n):
        row = {r * n + f for f in range(n)}
        column = {f * n + r for f in range(n)}
        for line in (row, column):
            seen = {
                c for name in rows for image in Shape(name, shapes[name], n).images if set(image) <= line for c in image
            }
            assert seen == line, (n, r)
    # Every shape fits a table: at most five cells a shape, or a 7x7 row.
    assert max(3 ** len(cells) for cells in shapes.values()) <= 3**7
