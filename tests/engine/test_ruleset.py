"""docs/rules.md section 6: presets, sizes, and every option settable alone on top of a preset."""

from __future__ import annotations

import dataclasses

import pytest

from engine import OPTION_NAMES, PRESETS, InvalidRulesError, Position, Ruleset

# What docs/rules.md section 6 says each preset changes from standard.
PRESET_TABLE: dict[str, dict[str, object]] = {
    "standard": {},
    "lane": {"opening": "lane", "first_mover": "black", "blocked": "remove-by-opponent"},
    "seejeh": {"line_capture": True, "chain": "any", "lose_at": 1, "blocked": "capture-one"},
    "aljaafreh": {"first_mover": "black", "chain": "any", "blocked": "lose"},
    "fouze": {"blocked": "remove-by-blocked"},
    "two-then-one": {"placement": "pairs-then-singles"},
    "ludii": {
        "first_mover": "black",
        "safe_centre": False,
        "chain": "none",
        "max_shuttles": 0,
        "move_limit": 0,
        "turn_limit": 2500,
    },
    "five-in-a-row": {"win_line": 5, "after_placement": "replace"},
    "modern-3x3": {"pieces": 3, "placement": "singles", "place_centre": True, "captures": False, "win_line": 3},
}
SIZES = {"five-in-a-row": (5,), "modern-3x3": (3,)}
STANDARD_DEFAULTS: dict[str, object] = {
    "placement": "pairs",
    "place_centre": False,
    "opening": "free",
    "after_placement": "move",
    "first_mover": "white",
    "captures": True,
    "safe_centre": True,
    "line_capture": False,
    "chain": "same",
    "max_shuttles": 2,
    "blocked": "pass",
    "lose_at": 0,
    "move_limit": 100,
    "turn_limit": 0,
    "win_line": 0,
}
PRESET_SIZES = [(p, n) for p in PRESET_TABLE for n in SIZES.get(p, (5, 7, 9))]


def test_the_presets_are_exactly_those_of_rules_md() -> None:
    assert set(PRESETS) == set(PRESET_TABLE)


