"""The game service: every use case of BOT.md, knowing nothing of Discord.

``GameService`` (in :mod:`bot.service.game_service`) is what adapters call;
:mod:`bot.service.commands` checks typed commands against a position and words the
errors; :mod:`bot.service.rendering` is the renderer interface.
"""

from bot.service.game_service import COLORS, SIZES, GameService
from bot.service.rendering import Renderer, default_renderer

__all__ = ["COLORS", "SIZES", "GameService", "Renderer", "default_renderer"]
