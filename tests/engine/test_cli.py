"""docs/rules.md section 8: the ``python -m engine`` command line, run as other programs run it."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
START = "5/5/5/5/5 b p 12/12 - 0 1"
FULL = "bbwwb/bbwww/bb1ww/bbwww/bbwwb w m 0/0 - 0 13"
OVER = "5/5/5/5/b4 w m 0/0 - 0 20"
START_7 = "7/7/7/7/7/7/7 b p 24/24 - 0 1"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def ok(*args: str) -> str:
    """The stdout of a command that must succeed quietly."""
    done = run(*args)
    assert (done.returncode, done.stderr) == (0, ""), done
    return done.stdout


def test_legal_prints_every_action_sorted_as_strings() -> None:
    lines = ok("legal", START).splitlines()
    assert len(lines) == 24
    assert lines == sorted(lines)
    assert "c3" not in lines
    assert ok("legal", FULL) == "c2-c3\nc4-c3\nd3-c3\n"


def test_legal_prints_nothing_for_a_finished_game() -> None:
    assert ok("legal", OVER) == ""


def test_apply() -> None:
    assert ok("apply", START, "a1", "b1") == "5/5/5/5/bb3 w p 10/12 - 0 2\n"
    assert ok("apply", START) == START + "\n"


def test_perft() -> None:
    assert ok("perft", START, "2") == "552\n"
    assert ok("perft", START, "0") == "1\n"
    assert ok("perft", OVER, "3") == "0\n"


def test_status() -> None:
    assert ok("status", START) == "ongoing\n"
    assert ok("status", OVER) == "1-0 capture-all\n"
    assert ok("status", "5/5/5/5/b4 b m 0/0 - 0 20", "--set", "lose_at=1") == "0-1 reduced\n"


def test_show() -> None:
    assert ok("show", "5/5/5/w4/b4 b m 0/0 - 0 20") == (
        "5 . . . . .\n4 . . . . .\n3 . . + . .\n2 w . . . .\n1 b . . . .\n  a b c d e\n"
    )
    lines = ok("show", START_7, "--size", "7").splitlines()
    assert lines[0] == "7 . . . . . . ."
    assert lines[-1] == "  a b c d e f g"


def test_bestmove_returns_a_legal_action() -> None:
    move = ok("bestmove", FULL).strip()
    assert move in {"c2-c3", "c4-c3", "d3-c3"}
    # The actions after the SPN are played first: Black has half a pair down.
    after = ok("bestmove", START, "a1", "--level", "easy", "--movetime", "50").strip()
    assert after in ok("legal", "5/5/5/5/b4 b p 11/12 1 0 1").split()


@pytest.mark.parametrize(
    "args",
    [
        ["--variant", "lane", "legal", START],
        ["legal", "--variant", "lane", START],
        ["legal", START, "--variant", "lane"],
        ["legal", START, "--variant=lane"],
        ["legal", START, "--set", "opening=lane"],
        ["--set=opening=lane", "legal", START],
    ],
)
def test_flags_go_anywhere_on_the_line(args: list[str]) -> None:
    assert ok(*args) == "a3\ne3\n"


def test_size_and_several_set_flags() -> None:
    assert ok("perft", START_7, "1", "--size", "7") == "48\n"
    chain = "4w/3b1/3w1/bw3/2b2 b m 0/0 - 3 20"
    assert ok("apply", chain, "c1-c2", "--set", "chain=any", "--set", "lose_at=1").split()[4] == "c"


def test_modern_3x3_takes_its_only_size_by_default() -> None:
    assert ok("legal", "3/3/3 b p 3/3 - 0 1", "--variant", "modern-3x3").count("\n") == 9


BAD = [
    ["legal", "5/5/5/5 b p 12/12 - 0 1"],  # malformed SPN
    ["legal", "5/5/5/5/5 b p 12/12 - 0"],
    ["legal", "5/5/5/5/5x b p 12/12 - 0 1"],
    ["legal", START, "--size", "7"],  # the size does not match the SPN
    ["legal", START_7, "--size", "5"],
    ["legal", START, "--size", "6"],
    ["apply", START, "c3"],  # illegal action
    ["apply", START, "a1", "a1"],
    ["apply", START, "z9-q"],  # not an action
    ["apply", START, "f1"],  # off the board
    ["legal", START, "--variant", "chess"],  # unknown preset
    ["legal", START, "--set", "colour=red"],  # unknown option
    ["legal", START, "--set", "chain=sometimes"],  # bad option value
    ["legal", START, "--set", "chain"],
    ["bestmove", OVER],  # finished game
    ["bestmove", START, "--level", "godlike"],
    ["perft", START, "x"],  # bad depth
    ["perft", START, "-1"],
    ["perft", START],
    ["perft", START, "1", "2"],
    ["status", START, "extra"],
    ["fly", START],  # unknown command
    ["legal"],  # no SPN
    [],
    ["legal", START, "--colour", "red"],  # unknown flag
    ["legal", START, "--variant"],  # flag without value
    ["legal", START, "--variant", "lane", "--variant", "seejeh"],
    # Issue 9 item 7: numbers out of bounds or not in ASCII digits, each one clear line.
    ["perft", START, "1000"],  # was a RecursionError traceback
    ["perft", START, "17"],  # ran until killed
    ["perft", START, "٢"],  # Arabic-Indic 2
    ["perft", START, "9" * 5000],  # int() refuses more than 4300 digits
    ["bestmove", START, "--movetime", "9" * 400],  # was an OverflowError traceback
    ["bestmove", START, "--movetime", "600001"],
    ["bestmove", START, "--movetime", "99999999"],  # 28 hours: ran until killed
    ["bestmove", START, "--movetime", "５０"],  # fullwidth 50
    ["bestmove", START, "--movetime", "-5"],
    ["legal", START, "--size", "٥"],  # Arabic-Indic 5, which int() reads as 5
    ["legal", START, "--size", "9" * 5000],
    ["legal", "5/5/5/5/5 b p ١٢/12 - 0 1"],
    ["legal", "bbbbb/bbbbb/bb1bb/bbbbw/wwww1 b p 50/50 - 0 1"],
    ["legal", START, "--set", "move_limit=" + "9" * 5000],
    ["legal", START, "--set", "move_limit=٣"],
]


@pytest.fixture(scope="module")
def bad_runs() -> dict[str, subprocess.CompletedProcess[str]]:
    """Every bad command line, run a few at a time (each is a fresh interpreter)."""
    with ThreadPoolExecutor(max_workers=3) as pool:
        done = list(pool.map(lambda a: run(*a), BAD))
    return {" ".join(a): d for a, d in zip(BAD, done, strict=True)}


@pytest.mark.parametrize("args", BAD, ids=[" ".join(a)[:80] or "(nothing)" for a in BAD])
def test_bad_input_prints_one_error_line_and_exits_2(
    args: list[str], bad_runs: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    done = bad_runs[" ".join(args)]
    assert done.returncode == 2, done
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: ")
    assert len(lines[0]) > len("error: ") + 5


def test_without_size_the_default_size_must_match_the_spn() -> None:
    # docs/rules.md section 8: --size defaults to 5 (or the preset's only size) and must match the SPN.
    done = run("perft", START_7, "1")
    assert (done.returncode, done.stdout, done.stderr.count("\n")) == (2, "", 1)
    assert "--size 7" in done.stderr
    assert ok("perft", START_7, "1", "--size", "7") == "48\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        # Not an SPN at all: the SPN's own error, not "pass --size 1".
        (["status", "hello"], "error: SPN 'hello' has 1 fields; it needs 7: board side phase hand state clock turn\n"),
        # Six ranks: no size 6 exists, so no --size 6 is suggested.
        (["status", "5/5/5/5/5/ b p 12/12 - 0 1"], "error: SPN board '5/5/5/5/5/' has 6 ranks but the board is 5x5\n"),
        # modern-3x3 is 3x3 only: --size 5 would be refused, so it is not suggested.
        (
            ["status", START, "--variant", "modern-3x3"],
            "error: SPN board '5/5/5/5/5' has 5 ranks but the board is 3x3\n",
        ),
        (
            ["status", START_7],
            "error: the SPN is a 7x7 board but the default size of standard is 5 (no --size given); pass --size 7\n",
        ),
        (["status", START_7, "--size", "9"], "error: the SPN is a 7x7 board but --size 9 was given; pass --size 7\n"),
    ],
)
def test_a_size_is_suggested_only_for_an_spn_that_reads_at_that_size(args: list[str], message: str) -> None:
    # Review atk41b finding 5: the rank count was checked before the SPN was parsed.
    done = run(*args)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", message)


@pytest.mark.parametrize(
    ("args", "allowed"),
    [
        (["perft", START, "1000"], "from 0 to 16"),
        (["bestmove", START, "--movetime", "9" * 400], "from 0 (the level's default) to 600000"),
        (["legal", START, "--size", "٥"], "must be 5, 7 or 9"),
        (["legal", START, "--set", "move_limit=" + "9" * 5000], "from 0 to 1000000"),
    ],
)
def test_a_number_out_of_bounds_is_refused_naming_what_is_allowed(args: list[str], allowed: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert allowed in done.stderr
    assert len(done.stderr) < 400  # the hostile value is cut short, not echoed whole


def test_the_bounds_themselves_are_accepted() -> None:
    assert ok("perft", "5/5/5/5/b4 w m 0/0 - 0 20", "16") == "0\n"  # a finished game: 0 at any depth
    assert ok("perft", START, "00") == "1\n"
    move = ok("bestmove", FULL, "--movetime", "0", "--level", "easy").strip()
    assert move in {"c2-c3", "c4-c3", "d3-c3"}


@pytest.mark.parametrize(
    "args", [["--help"], ["-h"], ["legal", "--help"], ["perft", START, "-h"], ["--variant", "lane", "--help"]]
)
def test_help_prints_the_usage_and_exits_0(args: list[str]) -> None:
    # Issue 12: `python -m engine --help` printed "error: unknown flag --help".
    out = ok(*args)
    assert out.startswith("usage: python -m engine ")
    for word in ["legal", "apply", "perft", "status", "show", "bestmove", "--variant", "--size", "--set"]:
        assert word in out
    for word in ["--level", "--movetime", "modern-3x3", "move_limit", "win_line", "0-16", "600000"]:
        assert word in out


def test_help_names_every_level_preset_and_option() -> None:
    from engine import OPTION_NAMES, PRESETS
    from engine.ai import LEVELS

    out = ok("--help")
    assert all(name in out for name in [*LEVELS, *PRESETS, *OPTION_NAMES])


def test_an_unknown_command_prints_the_usage_in_its_one_error_line() -> None:
    done = run("fly", START)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("error: unknown command 'fly'")
    assert "usage: python -m engine" in done.stderr


def test_a_reader_that_leaves_early_gets_no_traceback() -> None:
    # `python -m engine legal SPN | head -1` could print a BrokenPipeError traceback.
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the engine writes a byte
    try:
        done = subprocess.run(
            [sys.executable, "-m", "engine", "legal", START],
            cwd=ROOT,
            env=env,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert "Traceback" not in done.stderr
    assert done.returncode == 1


def run_shell(redirect: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m engine ARGS`` with a shell redirection such as ``>&-`` (stdout closed)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = " ".join([shlex.quote(sys.executable), "-m", "engine", *map(shlex.quote, args), redirect])
    return subprocess.run(["sh", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(
    ("redirect", "message"),
    [
        (">&-", "error: stdout is closed; the output could not be written\n"),
        (">/dev/full", "error: the output could not be written to stdout: No space left on device\n"),
    ],
)
def test_output_that_cannot_be_written_is_one_error_line_not_a_traceback(redirect: str, message: str) -> None:
    # Review atk41b finding 6: both died with a Python traceback (exit 1).
    done = run_shell(redirect, "status", START)
    assert (done.returncode, done.stderr) == (1, message)


def test_an_error_line_never_goes_to_stdout_even_with_stderr_closed() -> None:
    # Review atk41b finding 6: with stderr closed, print(file=None) wrote the error to stdout,
    # where a caller reads it as the command's output.
    done = run_shell("2>&-", "status", "x")
    assert (done.returncode, done.stdout) == (2, "")


def test_a_turn_passed_to_one_apply_keeps_what_an_spn_cannot_carry() -> None:
    # docs/rules-decisions.md 3 (review atk41b findings 1 and 2): a program driving the
    # command line passes a turn's actions in one call, and gets the game played through.
    first_turn = "bbbww/wwwbw/bb1ww/wwwbw/bbbbb b m 0/0 - 0 13"
    chain = ok("apply", first_turn, "b3-c3", "a3-b3", "b3-a3", "--variant", "aljaafreh")
    assert chain == "bbbww/3bw/b1bww/3bw/bbbbb b r 0/0 b3 0 14\n"
    removal = ok("apply", "5/5/5/b4/wb3 w m 0/0 - 0 20", "xa2", "a1-a2", "--variant", "fouze")
    assert removal == "5/5/5/w4/1b3 b m 0/0 - 0 21\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["perft", START, "1", "--variant="],
            "error: --variant needs a preset, not an empty value; presets are standard, lane, seejeh, aljaafreh, "
            "fouze, two-then-one, ludii, five-in-a-row, modern-3x3\n",
        ),
        (["perft", START, "1", "--variant", ""], "error: --variant needs a preset, not an empty value; presets are "),
        (
            ["bestmove", START, "--level="],
            "error: --level needs a level, not an empty value; levels are easy, medium, hard, expert\n",
        ),
    ],
)
def test_an_empty_flag_value_is_an_error_naming_the_allowed_values(args: list[str], message: str) -> None:
    # Review atk41b finding 7: `--variant=` and `--level=` silently meant the default.
    done = run(*args)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(message)


def test_the_same_option_set_twice_is_an_error() -> None:
    # Review atk41b finding 7: the last --set of an option silently won.
    done = run("status", START, "--set", "turn_limit=1", "--set", "turn_limit=0")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "error: --set gives option 'turn_limit' twice ('turn_limit=1' and 'turn_limit=0'); set each option once\n"
    )
    assert ok("status", START, "--set", "turn_limit=1", "--set", "chain=any") == "ongoing\n"
