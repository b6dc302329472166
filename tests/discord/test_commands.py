"""Every command and button through the real client; every bad input answered privately."""

from __future__ import annotations

import asyncio
import logging
import re
import time

import pytest

from bot.results import Player
from engine import Position
from tests.discord.fake_discord import Message
from tests.discord.harness import FULL_PLACEMENT, Harness
from tests.service.helpers import insert_from


async def _people_game(h: Harness) -> Message:
    """Alice (black) vs Bob (white) in the main channel; returns the first board message."""
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "color": "black"})).reply
    accepted = await h.click(h.bob, challenge, "Accept", followup=True)
    return accepted.followups[0]


def _row(custom_id: str) -> list[dict[str, object]]:
    """The components of a message showing one button (as an old message would)."""
    button = {"type": 2, "style": 1, "label": "old", "custom_id": custom_id}
    return [{"type": 1, "components": [button]}]


async def _spn(h: Harness, channel: int | None = None) -> str:
    game = await h.bot.service.game(channel or h.fake.channel_id)
    assert game is not None
    return game.spn


async def test_bad_inputs_are_answered_ephemerally_and_change_nothing(h: Harness) -> None:
    no_game = await h.slash(h.alice, "place", {"first": "a1"})
    assert no_game.reply.ephemeral and "no game" in no_game.reply.text.lower()
    await _people_game(h)
    await h.slash(h.alice, "place", {"first": "a1", "second": "b1"})
    before = await _spn(h)
    cases = [
        (h.bob, "place", {"first": "zz"}, "is not a cell"),  # the transformer
        (h.bob, "place", {"first": "d 4"}, "did you mean d4?"),  # the service, which knows the board
        # a space inside the second cell (play-test: rejected without help)
        (h.bob, "place", {"first": "b4", "second": "D 4"}, "'D 4' is not a cell: did you mean d4?"),
        (h.bob, "place", {"first": "b4", "second": "4 d"}, "did you mean d4?"),
        (h.bob, "place", {"first": "b4", "second": "i 9"}, "'i9' is not a cell of this 5×5 board"),
        (h.bob, "place", {"first": "a1"}, "a1"),  # occupied: the message names the cell
        (h.bob, "place", {"first": "c3"}, "centre"),  # the centre during placement
        (h.bob, "place", {"first": "f6"}, "f6"),  # off a 5x5 board
        (h.alice, "place", {"first": "d4"}, "turn"),  # not your turn
        (h.carol, "place", {"first": "d4"}, "player"),  # an onlooker
        (h.bob, "move", {"from": "a1", "to": "a2"}, ""),  # a step during placement
        (h.bob, "move", {"from": "b2 c"}, "is not a move: write the two cells like b2 c2 or b2-c2"),
        (h.bob, "remove", {"cell": "a1"}, ""),  # no removal is due
        (h.bob, "seega end-turn", {}, ""),  # no chain to end
        (h.alice, "seega play-bot", {"level": "easy"}, "game"),  # the channel is busy
        (h.carol, "seega resign", {}, "player"),
        (h.carol, "seega offer-end", {}, "player"),
    ]
    for user, command, options, expected in cases:
        answer = await h.slash(user, command, options)
        reply = answer.reply
        assert reply.ephemeral, f"/{command} {options} answered publicly: {reply.text}"
        assert expected.lower() in reply.text.lower(), f"/{command} {options}: {reply.text}"
        assert "error id" not in reply.text, f"/{command} {options} hit an unexpected error: {reply.text}"
    assert await _spn(h) == before


async def test_cells_as_a_newcomer_types_them(h: Harness) -> None:
    """Discord play-test: "z9 is not a cell: ... (a letter, then a number)" was false (z9 is
    a letter then a number: it is off the board); two cells in /place's first option were
    "not a cell" though /move's from takes two; the bot's own "c2→c3" was refused."""
    await _people_game(h)
    off = await h.slash(h.alice, "place", {"first": "Z9"})
    assert off.reply.ephemeral and "not a cell of this 5×5 board" in off.reply.text, off.reply.text
    assert "from a1 to e5" in off.reply.text and "a letter, then a number" not in off.reply.text
    pair = await h.slash(h.alice, "place", {"first": "a1 b1"})
    assert not pair.reply.ephemeral and "b1" in pair.reply.text, pair.reply.text
    rest = FULL_PLACEMENT[2:]
    for i in range(0, len(rest), 2):
        player = h.bob if i % 4 == 0 else h.alice
        await h.slash(player, "place", {"first": rest[i], "second": rest[i + 1]})
    game = await h.bot.service.game(h.fake.channel_id)
    assert game is not None and game.phase == "m" and game.to_move is not None, game
    mover = game.to_move.user_id
    # a step to a cell off the board names it (newcomer play-test: "'c2 j2' is not a cell")
    off = await h.slash(mover, "move", {"from": "c2 j2" if mover == h.bob else "d3 j3"})
    assert off.reply.ephemeral and "is not a cell of this 5×5 board" in off.reply.text, off.reply.text
    assert "'j2'" in off.reply.text or "'j3'" in off.reply.text, off.reply.text
    step = "c2→c3" if mover == h.bob else "d3→c3"  # white's c2, black's d3 (rank by rank)
    arrow = await h.slash(mover, "move", {"from": step})
    assert not arrow.reply.ephemeral, arrow.reply.text
    assert (await h.bot.service.game(h.fake.channel_id)).to_move.user_id != mover  # type: ignore[union-attr]


async def test_a_step_typed_in_words(h: Harness) -> None:
    """Play-test: `/move from:"d3 to c3"` was refused as "d3 to c3 is not a cell", naming no
    form that works; the em dash too; "a 1" and "1a" were "not a cell" with no cell meant."""
    await _people_game(h)
    for i in range(0, len(FULL_PLACEMENT), 2):
        player = h.alice if i % 4 == 0 else h.bob
        await h.slash(player, "place", {"first": FULL_PLACEMENT[i], "second": FULL_PLACEMENT[i + 1]})
    game = await h.bot.service.game(h.fake.channel_id)
    assert game is not None and game.phase == "m" and game.to_move is not None, game
    mover = game.to_move.user_id
    src = "c2" if mover == h.bob else "d3"  # white's c2, black's d3 (rank by rank)
    refusals = [
        (f"{src} into c3", f"is not a move: write the two cells like {src} c3 or {src}-c3"),
        (f"{src} into c3", f"/move from:{src} to:c3"),
        ("c 3", "did you mean c3?"),
        ("3c", "did you mean c3?"),
        (f"{src} c 3", f"did you mean /move {src} c3?"),
        # i9 is not on this 5x5 board: not suggested, refused with the board's cells
        ("i 9", "'i9' is not a cell of this 5×5 board; cells are written like b2, from a1 to e5."),
        (f"{src} i 9", "'i9' is not a cell of this 5×5 board; cells are written like b2, from a1 to e5."),
    ]
    for typed, expected in refusals:
        answer = await h.slash(mover, "move", {"from": typed})
        assert answer.reply.ephemeral and expected in answer.reply.text, (typed, answer.reply.text)
    to_option = await h.slash(mover, "move", {"from": src, "to": "3c"})  # the to option, and /remove's cell
    assert to_option.reply.ephemeral and "did you mean c3?" in to_option.reply.text, to_option.reply.text
    spaced = await h.slash(mover, "move", {"from": src, "to": "c 3"})  # a space inside the to option
    assert spaced.reply.ephemeral and "did you mean c3?" in spaced.reply.text, spaced.reply.text
    arabic = await h.slash(mover, "move", {"from": f"{src} c 3"}, locale="ar")
    assert arabic.reply.ephemeral and "هل تقصد" in arabic.reply.text, arabic.reply.text
    step = await h.slash(mover, "move", {"from": f"{src.upper()} TO c3"})
    assert not step.reply.ephemeral, step.reply.text
    game = await h.bot.service.game(h.fake.channel_id)
    assert game is not None and game.to_move is not None and game.to_move.user_id != mover


