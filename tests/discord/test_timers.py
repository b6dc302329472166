"""Turn timers and challenge expiry, announced in the channel (a fake clock moves time)."""

from __future__ import annotations

from pathlib import Path

from bot.ai_pool import AiUnavailableError, ThreadAiRunner
from bot.clock import FakeClock
from engine.ai import TurnRequest
from tests.discord.harness import running


async def test_reminder_timeout_and_expired_challenge(tmp_path: Path) -> None:
    clock = FakeClock()
    async with running(tmp_path, clock=clock) as h:
        await h.slash(h.mod, "seega settings", {"turn_timeout": "1m", "challenge_timeout": "1m"})
        stale = (await h.slash(h.carol, "seega challenge", {"opponent": h.alice})).reply
        other = h.fake.add_channel("other")
        await h.fake.dispatch("GUILD_CREATE", h.fake.guild_payload())
        challenge = (
            await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "color": "black"}, channel_id=other)
        ).reply
        await h.click(h.bob, challenge, "Accept", followup=True)
        await h.slash(h.alice, "place", {"first": "a1", "second": "b1"}, channel_id=other)

        clock.advance(31)
        reminder = await h.fake.wait_for(
            lambda: next((m for m in h.fake.channel_messages(other) if "half of your time" in m.text), None),
            what="the half-time reminder",
        )
        assert reminder.pinged_user_ids() == {h.bob}

        clock.advance(30)
        over = await h.fake.wait_for(
            lambda: next((m for m in h.fake.channel_messages(other) if "Bob ran out of time" in m.text), None),
            what="the timeout",
        )
        assert "Alice wins: Bob ran out of time." in over.text
        assert await h.bot.service.game(other) is None

        await h.fake.wait_for(lambda: "expired" in stale.text, what="the challenge to expire")
        assert all(b.get("disabled") for b in stale.buttons())
        late = await h.fake.click_custom_id(h.alice, stale, stale.button("Accept")["custom_id"], followup=True)
        assert late.followups[0].ephemeral and "no longer open" in late.followups[0].text


async def test_a_challenge_expiring_after_the_interaction_token_is_edited_through_the_channel(tmp_path: Path) -> None:
    """Discord honours an interaction's token for 15 minutes; a challenge may wait 7 days."""
    clock = FakeClock()
    async with running(tmp_path, clock=clock) as h:
        await h.slash(h.mod, "seega settings", {"challenge_timeout": "1d"})
        challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob})).reply
        assert challenge.button("Accept") and not challenge.button("Accept").get("disabled")
        clock.advance(24 * 3600 + 1)
        await h.fake.wait_for(lambda: "expired" in challenge.text, what="the challenge message to say it expired")
        assert challenge.buttons() and all(b.get("disabled") for b in challenge.buttons()), "no live buttons"
        assert not [m for m in h.fake.channel_messages(h.fake.channel_id) if m is not challenge and "expired" in m.text]
        late = await h.fake.click_custom_id(h.bob, challenge, challenge.button("Accept")["custom_id"], followup=True)
        assert late.followups[0].ephemeral and "no longer open" in late.followups[0].text


async def test_a_moderator_who_plays_cannot_shorten_the_running_games_clock(tmp_path: Path) -> None:
    """Outside review atk41c F4 (s8_mod_changes_clock.py): the moderator set 30s mid-game and
    Carol lost rated 30 s after his move. The game keeps its hour; the answer says so."""
    clock = FakeClock()
    async with running(tmp_path, clock=clock) as h:
        challenge = (await h.slash(h.carol, "seega challenge", {"opponent": h.mod, "color": "white"})).reply
        await h.click(h.mod, challenge, "Accept", followup=True)
        changed = (await h.slash(h.mod, "seega settings", {"turn_timeout": "30s"})).reply
        assert changed.ephemeral and "Changed: Time per turn: 1h → 30s." in changed.text, changed.text
        assert "applies to games started from now on: games in progress keep" in changed.text, changed.text
        moved = (await h.slash(h.mod, "place", {"first": "a1", "second": "b1"})).reply
        assert f"<t:{int(clock.now()) + 3600}:R>" in moved.text, moved.text
        clock.advance(120)
        await h.idle()
        game = await h.bot.service.game(h.fake.channel_id)
        assert game is not None and game.status == "active", "Carol has her hour"
        assert not [m for m in h.fake.channel_messages(h.fake.channel_id) if "ran out of time" in m.text]
        other = (await h.slash(h.mod, "seega settings", {"hints": 1})).reply
        assert "games in progress keep" not in other.text, "said only when the time per turn changes"


