"""Every sentence the bot can show exists in English and in Arabic, with the same placeholders.

The keys are collected from the code itself (an ``ast`` walk), not from a list kept by
hand: every ``...Error(...)`` the bot raises with a service key, every ``t(locale,
"key")``, ``Refusal("key")`` and ``Text.of("key")`` of the adapters, and the families of
keys built from data (levels, colours, reasons, statuses). A key missing in one language
comes back in English to Arabic players, so it fails here.
"""

from __future__ import annotations

import ast
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import results, texts
from bot.render import words
from bot.service import catalog
from engine.outcome import REASONS
from engine.rules import BLOCKED_RULES, OPENINGS

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "bot").rglob("*.py"))
ERRORS = {name for name, value in vars(results).items() if isinstance(value, type) and issubclass(value, Exception)}
ERRORS |= {"_Stale"}  # the internal timer error of bot.service.ending
LANGS = texts.LANGUAGES


def _strings(node: ast.AST | None) -> list[str] | None:
    """The string constants an expression can be (``"a"`` or ``"a" if c else "b"``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        a, b = _strings(node.body), _strings(node.orelse)
        return None if a is None or b is None else a + b
    return None


def _assigned(tree: ast.AST, name: str, line: int) -> list[str] | None:
    """The strings last assigned to ``name`` before ``line`` (a key chosen by a condition)."""
    best: tuple[int, list[str] | None] | None = None
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and node.lineno < line
            and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
            and (best is None or node.lineno > best[0])
        ):
            best = (node.lineno, _strings(node.value))
    return None if best is None else best[1]


def service_raises() -> Iterator[tuple[str, str, frozenset[str]]]:
    """``(where, key, parameter names)`` of every service error the bot constructs."""
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ERRORS):
                continue
            if node.func.id in {"_Stale"}:
                continue  # never shown: the scheduler drops it
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            params = frozenset(k.arg for k in node.keywords if k.arg)
            if len(node.args) >= 2:
                keys = _strings(node.args[1])
            elif len(node.args) == 1:
                first = node.args[0]
                keys = _assigned(tree, first.id, node.lineno) if isinstance(first, ast.Name) else _strings(first)
            else:
                keys = None
            assert keys, f"{where}: the message key must be written in the code"
            for key in keys:
                yield where, key, params


def adapter_keys() -> Iterator[tuple[str, str, frozenset[str] | None]]:
    """``(where, key, parameter names or None)`` of every constant key the adapters word
    (``None``: the call passes ``**params``, so its names are not known here)."""
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "label_key" for t in node.targets
            ):
                for key in _strings(node.value) or []:
                    if key:
                        yield f"{path.relative_to(ROOT)}:{node.lineno}", key, frozenset()
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            position = {"t": 1, "text": 1, "Refusal": 0, "of": 0}.get(name)
            if position is None or len(node.args) <= position:
                continue
            keys = _strings(node.args[position])
            if not keys:
                continue
            has_kwargs = any(k.arg is None for k in node.keywords)
            params = None if has_kwargs else frozenset(k.arg for k in node.keywords if k.arg)
            for key in keys:
                yield f"{path.relative_to(ROOT)}:{node.lineno}", key, params


def test_the_walks_find_the_keys() -> None:
    raised = {key for _, key, _ in service_raises()}
    assert {"occupied", "centre", "bad_cell", "no_moves_now", "not_your_turn", "bad_variant"} <= raised
    assert {"replace_empty", "replace_own", "bad_step_in_chain", "duration_out_of_range"} <= raised
    worded = {key for _, key, _ in adapter_keys()}
    assert {"button.accept", "error.not_for_you", "turn.placed", "hint.place"} <= worded


@pytest.mark.parametrize("lang", LANGS)
def test_every_service_error_is_worded_in_every_language(lang: str) -> None:
    problems = []
    for where, key, params in service_raises():
        template = texts.messages(lang).get(f"service.{key}")
        if template is None:
            problems.append(f"{where}: service.{key} missing")
        elif not texts.fields(template) <= params:
            problems.append(f"{where}: service.{key} names {sorted(texts.fields(template))}, given {sorted(params)}")
    for name in ERRORS - {"_Stale"}:
        key = getattr(results, name).key if hasattr(getattr(results, name), "key") else None
        if key is not None and f"service.{key}" not in texts.messages(lang):
            problems.append(f"{name}: its default key service.{key} is missing")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_every_adapter_key_is_worded_in_every_language(lang: str) -> None:
    problems = []
    for where, key, params in adapter_keys():
        template = texts.messages(lang).get(key)
        if template is None:
            problems.append(f"{where}: {key} missing")
        elif params is not None and not texts.fields(template) <= params:
            problems.append(f"{where}: {key} needs {sorted(texts.fields(template) - params)}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_keys_built_from_data_are_worded(lang: str) -> None:
    messages = texts.messages(lang)
    built = [f"level.{level}" for level in catalog.LEVELS]
    built += [f"color.{color}" for color in catalog.COLORS]
    built += [f"reason.{reason}" for reason in (*REASONS, "agreement", "resignation", "timeout", "abandoned")]
    built += [f"challenge_status.{s}" for s in ("accepted", "declined", "withdrawn", "expired", "closed")]
    built += [f"challenge.{s}" for s in ("pending", "accepted", "declined", "withdrawn", "expired", "closed")]
    built += [f"variant.{v}" for v in catalog.RULES_VARIANTS]
    built += picture_keys()
    missing = [key for key in built if key not in messages]
    assert not missing


def picture_keys() -> list[str]:
    """The keys ``bot.render.words`` builds from data: every sentence a board picture can say."""
    built = [f"picture.reason.{r}{tail}" for r in words.LOSER_REASONS for tail in ("", ".you", ".name")]
    built += [f"picture.doing.{d}{tail}" for d in words.DOINGS for tail in ("", ".you")]
    built += [f"picture.hint.count.{p}" for p in (*words.PLACEMENTS, "any")]
    built += [f"picture.hint.removal.{rule}" for rule in words.REMOVAL_HINTS]
    built += [f"picture.opening.{name}" for name in OPENINGS if name != "free"]
    built += [f"picture.badge.{b}" for b in ("to_move", "draw", "winner")]
    built += [f"explain.nth.{n}" for n in range(1, 7)]
    return built


def test_the_pictures_words_are_all_in_the_catalogues() -> None:
    """Every sentence a board picture can say exists in English and Arabic with the same
    placeholders (the walk above finds the constant keys; these are built from data)."""
    for lang in LANGS:
        assert [key for key in picture_keys() if key not in texts.messages(lang)] == []
    english, arabic = texts.messages("en"), texts.messages("ar")
    keys = [k for k in english if k.startswith("picture.")]
    assert len(keys) > 80
    assert [k for k in keys if texts.fields(english[k]) != texts.fields(arabic.get(k, ""))] == []
    worded = [k for k in keys if any(ch.isalpha() for lit, *_ in string.Formatter().parse(english[k]) for ch in lit)]
    assert [k for k in worded if english[k] == arabic[k]] == [], "an untranslated sentence"
    assert set(words.REMOVAL_HINTS) == set(BLOCKED_RULES), "a blocked rule without its removal hint"


def test_both_languages_have_the_same_keys_and_placeholders() -> None:
    """The same plain keys (a language adds the counted variants it needs, ``key#count=two``)."""
    english, arabic = texts.messages("en"), texts.messages("ar")
    plain = {k for k in english if texts.variant(k) is None}
    assert plain == {k for k in arabic if texts.variant(k) is None}
    assert [k for k in plain if texts.fields(english[k]) != texts.fields(arabic[k])] == []


@pytest.mark.parametrize("lang", LANGS)
def test_every_counted_variant_belongs_to_a_key_and_counts_one_of_its_numbers(lang: str) -> None:
    """A variant ``key#param=category`` has its plain key, names a category of its
    language, counts a parameter of the plain template (the same for all its variants),
    and names no parameter the plain template lacks."""
    messages = texts.messages(lang)
    counted: dict[str, set[str]] = {}
    problems = []
    for key, template in messages.items():
        found = texts.variant(key)
        if found is None:
            assert "#" not in key, key
            continue
        base, param, category = found
        counted.setdefault(base, set()).add(param)
        if base not in messages:
            problems.append(f"{key}: no plain {base}")
            continue
        if category not in texts.CATEGORIES[lang] or category == "other":
            problems.append(f"{key}: {category} is not a category of {lang} (other is the plain key)")
        if param not in texts.fields(messages[base]):
            problems.append(f"{key}: {base} has no {{{param}}}")
        if not texts.fields(template) <= texts.fields(messages[base]):
            problems.append(f"{key}: names {sorted(texts.fields(template) - texts.fields(messages[base]))}")
    problems += [f"{base}: variants count {sorted(params)}" for base, params in counted.items() if len(params) > 1]
    assert not problems, "\n".join(problems)


def test_lists_and_nested_sentences_are_worded_in_the_readers_language() -> None:
    error = results.IllegalMoveError("no_moves_now", hint=texts.Text.of("hint.place", cells=["a1", "b2", "c3"]))
    assert str(error) == "You cannot move a piece now; place with /place (you can place on a1, b2 or c3)."
    arabic = error.text("ar")
    assert arabic.startswith("لا يمكنك تحريك قطعة الآن") and "a1،\u200f b2 أو c3" in arabic
    many = texts.join("en", [f"c{i}" for i in range(20)])
    assert many.endswith("and 8 more")
    assert results.ServiceError("An old-style sentence", "not_a_known_key").message == "An old-style sentence"


def test_the_puzzle_leaderboard_names_the_consoles_players_in_the_readers_language() -> None:
    """Native play-test (stop 36): an Arabic console's puzzle leaderboard said "Player 1",
    where its stats said "اللاعب 1". A Discord member who calls themself "Player 1" keeps
    their name (only the console's own user ids 1 and 2 are its local players)."""
    from bot.coach_messages import puzzle_leaders_text
    from bot.service.coach_results import PuzzleLeader

    local = PuzzleLeader(1, "Player 1", 1400.0, 0, 1, 0)
    assert "اللاعب 1" in puzzle_leaders_text([local], "ar") and "Player 1" not in puzzle_leaders_text([local], "ar")
    assert "Player 1" in puzzle_leaders_text([local], "en")
    member = PuzzleLeader(81234567890123456, "Player 1", 1400.0, 0, 1, 0)
    assert "Player 1" in puzzle_leaders_text([member], "ar")


def test_a_won_score_says_which_side_it_went_to() -> None:
    """Native review: a bare "0-1" said neither who won nor whose number came first (in
    chess "1-0" is White's win, here Black's), and in an Arabic sentence the sides' order
    could not be told at all. A win's score names its side; a draw's is the same both ways. (A
    picture names the winner beside its score: "1-0 after 60 turns · Black wins".)"""
    from bot.results import score_words

    assert texts.text("en", "console.game_over", result=score_words("0-1"), text="x") == "Game over (0-1 to White). x"
    arabic = texts.text("ar", "console.game_over", result=score_words("1-0"), text="x")
    assert arabic == f"انتهت المباراة بنتيجة {texts.LRM}1-0{texts.LRM} لصالح الأسود. x"
    assert score_words("1/2-1/2") == "1/2-1/2"


def test_a_variant_is_named_in_arabic_and_keeps_its_code_in_english() -> None:
    """Native review: Arabic messages named the variant by the code people type
    ("two-then-one 5×5"); they name it ("قطعتان ثم قطعة 5×5"), English keeps the code, and
    the lists of what to type (help, refusals, settings) keep the codes."""
    from bot.results import variant_words

    for code in catalog.RULES_VARIANTS:
        assert texts.text("en", f"variant.{code}") == code
        arabic = texts.text("ar", f"variant.{code}")
        assert arabic != code and not any("a" <= ch.lower() <= "z" for ch in arabic), arabic
    footer = texts.text("ar", "game.variant", variant=variant_words("two-then-one"), size=5)
    assert footer == "قطعتان ثم قطعة 5×5"
    assert texts.text("en", "game.variant", variant=variant_words("two-then-one"), size=5) == "two-then-one 5×5"
    assert "seejeh" in texts.text("ar", "service.bad_variant", variant="x", variants=list(catalog.VARIANTS))


def test_a_duration_to_read_is_said_in_the_readers_units() -> None:
    """Native review: the Arabic settings read "1h" and "10m"; a duration to read is said
    with the units of the pictures' clock ("1س 30د"), English keeps the typed form, and a
    refusal still says the range as it is typed."""
    from bot.timeparse import format_duration

    assert format_duration(5400, "ar") == "1س 30د" and format_duration(3 * 86400, "ar") == "3ي"
    assert format_duration(45, "ar") == "45ث" and format_duration(600, "ar") == "10د"
    assert format_duration(5400, "en") == format_duration(5400) == "1h30m"
    from bot import wording
    from bot.results import GuildSettings

    said = dict(wording.settings_items(GuildSettings(1), "ar"))  # what the settings show, Discord and console
    assert said["مهلة الدور (turn_timeout)"] == "1س" and said["مهلة قبول التحدي (challenge_timeout)"] == "10د", said


def test_an_arabic_line_opening_with_a_name_reads_right_to_left() -> None:
    """Outside play-test: "Carol: 1338 ← 1280 (-58)" opened with a Latin name, so a client
    laid the line out left to right and it read as a rise from 1280 to 1338 next to "-58".
    An Arabic line opening with a name starts with a right-to-left mark and isolates the
    name; English, and a line that is only the name, stay as they are."""
    rlm, fsi, pdi = "\u200f", "\u2068", "\u2069"
    line = texts.text("ar", "over.rating", name="Carol", before=1338, after=1280, delta="-58")
    assert line == f"{rlm}{fsi}Carol{pdi}: 1338 ← 1280 (-58)"
    console = texts.text("ar", "console.rating_change", name="Carol", before=1338, after=1280, delta="-58")
    assert console == f"{rlm}{fsi}Carol{pdi}: التصنيف 1338 ← 1280 (-58)"
    busy = texts.text("ar", "service.opponent_too_many_games", player="Carol", limit=2)
    assert busy.startswith(f"{rlm}{fsi}Carol{pdi} ")
    assert texts.text("en", "over.rating", name="Carol", before=1338, after=1280, delta="-58") == (
        "Carol: 1338 → 1280 (-58)"
    )
    assert texts.text("ar", "stats.title", name="Carol") == "Carol"


def test_a_review_line_of_actions_names_a_pass_in_the_readers_words_without_brackets_in_brackets() -> None:
    """Outside play-test: a bare English "pass" in an Arabic review line ("بعد c4-c3 pass
    b4-c4 b5-b4"), and a capture's cells in brackets inside the key moment's brackets
    ("(تأسر قطعة (b1))")."""
    from bot.coach_messages import _with_why

    why = (("allows_capture_moves_after", {"n": "1", "cells": "b4", "reply": "b5-b4", "moves": "c4-c3 pass b4-c4"}),)
    arabic = _with_why("a4-a3", why, "coach.review", "ar", player="Bob")
    assert "pass" not in arabic and f"بعد c4-c3{texts.RLM} تمرير{texts.RLM} b4-c4،" in arabic, arabic
    english = _with_why("a4-a3", why, "coach.review", "en", player="Bob")
    assert "after c4-c3 pass b4-c4, with b5-b4" in english, english
    for lang in LANGS:
        for n, cells in (("1", "b1"), ("2", "b1 c2")):
            for said in (
                _with_why("a1-a2", (("captures", {"n": n, "cells": cells}),), "coach.reason", lang),
                _with_why("a1-a2", (("deadlock", {"turns": "3", "moves": "2"}),), "coach.reason", lang),
            ):
                inside = said[said.index("(") + 1 : said.rindex(")")]
                assert "(" not in inside and ")" not in inside, said


def test_a_board_size_people_read_is_written_with_the_multiplication_sign() -> None:
    """Outside play-test: "5x5" (rules, puzzle headers, refusals) beside "5×5" (game
    footers, pictures). A size people read is "5×5" in both languages; what they type
    stays ``size:5``."""
    import re

    from bot.explain.rules import sizes_text

    for lang in LANGS:
        for key, template in texts.messages(lang).items():
            assert not re.search(r"(\}|\d)x(\{|\d)", template) or "3x3" in template, (lang, key, template)
        assert texts.text(lang, "coach.puzzle.new", id=1, difficulty=2, variant="x", size=5).endswith("5×5")
    assert sizes_text([5, 7]) == ["5×5", "7×7"]
    from bot.console.commands import _BOARD_SIZE

    assert _BOARD_SIZE.fullmatch("7×7") and _BOARD_SIZE.fullmatch("7x7"), (
        "a size copied from a text is pointed to size:7"
    )


def test_a_discord_thread_is_never_called_a_chain_in_arabic() -> None:
    """Arabic play-test (stop 39): a Discord thread was «سلسلة», the word the lessons and
    the rules use for a chain of captures ("your game is played here, in this chain").
    A thread is «سلسلة رسائل», a thread of messages."""
    import json

    locale = Path(__file__).resolve().parents[1] / "bot" / "locale"
    en = json.loads((locale / "en.json").read_text())["messages"]
    ar = json.loads((locale / "ar.json").read_text())["messages"]
    threads = [key for key, value in en.items() if "thread" in value.replace("{thread}", "").lower() and key in ar]
    assert len(threads) >= 4, threads
    for key in threads:
        assert "سلسلة رسائل" in ar[key] or "سلسلة الرسائل" in ar[key], (key, ar[key])
