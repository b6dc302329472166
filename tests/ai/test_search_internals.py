"""The search's shortcuts give the same answers as the slow, obvious way."""

from __future__ import annotations

import copy
import random

import pytest

from engine import Position, Ruleset
from engine.ai.leaves import EVAL_LIMIT
from engine.ai.ordering import CODE_BITS
from engine.ai.player import components
from engine.ai.search import Limits, Searcher
from engine.position import POSITION_SLOTS, START

VARIANTS = [("standard", 5), ("ludii", 5), ("seejeh", 5), ("fouze", 5), ("standard", 7)]


def _movement_positions(rules: Ruleset, games: int) -> list[Position]:
    """Positions at the start of a movement turn from random playouts."""
    out = []
    for g in range(games):
        rng = random.Random(g)
        pos = Position(rules)
        while pos.result is None:
            if pos.phase == "m" and pos.state == START:
                out.append(pos.copy())
            pos.push_code(pos.random_code(rng))
    return out


@pytest.mark.parametrize(("variant", "size"), VARIANTS)
def test_capture_steps_are_the_capturing_legal_steps(variant: str, size: int) -> None:
    rules = Ruleset.make(variant, size)
    _evaluator, tactics = components(rules)
    checked = 0
    for pos in _movement_positions(rules, 25):
        expected = {c for c in pos.legal_codes() if tactics.capture_count(pos, c)}
        got = tactics.capture_steps(pos)
        assert {c for _n, c in got} == expected, pos.spn()
        if not rules.line_capture:
            assert all(n == tactics.capture_count(pos, c) for n, c in got)
        checked += bool(expected)
    assert checked > 20


@pytest.mark.parametrize(("variant", "size"), VARIANTS)
def test_step_order_lists_exactly_the_legal_steps(variant: str, size: int) -> None:
    rules = Ruleset.make(variant, size)
    evaluator, tactics = components(rules)
    searcher = Searcher(evaluator, tactics)
    for pos in _movement_positions(rules, 10):
        if pos._nlocked:
            continue
        side = pos.side
        ordered, caps = searcher.ordering.steps(pos.bb[side], pos.bb[1 - side], side, -1, 0)
        assert sorted(ordered) == sorted(pos.legal_codes()), pos.spn()
        assert caps == {c for c in ordered if tactics.capture_count(pos, c)}
        # Captures come first, most pieces first.
        counts = [tactics.capture_count(pos, c) for c in ordered[: len(caps)]]
        assert all(counts) and counts == sorted(counts, reverse=True)


@pytest.mark.parametrize(("variant", "size"), VARIANTS)
def test_front_then_rest_is_the_step_order(variant: str, size: int) -> None:
    """One ply from the horizon the search takes the steps in two parts; together they
    are exactly the one-list order, whatever the history, the killers and the TT action."""
    rules = Ruleset.make(variant, size)
    evaluator, tactics = components(rules)
    ordering = Searcher(evaluator, tactics).ordering
    rng = random.Random(size)
    checked = 0
    for pos in _movement_positions(rules, 10):
        if pos._nlocked:
            continue
        side = pos.side
        own, enemy = pos.bb[side], pos.bb[1 - side]
        legal = pos.legal_codes()
        for history in ordering.history:
            # Random scores, each above its code (the table's layout).
            history[:] = [rng.randrange(50) << CODE_BITS | code for code in range(len(history))]
        for _ in range(4):
            picks = [*legal, -1, tactics.pass_, rng.randrange(tactics.step_base, tactics.remove_base)]
            tt_move = rng.choice(picks)
            ordering.killers[3][:] = [rng.choice(picks), rng.choice(picks)]
            whole, caps = ordering.steps(own, enemy, side, tt_move, 3)
            front, front_caps, more = ordering.front(own, enemy, side, tt_move, 3)
            rest = ordering.rest(own, enemy, side, front) if more else []
            assert front + rest == whole and front_caps == caps, (pos.spn(), tt_move)
            assert len(rest) == more
            checked += 1
    assert checked > 100


def test_history_keys_keep_the_code_below_the_score() -> None:
    """The history table holds sort keys: rewards and ageing change the score only."""
    evaluator, tactics = components(Ruleset.make("standard", 5))
    ordering = Searcher(evaluator, tactics).ordering
    ordering.reward(0, 40, 3)
    ordering.reward(0, 40, 5)
    ordering.reward(1, 7, 2)
    assert ordering.history[0][40] == 34 << CODE_BITS | 40
    ordering.age()
    for side, scores in ((0, {40: 34 >> 2}), (1, {7: 4 >> 2})):
        for code, key in enumerate(ordering.history[side]):
            assert (key >> CODE_BITS, key & ((1 << CODE_BITS) - 1)) == (scores.get(code, 0), code)


