"""A move is stored, but Discord refuses its answer: the game still goes on.

Discord refuses an interaction's answer sent more than 3 s after the command (404,
code 10062 "Unknown interaction": a slow database, a busy event loop), and sometimes
answers a 5xx. The move is stored by then, so the bot's reply must still be played and
the next player must still be told (outside review, atk40 F1: "It is the bot's turn; it
is thinking." for ever, and a person's opponent never pinged).
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from aiohttp import web

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
