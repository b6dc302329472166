"""The ruleset: one frozen value holding every option of docs/rules.md, plus named presets.

A variant is not a class here: the sources differ in a dozen independent details, so
each detail is an option and a preset is a named set of option values
(docs/rules.md section 6). Any option can be set on top of a preset.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.errors import InvalidRulesError, quoted
from engine.numbers import parse_whole

PLACEMENTS = ("pairs", "pairs-then-singles", "singles")
OPENINGS = ("free", "lane")
AFTER_PLACEMENT = ("move", "replace")
FIRST_MOVERS = ("white", "black")
CHAINS = ("same", "any", "none")
BLOCKED_RULES = ("pass", "remove-by-blocked", "remove-by-opponent", "lose", "capture-one")

#: Options a user may set with ``--set name=value``, in the order records write them.
OPTION_NAMES = (
    "pieces",
    "placement",
    "place_centre",
    "opening",
    "after_placement",
    "first_mover",
    "captures",
    "safe_centre",
    "line_capture",
    "chain",
    "max_shuttles",
    "blocked",
    "lose_at",
    "move_limit",
    "turn_limit",
    "win_line",
)

_CHOICES: dict[str, tuple[str, ...]] = {
    "placement": PLACEMENTS,
    "opening": OPENINGS,
    "after_placement": AFTER_PLACEMENT,
    "first_mover": FIRST_MOVERS,
    "chain": CHAINS,
    "blocked": BLOCKED_RULES,
}
#: The largest value of a count option (move_limit, turn_limit, max_shuttles...):
#: far beyond any game, and small enough to write and compare cheaply.
MAX_OPTION_NUMBER = 1_000_000
_WHOLE = f"it must be a whole number from 0 to {MAX_OPTION_NUMBER} in digits 0-9"

_BOOLS = ("place_centre", "captures", "safe_centre", "line_capture")
_INTS = ("pieces", "max_shuttles", "lose_at", "move_limit", "turn_limit", "win_line")

#: Preset name -> (allowed sizes, option overrides on top of ``standard``).
PRESETS: dict[str, tuple[tuple[int, ...], dict[str, object]]] = {
    "standard": ((5, 7, 9), {}),
    "lane": ((5, 7, 9), {"opening": "lane", "first_mover": "black", "blocked": "remove-by-opponent"}),
    "seejeh": ((5, 7, 9), {"line_capture": True, "chain": "any", "lose_at": 1, "blocked": "capture-one"}),
    "aljaafreh": ((5, 7, 9), {"first_mover": "black", "chain": "any", "blocked": "lose"}),
    "fouze": ((5, 7, 9), {"blocked": "remove-by-blocked"}),
    "two-then-one": ((5, 7, 9), {"placement": "pairs-then-singles"}),
    "ludii": (
        (5, 7, 9),
        {
            "first_mover": "black",
            "safe_centre": False,
            "chain": "none",
            "max_shuttles": 0,
            "move_limit": 0,
            "turn_limit": 2500,
        },
    ),
    "five-in-a-row": ((5,), {"win_line": 5, "after_placement": "replace"}),
    "modern-3x3": (
        (3,),
        {"pieces": 3, "placement": "singles", "place_centre": True, "captures": False, "win_line": 3},
    ),
}


@dataclass(frozen=True)
class Ruleset:
    """Every option of docs/rules.md sections 2-5 for one game, plus the board size.

    Build one with :meth:`Ruleset.make` (preset, size, options); the constructor takes
    every field as it is and only checks consistency.
    """

    variant: str = "standard"
    size: int = 5
    pieces: int = 12
    placement: str = "pairs"
    place_centre: bool = False
    opening: str = "free"
    after_placement: str = "move"
    first_mover: str = "white"
    captures: bool = True
    safe_centre: bool = True
    line_capture: bool = False
    chain: str = "same"
    max_shuttles: int = 2
    blocked: str = "pass"
    lose_at: int = 0
    move_limit: int = 100
    turn_limit: int = 0
    win_line: int = 0

    def __post_init__(self) -> None:
        if self.variant not in PRESETS:
            raise InvalidRulesError(f"unknown variant {_shown(self.variant)}; known: {', '.join(PRESETS)}")
        if self.size not in (3, 5, 7, 9):
            raise InvalidRulesError(f"size {_shown(self.size)} is not allowed; sizes are 5, 7 and 9 (3 for modern-3x3)")
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise InvalidRulesError(f"{name}={_shown(value)} is not allowed; choose one of {', '.join(choices)}")
        for name in _INTS:
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_OPTION_NUMBER:
                raise InvalidRulesError(f"{name}={_shown(value)} is not allowed; {_WHOLE}")
        cells = self.size * self.size - (0 if self.place_centre else 1)
        if self.pieces < 1 or 2 * self.pieces > cells:
            raise InvalidRulesError(
                f"pieces={self.pieces} does not fit a {self.size}x{self.size} board; allowed 1 to {cells // 2}"
            )
        if self.win_line > self.size:
            raise InvalidRulesError(f"win_line={self.win_line} is longer than the board; allowed 0 to {self.size}")

    @classmethod
    def make(
        cls,
        variant: str = "standard",
        size: int | None = None,
        options: Mapping[str, object] | Iterable[str] | None = None,
    ) -> Ruleset:
        """The ruleset of a preset at a size, with options set on top.

        Args:
            variant: a preset name of docs/rules.md section 6.
            size: 3, 5, 7 or 9; ``None`` means 5, or the preset's only size.
            options: ``{"chain": "any"}`` or ``["chain=any", "lose_at=1"]``; values may
                be strings as typed on a command line.
        """
        if variant not in PRESETS:
            raise InvalidRulesError(f"unknown variant {_shown(variant)}; known: {', '.join(PRESETS)}")
        sizes, overrides = PRESETS[variant]
        if size is None:
            size = 5 if 5 in sizes else sizes[0]
        if size not in sizes:
            allowed = ", ".join(str(s) for s in sizes)
            raise InvalidRulesError(f"size {_shown(size)} is not allowed for {variant}; allowed: {allowed}")
        values: dict[str, object] = {"pieces": (size * size - 1) // 2}
        values.update(overrides)
        values.update(parse_options(options or {}))
        return cls(variant=variant, size=size, **values)  # type: ignore[arg-type]

    def overrides(self) -> dict[str, object]:
        """The options that differ from this ruleset's preset at its size."""
        base = Ruleset.make(self.variant, self.size)
        return {n: getattr(self, n) for n in OPTION_NAMES if getattr(self, n) != getattr(base, n)}

    def options_text(self) -> str:
        """The overrides as ``chain=any,lose_at=1`` (empty when there are none)."""
        return ",".join(f"{k}={format_value(v)}" for k, v in self.overrides().items())

    @property
    def placement_turns(self) -> int:
        """How many placement turns each side plays from a full hand."""
        if self.placement == "pairs":
            return (self.pieces + 1) // 2
        if self.placement == "pairs-then-singles":
            return max(1, self.pieces - 1)
        return self.pieces


