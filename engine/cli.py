"""The command line of docs/rules.md section 8: ``python -m engine COMMAND SPN ...``.

Other programs drive this, so the output is exact: results on stdout, and on bad input
one line ``error: ...`` on stderr with exit status 2.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from engine.errors import InvalidPositionError, SeegaError, quoted
from engine.notation import board_text
from engine.numbers import parse_whole
from engine.position import Position
from engine.rules import OPTION_NAMES, PRESETS, Ruleset
from engine.spn import SURROUNDING_WHITESPACE

USAGE = (
    "usage: python -m engine {legal|apply|perft|status|show|bestmove} SPN [ARGS...] "
    "[--variant PRESET] [--size N] [--set OPTION=VALUE]... [--level L] [--movetime MS]"
)
#: Deeper than any perft that finishes in reasonable time (perft grows exponentially),
#: and far below Python's recursion limit.
MAX_PERFT_DEPTH = 16
#: Ten minutes: the longest a bestmove may think.
MAX_MOVETIME_MS = 600_000
_VALUE_FLAGS = ("--variant", "--size", "--set", "--level", "--movetime")
COMMANDS = ("legal", "apply", "perft", "status", "show", "bestmove")
HELP_FLAGS = ("-h", "--help")

HELP = f"""{USAGE}

The Seega rules engine (docs/rules.md, section 8). The SPN is one argument, quoted.

commands:
  legal SPN                 every legal action, one per line, sorted (none: game over)
  apply SPN ACTION...       the SPN after the actions (a1, b2-c2, xd4, end, pass)
  perft SPN DEPTH           the number of action sequences of DEPTH actions, DEPTH 0-{MAX_PERFT_DEPTH}
  status SPN                ongoing, or RESULT REASON such as 1-0 capture-all
  show SPN                  the board as text, rank n on top
  bestmove SPN [ACTION...]  the AI's action after the ACTIONs (which give the shuttle history)

