"""Per-person cooldowns of the costly commands, through the real discord.py client.

A member sending a command that costs a search or a picture again and again is refused
at the door, privately, with how long to wait; what they asked first is answered as
usual, and another member asking the same meanwhile is not refused (docs/limits.md).
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from bot.cooldowns import RATES
from tests.discord.fake_discord import Message
from tests.discord.harness import Harness
from tests.discord.test_coach import said

WAIT = re.compile(r"Slow down a little: try again in (\d+) s\.")


def wait_of(answer: Message) -> int | None:
    """The seconds a cooldown refusal asks to wait, ``None`` for any other answer."""
    found = WAIT.fullmatch(answer.text)
    return int(found.group(1)) if found else None


def refused_for_a_while(answer: Message, command: str) -> None:
    """``answer`` is the cooldown refusal of ``command``: private, nothing attached, a wait
    of at least a second and at most the command's window."""
    seconds = wait_of(answer)
    assert seconds is not None, (command, answer.text)
    assert answer.ephemeral and answer.attachments == [], command
    assert 1 <= seconds <= RATES[command][1], (command, seconds)


async def _bot_game(h: Harness, user: int, channel: int | None = None) -> None:
    started = await h.slash(user, "seega play-bot", {"level": "easy", "color": "black", "size": 5}, channel_id=channel)
    assert not started.reply.ephemeral, started.reply.text


async def test_rapid_hints_are_refused_with_the_wait_and_another_player_is_not(h: Harness) -> None:
    """Measured before (bench/flood.py): fifty hints at once from one member, each a
    search; now the fourth within ten seconds is refused before any work, and Bob, in his
    own game meanwhile, gets his hint."""
    bobs_room = h.fake.add_channel("bobs-room")
    await h.fake.dispatch("GUILD_CREATE", h.fake.guild_payload())
    await _bot_game(h, h.alice)
    await _bot_game(h, h.bob, bobs_room)
    await h.idle()
    uses = RATES["hint"][0]
    searches: list[object] = []
    real = h.bot.service.coach.hints.work

    class Counted:
        async def run(self, fn: Any, arg: Any) -> Any:
            searches.append(arg)
            return await real.run(fn, arg)

    h.bot.service.coach.hints.work = Counted()  # type: ignore[assignment]
    hints = h.bot.service.coach.hints
    served: list[int] = []
    ask = hints.hint

    async def counted_hint(*args: Any, **kwargs: Any) -> Any:
        served.append(1)
        return await ask(*args, **kwargs)

    hints.hint = counted_hint  # type: ignore[method-assign]
    answers = [said(await h.slash(h.alice, "seega hint")) for _ in range(uses + 2)]
    first = answers[0]
    assert first.ephemeral and "**Hint** (1 of 3)" in first.text and first.png(), first.text
    for again in answers[1:uses]:
        assert "asked again: not counted" in again.text, again.text
    for refused in answers[uses:]:
        refused_for_a_while(refused, "hint")
    assert len(served) == uses, "a refused hint never reaches the service"
    assert len(searches) == 1, "the answered ones, at one position, share one search"
    bobs = said(await h.slash(h.bob, "seega hint", channel_id=bobs_room))
    assert bobs.ephemeral and "**Hint** (1 of 3)" in bobs.text, bobs.text


async def test_rapid_reviews_are_refused_with_the_wait_and_another_member_is_not(h: Harness) -> None:
    await _bot_game(h, h.alice)
    await h.slash(h.alice, "place", {"first": "b3", "second": "d3"})
    await h.idle()
    ask = await h.slash(h.alice, "seega resign")
    await h.click(h.alice, ask.reply, "Resign", followup=True)
    await h.idle()
    uses = RATES["review"][0]
    answers = []
    for _ in range(uses + 1):
        asked = await h.slash(h.carol, "seega review", timeout=60)
        for _ in range(1200):  # a computed review first shows its progress line
            if "Review of game" in said(asked).text or wait_of(said(asked)) is not None:
                break
            await asyncio.sleep(0.05)
        answers.append(said(asked))
    assert "Review of game #1" in answers[0].text and not answers[0].ephemeral, answers[0].text
    assert all("(stored review)" in a.text for a in answers[1:uses]), [a.text for a in answers]
    refused_for_a_while(answers[uses], "review")
    bobs = said(await h.slash(h.bob, "seega review", {"game": 1}))
    assert "Review of game #1" in bobs.text and "(stored review)" in bobs.text, bobs.text


