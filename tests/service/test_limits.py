"""Per-user limits (docs/limits.md): challenges, games and the AI line; nothing one person
does fills the bot for everyone else."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.ai_pool import ThreadAiRunner
from bot.clock import FakeClock
from bot.results import Player
from bot.service import GameService
from bot.service.limits import LimitError, Limits
from bot.storage import Storage
from engine.ai import TurnRequest
from tests.service.helpers import ALICE, BOB, CAROL, GUILD, snapshot


async def test_one_pending_challenge_per_opponent_and_a_few_in_all(service: GameService, clock: FakeClock) -> None:
    await service.challenge(GUILD, 1, ALICE, BOB)
    refused = 0
    for _ in range(200):  # the flood of the review: 200 challenges to one opponent
        with pytest.raises(LimitError) as info:
            await service.challenge(GUILD, 1, ALICE, BOB, thread=True)
        refused += info.value.key == "challenge_already_pending"
    assert refused == 200 and "still waiting" in str(info.value)
    others = [Player(300 + i, f"P{i}") for i in range(3)]
    await service.challenge(GUILD, 2, ALICE, others[0])
    await service.challenge(GUILD, 3, ALICE, others[1])
    with pytest.raises(LimitError) as info:
        await service.challenge(GUILD, 4, ALICE, others[2])
    assert info.value.key == "too_many_challenges" and info.value.params == {"limit": 3}
    await service.challenge(GUILD, 4, BOB, others[2])  # the cap is per person
    clock.advance(601)  # the three expire: Alice may challenge again
    await service.challenge(GUILD, 4, ALICE, others[2])


async def test_a_declined_challenge_is_not_sent_again_at_once(service: GameService, clock: FakeClock) -> None:
    """Outside review atk41c F3 (s3_rechallenge_pings.py): Bob declined, Alice challenged
    him again at once, and again: each challenge pinged him, 180 an hour. Whoever declined
    is not challenged again by the same person for two minutes."""
    hold = Limits().rechallenge_after
    assert hold == 120
    first = await service.challenge(GUILD, 1, ALICE, BOB)
    clock.advance(300)  # declined long after it was made: the wait counts from the decline
    await service.decline_challenge(first.challenge.id, BOB.user_id)
    clock.advance(hold - 1)
    with pytest.raises(LimitError) as info:
        await service.challenge(GUILD, 2, ALICE, BOB, size=7)  # anywhere in the server, any game
    assert info.value.key == "challenge_declined_wait" and info.value.params == {"opponent": "Bob", "seconds": 1}
    assert str(info.value) == (
        "Bob declined your last challenge: you can challenge them again in 1 s"
        " (each challenge pings them, so not at once)."
    )
    other = await service.challenge(GUILD, 1, ALICE, CAROL)  # somebody else: as ever
    back = await service.challenge(GUILD, 3, BOB, ALICE)  # the other way round: as ever
    clock.advance(1)
    again = await service.challenge(GUILD, 1, ALICE, BOB)
    assert again.ping == BOB.user_id
    await service.decline_challenge(again.challenge.id, ALICE.user_id)  # withdrawn by Alice
    # Withdrawn to correct it (play-test pt41: a wrong size locked Alice out for 2
    # minutes): the corrected challenge goes at once.
    corrected = await service.challenge(GUILD, 1, ALICE, BOB, size=7)
    await service.decline_challenge(corrected.challenge.id, ALICE.user_id)
    crossing = await service.challenge(GUILD, 3, ALICE, BOB)  # Bob's own challenge waits there: accepting it is welcome
    assert crossing.crossing and crossing.challenge.id == back.challenge.id
    assert other.challenge.status == "pending"


async def test_active_games_per_person(service: GameService, db_path: Path) -> None:
    cap = service.games.limits.active_games
    for channel in range(1, cap + 1):
        await service.play_bot(GUILD, channel, ALICE, "easy", 5, None, "black")
    before = snapshot(db_path)
    with pytest.raises(LimitError) as info:
        await service.play_bot(GUILD, 99, ALICE, "easy", 5, None, "black")
    assert info.value.key == "too_many_games" and f"{cap} games" in str(info.value)
    with pytest.raises(LimitError):
        await service.challenge(GUILD, 99, ALICE, BOB)
    assert snapshot(db_path) == before
    made = await service.challenge(GUILD, 99, BOB, ALICE)  # Bob may ask; Alice cannot take it on
    with pytest.raises(LimitError) as info:
        await service.accept_challenge(made.challenge.id, ALICE.user_id)
    assert info.value.key == "too_many_games"
    await service.resign(1, ALICE.user_id)
    await service.accept_challenge(made.challenge.id, ALICE.user_id)


class GatedAi:
    """The real AI behind a gate the test opens."""

    def __init__(self) -> None:
        self.inner = ThreadAiRunner()
        self.gate = asyncio.Event()

    async def choose_turn(self, request: TurnRequest) -> list[str]:
        await self.gate.wait()
        return await self.inner.choose_turn(request)

    def close(self) -> None:
        self.inner.close()


async def test_the_ai_line_is_bounded_per_guild_and_per_person(db_path: Path) -> None:
    ai = GatedAi()
    limits = Limits(ai_running=1, ai_waiting=1, ai_per_user=1)
    service = GameService(await Storage.open(db_path), ai, None, FakeClock(), random.Random(1), limits)
    try:
        channels = {ALICE: (1, 2), BOB: (3,), CAROL: (4,)}
        for player, chans in channels.items():
            for channel in chans:
                await service.play_bot(GUILD, channel, player, "easy", 5, None, "black")

        async def move_then_bot(player: Player, channel: int) -> asyncio.Task[object]:
            played = await service.place(channel, player.user_id, "a1 b1", bot_reply=False)
            assert played.bot_to_move
            return asyncio.ensure_future(service.bot_turn(channel))

        line = service.games.ai_queue
        first = await move_then_bot(ALICE, 1)
        await asyncio.sleep(0.05)
        assert line.in_line(GUILD) == (1, 0)
        with pytest.raises(LimitError) as info:  # Alice's second game: her share is in use
            await service.place(2, ALICE.user_id, "a1 b1", bot_reply=False)
        assert info.value.key == "ai_busy_you" and info.value.params["seconds"] >= 1
        second = await move_then_bot(BOB, 3)  # Bob waits in line
        await asyncio.sleep(0.05)
        assert line.in_line(GUILD) == (1, 1)
        before = snapshot(db_path)
        with pytest.raises(LimitError) as info:  # the line is full: Carol is told when to come back
            await service.place(4, CAROL.user_id, "a1 b1", bot_reply=False)
        assert info.value.key == "ai_busy" and "busy in this server" in str(info.value)
        assert f"{info.value.params['seconds']} s" in str(info.value)
        assert snapshot(db_path) == before, "a refused move changes nothing"
        ai.gate.set()
        for task in (first, second):
            assert (await task).events  # type: ignore[attr-defined]
        assert line.in_line(GUILD) == (0, 0)
        await service.place(4, CAROL.user_id, "a1 b1")  # room again: the bot replies at once
        await service.place(2, ALICE.user_id, "a1 b1")
    finally:
        await service.storage.close()
        ai.close()


async def test_a_bot_turn_due_but_not_yet_started_holds_the_persons_share(db_path: Path) -> None:
    """The line was checked before a move and joined only when the bot's turn started: on
    Discord after the move's answer is sent, a moment later. A member's moves in their
    bot games sent together all passed the check (each saw nobody of theirs in line), and
    their bot turns then took every slot of the server: one person per line held only
    for people slower than a script. Now a move that hands the turn to the bot keeps the
    person's place from the check until that bot turn joins the line."""
    ai = GatedAi()
    limits = Limits(ai_running=2, ai_waiting=8, ai_per_user=1)
    service = GameService(await Storage.open(db_path), ai, None, FakeClock(), random.Random(1), limits)
    try:
        for channel in (1, 2, 3):
            await service.play_bot(GUILD, channel, ALICE, "easy", 5, None, "black")
        await service.play_bot(GUILD, 4, BOB, "easy", 5, None, "black")
        line = service.games.ai_queue
        sent = await asyncio.gather(
            *(service.place(channel, ALICE.user_id, "a1 b1", bot_reply=False) for channel in (1, 2, 3)),
            return_exceptions=True,
        )
        accepted = [c for c, r in zip((1, 2, 3), sent, strict=True) if not isinstance(r, BaseException)]
        refused = [r for r in sent if isinstance(r, LimitError)]
        assert len(accepted) == 1 and len(refused) == 2, f"{len(accepted)} of Alice's three bot turns let in"
        assert all(r.key == "ai_busy_you" for r in refused)
        with pytest.raises(LimitError):  # and one after the other, before her bot has begun
            await service.place(2 if accepted != [2] else 3, ALICE.user_id, "a1 b1", bot_reply=False)
        assert (await service.place(4, BOB.user_id, "a1 b1", bot_reply=False)).bot_to_move  # Bob is not held up
        turns = [asyncio.ensure_future(service.bot_turn(c)) for c in (*accepted, 4)]
        await asyncio.sleep(0.05)
        assert line.in_line(GUILD) == (2, 0)
        ai.gate.set()
        for task in turns:
            assert (await task).events
        assert line.in_line(GUILD) == (0, 0)
        await service.place(2 if accepted != [2] else 3, ALICE.user_id, "a1 b1")  # her turn again: let in
    finally:
        await service.storage.close()
        ai.close()


