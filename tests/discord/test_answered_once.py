"""A question with two answers (Resign or Cancel; Accept or Decline) takes the first press
only, even when both are pressed at the same instant (two clicks, two devices): the
second is told privately what was answered and changes nothing."""

from __future__ import annotations

import asyncio

import pytest

from tests.discord.fake_discord import Interaction, Message
from tests.discord.harness import Harness


async def _people_game(h: Harness) -> Message:
    """Alice (black) vs Bob (white) in the main channel; returns the first board message."""
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "color": "black"})).reply
    accepted = await h.click(h.bob, challenge, "Accept", followup=True)
    return accepted.followups[0]


def _texts(inter: Interaction) -> list[str]:
    """What the presser was told: the edited question (if the press edited it) and followups."""
    edited = [c["data"].get("content", "") for c in inter.callbacks if c["type"] in (4, 7) and c.get("data")]
    return [*edited, *(m.text for m in inter.followups)]


@pytest.mark.parametrize("resign_first", [True, False])
async def test_resign_and_cancel_pressed_at_once_take_one_answer(h: Harness, resign_first: bool) -> None:
    await _people_game(h)
    ask = (await h.slash(h.bob, "seega resign")).reply
    presses = [h.click(h.bob, ask, "Resign"), h.click(h.bob, ask, "Cancel")]
    answers = await asyncio.gather(*(presses if resign_first else presses[::-1]))
    resign, cancel = answers if resign_first else answers[::-1]
    await h.idle()
    game = await h.bot.service.game(h.fake.channel_id)
    last = await h.bot.service.storage.latest_game(h.fake.channel_id)
    assert last is not None
    public = [m.text for m in h.fake.channel_messages(h.fake.channel_id)]
    resigned_posts = [t for t in public if "Bob resigned" in t]
    said = {"resign": _texts(resign), "cancel": _texts(cancel)}
    if game is None:  # Resign came first
        assert last.status == "finished" and last.reason == "resignation"
        assert len(resigned_posts) == 1, public
        assert said["resign"][0] == "You resigned."
        assert said["cancel"] == ["This question was already answered: you resigned. Nothing more was done."], said
        assert ask.text == "You resigned."
    else:  # Cancel came first
        assert game.status == "active" and last.status == "active"
        assert resigned_posts == [], public
        assert said["cancel"] == ["Not resigned: the game goes on."], said
        expected = "This question was already answered: you chose Cancel, and the game goes on. Nothing more was done."
        assert said["resign"] == [expected], said
        assert ask.text == "Not resigned: the game goes on."
    loser = cancel if game is None else resign
    question = await h.bot.service.storage.question(1)  # the stored question took the first answer
    assert question is not None and question.status == ("resigned" if game is None else "cancelled")
    assert [c["type"] for c in loser.callbacks] == [4] and loser.callbacks[0]["data"]["flags"] == 64, "privately"


async def test_a_resign_question_from_before_the_update_says_to_ask_again(h: Harness) -> None:
    """Its buttons carried the game's id and no stored question: answering them could
    take both answers, so each says to ask again and changes nothing."""
    await _people_game(h)
    for custom_id in ("seega:resign:1", "seega:resignno:1"):
        shown = (await h.slash(h.bob, "seega resign")).reply  # a message to press on, as the old one was
        button = {"type": 2, "style": 4, "label": "old", "custom_id": custom_id}
        components = [{"type": 1, "components": [button]}]
        old = Message(id=shown.id, channel_id=h.fake.channel_id, author_id=h.fake.app_id, components=components)
        pressed = await h.fake.click_custom_id(h.bob, old, custom_id, followup=True)
        assert [m.text for m in pressed.followups if m.ephemeral] == [
            "This question was asked before the bot was updated: ask again with /seega resign."
        ]
    game = await h.bot.service.game(h.fake.channel_id)
    assert game is not None and game.status == "active"


