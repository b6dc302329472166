"""A game's channel, thread or server deleted under the bot: the game ends unrated, abandoned.

Outside review atk41c, F1: the game stayed active, nobody could reach or cancel it, and
an hour later the player to move lost it rated on time (a moderator who played could
delete the thread to win). F6: the channel's pending challenges held their challenger's
places for days. Each test deletes as Discord does and reads the stored result.

Outside review atk41d, F1: a moderator who plays, refused ``/seega cancel`` of their own
game, deleted its thread to void the game they were losing. The bot now reads the
server's audit log for who deleted the place: one of the game's players has resigned.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.ai_pool import ThreadAiRunner
from bot.clock import FakeClock
from bot.results import GameSummary
from bot.service import GameService
from bot.storage import Storage
from bot.wording import ending_text
from tests.discord.fake_discord import THREAD_DELETE, FakeDiscord
from tests.discord.harness import TOKEN, Harness, make_settings, running, start_bot, stop_bot

HOUR = 3600.0


async def settled(h: Harness | GameService, game_id: int) -> GameSummary:
    """The game once it is no longer active (the deletion's event is handled in the background)."""
    service = h if isinstance(h, GameService) else h.bot.service
    for _ in range(200):
        game = await service.get_game(game_id)
        assert game is not None
        if game.status != "active":
            return game
        await asyncio.sleep(0.02)
    raise AssertionError(f"game {game_id} is still active")


def assert_abandoned(game: GameSummary) -> None:
    assert (game.status, game.result, game.reason) == ("cancelled", "*", "abandoned"), game


async def start_game(h: Harness, channel: int) -> int:
    """Alice (Black) and Bob play in ``channel``; Alice has placed, Bob is to move."""
    challenge = await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "color": "black"}, channel_id=channel)
    await h.click(h.bob, challenge.reply, "Accept", followup=True)
    await h.slash(h.alice, "place", {"first": "a1", "second": "b1"}, channel_id=channel)
    game = await h.bot.service.game(channel)
    assert game is not None
    return game.id


async def start_thread_game(h: Harness, challenger: int | None = None, opponent: int | None = None) -> tuple[int, int]:
    """A thread challenge (``challenger`` Black; Alice, White, against Bob by default)
    accepted: the game's id and its thread."""
    color = "white" if challenger is None else "black"
    challenger, opponent = challenger or h.alice, opponent or h.bob
    challenge = await h.slash(challenger, "seega challenge", {"opponent": opponent, "color": color, "thread": True})
    await h.click(opponent, challenge.reply, "Accept")
    thread = await h.fake.wait_for(
        lambda: next((c for c, v in h.fake.channels.items() if v.get("type") == 11), None), what="the game's thread"
    )
    await h.idle()
    game = await h.bot.service.game(thread)
    assert game is not None
    return game.id, thread


async def start_mod_thread_game(h: Harness) -> tuple[int, int]:
    """The moderator (Black) challenges Alice in a thread, and she accepts: the game's id
    and its thread. The moderator may not cancel it: they play in it."""
    game_id, thread = await start_thread_game(h, h.mod, h.alice)
    game = await h.bot.service.game(thread)
    assert game is not None and game.black.user_id == h.mod
    refused = await h.slash(h.mod, "seega cancel", channel_id=thread)
    assert refused.reply.ephemeral and "cannot cancel" in refused.reply.text, refused.reply.text
    return game_id, thread


def audit_log_reads(h: Harness) -> list[tuple[str, str]]:
    """The bot's requests for the server's audit log: (path, query)."""
    return [(r.path, r.query) for r in h.fake.requests if r.path.endswith("/audit-logs")]


async def new_channel(h: Harness, name: str) -> int:
    channel = h.fake.add_channel(name)
    await h.fake.dispatch("GUILD_CREATE", h.fake.guild_payload())
    return channel


async def test_a_deleted_channel_ends_its_game_unrated_and_closes_its_challenges(tmp_path: Path) -> None:
    clock = FakeClock()
    async with running(tmp_path, clock=clock) as h:
        room = await new_channel(h, "room-2")
        game_id = await start_game(h, room)
        # A challenge waiting in the channel (a thread one: the channel has a game).
        waiting = await h.slash(h.carol, "seega challenge", {"opponent": h.mod, "thread": True}, channel_id=room)
        assert not waiting.reply.ephemeral

        await h.fake.delete_channel(room)

        assert_abandoned(await settled(h, game_id))
        assert await h.bot.service.leaderboard(h.fake.guild_id) == []
        assert (await h.bot.service.stats(h.fake.guild_id, h.bob)).active_games == 0
        assert [c.status for c in await h.bot.service.storage.pending_challenges_in(room)] == []
        # Carol's place is free: a new challenge to the same person is posted, not refused.
        again = await h.slash(h.carol, "seega challenge", {"opponent": h.mod})
        assert not again.reply.ephemeral, again.reply.text
        # Bob's turn time passes: nothing is rated.
        clock.advance(HOUR + 5)
        await asyncio.sleep(0.3)
        assert_abandoned(await settled(h, game_id))
        assert await h.bot.service.leaderboard(h.fake.guild_id) == []