async def test_place_one_then_the_rest_of_the_pair(h: Harness) -> None:
    """The turn lines say what to type on each player's first turn and after the first
    piece of a pair (the Discord play-test: "your turn (⚫)." and nothing about /place;
    after one piece the same "your turn", as if the turn were new), not on every turn."""
    start = await _people_game(h)
    assert "your turn (⚫): place two pieces with /place, like /place " in start.text, start.text
    one = await h.slash(h.alice, "place", {"first": "A1"})
    assert not one.reply.ephemeral and "a1" in one.reply.text
    assert "place your second piece with /place, like /place " in one.reply.text, one.reply.text
    assert one.reply.pinged_user_ids() == set(), "the same player places the rest of the turn: no ping"
    two = await h.slash(h.alice, "place", {"first": "b1"})
    assert two.reply.pinged_user_ids() == {h.bob}
    assert "your turn (⚪): place two pieces with /place, like /place " in two.reply.text, two.reply.text
    game = await h.bot.service.game(h.fake.channel_id)
    assert game is not None and game.deadline is not None
    # the clock in the turn message: a Discord timestamp that counts down live
    assert f"⏱ time runs out <t:{int(game.deadline)}:R>" in two.reply.text
    third = await h.slash(h.bob, "place", {"first": "c1", "second": "d1"})
    assert "your turn (⚫)." in third.reply.text and "/place" not in third.reply.text, "said once, not every turn"
    await h.slash(h.alice, "place", {"first": "e1", "second": "a2"})
    assert (await _spn(h)).startswith("5/5/5/b4/bbwwb w p")


async def test_refusals_say_why(h: Harness) -> None:
    """/place a1 a1 says the cells must differ; a refused step says what is in the way."""
    await _people_game(h)
    same = await h.slash(h.alice, "place", {"first": "a1", "second": "A1"})
    assert same.reply.ephemeral and "The two cells must differ: a1 was given twice" in same.reply.text
    svc = h.bot.service
    for i in range(0, 24, 2):
        user = h.alice if (i // 2) % 2 == 0 else h.bob
        await svc.place(h.fake.channel_id, user, FULL_PLACEMENT[i], FULL_PLACEMENT[i + 1])
    game = await svc.game(h.fake.channel_id)
    assert game is not None and game.to_move is not None
    mover = game.to_move.user_id
    pos = Position.from_spn(game.spn)
    far = str(next(a for a in pos.legal_actions() if a.kind == "step")).split("-")[0]  # a piece that can move
    rank = int(far[1])
    to = f"{far[0]}{rank + 2 if rank + 2 <= 5 else rank - 2}"  # two cells away on its file
    refused = await h.slash(mover, "move", {"from": far, "to": to})
    assert refused.reply.ephemeral and f"{far} cannot step to {to}: pieces step one cell, to a neighbour" in (
        refused.reply.text
    )


async def test_autocomplete_offers_only_legal_cells(h: Harness) -> None:
    assert await h.fake.autocomplete(h.alice, "place", {"first": ""}, "first") == []  # no game yet
    await _people_game(h)
    cells = [c["value"] for c in await h.fake.autocomplete(h.alice, "place", {"first": ""}, "first")]
    assert len(cells) == 24  # every empty cell but the centre
    assert "c3" not in cells
    b_cells = [c["value"] for c in await h.fake.autocomplete(h.alice, "place", {"first": "B"}, "first")]
    assert b_cells == [c for c in cells if c.startswith("b")]
    second = [c["value"] for c in await h.fake.autocomplete(h.alice, "place", {"first": "a1", "second": ""}, "second")]
    assert "a1" not in second
    # Fill the board quickly through the service, then ask for steps.
    svc = h.bot.service
    order = FULL_PLACEMENT
    for i in range(0, 24, 2):
        user = h.alice if (i // 2) % 2 == 0 else h.bob
        await svc.place(h.fake.channel_id, user, order[i], order[i + 1])
    froms = [c["value"] for c in await h.fake.autocomplete(h.bob, "move", {"from": ""}, "from")]
    assert froms and set(froms) <= {"c2", "b3", "d3", "c4"}
    tos = [c["value"] for c in await h.fake.autocomplete(h.bob, "move", {"from": froms[0], "to": ""}, "to")]
    assert tos == ["c3"]
    assert await h.fake.autocomplete(h.carol, "move", {"from": ""}, "from") == [], "nothing to suggest to onlookers"


async def test_challenge_buttons_only_for_the_challenged_and_double_click(h: Harness) -> None:
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "size": 7})).reply
    assert "7×7" in challenge.text
    refused = await h.click(h.carol, challenge, "Accept")
    assert refused.reply.ephemeral and "Bob" in refused.reply.text
    assert await h.bot.service.game(h.fake.channel_id) is None
    # Bob double-clicks: both clicks arrive before either is answered.
    first = await h.click(h.bob, challenge, "Accept", wait=False)
    second = await h.fake.click_custom_id(h.bob, challenge, challenge.button("Accept")["custom_id"])
    await h.fake.wait_answer(first)
    await h.idle()
    answers = sorted([first, second], key=lambda i: i.callback_type or 0)
    kinds = [a.callback_type for a in answers]
    assert 7 in kinds, kinds
    other = answers[0] if answers[0].callback_type != 7 or answers[1].callback_type != 7 else answers[1]
    ephemerals = [m for a in (first, second) for m in ([a.original] if a.original else []) + a.followups if m.ephemeral]
    assert len(ephemerals) == 1 and "no longer open" in ephemerals[0].text, other.callbacks
    boards = [m for m in h.fake.channel_messages() if "Alice vs Bob" in m.text or "Bob vs Alice" in m.text]
    assert len(boards) == 1, "exactly one game started"
    # A stale Accept (an old client that still shows the button) is refused too.
    stale = await h.fake.click_custom_id(h.bob, challenge, challenge.button("Accept")["custom_id"], followup=True)
    assert stale.followups and stale.followups[0].ephemeral


