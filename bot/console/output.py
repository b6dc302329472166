"""What the console table prints: turns, boards, game ends and timers, as plain text.

The sentences about games are those of the Discord messages (:mod:`bot.wording`, worded
in ``bot/locale/en.json``); the board is drawn as text, and each board image (when the
renderer is available) is written to a file whose path is printed.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TextIO

from bot import wording
from bot.i18n import t
from bot.results import (
    LOCAL_NAMES,
    GameOver,
    GameView,
    Player,
    TimerEvent,
    TurnEvent,
    TurnResult,
    player_name,
    score_words,
    variant_words,
)
from bot.service import GameService, Renderer, catalog
from bot.texts import LANGUAGES, one_line, separator
from bot.timeparse import format_duration
from engine import GameRecord, Outcome, Position, Ruleset
from engine.summary import TurnSummary

#: The console is one table: one guild and one channel in the database.
CONSOLE_GUILD = 0
CONSOLE_CHANNEL = 1
#: The local players (user ids 1 and 2; the bot is 0).
#: Their stored names are English; every line names them in the table's language
#: (:func:`bot.results.player_name`).
LOCAL_PLAYERS = tuple(Player(user_id, name) for user_id, name in LOCAL_NAMES.items())
#: Bot replies in a row at most for one command (each reply is up to 8 bot turns).
MAX_BOT_REPLIES = 100
#: The console's language until ``/seega language`` chooses another: the sentences about
#: games (turns, endings, rules, refusals) come from ``bot/locale/<lang>.json``.
LANG = "en"


def rules_text(variant: str, lang: str = LANG) -> str:
    """The rules of a preset as the console prints them (the same lines as on Discord)."""
    lines = [t(lang, "console.rules_variant", variant=variant_words(variant))]
    differs = wording.differences_text(variant, lang, bullet="- ")
    if differs:  # at the top: what a player who knows standard needs (newcomer play-test)
        lines += [differs, t(lang, "console.rules_all")]
    lines += [f"- {line}" for line in wording.rules_lines(variant, lang)]
    return "\n".join(lines)


def _color_of(player: Player, game: GameView) -> str:
    return "black" if player == game.black else "white"


def _how(game: GameView, legal: Sequence[str], color: str, lang: str) -> tuple[str, str] | None:
    """(stage, words) of "how to play now" for a person new to the table, with an example
    taken from ``legal``, or ``None``; the table says it once per stage of a game:
    placing, placing singles, moving."""
    if game.phase == "p":
        rules = Ruleset.make(game.variant, game.size, [o for o in game.options.split(",") if o])
        if rules.placement == "singles":
            return "p", t(lang, "explain.how.place_one", example=wording.example(legal, "one"))
        held = game.hand[0 if color == "black" else 1]
        if rules.placement == "pairs-then-singles" and held < rules.pieces:
            # The first pair is placed: "place two pieces" was said, and now it is one.
            return "p1", t(lang, "explain.how.place_one_now", example=wording.example(legal, "one"))
        return "p", t(lang, "explain.how.place", example=wording.example(legal, "pair"))
    if game.phase == "m" and (step := wording.example(legal, "step")):
        return "m", t(lang, "explain.how.move", example=step)
    return None


def _only_cells(game: GameView, legal: Sequence[str], color: str) -> list[str]:
    """The cells left when they are exactly the pieces the side to place still holds
    (the last placement turn, at most the two a turn places: no choice is left), else
    ``[]``. A newcomer read "to play" on a board with two empty cells and wondered what
    to decide."""
    held = game.hand[0 if color == "black" else 1]
    return sorted(legal) if game.phase == "p" and 0 < len(legal) <= 2 and held == len(legal) else []


class ConsoleOutput:
    """One console session's output and state: the service, the stream, the cells legal now.

    Args:
        service: the game service (its storage is the bot's database).
        out: where to print.
        image_dir: where board images go (when the service has a renderer).
    """

    def __init__(self, service: GameService, out: TextIO, image_dir: Path | None = None) -> None:
        self.service = service
        self.out = out
        self.image_dir = image_dir
        #: Where the tracebacks of unexpected errors are written (named in the Error: line;
        #: ``None``: the usual log, named in the table's language).
        self.error_log: str | None = None
        self.cells: list[str] = []
        #: The language of the sentences about games (the person's ``/seega language``).
        self.lang = LANG
        self._shown: dict[tuple[int, int], int] = {}
        #: (game, "stage:colour") whose "how to play now" was said (once each is enough).
        self._told: set[tuple[int, str]] = set()

    def say(self, text: str = "") -> None:
        """Print a line (flushed: the console is often read through a pipe).

        Every line is made printable first (each control character a space, line breaks
        kept): typed text is echoed in errors, and an escape sequence printed back would
        be obeyed by the terminal (retitle it, clear it, write the clipboard: outside
        review, stop 39).
        """
        print("\n".join(one_line(part) for part in text.split("\n")), file=self.out, flush=True)

    # ----------------------------------------------------------------- output
    @staticmethod
    def _you(game: GameView) -> Player | None:
        """The person at the keyboard when only one side is local (a game against the bot)."""
        if game.black.is_bot != game.white.is_bot:
            return game.white if game.black.is_bot else game.black
        return None

    def calls(self, game: GameView) -> Callable[[Player], str]:
        """How the lines about ``game`` call a player: ``White (you)``, ``Black (Bob)``."""
        return lambda player: self._who(player, _color_of(player, game), game)

    def _who(self, player: Player, color: str, game: GameView | None) -> str:
        """``White (you)`` for the person at the keyboard against the bot, else ``White (Bob)``."""
        shown = t(self.lang, f"color.{color}").capitalize()
        if game is not None and player == self._you(game):
            return f"{shown} ({t(self.lang, 'explain.you')})"
        return f"{shown} ({wording.player_name(player, self.lang)})"

    def _event_line(self, e: TurnEvent, game: GameView | None = None) -> str:
        who = self._who(e.player, e.color, game)
        line = wording.event_line(f"{wording.turn_number(e, self.lang)} · {who}", e, self.lang)
        return line if wording.event_text(e, self.lang) else f"{line}: {' '.join(e.actions)}"

    def _game_over_line(self, over: GameOver, game: GameView) -> str:
        you = self._you(game)
        said = wording.game_over_text(over, self.lang, game, you)
        if over.result == "*":
            # A cancel (the only unfinished ending) is typed by the person at the keyboard:
            # Discord's "by a moderator" read as if someone else had (newcomer play-test).
            # At a hot-seat table both players sit at the keyboard: "You" named neither.
            whose = "console.you_cancelled" if you is not None else "console.cancelled"
            text = t(self.lang, "console.game_over_cancelled", text=t(self.lang, whose))
        else:
            text = t(self.lang, "console.game_over", result=score_words(over.result), text=said)
        for c in over.rating_changes:
            change = {"before": f"{c.before:.0f}", "after": f"{c.after:.0f}", "delta": f"{c.delta:+.0f}"}
            name = wording.player_name(Player(c.user_id, c.name), self.lang)
            text += "\n  " + t(self.lang, "console.rating_change", name=name, **change)
        return text

    def _save_image(self, data: bytes | None, game_id: int, turn: int, suffix: str = "png") -> None:
        """Write a board image named by game and turn (``seega-game3-turn014.png``)."""
        if data is None or self.image_dir is None:
            return
        self.image_dir.mkdir(parents=True, exist_ok=True)
        key = (game_id, turn)
        self._shown[key] = self._shown.get(key, 0) + 1
        again = f"-{self._shown[key]}" if self._shown[key] > 1 else ""  # a chain: one image per step
        path = self.image_dir / f"seega-game{game_id}-turn{turn:03d}{again}.{suffix}"
        path.write_bytes(data)
        self.say(t(self.lang, "console.board_image", path=path))

    def show(self, result: TurnResult) -> None:
        """Print what happened, the board, and whose turn it is."""
        for e in result.events:
            self.say(self._event_line(e, result.game))
        g = result.game
        self.say()
        self.say(g.text_board)
        if g.shuttle_held:
            # the picture's no-entry marks, in words: the text board has no mark for them
            self.say(t(self.lang, "picture.shuttle_held", steps=separator(self.lang).join(g.shuttle_held)))
        self._save_image(result.png, g.id, g.turn)
        black, white = g.pieces
        if g.phase == "p":
            hand_black, hand_white = g.hand
            self.say(
                t(
                    self.lang,
                    "console.pieces_hand",
                    black=black,
                    white=white,
                    hand_black=hand_black,
                    hand_white=hand_white,
                )
            )
        else:
            self.say(t(self.lang, "console.pieces", black=black, white=white))
        advice = wording.walled_advice(result, self.lang)  # walled in for several bot turns
        if advice:
            self.say(advice)
        if result.game_over is not None:
            if result.late and result.game_over.loser is not None:  # typed after the time ran out
                self.say(
                    t(self.lang, "timer.move_too_late", name=wording.player_name(result.game_over.loser, self.lang))
                )
            self.say(self._game_over_line(result.game_over, g))
            self.say(t(self.lang, "console.rematch"))
            self.cells = []
            return
        if result.to_move is not None:
            color = "black" if result.to_move == g.black else "white"
            news = wording.movement_begins(result, self.lang, self.calls(g))
            if news:
                self.say(news)
                self._told.update((g.id, f"{g.phase}:{c}") for c in ("black", "white"))  # the news said what to type
            line = t(self.lang, "console.to_play", turn=g.turn, who=self._who(result.to_move, color, g))
            if result.chain_pending:
                line += f" - {wording.chain_prompt(result.legal, self.lang, 'console.chain_pending')}"
            elif result.legal and all(a in ("pass",) for a in result.legal):
                line += f" - {t(self.lang, 'console.must_pass')}"
            elif not result.to_move.is_bot and (task := wording.task_text(g, self.lang)):
                line += f" - {task}"
            elif not result.to_move.is_bot and (last := _only_cells(g, result.legal, color)):
                line += f" - {t(self.lang, 'explain.how.place_last', cells=' '.join(last))}"
            elif not result.to_move.is_bot and wording.mid_pair(g):
                line += f" - {t(self.lang, 'explain.how.place_second', example=wording.example(result.legal, 'one'))}"
            elif (
                not result.to_move.is_bot
                and (how := _how(g, result.legal, color, self.lang))
                and (g.id, f"{how[0]}:{color}") not in self._told
            ):
                # Once per stage, game and colour: in hot seat the second player is a
                # newcomer too, and never read the first player's "place two pieces".
                self._told.add((g.id, f"{how[0]}:{color}"))
                line += f" - {how[1]}"
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
            left = format_duration(event.remaining or 0, self.lang)
            to_move = event.game.to_move
            who = t(self.lang, "console.nobody") if to_move is None else wording.player_name(to_move, self.lang)
            self.say("\n" + t(self.lang, "console.reminder", who=who, left=left))
        elif event.kind in ("timeout", "bot_turn") and event.turn is not None:
            self.say("\n" + t(self.lang, f"console.event.{event.kind}"))
            self.show(event.turn)

    # ----------------------------------------------------------------- helpers of the commands
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

    async def _play(self, command: Awaitable[TurnResult]) -> None:
        """Show a player's command, then the bot's reply once it has thought (as it happens).

        An offer the turn let lapse is said first: Discord takes its buttons away, and a
        table has none, so the offer was gone without a word (console play-test).
        """
        before = await self.service.game(CONSOLE_CHANNEL)
        result = await command
        if before is not None and result.game_over is None and result.game.id == before.id:
            for offered, now, key in (
                (before.draw_offer_by, result.game.draw_offer_by, "draw.lapsed"),
                (before.end_offer_by, result.game.end_offer_by, "offer.lapsed"),
            ):
                if offered is not None and now is None:
                    offerer = before.black if offered == "black" else before.white
                    player = before.white if offered == "black" else before.black
                    names = {"offerer": offerer, "player": player}
                    self.say(t(self.lang, key, **{k: wording.player_name(p, self.lang) for k, p in names.items()}))
        self.show(result)
        await self._bot_replies(result)

    async def _bot_replies(self, result: TurnResult) -> None:
        """The bot's turns while it is to move (it plays on while the person can only pass)."""
        for _ in range(MAX_BOT_REPLIES):
            if result.game_over is not None or result.to_move is None or not result.to_move.is_bot:
                break
            self.say(t(self.lang, "turn.bot_thinking", bot=wording.player_name(result.to_move, self.lang)))
            result = await self.service.bot_turn(CONSOLE_CHANNEL)
            if not result.events and result.game_over is None:
                break  # nothing played (another process played it, or it is not the bot's turn)
            self.show(result)


#: The table's own players (the two local ones and the bot at each level) by the name
#: they have in any language: the service names them in the language of whom it answers.
_TABLE_PLAYERS = {
    player_name(player, lang): player
    for player in (*LOCAL_PLAYERS, *(Player.bot(level) for level in catalog.LEVELS))
    for lang in LANGUAGES
}


def in_table_language(players: tuple[str, str], lang: str) -> tuple[str, str]:
    """The names of the table's own players said in ``lang``, the table's. The service
    names a picture's players in the language of the person it answers, and at a hot-seat
    table the second player has none of their own: an Arabic table's pictures said
    "Player 2" (native play-test, stop 36)."""
    named = (_TABLE_PLAYERS.get(name) for name in players)
    black, white = (player_name(p, lang) if p is not None else name for p, name in zip(named, players, strict=True))
    return black, white


def you_in_pictures(players: tuple[str, str]) -> tuple[str, str]:
    """The picture's names as the console's text says them: "You" for the person at the
    keyboard in a game against the bot (a hot-seat game keeps both names)."""
    from bot.render.words import YOU  # here, not at the top: the renderer (Pillow) is optional

    black, white = (_TABLE_PLAYERS.get(name) for name in players)
    if black == LOCAL_PLAYERS[0] and white is not None and white.is_bot:
        return (YOU, players[1])
    if white == LOCAL_PLAYERS[0] and black is not None and black.is_bot:
        return (players[0], YOU)
    return players


def reader_side(shown: tuple[str, str]) -> int | None:
    """The colour of the person at the keyboard in names :func:`you_in_pictures` gave
    (``None`` in hot seat), for sentences said to them ("lets you capture")."""
    from bot.render.words import YOU

    return shown.index(YOU) if YOU in shown else None


def said_names(names: tuple[str, str], lang: str) -> tuple[str, str]:
    """The names :func:`you_in_pictures` gave, as the table's text says them: the person
    at the keyboard is "You" in ``lang``, as the pictures call them."""
    from bot.render.words import shown_name

    return (shown_name(names[0], lang), shown_name(names[1], lang))


class ConsolePictures:
    """The renderer at the console table: the board pictures and the replay say "You" as
    the text does (the SGN record keeps the names stored in the game), in the table's
    language.

    The console is one table with one reader: its pictures speak the language its text
    does (:attr:`ConsoleOutput.lang`, the ``/seega language`` choice), whichever local
    player acted (in hot seat Player 2 has no stored choice of their own).
    """

    def __init__(self, inner: Renderer, table_lang: Callable[[], str] | None = None) -> None:
        self.inner = inner
        #: The table's language now (``None``: the language the service asked for).
        self.table_lang = table_lang

    def render_board(
        self,
        position: Position,
        last_turn: TurnSummary | None = None,
        *,
        players: tuple[str, str] = ("Black", "White"),
        outcome: Outcome | None = None,
        time_left: float | None = None,
        lang: str = LANG,
    ) -> bytes:
        """The board picture with the console's names, in the table's language."""
        lang = self.table_lang() if self.table_lang is not None else lang
        shown = you_in_pictures(in_table_language(players, lang))
        return self.inner.render_board(
            position, last_turn, players=shown, outcome=outcome, time_left=time_left, lang=lang
        )

    def render_replay(
        self, record: GameRecord, players: tuple[str, str] = ("Black", "White"), *, lang: str = LANG
    ) -> bytes:
        """The replay as the board pictures are drawn: "You" and the table's language."""
        lang = self.table_lang() if self.table_lang is not None else lang
        return self.inner.render_replay(record, players=you_in_pictures(in_table_language(players, lang)), lang=lang)