@pytest.mark.parametrize(("preset", "size"), PRESET_SIZES)
def test_every_preset_at_every_size(preset: str, size: int) -> None:
    rules = Ruleset.make(preset, size)
    assert (rules.variant, rules.size) == (preset, size)
    expected = {**STANDARD_DEFAULTS, "pieces": (size * size - 1) // 2, **PRESET_TABLE[preset]}
    assert {k: getattr(rules, k) for k in expected} == expected
    assert rules.options_text() == ""
    pos = Position(rules)
    assert pos.hand == [rules.pieces, rules.pieces]
    assert pos.legal_actions()


@pytest.mark.parametrize("preset", list(PRESET_TABLE))
def test_default_size_is_5_or_the_only_size(preset: str) -> None:
    assert Ruleset.make(preset).size == SIZES.get(preset, (5,))[0]


@pytest.mark.parametrize(
    ("preset", "size"), [("standard", 4), ("standard", 3), ("five-in-a-row", 9), ("modern-3x3", 5)]
)
def test_sizes_outside_the_preset_are_refused(preset: str, size: int) -> None:
    with pytest.raises(InvalidRulesError, match="size"):
        Ruleset.make(preset, size)


ONE_OPTION = [
    ("pieces=5", "pieces", 5),
    ("placement=singles", "placement", "singles"),
    ("placement=pairs-then-singles", "placement", "pairs-then-singles"),
    ("place_centre=true", "place_centre", True),
    ("opening=lane", "opening", "lane"),
    ("after_placement=replace", "after_placement", "replace"),
    ("first_mover=black", "first_mover", "black"),
    ("captures=false", "captures", False),
    ("safe_centre=false", "safe_centre", False),
    ("line_capture=true", "line_capture", True),
    ("chain=any", "chain", "any"),
    ("chain=none", "chain", "none"),
    ("max_shuttles=3", "max_shuttles", 3),
    ("max_shuttles=0", "max_shuttles", 0),
    ("blocked=remove-by-blocked", "blocked", "remove-by-blocked"),
    ("blocked=remove-by-opponent", "blocked", "remove-by-opponent"),
    ("blocked=lose", "blocked", "lose"),
    ("blocked=capture-one", "blocked", "capture-one"),
    ("lose_at=1", "lose_at", 1),
    ("move_limit=0", "move_limit", 0),
    ("move_limit=50", "move_limit", 50),
    ("turn_limit=2500", "turn_limit", 2500),
    ("win_line=4", "win_line", 4),
]


def test_every_option_name_is_covered() -> None:
    assert {name for _, name, _ in ONE_OPTION} == set(OPTION_NAMES)


@pytest.mark.parametrize("preset", ["standard", "seejeh", "ludii"])
@pytest.mark.parametrize(("text", "name", "value"), ONE_OPTION)
def test_every_option_can_be_set_alone_on_a_preset(preset: str, text: str, name: str, value: object) -> None:
    rules = Ruleset.make(preset, 5, [text])
    assert getattr(rules, name) == value
    base = Ruleset.make(preset, 5)
    others = [n for n in OPTION_NAMES if n != name]
    assert [getattr(rules, n) for n in others] == [getattr(base, n) for n in others]
    # The override survives a trip through its text form (what records store).
    assert Ruleset.make(preset, 5, [o for o in rules.options_text().split(",") if o]) == rules


def test_options_as_a_mapping_and_with_spaces() -> None:
    assert Ruleset.make("standard", 5, {"chain": "any"}).chain == "any"
    assert Ruleset.make("standard", 5, [" chain = any "]).chain == "any"
    assert Ruleset.make("standard", 5, ["chain=any", "lose_at=1"]).options_text() == "chain=any,lose_at=1"


def test_rulesets_are_frozen_values() -> None:
    rules = Ruleset.make("standard", 5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.chain = "any"  # type: ignore[misc]
    assert rules == Ruleset.make("standard", 5)
    assert hash(rules) == hash(Ruleset.make("standard", 5))


@pytest.mark.parametrize(
    ("preset", "options", "fragment"),
    [
        ("checkers", [], "unknown variant"),
        ("", [], "unknown variant"),
        ("standard", ["colour=red"], "unknown option"),
        ("standard", ["chain"], "name=value"),
        ("standard", ["chain=sometimes"], "chain="),
        ("standard", ["blocked=win"], "blocked="),
        ("standard", ["captures=maybe"], "true or false"),
        ("standard", ["max_shuttles=-1"], "whole number"),
        ("standard", ["max_shuttles=two"], "whole number"),
        ("standard", ["move_limit=1.5"], "whole number"),
        ("standard", ["pieces=13"], "does not fit"),
        ("standard", ["pieces=0"], "does not fit"),
        ("standard", ["win_line=6"], "longer than the board"),
    ],
)
def test_unknown_presets_options_and_values_are_refused(preset: str, options: list[str], fragment: str) -> None:
    with pytest.raises(InvalidRulesError) as info:
        Ruleset.make(preset, 5, options)
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    "options",
    [
        ["move_limit=٣"],  # Arabic-Indic 3: int() accepts it
        ["move_limit=１００"],  # fullwidth 100
        ["move_limit=1_000"],  # int() accepts underscores
        ["move_limit=+5"],
        ["turn_limit=" + "9" * 5000],  # int() refuses past 4300 digits
        ["turn_limit=1000001"],
        {"turn_limit": 10**5000},  # str() of this fails, so the message must not print it
        {"max_shuttles": 2.0},
        {"lose_at": True},
    ],
    ids=["arabic", "fullwidth", "underscore", "plus", "huge-text", "over", "huge-int", "float", "bool"],
)
def test_count_options_are_ascii_whole_numbers_within_bounds(options: object) -> None:
    # Issue 9 item 7.
    with pytest.raises(InvalidRulesError, match="from 0 to 1000000"):
        Ruleset.make("standard", 5, options)  # type: ignore[arg-type]


def test_count_options_at_their_bounds() -> None:
    assert Ruleset.make("standard", 5, ["turn_limit=1000000", "move_limit=0"]).turn_limit == 1_000_000
    assert Ruleset.make("standard", 5, {"move_limit": 50}).move_limit == 50
