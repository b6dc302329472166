"""Turn timers and challenge expiry, announced in the channel (a fake clock moves time)."""

from __future__ import annotations

from pathlib import Path

from bot.clock import FakeClock
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
