"""The offline console table: the bot's commands typed in a terminal, same service, same database.

``seega-bot --console`` (and ``python -m bot`` without a token) opens it. People type the
slash commands of BOT.md as text (``/seega play-bot level:hard size:5``, ``/place a1 b2``,
``/move b2 c2``); the board is printed as text and, when the renderer is available, each
board image is written to a file whose path is printed. ``/seega challenge`` starts a
hot-seat game between two local players who take turns at the keyboard.

It reads standard input line by line, so it also works with piped input (the tests drive
it that way) and ends cleanly at end of input.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import shlex
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from bot.ai_pool import AiRunner, ProcessPoolAiRunner
from bot.clock import Clock
from bot.results import (
    BOT_LEVELS,
    BadInputError,
    GameOver,
    OfferResult,
    Player,
    ServiceError,
    TimerEvent,
    TurnEvent,
    TurnResult,
)
from bot.scheduler import Scheduler
from bot.service import GameService, Renderer, default_renderer
from bot.storage import Storage
from bot.timeparse import format_duration
from engine import Ruleset
from engine.rules import PRESETS

if TYPE_CHECKING:
    from bot.settings import Settings

log = logging.getLogger(__name__)

#: The console is one table: one guild and one channel in the database.
CONSOLE_GUILD = 0
CONSOLE_CHANNEL = 1
#: The local players (user ids 1 and 2; the bot is 0).
LOCAL_PLAYERS = (Player(1, "Player 1"), Player(2, "Player 2"))

COMMANDS = (
    "/seega play-bot",
    "/seega challenge",
    "/place",
    "/move",
    "/remove",
    "/seega end-turn",
    "/seega board",
    "/seega resign",
    "/seega offer-end",
    "/seega accept-end",
    "/seega rules",
    "/seega history",
    "/seega record",
    "/seega leaderboard",
    "/seega stats",
    "/seega settings",
    "/seega cancel",
    "help",
    "quit",
)

HELP = """\
Commands (the same as on Discord; the leading "/" and "seega" may be left out):
  /seega play-bot level:easy|medium|hard|expert size:5|7|9 variant:standard color:black|white|random
                          play against the computer
  /seega challenge size:5 variant:standard color:random
                          a hot-seat game: Player 1 and Player 2 take turns at this keyboard
  /place a1 b2            place your pieces (one cell places one piece)
  /move b2 c2             step a piece (also /move b2-c2)
  /remove c3              the removal a blocked-player rule asks for
  /seega end-turn         stop a chain of captures (or pass when you cannot move)
  /seega board            show the board again
  /seega resign           resign the game
  /seega offer-end        end by count (more pieces wins); /seega accept-end to accept
  /seega rules variant:standard    the rules of a variant
  /seega history          recent games at this table
  /seega record game:N    the record (SGN) of a game, written to a file
  /seega leaderboard size:5   /seega stats   /seega settings turn_timeout:10m
  /seega cancel           abandon the game at this table, unrated
  help                    this text
  quit                    leave (the game is saved; it resumes next time)
