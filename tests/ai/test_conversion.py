"""Play that converts: the side ahead makes progress instead of going round in circles."""

from __future__ import annotations

from engine import Position, Ruleset
from engine.ai.levels import get_level
from engine.ai.player import choose, make_searcher
from engine.ai.repetition import game_keys
from engine.position import START

LUDII = Ruleset.make("ludii", 5)
#: White (4 pieces) against Black (2) under the ludii preset: no move limit, so
#: nothing but captures ends the game; Black to move.
AHEAD = "5/1w3/2b2/1w1w1/w3b b m 0/0 - 0 1"


def _play(contempt: int, turns: int = 80) -> tuple[int, Position]:
    """Self-play from AHEAD at a fixed node budget (deterministic); returns how many
    turn-start positions came back, and the final position."""
    level = get_level("hard")
    pos = Position.from_spn(AHEAD, LUDII)
    searchers = [make_searcher(LUDII, level), make_searcher(LUDII, level)]
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
    """The control: the same search blind to repetitions goes round in circles and has
    not won after 80 turns (so the test above measures the contempt, not luck)."""
    repeats, pos = _play(contempt=0)
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
