"""The offline console table, driven by a subprocess with piped input."""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.service.helpers import Db, execute, query


@contextlib.asynccontextmanager
async def hot_seat_table(db_path: Db, spn: str, variant: str, size: int = 5) -> AsyncIterator[tuple[Any, io.StringIO]]:
    """A console table in this process with a hot-seat game from ``spn``: (table, its output)."""
    from bot.console import CONSOLE_CHANNEL, CONSOLE_GUILD, LOCAL_PLAYERS, ConsoleTable
    from tests.service.helpers import close_service, insert_from, make_service

    service = await make_service(db_path)
    out = io.StringIO()
    try:
        black, white = LOCAL_PLAYERS
        await insert_from(service, CONSOLE_CHANNEL, spn, black, white, variant, size, guild_id=CONSOLE_GUILD)
        yield ConsoleTable(service, out, None), out
    finally:
        await close_service(service)


ROOT = Path(__file__).resolve().parents[2]


def run_console(db: Db, lines: list[str], cwd: Path) -> str:
    env = dict(os.environ, SEEGA_AI_WORKERS="1", PYTHONPATH=str(ROOT), DISCORD_TOKEN="")
    proc = subprocess.run(
        [sys.executable, "-m", "bot.console", str(db)],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.stdout


def test_hot_seat_game(db_path: Db, tmp_path: Path) -> None:
    db = db_path
    out = run_console(
        db,
        [
            "help",
            "/seega challenge size:5 color:black",
            "/place a1 b1",
            "/place c3",  # the centre: refused, with the allowed cells
            "/place a2",  # White places one piece ...
            "b2",  # ... an unknown command
            "/place b2",  # ... and the second
            "/move a1 a3",
            "/seega offer-end",  # refused during placement
            "/seega resign",  # asks to confirm
            "/seega board",  # another command: not resigned
            "/seega resign",
            "yes",
            "/seega history",
            "/seega record",
            "/seega rules variant:seejeh",
        ],
        tmp_path,
    )
    assert "Commands (the same as on Discord" in out
    # what to type is said once per phase, on the first turn (a newcomer does not know /place)
    assert "Turn 1: Black (Player 1) to play - place two pieces with /place, like /place a1 e5." in out
    # ... and once to the second player too, a newcomer as well (hot seat); each example
    # names cells empty now (stop 35: "like /place a1" just after a1 was taken was refused)
    assert "Turn 2: White (Player 2) to play - place two pieces with /place, like /place a2 e5." in out
    assert out.count("place two pieces with /place") == 2
    # half a pair placed: the turn is not over, and the line says so (play-test finding)
    assert "Turn 2: White (Player 2) to play - place your second piece with /place, like /place a3." in out
    assert out.count("place your second piece") == 1  # only while a pair is half placed
    assert "Black (Player 1): placed on a1, b1" in out
    assert "Error: c3 is the centre, which stays empty during placement; you can place on" in out
    assert "Unknown command 'b2'" in out
    assert "White (Player 2): placed on a2, b2" in out  # the pair, whole, once both are placed
    assert "Error: You cannot move a piece now; place with /place" in out
    assert "Error: Ending by count is for the movement phase" in out
    # both players sit at this keyboard: the question names who resigns (stop 36: "You
    # lose the game" named neither)
    asked = "Resign game #1 for Player 1 (black)? Player 1 loses the game. Type /seega resign again (or yes)"
    assert out.count(asked) == 2, out
    assert out.count("Game over (0-1 to White)") == 1
    assert "#1  Player 1 (black) vs Player 2 (white)  standard 5×5" in out
    assert "Player 2 wins: Player 1 resigned. (0-1 to White)" in out, "the result in words"
    assert '[Result "0-1"]' in out and "1. a1,b1 2. a2,b2 0-1" in out
    assert (tmp_path / "seega-images" / "seega-1.sgn").is_file()
    # each board image is a real PNG written where the console says
    images = [Path(line.split(": ", 1)[1]) for line in out.splitlines() if line.startswith("Board image: ")]
    assert len(images) >= 5 and all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in images)
    assert "Replay written to" in out
    assert "A longer line of enemy pieces closed at both ends by yours is captured whole." in out
    assert out.rstrip().endswith("\nBye.")  # the game ended: nothing to resume is promised (fresh-eyes play-test)
    assert query(db, "SELECT status, result, reason FROM games") == [("finished", "0-1", "resignation")]


def test_the_lines_name_whom_they_mean(db_path: Db, tmp_path: Path) -> None:
    """Console play-test (stop 36): "1 turns" in the history; at a hot-seat table the
    resign question names who resigns. Against the bot, the person at the keyboard is
    "you" and cancels as "You"."""
    out = run_console(
        db_path,
        ["/seega challenge color:black", "/place a1 b1", "/seega resign", "yes", "/seega history"],
        tmp_path,
    )
    assert "Resign game #1 for Player 2 (white)? Player 2 loses the game." in out, out
    assert "#1  Player 1 (black) vs Player 2 (white)  standard 5×5  1 turn  Player 1 wins" in out, out
    lines = ["/seega play-bot level:easy color:black", "/seega resign", "/seega cancel", "yes"]
    out = run_console(db_path, lines, tmp_path)
    assert "Resign game #2? You lose the game." in out, "against the bot: the person is you"
    assert "Game over: You cancelled the game: it is not rated." in out, out


def test_an_arabic_table_answers_yes_and_no_in_arabic(db_path: Db, tmp_path: Path) -> None:
    """Native play-test (stop 36): «نعم» to a question was an unknown command, and the
    question was dropped. «لا» keeps playing, «نعم» confirms."""
    lines = ["/seega language ar", "/seega challenge", "/seega resign", "لا", "/seega resign", "نعم"]
    out = run_console(db_path, lines, tmp_path)
    assert "نعم" not in "".join(line for line in out.splitlines() if "'نعم'" in line), out
    assert query(db_path, "SELECT status, reason FROM games") == [("finished", "resignation")]
    assert out.count("هل يستسلم") == 2, out


def test_yes_and_no_in_either_language_after_the_question_are_no_unknown_command(db_path: Db, tmp_path: Path) -> None:
    """Native play-test: after «نعم» confirmed a resignation, a later "yes" was refused as
    an unknown command. Each answer is understood at a table of either language, and one
    typed with no question waiting says so."""
    lines = ["/seega language ar", "/seega challenge", "/seega resign", "نعم", "yes", "لا"]
    lines += ["/seega language en", "/seega challenge", "/seega cancel", "yes", "نعم", "no"]
    out = run_console(db_path, lines, tmp_path)
    assert query(db_path, "SELECT status FROM games ORDER BY id") == [("finished",), ("cancelled",)]
    assert "أمر غير معروف" not in out and "Unknown command" not in out, out
    for word in ("'yes'", "'لا'"):
        assert f"لا يوجد سؤال ينتظر جوابًا، فلا تفعل {word} شيئًا." in out, out
    for word in ("'نعم'", "'no'"):
        assert f"No question is waiting for an answer, so {word} does nothing." in out, out


def test_bot_game_and_resume(db_path: Db, tmp_path: Path) -> None:
    db = db_path
    out = run_console(db, ["/seega play-bot level:Easy size:7 color:white", "/seega board"], tmp_path)
    assert "A game against the bot (easy) has started." in out  # level:Easy: any case
    assert "Black (Seega bot (easy)): placed on" in out, out
    shown = re.search(r"Turn 2: White \(you\) to play - place two pieces with /place, like /place (\w+) (\w+)\.", out)
    placed = re.search(r"Black \(Seega bot \(easy\)\): placed on (\w+), (\w+)", out)
    assert shown and placed and not set(shown.groups()) & set(placed.groups()), "the example's cells are empty"
    assert "7 . ." in out or "7 b" in out or "7 w" in out  # a 7x7 board drawn as text
    # the game is saved: the next session resumes it, and commands continue it
    played = query(db, "SELECT actions FROM games")[0][0].split()
    free = [c for c in ("a1", "b1", "c1", "d1", "e1", "f1", "g1", "a2", "b2", "c2") if c not in played]
    out = run_console(
        db, [f"/place {free[0]} {free[1]}", "/seega resign", "/seega resign", "/seega stats", "/seega moves"], tmp_path
    )
    assert "  Seega bot (easy) wins: you resigned." in out.splitlines(), "moves end with how it ended"
    assert "Resuming game #1." in out
    assert f"White (you): placed on {free[0]}, {free[1]}" in out
    assert "Game over (1-0 to Black). Seega bot (easy) wins: you resigned." in out
    assert "Seega bot (easy) wins: you resigned. (1-0 to Black)" in run_console(db, ["/seega history"], tmp_path)
    assert "Type rematch to play again with the colours swapped." in out
    assert "against the bot (easy): 0 won, 1 lost, 0 drawn" in out
    # Console play-test: "Player 1: against people ..." beside "games where you took hints"
    assert "You (Player 1): against people 0 won, 0 lost, 0 drawn." in out
    # images are named by game and turn
    names = [Path(line.split(": ", 1)[1]).name for line in out.splitlines() if line.startswith("Board image: ")]
    assert names and all(re.fullmatch(r"seega-game1-turn\d{3}(-\d+)?\.png", n) for n in names), names
    # after the game: its final board, then a rematch with the colours swapped
    out = run_console(
        db,
        ["/seega board", "rematch", "plcae a1", "/seega play-bot level:easy", "/place a1 b1", "takeback", "moves"],
        tmp_path,
    )
    assert "You took back your last turn" in out and "Moves of game #2" in out
    # a refused takeback is not announced as done (play-test finding)
    early = run_console(tmp_path / "fresh.db", ["/seega play-bot level:easy color:black", "takeback"], tmp_path)
    assert "nothing to take back" in early and "back your last turn" not in early
    assert "Game over (1-0 to Black). Seega bot (easy) wins: you resigned." in out  # the final board
    assert "Rematch against the bot (easy): you play black." in out
    assert "Unknown command 'plcae': did you mean /place? Type help for the list." in out
    # a refused start says so without first announcing a game
    assert out.count("has started") == 0 and "Error:" in out


def test_rules_text_for_every_variant_and_tab_completion() -> None:
    import io

    from bot.console import ConsoleTable, rules_text
    from bot.service import catalog
    from engine.rules import PRESETS

    for variant in PRESETS:
        if variant != "modern-3x3":
            text = rules_text(variant)
            assert text.startswith(f"Variant {variant}.") and "Placement" in text
            # play-test: the rules never pointed a newcomer to the lessons
            offered = "/seega learn teaches it in 8 short lessons" in text.splitlines()[-1]
            assert offered == (variant in catalog.VARIANT_SIZES), (variant, text)
    table = ConsoleTable(None, io.StringIO())  # type: ignore[arg-type]  # completion needs no service
    complete = table.completer()
    assert complete("boa", 0) == "board" and complete("boa", 1) is None
    assert complete("/se", 0) == "/seega"


def test_one_command_table_drives_dispatch_help_and_completion() -> None:
    import io

    from bot.console import BY_NAME, COMMANDS, HELP, ConsoleTable
    from bot.service import catalog

    for command in COMMANDS:
        assert command.usage in HELP and command.help in HELP
        assert all(BY_NAME[name] is command for name in (command.name, *command.aliases))
        # every handler is a method of the table (its own, or of a feature mixin such as the coach's)
        assert getattr(ConsoleTable, command.run.__name__) is command.run, command.name
    assert len(BY_NAME) == sum(1 + len(c.aliases) for c in COMMANDS), "no name is used twice"
    typed = "/seega play-bot level:"
    table = ConsoleTable(None, io.StringIO())  # type: ignore[arg-type]  # completion needs no service
    complete = table.completer(lambda: typed)
    assert [complete("level:", i) for i in range(len(catalog.LEVELS))] == [f"level:{lvl}" for lvl in catalog.LEVELS]
    typed = "/seega rules "
    assert complete("variant:la", 0) == "variant:lane"


