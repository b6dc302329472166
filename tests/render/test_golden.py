"""Golden images: each scenario drawn now must match the PNG in ``golden/`` pixel for pixel,
within a small tolerance (anti-aliasing may move by a shade between library builds).

Regenerate with ``SEEGA_UPDATE_GOLDEN=1 pytest tests/render`` after a deliberate change of
look, and look at every image before committing.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.render import render_board
from tests.render.scenarios import SCENARIOS, Scenario

GOLDEN = Path(__file__).parent / "golden"
#: A pixel "differs" when a channel moved by more than this.
CHANNEL_TOLERANCE = 24
#: At most this fraction of the pixels may differ (about 130 of a 720x900 board). It was
#: 0.002, and nine goldens had drifted under it: one showed ", end" in a caption the
#: code no longer writes, another the old removal mark (stop 38). Anti-aliasing moves a
#: couple of pixels at most.
PIXEL_FRACTION = 0.0002
MAX_BYTES = 300_000


def _render(s: Scenario) -> bytes:
    pos, turn = s.build()
    return render_board(pos, turn, players=s.players, theme=s.theme, outcome=s.outcome, time_left=s.time_left)


def _differing_fraction(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    worst = _channel_max(diff)
    hist = worst.point(lambda v: 255 if v > CHANNEL_TOLERANCE else 0).histogram()
    return hist[255] / (a.width * a.height)


def _channel_max(img: Image.Image) -> Image.Image:
    r, g, b = img.split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_matches_golden_image(scenario: Scenario, update_golden: bool) -> None:
    data = _render(scenario)
    path = GOLDEN / f"{scenario.name}.png"
    if update_golden:
        path.write_bytes(data)
    assert path.exists(), f"no golden image {path.name}: run with SEEGA_UPDATE_GOLDEN=1 and look at it"
    got = Image.open(io.BytesIO(data))
    want = Image.open(path)
    assert got.size == want.size
    fraction = _differing_fraction(got, want)
    assert fraction <= PIXEL_FRACTION, f"{scenario.name}: {fraction:.2%} of the pixels differ from {path.name}"


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_png_is_portrait_and_small(scenario: Scenario) -> None:
    data = _render(scenario)
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    assert img.size == (720, 900)  # 4:5: phones show it whole instead of cropping a square
    assert len(data) < MAX_BYTES


def test_same_input_gives_the_same_bytes() -> None:
    s = SCENARIOS[4]
    assert _render(s) == _render(s)


def test_tolerance_catches_a_real_change() -> None:
    """The comparison is not so loose that a moved stone, or a caption of a few words,
    would pass."""
    chain = next(s for s in SCENARIOS if s.name == "chain-5x5")
    capture = next(s for s in SCENARIOS if s.name == "capture-5x5")
    a = Image.open(io.BytesIO(_render(chain)))
    b = Image.open(io.BytesIO(_render(capture)))
    assert _differing_fraction(a, b) > PIXEL_FRACTION
