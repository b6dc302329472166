"""The launcher: ``seega-bot`` and ``python -m bot``.

``seega-bot`` (or ``seega-bot run``) connects to Discord when ``DISCORD_TOKEN`` is set and
otherwise opens the offline console table; ``seega-bot --console`` opens the console
table; ``seega-bot sync`` publishes the slash commands (globally, or to
``DISCORD_GUILD_ID``) and exits, because Discord limits how often commands may be written.
``seega-bot worker`` runs AI workers on the PostgreSQL job queue (``bot.ai_jobs``);
``seega-bot migrate-db --to URL`` copies the SQLite database into PostgreSQL
(``bot.storage.migrate``). See docs/scaling.md. ``seega-bot mine-puzzles --out FILE`` mines
puzzles from the database's finished games (``bot.puzzle_mining``, docs/coach.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.dbcheck import check_database, without_password
from bot.settings import Settings, SettingsError, check_postgres_hosts

log = logging.getLogger("bot")


class _RedactToken(logging.Filter):
    """Last line of defence: a log record that somehow contains the token is redacted.

    Everything a handler writes is checked: the message with its arguments, and the
    traceback (an exception's text or arguments, a chained cause) and stack attached to
    it, which the formatter would otherwise print as they are.
    """

    _formatter = logging.Formatter()

    def __init__(self, token: str | None) -> None:
        super().__init__()
        self.token = token

    def _redact(self, text: str) -> str:
        assert self.token
        return text.replace(self.token, "[token]")

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.token:
            return True
        message = record.getMessage()
        if self.token in message:
            record.msg = self._redact(message)
            record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = self._formatter.formatException(record.exc_info)
        if record.exc_text:
            # Keep only the redacted text: a formatter formats exc_info only when
            # exc_text is empty, and another handler must not print the original.
            record.exc_text = self._redact(record.exc_text)
            record.exc_info = None
        if record.stack_info:
            record.stack_info = self._redact(record.stack_info)
        return True


def setup_logging(settings: Settings) -> None:
    """Log to stderr at ``LOG_LEVEL``; discord.py's chatty gateway logs one level quieter."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    handler.addFilter(_RedactToken(settings.token))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(settings.log_level)
    if settings.log_level != "DEBUG":
        logging.getLogger("discord.gateway").setLevel(logging.WARNING)
        logging.getLogger("discord.client").setLevel(logging.WARNING)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="seega-bot",
        description="Seega for Discord. Settings come from the environment and .env (see .env.example).",
    )
    parser.add_argument(
        "command",
        nargs="?",
        choices=("run", "sync", "worker", "migrate-db", "mine-puzzles"),
        default="run",
        help="run the bot (default); sync the slash commands with Discord and exit; run AI workers on the"
        " PostgreSQL job queue; copy the SQLite database into PostgreSQL (migrate-db --to URL); or mine"
        " puzzles from the finished games of the database (mine-puzzles --out FILE)",
    )
    parser.add_argument("--to", metavar="URL", help="migrate-db: the postgresql://user@host:port/db to copy into")
    parser.add_argument("--out", metavar="FILE", help="mine-puzzles: the bank file to write")
    parser.add_argument("--console", action="store_true", help="open the offline console table (no Discord)")
    parser.add_argument("--env-file", default=".env", help="the .env file to read (default: ./.env)")
    return parser.parse_args(argv)


def run_console(settings: Settings) -> int:
    """Start the offline console table (``bot.console``) on the same database."""
    from bot.console import main_console  # the console needs no Discord: load it only when asked

    return main_console(settings)


async def sync_commands(settings: Settings) -> int:
    """Log in, publish the command tree once, and leave."""
    import discord

    from bot.client import create_bot

    bot = create_bot(settings)
    # setup_hook opens the database and syncs to the dev guild; a sync run only needs the tree.
    async with bot:
        bot.setup_hook = _setup_tree_only(bot)  # type: ignore[method-assign]
        assert settings.token is not None
        await bot.login(settings.token)
        if settings.guild_id is not None:
            guild = discord.Object(settings.guild_id)
            bot.tree.copy_global_to(guild=guild)
            synced = await bot.tree.sync(guild=guild)
            print(f"Synced {len(synced)} commands to guild {settings.guild_id} (visible at once).")
        else:
            synced = await bot.tree.sync()
            print(f"Synced {len(synced)} global commands (Discord may take a few minutes to show them).")
    return 0


def _setup_tree_only(bot: Any) -> Any:
    async def setup_hook() -> None:
        from bot.i18n import SeegaTranslator

        await bot.tree.set_translator(SeegaTranslator())
        await bot.load_extension("bot.cogs.game")

    return setup_hook


def run_bot(settings: Settings) -> int:
    """Connect to Discord and serve until interrupted."""
    import discord

    from bot.client import create_bot

    bot = create_bot(settings)
    assert settings.token is not None
    try:
        asyncio.run(_serve(bot, settings.token))
    except discord.LoginFailure:
        log.error("Discord refused the token (DISCORD_TOKEN): reset it on the Bot page of your application")
        return 2
    except discord.PrivilegedIntentsRequired:
        log.error("Discord refused a privileged intent; this bot needs none: check the application settings")
        return 2
    except KeyboardInterrupt:
        pass
    return 0


