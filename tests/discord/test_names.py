"""Display names that are Discord markdown, through the real bot (outside review, stop 40):
every message shows them as the person wrote them, never as a mention, a heading, code or
a spoiler around the bot's own words."""

from __future__ import annotations

import re

import discord
import pytest

from bot.texts import WORD_JOINER, markdown_safe
from tests.discord.harness import Harness
from tests.service.test_names import MARKDOWN_NAMES

HEADING = "# FREE NITRO: DM Mallory now"
MENTION = "<@1234567890123456789>"


async def test_a_heading_or_a_mention_as_a_name_stays_text_in_every_message(h: Harness) -> None:
    h.fake.users[h.alice]["global_name"] = HEADING
    h.fake.users[h.bob]["global_name"] = MENTION
    challenge = (await h.slash(h.alice, "seega challenge", {"opponent": h.bob, "color": "black"})).reply
    await h.click(h.bob, challenge, "Accept", followup=True)
    await h.slash(h.alice, "place", {"first": "a1", "second": "b1"})
    resign = await h.slash(h.alice, "seega resign")
    await h.click(h.alice, resign.reply, "Resign", followup=True)
    await h.idle()
    texts = [m.text for m in h.fake.messages.values()]
    assert any("1500" in text for text in texts), "the game ended rated: its ratings were said"
    for text in texts:
        assert MENTION not in text, text
        for line in text.splitlines():
            assert not line.lstrip().startswith("#"), line


@pytest.mark.parametrize("name", MARKDOWN_NAMES)
def test_names_are_escaped_as_discord_escapes_markdown(name: str) -> None:
    """:func:`bot.texts.markdown_safe` escapes what ``discord.utils.escape_markdown`` does
    (its pattern copied so the rows need not import Discord), then adds the word joiners
    and the numbered list's dot, which it does not escape."""
    ours = markdown_safe(name).replace(WORD_JOINER, "")
    theirs = discord.utils.escape_markdown(name, ignore_links=False)
    assert ours == re.sub(r"^(\s*\d+)\.(?=\s)", r"\1\\.", theirs)


async def test_a_thread_name_and_a_record_show_names_as_written(h: Harness) -> None:
    """Outside review (stop 40): a thread's name and a record's tags show no markdown,
    and they carried the message-safe form: "Seega: snake\\_case\\_fan vs <⁠3 Nour", and
    ``[Black "snake\\\\_case\\\\_fan"]`` in the SGN file."""
    h.fake.users[h.alice]["global_name"] = "snake_case_fan"
    h.fake.users[h.bob]["global_name"] = "<3 Nour"
    options = {"opponent": h.bob, "thread": True, "color": "black"}
    challenge = (await h.slash(h.alice, "seega challenge", options)).reply
    await h.click(h.bob, challenge, "Accept")
    await h.idle()
    (thread,) = [c for c in h.fake.channels.values() if c["type"] == 11]
    assert thread["name"] == "Seega: snake_case_fan vs <3 Nour", thread["name"]
    resign = await h.slash(h.alice, "seega resign", channel_id=int(thread["id"]))
    await h.click(h.alice, resign.reply, "Resign", followup=True)
    record = await h.slash(h.carol, "seega record", {"game": 1})
    files = {a.filename: a.data for m in [record.reply, *record.followups] for a in m.attachments}
    sgn = files["seega-1.sgn"].decode()
    assert '[Black "snake_case_fan"]' in sgn and '[White "<3 Nour"]' in sgn, sgn[:200]
