"""The rulesets the random-game tests walk through: every preset at every size, plus
option mixes that make blocked players, removals and long chains common."""

from __future__ import annotations

from engine import PRESETS

CASES = [(preset, size, ()) for preset, (sizes, _) in PRESETS.items() for size in sizes] + [
    ("standard", 5, ("max_shuttles=1",)),
    ("standard", 5, ("blocked=lose", "max_shuttles=1")),
    ("fouze", 5, ("max_shuttles=1",)),
    ("lane", 5, ("max_shuttles=1",)),
    ("seejeh", 5, ("max_shuttles=1",)),
    ("two-then-one", 5, ("chain=any", "line_capture=true", "safe_centre=false")),
    ("aljaafreh", 5, ("pieces=8",)),
]
