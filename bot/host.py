"""What the Discord adapters need of the bot, as a Protocol.

The cogs, the buttons and the posting helpers talk to "a Seega bot" through
:class:`SeegaHost`, not to the concrete client class, so they never import
:mod:`bot.client` (which loads them): the client satisfies this Protocol, and tests may
hand in anything that does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, MutableMapping
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot.service import GameService

#: A button's handler: ``(interaction, the id in its custom_id)``.
ButtonHandler = Callable[[discord.Interaction, int], Awaitable[None]]


@dataclass(frozen=True)
class ButtonHandlers:
    """What each button of :mod:`bot.views` does; the bot holds one (``bot.button_handlers``)."""

    accept: ButtonHandler
    decline: ButtonHandler
    end_turn: ButtonHandler
    resign: ButtonHandler
    accept_end: ButtonHandler
    decline_end: ButtonHandler
    cancel_resign: ButtonHandler
    rematch: ButtonHandler
    offer_end: ButtonHandler
    offer_draw: ButtonHandler
    accept_draw: ButtonHandler
    decline_draw: ButtonHandler
    resign_outdated: ButtonHandler


class SeegaHost(Protocol):
    """The bot as the adapters see it."""

    service: GameService
    #: channel id -> the message showing that channel's latest board (its buttons go stale).
    board_messages: MutableMapping[int, Any]
    #: channel id -> (``count`` or ``draw``, the message, its text once lapsed) of its open offer.
    offer_messages: MutableMapping[int, tuple[str, Any, str]]
    #: challenge id -> the message showing it (to disable its buttons when it expires).
    challenge_messages: MutableMapping[int, Any]
    #: Pause between the human's turn and the bot's (0 in tests).
    bot_turn_delay: float
    #: Pause between the frames of a bot's capture chain (0: at once).
    chain_step_delay: float
    #: What each button does.
    button_handlers: ButtonHandlers

    def spawn(self, coro: Coroutine[Any, Any, Any], *, name: str) -> asyncio.Task[Any]:
        """Run ``coro`` in the background, logging its failure."""
        ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable:
        """A channel to post into by id."""
        ...

    async def set_language_of(self, user_id: int, language: str | None) -> None:
        """Remember a user's ``/seega language`` choice."""
        ...

    async def language_of(self, user_id: int) -> str | None:
        """A user's ``/seega language`` choice (``None``: none made)."""
        ...

    def get_guild(self, id: int, /) -> discord.Guild | None:
        """A server the bot is in, from its cache (its ``preferred_locale``)."""
        ...


def host_of(interaction: discord.Interaction) -> SeegaHost:
    """The bot that received ``interaction``."""
    bot: SeegaHost = interaction.client  # type: ignore[assignment]
    return bot
