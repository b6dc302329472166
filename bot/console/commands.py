"""The console's commands: one table of name, usage, help, handler and completion.

A line is split into plain words and ``key:value`` options, its first word looked up in
:data:`BY_NAME`, and the row's handler run; the help text and tab completion are made
from the same rows, so adding a command is adding a row and a method.
"""

from __future__ import annotations

import logging
import re
import secrets
import shlex
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from bot import texts, wording
from bot.console.lookups import LookupsConsole
from bot.console.offers import OffersConsole
from bot.console.output import CONSOLE_CHANNEL, CONSOLE_GUILD, LOCAL_PLAYERS
from bot.i18n import t
from bot.results import BotDeclinesError, ServiceError, clip_typed
from bot.service import catalog
from bot.service.commands import split_chain_text, split_move_text
from bot.suggest import did_you_mean
from engine.board import ascii_typed
from engine.coach.lessons import LESSONS

#: Unexpected failures at the table: their tracebacks go here (a file, see run_console),
#: not between the boards.
errors_log = logging.getLogger("bot.console.errors")


def _option_key(word: str) -> str | None:
    """The key of a ``key:value`` word (normalised: ``turn-timeout`` -> ``turn_timeout``), or ``None``."""
    key, sep, _ = word.partition(":")
    return key.lower().replace("-", "_") if sep and key and re.fullmatch(r"[a-z_-]+", key.lower()) else None


def _options(words: Sequence[str]) -> tuple[list[str], dict[str, str]]:
    """Split ``key:value`` options from plain words.

    ``key: value`` (a space after the colon, as prose writes it) is read as ``key:value``
    when the word after the colon is a plain one: ``play-bot level: hard`` left the level
    empty and the word ``hard`` aside, and started a medium game (newcomer finding; the
    decision is in docs/commands.md's console section).
    """
    plain: list[str] = []
    opts: dict[str, str] = {}
    i = 0
    while i < len(words):
        w, i = words[i], i + 1
        key = _option_key(w)
        if key is None:
            plain.append(w)
            continue
        value = w.partition(":")[2]
        if not value and i < len(words) and _option_key(words[i]) is None:
            value, i = words[i], i + 1
        opts[key] = value
    return plain, opts


#: The parts of a refusal that say "your"/"you" (what a cell holds, the rule's line of a
#: removal, a step onto one's own piece), and their hot-seat wording by colour: at one
#: keyboard "you remove one of your pieces" named nobody (console play-test).
HOT_SEAT_PARTS = {
    "service.removal_cell.own": "console.removal_cell.own_hot_seat",
    "service.removal_cell.enemy": "console.removal_cell.enemy_hot_seat",
    "explain.removal.capture-one": "console.removal.capture-one_hot_seat",
    "explain.removal.remove-by-blocked": "console.removal.remove-by-blocked_hot_seat",
    "explain.removal.remove-by-opponent": "console.removal.remove-by-opponent_hot_seat",
    "explain.removal.lose": "console.removal.lose_hot_seat",
    "explain.removal.both": "console.removal.both_hot_seat",
    "explain.refuse.occupied_own": "console.refuse.occupied_own_hot_seat",
}


def _hot_seat_part(value: object, named: dict[str, str]) -> object:
    """A refusal's parameter in hot-seat words: a sentence within it (the rule's line of a
    removal, the refused step of a chain) by colour, as its sentence is, nested ones too."""
    if not isinstance(value, texts.Text):
        return value
    params = {name: _hot_seat_part(part, named) for name, part in value.params.items()}
    key = HOT_SEAT_PARTS.get(value.key)
    if key is None and value.key.startswith("service."):
        own = f"console.error.{value.key.removeprefix('service.')}_hot_seat"
        key = own if texts.has("en", own) else None
    return texts.Text(value.key, params) if key is None else texts.Text(key, {**params, **named})


@dataclass(frozen=True)
class Args:
    """A command line's words: plain ones in order, ``key:value`` options by key."""

    plain: list[str]
    opts: dict[str, str]

    def get(self, key: str, default: str = "") -> str:
        """The option ``key``, else the first plain word, else ``default``."""
        return self.opts.get(key, self.plain[0] if self.plain else default)


Handler = Callable[["ConsoleTable", Args], Awaitable[bool | None]]


