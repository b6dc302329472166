"""The game service: every use case of the bot (``docs/commands.md``), knowing nothing of Discord.

``GameService`` (in :mod:`bot.service.game_service`) is what adapters call; it hands
each request to the module of its use case (see that module's docstring).
:mod:`bot.service.catalog` is what the bot offers, :mod:`bot.service.commands` checks
typed commands against a position, :mod:`bot.service.rendering` is the renderer
interface.
"""

from bot.service import catalog
from bot.service.game_service import COLORS, SIZES, GameService
from bot.service.rendering import Renderer, default_renderer

__all__ = ["COLORS", "SIZES", "GameService", "Renderer", "catalog", "default_renderer"]
