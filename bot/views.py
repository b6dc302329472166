"""Buttons that survive restarts: ``DynamicItem`` with the ids they act on in ``custom_id``.

A button carries what it needs in its ``custom_id`` (``seega:accept:42``), and the bot
registers the classes at start (``add_dynamic_items``), so a challenge posted before a
restart can still be accepted after it. Who may press a button, and whether it still
applies, depends on stored state (the challenge, the channel's game), so each handler in
:mod:`bot.flows` checks both first: someone else's button is refused privately, and a
stale one is disabled on the spot with a private word why.

What a button does is a reference held by the bot (:class:`bot.host.ButtonHandlers`,
filled in by :mod:`bot.flows`): the handlers post boards that carry these buttons again, so this module
cannot import them without a loop.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.host import ButtonHandler, ButtonHandlers, host_of
from bot.i18n import lang, resolve_language, t
from bot.results import TurnResult
from bot.tree import answer_error

log = logging.getLogger(__name__)

Locale = discord.Locale | str | None


class _SeegaButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"seega:(?!x)x"):  # never matches
    """Shared behaviour: parse ids, answer errors, run the button's handler."""

    action = ""
    style = discord.ButtonStyle.secondary
    label_key = ""
    emoji: str | None = None

    def __init__(self, target: int, *, locale: Locale = None, disabled: bool = False, label: str | None = None) -> None:
        self.target = target
        super().__init__(
            discord.ui.Button(
                label=label or t(locale, self.label_key),
                style=self.style,
                custom_id=f"seega:{self.action}:{target}",
                emoji=self.emoji,
                disabled=disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> _SeegaButton:
        return cls(int(match["id"]), locale=lang(interaction))

    def handler(self, handlers: ButtonHandlers) -> ButtonHandler:
        """This button's handler among the bot's."""
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await resolve_language(interaction)
            await self.handler(host_of(interaction).button_handlers)(interaction, self.target)
        except Exception as exc:  # every failure is answered; unexpected ones are logged there
            await answer_error(interaction, exc)


class AcceptChallenge(_SeegaButton, template=r"seega:accept:(?P<id>\d+)"):
    action = "accept"
    style = discord.ButtonStyle.success
    label_key = "button.accept"

    def handler(self, handlers: ButtonHandlers) -> ButtonHandler:
        return handlers.accept


class DeclineChallenge(_SeegaButton, template=r"seega:decline:(?P<id>\d+)"):
    action = "decline"
    style = discord.ButtonStyle.danger
    label_key = "button.decline"

    def handler(self, handlers: ButtonHandlers) -> ButtonHandler:
        return handlers.decline


class EndTurn(_SeegaButton, template=r"seega:endturn:(?P<id>\d+)"):
    action = "endturn"
    style = discord.ButtonStyle.primary
    label_key = "button.end_turn"

    def handler(self, handlers: ButtonHandlers) -> ButtonHandler:
        return handlers.end_turn


class ConfirmResign(_SeegaButton, template=r"seega:resignyes:(?P<id>\d+)"):
    """Answers the stored resignation question (its id is the question's): Resign."""

    action = "resignyes"
    style = discord.ButtonStyle.danger
    label_key = "button.resign"

    def handler(self, handlers: ButtonHandlers) -> ButtonHandler:
        return handlers.resign


class AcceptEnd(_SeegaButton, template=r"seega:acceptend:(?P<id>\d+)"):
    action = "acceptend"
    style = discord.ButtonStyle.success
    label_key = "button.accept_end"

    def handler(self, handlers: ButtonHandlers) -> ButtonHandler:
        return handlers.accept_end


class DeclineEnd(_SeegaButton, template=r"seega:enddecline:(?P<id>\d+)"):
    """The opponent declines the offer to end by count; its offerer withdraws it."""

    action = "enddecline"
    style = discord.ButtonStyle.danger
    label_key = "button.decline"

    def handler(self, handlers: ButtonHandlers) -> ButtonHandler:
        return handlers.decline_end


class CancelResign(_SeegaButton, template=r"seega:resignstay:(?P<id>\d+)"):
    """Answers the stored resignation question (its id is the question's): the game goes on."""

    action = "resignstay"
    style = discord.ButtonStyle.secondary
    label_key = "button.cancel"

    def handler(self, handlers: ButtonHandlers) -> ButtonHandler:
        return handlers.cancel_resign


class OutdatedResign(_SeegaButton, template=r"seega:resign:(?P<id>\d+)"):
    """The Resign of a question asked before questions were stored (its id is the
    game's): with the Cancel beside it, both could take effect; now it says to ask again."""

    action = "resign"
    label_key = "button.resign"

    def handler(self, handlers: ButtonHandlers) -> ButtonHandler:
        return handlers.resign_outdated


class OutdatedCancelResign(OutdatedResign, template=r"seega:resignno:(?P<id>\d+)"):
    """The Cancel of such a question: the same answer."""

    action = "resignno"
    label_key = "button.cancel"


class OfferEnd(_SeegaButton, template=r"seega:offerend:(?P<id>\d+)"):
    """Sends the offer to end by count, once what it means has been read."""

    action = "offerend"
    style = discord.ButtonStyle.primary
    label_key = "button.offer_end"

    def handler(self, handlers: ButtonHandlers) -> ButtonHandler:
        return handlers.offer_end


class OfferDraw(_SeegaButton, template=r"seega:drawoffer:(?P<id>\d+)"):
    """Sends the draw offer, once its meaning has been read (the ephemeral confirmation)."""

    action = "drawoffer"
    style = discord.ButtonStyle.primary
    label_key = "button.offer_draw"

    def handler(self, handlers: ButtonHandlers) -> ButtonHandler:
        return handlers.offer_draw


class AcceptDraw(_SeegaButton, template=r"seega:drawyes:(?P<id>\d+)"):
    action = "drawyes"
    style = discord.ButtonStyle.success
    label_key = "button.accept_draw"

    def handler(self, handlers: ButtonHandlers) -> ButtonHandler:
        return handlers.accept_draw


class DeclineDraw(_SeegaButton, template=r"seega:drawno:(?P<id>\d+)"):
    action = "drawno"
    style = discord.ButtonStyle.danger
    label_key = "button.decline_draw"

    def handler(self, handlers: ButtonHandlers) -> ButtonHandler:
        return handlers.decline_draw


class Rematch(_SeegaButton, template=r"seega:rematch:(?P<id>\d+)"):
    action = "rematch"
    style = discord.ButtonStyle.primary
    label_key = "button.rematch"
    emoji = "🔁"

    def handler(self, handlers: ButtonHandlers) -> ButtonHandler:
        return handlers.rematch


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    AcceptChallenge,
    DeclineChallenge,
    EndTurn,
    ConfirmResign,
    AcceptEnd,
    DeclineEnd,
    CancelResign,
    OutdatedResign,
    OutdatedCancelResign,
    Rematch,
    OfferEnd,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
)


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view without timeout: dynamic items are dispatched by the client, not the view."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def challenge_view(
    challenge_id: int, locale: Locale, *, disabled: bool = False, challenger: Locale = None
) -> discord.ui.View:
    """Accept and Decline, in the language of the challenged person (``locale``), whom the
    message asks. Decline is also how the challenger withdraws it, so its label names
    that too, in the challenger's language (``challenger``; ``locale`` if not given):
    "Decline / سحب التحدي". In the opponent's words alone the challenger could not tell
    which button took the challenge back."""
    withdraw = t(locale if challenger is None else challenger, "button.withdraw")
    label = f"{t(locale, 'button.decline')} / {withdraw}"
    return view_of(
        AcceptChallenge(challenge_id, locale=locale, disabled=disabled),
        DeclineChallenge(challenge_id, locale=locale, disabled=disabled, label=label),
    )


