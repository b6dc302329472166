"""The offline console table: the bot's commands typed in a terminal, same service, same database.

``seega-bot --console`` (and ``python -m bot`` without a token) opens it. People type the
slash commands of the command reference (``docs/commands.md``) as text
(``/seega play-bot level:hard size:5``, ``/place a1 b2``, ``/move b2 c2``); the board is
printed as text and, when the renderer is available, each board image is written to a
file whose path is printed. ``/seega challenge`` starts a hot-seat game between two local
players who take turns at the keyboard.

It reads standard input line by line, so it also works with piped input (the tests drive
it that way) and ends cleanly at end of input. :mod:`bot.console.commands` is the command
table, :mod:`bot.console.output` what it prints.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from bot import texts
from bot.ai_pool import AiRunner, ProcessPoolAiRunner
from bot.clock import Clock
from bot.console.commands import BY_NAME, COMMANDS, HELP, Args, Command, ConsoleTable
from bot.console.output import (
    CONSOLE_CHANNEL,
    CONSOLE_GUILD,
    LOCAL_PLAYERS,
    ConsolePictures,
    rules_text,
)
from bot.dbcheck import check_database
from bot.results import ServiceError, TimerEvent, clip_typed
from bot.scheduler import Scheduler
from bot.service import GameService, Renderer, default_renderer
from bot.settings import Settings, database_setting, redact_url
from bot.storage import Storage, is_postgres_url

__all__ = [
    "BY_NAME",
    "COMMANDS",
    "CONSOLE_CHANNEL",
    "CONSOLE_GUILD",
    "HELP",
    "LOCAL_PLAYERS",
    "Args",
    "Command",
    "ConsoleTable",
    "main",
    "main_console",
    "rules_text",
    "run_console",
]

log = logging.getLogger(__name__)
#: Characters of a piped line the table echoes back (the whole line is still read).
ECHO_LIMIT = 200


async def run_console(
    db_path: str | os.PathLike[str],
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    ai: AiRunner | None = None,
    renderer: Renderer | bool | None = True,
    image_dir: str | os.PathLike[str] | None = None,
    clock: Clock | None = None,
    workers: int | None = None,
) -> int:
    """Run the console table until ``quit`` or end of input; returns the exit status.

    Args:
        db_path: the database (the bot's ``SEEGA_DB``: a SQLite path or a PostgreSQL URL).
        stdin, stdout: the streams (default the process's).
        ai: the AI runner (default a process pool of ``workers``).
        renderer: ``True`` for ``bot.render`` if importable, ``None``/``False`` for text only.
        image_dir: where board images and records are written (default ``seega-images``
            next to the database).
        clock: the time source.
        workers: AI processes (default ``SEEGA_AI_WORKERS`` or the CPU count).
    """
    inp = stdin or sys.stdin
    out = stdout or sys.stdout
    storage = await Storage.open(db_path)
    own_ai = ai is None
    runner = ai or ProcessPoolAiRunner(workers)
    rend = default_renderer() if renderer is True else (renderer or None)
    if rend is not None:
        rend = ConsolePictures(rend)  # "You" in the pictures, as in the text
    service = GameService(storage, runner, rend, clock)
    on_file = not is_postgres_url(db_path)
    beside = Path(db_path).resolve().parent if on_file else Path.cwd()
    images = Path(image_dir) if image_dir else beside / "seega-images"
    table = ConsoleTable(service, out, images)
    if isinstance(rend, ConsolePictures):
        rend.table_lang = lambda: table.lang  # the pictures speak the table's language
    error_file = _log_errors_to(Path(db_path).resolve().parent / "seega-console.log")
    if error_file is not None:
        table.error_log = str(error_file)
    scheduler = Scheduler(service, lambda e: _async_show(table, e))
    interactive = inp.isatty() and out.isatty()
    if interactive:
        with contextlib.suppress(ImportError):
            import readline

            readline.set_completer(table.completer())
            readline.set_completer_delims(" \t")
            readline.parse_and_bind("tab: complete")
    shown = db_path if on_file else redact_url(str(db_path))
    bye = "console.bye"
    try:
        # The table's language first: the greeting is its first sentence.
        table.lang = await service.get_language(LOCAL_PLAYERS[0].user_id) or table.lang
        table.say(texts.text(table.lang, "console.banner", db=shown))
        # The clock stood while the table was closed: move the turn's deadline by that
        # time before the scheduler starts, so a deadline that fell due while it was
        # closed is not applied (newcomer play-test: lost on time after quit and restart).
        with contextlib.suppress(ServiceError):
            await service.resume_clock(CONSOLE_CHANNEL)
        await scheduler.start()
        game = await service.game(CONSOLE_CHANNEL)
        if game is not None:
            table.say(texts.text(table.lang, "console.resuming", id=game.id))
            table.show(await service.board(CONSOLE_CHANNEL))
        else:
            table.say(texts.text(table.lang, "console.start_with"))
        while True:
            try:
                if interactive:
                    line = await asyncio.to_thread(input, "seega> ")
                else:
                    line = await asyncio.to_thread(inp.readline)
                    if not line:
                        break
                    table.say(f"> {clip_typed(line.rstrip(), ECHO_LIMIT)}")
            except EOFError:
                break
            except KeyboardInterrupt:  # pragma: no cover - interactive only
                break
            if not await table.handle(line):
                break
        # "the game is saved" only when one is left to resume (fresh-eyes play-test: it
        # was said after the last game had ended)
        bye = "console.bye" if await service.game(CONSOLE_CHANNEL) is not None else "console.bye_no_game"
    finally:
        await scheduler.stop()
        # Closing the table stops the game's clock until it opens again.
        try:
            await service.pause_clock(CONSOLE_CHANNEL)
        except Exception:
            log.warning("could not stop the game's clock; it is moved from its last save next time", exc_info=True)
        await storage.close()
        if own_ai:
            runner.close()
    table.say(texts.text(table.lang, bye))
    return 0


def _log_errors_to(path: Path) -> Path | None:
    """Send the tracebacks of unexpected errors at the table to ``path`` (once per process)."""
    errors = logging.getLogger("bot.console.errors")
    if any(isinstance(h, logging.FileHandler) for h in errors.handlers):
        return Path(next(h for h in errors.handlers if isinstance(h, logging.FileHandler)).baseFilename)
    try:
        handler = logging.FileHandler(path, encoding="utf-8", delay=True)
    except OSError:
        return None  # the traceback then goes to the usual log (stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    errors.addHandler(handler)
    errors.propagate = False
    return path


async def _async_show(table: ConsoleTable, event: TimerEvent) -> None:
    table.show_timer(event)


def main_console(settings: Settings | None = None) -> int:
    """The console entry point (``seega-bot --console``) with the bot's settings."""
    db_path: str | os.PathLike[str] = "seega.db"
    workers = None
    if settings is not None:
        db_path = settings.database
        workers = settings.ai_workers
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(run_console(db_path, workers=workers))
    except KeyboardInterrupt:
        return 0


CONSOLE_USAGE = "usage: python -m bot.console [DB] [-h | --help]"
CONSOLE_HELP = f"""{CONSOLE_USAGE}

The offline Seega table (no Discord) on the SQLite database DB (default: SEEGA_DB, or
seega.db). Type help at the table for its commands, quit to leave."""


def main(argv: Sequence[str]) -> int:
    """``python -m bot.console [DB]``: the table on ``DB`` (default ``SEEGA_DB`` or ``seega.db``)."""
    if any(arg in ("-h", "--help") for arg in argv):
        print(CONSOLE_HELP)
        return 0
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        # Never open a database named after a mistyped flag.
        print(f"{CONSOLE_USAGE}\nerror: unexpected {' '.join(argv)[:80]!r}", file=sys.stderr)
        return 2
    settings = Settings.load()
    if argv:
        db_path, db_url = database_setting(argv[0])
        settings = replace(settings, db_path=db_path, db_url=db_url)
    problem = check_database(settings)
    if problem is not None:
        print(f"python -m bot.console: {problem}", file=sys.stderr)
        return 2
    return main_console(settings)
