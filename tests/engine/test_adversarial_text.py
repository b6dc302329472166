"""Every text parser of the engine returns at once on 10,000-character hostile input
(issue 9 item 1's audit, for engine/): no pattern backtracks, no number is converted
before it is bounded, and nothing but the engine's own errors escapes.

The inputs are in ``adversarial.py``; they run in a subprocess with a generous timeout,
so a parser that hangs fails here instead of hanging the suite.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import InvalidRecordError, read_sgn
from tests.engine import adversarial

ROOT = Path(__file__).resolve().parents[2]


def test_every_parser_returns_at_once_on_hostile_text() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "tests.engine.adversarial"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,  # a guard against a hang, not a timing test: linear parsing takes well under 1 s
    )
    assert (done.returncode, done.stdout.strip()) == (0, "ok"), done.stderr[-2000:]


def test_the_inputs_are_as_long_as_promised() -> None:
    for group in (adversarial.SGN, adversarial.SPN, adversarial.ACTIONS):
        assert all(len(text) >= adversarial.N - 12 for text in group.values())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{" * 10_000, "unclosed {comment}"),
        ("1. a1,b1 } *", "a } outside a {comment}"),
        ("1. a1,b1 {a} b} *", "a } outside a {comment}"),
    ],
)
def test_comment_errors(text: str, message: str) -> None:
    with pytest.raises(InvalidRecordError, match=message):
        read_sgn(text)


def test_a_brace_inside_a_comment_is_part_of_it() -> None:
    assert read_sgn("{a {b} 1. a1,b1 {c}{d} *").replay().spn() == "5/5/5/5/bb3 w p 10/12 - 0 2"


def regex_patterns() -> list[tuple[str, int, str]]:
    """(file, line, pattern) of every regular expression written in engine/."""
    found = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "re"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.append((path.relative_to(ROOT).as_posix(), node.lineno, node.args[0].value))
    return found


def test_the_engine_regexes_are_the_audited_ones() -> None:
    # Audited for nested quantifiers and overlapping alternatives (none: each runs in
    # linear time); a new pattern must be audited and given hostile input above.
    audited = {
        r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$',  # the two alternatives start differently
        r"\w+",
        r"^[0-9]+\.+",
    }
    assert {pattern for _, _, pattern in regex_patterns()} == audited