def _state(pos: Position) -> tuple[object, ...]:
    """A snapshot of every field a push may change: the containers copied, of the undo
    stack its length and its last entry (a push or a pop changes only that)."""
    fields: list[object] = []
    for name in POSITION_SLOTS:
        value = getattr(pos, name)
        if name == "_stack":
            value = (len(value), copy.deepcopy(value[-1:]))
        elif name in ("bb", "hand", "hist"):
            value = copy.deepcopy(value)
        fields.append(value)
    return tuple(fields)


@pytest.mark.parametrize(("variant", "size"), [*VARIANTS, ("aljaafreh", 5), ("five-in-a-row", 5)])
def test_push_quiet_equals_push_code(variant: str, size: int) -> None:
    """The engine's short path for a step that takes nothing, where the search uses it,
    leaves exactly the position (and the undo entry) the general path leaves."""
    rules = Ruleset.make(variant, size)
    _evaluator, tactics = components(rules)
    played = 0
    for pos in _movement_positions(rules, 6)[::4]:
        if not pos.quiet_steps_plain():
            continue
        fast = pos.copy()
        for code in pos.legal_codes():
            if code == tactics.pass_ or tactics.capture_count(pos, code):
                continue
            before = _state(pos)
            pos.push_code(code)
            fast.push_quiet(code)
            assert _state(fast) == _state(pos), (pos.spn(), code)
            pos.pop()
            fast.pop()
            assert _state(fast) == _state(pos) == before, (pos.spn(), code)
            played += 1
    assert played > 100 if rules.win_line == 0 else played == 0


@pytest.mark.parametrize(("variant", "size"), [v for v in VARIANTS if v[0] != "aljaafreh"])
def test_quiet_leaf_equals_playing_the_step_and_quiescing(variant: str, size: int) -> None:
    rules = Ruleset.make(variant, size)
    evaluator, tactics = components(rules)
    searcher = Searcher(evaluator, tactics)
    assert searcher.lazy_leaves
    shortcuts = 0
    for pos in _movement_positions(rules, 8):
        searcher.pos = pos
        if not searcher.leaves.steps_go_on(pos):
            continue
        for code in pos.legal_codes():
            if code == tactics.pass_ or tactics.capture_count(pos, code):
                continue
            for beta in (-300, -20, 0, 20, 300):
                leaf = searcher.leaves.quiet(pos, code, beta)
                if leaf is None:
                    continue
                pos.push_code(code)
                played = searcher._quiesce(0, beta - 1, beta, 1)
                pos.pop()
                assert leaf == played, (pos.spn(), code, beta)
                shortcuts += 1
    assert shortcuts > 100


def test_no_shortcut_where_a_quiet_step_can_end_the_game() -> None:
    for variant in ("aljaafreh", "five-in-a-row"):
        rules = Ruleset.make(variant, 5)
        evaluator, tactics = components(rules)
        searcher = Searcher(evaluator, tactics)
        assert not searcher.lazy_leaves and not searcher.futility


@pytest.mark.patches_internals
def test_transposition_table_stays_bounded_during_one_search() -> None:
    """Issue 9 item 7: the limit held only at the start of a search, so one long search
    grew the table without bound. Count entries, not bytes or seconds."""
    rules = Ruleset.make("standard", 5)
    evaluator, tactics = components(rules)
    pos = Position.from_spn("bbbwb/ww1ww/ww2b/b1b1w/bwwbb w m 0/0 - 1 17", rules)
    unbounded = Searcher(evaluator, tactics)
    unbounded.search(pos, Limits(max_depth=11))
    assert len(unbounded.tt) > 2000  # the search below would overflow a small table
    bounded = Searcher(evaluator, tactics, tt_limit=500)
    sizes: list[int] = []
    store = bounded._evict

    def evict() -> None:
        sizes.append(len(bounded.tt))
        store()

    bounded._evict = evict  # type: ignore[method-assign]
    result = bounded.search(pos, Limits(max_depth=11))
    assert len(bounded.tt) <= 500
    assert sizes and max(sizes) <= 500  # never above the limit, even mid-search
    assert pos.is_legal(pos.table.actions[result.best])
    assert len(bounded.evals) <= EVAL_LIMIT
