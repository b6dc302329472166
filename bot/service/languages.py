"""Members' language choice (``/seega language``): stored, so it survives restarts and is
the same in every process (shard) on the database.

Kept in a process's memory only, the choice was lost at each restart and unknown to the
other shards (issue 9 item 9).
"""

from __future__ import annotations

from bot.results import BadInputError
from bot.service.games import Games
from bot.service.numbers import storable

#: The languages the bot speaks (``bot/locale/<lang>.json``).
LANGUAGES = ("en", "ar")


class Languages:
    """Reads and stores each member's chosen language."""

    def __init__(self, games: Games) -> None:
        self.games = games

    async def get_language(self, user_id: int) -> str | None:
        """The member's chosen language, or ``None`` (follow their Discord client)."""
        if not storable(user_id):
            return None
        return await self.games.storage.user_language(user_id)

    async def set_language(self, user_id: int, language: str | None) -> None:
        """Store the member's language; ``None`` (or ``auto``) follows their client again."""
        chosen = None if language in (None, "", "auto") else str(language).strip().lower()
        if chosen is not None and chosen not in LANGUAGES:
            # auto is a choice too: "choose en or ar" left it out (console newcomer finding)
            raise BadInputError("bad_language", language=chosen, languages=[*LANGUAGES, "auto"])
        if not storable(user_id):
            raise BadInputError("bad_number", value=user_id)
        await self.games.storage.save_user_language(user_id, chosen)
