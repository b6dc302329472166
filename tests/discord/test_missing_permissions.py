"""The bot without a permission it needs (outside review atk41c, F2).

A thread game where the bot may not make a thread, or post in one, is refused in words
before anything is stored: it answered "something went wrong", or started a game in an
empty thread whose player to move, never pinged, lost on time. A reminder or a timeout
Discord refuses to post is one warning in the log, and the timers go on.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from aiohttp import web

from bot.clock import FakeClock
from tests.discord.fake_discord import ALL_PERMISSIONS
from tests.discord.harness import Harness, running

CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
REFUSAL = "I can't start a game in a thread here"
FORBIDDEN = '{"code": 50013, "message": "Missing Permissions"}'


async def until(condition: Callable[[], bool], what: str) -> None:
    """Wait for ``condition`` (something the fake Discord is not told of, so it polls)."""
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def threads(h: Harness) -> list[int]:
    return [c for c, v in h.fake.channels.items() if v.get("type") == 11]


@pytest.mark.parametrize("missing", [CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS])
async def test_a_thread_challenge_is_refused_where_the_bot_cannot_run_a_thread(tmp_path: Path, missing: int) -> None:
    async with running(tmp_path) as h:
        h.fake.bot_permissions[h.fake.channel_id] = ALL_PERMISSIONS & ~missing
        refused = await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "thread": True})
        assert refused.reply.ephemeral and REFUSAL in refused.reply.text, refused.reply.text
        assert "Create Public Threads" in refused.reply.text and "Send Messages in Threads" in refused.reply.text
        assert await h.bot.service.storage.pending_challenges_in(h.fake.channel_id) == []
        assert refused.reply.pinged_user_ids() == set()
        here = await h.slash(h.alice, "seega challenge", {"opponent": h.bob})  # without a thread: as before
        assert not here.reply.ephemeral and h.bob in here.reply.pinged_user_ids()


async def test_an_accept_is_refused_once_the_bot_lost_the_right_and_works_when_it_is_back(tmp_path: Path) -> None:
    async with running(tmp_path) as h:
        challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "thread": True})).reply
        h.fake.bot_permissions[h.fake.channel_id] = ALL_PERMISSIONS & ~SEND_MESSAGES_IN_THREADS
        refused = await h.click(h.bob, challenge, "Accept")
        assert refused.reply.ephemeral and "I can't start this game in a thread here" in refused.reply.text
        # Bob cannot send Alice's challenge without a thread (play-test pt41: told to, his
        # challenge back accepted hers, refused again): only she can.
        assert "ask Alice to withdraw this challenge" in refused.reply.text, refused.reply.text
        assert "challenge without thread" not in refused.reply.text
        assert threads(h) == [] and await h.bot.service.storage.all_games() == []
        assert [c.status for c in await h.bot.service.storage.pending_challenges_in(h.fake.channel_id)] == ["pending"]

        del h.fake.bot_permissions[h.fake.channel_id]  # a moderator gave it back
        await h.click(h.bob, challenge, "Accept")
        thread = await h.fake.wait_for(lambda: next(iter(threads(h)), None), what="the game's thread")
        await h.idle()
        assert await h.bot.service.game(thread) is not None


async def test_a_timer_post_refused_for_a_permission_is_one_warning_and_the_timers_go_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    clock = FakeClock()
    async with running(tmp_path, clock=clock) as h:
        await h.slash(h.mod, "seega settings", {"turn_timeout": "1m"})
        room = h.fake.add_channel("room-3")
        await h.fake.dispatch("GUILD_CREATE", h.fake.guild_payload())
        challenge = await h.slash(h.carol, "seega challenge", {"opponent": h.mod, "color": "black"}, channel_id=room)
        await h.click(h.mod, challenge.reply, "Accept", followup=True)
        await h.slash(h.carol, "place", {"first": "a1", "second": "b1"}, channel_id=room)
        refused: list[str] = []

        async def no_send_messages(request: web.Request) -> None:
            path = "/" + request.match_info.get("tail", "")
            if request.method == "POST" and re.fullmatch(rf"/(api/v\d+/)?channels/{room}/messages", path):
                refused.append(path)
                raise web.HTTPForbidden(text=FORBIDDEN, content_type="application/json")

        h.fake.request_hook = no_send_messages
        caplog.clear()
        clock.advance(31)
        await until(lambda: len(refused) == 1, "the refused reminder")
        clock.advance(30)
        await until(lambda: len(refused) == 2, "the refused timeout")
        await h.idle()

        logged = [r for r in caplog.records if r.levelno >= logging.WARNING and r.name.startswith("bot")]
        assert [(r.levelname, r.getMessage().split(" of ")[0]) for r in logged] == [
            ("WARNING", "cannot post the reminder"),
            ("WARNING", "cannot post the timeout"),
        ], [r.getMessage() for r in logged]
        assert all(r.exc_info is None for r in logged)  # one line each, no traceback
        over = await h.bot.service.get_game(1)
        assert over is not None and (over.status, over.reason) == ("finished", "timeout")  # still rated
        assert len(await h.bot.service.leaderboard(h.fake.guild_id)) == 2

        # The timers go on: the next game's reminder is posted where the bot may post.
        h.fake.request_hook = None
        challenge = await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "color": "black"})
        await h.click(h.bob, challenge.reply, "Accept", followup=True)
        clock.advance(31)
        await h.fake.wait_for(
            lambda: any("half of your time" in m.text for m in h.fake.channel_messages(h.fake.channel_id)),
            what="the next reminder",
        )
