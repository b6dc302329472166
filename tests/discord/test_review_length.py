"""A review never exceeds what Discord takes (outside review, stop 40): 2,000 characters
of content, 4,096 of an embed's description. A review of 2,064 characters failed its
final edit with HTTP 400, and the stored review could never be shown again."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.service.coach_results import KeyMoment, ReviewResult
from bot.texts import NAME_LIMIT, shown_name
from engine.coach.review import CLASSES, KEY_MOMENTS, Slide
from tests.discord.harness import Harness

CONTENT_LIMIT, DESCRIPTION_LIMIT = 2000, 4096
#: The longest names there are, each character escaped in messages.
NAMES = (shown_name("_" * (NAME_LIMIT + 1)), shown_name("*" * (NAME_LIMIT + 1)))


class WorstReview:
    """Every line a review can have, each as long as it gets."""

    accuracy = (61.0, 74.0)
    turns = ()

    def counts(self, side: int) -> dict[str, int]:
        return {c: 100 for c in CLASSES}

    def unseen_falls(self, side: int, min_fall: float) -> tuple[tuple[int, float, float], ...]:
        return ((131, 0.71, 0.42), (147, 0.55, 0.31), (163, 0.45, 0.21), (171, 0.35, 0.11))

    def slide(self) -> Slide:
        return Slide(0, 2, 9, 0.60, 0.10, 8, 0.5, 0.15)


def _moment(i: int) -> KeyMoment:
    return KeyMoment(
        index=10 + i,
        number=140 + 12 * i,
        side=i % 2,
        player=NAMES[i % 2],
        label="blunder",
        played=("e5-e6", "e6-e7", "e7-e8"),
        best=("d4-d5", "d5-d6", "d6-d7"),
        loss=0.1 * (i + 1),
        played_why=(
            ("allows_capture_moves_after", {"cells": "f6 g6 h6", "moves": "a1-a2", "reply": "c3-c4 c4-c5 c5-c6"}),
            ("allows_wall", {"reply": "c3-c4 c4-c5 c5-c6"}),
        ),
        best_why=(
            ("captures", {"n": "3", "cells": "e6 e7 e8"}),
            ("corner_flank", {"cells": "a9"}),
            ("deadlock", {"turns": "40", "moves": "3"}),
        ),
    )


def worst_result() -> ReviewResult:
    moments = tuple(_moment(i) for i in range(KEY_MOMENTS))
    return ReviewResult(1234567, NAMES, WorstReview(), True, None, moments, hints=99, cancelled=True)  # type: ignore[arg-type]


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_the_longest_review_fits_a_message_in_both_languages(locale: str) -> None:
    from bot.coach_messages import review_parts

    content, moments = review_parts(worst_result(), locale)
    assert len(content) <= CONTENT_LIMIT, len(content)
    assert moments is None or len(moments) <= DESCRIPTION_LIMIT, len(moments or "")
    assert NAMES[0] in content and "1234567" in content


async def test_the_longest_review_is_shown_on_discord(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    reviews = h.bot.service.coach.reviews

    async def check(*args: Any, **kw: Any) -> None:
        return None

    async def review(*args: Any, **kw: Any) -> ReviewResult:
        return worst_result()

    monkeypatch.setattr(reviews, "check", check)
    monkeypatch.setattr(reviews, "review", review)
    asked = await h.slash(h.carol, "seega review", {"game": 1}, timeout=60)
    shown = [m for m in ([asked.original] if asked.original else []) + asked.followups if not m.deleted][-1]
    assert not shown.ephemeral and "game #1234567" in shown.text, shown.text
    assert "deadlock" in shown.text, "the key moments are shown"


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_the_longest_lists_fit_a_message(locale: str) -> None:
    """``/seega games`` (content, up to 20 games) and ``/seega history`` (an embed, up to
    50 games) with the longest names: 20 games of people with 32-character names already
    passed 2,000 characters."""
    import time

    from bot.messages import games_text, history_embed
    from bot.results import GameSummary, Player

    black, white = Player(1, NAMES[0]), Player(2, NAMES[1])
    now = time.time()
    games = [
        GameSummary(10**6 + i, 10**17, "two-then-one", 9, black, white, "over", "1-0", "resignation", now, now, 300)
        for i in range(50)
    ]
    assert len(history_embed(games, NAMES[0], locale).description or "") <= DESCRIPTION_LIMIT
    views = [
        SimpleNamespace(
            id=10**6 + i, channel_id=10**17 + i, black=black, white=white, variant="two-then-one", size=9, turn=300
        )
        for i in range(20)
    ]
    assert len(games_text(views, locale)) <= CONTENT_LIMIT  # type: ignore[arg-type]
