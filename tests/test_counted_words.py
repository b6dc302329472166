"""The counted variants of a template (``key#count=two``) and the direction of Arabic lists.

The mechanism is tested on a catalogue of its own (the real templates are checked in
``tests/test_wording.py``), and on real Arabic sentences whose noun follows the number.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

import pytest

from bot import texts


@pytest.fixture
def catalogue(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A made-up key with Arabic variants, next to the real catalogues."""
    real = texts.messages

    def messages(lang: str) -> dict[str, str]:
        extra = {
            "en": {"test.turns": "after {count} turns", "test.turns#count=one": "after 1 turn"},
            "ar": {
                "test.turns": "بعد {count} دور",
                "test.turns#count=zero": "قبل أي دور",
                "test.turns#count=one": "بعد دور واحد",
                "test.turns#count=two": "بعد دورين",
                "test.turns#count=few": "بعد {count} أدوار",
                "test.turns#count=many": "بعد {count} دورًا",
                "test.limit": "{limit} مباراة في وقت واحد ({other})",
                "test.limit#limit=few": "{limit} مباريات في وقت واحد ({other})",
            },
        }[lang]
        return {**real(lang), **extra}

    texts._variants.cache_clear()
    monkeypatch.setattr(texts, "messages", messages)
    yield
    monkeypatch.undo()
    texts._variants.cache_clear()


@pytest.mark.parametrize(
    ("count", "category"),
    [
        *[(0, "zero"), (1, "one"), (2, "two"), (3, "few"), (10, "few"), (11, "many"), (99, "many")],
        *[(100, "other"), (101, "other"), (102, "other"), (103, "few"), (111, "many"), (1000, "other")],
    ],
)
def test_the_arabic_plural_categories_are_cldrs(count: int, category: str) -> None:
    assert texts.plural_category("ar", count) == category


def test_english_has_one_and_other() -> None:
    assert [texts.plural_category("en", n) for n in (0, 1, 2, 11, 101)] == ["other", "one", "other", "other", "other"]


@pytest.mark.usefixtures("catalogue")
@pytest.mark.parametrize(
    ("count", "said"),
    [
        *[(0, "قبل أي دور"), (1, "بعد دور واحد"), (2, "بعد دورين"), (3, "بعد 3 أدوار"), (10, "بعد 10 أدوار")],
        *[(11, "بعد 11 دورًا"), (99, "بعد 99 دورًا"), (100, "بعد 100 دور"), (102, "بعد 102 دور"), (105, "بعد 105 أدوار")],
    ],
)
def test_text_picks_the_variant_of_the_count(count: int, said: str) -> None:
    assert texts.text("ar", "test.turns", count=count) == said


@pytest.mark.usefixtures("catalogue")
def test_a_variant_counts_the_parameter_it_names_and_the_plain_key_is_the_rest() -> None:
    assert texts.text("ar", "test.limit", limit=5, other=1) == "5 مباريات في وقت واحد (1)"
    assert texts.text("ar", "test.limit", limit=50, other=5) == "50 مباراة في وقت واحد (5)"
    # A count given as text (the engine's hint reasons) is counted; anything else that is
    # not a whole number (a word, a flag, Arabic-Indic digits) takes the plain template.
    assert texts.text("ar", "test.limit", limit="5", other=1) == "5 مباريات في وقت واحد (1)"
    assert texts.text("ar", "test.limit", limit="five", other=1) == "five مباراة في وقت واحد (1)"
    assert texts.text("ar", "test.limit", limit="٥", other=1) == "٥ مباراة في وقت واحد (1)"
    assert texts.text("ar", "test.turns", count=True) == "بعد True دور"
    # English has its own variants, and a language without the key falls back to English's.
    assert texts.text("en", "test.turns", count=1) == "after 1 turn"
    assert texts.text("en", "test.turns", count=2) == "after 2 turns"


def test_real_sentences_agree_with_their_numbers() -> None:
    """The findings of the Arabic play-test: "2 مرات", "100 دورًا", "بعد 2 دورًا"."""
    shuttle = {n: texts.text("ar", "explain.rules.shuttle", count=n) for n in (1, 2, 3, 11)}
    assert "مرتين متتاليتين" in shuttle[2] and "2" not in shuttle[2]
    assert "3 مرات متتالية" in shuttle[3] and "11 مرة متتالية" in shuttle[11] and "مرة واحدة" in shuttle[1]
    assert "100 دور متتالٍ" in texts.text("ar", "explain.rules.move_limit", count=100)
    assert "40 دورًا متتاليًا" in texts.text("ar", "explain.rules.move_limit", count=40)
    after = {n: texts.text("ar", "picture.after", result="تعادل", count=n) for n in (2, 7, 40, 100)}
    assert after == {2: "تعادل بعد دورين", 7: "تعادل بعد 7 أدوار", 40: "تعادل بعد 40 دورًا", 100: "تعادل بعد 100 دور"}
    assert texts.text("ar", "picture.pieces.many", count=2) == "قطعتان"
    assert texts.text("ar", "picture.pieces.many", count=12) == "12 قطعة"
    assert texts.text("ar", "picture.pieces.many", count=9) == "9 قطع"
    assert texts.text("en", "picture.after", result="Draw", count=7) == "Draw after 7 turns"


def test_an_arabic_list_of_cells_reads_from_right_to_left() -> None:
    """Each Arabic comma is followed by a right-to-left mark, so the Latin cells on either
    side are two runs, laid out right to left ("d3، a3": d3 first, on the right)."""
    listed = texts.join("ar", ["b3", "c2", "c4", "d3"])
    assert listed == "b3،\u200f c2،\u200f c4 أو d3"
    for i, ch in enumerate(listed):
        if ch == "،":
            assert unicodedata.bidirectional(listed[i + 1]) == "R"
    assert texts.separator("ar") == "،\u200f "
    assert texts.join("ar", [f"c{i}" for i in range(1, 15)]).count("\u200f") == 11
    assert "\u200f" not in texts.join("en", ["b3", "c2", "d3"]) and texts.separator("en") == ", "
    # The explanations' own comma too (bot.explain and the turn lines use explain.sep).
    assert texts.text("ar", "explain.sep") == texts.separator("ar")


def test_english_says_one_game_and_once() -> None:
    """English had "1 games", "1 times in a row", "game(s)": its own ``one`` variants."""
    assert texts.text("en", "stats.active", count=1) == "1 game in progress"
    assert texts.text("en", "stats.active", count=3) == "3 games in progress"
    assert "(1 game)" in texts.text("en", "stats.rating_line", size=5, rating=1500, rd=80, games=1)
    assert "(2 games)" in texts.text("en", "stats.rating_line", size=5, rating=1500, rd=80, games=2)
    assert "cells once, not more" in texts.text("en", "explain.rules.shuttle", count=1)
    assert "2 times in a row" in texts.text("en", "explain.rules.shuttle", count=2)
    assert texts.text("en", "coach.stats.hints", count=1) == "Took hints in 1 game."
    assert "the one hint allowed" in texts.text("en", "service.coach_hint_limit", limit=1)
    assert "all 3 hints" in texts.text("en", "service.coach_hint_limit", limit=3)