def _private(inter: Interaction) -> list[str]:
    """The private answers a press got (an ephemeral reply or followups)."""
    answers = [m for m in ([inter.original] if inter.original else []) + inter.followups if m.ephemeral]
    return [m.text for m in answers]


@pytest.mark.parametrize("by", ["opponent", "challenger"])
async def test_accept_and_decline_of_a_challenge_at_once_take_one_answer(h: Harness, by: str) -> None:
    """The challenge's status moves from pending once (a conditional update): Accept and
    Decline (the opponent's, or the challenger's withdrawal) never both take effect."""
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "color": "black"})).reply
    decliner = h.bob if by == "opponent" else h.alice
    accept, decline = await asyncio.gather(h.click(h.bob, challenge, "Accept"), h.click(decliner, challenge, "Decline"))
    await h.idle()
    row = await h.bot.service.storage.challenge(1)
    game = await h.bot.service.game(h.fake.channel_id)
    assert row is not None and row.status in ("accepted", "declined", "withdrawn")
    assert (game is not None) == (row.status == "accepted")
    loser = decline if row.status == "accepted" else accept
    assert _private(loser) == ["This challenge is no longer open."], _private(loser)
    assert challenge.text.count("accepted") + challenge.text.count("declined") + challenge.text.count("withdrew") == 1


@pytest.mark.parametrize("by", ["opponent", "offerer"])
async def test_accept_and_decline_of_a_draw_offer_at_once_take_one_answer(h: Harness, by: str) -> None:
    """An offer is a word in the game's row, answered with the game's compare-and-swap."""
    await _people_game(h)
    ask = await h.slash(h.bob, "seega draw")
    offer = (await h.click(h.bob, ask.reply, "Offer a draw", followup=True)).followups[0]
    decliner = h.alice if by == "opponent" else h.bob
    accept, decline = await asyncio.gather(
        h.click(h.alice, offer, "Accept the draw"), h.click(decliner, offer, "Decline")
    )
    await h.idle()
    last = await h.bot.service.storage.latest_game(h.fake.channel_id)
    assert last is not None and last.status in ("finished", "active")
    public = [m.text for m in h.fake.channel_messages(h.fake.channel_id)]
    draws = [t for t in public if "accepts the draw" in t and "Draw:" in t]
    assert len(draws) == (1 if last.status == "finished" else 0), public
    loser = decline if last.status == "finished" else accept
    told = _private(loser)
    assert len(told) == 1 and ("is over" in told[0] or "no draw offer" in told[0]), told


async def test_forged_resign_buttons_change_nothing(h: Harness) -> None:
    """Hostile review of the stored question: a button forged with an id of 90 digits,
    an id that names no question, and Alice pressing Bob's question (its id is in the
    button anyone can see copied) are each refused privately, and the game goes on."""
    await _people_game(h)
    bobs = (await h.slash(h.bob, "seega resign")).reply
    bobs_id = bobs.button("Resign")["custom_id"]
    gone = "This question no longer exists: ask again with /seega resign."
    not_yours = "This question was asked to another player."
    for custom_id, who, expected in (
        ("seega:resignyes:" + "9" * 90, h.bob, gone),
        ("seega:resignstay:" + "9" * 90, h.bob, gone),
        ("seega:resignyes:424242", h.bob, gone),
        (bobs_id, h.alice, not_yours),
    ):
        button = {"type": 2, "style": 4, "label": "forged", "custom_id": custom_id}
        forged = Message(
            id=bobs.id, channel_id=h.fake.channel_id, author_id=h.fake.app_id,
            components=[{"type": 1, "components": [button]}],
        )  # fmt: skip
        pressed = await h.fake.click_custom_id(who, forged, custom_id)
        assert set(_private(pressed) + _texts(pressed)) == {expected}, custom_id
    game = await h.bot.service.game(h.fake.channel_id)
    assert game is not None and game.status == "active"
    rows = await h.bot.service.storage.question(int(bobs_id.rsplit(":", 1)[1]))
    assert rows is not None and rows.status == "pending", "Bob's own question is still his to answer"
