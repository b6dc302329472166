"""The specification belongs to the project: ``docs/rules.md`` exists, the engine cites it
(not a file outside the repository), and the limits it states are the ones the code applies."""

from __future__ import annotations

import re
from pathlib import Path

from engine import OPTION_NAMES, PRESETS, REASONS
from engine.cli import COMMANDS, MAX_MOVETIME_MS, MAX_PERFT_DEPTH
from engine.rules import MAX_OPTION_NUMBER
from engine.spn import MAX_COUNTER

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "docs" / "rules.md"


def test_the_specification_has_its_eight_sections() -> None:
    headings = re.findall(r"^## (\d)\. ", SPEC.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert headings == [str(i) for i in range(1, 9)]


def test_it_names_every_preset_option_reason_and_command() -> None:
    text = SPEC.read_text(encoding="utf-8")
    for name in [*PRESETS, *OPTION_NAMES, *REASONS]:
        assert f"`{name}`" in text, name
    for command in COMMANDS:
        assert f"`{command} SPN" in text, command


def test_the_limits_it_states_are_the_codes() -> None:
    text = SPEC.read_text(encoding="utf-8")
    assert f"DEPTH is 0 to {MAX_PERFT_DEPTH}." in text
    assert f"1 to {MAX_MOVETIME_MS} (0 or no `--movetime`" in text
    assert f"from 0 to {MAX_OPTION_NUMBER}" in text
    assert f"at most {MAX_COUNTER}" in text


def test_engine_sources_cite_docs_rules_md_not_a_file_outside_the_repository() -> None:
    # engine/ai/ is the AI engineer's; its one citation is left to that branch.
    sources = [p for p in (ROOT / "engine").rglob("*.py") if "ai" not in p.relative_to(ROOT / "engine").parts[:-1]]
    assert sources
    for path in sources:
        text = path.read_text(encoding="utf-8")
        assert "RULES.md" not in text and "shared/" not in text, path
    assert "docs/rules.md" in (ROOT / "engine" / "__init__.py").read_text(encoding="utf-8")
