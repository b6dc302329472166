"""Perft: the number of legal action sequences of each length, against stored counts.

The counts in ``data/perft.json`` were written by ``tests/engine/perft_data.py`` only where
the engine and the independent reference implementation agreed. Here the engine is checked
at every stored depth and the reference again at depths 1-2 (it is slow). On a mismatch
the message gives the count under each first action (a divide), as python-chess's perft
script does, so the faulty line is found by descending into it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import Position, Ruleset
from tests.engine.reference import RefGame, divide, perft

ENTRIES: list[dict[str, object]] = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())


def rules_of(entry: dict[str, object]) -> Ruleset:
    return Ruleset.make(str(entry["variant"]), int(entry["size"]), list(entry["options"]))  # type: ignore[call-overload]


def engine_divide(pos: Position, depth: int) -> dict[str, int]:
    """The engine's count under each first action."""
    out = {}
    for action in pos.legal_actions():
        pos.push(action)
        out[str(action)] = pos.perft(depth - 1)
        pos.pop()
    return out


def divide_report(entry: dict[str, object], depth: int) -> str:
    """Both implementations' divides side by side, mismatches marked."""
    rules = rules_of(entry)
    ours = engine_divide(Position.from_spn(str(entry["spn"]), rules), depth)
    theirs = divide(RefGame.from_spn(str(entry["spn"]), rules), depth) if depth <= 3 else {}
    lines = [f"perft({depth}) of {entry['name']}: {entry['spn']} ({entry['variant']} {entry['options']})"]
    for action in sorted(set(ours) | set(theirs)):
        mark = "" if not theirs or ours.get(action) == theirs.get(action) else "   <-- differs"
        lines.append(f"  {action}: engine {ours.get(action)}, reference {theirs.get(action, '?')}{mark}")
    return "\n".join(lines)


def test_the_data_covers_every_kind_of_position() -> None:
    assert len(ENTRIES) >= 6
    phases = {str(e["spn"]).split()[2] for e in ENTRIES}
    assert {"p", "m", "r", "s"} <= phases or {"p", "m", "s"} <= phases
    assert {int(e["size"]) for e in ENTRIES} >= {3, 5, 7, 9}  # type: ignore[call-overload]
    names = " ".join(str(e["name"]) for e in ENTRIES)
    for word in ("placement", "chain", "blocked", "remove", "ludii", "7x7", "9x9"):
        assert word in names


@pytest.mark.parametrize("entry", ENTRIES, ids=[str(e["name"]) for e in ENTRIES])
def test_engine_perft_matches_the_stored_counts(entry: dict[str, object]) -> None:
    rules = rules_of(entry)
    pos = Position.from_spn(str(entry["spn"]), rules)
    for depth, expected in entry["depths"].items():  # type: ignore[attr-defined]
        got = pos.perft(int(depth))
        assert got == expected, f"engine perft({depth}) = {got}, stored {expected}\n{divide_report(entry, int(depth))}"
    assert pos.spn() == entry["spn"]  # perft leaves the position as it found it


@pytest.mark.parametrize("entry", ENTRIES, ids=[str(e["name"]) for e in ENTRIES])
def test_reference_perft_matches_the_stored_counts(entry: dict[str, object]) -> None:
    game = RefGame.from_spn(str(entry["spn"]), rules_of(entry))
    assert game.spn() == entry["spn"]
    for depth, expected in entry["depths"].items():  # type: ignore[attr-defined]
        if int(depth) <= 2:
            got = perft(game, int(depth))
            assert got == expected, f"reference perft({depth}) = {got}, stored {expected}\n{divide_report(entry, 1)}"


def test_divide_report_lists_every_first_action_of_both_implementations() -> None:
    entry = next(e for e in ENTRIES if e["name"] == "chain same")
    report = divide_report(entry, 2)
    assert report.splitlines()[0].startswith("perft(2) of chain same")
    assert len(report.splitlines()) == 1 + int(entry["depths"]["1"])  # type: ignore[call-overload, index]
    assert "differs" not in report
