"""A channel's challenges and the game started there (play-test findings), on both databases.

Both players pressed Rematch at once: two crossing challenges were posted; both were
accepted at once, one game started, and the other challenge stayed acceptable: pressed
once that game was over, it started a game nobody meant. Now a challenge answering the
opponent's pending challenge in the channel is not stored (the challenger accepts that
one), decided under the channel's lock; and a game started in a channel closes the
other challenges that would start their game there.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.results import ChallengeError, IllegalMoveError, NoGameError, Player
from bot.service import GameService
from tests.service.helpers import ALICE, BOB, CAROL, GUILD, MOD, insert_from, play_action, start_people

DAVE = Player(104, "Dave")


async def _pending(service: GameService, challenger: Player) -> list[int]:
    now = service.clock.now()
    return [c.id for c in await service.storage.pending_challenges_from(GUILD, challenger.user_id, now)]


async def test_a_challenge_answering_the_opponents_own_is_not_stored(service: GameService) -> None:
    made = await service.challenge(GUILD, 1, ALICE, BOB, color="white")
    crossed = await service.challenge(GUILD, 1, BOB, ALICE, color="black")
    assert crossed.crossing and crossed.challenge.id == made.challenge.id and crossed.ping is None
    assert crossed.challenge.challenger == ALICE and crossed.challenge.status == "pending"
    assert await _pending(service, BOB) == []
    # Bob accepts it (the adapter does so for him): one game, Alice's settings
    started = await service.accept_challenge(crossed.challenge.id, BOB.user_id)
    assert started.game.white == ALICE and started.game.black == BOB
    # in another channel, or once answered, a challenge back is a challenge of its own
    other = await service.challenge(GUILD, 2, BOB, ALICE)
    assert not other.crossing and other.challenge.challenger == BOB


async def test_a_challenge_back_with_other_settings_does_not_accept_on_the_others_terms(
    service: GameService,
) -> None:
    """Outside review (stop 38): Alice's challenge asking for 5x5 as black accepted Bob's
    waiting 7x7 challenge, in which Bob plays black, and the rated game started at once.
    Only a challenge asking for the same game accepts; any other is refused, naming the
    one waiting."""
    waiting = await service.challenge(GUILD, 1, BOB, ALICE, size=7, color="black")
    for size, color in ((5, "white"), (7, "black"), (5, "random")):
        with pytest.raises(ChallengeError, match="Bob's challenge to you is waiting here, with other settings"):
            await service.challenge(GUILD, 1, ALICE, BOB, size=size, color=color)
    assert await _pending(service, ALICE) == [] and await _pending(service, BOB) == [waiting.challenge.id]
    assert await service.storage.all_games() == []
    for color in ("white", "random"):  # the other colour, or left to chance: the same game
        crossed = await service.challenge(GUILD, 1, ALICE, BOB, size=7, color=color)
        assert crossed.crossing and crossed.challenge.id == waiting.challenge.id


async def test_crossing_challenges_sent_at_once_leave_one(service: GameService) -> None:
    """Both Rematch presses at the same instant: one challenge is stored, the other press
    is told to accept it; on PostgreSQL the two transactions take the channel's lock."""
    for channel in range(1, 6):
        results = await asyncio.gather(
            service.challenge(GUILD, channel, ALICE, BOB), service.challenge(GUILD, channel, BOB, ALICE)
        )
        stored = [r for r in results if not r.crossing]
        crossed = [r for r in results if r.crossing]
        assert len(stored) == 1 and len(crossed) == 1, results
        assert crossed[0].challenge.id == stored[0].challenge.id
        assert crossed[0].challenge.opponent == next(p for p in (ALICE, BOB) if p != stored[0].challenge.challenger)
        accepts = await asyncio.gather(
            service.accept_challenge(stored[0].challenge.id, stored[0].challenge.opponent.user_id),
            service.accept_challenge(stored[0].challenge.id, stored[0].challenge.opponent.user_id),
            return_exceptions=True,
        )
        assert sum(not isinstance(a, BaseException) for a in accepts) == 1, accepts
    assert len(await service.storage.all_games()) == 5