def game_view(result: TurnResult, locale: Locale) -> discord.ui.View | None:
    """End turn during a human's chain; Rematch after a game that was played out."""
    if result.chain_pending and result.to_move is not None and not result.to_move.is_bot:
        return view_of(EndTurn(result.game.id, locale=locale))
    over = result.game_over
    if over is not None and over.result != "*":  # not after a moderator's cancel
        return view_of(Rematch(result.game.id, locale=locale))
    return None


def resign_view(question_id: int, locale: Locale) -> discord.ui.View:
    """Resign / Cancel of the stored question ``question_id`` (answered once, see
    :meth:`bot.service.GameService.confirm_resign`)."""
    return view_of(ConfirmResign(question_id, locale=locale), CancelResign(question_id, locale=locale))


def _decline_or_withdraw(locale: Locale, withdrawer: Locale) -> str:
    """An offer's red button's two names: the asked person's Decline, then the asker's word
    for taking it back, in the asker's language (``withdrawer``; ``locale`` if not given):
    "Decline / سحب العرض". The texts that tell the asker which button to press name
    this second half (outside play-test: told to press «رفض» on a button reading "Decline")."""
    return f"{t(locale, 'button.decline')} / {t(locale if withdrawer is None else withdrawer, 'button.withdraw_offer')}"


def end_offer_view(game_id: int, locale: Locale, *, disabled: bool = False, offerer: Locale = None) -> discord.ui.View:
    """Accept the end and Decline, in the asked player's language (``locale``); Decline
    also names the offerer's withdrawal, in the offerer's language (``offerer``)."""
    label = _decline_or_withdraw(locale, offerer)
    return view_of(
        AcceptEnd(game_id, locale=locale, disabled=disabled),
        DeclineEnd(game_id, locale=locale, disabled=disabled, label=label),
    )


def end_confirm_view(game_id: int, locale: Locale) -> discord.ui.View:
    return view_of(OfferEnd(game_id, locale=locale))


def draw_confirm_view(game_id: int, locale: Locale) -> discord.ui.View:
    return view_of(OfferDraw(game_id, locale=locale))


def draw_offer_view(game_id: int, locale: Locale, *, disabled: bool = False, offerer: Locale = None) -> discord.ui.View:
    """Accept the draw and Decline, two-language as :func:`end_offer_view`'s."""
    label = _decline_or_withdraw(locale, offerer)
    return view_of(
        AcceptDraw(game_id, locale=locale, disabled=disabled),
        DeclineDraw(game_id, locale=locale, disabled=disabled, label=label),
    )


def disabled_copy(message: discord.Message | None) -> discord.ui.View | None:
    """The message's buttons, all disabled (labels kept), or ``None`` if it had none."""
    if message is None or not message.components:
        return None
    view = discord.ui.View.from_message(message, timeout=None)
    for item in view.children:
        if isinstance(item, discord.ui.Button):
            item.disabled = True
    return view
