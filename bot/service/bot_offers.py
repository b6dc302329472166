"""How the bot answers an offer to end the game by count: as a player would.

A player accepts "end now, more pieces wins" when the count is no worse for them than
playing on. The bot asks its own search (in the AI's worker pool, never on the event
loop) what playing on is worth, and compares:

* the count makes the bot win: it accepts;
* the count is a draw: it accepts unless it judges itself ahead by more than
  :data:`DRAW_MARGIN` (half a piece);
* the count makes the bot lose: it accepts only when its search sees the game lost anyway.

It never decides while its own reply is pending: the position it would be judging is not
the one it will face (issue 9 item 4: place two pieces, offer the end at once, and the
bot, which had not placed yet, lost 1-0 by count).
"""

from __future__ import annotations

from bot.service.catalog import DEFAULT_LEVEL
from bot.service.loaded import LoadedGame
from engine.ai import TurnRequest
from engine.ai.search import WIN_BOUND

#: Centipieces: how far ahead the bot may judge itself and still accept a draw by count.
DRAW_MARGIN = 50


def evaluation_request(g: LoadedGame, level: str | None) -> TurnRequest:
    """The AI request for the game's current position (searched at ``level``)."""
    rules = g.pos.rules
    return TurnRequest(
        variant=rules.variant,
        size=rules.size,
        options=tuple(o for o in g.row.options.split(",") if o),
        actions=tuple(g.row.action_list),
        setup=g.row.setup,
        level=level or DEFAULT_LEVEL,
    )


def bot_accepts(count_winner: int | None, bot_color: int, value_for_bot: int) -> bool:
    """Whether ending now by count (won by ``count_winner``, ``None`` a draw) is no worse
    for the bot than playing on, which its search values at ``value_for_bot`` centipieces."""
    if count_winner == bot_color:
        return True
    if count_winner is None:
        return value_for_bot <= DRAW_MARGIN
    return value_for_bot <= -WIN_BOUND