@dataclass(frozen=True)
class Command:
    """One row of the console's command table.

    Attributes:
        name: what people type (after an optional ``/`` and ``seega``).
        usage: the command as the help shows it, with its options.
        help: what it does, in a few words.
        run: the handler; it returns ``False`` to leave the table.
        aliases: other names that run it.
        options: words offered by tab completion after the name.
        takes: the ``key:`` options it reads besides those of ``options`` (any other is
            refused: a mistyped option must not be silently ignored).
        words: the most plain words it reads (``None``: any). More are refused, not
            dropped: ``settings turn_timeout 10m`` used to show the settings unchanged,
            as if the new timeout had been set.
    """

    name: str
    usage: str
    help: str
    run: Handler
    aliases: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    takes: tuple[str, ...] = ()
    words: int | None = 0

    @property
    def option_names(self) -> tuple[str, ...]:
        """Every ``key`` this command reads as ``key:value``, in the order of its help."""
        names = [o.split(":", 1)[0].replace("-", "_") for o in self.options if ":" in o]
        return tuple(dict.fromkeys([*names, *self.takes]))


def refusal_text(exc: ServiceError, lang: str) -> str:
    """A refusal of the service in the console's words: ``console.error.<key>`` where the
    service's sentence speaks of what only Discord has (channels and threads: "play in
    another channel" at a one-table console), else the service's own sentence."""
    key = f"console.error.{exc.key}"
    return t(lang, key, **exc.params) if texts.has("en", key) else exc.text(lang)


#: An action in the engine's notation, as the record and the pictures write it ("a1",
#: "b2-c2", "xd4"): fixed-length cell patterns, so a long typed word costs one look.
_CELL = "[a-i][1-9]"
_NOTATION = re.compile(rf"(x)?({_CELL})(?:-({_CELL}))?")


def as_command(text: str, phase: str | None = None) -> str | None:
    """The command typed cells stand for, or ``None``: a word in action notation ("b2-c2"
    -> "/move b2 c2", "xd4" -> "/remove d4", "a1" -> "/place a1"), as the picture's "Last:
    Black xd1" line or the moves list shows them; and a step or a pair the way ``/move``
    reads one ("a1 a2", "d1 to e1", "d3 c3 b3", :mod:`bot.service.commands`'s readers).

    ``phase`` is the table's (``p``, ``m``, ``r``, ``s`` as in :class:`GameView`; ``None``:
    no game): two cells with a space are a pair to place during placement, a step after
    it; a lone cell is placed during placement, removed when a removal is due, and the
    start of a step while pieces move ("/move a1" and the cell it goes to: ``None`` here,
    the caller says so). Console play-test: "a1 a2" and "d1 to e1" were an unknown
    command with nothing more, "a1-a2" was answered with its command.
    """
    text = ascii_typed(text)  # "a١ b٢", "a1،b2": an Arabic keyboard's digits and comma
    found = _NOTATION.fullmatch(text.lower())
    if found is not None:
        remove, src, dst = found.groups()
        if remove:
            return None if dst else f"/remove {src}"
        if dst:
            return f"/move {src} {dst}"
    chain = split_chain_text(text)
    if chain is not None:
        return None if phase in _PLACING else "/move " + " ".join(chain)
    cells = split_move_text(text.lower())
    if cells is None:
        return None
    src, dst = cells
    if dst is None:
        return None if phase == "m" else f"/remove {src}" if phase == "r" else f"/place {src}"
    if phase in _PLACING and text.lower().replace(",", " ").split() == [src, dst]:
        return f"/place {src} {dst}"  # "a1 b1" while pieces are placed: a pair
    return f"/move {src} {dst}"


#: The phases in which cells are placed (placement, and the five-in-a-row replacement).
_PLACING = ("p", "s")


#: The answers to a yes-or-no question, in every language the table speaks (a native
#: play-test typed «نعم» and was told it was an unknown command, the question dropped).
YES = frozenset({"yes", "y", "نعم", "أجل"})
NO = frozenset({"no", "n", "لا"})