#: The other costly commands and the options a first, answered request uses.
OTHERS: dict[str, dict[str, Any]] = {
    "board": {},
    "solve": {"answer": "b2 c2"},
    "puzzle": {"new": True},
    "learn": {},
    "stats": {},
    "record": {},
}


async def test_every_costly_command_refuses_one_persons_flood_and_not_the_next_person(h: Harness) -> None:
    """For each command that draws a picture or judges an answer: Carol's requests are
    answered up to the command's rate, the next one is refused with the wait, and Bob,
    asking right after, is answered."""
    await _bot_game(h, h.alice)  # a game in the channel to show and to record
    await h.idle()
    for command, options in OTHERS.items():
        uses = RATES[command][0]
        answers = [said(await h.slash(h.carol, f"seega {command}", options)) for _ in range(uses + 1)]
        for answered in answers[:uses]:
            assert wait_of(answered) is None and answered.text, (command, answered.text)
        refused_for_a_while(answers[uses], command)
        bobs = said(await h.slash(h.bob, f"seega {command}", options))
        assert wait_of(bobs) is None, (command, bobs.text)
    assert set(OTHERS) | {"hint", "review", "challenge", "play-bot", "takeback"} == set(RATES)


async def test_rapid_takebacks_are_refused_with_the_wait_and_another_player_is_not(h: Harness) -> None:
    """Each takeback against the bot draws a board; one member's flood had no limit."""
    bobs_room = h.fake.add_channel("bobs-room")
    await h.fake.dispatch("GUILD_CREATE", h.fake.guild_payload())
    await _bot_game(h, h.alice)
    await _bot_game(h, h.bob, bobs_room)
    await h.slash(h.alice, "place", {"first": "b3", "second": "d3"})
    await h.idle()
    uses = RATES["takeback"][0]
    answers = [said(await h.slash(h.alice, "seega takeback")) for _ in range(uses + 1)]
    assert not answers[0].ephemeral and answers[0].png(), answers[0].text
    for answered in answers[1:uses]:
        assert wait_of(answered) is None, answered.text
    refused_for_a_while(answers[uses], "takeback")
    bobs = said(await h.slash(h.bob, "seega takeback", channel_id=bobs_room))
    assert wait_of(bobs) is None, bobs.text


async def test_a_rematch_against_the_bot_counts_with_play_bot(h: Harness) -> None:
    """A Rematch against the bot starts a game as /seega play-bot does: it had no limit,
    so pressing it after each resignation started games as fast as one could click."""
    uses = RATES["play-bot"][0]
    await _bot_game(h, h.alice)

    async def resigned() -> Message:
        await h.idle()
        ask = await h.slash(h.alice, "seega resign")
        return (await h.click(h.alice, ask.reply, "Resign", followup=True)).followups[0]

    for _ in range(uses - 1):
        started = await h.click(h.alice, await resigned(), "Rematch", followup=True)
        assert wait_of(started.followups[0]) is None and not started.followups[0].ephemeral, started.followups[0].text
    refused = (await h.click(h.alice, await resigned(), "Rematch")).reply
    refused_for_a_while(refused, "play-bot")
    game = await h.bot.service.game(h.fake.channel_id)
    assert game is None or game.status != "active", "the refused Rematch started no game"
    await _bot_game(h, h.bob, h.fake.add_channel("bobs-room"))  # Bob is not refused


async def test_a_rematch_against_a_person_counts_with_challenge(h: Harness) -> None:
    """Outside review atk41c F3 (s5_rematch_pings.py): Rematch made a challenge, and pinged
    its opponent, without the challenge cooldown; /seega board of the finished game gave
    out a new Rematch each time: 18 pings a minute to Bob where /seega challenge allows 3."""
    uses = RATES["challenge"][0]
    assert uses == 3
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob})).reply
    await h.click(h.bob, challenge, "Accept", followup=True)
    ask = await h.slash(h.bob, "seega resign")
    over = (await h.click(h.bob, ask.reply, "Resign", followup=True)).followups[0]
    for opponent in (h.carol, h.mod):  # Alice's other two challenges of the minute
        assert not (await h.slash(h.alice, "seega challenge", {"opponent": opponent})).reply.ephemeral

    def pings_to_bob() -> int:
        return sum(h.bob in m.pinged_user_ids() for m in h.fake.channel_messages(h.fake.channel_id))

    before = pings_to_bob()
    for board in (over, (await h.slash(h.alice, "seega board")).reply):
        assert board.button("Rematch"), board.text
        refused = (await h.click(h.alice, board, "Rematch")).reply
        refused_for_a_while(refused, "challenge")
    assert pings_to_bob() == before, "no challenge posted"


