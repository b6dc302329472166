"""Play that converts: the side ahead makes progress instead of going round in circles."""

from __future__ import annotations

import dataclasses

from engine import Position, Ruleset
from engine.ai.evaluate import Weights, default_weights
from engine.ai.levels import get_level
from engine.ai.player import choose, make_searcher
from engine.ai.repetition import game_keys
from engine.position import START

LUDII = Ruleset.make("ludii", 5)
#: White (4 pieces) against Black (2) under the ludii preset: no move limit, so
#: nothing but captures ends the game; Black to move.
AHEAD = "5/1w3/2b2/1w1w1/w3b b m 0/0 - 0 1"


def _weights(**movement: int) -> Weights:
    data = default_weights().to_dict()
    data["movement"].update(movement)
    return Weights.from_dict(data)


#: The evaluation without the conversion terms (a plain material count).
LINEAR = _weights(trade=0, press=0)


def _play(contempt: int, turns: int = 80, weights: Weights | None = None) -> tuple[int, Position]:
    """Self-play from AHEAD at a fixed node budget (deterministic); returns how many
    turn-start positions came back, and the final position."""
    level = get_level("hard")
    pos = Position.from_spn(AHEAD, LUDII)
    searchers = [make_searcher(LUDII, level, weights), make_searcher(LUDII, level, weights)]
    for searcher in searchers:
        searcher.contempt = contempt
        # The ending is small enough for the endgame tables: switch them off, this
        # measures the search's own play.
        searcher.tables, searcher.table_pieces = None, 0
    seen: set[tuple[int, int, int]] = set()
    repeats = 0
    while pos.result is None and pos.turn < turns:
        if pos.phase == "m" and pos.state == START:
            key = (pos.bb[0], pos.bb[1], pos.side)
            repeats += key in seen
            seen.add(key)
        choice = choose(pos, level, 60_000, max_nodes=4000, searcher=searchers[pos.side])
        pos.push_code(choice.code)
    return repeats, pos


def test_side_ahead_closes_in_instead_of_shuffling() -> None:
    repeats, pos = _play(contempt=50)
    assert pos.result is not None and pos.result.winner == 1 and pos.result.reason == "capture-all"
    assert repeats == 0


def test_without_contempt_the_same_search_shuffles() -> None:
    """The control: the same search blind to repetitions, and with a plain material
    count, goes round in circles and has not won after 80 turns (so the test above
    measures the contempt, not luck)."""
    repeats, pos = _play(contempt=0, weights=LINEAR)
    assert repeats > 10
    assert pos.result is None


def test_game_history_reaches_the_search() -> None:
    """Positions of the game so far (back to the last capture) count as seen."""
    pos = Position.from_spn(AHEAD, LUDII)
    for text in ("c3-c4", "b4-a4", "c4-c3", "a4-b4"):  # both sides go and come back
        pos.play(text)
    keys = game_keys(pos)
    start = Position.from_spn(AHEAD, LUDII)
    assert hash((start.bb[0], start.bb[1], start.side)) in keys
    assert len(keys) == 4  # the root repeats the start: four distinct turn starts


def test_contempt_follows_material_then_structure() -> None:
    """Repeated positions: -contempt for the side with more pieces, +contempt for the
    side with fewer; at equal material half of it by a clear structural plus."""
    import random

    from engine.ai.repetition import STRUCTURAL_PLUS, repetition_value
    from engine.ai.search import CONTEMPT

    level = get_level("hard")
    searcher = make_searcher(LUDII, level)
    seen = {"ahead": 0, "behind": 0, "plus": 0, "minus": 0, "level": 0}
    rng = random.Random(4)
    for _ in range(40):
        pos = Position(LUDII)
        while pos.result is None and pos.turn < 120:
            pos.push_code(pos.random_code(rng))
            if pos.result is not None or pos.phase != "m" or pos.state != START:
                continue
            own, other = pos.count(pos.side), pos.count(1 - pos.side)
            static = searcher._static(pos)
            value = repetition_value(pos, CONTEMPT, static)
            if own > other:
                assert value == -CONTEMPT
                seen["ahead"] += 1
            elif own < other:
                assert value == CONTEMPT
                seen["behind"] += 1
            elif static > STRUCTURAL_PLUS:
                assert value == -CONTEMPT // 2
                seen["plus"] += 1
            elif static < -STRUCTURAL_PLUS:
                assert value == CONTEMPT // 2
                seen["minus"] += 1
            else:
                assert value == 0
                seen["level"] += 1
    assert min(seen.values()) > 0, seen