class ConsoleTable(OffersConsole, LookupsConsole):
    """One console session: parses lines, calls the service, prints the results."""

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
            self.say(help_text(self.lang))
            return True
        name, rest = words[0].lstrip("/").lower(), words[1:]
        if self.confirming is not None and name in YES and not rest:
            name = self.confirming[0]  # the confirmation of the question just asked
        elif self.confirming is not None and name in NO and not rest:
            self.confirming = None  # the answer a newcomer types to a yes-or-no question
            self.say(t(self.lang, "console.not_confirmed"))
            return True
        elif self.confirming is not None and BY_NAME.get(name) is not BY_NAME.get(self.confirming[0]):
            self.confirming = None  # another command: the question is dropped
        command = BY_NAME.get(name)
        if command is None and name == "coach-settings":
            # the old command: the hint limit is one of the settings now
            hints = next((w.partition(":")[2] for w in rest if w.lower().startswith("hints:")), "") or "N"
            self.say(t(self.lang, "console.moved.coach_settings", hints=clip_typed(hints)))
            return True
        if command is None and name in YES | NO and not rest:
            # "yes" after the question was answered (with «نعم»): no question, not an unknown command
            self.say(t(self.lang, "console.no_question", word=repr(clip_typed(name))))
            return True
        if command is None:
            # the phase is read only for a line that may be cells ("a1 a2"), not for "/" alone
            phase = await self._table_phase() if name and name[0] in "abcdefghi" else None
            self.say(_unknown_command(name, rest, self.lang, phase))
            return True
        args = Args(*_options(rest))
        unknown = [key for key in args.opts if key not in command.option_names]
        if unknown:
            self.say(_unknown_option(command, unknown[0], self.lang))
            return True
        if command.words is not None and len(args.plain) > command.words:
            self.say(_extra_words(command, args.plain, self.lang))
            return True
        try:
            return await command.run(self, args) is not False
        except BotDeclinesError as exc:
            self.say(exc.text(self.lang))  # the bot's answer to an offer, not a fault
        except ServiceError as exc:
            self.say(texts.text(self.lang, "console.error", text=await self._refusal(exc)))
        except Exception:
            # One line at the table, the traceback in the log: the table goes on.
            error_id = secrets.token_hex(4)
            errors_log.exception("console command %r failed: error %s", clip_typed(text, 200), error_id)
            where = self.error_log or t(self.lang, "console.the_log")
            self.say(texts.text(self.lang, "console.crash", error_id=error_id, log=where))
        return True

    async def _refusal(self, exc: ServiceError) -> str:
        """A refusal in the table's words; at a hot-seat table, one that says "your" names
        the colours and whose turn it is: "e4 is not one of your pieces" did not say whose
        turn it was to two people at one keyboard (console play-test). Against the bot
        "your" is clear and stays."""
        key = f"console.error.{exc.key}_hot_seat"
        if texts.has("en", key):
            game = await self.service.game(CONSOLE_CHANNEL)
            if game is not None and game.to_move is not None and not (game.black.is_bot or game.white.is_bot):
                color, owner = ("black", "white") if game.to_move == game.black else ("white", "black")
                named = {
                    "owner": t(self.lang, f"color.{owner}").capitalize(),
                    "color": t(self.lang, f"color.{color}").capitalize(),
                    "player": wording.player_name(game.to_move, self.lang),
                }
                params = {name: _hot_seat_part(value, named) for name, value in exc.params.items()}
                return t(self.lang, key, **{**params, **named})
        return refusal_text(exc, self.lang)

    async def _table_phase(self) -> str | None:
        """The phase cells typed alone are read in: the game's, else the open lesson's."""
        game = await self.service.game(CONSOLE_CHANNEL)
        if game is not None:
            return game.phase
        number = await self.service.coach.lessons.active(LOCAL_PLAYERS[0].user_id, CONSOLE_CHANNEL)
        return None if number is None else LESSONS[number - 1].position().phase

    # ----------------------------------------------------------------- the commands
    async def quit(self, args: Args) -> bool:
        return False

    async def help(self, args: Args) -> None:
        self.say(help_text(self.lang))

    async def play_bot(self, args: Args) -> None:
        level = catalog.check_level(args.get("level", catalog.DEFAULT_LEVEL))
        size, variant, color = self._size(args), args.opts.get("variant"), args.opts.get("color", catalog.DEFAULT_COLOR)
        result = await self.service.play_bot(
            CONSOLE_GUILD, CONSOLE_CHANNEL, LOCAL_PLAYERS[0], level, size, variant, color
        )
        # said once it has started, not before a refusal
        self.say(t(self.lang, "console.started_bot", level=t(self.lang, f"level.{level}")))
        self._say_differences(result.game.variant, result.game.size)
        self.show(result)
        await self._bot_replies(result)

    async def challenge(self, args: Args) -> None:
        size, variant, color = self._size(args), args.opts.get("variant"), args.opts.get("color", catalog.DEFAULT_COLOR)
        made = await self.service.challenge(
            CONSOLE_GUILD, CONSOLE_CHANNEL, LOCAL_PLAYERS[0], LOCAL_PLAYERS[1], size, variant, color
        )
        first, second = (wording.player_name(p, self.lang) for p in LOCAL_PLAYERS)
        self.say(t(self.lang, "console.hot_seat", first=first, second=second))
        started = await self.service.accept_challenge(made.challenge.id, made.challenge.opponent.user_id)
        self._say_differences(started.game.variant, started.game.size)
        self.show(started)

    def _say_differences(self, variant: str, size: int) -> None:
        """How a game's variant differs from standard, at its start (nothing for standard)."""
        differs = wording.differences_text(variant, self.lang, size, bullet="- ")
        if differs:
            self.say(differs)

    async def place(self, args: Args) -> None:
        cells = args.plain or [v for k, v in args.opts.items() if k in ("first", "second")]
        if await self._lesson(" ".join(cells)):
            return
        actor = await self._actor()
        await self._play(self.service.place(CONSOLE_CHANNEL, actor, " ".join(cells), bot_reply=False))

    async def move(self, args: Args) -> None:
        if args.plain and ("from" in args.opts or "to" in args.opts):
            # "move from:a4 to:b4 extra" played the move and dropped "extra", while
            # "move b4 c4 please" is refused: a word not read is refused in both forms.
            word = repr(clip_typed(args.plain[0]))
            usage = t(self.lang, "console.usage", usage=BY_NAME["move"].usage)
            self.say(f"{t(self.lang, 'console.extra_words.move', command='move', word=word)} {usage}")
            return
        frm = args.opts.get("from", " ".join(args.plain))
        if await self._lesson(f"{frm} {args.opts.get('to', '')}"):
            return
        actor = await self._actor()
        await self._play(self.service.move(CONSOLE_CHANNEL, actor, frm, args.opts.get("to"), bot_reply=False))

    async def remove(self, args: Args) -> None:
        actor = await self._actor()
        await self._play(self.service.remove(CONSOLE_CHANNEL, actor, args.get("cell"), bot_reply=False))

    async def end_turn(self, args: Args) -> None:
        if await self._lesson("end"):  # the lesson's chain stopped here, as /move answers it
            return
        await self._play(self.service.end_turn(CONSOLE_CHANNEL, await self._actor(), bot_reply=False))

    async def takeback(self, args: Args) -> None:
        result = await self.service.takeback(CONSOLE_CHANNEL, await self._actor())
        self.say(t(self.lang, "console.took_back"))  # only once it was allowed
        self.show(result)

    async def rematch(self, args: Args) -> None:
        """The last game again, colours swapped: against the same bot level, or hot seat."""
        if await self.service.game(CONSOLE_CHANNEL) is not None:
            self.say(t(self.lang, "console.error.channel_busy"))
            return
        last = await self.service.history(CONSOLE_GUILD, None, 1)
        if not last:
            self.say(t(self.lang, "console.rematch_none"))
            return
        old = last[0]
        bot = old.black if old.black.is_bot else old.white if old.white.is_bot else None
        if bot is not None and bot.bot_level is not None:
            color = "black" if old.black.is_bot else "white"  # you take the bot's old colour
            result = await self.service.play_bot(
                CONSOLE_GUILD, CONSOLE_CHANNEL, LOCAL_PLAYERS[0], bot.bot_level, old.size, old.variant, color
            )
            level, shown = t(self.lang, f"level.{bot.bot_level}"), t(self.lang, f"color.{color}")
            self.say(t(self.lang, "console.rematch_bot", level=level, color=shown))
            self.show(result)
            await self._bot_replies(result)
            return
        color = "white" if old.black == LOCAL_PLAYERS[0] else "black"
        made = await self.service.challenge(
            CONSOLE_GUILD, CONSOLE_CHANNEL, LOCAL_PLAYERS[0], LOCAL_PLAYERS[1], old.size, old.variant, color
        )
        me = wording.player_name(LOCAL_PLAYERS[0], self.lang)
        self.say(t(self.lang, "console.rematch_hot_seat", name=me, color=t(self.lang, f"color.{color}")))
        self.show(await self.service.accept_challenge(made.challenge.id, made.challenge.opponent.user_id))

    async def board(self, args: Args) -> None:
        self.show(await self.service.board(CONSOLE_CHANNEL))

    async def cancel(self, args: Args) -> None:
        # Asked first, as resigning is: a newcomer who types "cancel" to leave a question
        # would otherwise lose the game in progress (noticed in the play-test).
        if await self._asked("cancel", "console.cancel_confirm") is None:
            return
        self.show(await self.service.cancel(CONSOLE_CHANNEL, self.moderator()))

    def completer(self, line_buffer: Callable[[], str] | None = None) -> Callable[[str, int], str | None]:
        """A readline completer for command names, their options and the cells legal now.

        ``line_buffer`` gives the whole line typed so far (default: readline's).
        """

        def complete(text: str, state: int) -> str | None:
            line = line_buffer() if line_buffer is not None else _readline_buffer(text)
            words = line.split()
            if words and words[0].lstrip("/").lower() == "seega":
                words = words[1:]
            if not words or (len(words) == 1 and not line.endswith(" ")):
                names = sorted({name for c in COMMANDS for name in (c.name, *c.aliases)} | {"seega"})
                slash = "/" if text.startswith("/") else ""
                options = [slash + n for n in names if n.startswith(text.lstrip("/"))]
            else:
                command = BY_NAME.get(words[0].lstrip("/").lower())
                extra = list(command.options) if command is not None else []
                options = [w for w in [*extra, *self.cells] if w.startswith(text)]
            return options[state] if state < len(options) else None

        return complete