def test_any_error_is_one_line_and_the_table_goes_on(tmp_path: Path) -> None:
    """A failure the service does not expect (here: the images folder is a file) is one
    ``Error:`` line with an id; the traceback goes to seega-console.log, the table goes on."""
    db = tmp_path / "table.db"
    (tmp_path / "seega-images").write_text("a file where the images folder should be\n")
    out = run_console(
        db,
        [
            "/seega challenge size:5 color:black",
            "/place a1 b1",
            "/seega record game:99999999999999999999999",
            "/seega record game:" + "9" * 5000,
            "/seega record game:²",
            "/" + "x" * 3000,
            "/place a2 b2",
        ],
        tmp_path,
    )
    errors = [line for line in out.splitlines() if "Error: something went wrong (error id" in line]
    assert len(errors) >= 2, out
    assert all(str(tmp_path / "seega-console.log") in line for line in errors)
    assert "Error: There is no game #" in out
    assert out.count("is not a number this bot can use") == 2
    unknown = next(line for line in out.splitlines() if line.startswith("Unknown command"))
    assert len(unknown) < 120, "an unknown command is echoed short"
    log = (tmp_path / "seega-console.log").read_text()
    assert "Traceback" in log and errors[0].split("error id ")[1][:8] in log
    ((actions,),) = query(db, "SELECT actions FROM games")
    assert actions == "a1 b1 a2 b2", "the table went on after each error"
    assert out.rstrip().endswith("Bye: the game is saved in the database.")


def test_the_coach_at_the_table(db_path: Db, tmp_path: Path) -> None:
    """Lessons with a wrong try, the puzzle of the day and an answer, a hint against the
    bot, the hint limit, and a review of the finished game, all typed at the console."""
    out = run_console(
        db_path,
        [
            "/seega learn",
            "/seega solve a1 e5",  # legal, but not next to the centre
            "/seega solve answer:c2 c4",
            "/seega learn",
            "/seega puzzle",
            "/seega solve zz9",
            "/seega puzzle top",
            "/seega settings hints:1",
            "/seega play-bot level:easy color:black",
            "/seega hint",
            "/seega hint",  # the same position: the same hint, not counted again (stop 36)
            "/place a1 e5",
            "/seega hint",  # a new position: over the limit of 1
            "/seega resign",
            "yes",
            "/seega review",
            "/seega stats",
        ],
        tmp_path,
    )
    assert "Lesson 1 of 8: Placement and the centre" in out
    # Console play-test: it read "Answer with learn lesson:1 answer: and the cells."
    # Fresh-eyes play-test (stop 35): /place and /move answer a lesson, and nothing said so
    assert "Answer as in a game, with /place or /move, or type solve followed by the cells" in out
    assert "not next to the centre c3" in out
    assert "✅ Well placed" in out and "Lesson 2 of 8: Stepping" in out
    assert "Puzzle of the day" in out and "I could not read zz9" in out
    assert "To answer, type solve followed by the cells, like b2 c2" in out
    assert "Nobody has solved a puzzle here yet" in out
    assert "Changed: Hints per player and game: 3 → 1." in out
    assert "  Hints per player and game (hints): 1" in out
    assert "Hint (1 of 1): play" in out and "Hint (asked again: not counted; 1 of 1 used): play" in out
    assert "used the one hint allowed" in out
    assert "Review of game #1: You vs Seega bot (easy)" in out and "accuracy" in out
    assert "**You**" not in out and "You: accuracy" in out  # the console's "You", as in the game
    assert "Image: " in out  # pictures are written to files, as the boards are


def test_lessons_answered_with_place_and_move_at_the_console(db_path: Db, tmp_path: Path) -> None:
    """With a lesson open and no game at the table, /place and /move answer the exercise."""
    out = run_console(
        db_path,
        [
            "/seega learn",
            "/place a1 e5",
            "/place c2",
            "/place c4",
            "/seega learn",
            "/move a1 b2",
            "/move b3 c3",
            "/move b3 c3",
        ],
        tmp_path,
    )
    assert "not next to the centre c3" in out
    assert "✅ Well placed" in out and "Lesson 2 of 8: Stepping" in out
    assert "one cell up, down, left or right" in out
    assert out.count("✅") == 2, "the second /move b3 c3 is no exercise any more"
    assert not query(db_path, "SELECT id FROM games")


def test_coach_numbers_typed_at_the_console(db_path: Db, tmp_path: Path) -> None:
    """``#2`` as history prints it, unreadable or out-of-range numbers: a clear answer each."""
    out = run_console(
        db_path,
        [
            "/seega challenge size:5 color:black",
            "/place a1 b1",
            "/place a2 b2",
            "/place d1 e1",
            "/seega resign",
            "yes",
            "/seega review game:#1",
            "/seega review game:abc",
            "/seega review game:99999999999999999999",
            "/seega settings hints:-1",
            "/seega settings hints:abc",
            "/seega settings hints:2",
            "/seega learn 99999999999999999999",
            "/seega learn -1",
            "/seega learn 0",
            "/seega learn lesson:x",
            "/seega learn 2",
        ],
        tmp_path,
    )
    assert "Review of game #1" in out and "is not finished" not in out
    assert "abc is not a number this bot can use." in out  # not a review of the last game
    assert "There is no game #99999999999999999999 at this table." in out
    assert out.count("The hint limit must be a number from 0 to 20.") == 2
    assert "  Hints per player and game (hints): 2" in out
    assert out.count("Lessons are numbered 1 to 8.") == 4
    assert "I could not read" not in out and "Lesson 2 of 8" in out
    progress = re.findall(r"Reviewing turn (\d+) of (\d+)", out)
    assert progress and len(progress) == len(set(progress)) and progress[-1][0] == progress[-1][1]


def test_draws_options_language_and_games_at_the_table(db_path: Db, tmp_path: Path) -> None:
    """Play-test findings: a mistyped option is refused (not ignored), a draw is explained
    before it is sent and answered by the other player, the table speaks Arabic on request."""
    out = run_console(
        db_path,
        [
            "/seega play-bot levle:easy",  # refused: no game at the default level
            "/seega play-bot level:Esay",
            "/seega challenge color:black",
            "/seega draw",  # explained, not sent
            "yes",
            "/seega draw",  # one offer at a time
            "yes",
            "/seega decline-draw",  # Player 2 declines
            "/seega draw",
            "yes",  # refused until Player 1 has played a turn
            "/place a1 b1",
            "/seega games",
            "/seega language arabic",
            "/seega draw",
            "yes",
            "/seega accept-draw",
            "/seega language english",
            "/seega history",
            "/move a1 a2 a3 a4 a5 " + "b" * 60_000,
        ],
        tmp_path,
    )
    assert "Unknown option levle: for /play-bot. Did you mean level:? Its options are level:, size:" in out
    assert "Error: 'Esay' is not a level: did you mean easy? Levels are easy, medium, hard or expert." in out
    assert out.count("A game against the bot") == 0
    assert "A draw offer: if Player 2 accepts, the game ends now as a draw (½-½)" in out
    assert "Player 1 offers a draw; Player 2 answers with /seega accept-draw or /seega decline-draw" in out
    assert "Error: You have already offered a draw: wait for your opponent's answer." in out
    assert "Player 2 declines the draw: the game goes on. Player 1 may offer again after their next turn." in out
    assert "Error: Your last draw offer was declined: you may offer a draw again after your next turn." in out
    assert "#1 · Player 1 vs Player 2 · standard 5×5 · turn 2 · this table" in out
    assert "سأجيبك بالعربية من الآن." in out
    assert "عرض التعادل: إن قبله اللاعب 1" in out  # Player 2 offers, in Arabic
    assert "يقبل اللاعب 1 التعادل." in out and "انتهت المباراة بنتيجة \u200e1/2-1/2\u200e. تعادل" in out
    assert "1/2-1/2" in query(db_path, "SELECT result FROM games")[0][0]
    assert out.rstrip().endswith("\nBye.")


async def test_a_chain_in_one_line_and_a_decline_that_is_no_error(db_path: Db) -> None:
    """In-process: ``/move d3 c3 c2 b2`` at the table plays the chain; the bot's "no" to a
    draw is printed as its answer, not as an Error (play-test findings b and j)."""
    import io

    from bot.console import CONSOLE_CHANNEL, CONSOLE_GUILD, LOCAL_PLAYERS, ConsoleTable
    from bot.results import Player
    from tests.service.helpers import close_service, insert_from, make_service

    service = await make_service(db_path)
    out = io.StringIO()
    table = ConsoleTable(service, out, None)
    try:
        chain = "wbbbw/wwbwb/bb1ww/wbbbb/wbwww w m 0/0 - 0 25"
        await insert_from(service, CONSOLE_CHANNEL, chain, LOCAL_PLAYERS[0], LOCAL_PLAYERS[1], guild_id=CONSOLE_GUILD)
        await table.handle("/move d3 c3 c2 c1")
        await table.handle("/move d3 c3")
        # which piece the chain is about (fresh-eyes play-test: only the picture said it)
        assert "the piece on c3 may capture again with /move, or /seega end-turn stops here" in out.getvalue()
        await table.handle("/move c3 c2 b2")
        text = out.getvalue()
        assert "Error: Step 3 of White's (Player 2) chain, c2-c1, is refused" in text  # hot seat: no "your"
        assert "White (Player 2): moved d3→c3" in text and "c2→b2" in text, text
        out.truncate(0)
        await table.handle("/seega offer-end")  # explained first: 12 v 9 pieces, Player 2 would win
        assert (await service.game(CONSOLE_CHANNEL)).end_offer_by is None  # type: ignore[union-attr]
        await table.handle("yes")
        offered = out.getvalue()
        assert "Ending by count: the game ends now" in offered and "White (Player 2) would win" in offered, offered
        assert (
            "Player 1 offers to end the game by count; Player 2 accepts with /seega accept-end"
            " or declines with /seega decline-end." in offered
        )
        out.truncate(0)
        await table.handle("/seega decline-end")  # Discord's Decline button, at the table (stop 37)
        assert "Player 2 declines to end the game by count: the game goes on." in out.getvalue(), out.getvalue()
        assert (await service.game(CONSOLE_CHANNEL)).end_offer_by is None  # type: ignore[union-attr]
        out.truncate(0)
        await table.handle("/seega cancel")  # asked first, as resigning is
        assert "Cancel game #1? It ends unrated" in out.getvalue()
        assert (await service.game(CONSOLE_CHANNEL)) is not None, "nothing cancelled yet"
        await table.handle("yes")
        # hot seat: "You cancelled" named neither player (stop 36)
        assert "Game over: The game is cancelled: it is not rated." in out.getvalue()
        assert "moderator" not in out.getvalue()  # nobody else at this table can cancel
        bot = Player.bot("medium")
        ahead = "3bw/w1wbb/5/4w/b4 b m 0/0 - 0 30"  # 4 v 4, the bot (White) better: it declines
        await insert_from(service, CONSOLE_CHANNEL, ahead, LOCAL_PLAYERS[0], bot, guild_id=CONSOLE_GUILD)
        out.truncate(0)
        await table.handle("/seega draw")
        await table.handle("yes")
        answer = out.getvalue()
        assert "A draw offer: the bot answers at once" in answer
        assert "The bot declines the draw: by its reckoning, playing on is better for it." in answer
        assert "Error" not in answer
    finally:
        await close_service(service)


async def test_the_bot_accepting_an_end_says_so_at_the_table(db_path: Db) -> None:
    """Newcomer play-test: "yes" to an offer to end by count printed only "Game over"."""
    import io

    from bot.console import CONSOLE_CHANNEL, CONSOLE_GUILD, LOCAL_PLAYERS, ConsoleTable
    from bot.results import Player
    from tests.service.helpers import close_service, insert_from, make_service

    service = await make_service(db_path)
    out = io.StringIO()
    table = ConsoleTable(service, out, None)
    try:
        even = "b3w/5/5/5/w3b b m 0/0 - 0 30"  # 2 v 2: a drawn count the bot accepts
        await insert_from(
            service, CONSOLE_CHANNEL, even, LOCAL_PLAYERS[0], Player.bot("medium"), guild_id=CONSOLE_GUILD
        )
        await table.handle("/seega offer-end")
        await table.handle("yes")
        text = out.getvalue()
        assert "Now 2 black, 2 white: it would be a draw." in text
        assert "Seega bot (medium) accepts ending the game by count." in text
        assert "Game over (1/2-1/2). Draw: ended by count, agreed: 2 pieces each." in text
        out.truncate(0)
        out.seek(0)
        ahead = "b3w/5/5/5/b3b b m 0/0 - 0 30"  # 3 v 1 for the person: the bot declines
        await insert_from(
            service, CONSOLE_CHANNEL, ahead, LOCAL_PLAYERS[0], Player.bot("medium"), guild_id=CONSOLE_GUILD
        )
        await table.handle("/seega offer-end")
        await table.handle("yes")
        text = out.getvalue()
        # the person is "you", as on the turn lines, not the table's "Player 1"
        assert "Now 3 black, 1 white: Black (you) would win." in text, text
        assert "The bot declines to end the game by count: by its reckoning" in text, text
    finally:
        await close_service(service)