@pytest.mark.parametrize("deleted", ["thread", "parent channel"])
async def test_a_thread_game_ends_unrated_when_its_thread_or_its_channel_is_deleted(
    tmp_path: Path, deleted: str
) -> None:
    """The abuse of atk41c: a moderator who plays deletes the thread on the opponent's turn."""
    clock = FakeClock()
    async with running(tmp_path, clock=clock) as h:
        game_id, thread = await start_thread_game(h)
        await h.fake.delete_channel(thread if deleted == "thread" else h.fake.channel_id)
        assert_abandoned(await settled(h, game_id))
        clock.advance(HOUR + 5)
        await asyncio.sleep(0.3)
        assert_abandoned(await settled(h, game_id))
        assert await h.bot.service.leaderboard(h.fake.guild_id) == []


async def test_a_server_the_bot_leaves_has_its_games_abandoned_and_its_challenges_closed(tmp_path: Path) -> None:
    async with running(tmp_path) as h:
        room = await new_channel(h, "room-2")
        game_id = await start_game(h, room)
        waiting = await h.slash(h.carol, "seega challenge", {"opponent": h.mod})
        challenge_id = int(waiting.reply.button("Accept")["custom_id"].rsplit(":", 1)[1])

        # Discord's outage of a server is not a removal: nothing ends.
        await h.fake.dispatch("GUILD_DELETE", {"id": str(h.fake.guild_id), "unavailable": True})
        await asyncio.sleep(0.3)
        assert (await h.bot.service.game(room)) is not None

        await h.fake.dispatch("GUILD_DELETE", {"id": str(h.fake.guild_id)})
        assert_abandoned(await settled(h, game_id))
        assert (await h.bot.service.get_challenge(challenge_id)).status == "closed"
        assert await h.bot.service.leaderboard(h.fake.guild_id) == []


async def test_a_reminder_that_meets_unknown_channel_abandons_the_game(tmp_path: Path) -> None:
    """The deletion's event was missed with the bot up (its cache still holds the channel):
    the reminder's post is answered "Unknown Channel", and the game ends unrated then."""
    clock = FakeClock()
    async with running(tmp_path, clock=clock) as h:
        room = await new_channel(h, "room-2")
        game_id = await start_game(h, room)
        await h.fake.delete_channel(room, tell=False)
        clock.advance(HOUR / 2 + 1)
        assert_abandoned(await settled(h, game_id))
        clock.advance(HOUR)
        await asyncio.sleep(0.3)
        assert await h.bot.service.leaderboard(h.fake.guild_id) == []


@pytest.mark.parametrize("timer", ["reminder", "timeout"])
async def test_a_channel_deleted_while_the_bot_was_down_abandons_its_game_when_its_timer_comes(
    tmp_path: Path, timer: str
) -> None:
    """No event tells a bot that was down: the timer finds Discord's "Unknown Channel"
    and ends the game unrated, where the timeout rated Bob's loss."""
    clock = FakeClock()
    fake = FakeDiscord(TOKEN)
    fake.clock = clock.now
    await fake.start()
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    mod = fake.add_user("mod", moderator=True)
    settings = make_settings(fake, tmp_path / "seega.db")
    storage = await Storage.open(settings.db_path)
    ai = ThreadAiRunner()
    try:
        service = GameService(storage, ai, None, clock=clock)
        bot, task = await start_bot(fake, settings, service=service)
        h = Harness(fake, bot, alice, bob, carol, mod)
        room = await new_channel(h, "room-2")
        game_id = await start_game(h, room)
        await stop_bot(bot, task)
        await fake.drop_connections()

        await fake.delete_channel(room, tell=False)  # nobody listening
        service = GameService(storage, ai, None, clock=clock)
        bot, task = await start_bot(fake, settings, service=service)
        try:
            clock.advance(HOUR / 2 + 1 if timer == "reminder" else HOUR + 5)
            assert_abandoned(await settled(service, game_id))
            assert await service.leaderboard(fake.guild_id) == []
        finally:
            await stop_bot(bot, task)
    finally:
        await fake.close()
        ai.close()
        await storage.close()


