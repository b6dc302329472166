"""A fresh-eyes play-test through the loopback Discord: what a message, a button or an
answer left behind or said to the wrong person (offers, the bot's "thinking" line, a
chain's invitation, threads, resign, review and record, own challenges)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from aiohttp import web

from bot.results import Player
from tests.discord.fake_discord import Message
from tests.discord.harness import Harness, running
from tests.discord.test_games import GAME_END, ScriptedAi
from tests.service.helpers import insert_from


async def _offer_end(h: Harness) -> Message:
    """Alice sends an offer to end by count (through its private explanation): the public offer."""
    ask = (await h.slash(h.alice, "seega offer-end")).reply
    sent = await h.click(h.alice, ask, "Offer to end", followup=True)
    return sent.followups[0]


async def test_an_offer_to_end_is_declined_withdrawn_and_cleared_when_the_game_ends(h: Harness) -> None:
    alice, bob = Player(h.alice, "Alice"), Player(h.bob, "Bob")
    await insert_from(
        h.bot.service, h.fake.channel_id, "bbb2/5/5/5/ww3 b m 0/0 - 0 30", alice, bob, guild_id=h.fake.guild_id
    )
    offer = await _offer_end(h)
    assert [b.get("label") for b in offer.buttons()] == ["Accept the end", "Decline / Withdraw"]
    # The offerer's own Accept says so (it said "There is no offer ... for you to accept").
    own = (await h.click(h.alice, offer, "Accept the end")).reply
    assert own.ephemeral and own.text == (
        "You offered to end by count; Bob decides (you can withdraw it with **Withdraw** on its button)."
    ), own.text
    # Bob is not to move: he cannot "play on"; he is told to use the offer's buttons.
    draw = (await h.slash(h.bob, "seega draw")).reply
    assert draw.ephemeral and "with **Accept the end** or **Decline** on the offer" in draw.text, draw.text
    assert "play on" not in draw.text
    declined = await h.click(h.bob, offer, "Decline")
    assert declined.callback_type == 7 and "**Bob** declines to end the game by count" in offer.text, offer.text
    assert all(b.get("disabled") for b in offer.buttons())
    again = (await h.slash(h.alice, "seega offer-end")).reply
    assert again.ephemeral and "was declined" in again.text
    # The offerer withdraws a new offer (after her turn) with Decline.
    await h.slash(h.alice, "move", {"from": "a5", "to": "a4"})
    offer = await _offer_end(h)
    withdrawn = await h.click(h.alice, offer, "Decline")
    assert withdrawn.callback_type == 7 and "**Alice** withdrew the offer" in offer.text, offer.text
    game = await h.bot.service.game(h.fake.channel_id)
    assert game is not None and game.end_offer_by is None and game.status == "active"
    # Not again before her next turn: offer and withdraw notified Bob as often as she liked.
    again = (await h.slash(h.alice, "seega offer-end")).reply
    assert again.ephemeral and "You withdrew" in again.text and not again.buttons(), again.text
    await h.slash(h.bob, "move", {"from": "a1", "to": "a2"})
    await h.slash(h.alice, "move", {"from": "a4", "to": "a3"})
    # An open offer loses its buttons when the game ends (it read "no longer applies" on a click).
    offer = await _offer_end(h)
    assert offer.button("Accept the end")
    ask = (await h.slash(h.bob, "seega resign")).reply
    await h.click(h.bob, ask, "Resign", followup=True)
    await h.idle()
    assert offer.buttons() == []


async def test_an_open_offer_loses_its_buttons_when_the_opponent_plays_on(h: Harness) -> None:
    alice, bob = Player(h.alice, "Alice"), Player(h.bob, "Bob")
    await insert_from(
        h.bot.service, h.fake.channel_id, "bbb2/5/5/5/ww3 w m 0/0 - 0 30", alice, bob, guild_id=h.fake.guild_id
    )
    offer = await _offer_end(h)  # Bob (White) is to move
    played = (await h.slash(h.bob, "move", {"from": "a1", "to": "a2"})).reply
    assert not played.ephemeral, played.text
    await h.idle()
    assert offer.buttons() == [], "the offer lapsed: its buttons went"
    # and its words: it still asked Bob to "accept or decline" with no buttons left
    assert offer.text == "Alice's offer to end by count lapsed: Bob played on.", offer.text


async def test_a_lapsed_draw_offer_says_so_in_the_language_of_whom_it_asked(h: Harness) -> None:
    alice, bob = Player(h.alice, "Alice"), Player(h.bob, "Bob")
    await insert_from(
        h.bot.service, h.fake.channel_id, "bbb2/5/5/5/ww3 w m 0/0 - 0 30", alice, bob, guild_id=h.fake.guild_id
    )
    await h.slash(h.bob, "seega language", {"language": "ar"})
    ask = (await h.slash(h.alice, "seega draw")).reply
    offer = (await h.click(h.alice, ask, "Offer a draw", followup=True)).followups[0]
    assert offer.buttons(), offer.text
    played = (await h.slash(h.bob, "move", {"from": "a1", "to": "a2"})).reply
    assert not played.ephemeral, played.text
    await h.idle()
    assert offer.buttons() == []
    assert offer.text == "سقط عرض التعادل من Alice: فقد واصل Bob اللعب.", offer.text


async def test_the_bots_thinking_line_does_not_stay_behind(tmp_path: Path) -> None:
    """Against the bot, every reply and the start said "Seega bot (easy) is thinking…",
    never edited: scrolling back, every second message said the bot was still thinking."""
    async with running(tmp_path, ai=ScriptedAi(GAME_END)) as h:
        start = (await h.slash(h.alice, "seega play-bot", {"level": "easy", "color": "white"})).reply
        assert "Seega bot (easy) is thinking…" in start.text
        await h.idle()
        assert "is thinking" not in start.text and "A new game against the bot (easy)." in start.text
        mine = (await h.slash(h.alice, "place", {"first": "a3", "second": "b1"})).reply
        assert not mine.ephemeral and "is thinking" in mine.text
        await h.idle()
        assert "is thinking" not in mine.text and "a3" in mine.text
        assert [m.id for m in h.fake.channel_messages() if "is thinking" in m.text] == []
        assert h.fake.last_message().pinged_user_ids() == {h.alice}


async def test_a_finished_chain_no_longer_invites_a_capture(h: Harness) -> None:
    r = await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "color": "black"})
    await h.click(h.bob, r.reply, "Accept", followup=True)
    placements = GAME_END[:24]
    for i in range(0, 24, 2):
        await h.bot.service.place(h.fake.channel_id, h.alice if i % 4 == 0 else h.bob, placements[i], placements[i + 1])
    chain = (await h.slash(h.bob, "move", {"from": "c4", "to": "c3"})).reply
    assert "you may capture again" in chain.text and "The chain goes on" in chain.text
    await h.slash(h.bob, "seega end-turn")
    await h.idle()
    assert chain.buttons() == []
    assert "you may capture again" not in chain.text and "End turn" not in chain.text, chain.text
    assert "The chain goes on" not in chain.text and "c4→c3" in chain.text and " took " in chain.text
    assert chain.embeds and chain.embeds[0]["image"]["url"] == f"attachment://{chain.attachments[0].filename}"


async def test_a_thread_game_names_and_pings_both_players(h: Harness) -> None:
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "thread": True})).reply
    await h.click(h.bob, challenge, "Accept")
    thread = next(cid for cid, c in h.fake.channels.items() if c["type"] == 11)
    await h.fake.wait_for(lambda: h.fake.channel_messages(thread), what="the board in the thread")
    first = h.fake.channel_messages(thread)[0]
    assert f"<@{h.alice}>" in first.content and f"<@{h.bob}>" in first.content
    assert first.pinged_user_ids() == {h.alice, h.bob}


async def test_resign_can_be_cancelled(h: Harness) -> None:
    r = await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "color": "black"})
    await h.click(h.bob, r.reply, "Accept", followup=True)
    ask = (await h.slash(h.bob, "seega resign")).reply
    assert [b.get("label") for b in ask.buttons()] == ["Resign", "Cancel"]
    cancelled = await h.click(h.bob, ask, "Cancel")
    assert cancelled.callback_type == 7 and "Not resigned: the game goes on." in ask.text
    assert ask.buttons() == []
    game = await h.bot.service.game(h.fake.channel_id)
    assert game is not None and game.status == "active"


async def test_review_and_record_refuse_privately_without_a_public_thinking(h: Harness) -> None:
    for command in ("seega review", "seega record"):
        r = await h.slash(h.alice, command)
        assert r.callback_type == 4 and r.reply.ephemeral, (command, r.callbacks)
        assert "No game has been played in this channel yet." in r.reply.text
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob})).reply
    await h.click(h.bob, challenge, "Accept", followup=True)
    unfinished = await h.slash(h.alice, "seega review")
    assert unfinished.callback_type == 4 and unfinished.reply.ephemeral, unfinished.callbacks
    assert not [m for m in h.fake.messages.values() if m.interaction_id in (unfinished.id,) and not m.ephemeral]


async def test_the_challenger_is_told_they_cannot_accept_their_own_challenge(h: Harness) -> None:
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob})).reply
    own = (await h.click(h.alice, challenge, "Accept")).reply
    assert (
        own.ephemeral
        and own.text == "You can't accept your own challenge; withdraw it with **Withdraw** on its button."
    )
    assert not any(b.get("disabled") for b in challenge.buttons())
    carol = (await h.click(h.carol, challenge, "Accept")).reply
    assert carol.ephemeral and "This button is for Bob" in carol.text


async def test_the_red_button_is_named_as_it_reads_to_a_challenger_or_offerer_of_another_language(h: Harness) -> None:
    """Outside play-test: an Arabic challenger pressing Accept on her own challenge was told
    «رفض» withdraws it, on a button reading "Decline / سحب التحدي"; an Arabic offerer was
    told to press «رفض» on an offer whose button read "Decline" (the asked player's
    language). An offer's Decline names the offerer's withdrawal in the offerer's language,
    as a challenge's does, and the texts name that half."""
    await h.slash(h.alice, "seega language", {"language": "ar"})
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob})).reply
    own = (await h.click(h.alice, challenge, "Accept")).reply
    assert own.ephemeral and "«سحب التحدي»" in own.text and "«رفض»" not in own.text, own.text
    await h.click(h.alice, challenge, "Decline")
    alice, bob = Player(h.alice, "Alice"), Player(h.bob, "Bob")
    await insert_from(
        h.bot.service, h.fake.channel_id, "bbb2/5/5/5/ww3 b m 0/0 - 0 30", alice, bob, guild_id=h.fake.guild_id
    )
    ask = (await h.slash(h.alice, "seega offer-end")).reply
    offer = (await h.click(h.alice, ask, "اعرض الإنهاء", followup=True)).followups[0]
    assert [b.get("label") for b in offer.buttons()] == ["Accept the end", "Decline / سحب العرض"]
    own = (await h.click(h.alice, offer, "Accept the end")).reply
    assert own.ephemeral and "«سحب العرض»" in own.text and "«رفض»" not in own.text, own.text
    declined = await h.click(h.bob, offer, "Decline")
    assert declined.callback_type == 7 and offer.button("Decline")["label"] == "Decline / سحب العرض"
    await h.slash(h.alice, "move", {"from": "a5", "to": "a4"})
    await h.slash(h.bob, "move", {"from": "e1", "to": "e2"})
    ask = (await h.slash(h.alice, "seega draw")).reply
    draw = (await h.click(h.alice, ask, "اعرض التعادل", followup=True)).followups[0]
    assert [b.get("label") for b in draw.buttons()] == ["Accept the draw", "Decline / سحب العرض"]
    own = (await h.click(h.alice, draw, "Accept the draw")).reply
    assert own.ephemeral and "«سحب العرض»" in own.text and "«رفض»" not in own.text, own.text