async def test_no_to_a_question_cancels_it(db_path: Db) -> None:
    """Newcomer play-test: "no" to "send the offer?" answered "Unknown command 'no'".

    It cancels the question (resigning, a draw, an end by count, or cancelling the game
    itself, which is asked first too): the game is unchanged,
    and a later "yes" confirms nothing, since no question is waiting any more.
    """
    import io

    from bot.console import CONSOLE_CHANNEL, CONSOLE_GUILD, LOCAL_PLAYERS, ConsoleTable
    from bot.results import Player
    from tests.service.helpers import close_service, insert_from, make_service

    service = await make_service(db_path)
    out = io.StringIO()
    table = ConsoleTable(service, out, None)
    try:
        ahead = "3bw/w1wbb/5/4w/b4 b m 0/0 - 0 30"
        await insert_from(
            service, CONSOLE_CHANNEL, ahead, LOCAL_PLAYERS[0], Player.bot("medium"), guild_id=CONSOLE_GUILD
        )
        before = await service.game(CONSOLE_CHANNEL)
        for question in ("/seega resign", "/seega offer-end", "/seega draw", "/seega cancel"):
            await table.handle(question)
            assert "no to" in out.getvalue(), out.getvalue()  # the question says how to say no
            out.truncate(0)
            out.seek(0)
            await table.handle("no")
            # "Not done", not "Cancelled": after /seega cancel that read as if the game had
            # just been cancelled (newcomer finding)
            assert out.getvalue().strip() == "Not done: the game goes on as it was."
            await table.handle("yes")  # nothing is waiting: not a confirmation
            assert "No question is waiting for an answer, so 'yes' does nothing." in out.getvalue()
            out.truncate(0)
            out.seek(0)
        after = await service.game(CONSOLE_CHANNEL)
        assert after is not None and before is not None
        assert after.spn == before.spn and after.result is None and after.end_offer_by is None
        assert after.draw_offer_by is None
        await table.handle("no")  # no question asked: said so (it was "Unknown command 'no'")
        assert "No question is waiting for an answer, so 'no' does nothing." in out.getvalue()
        # hostile answers to a question: only a bare "no" cancels it, and what follows a
        # long line is echoed clipped; the game is untouched either way
        hostile = ("no " + "x" * 10_000, "n" * 10_000, "no" + "\u0000" * 5_000, "9" * 40)
        for question, answer in itertools.product(("/seega resign", "/seega cancel " + "x" * 10_000), hostile):
            await table.handle(question)
            out.truncate(0)
            out.seek(0)
            await table.handle(answer)
            said = out.getvalue()
            assert "Not done" not in said and len(said) < 600, said[:200]
            await table.handle("yes")  # the question was dropped by the other command
            out.truncate(0)
            out.seek(0)
        last = await service.game(CONSOLE_CHANNEL)
        assert last is not None and last.spn == before.spn and last.result is None
    finally:
        await close_service(service)


async def test_a_second_game_at_the_table_is_refused_in_the_tables_words(db_path: Db) -> None:
    """Console play-test: starting a game while one is in progress answered with
    Discord's advice ("play in another channel or a thread"), which the console has not."""
    import io

    from bot.console import CONSOLE_CHANNEL, CONSOLE_GUILD, LOCAL_PLAYERS, ConsoleTable
    from bot.results import Player
    from tests.service.helpers import close_service, insert_from, make_service

    service = await make_service(db_path)
    out = io.StringIO()
    table = ConsoleTable(service, out, None)
    try:
        spn = "3bw/w1wbb/5/4w/b4 b m 0/0 - 0 30"
        await insert_from(service, CONSOLE_CHANNEL, spn, LOCAL_PLAYERS[0], Player.bot("medium"), guild_id=CONSOLE_GUILD)
        before = await service.game(CONSOLE_CHANNEL)
        for command in ("/seega play-bot level:easy", "/seega challenge", "/seega rematch"):
            await table.handle(command)
        text = out.getvalue()
        busy = "A game is in progress at this table; finish it first (or /seega resign, or /seega cancel to end it"
        assert text.count(busy) == 3, text
        assert "channel" not in text and "thread" not in text
        after = await service.game(CONSOLE_CHANNEL)
        assert after is not None and before is not None and after.id == before.id and after.spn == before.spn
    finally:
        await close_service(service)


def test_the_last_placement_names_the_only_cells_left_and_a_walled_in_side_passes(db_path: Db, tmp_path: Path) -> None:
    """Play-test finding: on the last placement turn two cells were left for two pieces
    and the table only said "to play". It now names them; then White, walled in (no piece
    next to the centre), passes at once and says why."""
    pairs = ["b3 c2", "a1 a5", "c4 d3", "e1 e5", "a2 a3", "a4 b1", "b2 b4", "b5 c1", "c5 d1", "d2 d4", "d5 e2"]
    out = run_console(
        db_path, ["/seega challenge size:5 color:black", *(f"/place {p}" for p in pairs), "/place e3 e4"], tmp_path
    )
    assert "Turn 12: White (Player 2) to play - the only cells left are yours: /place e3 e4." in out
    assert out.count("the only cells left") == 1
    # play-test: "White (Player 2): passes: walled in, no piece can step" had two colons
    assert "Turn 13 · White (Player 2) is walled in (no piece can step) and passes" in out
    assert "Turn 14: Black (Player 1) to play" in out


#: A seejeh hot-seat placement after which White's d3-c3 walls in every black piece, so
#: White takes one of them (capture-one).
SEEJEH_WALLED = [
    *("c4 d5", "a2 b2", "e1 c2", "a4 e3", "d1 a5", "b4 e4"),
    *("e2 c1", "a3 d2", "a1 e5", "d3 c5", "b3 b1", "b5 d4"),
]


def test_a_removal_says_why_whose_piece_and_which_cells(db_path: Db, tmp_path: Path) -> None:
    """Play-test finding: in a seejeh game every white piece was walled in and the table
    said only "Turn 23: Black (you) to play."; a step was then refused. The turn now says
    who cannot step, whose piece goes, and the cells /remove takes."""
    out = run_console(
        db_path,
        [
            "/seega challenge size:5 variant:seejeh color:black",
            *(f"/place {p}" for p in SEEJEH_WALLED),
            "/move d3 c3",
            "/move c5 c4",
            "/remove a1",
        ],
        tmp_path,
    )
    assert (
        "Turn 14: White (Player 2) to play - Black cannot step, so you take one of its pieces: "
        "/remove one of a1, a5, b1, c1, c2, d1, d5, e1, e2, e5." in out
    )
    assert "Error: You cannot move a piece now; remove a piece with /remove (you can remove a1, a5," in out
    assert "Turn 14 · White (Player 2): removed a1; Black could not step, so White takes one of its pieces" in out


def test_an_arabic_turn_line_uses_the_arabic_comma_and_semicolon(db_path: Db, tmp_path: Path) -> None:
    """Reading the Arabic console: a turn's parts were joined with "; " and its cells with
    ", ", the English marks, in the middle of Arabic sentences."""
    out = run_console(
        db_path,
        [
            "/seega language ar",
            "/seega challenge size:5 variant:seejeh color:black",
            *(f"/place {p}" for p in SEEJEH_WALLED),
            "/move d3 c3",
            "/remove a1",
        ],
        tmp_path,
    )
    assert "الأسود (اللاعب 1): وضع على c4،\u200f d5" in out
    assert "الأبيض (اللاعب 2): أزال a1؛ الأسود لم يستطع الخطو، فيأخذ الأبيض إحدى قطعه" in out


def test_a_refusal_at_an_arabic_table_is_marked_in_arabic(db_path: Db, tmp_path: Path) -> None:
    """Play-test finding: "Error: الخانة c4 مشغولة…", an English word before each Arabic
    refusal. A refusal, and the table's own failure line, follow the table's language."""
    hostile = "/place {0}" + "z" * 10_000
    out = run_console(
        db_path,
        ["/seega language ar", "/seega play-bot level:easy color:black", "/place c3", "/place a1 a1", hostile],
        tmp_path,
    )
    refusals = [line for line in out.splitlines() if line.startswith(("Error", "خطأ"))]
    assert len(refusals) == 3 and all(line.startswith("خطأ: ") for line in refusals)
    assert "c3" in refusals[0] and "Error" not in out
    # A 10,000-character cell with braces is refused in one clipped line, printed as typed.
    assert "{0}" in refusals[2] and len(refusals[2]) < 400
    # ... and the table says goodbye in its language too (it said "Bye: ..." in English).
    assert out.rstrip().endswith("إلى اللقاء: المباراة محفوظة في قاعدة البيانات.")


def test_a_move_typed_in_the_records_notation_is_answered_with_its_command(tmp_path: Path) -> None:
    """Play-test finding: the picture says "Last: Black xd1" and the moves list "b2-c2";
    typed as they read, they were an unknown command and nothing more."""
    typed = ["xd1", "B2-c2", "a1", "xb2-c2", "b2-c2 now", "z9", "a" * 10_000 + "1"]
    out = run_console(tmp_path / "t.db", typed, tmp_path)
    assert "Unknown command 'xd1': the command for that is /remove d1." in out
    assert "Unknown command 'b2-c2': the command for that is /move b2 c2." in out
    assert "Unknown command 'a1': the command for that is /place a1." in out
    for plain in ("xb2-c2", "b2-c2", "z9"):  # not an action, or more words after it
        assert f"Unknown command '{plain}'. Type help for the list." in out
    assert out.count("the command for that is") == 3


async def test_cells_typed_without_their_command_are_answered_with_it(new_db: Callable[[], Db]) -> None:
    """Console play-test: "a1 a2" and "d1 to e1" were "Unknown command 'a1'" and nothing
    more, while "a1-a2" was answered with its command. Every form /move reads gets the
    command that would do it, in the table's phase, and nothing is played."""
    from bot.console import CONSOLE_CHANNEL

    said = "Unknown command '{}': the command for that is {}. Type help for the list."
    placing = "4b/5/5/5/w4 b p 10/10 - 0 3"  # Black to place
    moving = "wbbww/wwbbw/ww1bb/bwwbb/bbwwb w m 0/0 - 0 13"  # White steps c2-c3 or b3-c3
    for spn, typed, command in (
        (placing, "a2 b2", "/place a2 b2"),
        (placing, "a2, b2", "/place a2 b2"),
        (placing, "a2", "/place a2"),
        (moving, "c2 c3", "/move c2 c3"),
        (moving, "c2 to c3", "/move c2 c3"),
        (moving, "C2 -> c3", "/move c2 c3"),
        (moving, "c2-c3", "/move c2 c3"),
        (moving, "d3 c3 b3", "/move d3 c3 b3"),
    ):
        async with hot_seat_table(new_db(), spn, "standard") as (table, out):
            before = (await table.service.game(CONSOLE_CHANNEL)).spn
            await table.handle(typed)
            assert said.format(typed.lower(), command) in out.getvalue(), (typed, out.getvalue())
            assert (await table.service.game(CONSOLE_CHANNEL)).spn == before, "suggested, not played"
    async with hot_seat_table(new_db(), moving, "standard") as (table, out):
        await table.handle("c2")  # a lone cell while pieces move: the start of a step, not /place
        assert "Unknown command 'c2': to step the piece on c2, type /move c2 and the cell it goes to." in out.getvalue()
        await table.handle("c2 to")
        assert "the command for that" not in out.getvalue(), "no step without its second cell"


def test_cells_typed_alone_in_a_lesson_get_the_lessons_command(db_path: Db, tmp_path: Path) -> None:
    out = run_console(db_path, ["learn 1", "c2 c4", "learn 5", "c1 to c2", "c1"], tmp_path)
    assert "Unknown command 'c2 c4': the command for that is /place c2 c4." in out, out
    assert "Unknown command 'c1 to c2': the command for that is /move c1 c2." in out, out
    assert "Unknown command 'c1': to step the piece on c1, type /move c1 and the cell it goes to." in out, out
    assert "✅" not in out, "suggested, not answered"


