"""Typed text can never make a parser slow: every parser reads 60,000-character hostile input at once.

Each parser runs in a child process (``tests/hostile_text.py``) that reports each input as
it starts and finishes; an input that takes longer than :data:`LIMIT` seconds fails the
test with its number instead of hanging the suite. Linear parsers take milliseconds
here; a backtracking pattern takes minutes or for ever, so the limit is generous and the
test still cannot pass by luck on a slow machine.
"""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.service import commands
from tests.hostile_text import hostile_strings

ROOT = Path(__file__).resolve().parents[2]
#: Seconds one input may take (the linear parsers need milliseconds).
LIMIT = 5.0
#: Seconds the child may take to import the bot before the first input.
STARTUP = 60.0

PARSERS = [
    "split_move_text",
    "parse_move",
    "parse_move_to",
    "split_move",
    "split_step_words",
    "split_chain_text",
    "place_first",
    "move_from",
    "rejoined_cells",
    "normalize_cell",
    "parse_duration",
    "console_options",
    "service",
    "console_lines",
    "display_name",
    "stored_name",
]


def _lines(proc: subprocess.Popen[str], out: queue.Queue[str | None]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        out.put(line.strip())
    out.put(None)


@pytest.mark.parametrize("parser", PARSERS)
def test_hostile_text_is_read_at_once(parser: str) -> None:
    texts = hostile_strings()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.hostile_text", parser],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_lines, args=(proc, lines), daemon=True).start()
    current = "startup"
    try:
        limit = STARTUP
        while True:
            try:
                line = lines.get(timeout=limit)
            except queue.Empty:
                text = texts[int(current.split()[1])] if current.startswith("start") else ""
                pytest.fail(
                    f"{parser} took over {limit:.0f} s on input {current}: {text[:40]!r}... ({len(text)} chars)"
                )
            if line is None:
                break
            current = line
            limit = LIMIT if line.startswith("start") else STARTUP
        proc.wait(timeout=LIMIT)
        assert proc.stderr is not None
        assert proc.returncode == 0, f"{parser} failed after {current}:\n{proc.stderr.read()[-3000:]}"
        assert current == "finished"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


#: The backtracking pattern ``split_move_text`` replaced, as the reference for short text.
_OLD_MOVE_TEXT = re.compile(r"^\s*([a-iA-I][1-9])\s*(?:(?:-|>|,|\s)\s*)*([a-iA-I][1-9])?\s*$")


@given(st.text(alphabet="abiBjA12907 ->,!\t\n\u2028x", max_size=9))
def test_split_move_text_reads_what_the_old_pattern_read(text: str) -> None:
    old = _OLD_MOVE_TEXT.match(text)
    expected = None if old is None else (old.group(1), old.group(2))
    assert commands.split_move_text(text) == expected


@pytest.mark.parametrize(
    ("text", "cells"),
    [
        ("b2 c2", ("b2", "c2")),
        (" B2-c2 ", ("B2", "c2")),
        ("b2 -> c2", ("b2", "c2")),
        ("b2,c2", ("b2", "c2")),
        ("b2c2", ("b2", "c2")),
        ("b2", ("b2", None)),
        ("b2 -", ("b2", None)),
        ("b2 c2 d2", None),
        ("b2 c", None),
        ("j2 c2", None),
        ("b٢", ("b2", None)),  # Arabic-Indic digits read as ASCII (an Arabic keyboard)
        ("b٢،c٢", ("b2", "c2")),
        ("", None),
        # a step as people say or type it (play-test: "d3 to c3" was "not a cell")
        ("d3 to c3", ("d3", "c3")),
        ("D3 TO c3", ("D3", "c3")),
        ("d3-to-c3", ("d3", "c3")),
        ("d3 إلى c3", ("d3", "c3")),
        ("d3 الى c3", ("d3", "c3")),
        ("d3—c3", ("d3", "c3")),
        ("d3 — c3", ("d3", "c3")),
        ("d3 − c3", ("d3", "c3")),
        ("b3 to", None),  # "to" only between two cells
        ("d3to c3", None),
        ("d3 toc3", None),
        ("d3 to to c3", None),
        ("d3 into c3", None),
    ],
)
def test_split_move_text_forms(text: str, cells: tuple[str, str | None] | None) -> None:
    assert commands.split_move_text(text) == cells


@pytest.mark.parametrize(
    "text",
    [
        "d3 " + "to " * 33_334 + "c3",
        "d3 " + "—" * 100_000 + " c3 x",
        "d3 " + "إلى " * 25_000 + "c3",
        "a " * 50_000 + "1",
    ],
)
def test_a_step_with_100k_characters_of_the_new_separators_is_refused_at_once(text: str) -> None:
    """The words and dashes now read between two cells cannot make the step reader slow:
    100,000 of them are refused at once, with the forms that work and the text clipped."""
    import time

    from bot.results import BadInputError

    start = time.perf_counter()
    with pytest.raises(BadInputError) as refused:
        commands.parse_move(text, None)
    assert time.perf_counter() - start < 0.5
    assert refused.value.key == "bad_move" and len(refused.value.message) < 300, refused.value.message
    assert "/move from:" in refused.value.message


@pytest.mark.parametrize(
    ("text", "cells"),
    [
        ("a 1", ["a1"]),
        ("1a", ["a1"]),
        ("1 a", ["a1"]),
        ("a 1 b 1", ["a1", "b1"]),
        ("d3 to c 3", ["d3", "c3"]),
        ("a1 b1", None),  # nothing to mend
        ("a 1 2", None),  # not plain
        ("a 1 b 1 c 1", None),
        ("to a 1", None),
        ("a 1" + " " * 50, None),  # over 40 characters: not read
    ],
)
def test_the_cells_meant(text: str, cells: list[str] | None) -> None:
    assert commands.rejoined_cells(text) == cells