@pytest.mark.parametrize("deleted", ["thread", "parent channel"])
async def test_a_player_who_deletes_the_games_thread_or_its_channel_resigns_rated(tmp_path: Path, deleted: str) -> None:
    """atk41d F1: the playing moderator deletes the thread (or its channel) of the game
    they may not cancel: the audit log names them, and they lose it rated, by resignation."""
    async with running(tmp_path) as h:
        game_id, thread = await start_mod_thread_game(h)
        await h.fake.delete_channel(thread if deleted == "thread" else h.fake.channel_id, by=h.mod)

        game = await settled(h, game_id)
        assert (game.status, game.result, game.reason) == ("finished", "0-1", "resignation"), game
        board = {e.user_id: e for e in await h.bot.service.leaderboard(h.fake.guild_id)}
        assert (board[h.alice].wins, board[h.mod].losses) == (1, 1)
        assert board[h.alice].rating > 1500 > board[h.mod].rating
        # The history reads it as the moderator's resignation.
        assert ending_text(game, "en") == "Alice wins: Mod resigned.", ending_text(game, "en")
        if deleted == "thread":  # the parent channel is told, and the winner pinged (play-test pt41)
            said = await h.fake.wait_for(
                lambda: next((m for m in h.fake.channel_messages() if "deleted the thread" in m.text), None),
                what="the parent channel told",
            )
            assert (
                "Mod deleted the thread of game #1 (Mod vs Alice)" in said.text and "counts as resigning" in said.text
            )
            assert said.pinged_user_ids() == {h.alice}, said.text


async def test_a_moderator_who_does_not_play_deleting_the_thread_still_abandons_the_game(tmp_path: Path) -> None:
    """The audit log names a moderator who is not a player: the game is abandoned,
    unrated, as before (the bot did read the log: the thread's deletion, newest first)."""
    async with running(tmp_path) as h:
        game_id, thread = await start_thread_game(h)
        await h.fake.delete_channel(thread, by=h.mod)

        assert_abandoned(await settled(h, game_id))
        assert await h.bot.service.leaderboard(h.fake.guild_id) == []
        said = await h.fake.wait_for(
            lambda: next((m for m in h.fake.channel_messages() if "was deleted" in m.text), None),
            what="the parent channel told",
        )
        assert "ends without a result and is not rated" in said.text and said.pinged_user_ids() == set(), said.text
        reads = audit_log_reads(h)
        assert reads and f"action_type={THREAD_DELETE}" in reads[0][1], reads


async def test_without_view_audit_log_a_player_deleting_the_thread_abandons_the_game(tmp_path: Path) -> None:
    """Without View Audit Log the bot cannot tell who deleted the thread (Discord answers
    403): the game is abandoned, unrated, even though its player deleted it."""
    async with running(tmp_path) as h:
        game_id, thread = await start_mod_thread_game(h)
        h.fake.view_audit_log = False
        await h.fake.delete_channel(thread, by=h.mod)

        assert_abandoned(await settled(h, game_id))
        assert await h.bot.service.leaderboard(h.fake.guild_id) == []
        assert len(audit_log_reads(h)) == 1  # asked once, refused: not asked again


async def test_a_player_who_deletes_the_games_channel_resigns_rated(tmp_path: Path) -> None:
    """The same in a channel (its deletion's own audit log entry): Bob deletes it on his turn."""
    async with running(tmp_path) as h:
        room = await new_channel(h, "room-2")
        game_id = await start_game(h, room)
        await h.fake.delete_channel(room, by=h.bob)
        game = await settled(h, game_id)
        assert (game.status, game.result, game.reason) == ("finished", "1-0", "resignation"), game
        assert {e.user_id for e in await h.bot.service.leaderboard(h.fake.guild_id)} == {h.alice, h.bob}


async def test_a_person_deleting_their_game_against_the_bot_names_the_bot_as_winner(tmp_path: Path) -> None:
    """Review atk41e F3: the parent channel read "that counts as resigning. <@0> wins.":
    the bot is named, not mentioned, and nobody is pinged."""
    async with running(tmp_path) as h:
        thread = await h.fake.add_thread(11, h.alice)
        await h.idle()
        await h.slash(h.alice, "seega play-bot", {"level": "easy", "color": "black"}, channel_id=thread)
        await h.idle()
        await h.fake.delete_channel(thread, by=h.alice)
        said = await h.fake.wait_for(
            lambda: next((m for m in h.fake.channel_messages() if "deleted the thread" in m.text), None),
            what="the parent channel told",
        )
        assert "Seega bot (easy) wins." in said.text and "<@" not in said.text, said.text
        assert said.pinged_user_ids() == set()


async def test_a_private_threads_game_is_not_announced_in_its_parent(tmp_path: Path) -> None:
    """The parent channel is told how a deleted thread's game ended; a private thread's
    game is not said there (the parent's readers could not see it: review of stop 41)."""
    async with running(tmp_path) as h:
        private = await h.fake.add_thread(12, h.alice)
        await h.idle()
        game_id = await start_game(h, private)
        await h.fake.delete_channel(private)

        assert_abandoned(await settled(h, game_id))
        await h.idle()
        said = [m.text for m in h.fake.channel_messages() if "was deleted" in m.text or "deleted the thread" in m.text]
        assert said == [], said