async def test_a_hot_seat_refusal_of_the_other_sides_piece_says_whose_turn_it_is(new_db: Callable[[], Db]) -> None:
    """Console play-test: at a hot-seat table "d3 is not one of your pieces" was read by
    two people at one keyboard; it names the colours and whose turn it is. Against the
    bot "your" is clear and stays."""
    from bot.results import Player
    from tests.service.helpers import insert_from

    placed = "wbbww/wwbbw/ww1bb/bwwbb/bbwwb w m 0/0 - 0 13"  # White (Player 2) steps c2-c3 or b3-c3
    async with hot_seat_table(new_db(), placed, "standard") as (table, out):
        await table.handle("/move d3 c3")
        assert "Error: d3 is Black's; it is White's (Player 2) turn: move from b3 or c2." in out.getvalue(), out
        await table.handle("/seega language ar")
        await table.handle("/move d3 c3")
        assert "القطعة في d3 من قطع الأسود؛ والدور الآن على الأبيض (اللاعب 2): حرّك من b3 أو c2." in out.getvalue()
    async with hot_seat_table(new_db(), placed, "standard") as (table, out):
        from bot.console import CONSOLE_CHANNEL, CONSOLE_GUILD, LOCAL_PLAYERS

        await table.handle("/seega cancel")
        await table.handle("yes")
        bot = Player.bot("easy")
        await insert_from(table.service, CONSOLE_CHANNEL, placed, bot, LOCAL_PLAYERS[0], guild_id=CONSOLE_GUILD)
        await table.handle("/move d3 c3")
        assert "Error: d3 is not one of your pieces; you can move from b3 or c2." in out.getvalue(), out.getvalue()


@pytest.mark.parametrize(
    ("spn", "variant", "lines", "said"),
    [
        (  # a replacement of one's own piece (five in a row)
            "bbbwb/wwbbw/ww1wb/bwwbw/bwwbb b s 0/0 - 0 13",
            "five-in-a-row",
            ["/place a1"],
            "Error: a1 is Black's own piece, and it is Black's (Player 1) turn: replace one of White's pieces: ",
        ),
        (  # another piece in a chain
            "wbbbw/wwbwb/bb1ww/wbbbb/wbwww w m 0/0 - 0 25",
            "standard",
            ["/move d3 c3", "/move e3 d3"],
            "Error: It is still White's (Player 2) turn, and only the piece that just captured, on c3, may go on"
            " capturing; e3 waits for White's next turn. Capture again from c3, or end the turn with /seega end-turn.",
        ),
        (  # a removal of one's own piece when the rule asks for an enemy one (fouze)
            "bwbbw/bwbwb/w1w1w/bwwwb/bbwwb b r 0/0 - 0 14",
            "fouze",
            ["/remove a1"],
            "Error: a1 cannot be removed (it is one of Black's own pieces); it is Black's (Player 1) turn: ",
        ),
    ],
)
async def test_a_hot_seat_refusal_that_said_your_names_whose_turn_it_is(
    new_db: Callable[[], Db], spn: str, variant: str, lines: list[str], said: str
) -> None:
    """Console play-test: "e4 is your own piece", "waits for your next turn" and "one of
    your pieces" were read by two people at one keyboard; at the hot seat they name the
    colours and whose turn it is, as "not one of your pieces" does."""
    async with hot_seat_table(new_db(), spn, variant) as (table, out):
        for line in lines:
            await table.handle(line)
        assert said in out.getvalue(), out.getvalue()
        assert " your " not in out.getvalue().split("Error:")[-1].split(":")[0], out.getvalue()


CHAIN = "wbbbw/wwbwb/bb1ww/wbbbb/wbwww w m 0/0 - 0 25"  # White (Player 2): d3-c3 captures, then c3-c2


@pytest.mark.parametrize(
    ("spn", "variant", "line", "said"),
    [
        (  # a chain's first step captures nothing
            "wbbww/wwbbw/ww1bb/bwwbb/bbwwb w m 0/0 - 0 13",
            "standard",
            "/move c2 c3 c2",
            "Error: c2-c3 captures nothing, so White's turn would end there: a piece steps again only after a"
            " capture. Nothing was played, and it is still White's (Player 2) turn; to play it, type /move c2-c3"
            " alone.",
        ),
        (  # a chain typed past its last capture
            CHAIN,
            "standard",
            "/move d3 c3 d3 c3",
            "Error: After c3-d3 no further capture is possible, so White's turn would end there. Nothing was played,"
            " and it is still White's (Player 2) turn; to play the chain up to there, type /move d3 c3 d3.",
        ),
        (  # a later step of a chain onto one's own piece
            CHAIN,
            "standard",
            "/move d3 c3 c2 c1",
            "Error: Step 3 of White's (Player 2) chain, c2-c1, is refused: c1 is occupied by one of White's own"
            " pieces; from c2 you can step to b2.",
        ),
        (  # the removal rule's own line (fouze: the blocked side removes an enemy piece)
            "bwbbw/bwbwb/w1w1w/bwwwb/bbwwb b r 0/0 - 0 14",
            "fouze",
            "/remove a1",
            "it is Black's (Player 1) turn: Black cannot step, so Black removes one of White's pieces next to one of"
            " its own, then steps: /remove one of a3, b2,",
        ),
    ],
)
async def test_a_hot_seat_chain_or_removal_refusal_says_no_your(
    new_db: Callable[[], Db], spn: str, variant: str, line: str, said: str
) -> None:
    """Console hot seat: the chain refusals ("so your turn ends there", "Step 2 of your
    chain") and the removal rule's line ("you cannot step, so you remove ... one of
    yours") said "you" to two people at one keyboard; they name the colour whose turn it is."""
    async with hot_seat_table(new_db(), spn, variant) as (table, out):
        await table.handle(line)
        error = out.getvalue().split("Error:")[-1].splitlines()[0]
        assert said in out.getvalue(), out.getvalue()
        assert not re.search(r"\byours?\b", error), error
        await table.handle("/seega language ar")
        await table.handle(line)
        error = out.getvalue().splitlines()[-1]
        assert "(اللاعب " in error, error
        assert not re.search(r"(دورك|سلسلتك|قطعك|تستطيع)", error), error


async def test_the_text_board_says_the_steps_the_shuttle_limit_forbids(new_db: Callable[[], Db]) -> None:
    """The picture marks a step the shuttle limit forbids with a no-entry sign and says
    what it means; the text board at the table had no mark for it, and a player saw an
    empty c2 beside d2 with nothing saying why d2-c2 was not allowed. Only the side to
    move's holds are said, as the picture marks them: White's held d2 on Black's turn
    concerned nothing Black could do (play-test pt40)."""
    held = "d2-c2 may not be played again now (shuttle limit: no more back and forth)"
    steps = ("d2 c2", "a5 a4", "c2 d2", "b5 b4", "d2 c2", "a4 a3")
    async with hot_seat_table(new_db(), "bb2b/3b1/2bww/3ww/2bww w m 0/0 - 0 30", "standard") as (table, out):
        for step in steps:
            await table.handle(f"/move {step}")
        assert "shuttle" not in out.getvalue(), out.getvalue()  # not held yet: d2 may go back once more
        await table.handle("/move c2 d2")
        assert "shuttle" not in out.getvalue(), out.getvalue()  # held, but Black is to move
        await table.handle("/move b4 b3")
        after = out.getvalue().rpartition("  a b c d e\n")[2]
        assert after.startswith(held + "\n"), after  # right under the board
        await table.handle("/seega language ar")
        await table.handle("/move e3 e4")
        await table.handle("/move a3 a2")
        assert "لا يجوز لعب d2-c2 مجددًا الآن (حد الذهاب والإياب)" in out.getvalue().rpartition("  a b c d e\n")[2]


async def test_an_offer_that_lapses_is_said_at_the_table(new_db: Callable[[], Db]) -> None:
    """Console play-test: a draw offer lapsed without a word when the other player played
    on (Discord takes its buttons away; the table has none). So does an offer to end by count."""
    placed = "wbbww/wwbbw/ww1bb/bwwbb/bbwwb w m 0/0 - 0 13"  # White (Player 2) to step
    for offer, said in (
        ("/seega draw", "Player 2's draw offer lapsed: Player 1 played on."),
        ("/seega offer-end", "Player 2's offer to end by count lapsed: Player 1 played on."),
    ):
        async with hot_seat_table(new_db(), placed, "standard") as (table, out):
            await table.handle(offer)
            await table.handle("yes")
            await table.handle("/move c2 c3")  # the offerer plays: the offer stands
            assert "lapsed" not in out.getvalue(), out.getvalue()
            await table.handle("/move d2 c2")
            text = out.getvalue()
            assert text.count(said) == 1, text
            assert text.index(said) < text.index("moved d2→c2"), "said before the turn that let it lapse"
    async with hot_seat_table(new_db(), placed, "standard") as (table, out):
        await table.handle("/seega language ar")
        await table.handle("/seega draw")
        await table.handle("yes")
        await table.handle("/move c2 c3")
        await table.handle("/move d2 c2")
        assert "سقط عرض التعادل من اللاعب 2: فقد واصل اللاعب 1 اللعب." in out.getvalue(), out.getvalue()


#: A five-in-a-row board that fills with no line (the console play-test's game), in pairs.
NO_LINE_PAIRS = ["a5 b5", "d5 e5", "c5 c4", "a4 b4", "e4 b3", "d4 a3", "d3 c2", "e3 a2", "e2 c1", "b2 d2", "d1 e1"]


def test_a_five_in_a_row_replacement_says_what_it_does_and_what_it_did(db_path: Db, tmp_path: Path) -> None:
    """Play-test finding: when the board filled without a line the table said only "Turn
    13: Black (you) to play.", and after the bot's replacement "placed on a1" under a
    board where a1 was empty. Each side now reads what a replacement does and the cells,
    and each replacement is told as one, with the cell it left empty."""
    out = run_console(
        db_path,
        [
            "/seega rules variant:five-in-a-row",
            "/seega challenge size:5 variant:five-in-a-row color:black",
            *(f"/place {p}" for p in NO_LINE_PAIRS),
            "/place a1 b1",
            "/place c4",  # Black's own piece: refused
            "/place a1",
            "/place c4",
        ],
        tmp_path,
    )
    assert (
        "Turn 13: Black (Player 1) to play - nobody has 5 in a row, so you replace one White piece with your "
        "own, then your opponent replaces one of yours: 5 in a row or column wins, otherwise the cell is left "
        "empty; /place one of a1, a2, a3, a4, b1, b2, b4, d2, d4, d5, e3, e5." in out
    )
    assert "Turn 13 · Black (Player 1): replaced White's piece on a1; no 5 in a row, so a1 is left empty" in out
    assert "placed on a1" not in out.split("Turn 13: Black")[1]
    own = (
        "Error: c4 is Black's own piece, and it is Black's (Player 1) turn: replace one of White's pieces: a1, a2, a3,"
    )
    assert own in out
    assert (
        "Turn 14: White (Player 2) to play - you replace one Black piece with your own, the last action of the "
        "game: 5 in a row or column wins, otherwise the game is a draw; /place one of " in out
    )
    assert "Turn 14 · White (Player 2): replaced Black's piece on c4; no 5 in a row, so c4 is left empty" in out
    assert "Draw: the replacements made no line of 5." in out
    # the rules said "each player in turn replaces ... the first to have 5 in a row wins",
    # as if the replacements went on until a line
    assert (
        "If the board fills with no line, Black then White each replace one enemy piece with their own, once: "
        "a replacement that makes 5 in a row or column wins, otherwise that cell is left empty." in out
    )


#: A hot-seat five-in-a-row game in which row 1 is black but for White's a1, and Black's
#: replacement there makes five and wins.
LINE_WIN = [
    "/seega challenge size:5 variant:five-in-a-row color:black",
    *(
        f"/place {p}"
        for p in ("b5 d5", "a5 c5", "a4 c4", "e5 b4", "e4 b3", "d4 a3", "a2 c2", "d3 e3", "b1 c1", "b2 d2", "d1 e1")
    ),
    "/place e2 a1",
    "/place a1",
]


def test_a_replacement_that_makes_a_line_wins_and_is_told_as_a_replacement(db_path: Db, tmp_path: Path) -> None:
    out = run_console(db_path, LINE_WIN, tmp_path)
    assert "Turn 13 · Black (Player 1): replaced White's piece on a1" in out
    assert "so a1 is left empty" not in out
    # The winner is named once (play-test: "Seega bot (easy) wins: Seega bot (easy) made 5 in a row").
    assert "Game over (1-0 to Black). Player 1 wins: 5 in a row." in out
    assert "\n  Player 1: rating 1500 -> 1662 (+162)\n  Player 2: rating 1500 -> 1338 (-162)" in out


def test_the_rating_lines_after_a_game_are_in_the_tables_language(db_path: Db, tmp_path: Path) -> None:
    """Play-test in Arabic: the game's end was in Arabic, the rating lines under it in English."""
    out = run_console(db_path, ["/seega language ar", *LINE_WIN], tmp_path)
    end = out.split("بنتيجة \u200e1-0\u200e لصالح الأسود.")[1]
    assert "5 على خط واحد" in end
    assert "اللاعب 1: التصنيف 1500 ← 1662 (+162)" in end and "rating" not in end


