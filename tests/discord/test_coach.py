"""The coach through the real discord.py client on the loopback Discord."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from engine.coach.lessons import LESSONS
from tests.discord.fake_discord import Interaction, Message
from tests.discord.harness import Harness

#: A wrong try per lesson and a word the helpful answer must contain.
WRONG_TRIES = {
    "placement": ("a1 e5", "next to the centre"),
    "stepping": ("b3 c2", "never diagonally; from b3 you can step to c3"),  # as a game says it
    "capture": ("d2 d3", "captures nothing"),
    "multiple": ("a2 a3", "between the two black pieces"),
    "chain": ("c1 c2", "the same piece can capture again"),
    "centre": ("e3 d3", "is safe"),
    "blocked": ("d4 d3", "can still move"),
    "ending": ("a2 a3", "goes on"),
}


def said(inter: Interaction) -> Message:
    """The answer a person sees: the last message of the interaction still standing (an
    error after a deferred "thinking..." replaces it with a private follow-up)."""
    messages = ([inter.original] if inter.original else []) + inter.followups
    standing = [m for m in messages if not m.deleted]
    assert standing, f"interaction {inter.id} left no answer"
    return standing[-1]


@pytest.mark.usefixtures("machine_speed")
async def test_the_tutorial_lesson_by_lesson_with_wrong_answers(h: Harness) -> None:
    assert set(WRONG_TRIES) == {lesson.id for lesson in LESSONS}
    for number, lesson in enumerate(LESSONS, 1):
        shown = said(await h.slash(h.alice, "seega learn"))
        assert shown.ephemeral and f"Lesson {number} of 8" in shown.text, shown.text
        assert shown.png(), "every lesson has its board picture"
        assert "type `/seega solve` followed by the cells" in shown.text, shown.text
        wrong, hint = WRONG_TRIES[lesson.id]
        tried = said(await h.slash(h.alice, "seega solve", {"answer": wrong}))
        assert tried.ephemeral and hint in tried.text and "✅" not in tried.text, (lesson.id, tried.text)
        assert f"Lesson {number}" in tried.text, "the answer says what it answered"
        solved = said(await h.slash(h.alice, "seega solve", {"answer": lesson.model}))
        assert solved.ephemeral and "✅" in solved.text, (lesson.id, solved.text)
    assert "finished every lesson" in solved.text
    said(await h.slash(h.bob, "seega learn", {"lesson": 3}))
    unreadable = said(await h.slash(h.bob, "seega solve", {"answer": "<@1> @everyone"}))
    assert unreadable.ephemeral and "could not read" in unreadable.text and unreadable.pinged_user_ids() == set()


async def test_a_chain_begun_by_solve_is_continued_by_the_next_answer(h: Harness) -> None:
    """ "answer:c1 c2" is told to go on; "answer:c2 d2" used to be refused (the first
    capture was forgotten unless the turn was played with /move)."""
    said(await h.slash(h.alice, "seega learn", {"lesson": 5}))
    begun = said(await h.slash(h.alice, "seega solve", {"answer": "c1 c2"}))
    assert begun.ephemeral and "go on with its next capturing step" in begun.text, begun.text
    done = said(await h.slash(h.alice, "seega solve", {"answer": "c2 d2"}))
    assert done.ephemeral and "✅" in done.text, done.text


async def play(h: Harness, user: int, placement: bool, cells: str) -> Message:
    """Answer with the real commands: ``/place a1 b2`` or ``/move b2 c2``."""
    parts = cells.split()
    if placement:
        options = {"first": parts[0], **({"second": parts[1]} if len(parts) > 1 else {})}
        return said(await h.slash(user, "place", options))
    return said(await h.slash(user, "move", {"from": " ".join(parts)}))


@pytest.mark.usefixtures("machine_speed")
async def test_the_tutorial_answered_with_the_real_commands(h: Harness) -> None:
    for number, lesson in enumerate(LESSONS, 1):
        shown = said(await h.slash(h.alice, "seega learn"))
        assert f"Lesson {number} of 8" in shown.text, shown.text
        placement = lesson.position().phase == "p"
        wrong, hint = WRONG_TRIES[lesson.id]
        tried = await play(h, h.alice, placement, wrong)
        assert tried.ephemeral and hint in tried.text and "✅" not in tried.text, (lesson.id, tried.text)
        model = lesson.model.split()
        if lesson.id == "chain":  # the wrong try was the chain's first capture: go on from there
            solved = await play(h, h.alice, placement, " ".join(model[1:]))
        elif placement:  # a pair, one cell at a time, as in a game
            first = await play(h, h.alice, placement, model[0])
            assert first.ephemeral and "✅" not in first.text, first.text
            solved = await play(h, h.alice, placement, model[1])
        else:
            solved = await play(h, h.alice, placement, lesson.model)
        assert solved.ephemeral and "✅" in solved.text, (lesson.id, solved.text)
    assert "finished every lesson" in solved.text
    after = said(await h.slash(h.alice, "move", {"from": "b3 c3"}))
    assert "✅" not in after.text and "Lesson" not in after.text, "no exercise is open once solved"


async def test_a_game_in_progress_comes_before_the_exercise(h: Harness) -> None:
    said(await h.slash(h.alice, "seega learn"))  # lesson 1 (placement) opened in this channel
    said(await h.slash(h.bob, "seega learn"))
    challenge = said(await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "color": "black"}))
    await h.click(h.bob, challenge, "Accept", followup=True)
    moved = said(await h.slash(h.alice, "place", {"first": "b3", "second": "d3"}))  # her move: the game's
    assert not moved.ephemeral and "Lesson" not in moved.text, moved.text
    lessons = h.bot.service.coach.lessons
    assert await lessons.storage.lessons_done(h.alice) == set()
    # Bob's move now: Alice's /place still goes to the game (not her turn), never to the
    # exercise: the same command does not change meaning with the turn.
    refused = said(await h.slash(h.alice, "place", {"first": "c2", "second": "c4"}))
    assert "Lesson" not in refused.text and "✅" not in refused.text, refused.text
    assert await lessons.storage.lessons_done(h.alice) == set()
    # /seega solve answers the exercise meanwhile.
    by_answer = said(await h.slash(h.bob, "seega solve", {"answer": "c2 c4"}))
    assert by_answer.ephemeral and "✅" in by_answer.text
    bobs = said(await h.slash(h.bob, "place", {"first": "a1", "second": "e5"}))
    assert not bobs.ephemeral, bobs.text


async def test_a_lesson_shown_during_a_game_says_the_game_takes_the_moves(h: Harness) -> None:
    """Play-test: "Answer as in a game, with /place or /move" while Alice played the bot
    here, and her /place c4 d3 was played in the real game."""
    await h.slash(h.alice, "seega play-bot", {"level": "easy", "color": "black", "size": 5})
    shown = said(await h.slash(h.alice, "seega learn", {"lesson": 1}))
    assert "You have a game here" in shown.text and "/seega solve" in shown.text, shown.text
    assert "Answer as in a game" not in shown.text, shown.text
    onlooker = said(await h.slash(h.carol, "seega learn", {"lesson": 1}))  # not her game
    assert "Answer as in a game" in onlooker.text, onlooker.text
    solved = said(await h.slash(h.alice, "seega solve", {"answer": LESSONS[0].model}))
    assert solved.ephemeral and "✅" in solved.text, solved.text


async def test_a_hint_is_refused_in_a_rated_game_between_people(h: Harness) -> None:
    challenge = said(await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "color": "black"}))
    await h.click(h.bob, challenge, "Accept", followup=True)
    refused = said(await h.slash(h.alice, "seega hint"))
    assert refused.ephemeral and "not allowed in rated games" in refused.text
    assert refused.attachments == []


async def test_a_hint_against_the_bot_and_the_hint_limit(h: Harness) -> None:
    limit = said(await h.slash(h.mod, "seega settings", {"hints": 1}))
    assert limit.ephemeral and "Changed: Hints per player and game: 3 → 1." in limit.text, limit.text
    await h.slash(h.alice, "seega play-bot", {"level": "easy", "color": "black", "size": 5})
    hint = said(await h.slash(h.alice, "seega hint"))
    assert hint.ephemeral and "Hint" in hint.text and "(1 of 1)" in hint.text, hint.text
    assert hint.png()
    # asked again before playing: the same hint, not counted (stop 36; the limit after a
    # move is the service's and the console's tests)
    again = said(await h.slash(h.alice, "seega hint"))
    assert again.ephemeral and "asked again: not counted; 1 of 1 used" in again.text, again.text
    onlooker = said(await h.slash(h.carol, "seega hint"))
    assert onlooker.ephemeral and "Only the two players" in onlooker.text
    not_mod = said(await h.slash(h.alice, "seega settings", {"hints": 9}))
    assert not_mod.ephemeral and await h.bot.service.coach.hints.limit(h.fake.guild_id) == 1


async def _a_short_game_resigned(h: Harness) -> None:
    """Alice starts a game against easy, places once and resigns: a finished game to review."""
    await h.slash(h.alice, "seega play-bot", {"level": "easy", "color": "black", "size": 5})
    await h.slash(h.alice, "place", {"first": "b3", "second": "d3"})
    await h.idle()
    ask = await h.slash(h.alice, "seega resign")
    await h.click(h.alice, ask.reply, "Resign", followup=True)
    await h.idle()


async def test_review_of_a_finished_game_with_progress_then_stored(h: Harness) -> None:
    await _a_short_game_resigned(h)
    asked = await h.slash(h.carol, "seega review", timeout=60)
    for _ in range(1200):  # the first answer is the progress line; wait for the review itself
        if "Review of game" in said(asked).text:
            break
        await asyncio.sleep(0.05)
    review = said(asked)
    assert not review.ephemeral and "Review of game #1" in review.text, review.text
    assert "accuracy" in review.text
    assert any("Reviewing turn" in old for old in review.history), review.history
    assert review.png() and len(review.attachments) >= 1
    again = said(await h.slash(h.bob, "seega review", {"game": 1}))
    assert "(stored review)" in again.text
    missing = said(await h.slash(h.bob, "seega review", {"game": 999}))
    assert missing.ephemeral and "#999" in missing.text


async def test_a_second_review_while_ones_own_is_computed_is_refused(h: Harness) -> None:
    """One review computed per person at a time (a member's many requests queued before
    everyone else's): the second is answered with the one still running, and the first
    arrives all the same."""
    for _ in range(2):
        await _a_short_game_resigned(h)
    reviews = h.bot.service.coach.reviews
    gate, real = asyncio.Event(), reviews.work

    class Held:
        async def run(self, fn: Any, arg: Any) -> Any:
            await gate.wait()
            return await real.run(fn, arg)

    reviews.work = Held()
    asking = asyncio.ensure_future(h.slash(h.carol, "seega review", {"game": 1}, timeout=60))
    for _ in range(500):
        if reviews._asked:
            break
        await asyncio.sleep(0.02)
    refused = said(await h.slash(h.carol, "seega review", {"game": 2}))
    assert "Your review of game #1 is still being made" in refused.text, refused.text
    bob = asyncio.ensure_future(h.slash(h.bob, "seega review", {"game": 2}, timeout=60))  # not held up by Carol
    await asyncio.sleep(0.1)
    gate.set()
    asked, other = await asking, await bob
    for _ in range(1200):
        if "Review of game #1" in said(asked).text and "Review of game #2" in said(other).text:
            break
        await asyncio.sleep(0.05)
    assert "Review of game #1" in said(asked).text and "Review of game #2" in said(other).text


async def test_the_puzzle_of_the_day_an_answer_and_the_solvers(h: Harness) -> None:
    shown = said(await h.slash(h.alice, "seega puzzle"))
    assert not shown.ephemeral and "Puzzle of the day" in shown.text and shown.png()
    assert "To answer, type `/seega solve` followed by the cells" in shown.text, shown.text
    same = said(await h.slash(h.bob, "seega puzzle"))
    assert same.text.splitlines()[0] == shown.text.splitlines()[0], "the same puzzle for everyone today"
    coach = h.bot.service.coach.puzzles
    puzzle, _day = coach.daily(h.fake.guild_id)
    right = said(await h.slash(h.alice, "seega solve", {"answer": " ".join(puzzle.solution)}))
    assert right.ephemeral and "Right" in right.text and "Puzzle rating 1500 →" in right.text, right.text
    # the answer says which puzzle it answered, and that it is the day's: a member answering
    # another's newly posted puzzle read the verdict as about that board (re-check play-test)
    assert f"🧩 Puzzle of the day #{puzzle.id}" in right.text, right.text
    typo = said(await h.slash(h.bob, "seega solve", {"answer": "zz"}))
    assert typo.ephemeral and "could not read" in typo.text
    from engine import Position

    start = Position.from_spn(puzzle.spn, puzzle.rules())
    wrong = next(str(a).replace("-", " ") for a in start.legal_actions() if str(a) != puzzle.solution[0])
    said(await h.slash(h.carol, "seega solve", {"answer": wrong}))  # Carol answers, and misses
    top = said(await h.slash(h.carol, "seega puzzle", {"top": True}))
    assert "Best puzzle solvers" in top.text and "Alice" in top.text and "Bob" not in top.text
    # a "best solver" has solved one (re-check play-test: "1. Bob: 1400 · 0 solved, 1 missed")
    assert "Carol" not in top.text, top.text
    fresh = said(await h.slash(h.carol, "seega puzzle", {"new": True}))
    assert "**Puzzle** #" in fresh.text and fresh.png()
    # new and top at once are two requests: refused, nothing shown
    before = await h.bot.service.storage.puzzle_rating(h.fake.guild_id, h.carol)
    both = said(await h.slash(h.carol, "seega puzzle", {"new": True, "top": True}))
    assert both.ephemeral and "Choose one" in both.text, both.text
    assert await h.bot.service.storage.puzzle_rating(h.fake.guild_id, h.carol) == before


async def test_the_old_answer_options_and_coach_settings_are_gone(h: Harness) -> None:
    """The contract's commands only: ``/seega solve`` answers, ``/seega settings`` holds the
    hints; ``puzzle`` has ``new`` (and ``top``), ``learn`` only ``lesson``."""
    names = h.fake.command_names()
    assert "seega solve" in names and not any("coach-settings" in n for n in names), names
    seega = h.fake._find_command("seega")
    options = {sub["name"]: {o["name"] for o in sub.get("options", [])} for sub in seega["options"]}
    assert options["puzzle"] == {"new", "top"}
    assert options["solve"] == {"answer"}
    assert options["learn"] == {"lesson"}
    assert options["settings"] == {"turn_timeout", "challenge_timeout", "default_variant", "hints"}
    assert "coach-settings" not in options


async def test_bob_answers_the_daily_puzzle_alice_showed_with_none_open(h: Harness) -> None:
    """Play-tester's finding: Bob saw Alice's public daily puzzle, answered it and was told
    "You have no puzzle open". With nothing shown to him, his answer is for the puzzle of
    the day, the same for everyone."""
    said(await h.slash(h.alice, "seega puzzle"))
    puzzle, _day = h.bot.service.coach.puzzles.daily(h.fake.guild_id)
    answered = said(await h.slash(h.bob, "seega solve", {"answer": " ".join(puzzle.solution)}))
    assert answered.ephemeral and "Right" in answered.text and f"#{puzzle.id}" in answered.text, answered.text
    assert "no puzzle open" not in answered.text


async def test_solve_answers_whichever_was_shown_last(h: Harness) -> None:
    """A lesson shown after a puzzle is what ``/seega solve`` answers, and the other way
    round; the choice is stored, so a restarted bot answers the same."""
    puzzles = h.bot.service.coach.puzzles
    fresh = said(await h.slash(h.alice, "seega puzzle", {"new": True}))
    row = await h.bot.service.storage.puzzle_rating(h.fake.guild_id, h.alice)
    assert row is not None and row.current is not None and f"#{row.current}" in fresh.text
    new_puzzle = puzzles.by_id(row.current)
    assert new_puzzle is not None
    said(await h.slash(h.alice, "seega learn", {"lesson": 3}))
    lesson = said(await h.slash(h.alice, "seega solve", {"answer": LESSONS[2].model}))
    assert "Lesson 3" in lesson.text and "✅" in lesson.text, lesson.text
    said(await h.slash(h.alice, "seega puzzle", {"new": True}))
    row = await h.bot.service.storage.puzzle_rating(h.fake.guild_id, h.alice)
    assert row is not None and row.current is not None
    second = puzzles.by_id(row.current)
    assert second is not None
    # a new service over the same database (a restart, another process) answers the same
    from bot.service.coach import Coach

    again = Coach(h.bot.service.storage, h.bot.service.clock, h.bot.service.coach.hints.work)
    got = await again.solve(h.fake.guild_id, h.alice, "Alice", " ".join(second.solution))
    assert got.puzzle_id == second.id and got.outcome == "solved"  # type: ignore[union-attr]
    puzzle = said(await h.slash(h.alice, "seega solve", {"answer": " ".join(second.solution)}))
    assert f"Puzzle #{second.id}" in puzzle.text and "Right" in puzzle.text, puzzle.text


async def test_nothing_to_solve_says_what_to_do(h: Harness) -> None:
    h.bot.service.coach.puzzles._bank = []  # a bank without puzzles, nothing shown
    h.bot.service.coach.puzzles._by_id = {}
    nothing = said(await h.slash(h.alice, "seega solve", {"answer": "b2 c2"}))
    assert nothing.ephemeral and "nothing to answer" in nothing.text and "/seega puzzle" in nothing.text, nothing.text


async def test_a_wrong_puzzle_answer_says_why(h: Harness) -> None:
    """ "❌ Not this one." alone left the solver guessing: a turn that takes nothing where
    the solution takes is told so."""
    puzzle, _day = h.bot.service.coach.puzzles.daily(h.fake.guild_id)
    from engine.coach.puzzles import judge, turn_outcomes

    wrong = next(
        " ".join(str(a) for a in actions)
        for actions, _after in turn_outcomes(puzzle.position())
        if judge(puzzle, " ".join(str(a) for a in actions)).outcome == "wrong"
    )
    verdict = judge(puzzle, wrong)
    said(await h.slash(h.alice, "seega puzzle"))
    answered = said(await h.slash(h.alice, "seega solve", {"answer": wrong}))
    if verdict.captured == 0 and verdict.solution_captures:
        assert "❌ Not this one: your turn captures nothing" in answered.text, answered.text
    if verdict.why:
        assert "lets your opponent" in answered.text, answered.text
    assert "Solution:" in answered.text


async def test_hints_are_a_setting_shown_in_words_and_off_says_so(h: Harness) -> None:
    shown = said(await h.slash(h.mod, "seega settings"))
    assert shown.ephemeral and "Time per turn (turn_timeout): 1h" in shown.text, shown.text
    assert "Hints per player and game (hints): 3" in shown.text
    changed = said(await h.slash(h.mod, "seega settings", {"hints": 0, "turn_timeout": "10m"}))
    assert "Changed: Time per turn: 1h → 10m; Hints per player and game: 3 → off." in changed.text, changed.text
    assert "Hints per player and game (hints): off" in changed.text
    same = said(await h.slash(h.mod, "seega settings", {"hints": 0}))
    assert "Nothing changed" in same.text, same.text
    await h.slash(h.alice, "seega play-bot", {"level": "easy", "color": "black", "size": 5})
    off = said(await h.slash(h.alice, "seega hint"))
    assert off.ephemeral and "Hints are turned off on this server" in off.text, off.text
    assert "used all 0" not in off.text
    out_of_range = said(await h.slash(h.mod, "seega settings", {"hints": 21}))
    assert out_of_range.ephemeral and await h.bot.service.coach.hints.limit(h.fake.guild_id) == 0


async def test_a_60000_character_answer_gets_a_short_answer_at_once(h: Harness) -> None:
    """Hostile input to ``/seega solve``: answered quickly, in a short private message,
    nothing of it echoed whole (tests/hostile_text.py's strings). Discord carries at most
    6,000 characters in an option; the service is given the 60,000 ones itself."""
    from bot.coach_messages import solve_text
    from tests.hostile_text import hostile_strings

    said(await h.slash(h.alice, "seega learn", {"lesson": 2}))
    for i, text in enumerate(t[:6000] for t in hostile_strings(5_990)):
        user = h.alice if i % 2 else h.bob  # Alice answers her lesson, Bob the puzzle of the day
        started = time.monotonic()
        got = said(await h.slash(user, "seega solve", {"answer": text}, timeout=10.0))
        assert time.monotonic() - started < 5.0, f"string {i}: {time.monotonic() - started:.1f}s"
        assert got.ephemeral and len(got.text) < 600 and "error id" not in got.text, (i, got.text[:200])
    coach = h.bot.service.coach
    for i, text in enumerate(hostile_strings(60_000)):
        started = time.monotonic()
        answer = await coach.solve(h.fake.guild_id, h.alice if i % 2 else h.bob, "Member", text)
        assert time.monotonic() - started < 2.0, f"string {i}: {time.monotonic() - started:.1f}s"
        assert len(solve_text(answer, "en")) < 600


async def test_end_turn_inside_the_chain_lesson_stops_the_lessons_chain(h: Harness) -> None:
    """Console play-test: lesson 5 says a chain may be stopped with /seega end-turn, and
    end-turn went to the channel's last game ("There is no game" or "The game is over")."""
    said(await h.slash(h.alice, "seega learn", {"lesson": 5}))
    said(await h.slash(h.alice, "move", {"from": "c1 c2"}))
    stopped = said(await h.slash(h.alice, "seega end-turn"))
    assert stopped.ephemeral and "One capture is not enough here" in stopped.text, stopped.text


async def test_lessons_answered_with_an_arabic_keyboards_digits_and_comma(h: Harness) -> None:
    """Play-test (Arabic): "/place a٥" was "not a cell", "/seega solve e٤ e٥" was not read."""
    said(await h.slash(h.alice, "seega learn", {"lesson": 1}))
    placed = said(await h.slash(h.alice, "place", {"first": "c٢", "second": "c۴"}))
    assert "✅" in placed.text, placed.text
    said(await h.slash(h.alice, "seega learn", {"lesson": 5}))
    solved = said(await h.slash(h.alice, "seega solve", {"answer": "c١،c٢،d٢"}))
    assert "✅" in solved.text, solved.text
    said(await h.slash(h.alice, "seega learn", {"lesson": 3}))
    moved = said(await h.slash(h.alice, "move", {"from": "d٢،c٢"}))
    assert "✅" in moved.text, moved.text


async def test_an_answer_off_the_board_is_told_in_the_boards_words(h: Harness) -> None:
    """Play-test: `/seega solve answer:z9` said "I could not read z9: write cells like b2
    c2" where a game says "'z9' is not a cell of this 5×5 board"."""
    said(await h.slash(h.alice, "seega learn", {"lesson": 1}))
    size = LESSONS[0].position().geo.n
    last = "abcdefghi"[size - 1] + str(size)
    lesson = said(await h.slash(h.alice, "seega solve", {"answer": "z9"}))
    assert f"'z9' is not a cell of this {size}×{size} board" in lesson.text, lesson.text
    assert f"from a1 to {last}" in lesson.text and "could not read" not in lesson.text, lesson.text
    said(await h.slash(h.alice, "seega puzzle"))
    puzzle, _day = h.bot.service.coach.puzzles.daily(h.fake.guild_id)
    n = puzzle.position().geo.n
    answered = said(await h.slash(h.alice, "seega solve", {"answer": "z9"}))
    assert f"'z9' is not a cell of this {n}×{n} board" in answered.text, answered.text
    prose = said(await h.slash(h.alice, "seega solve", {"answer": "hello"}))  # not a cell at all
    assert "could not read hello" in prose.text, prose.text


async def test_a_review_of_a_game_still_played_names_no_internal_status(h: Harness) -> None:
    """Play-test: "Game #7 is not finished (active)": no internal status word."""
    await h.slash(h.alice, "seega play-bot", {"level": "easy", "color": "black", "size": 5})
    for locale, words in (("en", "in progress"), ("ar", "جارية")):
        refused = said(await h.slash(h.alice, "seega review", locale=locale))
        assert refused.ephemeral and words in refused.text, refused.text
        assert "active" not in refused.text, refused.text


async def test_a_lesson_asked_in_arabic_where_a_game_is_on_is_in_arabic(h: Harness) -> None:
    """Discord play-test (pt40b): /seega learn in Arabic, in a channel where the person
    has a game in progress, answered in English (not reproduced here: kept as a guard, for
    a game in the channel and one in a thread)."""
    await h.slash(h.alice, "seega play-bot", {"level": "easy", "color": "black", "size": 5})
    challenge = said(await h.slash(h.carol, "seega challenge", {"opponent": h.alice, "thread": True}))
    await h.click(h.alice, challenge, "Accept")
    await h.idle()
    tid = max(c for c, v in h.fake.channels.items() if v["type"] == 11)
    for channel in (h.fake.channel_id, tid):
        shown = said(await h.slash(h.alice, "seega learn", channel_id=channel, locale="ar-SA"))
        assert shown.ephemeral and "لديك مباراة هنا" in shown.text, shown.text
        letters = [c for c in shown.text if c.isalpha()]
        assert len([c for c in letters if c.isascii()]) < len(letters) / 4, shown.text
