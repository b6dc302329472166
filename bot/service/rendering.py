"""What the service needs from the renderer, and how it finds ``bot.render``."""

from __future__ import annotations

import logging
from typing import Protocol

from engine import GameRecord, Outcome, Position
from engine.summary import TurnSummary

log = logging.getLogger(__name__)


class Renderer(Protocol):
    """The part of ``bot.render`` the service uses (the module itself satisfies it)."""

    def render_board(
        self,
        position: Position,
        last_turn: TurnSummary | None = None,
        *,
        players: tuple[str, str] = ...,
        outcome: Outcome | None = None,
        time_left: float | None = None,
        lang: str = ...,
    ) -> bytes:
        """The board as PNG bytes (``outcome``: an end the rules cannot see, such as a
        resignation; ``time_left``: seconds on the clock of the player to act; ``lang``:
        the language of its words, English by default)."""
        ...

    def render_replay(self, record: GameRecord, players: tuple[str, str] = ..., *, lang: str = ...) -> bytes:
        """The game as an animated image (``lang``: the language of its words)."""
        ...


def default_renderer() -> Renderer | None:
    """``bot.render`` if it can be imported (it needs Pillow and fonts), else ``None``."""
    try:
        from bot import render
    except Exception:  # the renderer is optional: a missing module or font means text only
        log.warning("bot.render is not available; boards are shown as text only")
        return None
    return render