def test_a_review_at_an_arabic_table_counts_its_progress_in_arabic(db_path: Db, tmp_path: Path) -> None:
    """The console's "Reviewing turn 10 of 13..." was written in English at any table."""
    out = run_console(db_path, ["/seega language ar", *LINE_WIN, "/seega review"], tmp_path)
    review = out.split("بنتيجة \u200e1-0\u200e لصالح الأسود.")[1]
    assert re.search(r"جارٍ مراجعة الدور (\d+) من \1", review) and "Reviewing" not in review


def test_a_replay_at_an_arabic_table_is_drawn_as_its_boards(db_path: Db, tmp_path: Path) -> None:
    """Play-test (stop 35): the replay written by /seega record at an Arabic table named
    "Player 1" and "Seega bot (easy)" in Latin letters, where every board picture of
    the same game said "You" and named the bot in Arabic."""
    from bot import render
    from bot.render.words import YOU
    from bot.results import Player, player_name
    from engine.record import read_sgn

    lines = ["/seega language ar", "/seega play-bot level:easy color:black", "/place c2 c4"]
    run_console(db_path, [*lines, "/seega resign", "yes", "/seega record"], tmp_path)
    folder = tmp_path / "seega-images"
    record = read_sgn((folder / "seega-1.sgn").read_text(encoding="utf-8"))
    shown = (YOU, player_name(Player.bot("easy"), "ar"))
    assert (folder / "seega-1.gif").read_bytes() == render.render_replay(record, shown, lang="ar")


def test_the_lane_opening_turns_name_their_cells(db_path: Db, tmp_path: Path) -> None:
    """Play-test finding: the first lane turn said "like /place a1 b2", which the opening
    rule then refused. Each side's first turn names the cells the opening leaves; the
    example comes back once placement is free."""
    out = run_console(
        db_path,
        ["/seega challenge size:7 variant:lane color:black", "/place a4", "/place g4", "/place a1 a2", "/place d1 d7"],
        tmp_path,
    )
    lane = "the lane opening puts your first pair on the middles of two edges"
    assert f"Turn 1: Black (Player 1) to play - {lane}: /place a4 g4." in out
    assert "like /place a1 b2" not in out.split("Turn 3:")[0]
    assert f"Turn 1: Black (Player 1) to play - {lane}: /place g4." in out
    assert "Error: You cannot place on a1 now (the opening rule); you can place on d1 or d7." in out
    assert f"Turn 2: White (Player 2) to play - {lane}: /place d1 d7." in out
    assert "Turn 3: Black (Player 1) to play - place two pieces with /place, like /place a1 g7." in out


def test_two_then_one_says_when_the_turns_become_singles(db_path: Db, tmp_path: Path) -> None:
    """Play-test finding: after "place two pieces with /place" on the first turn, the
    turn where only one piece is placed said nothing, and two cells were refused."""
    out = run_console(
        db_path,
        ["/seega play-bot level:easy variant:two-then-one color:black", "/place a1 b1", "/place a2 b2", "/place a2"],
        tmp_path,
    )
    assert "Turn 1: Black (you) to play - place two pieces with /place, like /place a1 e5." in out
    # Whose pieces are in hand, by colour ("in hand 10/12" read as "10 of 12": stop 35)
    assert "Pieces on the board: black 2, white 0; in hand: black 10, white 12." in out
    single = re.search(
        r"Turn 3: Black \(you\) to play - from now on each turn places one piece, like /place (\w+)\.", out
    )
    before = out[: single.start()] if single else ""
    taken = {c for pair in re.findall(r"placed on (\w+), (\w+)", before) for c in pair}
    assert single and len(taken) == 4 and single[1] not in taken, "the example names an empty cell"
    assert "Error: This turn places only one piece; place just a2." in out
    assert out.count("from now on each turn places one piece") == 1


def test_a_movement_phase_that_begins_with_a_removal_is_announced(db_path: Db, tmp_path: Path) -> None:
    """Play-test finding (fouze): when the board filled with White, the first mover,
    walled in, the table went straight to the removal and never said that the placement
    phase was over."""
    pairs = ["b1 a5", "d4 b2", "c4 e5", "e1 b4", "d1 c2", "a3 d5", "c5 e2", "d2 e4", "a2 d3", "a1 c1", "b5 b3", "e3 a4"]
    out = run_console(
        db_path, ["/seega challenge size:5 variant:fouze color:black", *(f"/place {p}" for p in pairs)], tmp_path
    )
    assert "All pieces are placed: the movement phase begins; White (Player 2) moves first." in out
    assert (
        "Turn 13: White (Player 2) to play - you cannot step, so you remove an enemy piece next to one of yours, "
        "then step: /remove one of" in out
    )


def test_plain_words_a_command_does_not_read_are_refused_not_dropped(db_path: Db, tmp_path: Path) -> None:
    """Play-test finding: ``settings turn_timeout 10m`` (a space for the colon) showed the
    settings unchanged, as if the timeout had been set, and ``play-bot easy 7`` started a
    5x5 game. Extra words are now refused with the usage, the option's key:value form
    when the words spell one, and nothing changes."""
    out = run_console(
        db_path,
        [
            "/seega settings turn_timeout 10m",
            "/seega settings",
            "/seega play-bot easy 7",
            "/seega play-bot easy 7x7",
            "/seega play-bot easy 7x7" + "x7" * 5_000,  # 10,003 characters that begin like a size
            "/seega leaderboard 7",
            "/seega play-bot easy color:black",  # one plain word (the level) is read
            "/remove d4 e5",
            "/seega resign please " + "z" * 60_000,
            "/seega moves",
        ],
        tmp_path,
    )
    assert (
        "/settings takes no word on its own, only key:value options: 'turn_timeout' was not understood. "
        "Options are written key:value, without a space: turn_timeout:10m. Usage: /seega settings turn_timeout:10m"
    ) in out
    assert "  Time per turn (turn_timeout): 1h" in out  # the default, unchanged
    # a board size written as the rules write it is pointed to its option (fresh-eyes play-test: "7x7")
    assert (
        "/play-bot takes one word on its own (the first), the rest as key:value options: '7' was not understood. "
        "For the board size, write size:7. Usage: /seega play-bot level:"
    ) in out
    assert "/play-bot takes one word on its own (the first), the rest as key:value options: '7x7' was not" in out
    assert "'7x7' was not understood. For the board size, write size:7." in out
    long = next(line for line in out.splitlines() if "x7x7x7" in line and "was not understood" in line)
    assert len(long) < 400 and "For the board size" not in long  # clipped, and no size read into it
    assert (
        "/leaderboard takes no word on its own, only key:value options: '7' was not understood. "
        "For the board size, write size:7. Usage: /seega leaderboard size:5"
    ) in out
    assert out.count("A game against the bot (easy) has started") == 1 and "9 . ." not in out
    assert "/remove takes one word on its own (the first), the rest as key:value options: 'e5' was not" in out
    assert "/resign takes no word on its own, only key:value options: 'please' was not understood." in out
    assert "'e5' was not understood. For the board size" not in out  # only a size is pointed to size:
    refusal = next(line for line in out.splitlines() if line.startswith("/resign takes"))
    assert len(refusal) < 120 and "Resign game" not in out  # the 60,000 characters are not echoed back
    assert "1. " not in out.split("/seega moves")[-1]  # no turn was played


def test_a_lesson_answer_goes_on_where_the_last_one_stopped(db_path: Db, tmp_path: Path) -> None:
    """Play-test finding: at the table "learn 5 c1 c2" then "learn 5 c2 d2" refused the
    second step; and "a1 b3" in lesson 1 was told both cells were far from the centre."""
    out = run_console(
        db_path,
        ["learn 1", "solve a1 b3", "learn 5", "solve c1 c2", "solve c2 d2"],
        tmp_path,
    )
    assert "a1 is allowed, but it is not next to the centre c3, and your other piece is. Place both pieces" in out
    assert "go on with its next capturing step" in out
    assert "✅ A chain: the piece that took b2 went on to take d3." in out


def test_a_wrong_step_inside_the_chain_lesson_keeps_the_chain(db_path: Db, tmp_path: Path) -> None:
    """Play-test: "/move c1 c2", a wrong "/move c2 c3" ("from c2 you can step to d2"),
    then "/move c2 d2" was told "c2 is empty": the lesson had silently started again."""
    out = run_console(db_path, ["/seega learn lesson:5", "/move c1 c2", "/move c2 c3", "/move c2 d2"], tmp_path)
    wrong = out.split("> /move c2 c3")[1].split(">")[0]
    assert "from c2 you can step to d2" in wrong and "Nothing was counted" in wrong, wrong
    last = out.split("> /move c2 d2")[1]
    assert "✅ A chain: the piece that took b2 went on to take d3." in last, last
    assert "is empty" not in last, last


def test_a_refused_placement_in_lesson_1_offers_the_lessons_cells(db_path: Db, tmp_path: Path) -> None:
    """Play-test: lesson 1's "solve c3 b3" listed every free cell ("a1, a2 ... c2 and 12
    more") where the lesson asks for the four next to the centre; solve and /place agree."""
    out = run_console(db_path, ["learn 1", "solve c3 b3", "learn 1", "/place c3 b3", "/place c2 c2"], tmp_path)
    for command in ("> solve c3 b3", "> /place c3 b3"):
        said = out.split(command)[1].split(">")[0]
        assert "c3 is the centre" in said and "you can place on b3, c2, c4 or d3." in said, said
        assert "more" not in said and "a1" not in said, said


def test_end_turn_inside_the_chain_lesson_stops_the_lessons_chain(db_path: Db, tmp_path: Path) -> None:
    """Console play-test: lesson 5 teaches that /seega end-turn stops a chain, and at the
    table it went to the last game ("The game at this table is over"); the lesson also
    spoke of a button the console has not."""
    lines = [
        "/seega challenge", "/seega resign", "yes", "learn 5", "/move c1 c2", "/seega end-turn", "/move c1 c2",
        "learn 5", "end",
    ]  # fmt: skip
    out = run_console(db_path, lines, tmp_path)
    lesson = out.split("> learn 5")[1]
    assert "You may also stop the chain with /seega end-turn." in lesson, lesson
    assert "button" not in lesson, lesson
    stopped = out.split("> /seega end-turn")[1].split(">")[0]
    assert "One capture is not enough here: after the first, the same piece can capture again." in stopped, out
    # The exercise starts again (my play-test: "/move c2 c3" then said "c2 is empty")
    assert "The board is back as it was: start again from c1." in stopped, stopped
    again = out.split("> /move c1 c2")[2].split(">")[0]
    assert "Good, one taken" in again, again
    assert "over" not in stopped and "Error" not in stopped, stopped
    # at the lesson's start there is no chain to stop: said as a game says it, nothing counted
    alone = out.split("> end")[1]
    assert "There is no chain of captures to end; move with /move" in alone, alone
    assert "Nothing was counted" in alone, alone
    assert query(db_path, "SELECT count(*) FROM games") == [(1,)]


def test_after_a_game_every_command_for_it_says_how_it_ended(db_path: Db, tmp_path: Path) -> None:
    """Console play-test: after a finished game "takeback" said "The game in this channel
    is over (Player 2 won, …)", while "resign", "draw", "offer-end" and "hint" said
    "There is no game in this channel" (and Discord's /seega resign said it was over).
    Every command about the game now says how it ended and how to start another."""
    out = run_console(
        db_path,
        [
            "/seega challenge size:5 color:black",
            "/place a1 b1",
            "/place a2 b2",
            "/seega resign",
            "yes",
            "/seega resign",
            "/seega draw",
            "/seega offer-end",
            "/seega hint",
            "/seega takeback",
        ],
        tmp_path,
    )
    after = out.split("Type rematch", 1)[1]
    assert "There is no game" not in after, after
    assert after.count("The game at this table is over (Player 2 won, 0-1 to White: resignation)") == 5, after


def test_the_reader_of_a_console_review_is_the_person_against_the_bot() -> None:
    """Whom "lets you capture" is said to: the person at the keyboard against the bot;
    nobody in hot seat, where both names stay."""
    from bot.console.output import LOCAL_PLAYERS, reader_side, you_in_pictures

    me, other = LOCAL_PLAYERS[0].name, LOCAL_PLAYERS[1].name
    assert reader_side(you_in_pictures((me, "Seega bot (hard)"))) == 0
    assert reader_side(you_in_pictures(("Seega bot (easy)", me))) == 1
    assert reader_side(you_in_pictures((me, other))) is None