@pytest.mark.parametrize("may_delete", [True, False])
async def test_a_thread_challenge_declined_and_accepted_at_once_leaves_no_empty_thread(
    h: Harness, may_delete: bool
) -> None:
    """Discord play-test (stop 40): Decline and Accept pressed together on a thread
    challenge answered rightly, but the thread made for the game stayed, empty, in the
    channel's list: it could not be deleted. It is deleted, or, where the bot may not
    delete threads (Manage Threads), archived."""

    async def no_deleting(request: web.Request) -> None:
        if request.method == "DELETE" and re.fullmatch(r"/api/v\d+/channels/\d+", request.path):
            body = json.dumps({"code": 50013, "message": "Missing Permissions"})
            raise web.HTTPForbidden(text=body, headers={"Content-Type": "application/json"})

    if not may_delete:
        h.fake.request_hook = no_deleting  # type: ignore[assignment]
    for challenger in (h.alice, h.carol, h.mod):  # one each: a declined challenge is not sent again at once
        challenge = (await h.slash(challenger, "seega challenge", {"opponent": h.bob, "thread": True})).reply
        decline = await h.click(h.bob, challenge, "Decline", wait=False)
        accept = await h.fake.click_custom_id(h.bob, challenge, challenge.button("Accept")["custom_id"])
        await h.fake.wait_answer(decline)
        await h.idle()
        assert "declined" in challenge.text, challenge.text
        assert accept.callback_type is not None
        threads = [c for c in h.fake.channels.values() if c["type"] == 11]
        shown = [c["name"] for c in threads if not c["thread_metadata"]["archived"]]
        assert shown == [], threads
        assert may_delete == (threads == []), threads


