"""A guild's settings: the turn timeout, the challenge timeout, the default variant, and
the hints a player may take per game (stored with the coach's, ``coach_settings``)."""

from __future__ import annotations

from dataclasses import replace

from bot.results import BadInputError, GuildSettings, Moderator, NotAModeratorError
from bot.service import catalog
from bot.service.coach_hints import DEFAULT_HINT_LIMIT, MAX_HINT_LIMIT
from bot.service.games import Games
from bot.storage import SettingsRow
from bot.timeparse import MAX_SECONDS, MIN_SECONDS, DurationError, format_duration, parse_duration

#: The most digits a typed hint limit is read with (more is out of range, whatever it says).
MAX_HINT_DIGITS = 12


def settings_view(s: SettingsRow, hints: int) -> GuildSettings:
    return GuildSettings(s.guild_id, s.turn_timeout, s.challenge_timeout, s.default_variant, hints)


def hint_limit_of(value: int | str) -> int:
    """A hint limit as typed (``3``) or given (an int), checked: 0 to ``MAX_HINT_LIMIT``."""
    if isinstance(value, str):
        text = value.strip()
        if not text.lstrip("+-").isdecimal() or len(text) > MAX_HINT_DIGITS:
            raise BadInputError("coach_hint_limit_range", max=MAX_HINT_LIMIT)
        value = int(text)
    if not 0 <= value <= MAX_HINT_LIMIT:
        raise BadInputError("coach_hint_limit_range", max=MAX_HINT_LIMIT)
    return value


class GuildSettingsCases:
    """Reading and changing a guild's settings."""

    def __init__(self, games: Games) -> None:
        self.games = games

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings (defaults until a moderator changes them)."""
        hints = await self.games.storage.hint_limit(guild_id, DEFAULT_HINT_LIMIT)
        return settings_view(await self.games.settings(guild_id, fresh=True), hints)

    async def set_settings(
        self,
        guild_id: int,
        turn_timeout: str | int | None = None,
        challenge_timeout: str | int | None = None,
        default_variant: str | None = None,
        *,
        hints: int | str | None = None,
        moderator: Moderator | None = None,
    ) -> GuildSettings:
        """Change some settings; timeouts are written ``45s``, ``10m``, ``1h``, ``3d`` (30 s to 7 d),
        ``hints`` is 0 (off) to ``MAX_HINT_LIMIT``.

        Only with the guild's moderator capability. Every value is checked before any is
        stored. A new turn timeout applies from the next turn on.
        """
        if not isinstance(moderator, Moderator) or moderator.guild_id != guild_id:
            raise NotAModeratorError("moderator_only")
        s = await self.games.storage.settings(guild_id)
        changes: dict[str, object] = {}
        for name, value in (("turn_timeout", turn_timeout), ("challenge_timeout", challenge_timeout)):
            if value is None or (isinstance(value, str) and not value.strip()):
                continue
            low, high = format_duration(MIN_SECONDS), format_duration(MAX_SECONDS)
            if isinstance(value, int) and not MIN_SECONDS <= value <= MAX_SECONDS:
                # Seconds as a number: out of range whatever its digits (a number of
                # thousands of digits cannot even be written as text).
                raise BadInputError("duration_out_of_range", setting=name, value=value, low=low, high=high)
            text = value if isinstance(value, str) else f"{int(value)}s"
            try:
                seconds = parse_duration(text)
            except DurationError as exc:
                key = "duration_out_of_range" if exc.out_of_range else "bad_duration"
                raise BadInputError(key, setting=name, value=text.strip(), low=low, high=high) from None
            changes[name] = seconds
        if default_variant:
            changes["default_variant"] = catalog.check_variant(default_variant)
        limit = None if hints is None or (isinstance(hints, str) and not hints.strip()) else hint_limit_of(hints)
        # One write of only what changed: the others as stored, the hint limit with them.
        await self.games.storage.save_settings(replace(s, **changes), changes, hint_limit=limit)  # type: ignore[arg-type]
        s = await self.games.storage.settings(guild_id)
        self.games.remember_settings(s)
        return settings_view(s, await self.games.storage.hint_limit(guild_id, DEFAULT_HINT_LIMIT))