#: The sentences the console itself says (not the service's), typed at an Arabic table:
#: every command whose lines were English f-strings, an unknown command, help, a hot-seat
#: game and its rematch, a game against the bot with a takeback and its rematch.
ARABIC_TABLE = [
    "/seega language ar",
    "/seega language",
    "help",
    "foo",
    "plcae a1",
    "b2-c2",
    "/{0}{name}",  # braces typed by the user print as typed, never formatted
    "/seega play-bot levle:easy",
    "/seega board please",
    "/seega settings turn_timeout 10m",
    "/seega history",
    "/seega leaderboard",
    "/seega rematch",
    "/seega challenge size:5 color:black",
    "/place a1 b1",
    "/place a2 b2",
    "/seega games",
    "/seega moves",
    "/seega draw",
    "yes",
    "/seega decline-draw",
    "/seega resign",
    "yes",
    "/seega history",
    "/seega record",
    "/seega leaderboard",
    "/seega rematch",
    "/seega cancel",
    "yes",
    "/seega play-bot level:easy color:black",
    "/place a1 b1",
    "takeback",
    "/seega moves",
    "/seega resign",
    "yes",
    "/seega rematch",
    "/seega resign",
    "yes",
    "/seega stats",
    "/seega settings",
    "/seega settings hints:0",
    "/seega rules",
    "/seega review",
]

#: English the console used to print at an Arabic table (each was an f-string or a
#: constant in bot/console/); none may be left.
ENGLISH_AT_AN_ARABIC_TABLE = [
    "Seega offline table",
    "Start with /seega",
    "Commands (the same as on Discord",
    "play against the computer",
    "Variants:",
    "Unknown command",
    "did you mean",
    "the command for that is",
    "Type help for the list",
    "Unknown option",
    "takes no word on its own",
    "Options are written",
    "Usage:",
    "Language:",
    "No games yet.",
    "No rated games",
    "No game to play again",
    "A hot-seat game",
    "take turns at this keyboard",
    "Games in progress at this table",
    "this table",
    "Moves of game",
    "No move has been played yet",
    "offers a draw",
    "(black)",
    " turns ",
    "Record written to",
    "Replay written to",
    "Rematch",
    "you play",
    "You took back",
    "You (",
    "against people",
    "against the bot",
    "turn_timeout 1h",
    "Hints per player",
    "Board image:",
    "Variant standard.",
    "Player 1",
    "Player 2",
    "You",
]


def test_an_arabic_table_says_the_consoles_own_sentences_in_arabic(db_path: Db, tmp_path: Path) -> None:
    """Play-test at an Arabic table: about 40 of the console's own lines (help, unknown
    commands, history, records, leaderboard, stats, rematches, takeback, the hot-seat
    start, the players' names) were English f-strings among the Arabic sentences."""
    out = run_console(db_path, ARABIC_TABLE, tmp_path).split("> /seega language ar\n", 1)[1]
    # the next sessions greet in the stored language: one starts a game, the other resumes it
    again = run_console(db_path, ["/seega challenge"], tmp_path) + run_console(db_path, [], tmp_path)
    shown = [
        line
        for line in (out + again).splitlines()
        if not line.startswith(("> ", "["))  # the typed lines echoed, the record's headers (data)
        and not re.fullmatch(r"\d\. .*[01/2-]+", line)  # the record's moves
    ]
    said = "\n".join(shown)
    left = [english for english in ENGLISH_AT_AN_ARABIC_TABLE if english in said]
    assert not left, [line for line in shown if any(e in line for e in left)]
    for arabic in (
        "طاولة سيجة دون اتصال (قاعدة البيانات ",
        "ابدأ بـ \u200e/seega play-bot level:easy أو بـ \u200e/seega challenge",
        "استئناف المباراة #5.",
        "الأوامر (هي نفسها في ديسكورد",
        "  /seega play-bot level:",
        "العب ضد الحاسوب",
        "الصيغ: standard،\u200f ",
        "أمر غير معروف 'foo'. اكتب help لعرض القائمة.",
        "أمر غير معروف 'plcae': هل تقصد \u200e/place؟",
        "أمر غير معروف 'b2-c2': الأمر المقصود هو \u200e/move b2 c2.",
        "أمر غير معروف '{0}{name}'. اكتب help",
        "خيار غير معروف levle: للأمر \u200e/play-bot. هل تقصد level:؟ خياراته هي level:،\u200f size:",
        "\u200e/board لا يأخذ كلمة وحدها، بل خيارات بالشكل key:value فقط: لم تُفهم 'please'. "
        "الاستخدام: \u200e/seega board",
        "تُكتب الخيارات بالشكل key:value دون مسافة: turn_timeout:10m.",
        "اللغة الحالية: العربية (ar).",
        "لا مباريات بعد.",
        "لا مباريات محتسبة في التصنيف على 5×5 بعد",
        "لا مباراة تُعاد بعد",
        "مباراة على جهاز واحد: يتناوب اللاعب 1 واللاعب 2 على لوحة المفاتيح هذه.",
        "الأسود (اللاعب 1): وضع على a1،\u200f b1",
        "المباريات الجارية على هذه الطاولة:",
        "رقم 1 · اللاعب 1 ضد اللاعب 2",
        "نقلات المباراة #1 (رقم الدور، اللون، النقلات):",
        "يعرض اللاعب 1 التعادل؛ ويجيب اللاعب 2 بـ",
        "#1  اللاعب 1 (الأسود) ضد اللاعب 2 (الأبيض)  القياسية 5×5  الأدوار: 2",
        "(\u200e0-1\u200e لصالح الأبيض)",  # the score held left to right (stop 36)
        "كُتب السجل في ",
        "كُتبت الإعادة في ",
        "مباراة إعادة مع تبادل الألوان: يلعب اللاعب 1 باللون الأبيض.",
        "تراجعت عن دورك الأخير (وعن ردّ البوت).",
        "لم تُلعب أي نقلة بعد.",
        "مباراة إعادة ضد البوت (سهل): تلعب باللون الأبيض.",
        "نتائجك (اللاعب 1) ضد اللاعبين — فوز: 0، خسارة: 1، تعادل: 0.",
        "  ضد البوت (سهل) — فوز: 0، خسارة: 2، تعادل: 0",
        "  مهلة الدور (turn_timeout): 1س",
        "تم التغيير: التلميحات لكل لاعب في المباراة: 3 ← متوقفة.",
        "  التلميحات لكل لاعب في المباراة (hints): متوقفة",
        "صورة الرقعة: ",
        "الصيغة: القياسية.",
        "مراجعة المباراة رقم 4: بوت سيجة السهل ضد أنت",
    ):
        assert arabic in said, arabic
    assert out.rstrip().endswith("\nإلى اللقاء.")
    # the names are translated where they are shown, never where they are kept
    stored = {name for row in query(db_path, "SELECT black_name, white_name FROM games") for name in row}
    assert stored == {"Player 1", "Player 2", "Seega bot (easy)"}


def test_an_english_table_says_the_same_words_as_before(db_path: Db, tmp_path: Path) -> None:
    """The catalogue keys word the English table exactly as the f-strings did."""
    from bot.console import COMMANDS, HELP
    from bot.texts import text

    out = run_console(
        db_path,
        [
            "/seega language",
            "/seega history",
            "/seega leaderboard",
            "/seega rematch",
            "help",
            "/seega challenge size:5 color:black",
            "/seega games",
            "/seega moves",
            "/seega cancel",
            "yes",
            "/seega rematch",
            "/seega settings",
            "/seega rules",
        ],
        tmp_path,
    )
    lines = out.splitlines()
    assert lines[0] == f"Seega offline table (database {db_path}). Type help for the commands, quit to leave."
    assert lines[1] == "Start with /seega play-bot level:easy or /seega challenge (hot seat)."
    for line in (
        "Language: en. Choose with /seega language en, ar or auto.",
        "No games yet.",
        "No rated games on 5×5 yet (games against the bot are not rated).",
        "No game to play again yet: start one with /seega play-bot or /seega challenge.",
        "A hot-seat game: Player 1 and Player 2 take turns at this keyboard.",
        "Games in progress at this table:",
        "#1 · Player 1 vs Player 2 · standard 5×5 · turn 1 · this table",
        "Moves of game #1 (turn number, colour, actions):",
        "  No move has been played yet.",
        "Rematch, colours swapped: Player 1 plays white.",
        "  Time per turn (turn_timeout): 1h",
        "Variant standard.",
    ):
        assert line in lines, line
    assert HELP in out and HELP.splitlines()[0].startswith("Commands (the same as on Discord;")
    # each row's English help is the catalogue's, so the help reads as it did
    assert [c.name for c in COMMANDS if text("en", f"console.help.{c.name}") != c.help] == []


def test_a_reminder_at_the_table_is_in_its_language() -> None:
    """The scheduler's reminder said "[reminder] Player 2, it is your turn" at any table."""
    import io
    from types import SimpleNamespace

    from bot.console import LOCAL_PLAYERS, ConsoleTable
    from bot.results import TimerEvent

    out = io.StringIO()
    table = ConsoleTable(None, out)  # type: ignore[arg-type]  # a reminder needs no service
    game = SimpleNamespace(to_move=LOCAL_PLAYERS[1])
    table.show_timer(TimerEvent("reminder", game=game, remaining=90))  # type: ignore[arg-type]
    table.lang = "ar"
    table.show_timer(TimerEvent("reminder", game=game, remaining=90))  # type: ignore[arg-type]
    assert out.getvalue().splitlines() == [
        "",
        "[reminder] Player 2, it is your turn: 1m30s left.",
        "",
        "[تذكير] اللاعب 2، حان دورك: بقي 1د 30ث.",  # the clock's units (stop 37)
    ]


def test_an_option_written_with_a_space_after_its_colon_is_read(db_path: Db, tmp_path: Path) -> None:
    """Newcomer finding: ``play-bot level: hard`` silently started a medium game, and
    ``size: 7`` was refused as a board size "not ." (empty). ``key: value`` is read as
    ``key:value`` by every command (docs/commands.md, the console section)."""
    out = run_console(
        db_path,
        [
            "/seega play-bot level: hard color:black",
            "/seega cancel",
            "yes",
            "/seega play-bot level:easy size: 7 color: white",
            "/seega settings turn_timeout: 10m",
        ],
        tmp_path,
    )
    assert "A game against the bot (hard) has started." in out and "(medium)" not in out
    assert "A game against the bot (easy) has started." in out and "not ." not in out
    rows = query(db_path, "SELECT size, black_level, white_level FROM games ORDER BY id")
    assert rows == [(5, None, "hard"), (7, "easy", None)]  # you: black, then white
    assert query(db_path, "SELECT turn_timeout FROM guild_settings") == [(600,)]


#: A hot-seat 5x5 game placed to its movement phase: White (Player 2) to move, c4-c3 legal.
_PLACED = [
    "/seega challenge color:black",
    *(f"/place {pair}" for pair in ("a1 b1", "a2 b2", "a3 b3", "a4 b4", "a5 b5", "c1 d1")),
    *(f"/place {pair}" for pair in ("c2 d2", "c4 d3", "c5 d4", "d5 e1", "e2 e3", "e4 e5")),
]


def test_a_word_after_moves_options_is_refused_as_after_its_cells(db_path: Db, tmp_path: Path) -> None:
    """Newcomer finding: ``move from:a4 to:b4 extra`` played the move and dropped "extra",
    while ``move b4 c4 please`` is refused (docs/commands.md: unknown words are refused)."""
    out = run_console(db_path, [*_PLACED, "/move from:c4 to:c3 extra"], tmp_path)
    assert ("/move with from: or to: takes no word on its own: 'extra' was not understood. Usage: /move b2 c2") in out
    ((actions,),) = query(db_path, "SELECT actions FROM games")
    assert "c4-c3" not in actions and "moved" not in out  # nothing was played


