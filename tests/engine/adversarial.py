"""Hostile text for every parser in ``engine/``: long runs built to make a pattern
backtrack, huge numbers, odd digits. Run by ``test_adversarial_text.py`` in a
subprocess with a timeout, so a parser that hangs fails the test instead of hanging it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from engine import Action, Position, Ruleset, SeegaError, read_sgn
from engine.cli import UsageError, run
from engine.numbers import parse_whole

N = 10_000
START = "5/5/5/5/5 b p 12/12 - 0 1"

#: Inputs for the SGN reader (its tag pattern and comment scanner).
SGN = {
    "unclosed-braces": "{" * N,
    "braces-then-moves": "{" * N + "}" + " 1. a1,b1 *",
    "closing-braces": "}" * N,
    "tag-backslashes": '[Black "' + "\\" * N,
    "tag-escaped-quotes": '[Black "' + '\\"' * (N // 2),
    "tag-unclosed": '[Black "' + "a" * N,
    "tag-no-value": "[" + "a" * N,
    "tag-spaces": "[a" + " " * N + "x",
    "tag-escape-u": '[Black "' + "\\u" * (N // 2) + '"]\n\n*',
    "tag-lines": '[Black "x"]\n' * (N // 12),
    "number-dots": "1" + "." * N + "x",
    "number-digits": "1" * N + ". a1,b1 *",
    "commas": "1. " + "," * N,
    "dashes": "1. " + "-" * N,
    "separators": "\u2028" * N,
    "arabic-digits": "١" * N,
}

#: Inputs for the SPN reader.
SPN = {
    "board-slashes": "/" * N + " b p 12/12 - 0 1",
    "board-digits": "1" * N + " b p 12/12 - 0 1",
    "long-rank": "b" * N + "/5/5/5/5 b p 12/12 - 0 1",
    "fields": " ".join(["5"] * N),
    "hand": "5/5/5/5/5 b p " + "1" * N + "/" + "2" * N + " - 0 1",
    "turn": "5/5/5/5/5 b p 12/12 - 0 " + "9" * N,
    "state": "5/5/5/5/5 b p 12/12 " + "a" * N + " 0 1",
    # separators other than one space (stop 41: refused, naming where and what was found)
    "tabs": "5/5/5/5/5" + "\t" * N + "b p 12/12 - 0 1",
    "wide-spaces": "5/5/5/5/5" + "\u3000" * N + "b p 12/12 - 0 1",
    "spaces-around": " " * N + START + "\n" * N,  # dropped: read as the start
    # every character a different non-ASCII one: the error names only the first few
    "look-alikes": "".join(chr(0x400 + i % 0x4000) for i in range(N)),
    "zero-padded": "5/5/5/5/5 b p 12/12 - 0 " + "0" * N + "1",
}

#: Inputs for the action parser and the options.
ACTIONS = {"dashes": "-" * N, "x": "x" * N, "cell-dash": "a1-" * (N // 3), "spaces": " " * N + "a1"}
OPTIONS = {"value": ["move_limit=" + "9" * N], "name": ["x" * N + "=1"], "equals": ["=" * N]}

#: Command lines.
CLI = {
    "perft-depth": ["perft", START, "9" * N],
    "movetime": ["bestmove", START, "--movetime", "9" * N],
    "size": ["legal", START, "--size", "9" * N],
    "flag": ["legal", START, "--" + "x" * N],
    "command": ["x" * N, START],
    "actions": ["apply", START, "a1-" * (N // 3)],
}


#: The longest error message a hostile input may produce: messages name the bad input,
#: cut short, so they fit a chat message and a log line.
MAX_MESSAGE = 400


def _refused_or_read(parse: Callable[[], object], errors: tuple[type[Exception], ...] = (SeegaError,)) -> None:
    try:
        parse()
    except errors as exc:
        message = str(exc)
        assert len(message) <= MAX_MESSAGE, f"{len(message)}-character message: {message[:200]}..."


def check_all() -> None:
    """Parse every input; only the engine's own errors may escape (a crash or a hang fails)."""
    rules = Ruleset.make("standard", 5)
    for text in SGN.values():
        _refused_or_read(partial(read_sgn, text))
    for text in SPN.values():
        _refused_or_read(partial(Position.from_spn, text, rules))
    for text in ACTIONS.values():
        _refused_or_read(partial(Action.parse, text))
    for options in OPTIONS.values():
        _refused_or_read(partial(Ruleset.make, "standard", 5, options))
    for argv in CLI.values():
        _refused_or_read(partial(run, argv), (SeegaError, UsageError))
    assert parse_whole("9" * N, 10**9) is None
    # Comments: a run of unclosed braces long enough that a retrying pattern takes hours.
    _refused_or_read(partial(read_sgn, "{" * 1_000_000))


if __name__ == "__main__":
    check_all()
    print("ok")