async def test_one_person_has_one_bot_turn_in_the_whole_process(db_path: Path) -> None:
    """The share of one bot turn per person was per server: a member playing the bot in
    eight servers (servers anyone can make and invite the bot to) had eight bot turns
    thinking or waiting at once, every AI worker, and a player of another server waited
    five times as long (the outside review's ai_across_guilds.py). Now the share is
    the person's in the whole process: their other servers' moves get the same busy
    answer as a second game in one server, and nobody else is held up."""
    ai = GatedAi()
    limits = Limits(ai_running=2, ai_waiting=8, ai_per_user=1)
    service = GameService(await Storage.open(db_path), ai, None, FakeClock(), random.Random(1), limits)
    guilds = [GUILD + 100 + i for i in range(8)]
    try:
        for i, guild in enumerate(guilds):
            await service.play_bot(guild, 10 + i, ALICE, "easy", 5, None, "black")
        await service.play_bot(GUILD, 99, BOB, "easy", 5, None, "black")
        line = service.games.ai_queue
        sent = await asyncio.gather(  # sent together: one bot turn let in
            *(service.place(10 + i, ALICE.user_id, "a1 b1", bot_reply=False) for i in range(8)),
            return_exceptions=True,
        )
        accepted = [10 + i for i, r in enumerate(sent) if not isinstance(r, BaseException)]
        refused = [r for r in sent if isinstance(r, LimitError)]
        assert len(accepted) == 1 and len(refused) == 7, f"{len(accepted)} of Alice's 8 bot turns let in"
        assert all(r.key == "ai_busy_you" and r.params["seconds"] >= 1 for r in refused)
        turn = asyncio.ensure_future(service.bot_turn(accepted[0]))
        await asyncio.sleep(0.05)
        assert sum(line.in_line(g)[0] for g in guilds) == 1
        other = 11 if accepted[0] != 11 else 12
        with pytest.raises(LimitError) as info:  # one after the other: still hers while it thinks
            await service.place(other, ALICE.user_id, "a1 b1", bot_reply=False)
        assert info.value.key == "ai_busy_you"
        # said as the person's own share, not the server's: "busy in this server" was
        # wrong when the other game is in another server
        assert str(info.value).startswith("The bot is still answering you in another game; try again in "), info.value
        assert (await service.place(99, BOB.user_id, "a1 b1", bot_reply=False)).bot_to_move  # Bob is not held up
        bob = asyncio.ensure_future(service.bot_turn(99))
        await asyncio.sleep(0.05)
        assert line.in_line(GUILD) == (1, 0), "Bob's bot thinks at once"
        ai.gate.set()
        assert (await turn).events and (await bob).events
        await service.place(other, ALICE.user_id, "a1 b1")  # her bot is done: let in again
    finally:
        await service.storage.close()
        ai.close()