def _unknown_command(name: str, rest: Sequence[str], lang: str, phase: str | None = None) -> str:
    """The answer to a word that is no command: the command it stands for when the line is
    cells or an action in the record's notation (read in the table's ``phase``), else the
    command it looks like, in ``lang``.

    What was typed is clipped and passed as a value, never as a template, so braces in it
    print as typed.
    """
    if not name:  # "/" alone said "Unknown command ''", naming nothing to type instead
        return t(lang, "console.unknown_command_empty")
    typed = " ".join([name, *rest])
    notation = as_command(typed, phase)
    if notation:
        return t(lang, "console.unknown_command_notation", name=repr(clip_typed(typed)), command=notation)
    if phase == "m" and not rest and split_move_text(name) == (name, None):
        # a lone cell while pieces move: the start of a step
        return t(lang, "console.unknown_command_cell", name=repr(clip_typed(name)), cell=name)
    shown = repr(clip_typed(name))
    guess = did_you_mean(name, BY_NAME)
    if guess:
        return t(lang, "console.unknown_command_guess", name=shown, command=BY_NAME[guess].name)
    return t(lang, "console.unknown_command", name=shown)


def _unknown_option(command: Command, key: str, lang: str) -> str:
    """The refusal of an option ``command`` does not read, naming those it does."""
    shown = clip_typed(key)
    names = command.option_names
    if not names:
        return t(lang, "console.no_option", command=command.name, option=shown, usage=command.usage)
    guess = did_you_mean(key, names)
    listed = texts.separator(lang).join(f"{n}:" for n in names)
    if guess:
        return t(lang, "console.unknown_option_guess", option=shown, command=command.name, guess=guess, options=listed)
    said = t(lang, "console.unknown_option", option=shown, command=command.name, options=listed)
    # "settings colour:black": the option of another command (newcomer play-test), named
    others = {n for c in COMMANDS if c is not command for n in c.option_names}
    meant = key if key in others else did_you_mean(key, sorted(others))
    mark = texts.LRM if lang in texts.RIGHT_TO_LEFT else ""  # holds "/play-bot" left to right in Arabic
    takers = [f"{mark}/{c.name}" for c in COMMANDS if c is not command and meant in c.option_names]
    if meant and takers:
        said += ". " + t(lang, "console.option_elsewhere", option=meant, commands=texts.join(lang, takers))
    return said


