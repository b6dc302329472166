"""A stored game with its replayed position: the entry of the service's cache.

Who plays which colour, who is to move and whether a user may act are answered here,
from the row and the position together.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from bot.results import NotAPlayerError, NotYourTurnError, Player
from bot.storage import GameRow
from bot.texts import Text
from engine import BLACK, COLOR_NAMES, WHITE, Position, Ruleset


@dataclass
class LoadedGame:
    """A game row with its replayed position (the cache entry)."""

    row: GameRow
    pos: Position

    @cached_property
    def black(self) -> Player:
        r = self.row
        return Player(r.black_id, r.black_name, r.black_level)

    @cached_property
    def white(self) -> Player:
        r = self.row
        return Player(r.white_id, r.white_name, r.white_level)

    def player(self, color: int) -> Player:
        return self.black if color == BLACK else self.white

    @property
    def to_move(self) -> Player | None:
        if self.row.status != "active":
            return None
        return self.player(self.pos.side)

    def color_of(self, user_id: int) -> int | None:
        if self.row.black_id == user_id and self.row.black_level is None:
            if self.row.white_id == user_id and self.row.white_level is None:
                return self.pos.side  # a hot-seat game: one person plays both colours
            return BLACK
        if self.row.white_id == user_id and self.row.white_level is None:
            return WHITE
        return None

    def check_player(self, user_id: int, need_turn: bool = True) -> int:
        """The colour ``user_id`` plays, or the error saying why they may not act."""
        color = self.color_of(user_id)
        if color is None:
            raise NotAPlayerError("not_a_player", black=self.black.name, white=self.white.name)
        if need_turn and color != self.pos.side:
            other = self.player(self.pos.side)
            if other.is_bot:
                raise NotYourTurnError("not_your_turn_bot")
            raise NotYourTurnError(
                "not_your_turn", player=other.name, color=Text.of(f"color.{COLOR_NAMES[self.pos.side]}")
            )
        return color


def result_of(winner: int | None) -> str:
    """The result text for a winning colour (``None``: a draw)."""
    return "1/2-1/2" if winner is None else ("1-0" if winner == BLACK else "0-1")


def winner_of(result: str | None) -> int | None:
    return {"1-0": BLACK, "0-1": WHITE}.get(result or "")


def replay(row: GameRow) -> Position:
    """The position a stored game reaches (raises :class:`SeegaError` if it does not replay)."""
    rules = Ruleset.make(row.variant, row.size, [o for o in row.options.split(",") if o])
    pos = Position.from_spn(row.setup, rules) if row.setup else Position(rules)
    for text in row.action_list:
        pos.play(text)
    return pos