def test_puzzle_words_are_read_or_refused_never_ignored(db_path: Db, tmp_path: Path) -> None:
    """Newcomer findings: ``puzzle new answer:a1 a2`` ignored ``new`` and judged the answer
    against the open puzzle (costing rating); ``puzzle show:best`` showed today's puzzle.
    Answers go through ``solve`` now: the old forms are pointed to it, nothing judged."""
    from engine.coach.puzzles import load_bank

    shown = run_console(db_path, ["/seega puzzle"], tmp_path)
    found = re.search(r"Puzzle of the day \(\S+\) · #(\S+) ·", shown)
    assert found is not None, shown
    solution = " ".join(next(p for p in load_bank() if p.id == found[1]).solution)
    out = run_console(
        db_path,
        [
            f"/seega puzzle new answer:{solution}",
            "/seega puzzle best",
            f"/seega puzzle answer {solution}",
            "/seega puzzle new top",
            "/seega puzzle new:maybe",
            f"/seega solve {solution}",
        ],
        tmp_path,
    )
    pointer = f"Answers are given with solve now: type solve {solution} (it answers the puzzle or the lesson"
    assert out.count(pointer) == 2, out
    assert "puzzle does not read best: did you mean top? It takes new or top." in out
    assert "Choose one: new shows another puzzle, top the best solvers." in out
    assert "maybe is not a value this option accepts." in out
    # neither a new puzzle nor today's was shown (the answer's heading names the day's: stop 37)
    assert "🧩 **" not in out and "Puzzle of the day (" not in out, out
    assert out.count("✅ Right: that wins!") == 1 and "I could not read" not in out
    # one answer judged, the last one: the refused lines cost nothing
    assert query(db_path, "SELECT puzzle_id, solved FROM coach_puzzle_attempts") == [(found[1], 1)]


def test_the_old_coach_commands_point_to_the_new_ones(db_path: Db, tmp_path: Path) -> None:
    """``puzzle answer:``, ``learn answer:`` and ``coach-settings`` were the console's forms
    before the contract's ``solve`` and ``settings hints:``: typed now, each is pointed to
    the new one (not "unknown command"), and nothing is judged or changed."""
    out = run_console(
        db_path,
        [
            "/seega learn",
            "/seega learn answer:c2 c4",
            "/seega learn 1 c2 c4",
            "/seega puzzle answer:b2 c2",
            "/seega coach-settings hints:1",
            "/seega coach-settings",
            "/seega solve c2 c4",
            "/seega settings hints:0",
            "/seega play-bot level:easy",
            "/seega hint",
        ],
        tmp_path,
    )
    assert "Unknown command" not in out
    assert out.count("Answers are given with solve now: type solve c2 c4") == 2
    assert "Answers are given with solve now: type solve b2 c2" in out
    assert "The hint limit is one of the settings now: type settings hints:1 (0 turns hints off)." in out
    assert "The hint limit is one of the settings now: type settings hints:N (0 turns hints off)." in out
    assert out.count("✅") == 1 and "Lesson 1" in out  # only solve answered the lesson
    assert "Hints per player and game: 3 → off" in out and "(hints): off" in out
    assert "Hints are turned off at this table: settings hints:3 turns them on." in out
    assert query(db_path, "SELECT puzzle_id FROM coach_puzzle_attempts") == []


async def test_a_slash_alone_says_what_to_type() -> None:
    """Newcomer finding: ``/`` alone printed "Unknown command ''.", naming nothing to type."""
    import io

    from bot.console import ConsoleTable

    out = io.StringIO()
    table = ConsoleTable(None, out)  # type: ignore[arg-type]  # an unknown command needs no service
    await table.handle("/")
    table.lang = "ar"
    await table.handle("//")
    assert out.getvalue().splitlines() == [
        "A / alone is no command: type the command after it, like /seega play-bot level:easy; help lists them all.",
        "الشرطة ‎/ وحدها ليست أمرًا: اكتب الأمر بعدها، مثل ‎/seega play-bot level:easy؛ واكتب help لعرض كل الأوامر.",
    ]


def test_an_unknown_language_is_told_every_choice(db_path: Db, tmp_path: Path) -> None:
    """Newcomer finding: ``language fr`` said "choose en or ar." and left out auto."""
    out = run_console(db_path, ["/seega language fr", "/seega language auto"], tmp_path)
    assert "Error: fr is not a language of this bot; choose en, ar or auto." in out
    assert out.count("From now on I answer you in English.") == 1  # the auto it names is taken


def test_the_rules_of_every_variant_the_rules_document_lists_are_shown(db_path: Db, tmp_path: Path) -> None:
    """Newcomer finding: ``rules modern-3x3`` said it "is not a variant", though
    docs/rules.md lists it. It is not offered for play (a 3x3 board only), on purpose:
    its rules are shown and say so; a game of it is still refused."""
    documented = re.findall(r"^\| `([a-z0-9-]+)` \|", (ROOT / "docs" / "rules.md").read_text(), re.M)
    assert "modern-3x3" in documented
    out = run_console(
        db_path,
        [
            *(f"/seega rules {v}" for v in documented),
            "/seega play-bot variant:modern-3x3",
            "/seega language ar",
            "/seega rules modern-3x3",
        ],
        tmp_path,
    )
    assert "is not a variant" not in out.split("play-bot variant:modern-3x3")[0]
    assert [v for v in documented if f"Variant {v}." not in out] == []
    assert "- Two players, Black and White, on a 3×3 board, 3 pieces each. Black begins." in out
    assert (
        "- The bot does not offer this variant for play: it is played on a 3×3 board only, "
        "and the bot's boards are 5×5, 7×7, 9×9."
    ) in out
    assert "Error: 'modern-3x3' is not a variant; variants are standard," in out  # not for play
    assert not query(db_path, "SELECT id FROM games")
    assert "- لاعبان، الأسود والأبيض، على رقعة 3×3، لكل منهما 3 قطع. يبدأ الأسود." in out
    assert "- لا يعرض البوت هذه الصيغة للعب: تُلعب على رقعة 3×3 فقط" in out


def test_stats_says_the_ratings_per_board_size_and_the_puzzle_rating(db_path: Db, tmp_path: Path) -> None:
    """Newcomer finding: ``stats`` printed no rating (Player 1 had ratings on 5x5 and 7x7;
    only the chart showed them), and the puzzle rating appeared nowhere."""
    from engine.coach.puzzles import load_bank

    lines = ["/seega stats"]  # nothing rated yet: no rating line
    for size, resigns in ((5, False), (7, True)):
        lines += [f"/seega challenge size:{size} color:black", "/place a1 b1"]
        lines += ["/place a2 b2", "/seega resign", "yes"] if resigns else ["/seega resign", "yes"]
    out = run_console(db_path, [*lines, "/seega puzzle"], tmp_path)
    assert "rating on" not in out and "puzzle rating" not in out  # a puzzle only shown is no rating
    puzzle = re.search(r"Puzzle of the day \(\S+\) · #(\S+) ·", out)
    assert puzzle is not None
    solution = " ".join(next(p for p in load_bank() if p.id == puzzle[1]).solution)
    out = run_console(
        db_path, [f"/seega solve {solution}", "/seega stats", "/seega language ar", "/seega stats"], tmp_path
    )
    ratings = {size: round(r) for size, r in query(db_path, "SELECT size, rating FROM ratings WHERE user_id = 1")}
    assert ratings[5] > 1500 > ratings[7]  # Player 2 resigned on 5x5, Player 1 on 7x7
    ((solver,),) = query(db_path, "SELECT rating FROM coach_puzzle_ratings WHERE user_id = 1")
    said = out.split("> /seega stats")[1].splitlines()
    assert said[1:5] == [
        "You (Player 1): against people 1 won, 1 lost, 0 drawn.",
        f"  rating on 5×5: {ratings[5]} (+/-290), 1 rated game",
        f"  rating on 7×7: {ratings[7]} (+/-290), 1 rated game",
        f"  puzzle rating: {solver:.0f} (1 solved, 0 missed, best streak 1)",
    ]
    assert f"  التصنيف على 7×7: {ratings[7]} (±290)، مباراة واحدة محتسبة" in out
    assert f"  تصنيف الألغاز: {solver:.0f} (حلّ 1، أخطأ 0 · أطول سلسلة إجابات صحيحة: 1)" in out


def test_the_leaderboard_names_its_board_size(db_path: Db, tmp_path: Path) -> None:
    """Newcomer finding: ``leaderboard`` alone said "No rated games on this board size yet"
    without naming the size, and the list had no size heading."""
    out = run_console(
        db_path,
        [
            "/seega leaderboard",
            *("/seega challenge size:7 color:black", "/place a1 b1", "/seega resign", "yes"),
            *("/seega leaderboard size:7", "/seega language ar", "/seega leaderboard size:7"),
        ],
        tmp_path,
    )
    assert "No rated games on 5×5 yet (games against the bot are not rated)." in out
    ranks = out.split("> /seega leaderboard size:7")[1].splitlines()[1:4]
    assert ranks[0] == "Ratings on 7×7:" and ranks[1].startswith("1. Player 1  1662 (+/-290)  1-0-0"), ranks
    assert "الترتيب على 7×7:" in out


def test_a_changed_setting_says_it_changed(db_path: Db, tmp_path: Path) -> None:
    """Newcomer finding: ``settings turn_timeout:1h30m challenge_timeout:2m`` only echoed
    the settings, with no word that they had changed."""
    out = run_console(
        db_path,
        [
            "/seega settings turn_timeout:1h30m challenge_timeout:2m",
            "/seega settings challenge_timeout:2m",
            "/seega settings",
            "/seega language ar",
            "/seega settings turn_timeout:1h",
        ],
        tmp_path,
    )
    lines = out.splitlines()
    assert "Changed: Time per turn: 1h → 1h30m; Time to accept a challenge: 10m → 2m." in lines
    assert "Nothing changed: those are the values already set." in lines
    shown = out.split("> /seega settings\n")[1].splitlines()[:4]  # shown alone: no word of a change
    assert shown == [
        "  Time per turn (turn_timeout): 1h30m",
        "  Time to accept a challenge (challenge_timeout): 2m",
        "  Default variant (default_variant): standard",
        "  Hints per player and game (hints): 3",
    ], shown
    assert "تم التغيير: مهلة الدور: 1س 30د ← 1س." in lines  # the clock's units in Arabic
    assert "  مهلة الدور (turn_timeout): 1س" in lines
    assert query(db_path, "SELECT turn_timeout, challenge_timeout FROM guild_settings") == [(3600, 120)]


def test_moves_takes_game_n_as_record_and_review_do(db_path: Db, tmp_path: Path) -> None:
    """Newcomer finding: ``moves game:1`` was refused ("takes no option game:"), while
    ``record`` and ``review`` take ``game:N``."""
    out = run_console(
        db_path,
        [
            *("/seega challenge color:black", "/place a1 b1", "/seega resign", "yes"),
            *("/seega challenge color:black", "/place c1 d1"),
            *("/seega moves game:1", "/seega moves #1", "/seega moves", "/seega moves game:99"),
        ],
        tmp_path,
    )
    asked = out.split("> /seega moves")
    for said in asked[1:3]:  # game:1 and #1, as history prints it: the finished game
        assert said.splitlines()[1:4] == [
            "Moves of game #1 (turn number, colour, actions):",
            "  1. b a1 b1",
            "  Player 1 wins: Player 2 resigned.",
        ], said
    assert asked[3].splitlines()[1:3] == ["Moves of game #2 (turn number, colour, actions):", "  1. b c1 d1"]
    assert "Error: There is no game #99 at this table." in asked[4]
    assert "takes no option" not in out


def test_the_tables_own_players_are_named_in_its_language_on_its_pictures() -> None:
    """Native play-test (stop 36): an Arabic hot-seat table's pictures said "Player 1" and
    "Player 2": the service names a picture's players in the language of who it answers,
    and the second local player has none of their own. The console says them in the
    table's; a member's own name stays as it is."""
    from bot.console.output import in_table_language
    from bot.results import Player, player_name

    assert in_table_language(("Player 1", "Player 2"), "ar") == ("اللاعب 1", "اللاعب 2")
    bot = player_name(Player.bot("easy"), "en")
    assert in_table_language((bot, "اللاعب 1"), "ar") == (player_name(Player.bot("easy"), "ar"), "اللاعب 1")
    assert in_table_language(("اللاعب 2", "Amira"), "en") == ("Player 2", "Amira")


async def test_an_arabic_reviews_key_moments_name_the_person_in_arabic(db_path: Db) -> None:
    """Native re-check (stop 36): at an Arabic table a review's key moments read
    "الدور 9، You: خطأ فادح", where its header said أنت."""
    import io

    from bot.console import CONSOLE_CHANNEL, CONSOLE_GUILD, LOCAL_PLAYERS, ConsoleTable
    from bot.results import Player
    from tests.service.helpers import close_service, insert_from, make_service

    service = await make_service(db_path)
    out = io.StringIO()
    table = ConsoleTable(service, out, None)
    try:
        await table.handle("/seega language ar")
        spn = "w3b/5/wb1bw/2w2/b3b w m 0/0 - 0 30"  # White (you) to move: c2-b2 throws the game away
        await insert_from(service, CONSOLE_CHANNEL, spn, Player.bot("easy"), LOCAL_PLAYERS[0], guild_id=CONSOLE_GUILD)
        await table.handle("/move c2 b2")
        await table.handle("/seega resign")
        await table.handle("نعم")
        out.truncate(0)
        out.seek(0)
        await table.handle("/seega review")
        review = out.getvalue()
        assert "You" not in review and re.search(r"الدور \d+، أنت: ", review), review
    finally:
        await close_service(service)