async def _serve(bot: Any, token: str) -> None:
    # SIGTERM (docker stop, systemctl stop) closes the bot like Ctrl-C does: the gateway,
    # the AI pool and the database are shut down in order.
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []
    with contextlib.suppress(NotImplementedError):  # not on Windows
        loop.add_signal_handler(signal.SIGTERM, lambda: closing.append(loop.create_task(bot.close())))
    async with bot:
        await bot.start(token)
    log.info("stopped")


def run_scaling_command(command: str, settings: Settings, target: str | None) -> int:
    """``worker`` and ``migrate-db``: the pieces of a PostgreSQL deployment (docs/scaling.md)."""
    from bot.settings import redact_url

    if command == "worker":
        from bot.ai_jobs import run_workers

        if settings.db_url is None:
            print(
                "seega-bot worker needs SEEGA_DB=postgresql://...: with SQLite the bot runs its own AI pool.",
                file=sys.stderr,
            )
            return 2
        try:
            return run_workers(settings.db_url, settings.ai_workers or 1)
        except ValueError as exc:  # asyncpg refusing a parameter of the URL (sslmode=bogus)
            shown = without_password(settings.db_url, str(exc))
            print(f"seega-bot worker: SEEGA_DB={redact_url(settings.db_url)} cannot be used ({shown})", file=sys.stderr)
            return 2
    from bot.storage.migrate import MigrationError, migrate_database

    if not target:
        print("seega-bot migrate-db needs --to postgresql://user@host:port/db", file=sys.stderr)
        return 2
    try:
        check_postgres_hosts("--to", target)
    except SettingsError as exc:
        print(f"seega-bot migrate-db: {exc}", file=sys.stderr)
        return 2
    source = settings.database
    print(f"Copying {source} into {redact_url(target)} ...")
    try:
        report = asyncio.run(migrate_database(source, target))
    except MigrationError as exc:
        print(f"seega-bot migrate-db: {exc}; PostgreSQL was left unchanged.", file=sys.stderr)
        return 1
    for line in report.lines():
        print("  " + line)
    print(f"Done. Set SEEGA_DB={redact_url(target)} to run the bot on PostgreSQL.")
    return 0


def run_mine_puzzles(settings: Settings, out: str | None) -> int:
    """``mine-puzzles``: puzzles from the database's finished games (``bot/puzzle_mining.py``)."""
    from bot.puzzle_mining import finished_games, mine_rows, write_bank
    from bot.settings import redact_url

    if not out:
        print("seega-bot mine-puzzles needs --out FILE (the bank file to write)", file=sys.stderr)
        return 2
    if settings.db_url is None and not settings.db_path.exists():
        print(f"seega-bot mine-puzzles: no database at {settings.db_path} (SEEGA_DB)", file=sys.stderr)
        return 2
    rows = asyncio.run(finished_games(settings.database))
    print(f"Mining {len(rows)} finished games of {redact_url(settings.database)} ...")
    puzzles = mine_rows(rows)  # a batch command: no event loop is waiting on it
    write_bank(Path(out), puzzles, len(rows))
    print(f"{len(puzzles)} puzzles -> {out}; join them to the bank with python -m engine.coach.mine --merge")
    return 0


def engine_build() -> str:
    """The engine build this process runs (``engine.compiled``), with a warning in the log
    when a compiled build is older than its sources or incomplete: Python would run the
    old engine code after an upgrade without a rebuild (docs/deploy.md)."""
    from engine.compiled import build_name  # imports the engine: only once it is needed

    name = build_name()
    if name not in ("compiled", "pure Python"):
        log.warning("engine: %s", name)
    return name


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``seega-bot``; returns the exit status."""
    args = parse_args(argv)
    try:
        settings = Settings.load(args.env_file)
    except SettingsError as exc:
        print(f"seega-bot: bad setting: {exc}", file=sys.stderr)
        return 2
    if args.command == "mine-puzzles":
        return run_mine_puzzles(settings, args.out)
    if args.command in ("worker", "migrate-db"):
        setup_logging(settings)
        if args.command == "worker":
            engine_build()
        return run_scaling_command(args.command, settings, args.to)
    console = args.console or (args.command == "run" and not settings.has_token)
    # At the console table, INFO lines (migrations, the AI pool) would interleave with the
    # board: show warnings only, unless LOG_LEVEL asks for more detail.
    setup_logging(replace(settings, log_level="WARNING") if console and settings.log_level == "INFO" else settings)
    if console or args.command == "run":
        problem = check_database(settings)
        if problem is not None:
            print(f"seega-bot: {problem}", file=sys.stderr)
            return 2
    if console:
        if not args.console:
            print("No DISCORD_TOKEN set: opening the offline console table (see .env.example).", file=sys.stderr)
        engine_build()
        return run_console(settings)
    if not settings.has_token:
        print("seega-bot sync needs DISCORD_TOKEN.", file=sys.stderr)
        return 2
    if args.command == "sync":  # publishes commands only: no game, so no engine to import
        log.info("starting with %r", settings)
        return asyncio.run(sync_commands(settings))
    log.info("starting with %r; engine: %s", settings, engine_build())
    return run_bot(settings)