async def test_answers_corrected_in_a_hurry_are_not_slowed_down(h: Harness) -> None:
    """Play-test: three quick lesson or puzzle answers (a typo corrected) met "Slow down a
    little: try again in 6 s". Answers judge no AI search: eight in a row pass, and a
    flood is still refused within the window."""
    said(await h.slash(h.carol, "seega learn", {"lesson": 2}))
    answers = [said(await h.slash(h.carol, "seega solve", {"answer": typo})) for typo in ("b3 c", "b3c3x", "b2 c2") * 3]
    assert all(wait_of(a) is None for a in answers[:8]), [a.text for a in answers]
    uses, per = RATES["solve"]
    assert 8 <= uses <= 12 and per <= 60, RATES["solve"]  # a real bound: 50 at once are not all judged
    flood = [said(await h.slash(h.carol, "seega solve", {"answer": "b2 c2"})) for _ in range(uses)]
    refused_for_a_while(flood[-1], "solve")


async def test_a_persons_cooldown_is_the_same_in_every_server(h: Harness) -> None:
    """The buckets were per person and server: a member in eight servers (anyone can make
    one and invite the bot) asked eight times as often as the rate allows (the outside
    review's ai_across_guilds.py). Now one person has one bucket per command, wherever
    they ask; another person in the other server is not refused."""
    other_guild, other_channel = h.fake.add_guild("Other Club")
    await h.fake.dispatch("GUILD_CREATE", h.fake.guild_payload(other_guild))
    await h.idle()
    uses = RATES["stats"][0]
    answers = [said(await h.slash(h.carol, "seega stats")) for _ in range(uses)]
    assert all(wait_of(a) is None for a in answers), [a.text for a in answers]
    elsewhere = said(await h.slash(h.carol, "seega stats", channel_id=other_channel))
    refused_for_a_while(elsewhere, "stats")
    bobs = said(await h.slash(h.bob, "seega stats", channel_id=other_channel))
    assert wait_of(bobs) is None, bobs.text


async def test_lesson_answers_through_place_and_move_count_with_solve(h: Harness) -> None:
    """A lesson's exercise is also answered with /place and /move (and /seega end-turn),
    which have no cooldown of their own: every answer is judged and stored, so a flood
    through them went unrefused (stop 40's noticed list). They spend /seega solve's."""
    said(await h.slash(h.carol, "seega learn", {"lesson": 2}))
    uses, _ = RATES["solve"]
    flood = [said(await h.slash(h.carol, "move", {"from": "a1", "to": "a2"})) for _ in range(uses + 1)]
    assert wait_of(flood[0]) is None, flood[0].text
    refused_for_a_while(flood[-1], "solve")
    said(await h.slash(h.bob, "seega learn", {"lesson": 2}))
    assert wait_of(said(await h.slash(h.bob, "move", {"from": "a1", "to": "a2"}))) is None, "Bob is not refused"


async def test_a_rematch_with_someone_who_left_the_server_is_refused(h: Harness) -> None:
    """Outside review atk41d F3: /seega challenge refused a non-member, but Rematch after
    the opponent left posted a public challenge that could never be accepted."""
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob})).reply
    await h.click(h.bob, challenge, "Accept", followup=True)
    ask = await h.slash(h.bob, "seega resign")
    over = (await h.click(h.bob, ask.reply, "Resign", followup=True)).followups[0]
    h.fake.outsiders.add(h.bob)  # Bob leaves the server
    refused = (await h.click(h.alice, over, "Rematch")).reply
    assert refused.ephemeral and "is not a member of this server" in refused.text, refused.text
    assert await h.bot.service.storage.pending_challenges_in(h.fake.channel_id) == [], "nothing stored"


async def test_refused_challenges_do_not_count_against_the_cooldown(h: Harness) -> None:
    """Play-test pt41: a challenge to oneself, to a non-member, or to someone who declined
    a minute ago pinged nobody, yet counted: after three of them Carol's one real challenge
    met "Slow down a little", and the hold's own reason was not said any more."""
    uses = RATES["challenge"][0]
    outsider = h.fake.add_user("outsider")
    h.fake.outsiders.add(outsider)
    for opponent in (h.carol, outsider, h.fake.app_id) * uses:
        refused = (await h.slash(h.carol, "seega challenge", {"opponent": opponent})).reply
        assert refused.ephemeral and wait_of(refused) is None, refused.text
    posted = (await h.slash(h.carol, "seega challenge", {"opponent": h.bob})).reply
    assert not posted.ephemeral and h.bob in posted.pinged_user_ids(), posted.text