async def test_games_started_at_once_never_pass_the_cap(service: GameService, db_path: Path) -> None:
    """The count and the insert were two steps: games started together (several
    channels, one click each) all read the same count under the cap and all began,
    one person past the cap by as many as they sent at once."""
    cap = service.games.limits.active_games
    for channel in range(1, cap):
        await service.play_bot(GUILD, channel, ALICE, "easy", 5, None, "black")
    tries = [service.play_bot(GUILD, 100 + i, ALICE, "easy", 5, None, "black") for i in range(6)]
    outcome = await asyncio.gather(*tries, return_exceptions=True)
    refused = [o for o in outcome if isinstance(o, LimitError)]
    assert len(refused) == 5 and {e.key for e in refused} == {"too_many_games"}
    assert await service.storage.active_count(GUILD, ALICE.user_id) == cap


async def test_challenges_accepted_at_once_never_pass_the_cap(service: GameService) -> None:
    """Alice, one game short of the cap, accepts three challenges at once (and the
    challengers are named when it is their count that is full)."""
    cap = service.games.limits.active_games
    for channel in range(1, cap):
        await service.play_bot(GUILD, channel, ALICE, "easy", 5, None, "black")
    others = [Player(300 + i, f"P{i}") for i in range(3)]
    made = [await service.challenge(GUILD, 50 + i, p, ALICE) for i, p in enumerate(others)]
    outcome = await asyncio.gather(
        *(service.accept_challenge(m.challenge.id, ALICE.user_id) for m in made), return_exceptions=True
    )
    assert sum(isinstance(o, LimitError) and o.key == "too_many_games" for o in outcome) == 2
    assert await service.storage.active_count(GUILD, ALICE.user_id) == cap
    from_bob = await service.challenge(GUILD, 70, BOB, CAROL)
    for channel in range(60, 60 + cap):  # Bob then fills his games: Carol's refusal names him
        await service.play_bot(GUILD, channel, BOB, "easy", 5, None, "black")
    with pytest.raises(LimitError) as info:
        await service.accept_challenge(from_bob.challenge.id, CAROL.user_id)
    assert info.value.key == "opponent_too_many_games" and info.value.params["player"] == BOB.name


async def test_challenges_sent_at_once_never_pass_the_caps(service: GameService) -> None:
    """Ten challenges sent together to one person store one; to ten people, three."""
    outcome = await asyncio.gather(
        *(service.challenge(GUILD, 1, ALICE, BOB, thread=True) for _ in range(10)), return_exceptions=True
    )
    assert sum(isinstance(o, LimitError) and o.key == "challenge_already_pending" for o in outcome) == 9
    others = [Player(300 + i, f"P{i}") for i in range(10)]
    outcome = await asyncio.gather(
        *(service.challenge(GUILD, 1, CAROL, p, thread=True) for p in others), return_exceptions=True
    )
    assert sum(isinstance(o, LimitError) and o.key == "too_many_challenges" for o in outcome) == 7
    now = service.games.clock.now()
    assert len(await service.storage.pending_challenges_from(GUILD, CAROL.user_id, now)) == 3
