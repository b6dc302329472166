"""The console's questions between the players: resigning, draws, ending by count, and
what asks to be confirmed first (a mixin of :class:`bot.console.commands.ConsoleTable`).

On Discord a resignation and a draw offer are confirmed with a private button after a
sentence that says what they mean; at the console the same sentence is printed and the
command is typed again (or ``yes``) to confirm; ``no``, or any other command, cancels the
question.
The offer's answers (accept or decline) are typed by the other player, who at a hot-seat
table sits at the same keyboard: the console acts for whoever may answer.
"""

from __future__ import annotations

from bot import wording
from bot.console.coach import CoachArgs
from bot.console.output import CONSOLE_CHANNEL, CONSOLE_GUILD, LOCAL_PLAYERS, ConsoleOutput
from bot.i18n import t
from bot.results import GameView, OfferResult, Player, TurnResult, variant_words

#: Names people type for the languages (``/seega language arabic``), besides the codes.
LANGUAGE_NAMES = {"english": "en", "arabic": "ar", "العربية": "ar", "عربي": "ar"}

#: What ``yes`` confirms: ``(command name, game id)``.
Pending = tuple[str, int]


class OffersConsole(ConsoleOutput):
    """Resign, draw and end-by-count at the console, with their confirmations."""

    #: The question waiting for ``yes`` (or the same command typed again), if any.
    confirming: Pending | None = None

    async def _asked(self, name: str, key: str, actor: int | None = None) -> GameView | None:
        """The game if ``name`` was already asked about it (now confirmed), else ask and ``None``.

        ``actor``: who would act, named in the question (``key`` + ``.named``) when both
        players sit at this keyboard: "You lose the game" named neither of them.
        """
        game = await self.service.game(CONSOLE_CHANNEL)
        if game is None:
            raise await self.service.no_game(CONSOLE_CHANNEL)
        if self.confirming == (name, game.id):
            self.confirming = None
            return game
        self.confirming = (name, game.id)
        color_name = game.color_of(actor) if actor is not None and self._you(game) is None else None
        if color_name is not None:
            player = game.black if color_name == "black" else game.white
            color = t(self.lang, f"color.{color_name}")
            name_shown = wording.player_name(player, self.lang)
            self.say(t(self.lang, f"{key}.named", id=game.id, command=name, name=name_shown, color=color))
            return None
        self.say(t(self.lang, key, id=game.id, command=name))
        return None

    async def resign(self, args: CoachArgs) -> None:
        actor = await self._actor()
        if await self._asked("resign", "console.resign_confirm", actor) is None:
            game = await self.service.game(CONSOLE_CHANNEL)  # asked: say if the resigner is ahead
            if game is not None and actor is not None:
                color = game.color_of(actor)
                player = game.black if color == "black" else game.white
                name = wording.player_name(player, self.lang) if self._you(game) is None else None
                ahead = wording.resign_ahead(game, color, self.lang, name)
                if ahead:
                    self.say(ahead)
            return
        self.show(await self.service.resign(CONSOLE_CHANNEL, actor))

    async def draw(self, args: CoachArgs) -> None:
        actor = await self._actor()
        game = await self.service.draw_preview(CONSOLE_CHANNEL, actor)  # refusals come first
        if self.confirming != ("draw", game.id):
            opponent = game.white if game.color_of(actor) == "black" else game.black
            key = "draw.explain.bot" if opponent.is_bot else "draw.explain.people"
            self.say(t(self.lang, key, opponent=wording.player_name(opponent, self.lang)))
        if await self._asked("draw", "console.send_confirm") is None:
            return
        outcome = await self.service.offer_draw(CONSOLE_CHANNEL, actor)
        if isinstance(outcome, OfferResult):
            offerer, answerer = (wording.player_name(p, self.lang) for p in (outcome.offered_by, outcome.opponent))
            self.say(t(self.lang, "console.draw_offered", offerer=offerer, opponent=answerer))
            return
        game = outcome.game
        bot = game.black if game.black.is_bot else game.white
        self.say(t(self.lang, "draw.accepted", name=wording.player_name(bot, self.lang)))
        self.show(outcome)

    async def _answerer(self, offered_by: str | None) -> int:
        """Who answers an offer made by the colour ``offered_by``: the other local player."""
        game = await self.service.game(CONSOLE_CHANNEL)
        if game is not None and offered_by is not None:
            return (game.white if offered_by == "black" else game.black).user_id
        return await self._actor()

    async def accept_draw(self, args: CoachArgs) -> None:
        game = await self.service.game(CONSOLE_CHANNEL)
        user = await self._answerer(game.draw_offer_by if game else None)
        result = await self.service.accept_draw(CONSOLE_CHANNEL, user)
        if not self._too_late(result):
            accepter = result.game.black if result.game.black.user_id == user else result.game.white
            self.say(t(self.lang, "draw.accepted", name=wording.player_name(accepter, self.lang)))
        self.show(result)

    def _too_late(self, result: TurnResult) -> bool:
        """Whether an accepted offer came after the player to move ran out of time: the
        game ended on time instead, and the table says why (else it read "accepts the
        draw" above "ran out of time", play-test pt41)."""
        over = result.game_over
        if over is None or over.reason != "timeout" or over.loser is None:
            return False
        self.say(t(self.lang, "timer.answer_too_late", name=wording.player_name(over.loser, self.lang)))
        return True

    async def decline_draw(self, args: CoachArgs) -> None:
        game = await self.service.game(CONSOLE_CHANNEL)
        user = await self._answerer(game.draw_offer_by if game else None)
        done = await self.service.decline_draw(CONSOLE_CHANNEL, user)
        names = {"name": done.opponent, "offerer": done.offered_by}
        text = t(self.lang, "draw.declined", **{k: wording.player_name(p, self.lang) for k, p in names.items()})
        self.say(text.replace("**", ""))

    async def offer_end(self, args: CoachArgs) -> None:
        actor = await self._actor()
        game, result = await self.service.end_preview(CONSOLE_CHANNEL, actor)  # refusals come first
        if self.confirming != ("offer-end", game.id):
            # "Black (you)" against the bot, as the turn lines call the person
            self.say(wording.end_offer_explained(game, result, actor, self.lang, self.calls(game)))
        if await self._asked("offer-end", "console.send_confirm") is None:
            return
        offer = await self.service.offer_end(CONSOLE_CHANNEL, actor)
        if isinstance(offer, OfferResult):
            offerer, opponent = (wording.player_name(p, self.lang) for p in (offer.offered_by, offer.opponent))
            self.say(t(self.lang, "console.end_offered", offerer=offerer, opponent=opponent))
            return
        ended = offer.game
        bot = ended.black if ended.black.is_bot else ended.white
        self.say(t(self.lang, "offer.bot_accepts", name=wording.player_name(bot, self.lang)))
        self.show(offer)

    async def accept_end(self, args: CoachArgs) -> None:
        game = await self.service.game(CONSOLE_CHANNEL)
        user = await self._answerer(game.end_offer_by if game else None)
        result = await self.service.accept_end(CONSOLE_CHANNEL, user)
        self._too_late(result)
        self.show(result)

    async def decline_end(self, args: CoachArgs) -> None:
        """The opponent declines the offer to end by count (Discord's Decline button)."""
        game = await self.service.game(CONSOLE_CHANNEL)
        user = await self._answerer(game.end_offer_by if game else None)
        done = await self.service.decline_end(CONSOLE_CHANNEL, user)
        names = {"name": done.opponent, "offerer": done.offered_by}
        text = t(self.lang, "offer.declined", **{k: wording.player_name(p, self.lang) for k, p in names.items()})
        self.say(text.replace("**", ""))

    async def language(self, args: CoachArgs) -> None:
        """``/seega language ar|en|auto``: the language of the sentences about games, kept
        for the person at the keyboard (Player 1) in the database, as on Discord."""
        typed = args.get("language").strip().lower()
        if not typed:
            self.say(t(self.lang, "console.language_now", code=self.lang))
            return
        chosen = LANGUAGE_NAMES.get(typed, typed)
        await self.service.set_language(LOCAL_PLAYERS[0].user_id, None if chosen == "auto" else chosen)
        self.lang = "en" if chosen == "auto" else chosen  # a terminal has no client language: auto is English
        self.say(t(self.lang, "language.set"))

    async def games(self, args: CoachArgs) -> None:
        found = await self.service.games_in_progress(CONSOLE_GUILD)
        if not found:
            self.say(t(self.lang, "explain.games.none"))
            return
        self.say(t(self.lang, "console.games_title"))  # one table, not a server
        for g in found:
            where = t(self.lang, "console.this_table")
            self.say(
                t(
                    self.lang,
                    "explain.games.line",
                    id=g.id,
                    black=_name(g.black, self.lang),
                    white=_name(g.white, self.lang),
                    variant=variant_words(g.variant),
                    size=g.size,
                    turn=g.turn,
                    where=where,
                )
            )


def _name(player: Player, lang: str) -> str:
    """A player of the games list: the bot and the local players alike in ``lang``."""
    return wording.player_name(player, lang)
