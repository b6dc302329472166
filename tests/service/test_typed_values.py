"""Typed option values (issue 12, "did you mean"): any case is accepted, a mistyped value is
refused naming the allowed values and the closest one, and a hostile length stays fast.

On Discord these options are choices (the client sends only listed values); the console
and any caller of the service type them, so the service answers.
"""

from __future__ import annotations

import pytest

from bot.results import BadInputError
from bot.service import GameService, catalog
from tests.service.helpers import ALICE, GUILD


@pytest.mark.parametrize(
    ("check", "typed", "expected"),
    [
        (
            catalog.check_level,
            "Esay",
            "'Esay' is not a level: did you mean easy? Levels are easy, medium, hard or expert.",
        ),
        (catalog.check_variant, "Stadnard", "did you mean standard? Variants are standard, lane,"),
        (catalog.check_color, "whiet", "did you mean white? Choose black, white or random."),
        (catalog.check_level, "zzzz", "'zzzz' is not a level; levels are easy, medium, hard or expert."),
    ],
)
def test_a_mistyped_value_names_the_closest_and_the_allowed(check, typed: str, expected: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BadInputError) as caught:
        check(typed)
    assert expected in str(caught.value)
    assert "هل تقصد" in caught.value.text("ar") or "did you mean" not in expected


def test_any_case_is_accepted() -> None:
    assert catalog.check_level(" Easy ") == "easy" and catalog.check_variant("LANE") == "lane"
    assert catalog.check_color("Black") == "black"


def test_a_pasted_paragraph_is_refused_short() -> None:
    for check in (catalog.check_level, catalog.check_variant, catalog.check_color):
        with pytest.raises(BadInputError) as caught:
            check("easy" * 15_000)
        assert len(str(caught.value)) < 300 and "did you mean" not in str(caught.value)


async def test_the_service_refuses_a_mistyped_level_and_starts_nothing(service: GameService) -> None:
    with pytest.raises(BadInputError) as caught:
        await service.play_bot(GUILD, 1, ALICE, "hadr")
    assert "did you mean hard?" in str(caught.value)
    assert await service.game(1) is None
    started = await service.play_bot(GUILD, 1, ALICE, "HARD", color="black")
    assert started.game.white.bot_level == "hard"