async def test_two_accepts_at_once_on_a_thread_challenge_start_one_game_in_a_live_thread(h: Harness) -> None:
    """Discord play-test (pt40b): two Accepts pressed at once on a thread challenge. Discord
    refuses a second thread from one message (code 160004); the losing press answered
    "something went wrong", and its cleanup deleted the winner's thread (the fake gave it the
    same thread), leaving the game in a thread that no longer existed. One game starts, in a
    live thread with its board; the other press is told, privately, the challenge is no
    longer open."""
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "thread": True})).reply
    custom_id = challenge.button("Accept")["custom_id"]
    first = await h.click(h.bob, challenge, "Accept", wait=False)
    second = await h.fake.click_custom_id(h.bob, challenge, custom_id)
    await h.fake.wait_answer(first)
    await h.idle()
    texts = [m.text for i in (first, second) for m in ([i.original] if i.original else []) + i.followups]
    assert not any("something went wrong" in x for x in texts), texts
    refusals = [m for i in (first, second) for m in i.followups + ([i.original] if i.original else []) if m.ephemeral]
    assert [m.text for m in refusals] == ["This challenge is no longer open."], texts
    threads = [c for c in h.fake.channels.values() if c["type"] == 11]
    assert len(threads) == 1 and not threads[0]["thread_metadata"]["archived"], threads
    tid = int(threads[0]["id"])
    game = await h.bot.service.game(tid)
    assert game is not None and game.status == "active"
    assert any(m.attachments for m in h.fake.channel_messages(tid)), "no board in the thread"
    assert "thread" in challenge.text.lower() or "<#" in challenge.text, challenge.text
