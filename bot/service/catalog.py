"""What the bot offers: variants, board sizes, AI levels, colours and the default settings.

One list, read by the service (to check requests), the Discord commands (their choices),
the console (its help and completion) and the messages (the rules text). The engine knows
more presets than the bot offers: ``modern-3x3`` is played on a 3x3 board only, and the
bot's boards are 5x5, 7x7 and 9x9, so a preset is offered when it has one of those sizes.
Nothing else in the bot names a preset to leave out.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.results import BadInputError
from bot.storage import SettingsRow
from bot.suggest import did_you_mean
from engine.ai import LEVELS as ENGINE_LEVELS
from engine.rules import PRESETS, Ruleset

#: Board sizes people can choose.
SIZES: tuple[int, ...] = (5, 7, 9)
#: The name of each size (Khamsawee, Sebawee, Tisawee).
SIZE_NAMES: dict[int, str] = {5: "Khamsawee", 7: "Sebawee", 9: "Tisawee"}
#: The presets the bot offers, in the engine's order, each with the sizes it is played on.
VARIANT_SIZES: dict[str, tuple[int, ...]] = {
    name: tuple(s for s in sizes if s in SIZES) for name, (sizes, _) in PRESETS.items() if set(sizes) & set(SIZES)
}
VARIANTS: tuple[str, ...] = tuple(VARIANT_SIZES)
#: The presets whose rules ``/seega rules`` shows: every one the engine knows (each is in
#: docs/rules.md), those not offered for play too: ``rules modern-3x3`` was refused as
#: "not a variant" though the rules document lists it.
RULES_VARIANTS: tuple[str, ...] = tuple(PRESETS)
#: Those of :data:`RULES_VARIANTS` whose rules are shown but that are not offered for
#: play (their boards are none of :data:`SIZES`): the console's help names them apart.
RULES_ONLY: tuple[str, ...] = tuple(v for v in RULES_VARIANTS if v not in VARIANT_SIZES)
#: The AI's levels, weakest first: the engine's own list.
LEVELS: tuple[str, ...] = ENGINE_LEVELS
DEFAULT_LEVEL = "medium"
#: Colours a player may ask for.
COLORS: tuple[str, ...] = ("black", "white", "random")
DEFAULT_COLOR = "random"
#: A guild's settings until a moderator changes them (the storage's default row).
DEFAULT_SETTINGS = SettingsRow(guild_id=0)
DEFAULT_VARIANT = DEFAULT_SETTINGS.default_variant
DEFAULT_SIZE = 5

assert DEFAULT_LEVEL in LEVELS and DEFAULT_VARIANT in VARIANTS and DEFAULT_SIZE in SIZES


def _closest(typed: str, allowed: Sequence[str]) -> str | None:
    """The allowed value closest to a mistyped one, for "did you mean easy?" (``difflib``
    on at most 64 characters, so a pasted 60,000-character option is answered at once)."""
    return did_you_mean(typed, allowed)


def check_variant(variant: str, known: Sequence[str] = VARIANTS) -> str:
    """The variant name, normalised, or a :class:`BadInputError` listing the variants
    ``known`` (default: those offered for play; :data:`RULES_VARIANTS` for the rules)."""
    name = (variant or "").strip().lower()
    if name not in known:
        guess = _closest(name, known)
        if guess is not None:
            raise BadInputError("bad_variant_guess", variant=variant, variants=list(known), guess=guess)
        raise BadInputError("bad_variant", variant=variant, variants=list(known))
    return name


def check_rules(variant: str, size: int) -> Ruleset:
    """The ruleset of an offered variant on an offered size, or a :class:`BadInputError`."""
    name = check_variant(variant)
    sizes = VARIANT_SIZES[name]
    if size not in sizes:
        raise BadInputError("bad_size", variant=name, size=size, sizes=[f"{s}×{s}" for s in sizes])
    return Ruleset.make(name, size)


def variant_for(variant: str | None, default: str, size: int) -> str:
    """The variant a game asked for with ``variant`` (``None``: none named) on ``size`` is
    played with: the one named, else the guild's ``default`` when it is played on that
    size, else :data:`DEFAULT_VARIANT` (a 5x5-only default does not refuse a 7x7 game)."""
    if variant:
        return variant
    return default if size in VARIANT_SIZES.get(default, ()) else DEFAULT_VARIANT


def check_size(size: int) -> int:
    """A board size people can choose, or a :class:`BadInputError`."""
    if size not in SIZES:
        raise BadInputError("bad_board_size", size=size, sizes=[f"{s}×{s}" for s in SIZES])
    return size


def check_level(level: str | None) -> str:
    """An AI level, normalised (empty: the default), or a :class:`BadInputError` listing them."""
    name = (level or DEFAULT_LEVEL).strip().lower()
    if name not in LEVELS:
        guess = _closest(name, LEVELS)
        if guess is not None:
            raise BadInputError("bad_level_guess", level=level, levels=LEVELS, guess=guess)
        raise BadInputError("bad_level", level=level, levels=LEVELS)
    return name


def check_color(color: str | None) -> str:
    """``black``, ``white`` or ``random`` (empty: random), or a :class:`BadInputError`."""
    name = (color or DEFAULT_COLOR).strip().lower()
    if name not in COLORS:
        guess = _closest(name, COLORS)
        if guess is not None:
            raise BadInputError("bad_color_guess", color=color, guess=guess)
        raise BadInputError("bad_color", color=color)
    return name


def rules_sizes(variant: str) -> tuple[int, ...]:
    """The boards a rules text speaks of: those the bot offers the preset on, else (a
    preset not offered, ``modern-3x3``) the preset's own."""
    return VARIANT_SIZES.get(variant) or PRESETS[variant][0]


def rules_for(variant: str) -> Ruleset:
    """The ruleset a rules text describes: the variant (any of :data:`RULES_VARIANTS`)
    on the smallest board of :func:`rules_sizes`."""
    name = check_variant(variant, RULES_VARIANTS)
    return Ruleset.make(name, rules_sizes(name)[0])
