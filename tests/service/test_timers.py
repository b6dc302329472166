"""Turn timers, reminders and challenge expiry with a fake clock; deadlines survive restarts."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.results import BadInputError, ChallengeError, NotYourTurnError, Player, TimerEvent
from bot.scheduler import Scheduler
from bot.service import GameService
from bot.service.games import LATE_GRACE
from bot.timeparse import MAX_SECONDS, MIN_SECONDS, DurationError, format_duration, parse_duration
from tests.service.helpers import (
    ALICE,
    BOB,
    CAROL,
    GUILD,
    MOD,
    Db,
    close_service,
    insert_from,
    make_service,
    place_all,
    start_people,
)


def test_parse_duration() -> None:
    assert [parse_duration(t) for t in ("45s", "10m", "1h", "3d", " 1H30m ", "30s", "7d")] == [
        45,
        600,
        3600,
        259200,
        5400,
        30,
        604800,
    ]
    for bad in ("", "10", "5x", "29s", "8d", "-1h", "1h-"):
        try:
            parse_duration(bad)
        except DurationError as exc:
            assert "like 45s, 10m, 1h or 3d" in str(exc)
        else:
            raise AssertionError(f"{bad!r} was accepted")
    assert format_duration(5400) == "1h30m" and format_duration(45) == "45s"


def test_durations_with_english_unit_words() -> None:
    """Play-test: turn_timeout:"2 hours" was refused while "90M" was accepted."""
    read = {
        "2 hours": 7200,
        "2hours": 7200,
        "1 hour": 3600,
        "2 HR": 7200,
        "90 min": 5400,
        "90mins": 5400,
        "1 minute": 60,
        "45 minutes": 2700,
        "45 sec": 45,
        "45 seconds": 45,
        "1 second 30s": 31,
        "1 day": 86400,
        "3 days": 259200,
        "1 hour 30 minutes": 5400,
        "1h 30 min": 5400,
        "2 س": 7200,
    }
    for text, seconds in read.items():
        assert parse_duration(text) == seconds, text
    for bad in ("2 hourss", "2 weeks", "hours", "2 hours 3", "2 h h", "1 houre"):
        with pytest.raises(DurationError, match="is not a duration"):
            parse_duration(bad)


def test_long_unit_words_are_refused_at_once() -> None:
    """The scan stays linear (an earlier review found a regular-expression denial of service)."""
    long = ("1 hours" * 15_000, "9" * 99_990 + "hours", "h" * 100_000, "1" + "m" * 99_999, "1 minute " * 11_111 + "x")
    for text in long:
        assert len(text) >= 99_990
        started = time.perf_counter()
        with pytest.raises(DurationError):
            parse_duration(text)
        assert time.perf_counter() - started < 0.5


def test_durations_with_thousands_of_digits_are_out_of_range() -> None:
    """Not a ValueError from int() (4,300 digits at most), and the message stays short."""
    for text in ("9" * 5000 + "s", "1h" + "9" * 20 + "m", "1" * 4301 + "d"):
        with pytest.raises(DurationError, match="out of range") as caught:
            parse_duration(text)
        assert len(str(caught.value)) < 200
    assert parse_duration("0" * 5000 + "45s") == 45


async def test_set_settings_refuses_a_duration_of_thousands_of_digits(service: GameService) -> None:
    with pytest.raises(BadInputError, match="out of range"):
        await service.set_settings(GUILD, turn_timeout="9" * 5000 + "s", moderator=MOD)
    assert (await service.get_settings(GUILD)).turn_timeout == 3600


async def test_reminder_at_half_time_then_timeout(service: GameService, clock: FakeClock) -> None:
    await service.set_settings(GUILD, turn_timeout="10m", moderator=MOD)
    seen: list[TimerEvent] = []

    async def on_event(event: TimerEvent) -> None:
        seen.append(event)

    scheduler = Scheduler(service, on_event)
    started = await start_people(service, 1)
    assert started.game.deadline == clock.now() + 600
    clock.advance(299)
    assert await scheduler.tick() == []
    clock.advance(2)
    events = await scheduler.tick()
    assert [e.kind for e in events] == ["reminder"] and events[0].ping == ALICE.user_id
    assert events[0].remaining is not None and 298 <= events[0].remaining <= 300
    assert await scheduler.tick() == []  # reminded once
    # a move resets the clock for the next player
    await service.place(1, ALICE.user_id, "a1 b1")
    clock.advance(301)
    assert [e.ping for e in await scheduler.tick()] == [BOB.user_id]
    clock.advance(300)
    events = await scheduler.tick()
    assert [e.kind for e in events] == ["timeout"]
    over = events[0].turn.game_over  # type: ignore[union-attr]
    assert over is not None and over.reason == "timeout" and over.winner == ALICE and over.rated
    assert [e.kind for e in seen] == ["reminder", "reminder", "timeout"]
    assert await service.game(1) is None


async def test_a_game_keeps_the_turn_time_it_started_with(service: GameService, clock: FakeClock) -> None:
    """Outside review atk41c F4: a moderator who played set turn_timeout 1h -> 30s mid-game,
    moved, and their opponent had 30 s and lost rated on time. The change is for games
    started afterwards; a game stored before games kept their time follows the setting."""
    started = await start_people(service, 1)
    assert started.game.deadline == clock.now() + 3600
    legacy = await insert_from(service, 2, "5/5/5/5/5 b p 12/12 - 0 1")  # no time of its own
    await service.set_settings(GUILD, turn_timeout="30s", moderator=MOD)
    clock.advance(10)
    moved = await service.place(1, ALICE.user_id, "a1 b1")
    assert moved.game.deadline == clock.now() + 3600, "Bob keeps the hour the game started with"
    old = await service.place(2, ALICE.user_id, "a1 b1")
    assert old.game.deadline == clock.now() + 30 and legacy == old.game.id
    newer = await start_people(service, 3, black=CAROL, white=Player(104, "Dan"))
    assert newer.game.deadline == clock.now() + 30, "a game started after the change has the new time"
    await service.set_settings(GUILD, turn_timeout="7d", moderator=MOD)
    back = await service.place(1, BOB.user_id, "c1 d1")
    assert back.game.deadline == clock.now() + 3600, "nor can it be lengthened for one's own turns"


async def test_a_move_after_the_deadline_loses_on_time_instead(service: GameService, clock: FakeClock) -> None:
    """Outside review atk41c F7: the scheduler may wake up to a minute after a deadline, and
    Bob's move 10 s after his had run out was played. The deadline is the rule: the game
    ends by timeout, rated, and his move is not played."""
    await service.set_settings(GUILD, turn_timeout="30s", moderator=MOD)
    await start_people(service, 1)
    await service.place(1, ALICE.user_id, "a1 b1")
    clock.advance(29)
    with pytest.raises(NotYourTurnError):
        await service.place(1, ALICE.user_id, "c1 d1")  # not her turn: refused as ever, the game goes on
    clock.advance(1 + LATE_GRACE)
    late = await service.place(1, BOB.user_id, "a2 b2")  # no scheduler ran: the deadline decides
    over = late.game_over
    assert late.late and over is not None and over.reason == "timeout" and over.winner == ALICE and over.rated
    assert late.events == () and "a2" not in (await service.moves(1))[1][-1], "the move was not played"
    assert await service.game(1) is None and await Scheduler(service).tick() == [], "ended once"


async def test_a_move_judged_just_after_the_deadline_is_played(service: GameService, clock: FakeClock) -> None:
    """Outside review atk41d F2: a move sent a second before the deadline waited behind
    another write in the channel, was judged after it, and lost on time. A command is
    late only LATE_GRACE seconds past the deadline; the scheduler acts at the deadline."""
    await service.set_settings(GUILD, turn_timeout="30s", moderator=MOD)
    await start_people(service, 1)
    clock.advance(30 + LATE_GRACE / 2)
    played = await service.place(1, ALICE.user_id, "a1 b1")
    assert not played.late and played.game_over is None and played.game.turn == 2


async def test_a_move_in_time_is_played(service: GameService, clock: FakeClock) -> None:
    await service.set_settings(GUILD, turn_timeout="30s", moderator=MOD)
    await start_people(service, 1)
    clock.advance(29.9)
    played = await service.place(1, ALICE.user_id, "a1 b1")
    assert not played.late and played.game_over is None and played.game.deadline == clock.now() + 30


async def test_a_new_earlier_timer_wakes_the_scheduler_once_stored(service: GameService, clock: FakeClock) -> None:
    """Outside review atk41c F7: the new timer was noted before it was written, so the
    woken scheduler read the old due time (here none: the bot was to move) and slept its
    whole max_sleep; the reminder and the timeout came late. The write is slowed here so
    that the scheduler reads meanwhile, as it did by chance on the real bot."""
    import asyncio

    await service.set_settings(GUILD, turn_timeout="30s", moderator=MOD)
    seen: list[str] = []

    async def on_event(event: TimerEvent) -> None:
        seen.append(event.kind)

    await service.play_bot(GUILD, 1, CAROL, "easy", 5, None, "black")
    scheduler = Scheduler(service, on_event, max_sleep=3600)
    await scheduler.start()
    await scheduler.resumed.wait()
    await service.place(1, CAROL.user_id, "a1 b1", bot_reply=False)  # the bot's turn: no timer
    clock.advance(20)  # the scheduler wakes for Carol's old reminder, finds none due, sleeps
    real = service.storage.update_game

    async def slow_update(update: Any) -> bool:
        await asyncio.sleep(0.2)  # the woken scheduler reads the timers meanwhile
        return bool(await real(update))

    service.storage.update_game = slow_update  # type: ignore[method-assign]
    try:
        await asyncio.sleep(0.05)  # the scheduler sleeps its max_sleep: nothing is due
        replied = await service.bot_turn(1)
        assert replied.game.deadline == clock.now() + 30
        for _ in range(40):
            clock.advance(1)
            await asyncio.sleep(0.02)
            if "timeout" in seen:
                break
        assert seen == ["reminder", "timeout"], seen
    finally:
        await scheduler.stop()


async def test_chain_step_keeps_the_deadline(service: GameService, clock: FakeClock) -> None:
    await start_people(service, 1)
    first = await service.place(1, ALICE.user_id, "a1")
    clock.advance(100)
    second = await service.place(1, ALICE.user_id, "b1")
    assert first.game.deadline is not None
    assert second.game.deadline == clock.now() + 3600  # a new turn, Bob's


async def test_challenge_expires(service: GameService, clock: FakeClock) -> None:
    ch = await service.challenge(GUILD, 1, ALICE, BOB)
    scheduler = Scheduler(service)
    clock.advance(599)
    assert await scheduler.tick() == []
    clock.advance(1)
    events = await scheduler.tick()
    assert [e.kind for e in events] == ["challenge_expired"] and events[0].challenge.id == ch.challenge.id  # type: ignore[union-attr]
    assert (await service.get_challenge(ch.challenge.id)).status == "expired"
    # accepting an expired challenge without a tick also fails
    ch2 = await service.challenge(GUILD, 1, ALICE, CAROL)
    clock.advance(601)
    with pytest.raises(ChallengeError, match=r"no longer open \(it was expired\)"):
        await service.accept_challenge(ch2.challenge.id, CAROL.user_id)


async def test_deadline_passed_while_down_applies_at_start(db_path: Db, clock: FakeClock) -> None:
    first = await make_service(db_path, clock)
    await start_people(first, 1)
    await first.play_bot(GUILD, 2, CAROL, "easy", 5, None, "black")
    await close_service(first)  # the bot goes down for two hours
    clock.advance(7200)
    second = await make_service(db_path, clock)
    try:
        events = await Scheduler(second).resume()
        kinds = sorted(e.kind for e in events)
        assert kinds == ["timeout", "timeout"]
        assert {e.game.channel_id for e in events} == {1, 2}  # type: ignore[union-attr]
    finally:
        await close_service(second)


async def test_bot_turn_due_at_start_is_played(db_path: Db, clock: FakeClock) -> None:
    first = await make_service(db_path, clock)
    await first.play_bot(GUILD, 2, CAROL, "easy", 5, None, "white", bot_reply=False)
    await close_service(first)
    second = await make_service(db_path, clock)
    try:
        events = await Scheduler(second).resume()
        assert [e.kind for e in events] == ["bot_turn"]
        assert events[0].ping == CAROL.user_id and events[0].turn is not None and events[0].turn.events
    finally:
        await close_service(second)


async def test_scheduler_loop_runs_on_the_fake_clock(service: GameService, clock: FakeClock) -> None:
    import asyncio

    await service.set_settings(GUILD, turn_timeout="1m", moderator=MOD)
    seen: list[str] = []

    async def on_event(event: TimerEvent) -> None:
        seen.append(event.kind)

    scheduler = Scheduler(service, on_event, max_sleep=3600)  # only a new deadline can wake it in time
    await scheduler.start()
    try:
        await start_people(service, 1)
        for _ in range(50):
            await asyncio.sleep(0.01)
            clock.advance(5)
            if "timeout" in seen:
                break
        assert seen == ["reminder", "timeout"]
    finally:
        await scheduler.stop()


async def test_two_processes_time_out_a_game_once(db_path: Db, clock: FakeClock) -> None:
    first = await make_service(db_path, clock)
    second = await make_service(db_path, clock)
    try:
        import asyncio

        started = await start_people(first, 1)
        await second.board(1)  # both have the game cached
        clock.advance(3601)
        both = await asyncio.gather(first.timeout(started.game.id), second.timeout(started.game.id))
        assert sum(r is not None for r in both) == 1
        assert await Scheduler(first).tick() == [] and await Scheduler(second).tick() == []
        stats = await first.stats(GUILD, BOB.user_id)
        assert stats.ratings[0].games == 1  # rated once
    finally:
        await close_service(first)
        await close_service(second)


def test_every_duration_shown_in_arabic_reads_back() -> None:
    """Play-test: the Arabic settings show "1س" and "10د", and ``turn_timeout:2س`` was "not a duration"."""
    shown = [*range(MIN_SECONDS, 3 * 3600, 7), *range(MIN_SECONDS, MAX_SECONDS + 1, 997), MAX_SECONDS]
    for seconds in shown:
        assert parse_duration(format_duration(seconds, "ar")) == seconds, format_duration(seconds, "ar")
    assert parse_duration("2س") == 7200 and parse_duration(" ١س ٣٠د ") == 5400 and parse_duration("3ي") == 259200


def test_long_arabic_durations_are_refused_at_once() -> None:
    for text in ("1س" * 50_000, "9" * 99_999 + "س", "1د " * 33_333 + "x", "س" * 100_000, "١" * 99_999 + "ث"):
        started = time.perf_counter()
        with pytest.raises(DurationError):
            parse_duration(text)
        assert time.perf_counter() - started < 0.5


@pytest.mark.parametrize(("offer", "accept"), [("offer_draw", "accept_draw"), ("offer_end", "accept_end")])
async def test_an_offer_accepted_after_the_deadline_ends_on_time(
    service: GameService, clock: FakeClock, offer: str, accept: str
) -> None:
    """Outside review atk41d F4: a move after the deadline lost on time, yet accepting the
    opponent's draw (or end by count) then still drew the game: out of time, Alice turned
    her loss into a rated draw before the scheduler woke."""
    await service.set_settings(GUILD, turn_timeout="30s", moderator=MOD)
    started = await start_people(service, 1)
    mover = (await place_all(service, 1, started, random.Random(4))).game
    assert mover.to_move is not None
    waiting = BOB if mover.to_move.user_id == ALICE.user_id else ALICE
    await getattr(service, offer)(1, waiting.user_id)
    clock.advance(30 + LATE_GRACE)
    over = (await getattr(service, accept)(1, mover.to_move.user_id)).game_over
    assert over is not None and over.reason == "timeout" and over.winner == waiting and over.rated
    assert not over.by_count