async def test_decline_and_refusals(h: Harness) -> None:
    self_challenge = await h.slash(h.alice, "seega challenge", {"opponent": h.alice})
    assert self_challenge.reply.ephemeral and "yourself" in self_challenge.reply.text
    bot_challenge = await h.slash(h.alice, "seega challenge", {"opponent": h.fake.app_id})
    assert bot_challenge.reply.ephemeral and "play-bot" in bot_challenge.reply.text
    # A user id typed into the option resolves to a user who is not a member (review
    # atk41c F9): the challenge was posted, pinged nobody, and could never be accepted.
    outsider = h.fake.add_user("outsider")
    h.fake.outsiders.add(outsider)
    away = await h.slash(h.carol, "seega challenge", {"opponent": outsider})
    assert away.reply.ephemeral and "is not a member of this server" in away.reply.text, away.reply.text
    assert await h.bot.service.storage.pending_challenges_in(h.fake.channel_id) == [], "nothing stored"
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob})).reply
    declined = await h.click(h.bob, challenge, "Decline")
    assert declined.callback_type == 7 and "declined" in challenge.text
    assert all(b.get("disabled") for b in challenge.buttons())
    assert challenge.pinged_user_ids() == {h.bob}, "only the challenged person was pinged"


async def test_a_declined_challenge_is_not_sent_again_at_once(h: Harness) -> None:
    """Outside review atk41c F3 (s3_rechallenge_pings.py): Bob declined, and Alice's next
    challenge pinged him at once, three times a minute for as long as she liked."""
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob})).reply
    await h.click(h.bob, challenge, "Decline")
    again = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob})).reply
    assert again.ephemeral and again.pinged_user_ids() == set(), again.text
    assert again.text.startswith("Bob declined your last challenge: you can challenge them again in 12"), again.text
    pinged = [m for m in h.fake.channel_messages(h.fake.channel_id) if h.bob in m.pinged_user_ids()]
    assert pinged == [challenge], "Bob was pinged by the first challenge only"
    back = (await h.slash(h.bob, "seega challenge", {"opponent": h.alice})).reply
    assert not back.ephemeral and h.alice in back.pinged_user_ids(), "Bob may challenge Alice"


async def test_a_thread_is_named_black_vs_white(h: Harness) -> None:
    """Play-test: Carol challenged Bob as White; the thread read "Carol vs Bob" and the game
    "Bob vs Carol"."""
    options = {"opponent": h.bob, "thread": True, "color": "white"}
    challenge = (await h.slash(h.carol, "seega challenge", options)).reply
    await h.click(h.bob, challenge, "Accept")
    threads = [c for c in h.fake.channels.values() if c["type"] == 11]
    assert [c["name"] for c in threads] == ["Seega: Bob vs Carol"], threads


async def test_challenge_in_a_thread(h: Harness) -> None:
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "thread": True})).reply
    assert "thread" in challenge.text
    accepted = await h.click(h.bob, challenge, "Accept")
    threads = [cid for cid, c in h.fake.channels.items() if c["type"] == 11]
    assert len(threads) == 1
    thread = threads[0]
    await h.fake.wait_for(lambda: h.fake.channel_messages(thread), what="the board in the thread")
    board = h.fake.channel_messages(thread)[0]
    assert "Alice" in board.text and "Bob" in board.text
    assert f"<#{thread}>" in accepted.reply.text
    assert await h.bot.service.game(thread) is not None
    assert await h.bot.service.game(h.fake.channel_id) is None, "the parent channel stays free"
    game = await h.bot.service.game(thread)
    assert game is not None
    # named as the game is, Black first (play-test: thread "Carol vs Bob", game "Bob vs Carol")
    assert h.fake.channels[thread]["name"] == f"Seega: {game.black.name} vs {game.white.name}"
    first = game.black.user_id
    moved = await h.slash(first, "place", {"first": "a1", "second": "b1"}, channel_id=thread)
    assert not moved.reply.ephemeral and moved.reply.channel_id == thread


async def test_resign_with_confirmation(h: Harness) -> None:
    await _people_game(h)
    ask = await h.slash(h.bob, "seega resign")
    assert ask.reply.ephemeral
    resign_id = ask.reply.button("Resign")["custom_id"]
    done = await h.click(h.bob, ask.reply, "Resign", followup=True)
    assert "resigned" in done.reply.text
    result = done.followups[0]
    assert not result.ephemeral and "Alice wins: Bob resigned." in result.text
    assert "→" in result.text, "a resignation is rated"
    assert ask.reply.buttons() == [], "the confirmation is replaced by the answer"
    old = Message(id=ask.reply.id, channel_id=h.fake.channel_id, author_id=h.fake.app_id, components=_row(resign_id))
    again = await h.fake.click_custom_id(h.bob, old, resign_id)
    assert again.reply.ephemeral and "already answered: you resigned" in again.reply.text, again.reply.text


@pytest.mark.usefixtures("machine_speed")  # a Rematch spends the challenge cooldown: lifted, the cap answers
async def test_a_rematch_is_a_challenge_and_counts_against_the_cap(h: Harness) -> None:
    """Replaying a Rematch click (an old client, a script) makes no second challenge."""
    await _people_game(h)
    ask = await h.slash(h.bob, "seega resign")
    done = await h.click(h.bob, ask.reply, "Resign", followup=True)
    final = done.followups[0]
    rematch_id = final.button("Rematch")["custom_id"]
    first = await h.click(h.alice, final, "Rematch", followup=True)
    assert "challenges" in first.followups[0].text and first.followups[0].pinged_user_ids() == {h.bob}
    old = Message(id=final.id, channel_id=h.fake.channel_id, author_id=h.fake.app_id, components=_row(rematch_id))
    for _ in range(5):
        again = await h.fake.click_custom_id(h.alice, old, rematch_id)
        answers = [again.reply, *again.followups]
        assert any(m.ephemeral and "still waiting" in m.text for m in answers), [m.text for m in answers]
    refused = await h.slash(h.alice, "seega challenge", {"opponent": h.bob}, channel_id=h.fake.add_channel("y"))
    assert refused.reply.ephemeral and "still waiting" in refused.reply.text
    pending = await h.bot.service.storage.pending_challenges_from(h.fake.guild_id, h.alice, time.time())
    assert len(pending) == 1


async def test_offer_end_accepted_by_the_opponent_only(h: Harness) -> None:
    await _people_game(h)
    await h.slash(h.alice, "place", {"first": "a1", "second": "b1"})
    refused = (await h.slash(h.alice, "seega offer-end")).reply
    assert refused.ephemeral and "placed" in refused.text, "no count while pieces are being placed"
    await h.slash(h.mod, "seega cancel")
    alice, bob = Player(h.alice, "Alice"), Player(h.bob, "Bob")
    await insert_from(
        h.bot.service, h.fake.channel_id, "bbb2/5/5/5/ww3 b m 0/0 - 0 30", alice, bob, guild_id=h.fake.guild_id
    )
    ask = (await h.slash(h.alice, "seega offer-end")).reply
    assert ask.ephemeral and "Now 3 black, 2 white: Alice would win. If Bob accepts" in ask.text, ask.text
    assert await h.bot.service.game(h.fake.channel_id) is not None
    assert (await h.bot.service.game(h.fake.channel_id)).end_offer_by is None, "explained, not yet sent"  # type: ignore[union-attr]
    sent = await h.click(h.alice, ask, "Offer to end", followup=True)
    assert "sent" in sent.reply.text
    offer = sent.followups[0]
    assert offer.pinged_user_ids() == {h.bob}
    onlooker = await h.click(h.carol, offer, "Accept the end")
    assert onlooker.reply.ephemeral
    accepted = await h.click(h.bob, offer, "Accept the end", followup=True)
    assert all(b.get("disabled") for b in offer.buttons())
    assert "Alice wins" in accepted.followups[0].text and "agreed" in accepted.followups[0].text
    # the offer no longer asks once answered, as a declined one says so (re-check play-test);
    # it does not repeat the final board's "Bob accepts to end the game by count." (play-test)
    assert offer.text == "**Bob** accepted this offer: the game is over.", offer.text
    assert "Bob accepts to end the game by count." in accepted.followups[0].text