def test_an_arabic_tables_game_over_error_names_its_player_in_arabic(db_path: Db, tmp_path: Path) -> None:
    """Native re-check (stop 36): after a hot-seat game the refusal read "فاز Player 2":
    the stored name, not the table's."""
    lines = [
        "/seega language ar",
        "/seega challenge color:black",
        "/place a1 b1",
        "/seega resign",
        "نعم",
        "/seega takeback",
    ]
    out = run_console(db_path, lines, tmp_path)
    last = out.strip().splitlines()[-2]  # the refusal, before the goodbye
    assert "فاز اللاعب 1" in last and "Player" not in last, last


def test_a_refusal_about_the_tables_game_says_the_table_not_a_channel(db_path: Db, tmp_path: Path) -> None:
    """Native review: the console has no channel, yet its refusals said "There is no game
    in this channel" ("لا توجد مباراة في هذه القناة"); they say the table, in both languages."""
    english = run_console(db_path, ["/seega takeback", "/seega record"], tmp_path)
    assert "There is no game at this table" in english, english
    assert "No game has been played at this table yet." in english, english
    arabic = run_console(db_path, ["/seega language ar", "/seega takeback", "/seega record"], tmp_path)
    assert "لا توجد مباراة على هذه الطاولة" in arabic, arabic
    assert "لم تُلعب أي مباراة على هذه الطاولة بعد" in arabic, arabic
    assert "channel" not in english + arabic and "القناة" not in arabic


def test_an_offers_refusal_at_the_table_names_its_commands_not_buttons() -> None:
    """At the table an open offer is answered with commands: the refusals said "with
    Accept the end or Decline on the offer", buttons the console has not (stop 37)."""
    from bot.console.commands import refusal_text
    from bot.results import IllegalMoveError

    for key in ("draw_answer_count_first", "draw_answer_count_first_wait", "end_answer_draw_first"):
        for lang in ("en", "ar"):
            said = refusal_text(IllegalMoveError(key), lang)
            assert "/seega decline-" in said and "**" not in said, (key, lang, said)


async def test_a_chain_of_any_piece_names_every_piece_that_may_go_on(db_path: Db) -> None:
    """Under chain=any (seejeh) the prompt named one piece, the first in the list, often
    not the one that had just captured (console play-test): it names them all."""
    async with hot_seat_table(db_path, "bb1wb/1w2b/wb1bw/3bb/wbb1b b m 0/0 - 0 30", "seejeh") as (table, out):
        await table.handle("/move b5 c5")  # takes d5; then a5-b5 or c5-b5 takes b4
        said = out.getvalue()
        assert "any of your pieces that can capture may go on with /move (a5 or c5)" in said, said
        assert "the piece on" not in said
        from bot import wording  # the Discord turn message says it with the same rule

        legal = ["a5-b5", "c5-b5", "end"]
        assert wording.chain_prompt(legal, "en", "turn.chain_hint") == (
            "⚔️ The chain goes on: any of your pieces that can capture may go on (a5 or c5), or end the turn."
        )
        assert "c5" in wording.chain_prompt(["c5-b5", "end"], "en", "turn.chain_hint")


async def _table(db: Db, lines: list[str], clock: object, tmp_path: Path) -> str:
    """The console in this process, on a fake clock, with the bot's AI in a thread."""
    import io

    from bot.ai_pool import ThreadAiRunner
    from bot.console import run_console as run_table

    out = io.StringIO()
    inp = io.StringIO("\n".join(lines) + "\n")
    await run_table(db, stdin=inp, stdout=out, ai=ThreadAiRunner(), renderer=None, image_dir=tmp_path, clock=clock)  # type: ignore[arg-type]
    return out.getvalue()


async def test_the_clock_stops_while_the_table_is_closed(db_path: Db, tmp_path: Path) -> None:
    """Newcomer play-test: with turn_timeout:30s, a pair placed, quit, 45 s away and back,
    the next command lost on time ("the game is saved; it resumes next time"). The turn's
    deadline moves by the time the table was closed, before the timers start."""
    from bot.clock import FakeClock

    clock = FakeClock()
    lines = ["settings turn_timeout:30s", "challenge color:black", "place a1 b1", "quit"]
    await _table(db_path, lines, clock, tmp_path)
    [(deadline, paused_at)] = query(db_path, "SELECT deadline, paused_at FROM games")
    assert deadline == clock.now() + 30 and paused_at == clock.now(), "closing stops the clock"
    clock.advance(45)
    out = await _table(db_path, ["board", "place a2 b2"], clock, tmp_path)
    assert "[timeout]" not in out and "Resuming game #1." in out, out
    assert "White (Player 2): placed on a2, b2" in out, out
    assert query(db_path, "SELECT status, paused_at FROM games") == [("active", clock.now())], "closed again"


async def test_a_table_not_closed_cleanly_stops_the_clock_at_the_last_save(db_path: Db, tmp_path: Path) -> None:
    """When the table did not close cleanly (killed: when it closed is unknown), the clock
    is taken as stopped since the game was last saved, and no timeout that fell due
    meanwhile is applied at start-up."""
    from bot.clock import FakeClock

    clock = FakeClock()
    await _table(db_path, ["settings turn_timeout:30s", "challenge color:black", "place a1 b1"], clock, tmp_path)
    execute(db_path, "UPDATE games SET paused_at = NULL")  # as if the process had been killed
    [(deadline, saved)] = query(db_path, "SELECT deadline, updated_at FROM games")
    clock.advance(100)
    out = await _table(db_path, ["board"], clock, tmp_path)
    assert "[timeout]" not in out, out
    [(status, moved)] = query(db_path, "SELECT status, deadline FROM games")
    assert status == "active" and moved == deadline + (clock.now() - saved)


def test_the_table_speaks_of_itself_and_says_what_to_do(db_path: Db, tmp_path: Path) -> None:
    """Newcomer play-test: "no game #99 in this server" (a table has no server); a busy
    table named resign but not cancel; a cancelled game was "not finished (cancelled)"
    to review; "settings colour:black" said nothing of where the option goes; cancel
    promised "as if it had not been played" though the game stays in the history."""
    lines = [
        "moves game:99",
        "play-bot level:easy color:black",
        "play-bot level:easy",
        "settings colour:black",
        "cancel",
        "yes",
        "review game:1",
        "history",
    ]
    out = run_console(db_path, lines, tmp_path)
    assert "Error: There is no game #99 at this table." in out, out
    busy = "Error: A game is in progress at this table; finish it first (or /seega resign, or /seega cancel to end"
    assert busy in out, out
    assert (
        "Its options are turn_timeout:, challenge_timeout:, default_variant:, hints:. color: goes with /play-bot or "
        "/challenge." in out
    ), out
    assert "It ends unrated and stays in the history as cancelled." in out and "as if" not in out, out
    assert "Error: Game #1 was cancelled before a whole turn was played: there is nothing to review." in out, out
    assert "cancelled (*)" in out.split("> history")[1]


def test_a_variant_game_and_its_rules_start_with_how_it_differs(db_path: Db, tmp_path: Path) -> None:
    """Newcomer play-test: a seejeh game began with only "A game against the bot (easy)
    has started", and rules variant:X printed the whole list with nothing singled out."""
    out = run_console(db_path, ["rules variant:lane", "play-bot level:easy variant:seejeh", "rules"], tmp_path)
    lane = out.split("> rules variant:lane")[1].split("> play-bot")[0]
    assert lane.splitlines()[1:3] == ["Variant lane.", "How it differs from standard:"], lane
    assert lane.index("- Lane opening") < lane.index("All its rules:") < lane.index("- Two players"), lane
    start = out.split("> play-bot level:easy variant:seejeh")[1]
    assert start.splitlines()[1:3] == ["A game against the bot (easy) has started.", "How it differs from standard:"]
    assert "- A player reduced to a single piece loses." in start.split("> rules")[0]
    assert "differs" not in out.split("> rules\n")[1], "standard has no differences"


async def test_a_removal_before_the_first_step_is_not_called_the_first_move(db_path: Db) -> None:
    """Seejeh 7x7 at the table: White (the last placer, to move first) was walled in by
    the last placements, so Black removed one of its pieces first; the news said "Black
    moves first" (console play-test, stop 37)."""
    before_last = "bbbbbbb/bwwww1b/ww1bwwb/bbb1bbb/bwwbwwb/bwwwwbb/wwwwbww w p 0/2 - 0 24"
    async with hot_seat_table(db_path, before_last, "seejeh", 7) as (table, out):
        await table.handle("/place c5 f6")
        said = out.getvalue()
        assert (
            "the movement phase begins. White (Player 2) moves first but cannot step, so Black (Player 1) removes"
            " a piece first." in said
        ), said
        assert "Black (Player 1) moves first" not in said, said


async def test_a_step_typed_in_words_or_with_a_long_dash(new_db: Callable[[], Db]) -> None:
    """Play-test: "move d3 to c3" was refused as "'d3 to c3' is not a move" without naming
    the forms that work, and so was the em dash; "a 1" got no "did you mean a1?"."""
    placed = "wbbww/wwbbw/ww1bb/bwwbb/bbwwb w m 0/0 - 0 13"  # White steps c2-c3 or b3-c3
    async with hot_seat_table(new_db(), placed, "standard") as (table, out):
        for line, expected in (
            ("move c2 into c3", "'c2 into c3' is not a move: write the two cells like c2 c3 or c2-c3, or fill in"),
            ("move c2 into c3", "both fields: /move from:c2 to:c3."),
            ("move c 2", "'c 2' is not a cell: did you mean c2?"),
            ("move 2c c3", "'2c' is not a cell: did you mean c2?"),
            ("move c 2 c 3", "'c 2 c 3' is not a move: did you mean /move c2 c3?"),
        ):
            out.seek(0)
            out.truncate(0)
            await table.handle(line)
            assert expected in out.getvalue(), (line, out.getvalue())
        await table.handle("move C2 TO c3")
        assert "c2→c3" in out.getvalue(), out.getvalue()
    async with hot_seat_table(new_db(), placed, "standard") as (table, out):
        await table.handle("move b3 — c3")  # the em dash a phone makes of "--"
        assert "b3→c3" in out.getvalue(), out.getvalue()
    async with hot_seat_table(new_db(), placed, "standard") as (table, out):
        await table.handle("move b3 إلى c3")
        assert "b3→c3" in out.getvalue(), out.getvalue()


async def test_resigning_while_ahead_at_the_table_says_so(db_path: Db) -> None:
    """Console play-test (stop 38): resigning at 12 against 9 said only "You lose the game"."""
    async with hot_seat_table(db_path, "bbb2/5/5/5/ww3 b m 0/0 - 0 30", "standard") as (table, out):
        await table.handle("/seega resign")
        said = out.getvalue()
        assert "Player 1 has more pieces on the board (3 against 2): resigning still loses the game" in said, said
        await table.handle("no")
        out.seek(0)
        out.truncate()
        await table.handle("/move a5 a4")
        await table.handle("/seega resign")  # White, behind: nothing to add
        assert "more pieces" not in out.getvalue(), out.getvalue()


def test_escape_sequences_typed_are_never_printed_back(tmp_path: Path) -> None:
    """Outside review (stop 39): errors echoed typed text with its control characters, so
    a piped line could retitle or clear the terminal or write its clipboard (OSC 52), and a
    200,000-character line was echoed whole after the prompt."""
    esc = "\x1b"
    out = run_console(
        tmp_path / "table.db",
        [
            f"/seega play-bot level:{esc}]0;HACKED{chr(7)}{esc}[2J",
            f"/move {esc}[31mb2 c2",
            f"/seega settings turn_timeout:{esc}[31m5q",
            f"/seega language {esc}[41mxx",
            f"hello{esc}]52;c;cHduZWQ={chr(7)}",
            "/" + "A" * 200_000,
        ],
        tmp_path,
    )
    assert esc not in out and chr(7) not in out
    assert "[31m" in out, "the rest of what was typed is still shown, as plain text"
    assert max(len(line) for line in out.splitlines()) < 1_000