#: A board size as people write it: ``7``, ``7x7``, or as the texts write it, ``7×7``.
_BOARD_SIZE = re.compile(r"(\d)(?:[x×]\1)?")


def _extra_words(command: Command, plain: Sequence[str], lang: str) -> str:
    """The refusal of plain words ``command`` does not read: the first word too many,
    and ``key:value`` when the words are an option written with a space."""
    at = command.words or 0
    extra = plain[at]
    reads = "console.extra_words.one" if command.words else "console.extra_words.none"
    parts = [t(lang, reads, command=command.name, word=repr(clip_typed(extra)))]
    key = extra.lower().rstrip(":").replace("-", "_")
    if key in command.option_names and at + 1 < len(plain):
        parts.append(t(lang, "console.extra_words.as_option", option=key, value=clip_typed(plain[at + 1])))
    size = _BOARD_SIZE.fullmatch(key)
    if size and "size" in command.option_names and int(size[1]) in catalog.SIZES:
        # "play-bot easy 7x7": the rules write sizes so (fresh-eyes play-test, stop 35)
        parts.append(t(lang, "console.extra_words.size", size=size[1]))
    parts.append(t(lang, "console.usage", usage=command.usage))
    return " ".join(parts)


def _readline_buffer(text: str) -> str:
    try:
        import readline
    except ImportError:  # pragma: no cover - readline is optional
        return text
    return readline.get_line_buffer()


