"""``bench/regret.py``: positions from match logs, exact reference scores, and regret."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.regret import Reference, empties, positions, read_references, reference, regrets, write_reference
from engine import Position, Ruleset
from engine.notation import read_spn

RULES = Ruleset.make("ludii", 5)


def _game(rules: Ruleset, actions: int) -> list[tuple[int, str, str]]:
    """(turn, side, SPN) before each of the first ``actions`` actions of a game where
    every side plays its first legal action."""
    pos = Position(rules)
    out = []
    for _ in range(actions):
        if pos.result is not None:
            break
        out.append((pos.turn, "bw"[pos.side], pos.spn()))
        pos.push_code(pos.legal_codes()[0])
    return out


def _log(path: Path, game: list[tuple[int, str, str]], engine_side: str | None) -> Path:
    lines = [{"turn": t, "side": s, "spn": spn, "action": "x", "secs": 1.0} for t, s, spn in game]
    if engine_side:
        lines.append({"end": True, "result": "1-0", "engine_side": engine_side, "final_spn": game[-1][2]})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_positions_are_the_engines_own_turn_starts_in_the_asked_ranges(tmp_path: Path) -> None:
    game = _game(RULES, 60)
    finished = _log(tmp_path / "game_001.jsonl", game, "w")
    unfinished = _log(tmp_path / "game_002.jsonl", _game(RULES, 60)[:30], None)
    found = list(positions([finished, unfinished, finished], "p", (6, 16), (1, 100)))
    expected = [spn for _t, s, spn in game if s == "w" and spn.split()[2] == "p" and 6 <= empties(spn) <= 16]
    assert found and found == expected  # once each, the unfinished game skipped
    moves = list(positions([finished], "m", (0, 25), (13, 20)))
    assert moves and all(spn.split()[1] == "w" and spn.split()[2] == "m" and spn.split()[4] == "-" for spn in moves)
    assert all(13 <= t <= 20 for t, _s, spn in game if spn in moves)
    # a placement leaves the centre and a cell for the piece empty: never 1 or fewer
    assert list(positions([finished], "p", (0, 1), (1, 100))) == []


def test_the_reference_scores_every_legal_action_and_regret_is_measured_from_its_best(tmp_path: Path) -> None:
    spn = _game(RULES, 20)[-1][2]  # White to place with few cells left
    ref = reference(RULES, spn, nodes=3000)
    legal = read_spn(spn, RULES).legal_codes()
    assert sorted(ref.scores) == sorted(legal) and len(legal) > 1
    best = max(ref.scores.values())
    assert [ref.regret(c) for c in legal] == [best - ref.scores[c] for c in legal]
    assert min(ref.regret(c) for c in legal) == 0
    with pytest.raises(ValueError, match="not one of the"):
        ref.regret(10_000)
    out = tmp_path / "ref.jsonl"
    write_reference(ref, out)
    write_reference(ref, out)
    assert read_references(out) == [ref, ref]


#: White to move in a Ludii game (turn 14): one step wins several pieces, every other loses.
CLEAR = "wbwbw/bwwwb/bw1ww/bbwbb/wbwbb w m 0/0 - 1 14"


def test_a_level_that_finds_the_best_step_has_no_regret_and_a_worse_one_has_the_gap() -> None:
    ref = reference(RULES, CLEAR, nodes=20_000)
    ranked = sorted(ref.scores.values(), reverse=True)
    assert ranked[0] - ranked[1] > 300  # the position is what the test needs
    [(_r, regret)] = regrets(RULES, [ref], "hard", None, 20_000)
    assert regret == 0
    best = max(ref.scores, key=lambda c: ref.scores[c])
    # The same choice against scores that rate it 5 pieces below the rest.
    shifted = Reference(CLEAR, {c: (-500 if c == best else 0) for c in ref.scores}, ref.depth)
    [(_r, regret)] = regrets(RULES, [shifted], "hard", None, 20_000)
    assert regret == 500
