"""Random legal games under every preset and size keep the engine's invariants.

Hypothesis draws a seed; the seed picks every action of a game, so a failing example is
reproducible from the seed it prints. Checked after every action:

* push then pop restores the SPN and the shuttle history exactly;
* the SPN reads back to the same SPN, and, when no piece's shuttle run is long enough to
  matter, to the same legal actions and the same SPN after the next action;
* no legal action <=> the game is over;
* pieces are conserved: a placement moves one piece from hand to board, a step keeps the
  mover's count and never raises the enemy's, a removal takes exactly one piece, so
  board + hand + taken == 2 * pieces, and no count rises after placement;
* the fast paths (``count_legal``, ``random_code``, ``is_legal``) agree with the list;
* at the end, a copy is independent, and the game's SGN record reads back and replays
  to the same SPN.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GameRecord, Position, Ruleset, read_sgn
from tests.engine.invariant_cases import CASES

#: Actions per game: enough to get through placement and well into the movement phase.
LENGTH = {3: 60, 5: 140, 7: 150, 9: 170}


def no_shuttle_lock(pos: Position, margin: int) -> bool:
    """Whether every piece's back-and-forth run is shorter than the limit minus ``margin``."""
    limit = 2 * pos.rules.max_shuttles
    return limit == 0 or all(run < limit - margin for _, run in pos.hist.values())


def spn_tells_everything(pos: Position) -> bool:
    """Whether the SPN carries all the state that decides the next action's result.

    Two facts live outside the SPN: the cell the first step left (``blocked=lose``) inside
    the first movement turn's chain, and a removal already made this turn under
    ``remove-by-blocked`` (docs/rules.md has no SPN state for either; docs/rules-decisions.md 3).
    """
    rules = pos.rules
    first_turn = 2 * rules.placement_turns + 1
    if rules.blocked == "lose" and pos.turn == first_turn and pos.state != -1:
        return False
    return not (pos.phase == "m" and pos.state == -1 and pos.acted)


def check_game(preset: str, size: int, options: tuple[str, ...], seed: int) -> None:
    rules = Ruleset.make(preset, size, list(options))
    rng = random.Random(seed)
    pos = Position(rules)
    total = 2 * rules.pieces
    taken = 0
    for _ in range(LENGTH[size]):
        codes = pos.legal_codes()
        assert (not codes) == pos.is_over(), pos.spn()
        if not codes:
            break
        text = pos.spn()
        again = Position.from_spn(text, rules)
        assert again.spn() == text
        if no_shuttle_lock(pos, 0):
            assert sorted(map(str, again.legal_actions())) == sorted(map(str, pos.legal_actions())), text

        # The fast paths agree with the list: count_legal, random_code, is_legal.
        assert pos.count_legal() == len(codes)
        assert pos.random_code(rng) in codes

        code = rng.choice(codes)
        assert pos.is_legal(pos.table.actions[code])
        action = pos.table.actions[code]
        assert action is not None
        hist = dict(pos.hist)
        counts = [pos.count(0), pos.count(1)]
        hand = list(pos.hand)
        side, phase = pos.side, pos.phase
        comparable = no_shuttle_lock(pos, 1) and spn_tells_everything(pos)

        pos.push(action)
        after = pos.spn()
        assert pos.pop() == action
        assert pos.spn() == text
        assert pos.hist == hist
        pos.push(action)
        assert pos.spn() == after

        if comparable:
            again.push(action)
            assert again.spn() == after, f"{text} + {action}"

        new_counts = [pos.count(0), pos.count(1)]
        turned = False  # a replacement that makes a line keeps the replaced piece, turned
        if action.kind == "place" and phase == "p":
            assert new_counts[side] == counts[side] + 1
            assert pos.hand[side] == hand[side] - 1
            assert new_counts[1 - side] == counts[1 - side]
        elif action.kind == "place":  # a replacement: one enemy piece goes, for good or turned
            turned = pos.outcome() is not None and pos.outcome().reason == "line"  # type: ignore[union-attr]
            assert sum(new_counts) == sum(counts) - (0 if turned else 1)
            taken += 0 if turned else 1
        elif action.kind == "step":
            assert new_counts[side] == counts[side]
            assert new_counts[1 - side] <= counts[1 - side]
            if not rules.captures:
                assert new_counts == counts
            taken += counts[1 - side] - new_counts[1 - side]
        elif action.kind == "remove":
            assert sum(new_counts) == sum(counts) - 1
            taken += 1
        else:
            assert new_counts == counts
        if phase != "p" and not turned:
            assert new_counts[0] <= counts[0] and new_counts[1] <= counts[1]
        assert sum(new_counts) + sum(pos.hand) + taken == total

    twin = pos.copy()
    assert (twin.spn(), twin.hist, twin.move_stack) == (pos.spn(), pos.hist, pos.move_stack)
    if twin.legal_codes():
        twin.push_code(twin.legal_codes()[0])
        assert len(twin.move_stack) == len(pos.move_stack) + 1
        twin.pop()
        assert (twin.spn(), twin.hist) == (pos.spn(), pos.hist)

    record = GameRecord.from_position(pos)
    replayed = read_sgn(record.to_sgn()).replay()
    assert replayed.spn() == pos.spn()


@pytest.mark.parametrize(("preset", "size", "options"), CASES)
@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_keep_the_invariants(preset: str, size: int, options: tuple[str, ...], seed: int) -> None:
    check_game(preset, size, options, seed)
