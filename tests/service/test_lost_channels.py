"""What a deleted channel, thread or server held ends: games abandoned unrated, challenges
closed (outside review atk41c, F1 and F6), on both databases; and the scheduler that
finds a game's channel gone before its timer acts abandons the game instead of rating it."""

from __future__ import annotations

import asyncio

from bot.clock import FakeClock
from bot.results import BOT_USER_ID, Player, TimerEvent
from bot.scheduler import Scheduler
from bot.service import GameService
from tests.service.helpers import ALICE, BOB, CAROL, GUILD, start_people

DAVE = Player(104, "Dave")
OTHER_GUILD = GUILD + 1


async def _status(service: GameService, game_id: int) -> tuple[str, str | None, str | None]:
    game = await service.get_game(game_id)
    assert game is not None
    return game.status, game.result, game.reason


async def test_a_deleted_channel_abandons_its_game_and_closes_only_its_challenges(service: GameService) -> None:
    started = await start_people(service, 1)
    await service.place(1, ALICE.user_id, "a1 b1")
    here = await service.challenge(GUILD, 1, CAROL, DAVE, thread=True)  # a thread challenge: the channel has a game
    elsewhere = await service.challenge(GUILD, 2, CAROL, BOB)

    gone = await service.channel_deleted(1)

    assert [g.id for g in gone.games] == [started.game.id]
    assert [(c.id, c.status) for c in gone.challenges] == [(here.challenge.id, "closed")]
    assert await _status(service, started.game.id) == ("cancelled", "*", "abandoned")
    assert await service.game(1) is None
    assert await service.leaderboard(GUILD) == []  # unrated: nobody's rating moved
    assert (await service.get_challenge(here.challenge.id)).status == "closed"
    assert (await service.get_challenge(elsewhere.challenge.id)).status == "pending"
    # Carol's place is free again: the same challenge may be sent.
    assert not (await service.challenge(GUILD, 3, CAROL, DAVE)).crossing
    again = await service.channel_deleted(1)  # a second event (the raw one, another shard)
    assert again.games == () and again.challenges == ()


async def test_a_channel_deleted_by_one_of_its_players_is_their_resignation_rated(service: GameService) -> None:
    """Outside review atk41d, F1: the adapter names who deleted the channel (Discord's
    audit log). A player: they resign, rated, as with /seega resign. Anybody else: the
    game is abandoned, unrated, as before."""
    mine = await start_people(service, 1)  # Alice (Black) vs Bob
    theirs = await start_people(service, 2, CAROL, DAVE)

    gone = await service.channel_deleted(1, BOB.user_id)
    assert [(g.id, g.status, g.result, g.reason) for g in gone.games] == [
        (mine.game.id, "finished", "1-0", "resignation")
    ]
    assert await _status(service, mine.game.id) == ("finished", "1-0", "resignation")
    rated = {e.user_id: e for e in await service.leaderboard(GUILD)}
    assert set(rated) == {ALICE.user_id, BOB.user_id}
    assert rated[ALICE.user_id].rating > rated[BOB.user_id].rating

    await service.channel_deleted(2, ALICE.user_id)  # not a player there
    assert await _status(service, theirs.game.id) == ("cancelled", "*", "abandoned")
    assert {e.user_id for e in await service.leaderboard(GUILD)} == {ALICE.user_id, BOB.user_id}


async def test_a_game_against_the_bot_is_resigned_only_by_its_person(service: GameService) -> None:
    """Only a person resigns by deleting: the AI's id (which Discord never names) abandons."""
    first = await service.play_bot(GUILD, 3, CAROL, "easy", 5, None, "black", bot_reply=False)
    second = await service.play_bot(GUILD, 4, CAROL, "easy", 5, None, "black", bot_reply=False)
    await service.channel_deleted(3, BOT_USER_ID)
    assert await _status(service, first.game.id) == ("cancelled", "*", "abandoned")
    await service.channel_deleted(4, CAROL.user_id)
    assert await _status(service, second.game.id) == ("finished", "0-1", "resignation")


async def test_a_guild_left_abandons_its_games_and_closes_its_challenges(service: GameService) -> None:
    first = await start_people(service, 1)
    second = await start_people(service, 2, CAROL, DAVE)
    waiting = await service.challenge(GUILD, 3, ALICE, CAROL)
    other_guild = await service.challenge(OTHER_GUILD, 4, ALICE, CAROL)

    gone = await service.guild_left(GUILD)

    assert sorted(g.id for g in gone.games) == sorted([first.game.id, second.game.id])
    assert [c.id for c in gone.challenges] == [waiting.challenge.id]
    for game in (first.game, second.game):
        assert await _status(service, game.id) == ("cancelled", "*", "abandoned")
    assert (await service.get_challenge(other_guild.challenge.id)).status == "pending"
    assert await service.leaderboard(GUILD) == []


async def test_a_timer_of_a_deleted_channel_abandons_its_game_instead_of_rating_it(
    service: GameService, clock: FakeClock
) -> None:
    started = await start_people(service, 1)
    kept = await start_people(service, 2, CAROL, DAVE)
    events: list[TimerEvent] = []

    async def on_event(event: TimerEvent) -> None:
        events.append(event)

    async def channel_gone(channel_id: int) -> bool:
        if channel_id == 3:
            raise OSError("Discord could not be asked")
        return channel_id == 1

    scheduler = Scheduler(service, on_event, channel_gone=channel_gone)
    clock.advance(1801)  # the reminders are due
    await scheduler.tick()
    assert await _status(service, started.game.id) == ("cancelled", "*", "abandoned")
    assert [(e.kind, e.game.id if e.game else None) for e in events] == [("reminder", kept.game.id)]
    # A check that fails is no deletion: the timeout stays what it was, rated.
    failing = await start_people(service, 3, BOB, ALICE)
    clock.advance(3601)
    await scheduler.tick()
    assert await _status(service, failing.game.id) == ("finished", "0-1", "timeout")
    assert await _status(service, kept.game.id) == ("finished", "0-1", "timeout")
    assert {e.name for e in await service.leaderboard(GUILD)} == {"Alice", "Bob", "Carol", "Dave"}


async def test_two_deletion_events_at_once_end_the_game_once(service: GameService) -> None:
    """Discord may send a thread's deletion twice (its own event and its parent's), to two
    processes at once: one of them ends the game, rated once by the deleter's
    resignation; the other finds nothing left to end."""
    started = await start_people(service, 1)
    first, second = await asyncio.gather(
        service.channel_deleted(1, ALICE.user_id), service.channel_deleted(1, ALICE.user_id)
    )
    assert sorted([len(first.games), len(second.games)]) == [0, 1]
    assert await _status(service, started.game.id) == ("finished", "0-1", "resignation")
    board = {e.user_id: e for e in await service.leaderboard(GUILD)}
    assert (board[BOB.user_id].wins, board[ALICE.user_id].losses) == (1, 1), "rated once"