async def test_a_move_after_the_deadline_is_not_played_and_the_player_is_told(tmp_path: Path) -> None:
    """Outside review atk41c F7 (s11_late_timer.py): with the scheduler late, Bob's /place
    10 s after his deadline was played. Now it ends the game on time, said to him publicly."""
    clock = FakeClock()
    async with running(tmp_path, clock=clock) as h:
        assert h.bot.scheduler is not None
        await h.bot.scheduler.stop()  # as late as it can be: only the move meets the deadline
        await h.slash(h.mod, "seega settings", {"turn_timeout": "30s"})
        challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "color": "black"})).reply
        await h.click(h.bob, challenge, "Accept", followup=True)
        await h.slash(h.alice, "place", {"first": "a1", "second": "b1"})
        clock.advance(40)
        late = (await h.slash(h.bob, "place", {"first": "a2", "second": "b2"})).reply
        assert not late.ephemeral, late.text
        assert "your time for this turn had already run out, so this move was not played" in late.text, late.text
        assert "Alice wins: Bob ran out of time." in late.text, late.text
        assert await h.bot.service.game(h.fake.channel_id) is None
        board = await h.bot.service.moves(h.fake.channel_id)
        assert all("a2" not in line for line in board[1]), board[1]


class FlakyAi:
    """The real AI in a thread, except that it fails (as a dead worker pool does) while ``down``."""

    def __init__(self) -> None:
        self.inner = ThreadAiRunner()
        self.down = True
        self.calls = 0

    async def choose_turn(self, request: TurnRequest) -> list[str]:
        self.calls += 1
        if self.down:
            raise AiUnavailableError("AI worker processes died 3 times in a row")
        return await self.inner.choose_turn(request)

    async def evaluate(self, request: TurnRequest) -> int:
        return await self.inner.evaluate(request)

    def close(self) -> None:
        self.inner.close()


async def test_the_bot_waits_says_so_and_plays_when_the_ai_is_back(tmp_path: Path) -> None:
    clock = FakeClock()
    ai = FlakyAi()
    try:
        async with running(tmp_path, clock=clock, ai=ai) as h:
            await h.slash(h.alice, "seega play-bot", {"level": "easy", "color": "black"})
            await h.slash(h.alice, "place", {"first": "a1", "second": "b1"})
            waiting = await h.fake.wait_for(
                lambda: next((m for m in h.fake.channel_messages() if "try again" in m.text), None),
                what="the bot saying it will try again",
            )
            assert "game #1" in waiting.text
            game = await h.bot.service.game(h.fake.channel_id)
            assert game is not None and game.to_move is not None and game.to_move.is_bot
            assert game.spn.startswith("5/5/5/5/bb3 "), "nothing was played in the bot's name"
            ai.down = False
            seen = {m.id for m in h.fake.channel_messages()}
            clock.advance(60)
            await h.fake.wait_for(
                lambda: next(
                    (m for m in h.fake.channel_messages() if m.id not in seen and h.alice in m.pinged_user_ids()), None
                ),
                what="the bot's turn, played by the scheduler's retry, calling Alice",
            )
            game = await h.bot.service.game(h.fake.channel_id)
            assert game is not None and game.to_move is not None and game.to_move.user_id == h.alice
    finally:
        ai.close()


async def test_a_draw_accepted_after_the_deadline_says_why_the_game_ended_on_time(tmp_path: Path) -> None:
    """Play-test pt41: "Bob accepts the draw." above "Alice wins: Bob ran out of time.": an
    accept after the deadline ends the game on time (atk41d F4), and both the offer and
    the final board now say so."""
    clock = FakeClock()
    async with running(tmp_path, clock=clock) as h:
        assert h.bot.scheduler is not None
        await h.bot.scheduler.stop()
        await h.slash(h.mod, "seega settings", {"turn_timeout": "30s"})
        challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "color": "black"})).reply
        await h.click(h.bob, challenge, "Accept", followup=True)
        await h.slash(h.alice, "place", {"first": "a1", "second": "b1"})
        ask = await h.slash(h.alice, "seega draw")
        offer = (await h.click(h.alice, ask.reply, "seega:drawoffer", followup=True)).followups[0]
        clock.advance(40)  # Bob, to move, ran out of time before he answered
        pressed = await h.click(h.bob, offer, "Accept the draw", followup=True)
        board = pressed.followups[0]
        assert "accepts the draw" not in board.text, board.text
        assert "Bob's time for the turn had already run out, so the offer was not accepted" in board.text, board.text
        assert "Alice wins: Bob ran out of time." in board.text, board.text
        assert "Answered too late" in offer.text and "accepted this offer" not in offer.text, offer.text