_SIZES = tuple(f"size:{n}" for n in catalog.SIZES)
_VARIANTS = tuple(f"variant:{v}" for v in catalog.VARIANTS)
_COLORS = tuple(f"color:{c}" for c in catalog.COLORS)

#: The console's commands: name, usage, help, handler and completion in one row each.
COMMANDS: tuple[Command, ...] = (
    Command(
        "play-bot",
        "/seega play-bot level:" + "|".join(catalog.LEVELS) + " size:5|7|9 variant:standard color:black|white|random",
        "play against the computer",
        ConsoleTable.play_bot,
        options=(*(f"level:{lvl}" for lvl in catalog.LEVELS), *_SIZES, *_VARIANTS, *_COLORS),
        words=1,
    ),
    Command(
        "challenge",
        "/seega challenge size:5 variant:standard color:random",
        "a hot-seat game: Player 1 and Player 2 take turns at this keyboard",
        ConsoleTable.challenge,
        options=(*_SIZES, *_VARIANTS, *_COLORS),
    ),
    Command(
        "place",
        "/place a1 b2",
        "place your pieces (one cell places one piece)",
        ConsoleTable.place,
        takes=("first", "second"),
        words=None,
    ),
    Command(
        "move",
        "/move b2 c2 [c3 ...]",
        "step a piece (also /move b2-c2); a chain of captures in one line: /move d3 c3 b3",
        ConsoleTable.move,
        takes=("from", "to"),
        words=None,
    ),
    Command(
        "remove",
        "/remove c3",
        "the removal a blocked-player rule asks for",
        ConsoleTable.remove,
        takes=("cell",),
        words=1,
    ),
    Command(
        "end-turn",
        "/seega end-turn",
        "stop a chain of captures, or pass (a pass that is your only move is played for you)",
        ConsoleTable.end_turn,
        aliases=("end", "pass"),
    ),
    Command("board", "/seega board", "show the board again (after a game: its final board)", ConsoleTable.board),
    Command("rematch", "/seega rematch", "the last game again, colours swapped", ConsoleTable.rematch),
    Command("takeback", "/seega takeback", "take back your last turn (against the bot)", ConsoleTable.takeback),
    Command(
        "moves",
        "/seega moves game:N",
        "the game's moves, one line per turn",
        ConsoleTable.moves,
        takes=("game",),
        words=1,
    ),
    Command("resign", "/seega resign", "resign the game (asks to confirm)", ConsoleTable.resign),
    Command("draw", "/seega draw", "offer a draw (says what it means, then asks to confirm)", ConsoleTable.draw),
    Command("accept-draw", "/seega accept-draw", "accept the draw offered", ConsoleTable.accept_draw),
    Command("decline-draw", "/seega decline-draw", "decline the draw offered", ConsoleTable.decline_draw),
    Command("offer-end", "/seega offer-end", "end by count (more pieces wins)", ConsoleTable.offer_end),
    Command("accept-end", "/seega accept-end", "accept an offer to end by count", ConsoleTable.accept_end),
    Command("decline-end", "/seega decline-end", "decline an offer to end by count", ConsoleTable.decline_end),
    Command("games", "/seega games", "the games in progress", ConsoleTable.games),
    Command(
        "language",
        "/seega language en|ar|auto",
        "the language of the sentences about games",
        ConsoleTable.language,
        options=("language:en", "language:ar", "language:auto"),
        words=1,
    ),
    Command(
        "rules",
        "/seega rules variant:standard",
        "the rules of a variant",
        ConsoleTable.rules,
        options=tuple(f"variant:{v}" for v in catalog.RULES_VARIANTS),
        words=1,
    ),
    Command("history", "/seega history", "recent games at this table", ConsoleTable.history),
    Command(
        "record",
        "/seega record game:N",
        "the record (SGN) of a game, written to a file",
        ConsoleTable.record,
        takes=("game",),
        words=1,
    ),
    Command(
        "leaderboard", "/seega leaderboard size:5", "ratings on a board size", ConsoleTable.leaderboard, options=_SIZES
    ),
    Command("stats", "/seega stats", "your record", ConsoleTable.stats),
    Command(
        "settings",
        "/seega settings turn_timeout:10m",
        "show or change the table's settings",
        ConsoleTable.settings,
        options=(
            "turn_timeout:",
            "challenge_timeout:",
            *(f"default_variant:{v}" for v in catalog.VARIANTS),
            "hints:",
        ),
    ),
    Command("hint", "/seega hint", "the bot's suggestion for your turn (games against the bot)", ConsoleTable.hint),
    Command(
        "review",
        "/seega review game:N",
        "the engine's review of a finished game",
        ConsoleTable.review,
        takes=("game",),
        words=1,
    ),
    Command(
        "puzzle",
        "/seega puzzle [new|top]",
        "the puzzle of the day, a new one, the best solvers",
        ConsoleTable.puzzle,
        options=("new", "top", "new:true", "top:true"),
        takes=("answer",),  # the old form, answered with a pointer to solve
        words=None,
    ),
    Command(
        "solve",
        "/seega solve b2 c2",
        "your answer to the puzzle or the lesson shown last (else today's puzzle)",
        ConsoleTable.solve,
        takes=("answer",),
        words=None,
    ),
    Command(
        "learn",
        "/seega learn [N]",
        "eight lessons, each with an exercise",
        ConsoleTable.learn,
        takes=("lesson", "answer"),  # answer: the old form, answered with a pointer to solve
        words=None,
    ),
    Command("cancel", "/seega cancel", "abandon the game at this table, unrated", ConsoleTable.cancel),
    Command("help", "help", "this text", ConsoleTable.help, aliases=("h", "?"), words=None),
    Command(
        "quit",
        "quit",
        "leave (the game is saved and its clock stopped; it resumes next time)",
        ConsoleTable.quit,
        aliases=("exit", "q"),
        words=None,
    ),
)
BY_NAME: dict[str, Command] = {name: c for c in COMMANDS for name in (c.name, *c.aliases)}