def _shown(value: object) -> str:
    """A value for an error message, cut short: it may be a hostile megabyte."""
    if isinstance(value, int) and value.bit_length() > 128:
        return "a huge number"
    return quoted(value, 40) if isinstance(value, str) else repr(value)[:40]


def format_value(value: object) -> str:
    """An option value as written in records and on command lines."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_options(options: Mapping[str, object] | Iterable[str]) -> dict[str, object]:
    """Options from a mapping or from ``name=value`` strings, values converted and checked."""
    pairs: list[tuple[str, object]] = []
    if isinstance(options, Mapping):
        pairs = list(options.items())
    else:
        for item in options:
            name, sep, text = item.partition("=")
            if not sep:
                raise InvalidRulesError(f"option {_shown(item)} must be written name=value, for example chain=any")
            pairs.append((name.strip(), text.strip()))
    result: dict[str, object] = {}
    for name, value in pairs:
        result[name] = _convert(name, value)
    return result


def _convert(name: str, value: object) -> object:
    if name not in OPTION_NAMES:
        raise InvalidRulesError(f"unknown option {_shown(name)}; options are {', '.join(OPTION_NAMES)}")
    if name in _BOOLS:
        if isinstance(value, bool):
            return value
        text = str(value).lower()
        if text in ("true", "1", "yes", "on"):
            return True
        if text in ("false", "0", "no", "off"):
            return False
        raise InvalidRulesError(f"{name}={_shown(value)} is not allowed; use true or false")
    if name in _INTS:
        if isinstance(value, int) and not isinstance(value, bool):
            return value  # range-checked by Ruleset
        number = parse_whole(value, MAX_OPTION_NUMBER) if isinstance(value, str) else None
        if number is None:
            raise InvalidRulesError(f"{name}={_shown(value)} is not allowed; {_WHOLE}")
        return number
    text = str(value).lower()
    if text not in _CHOICES[name]:
        raise InvalidRulesError(f"{name}={_shown(value)} is not allowed; choose one of {', '.join(_CHOICES[name])}")
    return text


STANDARD = Ruleset()