async def test_a_game_started_in_a_channel_closes_its_other_challenges(service: GameService) -> None:
    from_alice = await service.challenge(GUILD, 1, ALICE, BOB)
    from_carol = await service.challenge(GUILD, 1, CAROL, BOB)
    from_dave = await service.challenge(GUILD, 1, DAVE, CAROL, thread=True)  # its game gets a thread
    elsewhere = await service.challenge(GUILD, 2, DAVE, ALICE)
    started = await service.accept_challenge(from_alice.challenge.id, BOB.user_id)
    assert [c.id for c in started.closed_challenges] == [from_carol.challenge.id]
    closed = started.closed_challenges[0]
    assert closed.status == "closed" and closed.game_id == started.game.id
    assert (await service.get_challenge(from_dave.challenge.id)).status == "pending"
    assert (await service.get_challenge(elsewhere.challenge.id)).status == "pending"
    await service.resign(1, ALICE.user_id)
    # pressed once that game is over, it starts nothing
    with pytest.raises(ChallengeError, match="it was closed when a game started in this channel"):
        await service.accept_challenge(from_carol.challenge.id, BOB.user_id)
    assert await service.game(1) is None
    # a game against the bot closes them too
    again = await service.challenge(GUILD, 1, CAROL, BOB)
    against_bot = await service.play_bot(GUILD, 1, ALICE, "easy", color="black")
    assert [c.id for c in against_bot.closed_challenges] == [again.challenge.id]


async def test_challenges_accepted_at_once_in_one_channel_start_one_game(service: GameService) -> None:
    """Bob accepts two challenges at once: one game; the other challenge is closed (never
    left open to start a game once this one is over)."""
    made = [await service.challenge(GUILD, 1, p, BOB) for p in (ALICE, CAROL)]
    outcome = await asyncio.gather(
        *(service.accept_challenge(m.challenge.id, BOB.user_id) for m in made), return_exceptions=True
    )
    assert sum(not isinstance(o, BaseException) for o in outcome) == 1, outcome
    statuses = sorted([(await service.get_challenge(m.challenge.id)).status for m in made])
    assert statuses == ["accepted", "closed"]


async def test_a_player_accepting_their_own_offer_is_told_who_decides(service: GameService) -> None:
    """Play-test: Alice pressing Accept the draw on her own offer was told "There is no
    draw offer for you to answer; offer one with /seega draw"."""
    await insert_from(service, 1, "bbb2/5/5/5/ww3 b m 0/0 - 0 30", ALICE, BOB)
    await service.offer_draw(1, ALICE.user_id)
    with pytest.raises(IllegalMoveError) as own:
        await service.accept_draw(1, ALICE.user_id)
    assert str(own.value) == "You offered this draw; Bob decides (you can withdraw it with **Withdraw** on its button)."
    assert "والقرار لـBob" in own.value.text("ar")
    await service.decline_draw(1, ALICE.user_id)
    await service.move(1, ALICE.user_id, "a5", "a4")
    await service.move(1, BOB.user_id, "a1", "a2")
    await service.offer_end(1, ALICE.user_id)
    with pytest.raises(IllegalMoveError) as own_end:
        await service.accept_end(1, ALICE.user_id)
    expected = "You offered to end by count; Bob decides (you can withdraw it with **Withdraw** on its button)."
    assert str(own_end.value) == expected
    with pytest.raises(IllegalMoveError, match="no draw offer for you"):  # Bob: there is none
        await service.accept_draw(1, BOB.user_id)


async def test_the_record_by_default_is_the_channels_last_game_played(service: GameService) -> None:
    """Play-test: ``/seega record`` picked an empty cancelled game (#3, ``[Result "*"]``)
    over the real finished game #2 before it."""
    with pytest.raises(NoGameError):
        await service.check_record(GUILD, None, 1)
    first = await start_people(service, 1)
    with pytest.raises(NoGameError):  # started, no turn played: nothing to record yet
        await service.check_record(GUILD, None, 1)
    await play_action(service, 1, ALICE.user_id, "a1 b1")
    await service.resign(1, BOB.user_id)
    second = await start_people(service, 1)
    await service.cancel(1, MOD)
    assert await service.check_record(GUILD, None, 1) == first.game.id
    rec = await service.record(GUILD, None, 1, replay=False)
    assert rec.game_id == first.game.id and '[Result "' in rec.sgn and '[Result "*"]' not in rec.sgn
    assert await service.check_record(GUILD, second.game.id, 1) == second.game.id  # by number, any game
    third = await start_people(service, 1)
    await play_action(service, 1, third.game.black.user_id, "a1 b1")
    assert await service.check_record(GUILD, None, 1) == third.game.id  # the one in progress, once played