def help_text(lang: str = "en") -> str:
    """The help in ``lang``, made from the command table: each row's ``help`` is its
    English wording, and ``console.help.<name>`` in the catalogues words it in every
    language (a test keeps the English ones equal)."""
    width = max(len(c.usage) for c in COMMANDS if len(c.usage) <= 40)
    lines = [t(lang, "console.help.title")]
    for c in COMMANDS:
        said = t(lang, f"console.help.{c.name}")
        if len(c.usage) > width:
            lines.append(f"  {c.usage}")
            lines.append(f"  {'':{width}}  {said}")
        else:
            lines.append(f"  {c.usage:{width}}  {said}")
    lines.append(t(lang, "console.help.variants", variants=texts.separator(lang).join(catalog.VARIANTS)))
    if catalog.RULES_ONLY:
        # modern-3x3 was missing from the help though "rules modern-3x3" shows it (play-test)
        sizes = {v: "/".join(f"{n}×{n}" for n in catalog.rules_sizes(v)) for v in catalog.RULES_ONLY}
        shown = texts.separator(lang).join(f"{v} ({sizes[v]})" for v in catalog.RULES_ONLY)
        lines.append(t(lang, "console.help.rules_only", variants=shown))
    return "\n".join(lines)


#: The help in English (the table prints it in its own language: :func:`help_text`).
HELP = help_text()
