"""The shipped puzzle bank: every puzzle re-verified with the engine, answers judged."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from engine.coach.mine import main as mine_main
from engine.coach.puzzles import Puzzle, check, judge, load_bank

BANK = load_bank()


def test_the_bank_is_big_and_varied() -> None:
    assert len(BANK) >= 300
    assert len({p.id for p in BANK}) == len(BANK)
    # one position may be a puzzle under two rulesets, never twice under one
    assert len({(p.variant, p.size, p.spn) for p in BANK}) == len(BANK)
    assert {p.size for p in BANK} == {5, 7}
    assert len({p.variant for p in BANK}) >= 4
    assert len(Counter(p.difficulty for p in BANK)) >= 3
    assert all(1 <= p.difficulty <= 5 for p in BANK)


def test_every_shipped_puzzle_is_solved_only_by_its_solution() -> None:
    """The cheap exact check: every distinct turn of the position is played and valued by
    a depth-2 search; the solution must be decisive and beat every other turn clearly."""
    failures = []
    for puzzle in BANK:
        result = check(puzzle)
        if not result.ok:
            failures.append((puzzle.id, result))
        elif judge(puzzle, " ".join(puzzle.solution)).outcome != "solved":
            failures.append((puzzle.id, "solution not judged solved"))
        elif judge(puzzle, " ".join(result.other)).outcome != "wrong":
            failures.append((puzzle.id, f"the best other turn {result.other} not judged wrong"))
    assert not failures, failures[:5]


def test_answers_as_cells_or_actions_and_wrong_tries() -> None:
    chain = next(p for p in BANK if len(p.solution) >= 2) if any(len(p.solution) >= 2 for p in BANK) else None
    single = next(p for p in BANK if len(p.solution) == 1)
    src, dst = single.solution[0].split("-")
    assert judge(single, f"{src} {dst}").outcome == "solved"
    assert judge(single, f"{src.upper()}-{dst.upper()}").outcome == "solved"
    assert judge(single, src).outcome == "half"
    assert judge(single, "hello").outcome == "unreadable"
    assert judge(single, "a1-a3").outcome in ("illegal", "unreadable")
    if chain is not None:
        assert judge(chain, chain.solution[0]).outcome == "partial"
        assert judge(chain, ",".join(chain.solution)).outcome == "solved"


def test_the_miner_is_reproducible(tmp_path: Path) -> None:
    """Two runs with the same seed write the same puzzles, and they pass the check."""
    outs = []
    for name in ("a.json", "b.json"):
        out = tmp_path / name
        mine_main(["--out", str(out), "--config", "standard:5", "--games", "1", "--seed", "2", "--deep-nodes", "8000"])
        outs.append(json.loads(out.read_text())["puzzles"])
    assert outs[0] == outs[1] and len(outs[0]) >= 1
    for data in outs[0]:
        assert check(Puzzle.from_dict(data)).ok


def test_another_immediate_win_is_accepted_and_fails_the_bank_check() -> None:
    # Black's last piece on b4: a3-b3 and d4-c4 both take it and win.
    two_wins = Puzzle("two", "standard", 5, (), "1w3/wb1w1/w4/5/5 w m 0/0 - 3 39", ("a3-b3",), 1, "win")
    assert judge(two_wins, "a3 b3").outcome == "solved"
    assert judge(two_wins, "d4 c4").outcome == "solved"  # as good as the stored solution
    result = check(two_wins)
    assert not result.ok and result.reason == "another turn is about as good"  # never shipped


def test_a_wrong_answer_says_what_the_solution_does() -> None:
    wins = next(p for p in BANK if p.theme == "win")
    other = " ".join(check(wins).other)
    verdict = judge(wins, other)
    assert verdict.outcome == "wrong" and verdict.solution_wins
    takes = next(p for p in BANK if p.theme in ("capture", "double", "chain"))
    verdict = judge(takes, " ".join(check(takes).other))
    assert verdict.outcome == "wrong" and not verdict.solution_wins and verdict.solution_captures >= 1