async def test_moderator_cancel_and_settings(h: Harness) -> None:
    await _people_game(h)
    refused = await h.slash(h.alice, "seega cancel")
    assert refused.reply.ephemeral and "Manage Channels" in refused.reply.text
    cancelled = await h.slash(h.mod, "seega cancel")
    assert "cancelled" in cancelled.reply.text and "not rated" in cancelled.reply.text
    # who cancelled, and both players, named without a ping (play-test)
    said = cancelled.reply.text.lower()
    assert "cancelled by a moderator (mod)" in said and "alice" in said and "bob" in said, said
    assert "<@" not in cancelled.reply.text
    assert not cancelled.reply.buttons(), "no Rematch after a cancel"
    assert await h.bot.service.game(h.fake.channel_id) is None
    assert (await h.slash(h.alice, "seega settings", {"turn_timeout": "1h"})).reply.ephemeral
    changed = await h.slash(h.mod, "seega settings", {"turn_timeout": "45s", "default_variant": "lane"})
    assert "45s" in changed.reply.text and "lane" in changed.reply.text
    bad = await h.slash(h.mod, "seega settings", {"challenge_timeout": "2s"})
    assert bad.reply.ephemeral and "30" in bad.reply.text
    shown = await h.slash(h.mod, "seega settings")
    assert "45s" in shown.reply.text
    perms = {c["name"]: c for c in h.fake.commands[h.fake.guild_id]}
    assert perms["seega"]["options"], "the group is synced with its subcommands"


async def test_moderation_needs_the_server_wide_permission_not_a_channel_overwrite(h: Harness) -> None:
    """Manage Channels granted in one channel's overwrites does not make a server moderator."""
    await _people_game(h)
    channel_mod = h.fake.add_user("channel-mod", channel_moderator=True)
    refused = await h.slash(channel_mod, "seega cancel")
    assert refused.reply.ephemeral and "Manage Channels" in refused.reply.text
    assert await h.bot.service.game(h.fake.channel_id) is not None, "the game goes on"
    for options in ({"turn_timeout": "45s"}, {}):
        answer = await h.slash(channel_mod, "seega settings", options)
        assert answer.reply.ephemeral and "Manage Channels" in answer.reply.text
    assert (await h.bot.service.get_settings(h.fake.guild_id)).turn_timeout == 3600
    cancelled = await h.slash(h.mod, "seega cancel")  # the Moderators role: server-wide
    assert "cancelled" in cancelled.reply.text


async def test_lookups_leaderboard_stats_history_record_rules_board(h: Harness) -> None:
    await _people_game(h)
    await h.slash(h.alice, "place", {"first": "a1", "second": "b1"})
    board = await h.slash(h.carol, "seega board")
    assert not board.reply.ephemeral and board.reply.pinged_user_ids() == set(), "looking pings nobody"
    ask = await h.slash(h.alice, "seega resign")
    await h.click(h.alice, ask.reply, "Resign", followup=True)
    board_lb = await h.slash(h.carol, "seega leaderboard", {"size": 5})
    text = board_lb.reply.text
    assert "Bob" in text and "Alice" in text and text.index("Bob") < text.index("Alice")
    stats = await h.slash(h.carol, "seega stats", {"user": h.bob})
    assert "1 won" in stats.reply.text
    if h.bot.service.renderer is not None:  # the rated game drew Bob's rating history
        assert stats.reply.png() and stats.reply.attachments[0].filename == "rating-history.png"
    history = await h.slash(h.carol, "seega history", {"user": h.alice})
    assert "#1" in history.reply.text
    assert "Bob wins: Alice resigned. (0-1 to White)" in history.reply.text, "the result in words (play-test finding f)"
    # said once: the reason again ("(0-1, resignation)") repeated the sentence (Discord play-test)
    assert "resignation" not in history.reply.text, history.reply.text
    record = await h.slash(h.carol, "seega record")
    assert record.callback_type == 5, "the record is deferred: a replay can take a while"
    files = {a.filename: a.data for m in [record.reply, *record.followups] for a in m.attachments}
    sgn = files["seega-1.sgn"].decode()
    assert '[Result "0-1"]' in sgn and "a1,b1" in sgn
    if h.bot.service.renderer is not None:
        assert any(name.endswith((".gif", ".png")) for name in files)
    missing = await h.slash(h.carol, "seega record", {"game": 99})
    assert "99" in (missing.followups[0].text if missing.followups else missing.reply.text)
    rules = await h.slash(h.carol, "seega rules", {"variant": "aljaafreh"})
    assert rules.reply.ephemeral and "loses" in rules.reply.text
    await h.slash(h.alice, "seega play-bot", {"level": "easy"})
    history = await h.slash(h.carol, "seega history", {"user": h.alice})
    assert "in progress" in history.reply.text and "(*" not in history.reply.text, history.reply.text


async def test_rules_text_follows_the_variant(h: Harness) -> None:
    """Five-in-a-row has no movement phase and one board size; no "piece(s)" anywhere."""
    five = (await h.slash(h.carol, "seega rules", {"variant": "five-in-a-row"})).reply.text
    assert "5×5" in five and "7×7" not in five and "9×9" not in five
    assert "Pieces never move" in five and "step up, down" not in five and "end-turn" not in five
    standard = (await h.slash(h.carol, "seega rules", {"variant": "standard"})).reply.text
    assert "5×5, 7×7, 9×9" in standard and "(s)" not in standard and "0 piece" not in standard
    assert "Capture every enemy piece to win." in standard
    assert "differs from standard" not in standard
    # play-test: the rules never pointed a newcomer to the lessons; the last line does
    assert standard.rstrip().endswith(
        "• New to Seega? /seega learn teaches it in 8 short lessons on a real board; start a game with"
        " /seega play-bot (against the bot) or /seega challenge (against a friend)."
    ), standard
    arabic = (await h.slash(h.carol, "seega rules", {"variant": "standard"}, locale="ar")).reply.text
    assert "/seega learn" in arabic.splitlines()[-1] and "8 دروس" in arabic.splitlines()[-1], arabic
    # newcomer play-test: nothing said how a variant differs; at the top of its rules now,
    # and at the start of a game of it
    ludii = (await h.slash(h.carol, "seega rules", {"variant": "ludii"})).reply.text
    assert ludii.index("How it differs from standard:") < ludii.index("• Two players"), ludii
    assert "Not in this variant: The shuttle limit" in ludii.split("• Two players")[0], ludii
    start = await h.slash(h.carol, "seega play-bot", {"level": "easy", "variant": "seejeh"})
    assert "How it differs from standard:\n• A longer line of enemy pieces" in start.reply.text, start.reply.text


