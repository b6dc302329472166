"""Board images and text boards: pure functions from a position to a picture.

Public API (the rest of the bot imports only these)::

    from bot.render import render_board, render_replay, text_board

- :func:`render_board` -> PNG bytes of the board, the players and the game state.
- :func:`render_replay` -> an animated GIF of a whole game, one frame per turn.
- :func:`text_board` -> the board as monospace text.
- :func:`warm_up` -> builds the caches ahead of the first game (optional).

Everything here is CPU-bound and synchronous: the bot calls it in an executor. Pillow
is the only dependency; the font is bundled in ``fonts/``.
"""

from __future__ import annotations

from bot.render.board import board_image, encode_png, render_board, warm_up
from bot.render.replay import render_replay
from bot.render.textboard import text_board
from bot.render.theme import THEMES

__all__ = ["THEMES", "board_image", "encode_png", "render_board", "render_replay", "text_board", "warm_up"]
