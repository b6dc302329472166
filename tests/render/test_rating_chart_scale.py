"""The rating chart with very many games or a very wide spread (outside review, finding 2).

It drew every rated game (100,000 games took about a second) and chose its grid step
with a ``next`` without default, which raised StopIteration once the ratings spread over
more than about 5,350 points.
"""

from __future__ import annotations

import io
import itertools
import random
from collections.abc import Sequence
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot.render import chart
from bot.render.chart import ChartWords, rating_chart

#: The most points one line of the chart may have (the plot is about 800 pixels wide).
MOST_POINTS = 1000
WORDS = ChartWords("Amira: rating history", x_axis="rated games", legend={"5": "5x5", "9": "9x9"})


def walk(n: int, seed: int) -> list[float]:
    """A random walk of ``n`` ratings from 1500, like a long rating history."""
    rng = random.Random(seed)
    out, r = [], 1500.0
    for _ in range(n):
        r += rng.uniform(-16, 16)
        out.append(r)
    return out


def test_a_chart_of_100000_games_draws_at_most_1000_points_a_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every line drawn on the chart has at most 1000 points."""
    drawn: list[int] = []
    real_line = ImageDraw.ImageDraw.line

    def line(self: ImageDraw.ImageDraw, xy: Sequence[Any], *args: Any, **kwargs: Any) -> None:
        drawn.append(len(xy))
        real_line(self, xy, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "line", line)
    data = rating_chart({5: walk(100_000, seed=1), 9: walk(40_000, seed=2)}, WORDS)
    assert Image.open(io.BytesIO(data)).size == (chart.WIDTH, chart.HEIGHT)
    assert drawn, "no line was drawn"
    assert max(drawn) <= MOST_POINTS


def test_what_is_drawn_is_what_downsample_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chart plots the points :func:`chart.downsample` keeps: at most MAX_POINTS a
    line, the first, the last, the lowest and the highest included."""
    assert chart.MAX_POINTS <= MOST_POINTS
    kept: list[list[tuple[int, float]]] = []
    real_downsample = chart.downsample

    def spy(values: Sequence[float], limit: int = chart.MAX_POINTS) -> list[tuple[int, float]]:
        kept.append(real_downsample(values, limit))
        return kept[-1]

    monkeypatch.setattr(chart, "downsample", spy)
    series = {5: walk(100_000, seed=1), 9: walk(40_000, seed=2)}
    rating_chart(series, WORDS)
    assert len(kept) == len(series)
    for ratings, points in zip(series.values(), kept, strict=True):
        assert len(points) <= chart.MAX_POINTS
        values = [v for _i, v in points]
        assert points[0] == (0, ratings[0])
        assert points[-1] == (len(ratings) - 1, ratings[-1])
        assert min(values) == min(ratings)
        assert max(values) == max(ratings)


def test_downsample_keeps_short_series_whole_and_long_ones_in_order() -> None:
    short = walk(chart.MAX_POINTS, seed=3)
    assert chart.downsample(short) == list(enumerate(short))
    long = walk(chart.MAX_POINTS * 7 + 3, seed=4)
    points = chart.downsample(long)
    assert len(points) <= chart.MAX_POINTS
    indexes = [i for i, _v in points]
    assert indexes == sorted(set(indexes))
    assert all(long[i] == v for i, v in points)


def test_a_spread_of_10000_points_draws() -> None:
    data = rating_chart({5: [-3000.0, 1500.0, 7000.0, 2000.0]}, WORDS)
    img = Image.open(io.BytesIO(data))
    assert img.size == (chart.WIDTH, chart.HEIGHT)


@pytest.mark.parametrize("count", [9_000, 100_000, 3_000_000])
def test_a_long_history_labels_its_axis_with_round_numbers(count: int) -> None:
    """Past 8,000 games the step jumped from 1,000 to a billion, and the axis of a long
    history said only "0" (looked at, stop 39)."""
    ticks = chart._ticks(count, 0)
    assert 4 <= len(ticks) <= 9, ticks
    step = ticks[1] - ticks[0]
    assert all(b - a == step for a, b in itertools.pairwise(ticks)), ticks