Variants: """ + ", ".join(v for v in PRESETS if v != "modern-3x3")

_RULES_GENERAL = (
    "Seega is played on a 5x5, 7x7 or 9x9 board. Each player has (n*n-1)/2 pieces.\n"
    "Placement: players take turns placing pieces ({placement}) on empty cells{centre}.\n"
    "Movement: {first} moves first, stepping one piece one cell up, down, left or right into an empty cell.\n"
)


def rules_text(variant: str) -> str:
    """A short, plain description of a preset, generated from its options."""
    rules = Ruleset.make(variant, 5)
    placement = {
        "pairs": "two per turn",
        "pairs-then-singles": "two on the first turn, then one per turn",
        "singles": "one per turn",
    }[rules.placement]
    centre = "" if rules.place_centre else " except the centre"
    first = "the last player to place" if rules.first_mover == "white" else "Black"
    lines = [f"Variant {variant}.", _RULES_GENERAL.format(placement=placement, centre=centre, first=first).rstrip()]
    if rules.opening == "lane":
        lines.append(
            "Lane's opening: Black first places on the middle of the left and right edges, White on the "
            "middle of the bottom and top edges."
        )
    if rules.win_line:
        lines.append(f"{rules.win_line} of your own pieces in a row or column wins at once.")
    if rules.after_placement == "replace":
        lines.append("If the board fills with no line, each player in turn replaces one enemy piece with their own.")
    if rules.captures:
        lines.append(
            "Capture: step so that an enemy piece is sandwiched between the piece you moved and another of "
            "yours in a line; it is removed." + (" Whole lines of enemies can be taken." if rules.line_capture else "")
        )
        lines.append(
            "The centre is safe: a piece on it cannot be captured."
            if rules.safe_centre
            else "Even a piece on the centre can be captured."
        )
        lines.append(
            {
                "same": "After a capture the same piece may capture again (a chain); /seega end-turn stops.",
                "any": "After a capture any of your pieces may capture again (a chain); /seega end-turn stops.",
                "none": "One capture step per turn: no chains.",
            }[rules.chain]
        )
    if rules.max_shuttles:
        lines.append(f"A piece may not shuttle between the same two cells more than {rules.max_shuttles} times.")
    lines.append(
        {
            "pass": "A player who cannot move passes (/seega end-turn).",
            "remove-by-blocked": "A player who cannot move removes an enemy piece next to one of theirs, then moves.",
            "remove-by-opponent": (
                "When a player cannot move, the opponent removes one of its own pieces to open a way."
            ),
            "lose": "A player who cannot move loses.",
            "capture-one": "When a player cannot move, the opponent removes one of the blocked player's pieces.",
        }[rules.blocked]
    )
    end = "all" if rules.lose_at == 0 else f"all but {rules.lose_at}"
    limit = f" After {rules.move_limit} turns without a capture, more pieces wins." if rules.move_limit else ""
    lines.append(f"Capture {end} of the enemy's pieces to win.{limit}")
    return "\n".join(lines)


def _options(words: Sequence[str]) -> tuple[list[str], dict[str, str]]:
    """Split ``key:value`` options from plain words."""
    plain, opts = [], {}
    for w in words:
        key, sep, value = w.partition(":")
        if sep and key and re.fullmatch(r"[a-z_-]+", key.lower()):
            opts[key.lower().replace("-", "_")] = value
        else:
            plain.append(w)
    return plain, opts


class ConsoleTable:
    """One console session: parses lines, calls the service, prints the results.

    Args:
        service: the game service (its storage is the bot's database).
        out: where to print.
        image_dir: where board images go (when the service has a renderer).
    """

    def __init__(self, service: GameService, out: TextIO, image_dir: Path | None = None) -> None:
        self.service = service
        self.out = out
        self.image_dir = image_dir
        self.cells: list[str] = []
        self._images = 0

    def say(self, text: str = "") -> None:
        """Print a line (flushed: the console is often read through a pipe)."""
        print(text, file=self.out, flush=True)

    # ----------------------------------------------------------------- output
    def _who(self, player: Player | None) -> str:
        return "nobody" if player is None else player.name

    def _event_line(self, e: TurnEvent) -> str:
        parts = []
        if e.placed:
            parts.append("placed " + ", ".join(e.placed))
        for a in e.actions:
            if "-" in a:
                parts.append(f"moved {a}")
            elif a == "end":
                parts.append("ended the turn")
            elif a == "pass":
                parts.append("passed (no move possible)")
        if e.captured:
            parts.append("captured " + ", ".join(e.captured))
        if e.removed:
            parts.append("removed " + ", ".join(e.removed))
        return f"{e.color.capitalize()} ({e.player.name}) " + "; ".join(parts or ["played " + ",".join(e.actions)])

    def _game_over_line(self, over: GameOver) -> str:
        if over.reason == "abandoned":
            return "The game was cancelled (unrated)."
        if over.winner is None:
            text = f"Game over: a draw ({over.result}, {over.reason})."
        else:
            text = f"Game over: {over.winner.name} wins ({over.result}, {over.reason})."
        for c in over.rating_changes:
            text += f"\n  {c.name}: rating {c.before:.0f} -> {c.after:.0f} ({c.delta:+.0f})"
        return text

    def _save_image(self, data: bytes | None, game_id: int, suffix: str = "png") -> None:
        if data is None or self.image_dir is None:
            return
        self.image_dir.mkdir(parents=True, exist_ok=True)
        self._images += 1
        path = self.image_dir / f"seega-game{game_id}-{self._images:03d}.{suffix}"
        path.write_bytes(data)
        self.say(f"Board image: {path}")

    def show(self, result: TurnResult) -> None:
        """Print what happened, the board, and whose turn it is."""
        for e in result.events:
            self.say(self._event_line(e))
        g = result.game
        self.say()
        self.say(g.text_board)
        self._save_image(result.png, g.id)
        hand = f"; in hand {g.hand[0]}/{g.hand[1]}" if g.phase == "p" else ""
        self.say(f"Pieces on the board: black {g.pieces[0]}, white {g.pieces[1]}{hand}.")
        if result.game_over is not None:
            self.say(self._game_over_line(result.game_over))
            self.cells = []
            return
        if result.to_move is not None:
            color = "Black" if result.to_move == g.black else "White"
            line = f"Turn {g.turn}: {color} ({result.to_move.name}) to play"
            if result.chain_pending:
                line += " - a chain of captures: capture again with /move, or /seega end-turn"
            elif result.legal and all(a in ("pass",) for a in result.legal):
                line += " - no move is possible: /seega end-turn to pass"
            self.say(line + ".")
        self._remember_cells(result.legal)

    def _remember_cells(self, legal: Sequence[str]) -> None:
        cells = set()
        for a in legal:
            cells.update(re.findall(r"[a-i][1-9]", a))
        self.cells = sorted(cells)

    def show_timer(self, event: TimerEvent) -> None:
        """Print what the scheduler did (reminders, timeouts)."""
        if event.kind == "reminder" and event.game is not None:
            left = format_duration(event.remaining or 0)
            who = self._who(event.game.to_move)
            self.say(f"\n[reminder] {who}, it is your turn: {left} left.")
        elif event.kind in ("timeout", "bot_turn") and event.turn is not None:
            self.say(f"\n[{event.kind.replace('_', ' ')}]")
            self.show(event.turn)

    # ----------------------------------------------------------------- commands
    async def _actor(self) -> int:
        """The local player who acts: the human whose turn it is (hot seat), else Player 1."""
        game = await self.service.game(CONSOLE_CHANNEL)
        if game is not None and game.to_move is not None and not game.to_move.is_bot:
            return game.to_move.user_id
        if game is not None:
            for p in (game.black, game.white):
                if not p.is_bot:
                    return p.user_id
        return LOCAL_PLAYERS[0].user_id

    async def handle(self, line: str) -> bool:
        """Run one command line; ``False`` means quit."""
        text = line.strip()
        if not text or text.startswith("#"):
            return True
        try:
            words = shlex.split(text)
        except ValueError:
            words = text.split()
        if words and words[0].lstrip("/").lower() == "seega":
            words = words[1:]
        if not words:
            self.say(HELP)
            return True
        cmd, args = words[0].lstrip("/").lower(), words[1:]
        plain, opts = _options(args)
        try:
            return await self._dispatch(cmd, plain, opts)
        except ServiceError as exc:
            self.say(f"Error: {exc}")
        return True

    async def _dispatch(self, cmd: str, plain: list[str], opts: dict[str, str]) -> bool:
        svc = self.service
        if cmd in ("quit", "exit", "q"):
            return False
        if cmd in ("help", "h", "?"):
            self.say(HELP)
        elif cmd == "play-bot":
            level = opts.get("level", plain[0] if plain else "medium")
            if level not in BOT_LEVELS:
                self.say(f"Error: {level!r} is not a level; levels are {', '.join(BOT_LEVELS)}.")
                return True
            self.say(f"Starting a game against the bot ({level})...")
            result = await svc.play_bot(
                CONSOLE_GUILD,
                CONSOLE_CHANNEL,
                LOCAL_PLAYERS[0],
                level,
                self._size(opts),
                opts.get("variant"),
                opts.get("color", "random"),
            )
            self.show(result)
        elif cmd == "challenge":
            ch = await svc.challenge(
                CONSOLE_GUILD,
                CONSOLE_CHANNEL,
                LOCAL_PLAYERS[0],
                LOCAL_PLAYERS[1],
                self._size(opts),
                opts.get("variant"),
                opts.get("color", "random"),
            )
            self.say("A hot-seat game: Player 1 and Player 2 take turns at this keyboard.")
            self.show(await svc.accept_challenge(ch.challenge.id, LOCAL_PLAYERS[1].user_id))
        elif cmd == "place":
            cells = plain or [v for k, v in opts.items() if k in ("first", "second")]
            await self._play(svc.place(CONSOLE_CHANNEL, await self._actor(), " ".join(cells), bot_reply=False))
        elif cmd == "move":
            frm = opts.get("from", " ".join(plain))
            await self._play(svc.move(CONSOLE_CHANNEL, await self._actor(), frm, opts.get("to"), bot_reply=False))
        elif cmd == "remove":
            cell = opts.get("cell", plain[0] if plain else "")
            await self._play(svc.remove(CONSOLE_CHANNEL, await self._actor(), cell, bot_reply=False))
        elif cmd in ("end-turn", "end", "pass"):
            await self._play(svc.end_turn(CONSOLE_CHANNEL, await self._actor(), bot_reply=False))
        elif cmd == "board":
            self.show(await svc.board(CONSOLE_CHANNEL))
        elif cmd == "resign":
            self.show(await svc.resign(CONSOLE_CHANNEL, await self._actor()))
        elif cmd == "offer-end":
            offer = await svc.offer_end(CONSOLE_CHANNEL, await self._actor())
            if isinstance(offer, OfferResult):
                self.say(
                    f"{offer.offered_by.name} offers to end the game by count; "
                    f"{offer.opponent.name} accepts with /seega accept-end."
                )
            else:
                self.show(offer)
        elif cmd == "accept-end":
            game = await svc.game(CONSOLE_CHANNEL)
            user = await self._actor()
            if game is not None and game.end_offer_by is not None:
                other = game.white if game.end_offer_by == "black" else game.black
                user = other.user_id
            self.show(await svc.accept_end(CONSOLE_CHANNEL, user))
        elif cmd == "cancel":
            self.show(await svc.cancel(CONSOLE_CHANNEL))
        elif cmd == "rules":
            variant = opts.get("variant", plain[0] if plain else "standard")
            if variant not in PRESETS:
                self.say(
                    f"Error: {variant!r} is not a variant; variants are "
                    + ", ".join(v for v in PRESETS if v != "modern-3x3")
                    + "."
                )
            else:
                self.say(rules_text(variant))
        elif cmd == "history":
            games = await svc.history(CONSOLE_GUILD, None, 10)
            if not games:
                self.say("No games yet.")
            for s in games:
                how = f"{s.result} {s.reason}" if s.result else s.status
                self.say(
                    f"#{s.id}  {s.black.name} (black) vs {s.white.name} (white)  {s.variant} {s.size}x{s.size}"
                    f"  {s.turns} turns  {how}"
                )
        elif cmd == "record":
            game_id = opts.get("game", plain[0] if plain else "")
            gid = int(game_id.lstrip("#")) if game_id.lstrip("#").isdigit() else None
            rec = await svc.record(CONSOLE_GUILD, gid, CONSOLE_CHANNEL)
            self.say(rec.sgn.rstrip())
            if self.image_dir is not None:
                self.image_dir.mkdir(parents=True, exist_ok=True)
                path = self.image_dir / rec.filename
                path.write_text(rec.sgn, encoding="utf-8")
                self.say(f"Record written to {path}")
                if rec.replay is not None and rec.replay_filename:
                    replay = self.image_dir / rec.replay_filename
                    replay.write_bytes(rec.replay)
                    self.say(f"Replay written to {replay}")
        elif cmd == "leaderboard":
            entries = await svc.leaderboard(CONSOLE_GUILD, self._size(opts))
            if not entries:
                self.say("No rated games on this board size yet (games against the bot are not rated).")
            for e in entries:
                self.say(f"{e.rank}. {e.name}  {e.rating:.0f} (+/-{e.rd:.0f})  {e.wins}-{e.losses}-{e.draws}")
        elif cmd == "stats":
            st = await svc.stats(CONSOLE_GUILD, LOCAL_PLAYERS[0].user_id, LOCAL_PLAYERS[0].name)
            p = st.versus_people
            self.say(f"{st.name}: against people {p.wins} won, {p.losses} lost, {p.draws} drawn.")
            for level, t in st.versus_bot.items():
                self.say(f"  against the bot ({level}): {t.wins} won, {t.losses} lost, {t.draws} drawn")
        elif cmd == "settings":
            if opts:
                settings = await svc.set_settings(
                    CONSOLE_GUILD, opts.get("turn_timeout"), opts.get("challenge_timeout"), opts.get("default_variant")
                )
            else:
                settings = await svc.get_settings(CONSOLE_GUILD)
            self.say(
                f"turn_timeout {format_duration(settings.turn_timeout)}, challenge_timeout "
                f"{format_duration(settings.challenge_timeout)}, default_variant {settings.default_variant}"
            )
        else:
            self.say(f"Unknown command {cmd!r}; type help for the list.")
        return True

    async def _play(self, command: Awaitable[TurnResult]) -> None:
        """Show a player's command, then the bot's reply once it has thought (as it happens)."""
        result = await command
        self.show(result)
        if result.bot_to_move and result.to_move is not None:
            self.say(f"{result.to_move.name} is thinking...")
            self.show(await self.service.bot_turn(CONSOLE_CHANNEL))

    @staticmethod
    def _size(opts: dict[str, str]) -> int:
        value = opts.get("size", "5").lower().split("x")[0]
        if not value.isdigit():
            raise BadInputError(f"{opts.get('size')!r} is not a board size; sizes are 5, 7 and 9.", "bad_size")
        return int(value)

    def completer(self) -> Callable[[str, int], str | None]:
        """A readline completer for command names and the cells legal now."""

        def complete(text: str, state: int) -> str | None:
            try:
                import readline

                line = readline.get_line_buffer()
            except ImportError:  # pragma: no cover - readline is optional
                line = text
            if " " not in line.strip() and not line.endswith(" "):
                words = sorted({c.split()[0] for c in COMMANDS} | {c.split()[-1] for c in COMMANDS})
            else:
                words = self.cells + [f"level:{lvl}" for lvl in BOT_LEVELS] + ["size:5", "size:7", "size:9"]
            options = [w for w in words if w.startswith(text)]
            return options[state] if state < len(options) else None

        return complete


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
        db_path: the SQLite database (the bot's ``SEEGA_DB``).
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
    service = GameService(storage, runner, rend, clock)
    images = Path(image_dir) if image_dir else Path(db_path).resolve().parent / "seega-images"
    table = ConsoleTable(service, out, images)
    scheduler = Scheduler(service, lambda e: _async_show(table, e))
    interactive = inp.isatty() and out.isatty()
    if interactive:
        with contextlib.suppress(ImportError):
            import readline

            readline.set_completer(table.completer())
            readline.set_completer_delims(" \t")
            readline.parse_and_bind("tab: complete")
    table.say(f"Seega offline table (database {db_path}). Type help for the commands, quit to leave.")
    try:
        await scheduler.start()
        game = await service.game(CONSOLE_CHANNEL)
        if game is not None:
            table.say(f"Resuming game #{game.id}.")
            table.show(await service.board(CONSOLE_CHANNEL))
        else:
            table.say("Start with /seega play-bot level:easy or /seega challenge (hot seat).")
        while True:
            try:
                if interactive:
                    line = await asyncio.to_thread(input, "seega> ")
                else:
                    line = await asyncio.to_thread(inp.readline)
                    if not line:
                        break
                    table.say(f"> {line.rstrip()}")
            except EOFError:
                break
            except KeyboardInterrupt:  # pragma: no cover - interactive only
                break
            if not await table.handle(line):
                break
    finally:
        await scheduler.stop()
        await storage.close()
        if own_ai:
            runner.close()
    table.say("Bye: the game is saved in the database.")
    return 0


async def _async_show(table: ConsoleTable, event: TimerEvent) -> None:
    table.show_timer(event)


def main_console(settings: Settings | None = None) -> int:
    """The console entry point (``seega-bot --console``) with the bot's settings."""
    db_path: str | os.PathLike[str] = "seega.db"
    workers = None
    if settings is not None:
        db_path = settings.db_path
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


def _main(argv: Sequence[str]) -> int:
    """``python -m bot.console [DB]``: the table on ``DB`` (default ``SEEGA_DB`` or ``seega.db``)."""
    from bot.settings import Settings

    if any(arg in ("-h", "--help") for arg in argv):
        print(CONSOLE_HELP)
        return 0
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        # Never open a database named after a mistyped flag.
        print(f"{CONSOLE_USAGE}\nerror: unexpected {' '.join(argv)[:80]!r}", file=sys.stderr)
        return 2
    settings = Settings.load()
    if argv:
        from dataclasses import replace

        settings = replace(settings, db_path=Path(argv[0]))
    return main_console(settings)


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
