"""The console's coach commands: hint, review, puzzle, solve, learn.

A mixin of :class:`bot.console.commands.ConsoleTable` (its rows are in the one command
table there); the sentences are the Discord ones (:mod:`bot.coach_messages`) in the
table's language, and the pictures are written to files like the boards.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from bot.coach_messages import (
    hint_text,
    lesson_answer_text,
    lesson_text,
    puzzle_leaders_text,
    puzzle_text,
    review_text,
    solve_text,
    wording,
)
from bot.console.output import (
    CONSOLE_CHANNEL,
    CONSOLE_GUILD,
    LOCAL_PLAYERS,
    ConsoleOutput,
    reader_side,
    said_names,
    you_in_pictures,
)
from bot.i18n import t
from bot.results import BadInputError, NoGameError, clip_typed, player_name
from bot.service.coach_results import PuzzleAnswer
from bot.suggest import did_you_mean
from engine.coach.lessons import LESSONS

#: A typed whole number (a sign allowed, so ``-1`` is read as a number, out of range).
NUMBER = re.compile(r"[+-]?\d+")
#: Longer numbers are no game, lesson or limit here (and would overflow the database).
MAX_DIGITS = 12


def _game_number(value: str) -> int | None:
    """The game of ``game:`` (``2`` or ``#2``, as history prints it), ``None`` for the last one."""
    digits = value.strip().removeprefix("#")
    if not value.strip():
        return None
    if not digits.isdecimal():
        raise BadInputError("bad_number", value=clip_typed(value))
    if len(digits) > MAX_DIGITS:
        raise NoGameError("no_such_game", game_id=clip_typed(digits))
    return int(digits)


def _lesson_number(text: str) -> int:
    """A typed lesson number; anything else or out of range is told the lessons' range."""
    if not NUMBER.fullmatch(text) or len(text) > MAX_DIGITS or not 1 <= int(text) <= len(LESSONS):
        raise BadInputError("coach_bad_lesson", count=len(LESSONS))
    return int(text)


#: What ``puzzle`` shows besides today's puzzle (``new:True``, ``top:True`` on Discord; a
#: plain word or ``new:true`` here): a new one, the best solvers.
PUZZLE_SHOWS = ("new", "top")
#: How a typed ``new:``/``top:`` value reads as yes or no.
_TRUE, _FALSE = frozenset({"true", "yes", "1", "on", ""}), frozenset({"false", "no", "0", "off"})
#: Words a newcomer types for one of :data:`PUZZLE_SHOWS` that do not look like it:
#: offered as the guess, not read as it (``show:best`` meant the best solvers).
_SHOW_MEANT = {"best": "top", "leaders": "top", "solvers": "top", "another": "new", "next": "new"}


def _bad_show(typed: str, lang: str) -> str:
    """The refusal of a word ``puzzle`` does not know, with the closest one."""
    shown, shows = clip_typed(typed), list(PUZZLE_SHOWS)
    guess = _SHOW_MEANT.get(typed.strip().lower()) or did_you_mean(typed, PUZZLE_SHOWS)
    if guess:
        return t(lang, "console.puzzle_bad_show_guess", show=shown, guess=guess, shows=shows)
    return t(lang, "console.puzzle_bad_show", show=shown, shows=shows)


class CoachArgs(Protocol):
    """The parsed line (``bot.console.commands.Args``): plain words and ``key:value`` options."""

    # Read-only members: ``Args`` is a frozen dataclass, and a protocol's plain
    # attributes would ask for settable ones.
    @property
    def plain(self) -> list[str]: ...

    @property
    def opts(self) -> dict[str, str]: ...

    def get(self, key: str, default: str = "") -> str:
        """The option ``key``, else the first plain word, else ``default``."""
        ...


def _looks_like_cells(word: str) -> bool:
    """Whether a word is a cell or a step (``b2``, ``b2-c2``): an answer typed after ``puzzle``."""
    return re.fullmatch(r"x?[a-i][1-9](-[a-i][1-9])?", word.strip().lower()) is not None


def _plain(text: str) -> str:
    """Discord markdown off, for a terminal."""
    return text.replace("**", "").replace("`/seega ", "`").replace("`", "")


class CoachConsole(ConsoleOutput):
    """The coach's console commands (``args`` is the table's parsed line)."""

    def _save_coach_image(self, data: bytes | None, name: str) -> None:
        if data is None or self.image_dir is None:
            return
        self.image_dir.mkdir(parents=True, exist_ok=True)
        path: Path = self.image_dir / f"seega-{name}.png"
        path.write_bytes(data)
        self.say(t(self.lang, "console.image", path=path))

    async def hint(self, args: CoachArgs) -> None:
        actor = await self._actor()
        result = await self.service.coach.hints.hint(
            CONSOLE_GUILD, CONSOLE_CHANNEL, actor, wording(self.lang), names_shown=you_in_pictures, lang=self.lang
        )
        self.say(_plain(hint_text(result, self.lang)))
        self._save_coach_image(result.image, f"game{result.game_id}-hint{result.used}")

    async def review(self, args: CoachArgs) -> None:
        game = _game_number(args.get("game"))

        async def progress(done: int, total: int) -> None:
            if done == total or done % 10 == 0:
                self.say(t(self.lang, "coach.review.progress", done=done, total=total))

        # "You" for the person at the keyboard, in the text and the pictures, as the
        # game said it (newcomer play-tests: the review and the hint said "Player 1").
        result = await self.service.coach.reviews.review(
            CONSOLE_GUILD,
            CONSOLE_CHANNEL,
            game,
            progress=progress,
            wording=wording(self.lang),
            names_shown=you_in_pictures,
            lang=self.lang,
        )
        # The text says "You" in the table's language, as the pictures do (it said "You"
        # at an Arabic table); reader_side still reads the marker you_in_pictures set.
        names = said_names(result.names, self.lang)
        # each key moment names its player too ("الدور 9، You: ..." at an Arabic table)
        as_said = dict(zip(result.names, names, strict=True))
        moments = tuple(replace(m, player=as_said.get(m.player, m.player)) for m in result.moments)
        said = replace(result, names=names, moments=moments)
        self.say(_plain(review_text(said, self.lang, reader_side(result.names))))
        self._save_coach_image(result.chart, f"game{result.game_id}-review")
        for m in result.moments:
            self._save_coach_image(m.image, f"game{result.game_id}-turn{m.number}")

    async def puzzle(self, args: CoachArgs) -> None:
        opts = args.opts
        me = LOCAL_PLAYERS[0]
        puzzles = self.service.coach.puzzles
        if "answer" in opts or any(_looks_like_cells(w) for w in args.plain):
            # the old form, "puzzle answer:b2 c2" (or "puzzle b2 c2"): answers go through solve
            skip = {"answer", *PUZZLE_SHOWS}
            answer = " ".join(w for w in (opts.get("answer", ""), *args.plain) if w.lower() not in skip and w)
            self.say(t(self.lang, "console.moved.answer", answer=clip_typed(answer) or "b2 c2"))
            return
        asked = set()
        for key in PUZZLE_SHOWS:
            value = opts.get(key)
            if value is not None and value.strip().lower() not in _TRUE | _FALSE:
                self.say(t(self.lang, "error.bad_value", value=clip_typed(value)))  # new:maybe
                return
            if value is not None and value.strip().lower() in _TRUE:
                asked.add(key)
        for word in args.plain:
            if word.lower() not in PUZZLE_SHOWS:
                self.say(_bad_show(word, self.lang))  # "puzzle best" showed today's puzzle
                return
            asked.add(word.lower())
        if asked == {"new", "top"}:
            raise BadInputError("puzzle_new_and_top")
        if "top" in asked:
            self.say(_plain(puzzle_leaders_text(await puzzles.leaderboard(CONSOLE_GUILD), self.lang)))
            return
        view = await puzzles.show(CONSOLE_GUILD, me.user_id, me.name, new="new" in asked, lang=self.lang)
        self.say(_plain(puzzle_text(view, self.lang)))
        self.say(view.text_board)
        self._save_coach_image(view.image, f"puzzle-{view.puzzle_id}")

    async def solve(self, args: CoachArgs) -> None:
        """The answer to the puzzle or the lesson shown last (else today's puzzle), as ``/seega solve``."""
        me = LOCAL_PLAYERS[0]
        answer = " ".join(w for w in (args.opts.get("answer", ""), *args.plain) if w)
        got = await self.service.coach.solve(
            CONSOLE_GUILD, me.user_id, me.name, answer, CONSOLE_CHANNEL, lang=self.lang
        )
        self.say(_plain(solve_text(got, self.lang)))
        if isinstance(got, PuzzleAnswer):
            self._save_coach_image(got.image, f"puzzle-{got.puzzle_id}-solution")

    async def _lesson(self, text: str) -> bool:
        """Answer Player 1's open lesson exercise when no game is in progress here."""
        if await self.service.game(CONSOLE_CHANNEL) is not None:
            return False
        got = await self.service.lesson_try(CONSOLE_CHANNEL, LOCAL_PLAYERS[0].user_id, text.strip())
        if got is None:
            return False
        self.say(_plain(lesson_answer_text(got, self.lang)))
        return True

    async def learn(self, args: CoachArgs) -> None:
        opts = args.opts
        plain = list(args.plain)
        me = LOCAL_PLAYERS[0].user_id
        number_text = opts.get("lesson") or (plain.pop(0) if plain and NUMBER.fullmatch(plain[0]) else "")
        answer = " ".join(w for w in (opts.get("answer", ""), *plain) if w.lower() != "answer" and w)
        if "answer" in opts or answer:
            # the old form, "learn answer:c2 c4" (or "learn 1 c2 c4"): answers go through solve
            self.say(t(self.lang, "console.moved.answer", answer=clip_typed(answer) or "b2 c2"))
            return
        number = _lesson_number(number_text) if number_text else None
        view = await self.service.show_lesson(
            me, number, CONSOLE_CHANNEL, guild_id=CONSOLE_GUILD, lang=self.lang, table=True
        )
        # The chain lesson's "End turn (the button, or /seega end-turn)": no button here
        own = t(self.lang, "console.learn.chain_text") if view.lesson_id == "chain" else None
        self.say(_plain(lesson_text(view, self.lang, own)))
        self.say(view.text_board)
        self._save_coach_image(view.image, f"lesson-{view.number}")

    async def coach_stats(self) -> None:
        """The puzzle rating, the games with hints and the rating chart, after the table's stats."""
        me = LOCAL_PLAYERS[0]
        solver = await self.service.coach.puzzles.standing(CONSOLE_GUILD, me.user_id)
        if solver is not None:  # the puzzle rating was said nowhere in stats
            counts = {"solved": solver.solved, "failed": solver.failed, "streak": solver.best_streak}
            self.say("  " + t(self.lang, "console.stats_puzzle", rating=f"{solver.rating:.0f}", **counts))
        used = await self.service.storage.games_with_hints(CONSOLE_GUILD, me.user_id)
        if used:
            self.say("  " + t(self.lang, "console.hint_games", count=used))
        name = player_name(me, self.lang)  # "اللاعب 1" at an Arabic table, as its stats say
        chart = await self.service.coach.rating_chart(
            CONSOLE_GUILD, me.user_id, name, wording(self.lang), lang=self.lang
        )
        self._save_coach_image(chart, "rating-history")
