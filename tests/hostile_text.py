"""Hostile text for every parser of typed input, and a child process that feeds it to them.

A parser that backtracks (a regular expression with nested quantifiers, or two
quantifiers that can share the same characters) turns one slash command into seconds or
hours of CPU on the bot's event loop. These strings are the shapes that trigger it: long
runs of separators, digits and cell names that almost match, then a character that makes
the whole match fail at the very end.

``python -m tests.hostile_text PARSER`` runs one parser over every string and prints
``start N`` / ``done N`` around each one, so the test that drives it can kill the child
and name the input when a string takes longer than its time limit (a runaway regular
expression holds the GIL, so a thread could not be stopped). Expected refusals (the
parser's documented errors) count as done; any other exception ends the child with a
traceback. ``bench/hostile.py`` sends the same strings through the loopback Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

#: The size of the long inputs: ten times what Discord lets a slash-command option hold.
LONG = 60_000


def hostile_strings(size: int = LONG) -> list[str]:
    """Adversarial texts of about ``size`` characters each (plus a few short classics)."""
    half = size // 2
    third = size // 3
    return [
        "b2" + " " * 24 + "!",  # the review's example: 4 s before the fix
        "b2" + " " * size + "!",
        "b2" + " -" * half + "!",
        "b2" + "->," * third + "c",
        "b2" + "\t\n" * half + "c2!",
        " " * size + "!",
        "-" * size,
        "a1" * half,
        "a1 " * third + "!",
        "1" * size,
        "1 " * half,
        "1" * size + "s",
        "1s" * half + "x",
        "9" * 5000 + "s",
        "1h" + "0" * size + "m",
        "\u2028" * size,
        "\u200f\u202e" * half,
        "\x00" * size,
        "😀" * half,
        "b2 c2" + "\u0301" * size,
        "b٢ c٣",  # Arabic-Indic digits: read as b2 c3
        "ｂ２ ｃ２",  # full-width letters and digits
        "key:" * third,
        '"' * size,
        "{0}{error}%s%(x)s" * (size // 20),
        "[x](https://e.example)" * (size // 22),  # a masked link, over and over
        "a " + "1" * size,  # a cell typed as two words, the number enormous
        "1" * size + "a",  # number first, enormous
        "a1→b2–" * (size // 6),  # the arrow and the dash the step reader takes (stop 37), over and over
        "b2" + " to" * third + " c2",  # the word "to" between two cells, over and over
        "b2 " + "to " * third,
        "b2 " + "إلى " * (size // 4) + "c2",
        "—" * size,  # the em dash, read as the hyphen is
        "b2" + "—" * size + "!",
        "a " * half + "1",  # a cell split in two, then thousands of words
        "1a " * third,
        "1س" * half + "x",  # the Arabic duration units the settings show (stop 39)
        "9" * size + "س",
        "١د " * third + "!",
        "س" * size,
        # An Arabic keyboard's digits and comma, read as ASCII ones (play-test: "e٤،e٥")
        "٤" * size,
        "،" * size,
        "a١،" * third + "!",
        "b۲" + "،" * size + "c۲!",
        "e" + "۵" * size,
        "c١ " * third,
        "[](" * third,  # a masked link's start, over and over: cubic in a name's escaping (stop 40)
        "[" + "a" * size + "](" + "b" * size,
    ]


def _parsers() -> dict[str, tuple[Callable[[str], object], tuple[type[BaseException], ...]]]:
    """Every function that reads text a member types, by name: (call with one string, its refusals)."""
    from bot import timeparse, transformers
    from bot.console import commands as console
    from bot.results import ServiceError
    from bot.service import commands

    def service_text(text: str) -> object:
        return asyncio.run(_through_service(text))

    return {
        "split_move_text": (lambda s: commands.split_move_text(s), ()),
        "parse_move": (lambda s: commands.parse_move(s, None), (ServiceError,)),
        "parse_move_to": (lambda s: commands.parse_move("b2", s), (ServiceError,)),
        "split_move": (transformers.split_move, ()),
        "split_step_words": (lambda s: commands.split_step_words(s), ()),
        "split_chain_text": (lambda s: commands.split_chain_text(s), ()),
        "place_first": (
            lambda s: asyncio.run(transformers.PlaceTransformer().transform(None, s)),
            (transformers.CellError,),
        ),  # type: ignore[arg-type]
        "move_from": (
            lambda s: asyncio.run(transformers.MoveTransformer().transform(None, s)),  # type: ignore[arg-type]
            (transformers.CellError, ServiceError),
        ),
        "rejoined_cells": (lambda s: commands.rejoined_cells(s), ()),
        "normalize_cell": (transformers.normalize_cell, (ValueError,)),
        "parse_duration": (timeparse.parse_duration, (timeparse.DurationError,)),
        "console_options": (lambda s: console._options(s.split(" ")), ()),
        "service": (service_text, ()),
        "console_lines": (lambda s: asyncio.run(_through_console(s)), ()),
        "display_name": (lambda s: _display_name(s), ()),
        "stored_name": (lambda s: _stored_name(s), ()),
    }


def _stored_name(text: str) -> None:
    """A name read from a row (``shown_name``: an import, an older version, a hand edit
    may hold any length) and drawn in a picture (``plain_name``): bounded, at once."""
    from bot.texts import plain_name, shown_name

    shown = shown_name(text)
    assert len(plain_name(shown)) <= 64 and len(shown) <= 2 * 64 + 2, shown[:80]
    plain_name(text)


def _display_name(text: str) -> None:
    """A Discord display name as the adapter reads it (its links broken, stop 36; its
    markdown escaped, stop 40): one line, clipped to 64 characters as written (at most
    twice that escaped), whatever it holds."""
    from types import SimpleNamespace

    from bot.flows import name_of
    from bot.texts import plain_name

    shown = name_of(SimpleNamespace(display_name=text))  # type: ignore[arg-type]
    assert len(plain_name(shown)) <= 64 and len(shown) <= 2 * 64 + 2, shown[:80]
    assert "](" not in shown and "://" not in shown, shown[:80]


async def _through_console(text: str) -> None:
    """The console's own readings of typed words (stop 36's): ``key: value``, a cell typed
    as two words or number first, ``puzzle`` words and its old ``answer``, ``solve``,
    ``settings hints:`` and the old ``coach-settings``, ``moves game:``, a word
    after ``move``'s options, a bare ``/``, a language, and an answer to a question. Each
    is answered in a line of bounded length (never the text echoed whole)."""
    import io

    from bot.console import ConsoleTable
    from tests.service.helpers import close_service, make_service

    lines = [
        f"/seega play-bot level: {text}",
        f"/seega challenge size: {text}",
        f"/seega puzzle {text}",
        f"/seega puzzle new:{text}",
        f"/seega puzzle answer {text}",
        f"/seega puzzle new answer:{text}",
        f"/seega learn answer:{text}",
        f"/seega solve {text}",
        f"/seega solve answer:{text}",
        f"/seega settings hints:{text}",
        f"/seega coach-settings hints:{text}",
        f"/seega moves game:{text}",
        f"/seega language {text}",
        f"/{text}",
        "/seega challenge",
        f"/place a {text}",
        f"/place {text} 1",
        f"/move from:a1 to:b2 {text}",
        "/seega resign",
        text,  # the answer to the question: anything but yes drops it
        "/seega cancel",
        text,
    ]
    with tempfile.TemporaryDirectory() as tmp:
        service = await make_service(Path(tmp) / "console.db")
        out = io.StringIO()
        table = ConsoleTable(service, out, None)
        try:
            for line in lines:
                out.seek(0)
                out.truncate(0)
                await table.handle(line)
                longest = max((len(said) for said in out.getvalue().splitlines()), default=0)
                assert longest < 1_000, f"{line[:40]!r}: a line of {longest} characters"
        finally:
            await close_service(service)


async def _through_service(text: str) -> None:
    """The service's text entry points on a real database with one game in the channel."""
    from bot.results import ServiceError
    from tests.service.helpers import ALICE, BOB, GUILD, MOD, close_service, make_service, start_people

    with tempfile.TemporaryDirectory() as tmp:
        service = await make_service(Path(tmp) / "hostile.db")
        try:
            await start_people(service, 1, ALICE, BOB)
            await service.legal_to_cells(1, text, ALICE.user_id)
            await service.legal_to_cells(2, text, ALICE.user_id)  # no game in that channel
            for call in (
                service.move(1, ALICE.user_id, text),
                service.move(1, ALICE.user_id, "b2", text),
                service.place(1, ALICE.user_id, text),
                service.place(1, ALICE.user_id, "a1", text),
                service.remove(1, ALICE.user_id, text),
                service.set_settings(GUILD, turn_timeout=text, moderator=MOD),
                service.set_settings(GUILD, challenge_timeout=text, moderator=MOD),
                service.set_settings(GUILD, hints=text, moderator=MOD),
                service.coach.solve(GUILD, ALICE.user_id, "Alice", text),
            ):
                try:
                    await call
                except ServiceError as exc:
                    assert len(exc.message) < 400, f"an error message of {len(exc.message)} characters"
        finally:
            await close_service(service)


def main(parser_name: str) -> int:
    parse, refusals = _parsers()[parser_name]
    print("ready", flush=True)
    for i, text in enumerate(hostile_strings()):
        print(f"start {i}", flush=True)
        with contextlib.suppress(*refusals):
            parse(text)
        print(f"done {i}", flush=True)
    print("finished", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