#: Black 12 pieces against White 6 under the ludii preset, from a self-play game of the
#: search as the command line plays it (no history): 20 turns after the last capture,
#: and the plain material count never captured again in 100 more turns.
STUCK = "wb1bb/b2b1/wbb1b/wwb1b/wwb1b w m 0/0 - 20 52"


def _play_without_history(spn: str, weights: Weights | None, turns: int, progress: bool = True) -> Position:
    """Both sides as ``python -m engine bestmove SPN`` plays (what Ludii's match runner
    calls): every action from the bare SPN with a fresh searcher, so no repetition of
    the game can be seen; 4000 nodes an action, endgame tables off; ``progress=False``
    without the stuck game's forced capture (``progress.py``)."""
    level = dataclasses.replace(get_level("hard"), progress=progress)
    pos = Position.from_spn(spn, LUDII)
    start = pos.turn
    while pos.result is None and pos.turn < start + turns:
        bare = Position.from_spn(pos.spn(), LUDII)
        searcher = make_searcher(LUDII, level, weights)
        searcher.tables, searcher.table_pieces = None, 0
        pos.push_code(choose(bare, level, 60_000, max_nodes=4000, searcher=searcher).code)
    return pos


def test_side_ahead_trades_down_and_wins_without_the_games_history() -> None:
    pos = _play_without_history(STUCK, None, turns=60)
    assert pos.result is not None and pos.result.winner == 0 and pos.result.reason == "capture-all"


def test_plain_material_count_never_captures_there() -> None:
    """The control: a plain material count sees an even trade as nothing and keeps the
    12 against 6 for 100 turns (without the stuck game's forced capture, which is
    another way out: below)."""
    pos = _play_without_history(STUCK, LINEAR, turns=100, progress=False)
    assert pos.result is None
    assert (pos.count(0), pos.count(1)) == (12, 6)


def test_a_stuck_game_is_broken_by_a_forced_capture_even_with_a_plain_count() -> None:
    """The clock says 20 turns without a capture: with nothing but a material count,
    hard still plays the capture White cannot stop, and the game moves on."""
    pos = _play_without_history(STUCK, LINEAR, turns=100)
    assert pos.result is not None or pos.count(1) < 6
    assert pos.count(0) - pos.count(1) > 12 - 6


def test_trade_term_counts_the_lead_times_the_pieces_gone() -> None:
    from engine.ai.evaluate import Evaluator

    ludii = Evaluator(LUDII)
    pos = Position.from_spn(STUCK, LUDII)  # White (6) to act against Black (12)
    own, opp = pos.bb[pos.side], pos.bb[1 - pos.side]
    assert ludii.trade(own, opp) == (6 - 12) * (24 - 18)
    assert ludii.trade(opp, own) == (12 - 6) * (24 - 18)
    # After an even trade (one piece of each side off) the side ahead gains by the term
    # and the side behind loses.
    own2, opp2 = own & (own - 1), opp & (opp - 1)
    assert ludii.trade(opp2, own2) > ludii.trade(opp, own)
    assert ludii.trade(own2, opp2) < ludii.trade(own, opp)
    assert ludii.w_trade > 0
    # Under a move limit more pieces already win on time: the term is off.
    standard = Evaluator(Ruleset.make("standard", 5))
    assert standard.trade(own, opp) == 0 and standard.w_trade == 0


def test_press_term_counts_how_few_steps_the_side_behind_has() -> None:
    """The side ahead gains by hemming the other side in, but a side with no step at all
    passes and cannot be forced: it counts as free, like one with many steps."""
    from engine.ai.evaluate import PRESS_CAP, Evaluator

    press = Evaluator.press
    assert press(3, 5, 2) == 3 * (PRESS_CAP - 2)  # ahead by 3, the other side has 2 steps
    assert press(-3, 2, 5) == -3 * (PRESS_CAP - 2)  # the same seen from the side behind
    assert press(3, 5, 0) == 0  # walled in: it passes, no zugzwang
    assert press(3, 5, PRESS_CAP) == 0
    assert press(0, 1, 1) == 0
    # Only where no move limit ends the game.
    assert Evaluator(LUDII).w_press > 0
    assert Evaluator(Ruleset.make("standard", 5)).w_press == 0