async def test_cooldown_on_starting_bot_games(h: Harness) -> None:
    answers = [await h.slash(h.carol, "seega play-bot", {"level": "easy"}) for _ in range(3)]
    await h.idle()
    assert not answers[0].reply.ephemeral
    assert answers[1].reply.ephemeral  # the channel is busy
    assert answers[2].reply.ephemeral and "try again" in answers[2].reply.text


async def test_unexpected_error_gets_an_apology_with_an_id(h: Harness, caplog: pytest.LogCaptureFixture) -> None:
    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("database on fire")

    h.bot.service.leaderboard = broken  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR):
        answer = await h.slash(h.alice, "seega leaderboard")
    assert answer.reply.ephemeral and "database" not in answer.reply.text
    error_id = re.search(r"`([0-9a-f]{8})`", answer.reply.text)
    assert error_id is not None
    logged = [r for r in caplog.records if error_id.group(1) in r.getMessage()]
    assert logged and logged[0].exc_info is not None, "the traceback is logged under the same id"


async def test_stale_end_turn_button(h: Harness) -> None:
    first_board = await _people_game(h)
    fake_chain = Message(
        id=first_board.id, channel_id=h.fake.channel_id, author_id=h.fake.app_id, components=_row("seega:endturn:12345")
    )
    answer = await h.fake.click_custom_id(h.alice, fake_chain, "seega:endturn:12345", followup=True)
    assert any(m.ephemeral and "no longer applies" in m.text for m in [*answer.followups, answer.reply])


async def test_bot_turns_respect_the_guild_cap(h: Harness) -> None:
    """Several bot games at once in one guild: all get their turns, never more than the cap at a time."""
    channels = [h.fake.add_channel(f"room-{i}") for i in range(4)]
    await h.fake.dispatch("GUILD_CREATE", h.fake.guild_payload())
    users = [h.fake.add_user(f"p{i}") for i in range(4)]
    peak = 0
    ai = h.bot.service.games.ai
    real = ai.choose_turn
    cap = h.bot.service.games.limits.ai_running

    async def counting(request: object) -> list[str]:
        nonlocal peak
        peak = max(peak, h.bot.service.games.ai_queue.in_line(h.fake.guild_id)[0])
        await asyncio.sleep(0.02)
        return await real(request)  # type: ignore[arg-type]

    ai.choose_turn = counting  # type: ignore[method-assign]
    starts = [
        h.slash(u, "seega play-bot", {"level": "easy", "color": "white"}, channel_id=c)
        for u, c in zip(users, channels, strict=True)
    ]
    await asyncio.gather(*starts)
    await h.idle()
    assert cap == h.bot.settings.ai_per_guild == 2 and 1 <= peak <= cap
    for channel in channels:
        game = await h.bot.service.game(channel)
        assert game is not None and game.turn == 2, "the bot (black) played its first turn"


async def test_offer_end_against_the_bot_ends_at_once(h: Harness) -> None:
    await h.slash(h.alice, "seega play-bot", {"level": "easy", "color": "black"})
    await h.slash(h.alice, "place", {"first": "a1", "second": "b1"})
    await h.idle()
    refused = (await h.slash(h.alice, "seega offer-end")).reply
    assert refused.ephemeral and "placed" in refused.text, "no count while pieces are being placed"
    await h.bot.service.resign(h.fake.channel_id, h.alice)
    # the movement phase, the bot (Black) ahead 3 to 2: it accepts a count it wins
    alice = Player(h.alice, "Alice")
    await insert_from(
        h.bot.service,
        h.fake.channel_id,
        "bbb2/5/5/5/ww3 w m 0/0 - 0 30",
        Player.bot("easy"),
        alice,
        guild_id=h.fake.guild_id,
    )
    ask = await h.slash(h.alice, "seega offer-end")
    assert (
        ask.reply.ephemeral and "Seega bot (easy) would win" in ask.reply.text and "answers at once" in ask.reply.text
    )
    sent = await h.click(h.alice, ask.reply, "Offer to end", followup=True)
    ended = sent.followups[0]
    assert not ended.ephemeral and "agreed" in ended.text
    assert "Seega bot (easy) accepts ending the game by count." in ended.text
    assert ended.button("Rematch")
    assert await h.bot.service.game(h.fake.channel_id) is None
    again = await h.click(h.alice, ended, "Rematch", followup=True)
    assert "your turn" in again.followups[0].text or "thinking" in again.followups[0].text
    await h.idle()
    game = await h.bot.service.game(h.fake.channel_id)
    assert game is not None and game.black.user_id == h.alice, "the rematch swaps colours"


async def test_takeback_moves_and_games(h: Harness) -> None:
    """Against the bot: take back a turn; /seega moves lists the turns; /seega games links the game."""
    await h.slash(h.alice, "seega play-bot", {"level": "easy", "color": "black"})
    await h.idle()
    await h.slash(h.alice, "place", {"first": "a1", "second": "b1"})
    await h.idle()
    moves = (await h.slash(h.carol, "seega moves")).reply
    assert "1. b a1 b1" in moves.text and "2. w " in moves.text
    board = (await h.slash(h.carol, "seega board")).reply
    # the turn message lists the last turns, each side as its stone (the record's "b"/"w"
    # was a letter newcomers did not read: Discord play-test)
    assert "Last turns: 1. ⚫ a1 b1 · 2. ⚪ " in board.text, board.text
    back = (await h.slash(h.alice, "seega takeback")).reply
    # Worded for the reader, as the rest of a game against the bot (play-test finding: "Alice
    # took back their last turn: it is their turn again").
    assert not back.ephemeral and "You took back your last turn: it is your turn again" in back.text, back.text
    game = await h.bot.service.game(h.fake.channel_id)
    assert game is not None and game.turn == 1 and game.pieces == (0, 0)
    listed = (await h.slash(h.carol, "seega games")).reply
    assert f"<#{h.fake.channel_id}>" in listed.text and "Seega bot" in listed.text
    refused = (await h.slash(h.carol, "seega takeback")).reply
    assert refused.ephemeral  # not a player
    await h.bot.service.resign(h.fake.channel_id, h.alice)
    finished = (await h.slash(h.carol, "seega moves")).reply
    assert finished.text.rstrip().endswith("Seega bot (easy) wins: Alice resigned."), finished.text


async def test_the_longest_hostile_text_gets_a_short_private_answer(h: Harness) -> None:
    """6,000 characters (Discord's most for an option) in every text option of a game.

    The answer echoes a few of them: echoed whole it would pass Discord's 2,000-character
    limit for a message, and the member would get no answer at all.
    """
    await _people_game(h)
    before = await _spn(h)
    long_texts = ["b2" + " " * 5997 + "!", "a1" * 3000, "😀" * 3000]
    for text in long_texts:
        for user, command, options in [
            (h.alice, "move", {"from": text}),
            (h.alice, "place", {"first": text}),
            (h.alice, "remove", {"cell": text}),
            (h.mod, "seega settings", {"turn_timeout": text}),
        ]:
            reply = (await h.slash(user, command, options, timeout=10.0)).reply
            assert reply.ephemeral and len(reply.text) < 400, f"/{command}: {reply.text[:100]}..."
            assert "error id" not in reply.text
        choices = await h.fake.autocomplete(h.alice, "move", {"from": "b2", "to": text}, "to")
        assert choices == []
    assert await _spn(h) == before


