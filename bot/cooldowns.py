"""Per-person cooldowns of the slash commands that cost the bot a search or a picture.

One member sending a command a thousand times must not slow it down for everybody else.
The service caps what one person may have under way at once (docs/limits.md); these
cooldowns cap how often one person may *ask*, before any work starts, so a flood is
refused at the door with the friendly ``error.cooldown`` ("try again in N s", privately,
:mod:`bot.tree`). They are sized so a real player never meets them (the table in
docs/limits.md says why each number). The console table is one person at a keyboard and
has none.

Buckets are per person (their user id, in every server alike), per command, in this
process: they were per person and server, and anyone can make servers and invite the
bot, so a member in eight servers asked eight times as often as the rate allows (outside
review, ``ai_across_guilds.py``). A real player in two servers meets the same rate as in
one; the rates are sized so a real player never meets them. A
button that does what a command does spends that command's bucket (:func:`spend`): the
**Rematch** of a game against the bot starts one as ``play-bot`` does, and counts with it;
a **Rematch** against a person is a challenge, and counts with ``challenge``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import discord
from discord import app_commands

T = TypeVar("T")

#: command -> (uses, per seconds): ``uses`` calls of the command in a window of ``per``
#: seconds from the first; the next is refused until the window ends. Read when a
#: person's bucket is made (a test may loosen one for people who type at machine speed).
RATES: dict[str, tuple[int, float]] = {
    "challenge": (3, 60.0),
    "play-bot": (2, 30.0),
    "hint": (3, 10.0),
    "review": (2, 60.0),
    # Answers judge no AI search (a thread's 0.2 s at most, a picture for a puzzle's
    # solution): a typo corrected in a hurry must pass (play-test: three quick answers met
    # "try again in 6 s"); ten in 30 s still refuses a flood (50 at once: 10 judged).
    "solve": (10, 30.0),
    "board": (3, 10.0),
    "puzzle": (3, 20.0),
    "learn": (4, 20.0),
    "stats": (4, 20.0),
    "record": (3, 30.0),
    "takeback": (3, 10.0),
}

#: command -> person -> their bucket (made when they first ask within a window). One
#: mapping per command, shared by the command's check and the buttons that spend it
#: (discord.py's ``dynamic_cooldown`` keeps its mapping to itself).
BUCKETS: dict[str, dict[int, app_commands.Cooldown]] = {}


def person(interaction: discord.Interaction) -> int:
    """The bucket key: one person, whichever server they ask in."""
    return interaction.user.id


def spend(command: str, interaction: discord.Interaction) -> None:
    """Count one use of ``command`` by the person of ``interaction``; raise
    :class:`~discord.app_commands.CommandOnCooldown` (answered with ``error.cooldown``,
    privately, :mod:`bot.tree`) when they are over its :data:`RATES` entry."""
    now = interaction.created_at.timestamp()
    buckets = BUCKETS.setdefault(command, {})
    for key in [k for k, b in buckets.items() if b.get_tokens(now) == b.rate]:  # windows ended
        del buckets[key]
    bucket = buckets.get(person(interaction))
    if bucket is None:
        uses, per = RATES[command]
        bucket = buckets[person(interaction)] = app_commands.Cooldown(uses, per)
    retry_after = bucket.update_rate_limit(now)
    if retry_after is not None:
        raise app_commands.CommandOnCooldown(bucket, retry_after)


def refund(command: str, interaction: discord.Interaction) -> None:
    """Give back the use of ``command`` that :func:`spend` counted for this interaction:
    a challenge refused (yourself, a non-member, the hold after a decline...) pinged
    nobody, and counted, three refusals met "Slow down a little" in place of the next
    refusal's reason (play-test pt41)."""
    bucket = BUCKETS.get(command, {}).get(person(interaction))
    now = interaction.created_at.timestamp()
    if bucket is not None and bucket.get_tokens(now) < bucket.rate:
        bucket.update_rate_limit(now, tokens=-1)


def per_person(command: str) -> Callable[[T], T]:
    """The cooldown of ``command`` (its :data:`RATES` entry) for each person, as a check."""
    RATES[command]  # a command without a rate fails at import, not at its first use

    def predicate(interaction: discord.Interaction) -> bool:
        spend(command, interaction)
        return True

    return app_commands.check(predicate)