flags (anywhere on the line; --name=value works too):
  --variant PRESET          a preset (default standard):
                            {", ".join(list(PRESETS)[:5])},
                            {", ".join(list(PRESETS)[5:])}
  --size N                  5, 7 or 9, 3 for modern-3x3; default 5 or the preset's only size;
                            it must match the SPN
  --set OPTION=VALUE        an option on top of the preset, repeatable; options:
                            {", ".join(OPTION_NAMES[:6])},
                            {", ".join(OPTION_NAMES[6:11])},
                            {", ".join(OPTION_NAMES[11:])}
  --level L                 bestmove only: easy, medium, hard (default) or expert
  --movetime MS             bestmove only: milliseconds to think, 1-{MAX_MOVETIME_MS}
                            (0 or none: the level's default)
  -h, --help                this help

Results go to stdout. On bad input: one line "error: ..." on stderr, exit status 2."""


class UsageError(Exception):
    """Bad command-line words (not a rules error)."""


def _split(argv: Sequence[str]) -> tuple[dict[str, list[str]], list[str]]:
    flags: dict[str, list[str]] = {f: [] for f in _VALUE_FLAGS}
    words: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        name, eq, value = arg.partition("=")
        if name in _VALUE_FLAGS:
            if not eq:
                i += 1
                if i >= len(argv):
                    raise UsageError(f"{name} needs a value")
                value = argv[i]
            flags[name].append(value)
        elif arg.startswith("--") and len(arg) > 2:
            raise UsageError(f"unknown flag {quoted(arg, 40)}; flags are {', '.join(_VALUE_FLAGS + HELP_FLAGS)}")
        else:
            words.append(arg)
        i += 1
    return flags, words


def _one(flags: dict[str, list[str]], name: str) -> str | None:
    values = flags[name]
    if len(values) > 1:
        raise UsageError(f"{name} given {len(values)} times; give it once")
    return values[0] if values else None


def _given(flags: dict[str, list[str]], name: str, what: str, allowed: str) -> str | None:
    """The value of flag ``name`` given at most once, ``None`` if absent. An empty value
    (``--variant=``) is an error naming the allowed values: read as the default, it hid
    a typo or an unset shell variable (review atk41b finding 7)."""
    value = _one(flags, name)
    if value == "":
        raise UsageError(f"{name} needs {what}, not an empty value; {allowed}")
    return value


def _refuse_repeated_options(settings: list[str]) -> None:
    """``--set`` is repeatable for different options; the same option twice
    (``--set turn_limit=1 --set turn_limit=0``) is an error, where the last one silently
    won (review atk41b finding 7): a caller that builds the line from two sources would
    not learn which of its values was played."""
    first: dict[str, str] = {}
    for item in settings:
        name = item.partition("=")[0].strip()
        if name in first:
            raise UsageError(
                f"--set gives option {quoted(name, 40)} twice ({quoted(first[name], 40)} and "
                f"{quoted(item, 40)}); set each option once"
            )
        first[name] = item


def run(argv: Sequence[str]) -> str:
    """Run one command and return its output (without the final newline)."""
    if any(arg in HELP_FLAGS for arg in argv):
        return HELP
    flags, words = _split(argv)
    if not words:
        raise UsageError(f"no command; {USAGE}")
    command, args = words[0], words[1:]
    if command not in COMMANDS:
        raise UsageError(
            f"unknown command {quoted(command, 40)}; commands are {', '.join(COMMANDS)}; {USAGE}; --help for more"
        )
    if not args:
        raise UsageError(f"{command} needs an SPN (one argument, quoted)")
    size_text = _one(flags, "--size")
    size: int | None = None
    if size_text is not None:
        size = parse_whole(size_text, 9)
        if size is None:
            raise UsageError(f"--size {quoted(size_text, 40)} must be 5, 7 or 9 (3 for modern-3x3)")
    spn = args[0]
    variant = _given(flags, "--variant", "a preset", "presets are " + ", ".join(PRESETS)) or "standard"
    _refuse_repeated_options(flags["--set"])
    rules = Ruleset.make(variant, size, flags["--set"])
    if command != "bestmove" and (flags["--level"] or flags["--movetime"]):
        raise UsageError("--level and --movetime go with bestmove only")
    pos = _read_position(spn, rules, size is not None, flags["--set"])
    rest = args[1:]
    if command == "legal":
        _no_more(command, rest)
        return "\n".join(sorted(str(a) for a in pos.legal_actions()))
    if command == "apply":
        for action in rest:
            pos.play(action)
        return pos.spn()
    if command == "perft":
        depth = parse_whole(rest[0], MAX_PERFT_DEPTH) if len(rest) == 1 else None
        if depth is None:
            raise UsageError(f"perft needs SPN DEPTH, DEPTH a whole number from 0 to {MAX_PERFT_DEPTH}")
        return str(pos.perft(depth))
    if command == "status":
        _no_more(command, rest)
        outcome = pos.outcome()
        return "ongoing" if outcome is None else str(outcome)
    if command == "show":
        _no_more(command, rest)
        return board_text(pos)
    # bestmove
    for action in rest:
        pos.play(action)
    from engine.ai import LEVELS, best_action

    level = _given(flags, "--level", "a level", "levels are " + ", ".join(LEVELS)) or "hard"
    movetime_text = _one(flags, "--movetime")
    movetime: int | None = None
    if movetime_text is not None:
        movetime = parse_whole(movetime_text, MAX_MOVETIME_MS)
        if movetime is None:
            raise UsageError(
                f"--movetime {quoted(movetime_text, 40)} must be a whole number of milliseconds "
                f"from 0 (the level's default) to {MAX_MOVETIME_MS}"
            )
    return str(best_action(pos, level, movetime))


def _read_position(spn: str, rules: Ruleset, size_given: bool, options: list[str]) -> Position:
    """The position of ``spn`` under ``rules``. When the SPN does not read but would read
    as a board of another size the variant allows, the error says to pass that size;
    otherwise it is the SPN's own error. (Checking the rank count before parsing told a
    string that is no SPN at all to ``pass --size 1``, and offered sizes the variant
    refuses.)"""
    try:
        return Position.from_spn(spn, rules)
    except InvalidPositionError:
        other = _size_that_reads(spn, rules, options)
        if other is None:
            raise
    given = (
        f"--size {rules.size} was given"
        if size_given
        else f"the default size of {rules.variant} is {rules.size} (no --size given)"
    )
    raise UsageError(f"the SPN is a {other}x{other} board but {given}; pass --size {other}") from None


def _size_that_reads(spn: str, rules: Ruleset, options: list[str]) -> int | None:
    """The board size, other than ``rules.size``, that ``rules.variant`` allows and under
    which ``spn`` reads as a position; ``None`` if there is none."""
    ranks = spn.strip(SURROUNDING_WHITESPACE).split(" ")[0].count("/") + 1
    if ranks == rules.size:
        return None
    try:
        Position.from_spn(spn, Ruleset.make(rules.variant, ranks, options))
    except SeegaError:
        return None
    return ranks


def _no_more(command: str, rest: list[str]) -> None:
    if rest:
        raise UsageError(f"{command} takes only the SPN; unexpected {quoted(' '.join(rest), 40)}")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: print the output, or one ``error:`` line on stderr and return 2.

    Returns 1, after one ``error:`` line on stderr, when the output cannot be written
    (stdout closed or full): a caller must not take a missing answer for an empty one.
    """
    try:
        out = run(sys.argv[1:] if argv is None else argv)
    except (UsageError, SeegaError, ValueError) as exc:
        _report(" ".join(str(exc).split()))
        return 2
    if out:
        return _write_output(out)
    return 0


def _write_output(out: str) -> int:
    """Print ``out`` to stdout; 0, or 1 if it could not be written."""
    if sys.stdout is None:  # started with stdout closed (``>&-``)
        _report("stdout is closed; the output could not be written")
        return 1
    try:
        print(out)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader left early (``| head``): it wanted no more, so no message.
        _silence(sys.stdout)
        return 1
    except OSError as exc:  # e.g. ``> /dev/full``: no traceback, one line on stderr
        _silence(sys.stdout)
        _report(f"the output could not be written to stdout: {exc.strerror or exc}")
        return 1
    return 0


def _report(message: str) -> None:
    """Write one ``error:`` line to stderr, and never elsewhere: with stderr closed,
    ``print(file=sys.stderr)`` writes to stdout, where a caller would read the error as
    the command's output. If stderr cannot take it, the exit status alone tells."""
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(f"error: {message}\n")
        stream.flush()
    except OSError:
        _silence(stream)


def _silence(stream: TextIO) -> None:
    """Point ``stream``'s file descriptor at /dev/null, so the flush at exit does not
    fail again and print a traceback."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