async def test_draw_offer_explained_then_accepted_or_declined_by_the_opponent(h: Harness) -> None:
    await _people_game(h)
    onlooker = await h.slash(h.carol, "seega draw")
    assert onlooker.reply.ephemeral and "player" in onlooker.reply.text.lower()
    ask = await h.slash(h.bob, "seega draw")
    assert ask.reply.ephemeral and "½-½" in ask.reply.text and "ratings" in ask.reply.text, ask.reply.text
    sent = await h.click(h.bob, ask.reply, "Offer a draw", followup=True)
    assert "sent" in sent.reply.text and ask.reply.buttons() == []
    offer = sent.followups[0]
    assert not offer.ephemeral and "offers a draw" in offer.text and offer.pinged_user_ids() == {h.alice}
    assert (await h.click(h.bob, offer, "Accept the draw")).reply.ephemeral, "the offerer cannot accept"
    assert (await h.click(h.carol, offer, "Decline")).reply.ephemeral, "nor can an onlooker"
    declined = await h.click(h.alice, offer, "Decline")
    assert "declines the draw" in declined.reply.text and all(b.get("disabled") for b in offer.buttons())
    again = await h.slash(h.bob, "seega draw")  # refused at once, before any explanation
    assert again.reply.ephemeral and "after your next turn" in again.reply.text, again.reply.text
    assert not again.reply.buttons()
    # Alice offers in turn, withdraws it with her Decline (as an offer to end by count is
    # withdrawn; it answered "no draw offer for you to answer"), may not offer again before
    # her next turn (offer, withdraw, offer pinged Bob at will), then does; Bob accepts
    ask = await h.slash(h.alice, "seega draw")
    offer = (await h.click(h.alice, ask.reply, "Offer a draw", followup=True)).followups[0]
    withdrawn = await h.click(h.alice, offer, "Decline")
    assert withdrawn.reply.text == "**Alice** withdrew the draw offer: the game goes on.", withdrawn.reply.text
    assert all(b.get("disabled") for b in offer.buttons())
    again = await h.slash(h.alice, "seega draw")
    assert again.reply.ephemeral and "withdrew" in again.reply.text and not again.reply.buttons(), again.reply.text
    await h.slash(h.alice, "place", {"first": "a1", "second": "e5"})
    ask = await h.slash(h.alice, "seega draw")
    offer = (await h.click(h.alice, ask.reply, "Offer a draw", followup=True)).followups[0]
    accepted = await h.click(h.bob, offer, "Accept the draw", followup=True)
    final = accepted.followups[0]
    assert "Bob accepts the draw" in final.text and "Draw:" in final.text and "→" in final.text, final.text
    assert offer.text == "**Bob** accepted this offer: the game is over.", offer.text
    assert await h.bot.service.game(h.fake.channel_id) is None


async def test_draw_offer_to_the_bot_is_answered_at_once(h: Harness) -> None:
    await h.bot.service.play_bot(h.fake.guild_id, h.fake.channel_id, Player(h.alice, "Alice"), "easy", 5, None, "black")
    ask = await h.slash(h.alice, "seega draw")
    assert ask.reply.ephemeral and "not rated" in ask.reply.text
    answer = await h.click(h.alice, ask.reply, "Offer a draw", wait=True)
    await h.fake.wait_for(lambda: answer.followups, what="the bot's answer")
    texts = [m.text for m in answer.followups]
    # the empty board at the start is even: the bot does not think itself ahead, and accepts
    assert any("Seega bot (easy) accepts the draw" in t and "Draw:" in t for t in texts), texts
    assert await h.bot.service.game(h.fake.channel_id) is None


async def test_the_last_placement_announces_the_movement_phase(h: Harness) -> None:
    """Play-test finding d: nothing said that /place was over and /move had begun."""
    await _people_game(h)
    svc = h.bot.service
    for i in range(0, 22, 2):
        user = h.alice if (i // 2) % 2 == 0 else h.bob
        answer = await h.slash(user, "place", {"first": FULL_PLACEMENT[i], "second": FULL_PLACEMENT[i + 1]})
        assert "movement phase" not in answer.reply.text
    last = await h.slash(h.bob, "place", {"first": FULL_PLACEMENT[22], "second": FULL_PLACEMENT[23]})
    assert "All pieces are placed: the movement phase begins; Bob moves first." in last.reply.text, last.reply.text
    game = await svc.game(h.fake.channel_id)
    assert game is not None and game.phase == "m"


async def test_a_whole_chain_in_one_move(h: Harness) -> None:
    """``/move from:"d3 c3 c2 b2"`` plays a chain of captures in one command; a refused step
    plays nothing and says which step (play-test finding b)."""
    alice, bob = Player(h.alice, "Alice"), Player(h.bob, "Bob")
    chain = "wbbbw/wwbwb/bb1ww/wbbbb/wbwww w m 0/0 - 0 25"  # Bob (White): d3-c3, c3-c2, c2-b2
    await insert_from(h.bot.service, h.fake.channel_id, chain, alice, bob, guild_id=h.fake.guild_id)
    refused = await h.slash(h.bob, "move", {"from": "d3 c3 c2 c1"})
    assert refused.reply.ephemeral and "Step 3 of your chain, c2-c1, is refused" in refused.reply.text
    assert await _spn(h) == chain, "nothing was half-played"
    played = await h.slash(h.bob, "move", {"from": "D3-c3-c2-b2"})
    assert not played.reply.ephemeral and "d3→c3" in played.reply.text and "c2→b2" in played.reply.text
    assert played.reply.pinged_user_ids() == {h.alice}
    assert (await _spn(h)).startswith("wbbbw/wwbwb/b3w/ww1bb/wbwww b m")


async def test_a_step_beside_the_safe_centre_is_explained(h: Harness) -> None:
    alice, bob = Player(h.alice, "Alice"), Player(h.bob, "Bob")
    spn = "bwwwb/wbbwb/bbw1w/wbwbw/bbwwb b m 0/0 - 0 16"  # d2-d3 flanks White's c3 with b3
    await insert_from(h.bot.service, h.fake.channel_id, spn, alice, bob, guild_id=h.fake.guild_id)
    played = await h.slash(h.alice, "move", {"from": "d2", "to": "d3"})
    assert "c3 stands on the centre, where no piece can be captured" in played.reply.text, played.reply.text


async def test_a_display_name_that_overrides_direction_cannot_turn_messages_around(h: Harness) -> None:
    """Discord's display names may hold a right-to-left override, which reorders the rest
    of the line it is shown in: the name is shown without it, in the game and in the
    draw message read straight from Discord (not from the stored game)."""
    mallory = h.fake.add_user("\u202emallory\u2066")
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": mallory, "color": "black"})).reply
    accepted = await h.click(mallory, challenge, "Accept", followup=True)
    assert "**mallory** accepted **Alice**'s challenge" in accepted.reply.text + accepted.followups[0].text
    ask = await h.slash(h.alice, "seega draw")
    offer = (await h.click(h.alice, ask.reply, "Offer a draw", followup=True)).followups[0]
    final = (await h.click(mallory, offer, "Accept the draw", followup=True)).followups[0]
    assert "mallory accepts the draw" in final.text, final.text
    shown = [accepted.reply.text, *(m.text for m in h.fake.channel_messages())]
    assert not [t for t in shown if "\u202e" in t or "\u2066" in t]


def test_a_display_name_cannot_make_the_bot_post_a_link() -> None:
    """Outside review (stop 36): a member named "[Free Nitro](https://…)" had the bot post
    a disguised, clickable link in every line naming them. The adapter breaks the link
    markdown with an invisible word joiner (and escapes it, stop 40); the pictures draw
    the name unchanged."""
    from types import SimpleNamespace

    from bot.flows import name_of
    from bot.render import render_board
    from bot.texts import plain_name
    from engine import Position, Ruleset

    hostile = "[Free Nitro](https://evil.example)"
    shown = name_of(SimpleNamespace(display_name=hostile))  # type: ignore[arg-type]
    assert "](" not in shown and "://" not in shown and plain_name(shown) == hostile
    assert name_of(SimpleNamespace(display_name="Amira")) == "Amira"  # type: ignore[arg-type]
    start = Position(Ruleset())
    assert render_board(start, players=(shown, "Omar")) == render_board(start, players=(hostile, "Omar"))


async def test_resigning_while_ahead_says_so_before_it_is_confirmed(h: Harness) -> None:
    """Console play-test (stop 38): a newcomer ahead 12 to 9 resigned a stuck game with
    nothing saying that resigning loses anyway; the question now says when you are ahead."""
    alice, bob = Player(h.alice, "Alice"), Player(h.bob, "Bob")
    await insert_from(
        h.bot.service, h.fake.channel_id, "bbb2/5/5/5/ww3 w m 0/0 - 0 30", alice, bob, guild_id=h.fake.guild_id
    )
    ahead = (await h.slash(h.alice, "seega resign")).reply
    assert ahead.ephemeral and "You have more pieces on the board (3 against 2)" in ahead.text, ahead.text
    behind = (await h.slash(h.bob, "seega resign")).reply
    assert "more pieces" not in behind.text, behind.text


async def test_rules_without_a_variant_show_the_servers_default(h: Harness) -> None:
    """Play-test: ``/seega rules`` showed standard whatever the server's default variant."""
    assert "standard" in (await h.slash(h.alice, "seega rules")).reply.text.lower()
    await h.slash(h.mod, "seega settings", {"default_variant": "five-in-a-row"})
    shown = await h.slash(h.alice, "seega rules")
    assert "five-in-a-row" in shown.reply.text.lower(), shown.reply.text
    seven = await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "size": 7})
    assert not seven.reply.ephemeral and "7×7" in seven.reply.text, seven.reply.text


