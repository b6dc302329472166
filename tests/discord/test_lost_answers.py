"""A move is stored, but Discord refuses its answer: the game still goes on.

Discord refuses an interaction's answer sent more than 3 s after the command (404,
code 10062 "Unknown interaction": a slow database, a busy event loop), and sometimes
answers a 5xx. The move is stored by then, so the bot's reply must still be played and
the next player must still be told (outside review, atk40 F1: "It is the bot's turn; it
is thinking." for ever, and a person's opponent never pinged).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from aiohttp import web

from bot import senders
from tests.discord.harness import Harness


def refuse_answers(status: int) -> tuple[Callable[[web.Request], object], dict[str, bool]]:
    """A request hook that refuses every interaction callback while ``armed``: with
    ``status`` first, then (discord.py tries a 5xx again a second later, too late) with
    404 "Unknown interaction", as Discord does."""
    state = {"armed": False, "refused": False}

    async def hook(request: web.Request) -> None:
        if state["armed"] and request.method == "POST" and request.path.endswith("/callback"):
            first = not state["refused"]
            state["refused"] = True
            if first and status >= 500:
                body = json.dumps({"code": 0, "message": "Service Unavailable"})
                raise web.HTTPServiceUnavailable(text=body, headers={"Content-Type": "application/json"})
            body = json.dumps({"code": 10062, "message": "Unknown interaction"})
            raise web.HTTPNotFound(text=body, headers={"Content-Type": "application/json"})

    return hook, state


@pytest.mark.parametrize("status", [404, 503])
async def test_the_bot_plays_even_when_the_answer_to_the_move_is_refused(h: Harness, status: int) -> None:
    await h.slash(h.alice, "seega play-bot", {"level": "easy", "color": "black", "size": 5})
    hook, state = refuse_answers(status)
    h.fake.request_hook = hook  # type: ignore[assignment]
    seen = {m.id for m in h.fake.channel_messages()}
    state["armed"] = True
    await h.slash(h.alice, "place", {"first": "a1", "second": "b1"}, wait=False)
    reply = await h.fake.wait_for(
        lambda: next(
            (m for m in h.fake.channel_messages() if m.id not in seen and h.alice in m.pinged_user_ids()), None
        ),
        what="the bot's reply calling Alice",
    )
    assert state["refused"], "the answer to /place was refused"
    await h.idle()
    game = await h.bot.service.game(h.fake.channel_id)
    assert game is not None and game.to_move is not None and game.to_move.user_id == h.alice, "the bot played"
    posted = [m for m in h.fake.channel_messages() if m.id not in seen]
    assert len(posted) >= 2 and posted[-1] is reply, "Alice's board went to the channel instead, then the bot's"


async def test_the_next_person_is_told_when_the_answer_to_the_move_is_refused(h: Harness) -> None:
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "color": "black"})).reply
    await h.click(h.bob, challenge, "Accept", followup=True)
    hook, state = refuse_answers(404)
    h.fake.request_hook = hook  # type: ignore[assignment]
    seen = {m.id for m in h.fake.channel_messages()}
    state["armed"] = True
    await h.slash(h.alice, "place", {"first": "a1", "second": "b1"}, wait=False)
    board = await h.fake.wait_for(
        lambda: next((m for m in h.fake.channel_messages() if m.id not in seen and h.bob in m.pinged_user_ids()), None),
        what="the board calling Bob",
    )
    assert state["refused"]
    assert board.attachments or board.embeds, "the board itself, posted in the channel"
    game = await h.bot.service.game(h.fake.channel_id)
    assert game is not None and game.to_move is not None and game.to_move.user_id == h.bob


async def test_a_move_slowed_by_the_database_lock_is_answered_in_time_and_still_pings(
    h: Harness, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Another process holds SQLite's write lock: the move waits for it. Its answer is
    deferred ("thinking") before Discord's 3 s run out, instead of "The application did
    not respond" (stop 40's noticed list), and the board still calls Bob: a deferred
    answer's first followup is an edit, which pings nobody, so it goes in the channel."""
    monkeypatch.setattr(senders, "DEFER_AFTER", 0.2)
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "color": "black"})).reply
    await h.click(h.bob, challenge, "Accept", followup=True)
    seen = {m.id for m in h.fake.channel_messages()}
    other = sqlite3.connect(tmp_path / "seega.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process's write lock: the move's save waits
    try:
        inter = await h.slash(h.alice, "place", {"first": "a1", "second": "b1"}, wait=False)
        await h.fake.wait_for(lambda: inter.callbacks, what="an answer while the save waits")
        assert inter.callback_type == 5, "deferred (Seega is thinking...) while the database is locked"
    finally:
        other.execute("ROLLBACK")
        other.close()
    board = await h.fake.wait_for(
        lambda: next((m for m in h.fake.channel_messages() if m.id not in seen and h.bob in m.pinged_user_ids()), None),
        what="the board calling Bob",
    )
    assert board.attachments or board.embeds
    assert inter.original is not None and inter.original.deleted, "no 'thinking...' left behind"
    game = await h.bot.service.game(h.fake.channel_id)
    assert game is not None and game.to_move is not None and game.to_move.user_id == h.bob


async def test_a_refusal_after_a_slow_wait_stays_private(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """A deferred answer is public ("thinking..."); a refusal that follows is still said to
    the player alone."""
    monkeypatch.setattr(senders, "DEFER_AFTER", 0.0)
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "color": "black"})).reply
    await h.click(h.bob, challenge, "Accept", followup=True)
    inter = await h.slash(h.bob, "place", {"first": "a1", "second": "b1"}, wait=False)
    await h.fake.wait_for(lambda: inter.followups, what="the refusal")
    assert inter.callback_type == 5
    assert inter.original is not None and inter.original.deleted
    assert all(m.ephemeral for m in inter.followups), "not Bob's turn: said to Bob alone"