async def test_a_moderator_who_plays_is_told_to_resign_not_to_cancel(h: Harness) -> None:
    challenge = (await h.slash(h.mod, "seega challenge", {"opponent": h.alice, "color": "black"})).reply
    await h.click(h.alice, challenge, "Accept", followup=True)
    refused = await h.slash(h.mod, "seega cancel")
    assert refused.reply.ephemeral and "resign" in refused.reply.text, refused.reply.text
    game = await h.bot.service.game(h.fake.channel_id)
    assert game is not None and game.status == "active"


async def test_the_leaderboard_with_no_size_shows_the_size_with_rated_games(h: Harness) -> None:
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "size": 7})).reply
    await h.click(h.bob, challenge, "Accept", followup=True)
    await h.bot.service.resign(h.fake.channel_id, h.bob)
    shown = await h.slash(h.carol, "seega leaderboard")
    assert "7×7" in shown.reply.text and "Alice" in shown.reply.text, shown.reply.text
    assert "No rated games" not in shown.reply.text


async def test_a_second_challenge_is_told_how_to_withdraw_the_first(h: Harness) -> None:
    """Play-test: "wait for it to be answered or to expire" left out that its Decline
    button withdraws it; the refusal names the button the challenge shows."""
    first = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob})).reply
    other = h.fake.add_channel("x")
    again = await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "size": 7}, channel_id=other)
    assert again.reply.ephemeral and "still waiting" in again.reply.text, again.reply.text
    label = first.button("Decline")["label"]
    # The button reads "Decline / Withdraw": the opponent's word, then the challenger's.
    withdraw = label.split(" / ")[-1]
    assert withdraw == "Withdraw" and f"withdraw it with **{withdraw}** on its button" in again.reply.text
    withdrawn = await h.click(h.alice, first, "Decline")
    assert "withdrew" in withdrawn.reply.text or "withdrew" in first.text, (withdrawn.reply.text, first.text)


async def test_every_moderator_only_refusal_says_it_the_same_way(h: Harness) -> None:
    """Play-test: settings said "Only moderators (Manage Channels) can do that.", cancel
    "Only the server's moderators (Manage Channels, from their roles) can do that."."""
    await _people_game(h)
    said = {
        (await h.slash(h.alice, command, options)).reply.text
        for command, options in (("seega settings", {}), ("seega settings", {"hints": 2}), ("seega cancel", {}))
    }
    assert said == {"Only the server's moderators (Manage Channels, from their roles) can do that."}, said


async def test_games_of_a_channel_one_cannot_read_are_not_shown(h: Harness) -> None:
    """Outside review (stop 40): games are kept per server, so a member could list, and
    fetch the moves of, a game played in a private channel they cannot read. Now such a
    game is never in a public answer, named by number it is answered as a game that does
    not exist, and its own players asking elsewhere are answered privately (play-test,
    stop 40: Alice's question in #games posted her #secret game for everyone)."""
    view = 1 << 10 | 1 << 16  # View Channel, Read Message History
    secret = h.fake.add_channel("secret")
    channel = h.fake.channels[secret]
    channel["permission_overwrites"] = [
        {"id": str(h.fake.guild_id), "type": 0, "allow": "0", "deny": str(view)},  # @everyone
        *({"id": str(uid), "type": 1, "allow": str(view), "deny": "0"} for uid in (h.alice, h.bob)),
    ]
    await h.fake.dispatch("CHANNEL_CREATE", channel)
    challenge = await h.slash(h.alice, "seega challenge", {"opponent": h.bob}, channel_id=secret)
    await h.click(h.bob, challenge.reply, "Accept", followup=True)
    # Named by number while in progress: the same answer as a game that does not exist
    # (a review's "is in progress" told the outside review the hidden game was there).
    early = await h.slash(h.carol, "seega review", {"game": 1})
    assert "There is no game #1 in this server." in early.reply.text, early.reply.text
    watching = await h.slash(h.carol, "seega games")
    assert "#1" not in watching.reply.text, watching.reply.text
    assert "#1" not in (await h.slash(h.alice, "seega games")).reply.text  # a public list: not even hers
    assert "#1" in (await h.slash(h.alice, "seega games", channel_id=secret)).reply.text  # its own channel
    ask = await h.slash(h.bob, "seega resign", channel_id=secret)
    await h.click(h.bob, ask.reply, "Resign", followup=True)
    history = await h.slash(h.carol, "seega history")
    assert "#1" not in history.reply.text, history.reply.text
    of_alice = await h.slash(h.carol, "seega history", {"user": h.alice})  # another member's id
    assert "#1" not in of_alice.reply.text and not of_alice.reply.ephemeral, of_alice.reply.text
    # Her own history in #games lists it, to her alone (play-test pt41: a player's game of
    # a private or deleted channel was in nobody's history, not even hers).
    hers = (await h.slash(h.alice, "seega history")).reply
    assert "#1" in hers.text and hers.ephemeral, (hers.text, hers.ephemeral)
    assert "#1" in (await h.slash(h.alice, "seega history", channel_id=secret)).reply.text
    record = await h.slash(h.carol, "seega record", {"game": 1})
    assert record.reply.ephemeral and "There is no game #1 in this server." in record.reply.text, record.reply.text
    assert not record.followups and not record.reply.attachments
    review = await h.slash(h.carol, "seega review", {"game": 1})
    assert review.reply.ephemeral and "There is no game #1 in this server." in review.reply.text, review.reply.text
    mine = await h.slash(h.bob, "seega record", {"game": 1})  # Bob, in #games: to him alone
    assert mine.reply.ephemeral and mine.followups and all(m.ephemeral for m in mine.followups), mine.followups
    files = {a.filename for m in [mine.reply, *mine.followups] for a in m.attachments}
    assert "seega-1.sgn" in files
    theirs = await h.slash(h.alice, "seega review", {"game": 1})
    assert theirs.reply.ephemeral and "Review of game #1" in theirs.reply.text, theirs.reply.text
    public = [m for m in h.fake.channel_messages() if "seega-1.sgn" in {a.filename for a in m.attachments}]
    assert public == [], "nothing of the game was posted in #games"


async def test_a_game_in_an_archived_thread_of_a_private_channel_stays_hidden(h: Harness) -> None:
    """Outside review (stop 40): discord.py drops an archived thread from its cache (the
    bot's threads archive after a day), and a channel it did not know hid nothing, so a
    private channel's thread games came back into everyone's history a day later. A
    channel not in the cache is fetched; one that cannot be fetched shows its games to
    their players only."""
    view = 1 << 10 | 1 << 16
    secret = h.fake.add_channel("secret")
    channel = h.fake.channels[secret]
    channel["permission_overwrites"] = [
        {"id": str(h.fake.guild_id), "type": 0, "allow": "0", "deny": str(view)},
        *({"id": str(uid), "type": 1, "allow": str(view), "deny": "0"} for uid in (h.alice, h.bob)),
    ]
    await h.fake.dispatch("CHANNEL_CREATE", channel)
    options = {"opponent": h.bob, "thread": True}
    challenge = await h.slash(h.alice, "seega challenge", options, channel_id=secret)
    await h.click(h.bob, challenge.reply, "Accept")
    await h.idle()
    (thread,) = [c for c in h.fake.channels.values() if c["type"] == 11]
    ask = await h.slash(h.bob, "seega resign", channel_id=int(thread["id"]))
    await h.click(h.bob, ask.reply, "Resign", followup=True)
    thread["thread_metadata"]["archived"] = True
    await h.fake.dispatch("THREAD_UPDATE", thread)  # out of the bot's cache
    await h.idle()
    assert h.bot.get_channel(int(thread["id"])) is None
    assert "#1" not in (await h.slash(h.carol, "seega history")).reply.text
    hers = await h.slash(h.alice, "seega record", {"game": 1})  # a player: to her alone
    assert hers.reply.ephemeral and any("#1" in m.text for m in hers.followups), hers.followups
    review = await h.slash(h.carol, "seega review", {"game": 1})
    assert "There is no game #1 in this server." in review.reply.text, review.reply.text
    del h.fake.channels[secret], h.fake.channels[int(thread["id"])]  # deleted: cannot be fetched
    await h.fake.dispatch("CHANNEL_DELETE", channel)
    assert "#1" not in (await h.slash(h.carol, "seega history")).reply.text
    bobs = await h.slash(h.bob, "seega record", {"game": 1})
    assert bobs.reply.ephemeral and "There is no game" not in bobs.reply.text, bobs.reply.text


async def test_a_game_in_a_private_thread_is_shown_to_its_members_only(h: Harness) -> None:
    """discord.py answers a thread's permissions from its parent's, and everyone may read
    the parent of a private thread: a private thread's game asks its reader to be in the
    thread (or to manage threads), and is answered to them alone."""
    parent = h.fake.channels[h.fake.channel_id]  # members here may not manage threads
    parent["permission_overwrites"] = [{"id": str(h.fake.guild_id), "type": 0, "allow": "0", "deny": str(1 << 34)}]
    await h.fake.dispatch("CHANNEL_UPDATE", parent)
    private = await h.fake.add_thread(12, h.alice, members=[h.alice, h.bob, h.carol])
    await h.idle()
    alice, bob = Player(h.alice, "Alice"), Player(h.bob, "Bob")
    await insert_from(h.bot.service, private, "bb2b/3b1/2bww/3ww/2bww w m 0/0 - 0 30", alice, bob,
                      guild_id=h.fake.guild_id)  # fmt: skip
    assert "#1" not in (await h.slash(h.carol, "seega games")).reply.text  # never in a public list
    inside = await h.slash(h.carol, "seega record", {"game": 1})  # Carol is in the thread: to her alone
    assert inside.reply.ephemeral and any("#1" in m.text for m in inside.followups), inside.followups
    h.fake.channels[private]["members"] = [h.alice, h.bob]  # Carol leaves the thread
    outside = await h.slash(h.carol, "seega record", {"game": 1})
    assert "There is no game #1 in this server." in outside.reply.text, outside.reply.text
    moderator = await h.slash(h.mod, "seega record", {"game": 1})  # a moderator manages threads
    assert moderator.reply.ephemeral and any("#1" in m.text for m in moderator.followups), moderator.followups


def test_an_ai_that_cannot_answer_a_hint_is_said_plainly() -> None:
    """A hint or a review whose AI workers failed (or hung and were replaced) reached the
    user as "Sorry, something went wrong on our side… error id" (outside review, stop 40:
    such jobs now end in AiUnavailableError): it is said plainly, in both languages."""
    from bot.ai_pool import AiUnavailableError
    from bot.tree import error_text

    english = error_text("en-US", AiUnavailableError("an AI worker process hung"))
    assert english is not None and english.startswith("The engine cannot answer right now"), english
    arabic = error_text("ar", AiUnavailableError("an AI worker process hung"))
    assert arabic is not None and "المحرك" in arabic, arabic


async def test_a_list_looks_up_each_unknown_channel_once(h: Harness) -> None:
    """Three finished games of one channel the bot does not know: ``/seega history``
    fetched that channel once per game; it is looked up once per answer."""
    gone = h.fake.snowflake()  # a channel deleted since: every fetch is refused
    alice, bob = Player(h.alice, "Alice"), Player(h.bob, "Bob")
    for _ in range(3):
        await insert_from(h.bot.service, gone, "bb2b/3b1/2bww/3ww/2bww w m 0/0 - 0 30", alice, bob,
                          guild_id=h.fake.guild_id)  # fmt: skip
        await h.bot.service.resign(gone, h.bob)
    before = len(h.fake.requests)
    history = await h.slash(h.carol, "seega history")
    assert "#1" not in history.reply.text and "#3" not in history.reply.text, history.reply.text
    fetched = [r for r in h.fake.requests[before:] if r.method == "GET" and r.path.endswith(f"/channels/{gone}")]
    assert len(fetched) == 1, fetched
