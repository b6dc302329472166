"""Golden images of the coach's pictures: the evaluation graph, the rating history, a hint
and a review's key moment. Regenerate with ``SEEGA_UPDATE_GOLDEN=1`` and look at them."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.render.chart import BLUNDER, ChartWords, evaluation_chart, rating_chart
from bot.render.hint import HINT, suggestion_image
from engine.actions import Action
from engine.position import Position
from engine.rules import Ruleset

GOLDEN = Path(__file__).parent / "golden"
CHANNEL_TOLERANCE = 24
PIXEL_FRACTION = 0.002
RULES = Ruleset.make("standard", 5)
SPN = "w3b/5/wb1bw/2w2/b3b w m 0/0 - 0 30"
CURVE = [0.5, 0.52, 0.55, 0.5, 0.47, 0.6, 0.62, 0.58, 0.3, 0.28, 0.33, 0.31, 0.5, 0.72, 0.75, 0.9, 1.0]
EVAL_WORDS = ChartWords(
    "Review: Amira vs Omar", "Black better", "White better", "turn", {"blunder": "blunder", "mistake": "mistake"}
)
ARABIC_WORDS = ChartWords(
    "مراجعة: أميرة ضد عمر", "أفضل للأسود", "أفضل للأبيض", "الدور", {"blunder": "خطأ فادح", "mistake": "خطأ"}
)


def _eval() -> bytes:
    return evaluation_chart(CURVE, {8: "blunder", 12: "mistake", 13: "blunder"}, EVAL_WORDS, first_turn=20)


def _eval_arabic() -> bytes:
    return evaluation_chart(CURVE, {8: "blunder"}, ARABIC_WORDS, first_turn=20)


def _rating() -> bytes:
    words = ChartWords("Amira: rating history", x_axis="rated games", legend={"5": "5x5", "7": "7x7"})
    return rating_chart({5: [1500, 1562, 1610, 1588, 1640, 1661], 7: [1500, 1458, 1480]}, words)


def _hint() -> bytes:
    pos = Position.from_spn("4b/3w1/3b1/wb3/2w2 w m 0/0 - 0 40", RULES)
    return suggestion_image(
        pos, [Action.parse("c1-c2"), Action.parse("c2-d2")], players=("Amira", "Omar"), legend=("played", "suggested")
    )


def _key_moment() -> bytes:
    pos = Position.from_spn(SPN, RULES)
    return suggestion_image(
        pos, [Action.parse("c2-c3")], [Action.parse("c2-b2")], players=("Amira", "Omar"), legend=("played", "better")
    )


def _key_moment_arabic() -> bytes:
    pos = Position.from_spn(SPN, RULES)
    return suggestion_image(
        pos, [Action.parse("c2-c3")], [Action.parse("c2-b2")], players=("أميرة", "عمر"), legend=("ما لُعب", "الأفضل")
    )


CASES: dict[str, Callable[[], bytes]] = {
    "coach-eval": _eval,
    "coach-eval-arabic": _eval_arabic,
    "coach-rating": _rating,
    "coach-hint-chain": _hint,
    "coach-key-moment": _key_moment,
    "coach-key-moment-arabic": _key_moment_arabic,
}


def _differing_fraction(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    r, g, bl = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), bl)
    hist = worst.point(lambda v: 255 if v > CHANNEL_TOLERANCE else 0).histogram()
    return hist[255] / (a.width * a.height)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_golden_image(name: str, update_golden: bool) -> None:
    data = CASES[name]()
    path = GOLDEN / f"{name}.png"
    if update_golden:
        path.write_bytes(data)
    assert path.exists(), f"no golden image {path.name}: run with SEEGA_UPDATE_GOLDEN=1 and look at it"
    got, want = Image.open(io.BytesIO(data)), Image.open(path)
    assert got.size == want.size
    assert _differing_fraction(got, want) <= PIXEL_FRACTION
    assert len(data) < 400_000


def test_the_hint_is_drawn_in_its_own_colour() -> None:
    img = Image.open(io.BytesIO(_hint())).convert("RGB")
    colours = {c for _n, c in img.getcolors(1 << 20) or []}
    assert HINT in colours
    plain = suggestion_image(Position.from_spn(SPN, RULES), [])
    assert HINT not in {c for _n, c in Image.open(io.BytesIO(plain)).convert("RGB").getcolors(1 << 20) or []}


def test_blunders_change_the_graph() -> None:
    """The comparison would catch a missing mark."""
    a = Image.open(io.BytesIO(_eval()))
    b = Image.open(io.BytesIO(evaluation_chart(CURVE, {}, EVAL_WORDS, first_turn=20)))
    assert _differing_fraction(a, b) > PIXEL_FRACTION / 10


def test_degenerate_inputs_still_draw() -> None:
    for curve in ([], [0.5], [2.0, -1.0]):
        Image.open(io.BytesIO(evaluation_chart(curve, {5: "blunder"}, EVAL_WORDS))).verify()
    Image.open(io.BytesIO(rating_chart({}, ChartWords("x" * 500)))).verify()
    Image.open(io.BytesIO(rating_chart({5: [1500.0]}, ChartWords("one")))).verify()


def test_a_cell_both_played_and_better_shows_both_numbers() -> None:
    """A review's key moment (newcomer play-test): played e4 then a4, better a4 then e3.
    a4 showed only the better turn's green 1, hiding the played turn's blue 2."""
    from bot.render.layout import layout
    from bot.render.theme import get_theme
    from engine.board import parse_cell

    pos = Position.from_spn("wbwbb/1wb2/bw1w1/bwbwb/bwbww b p 2/2 - 0 11", RULES)
    played, better = [Action.parse("e4"), Action.parse("a4")], [Action.parse("a4"), Action.parse("e3")]
    img = Image.open(io.BytesIO(suggestion_image(pos, better, played))).convert("RGB")
    lay = layout(5, img.width, img.height)
    x0, y0, x1, _ = lay.cell_box(pos.geo.index(parse_cell("a4")))
    corner = (x1 - x0) // 3  # a number's badge, inside the cell's top corner

    def share(box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> float:
        counts = dict((c, n) for n, c in img.crop(box).getcolors(1 << 16) or [])
        return counts.get(colour, 0) / (corner * corner)

    blue = get_theme("sand").move
    top_left, top_right = (x0, y0, x0 + corner, y0 + corner), (x1 - corner, y0, x1, y0 + corner)
    assert share(top_left, blue) > 0.2 > share(top_left, HINT)  # the played turn's 2
    assert share(top_right, HINT) > 0.2 > share(top_right, blue)  # the better turn's 1


def test_a_lessons_picture_rings_the_cells_its_words_name() -> None:
    """The lessons named cells ("capture the black piece on b2") that their pictures did
    not show: ``Lesson.marks`` was never drawn. Each marked cell now has the orange ring,
    and nothing outside the marked cells changes."""
    from bot.render.board import board_image
    from bot.render.coach_pictures import LOOK, board_png
    from bot.render.layout import layout
    from engine.coach.lessons import LESSONS

    for item in LESSONS:
        pos = item.position()
        plain = board_image(pos)  # unquantized: the marked picture keeps its exact colours
        marked = Image.open(io.BytesIO(board_png(pos, marks=item.marks))).convert("RGB")
        lay = layout(pos.geo.n, plain.width, plain.height)
        boxes = [lay.cell_box(pos.geo.names.index(name)) for name in item.marks]
        assert boxes, item.id
        for box in boxes:
            cell = marked.crop(box)
            ring = sum(
                n
                for n, px in cell.getcolors(1 << 20) or []
                if max(abs(a - b) for a, b in zip(px, LOOK, strict=True)) < 40
            )
            assert ring > 0.15 * cell.width * cell.height, (item.id, box)
        outside = ImageChops.difference(plain, marked)
        for box in boxes:
            outside.paste((0, 0, 0), box)
        assert outside.getbbox() is None, item.id


def _ink_span(png: bytes, box: tuple[int, int, int, int]) -> tuple[int, int]:
    """The leftmost and rightmost x of the light ink (words, dots) inside ``box``."""
    img = Image.open(io.BytesIO(png)).convert("L").crop(box).point(lambda v: 255 if v > 150 else 0)
    found = img.getbbox()
    assert found is not None, "no ink there"
    return box[0] + found[0], box[0] + found[2]


def _xs_of(png: bytes, colour: tuple[int, int, int], box: tuple[int, int, int, int]) -> list[int]:
    """The x of every pixel of exactly ``colour`` inside ``box``."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    x0, y0, x1, y1 = box
    return [x for x in range(x0, x1) for y in range(y0, y1) if img.getpixel((x, y)) == colour]


def test_an_arabic_chart_reads_from_the_right() -> None:
    """Native play-test (stop 36): the Arabic chart's title and legend stood at the left,
    each legend dot left of its label, so "● خطأ فادح ● خطأ" read as if each dot belonged to
    the next label. In Arabic they stand at the right, each dot right of its label."""
    from bot.render.chart import HEIGHT as CHART_HEIGHT
    from bot.render.chart import WIDTH as CHART_WIDTH
    from bot.render.coach_pictures import chart_words

    words = dict(title="مراجعة: أميرة ضد عمر", top="أفضل للأسود", bottom="أفضل للأبيض", x_axis="الدور")
    legend = {"blunder": "خطأ فادح", "mistake": "خطأ"}
    arabic = evaluation_chart(CURVE, {8: "blunder"}, chart_words(**words, legend=legend, lang="ar"))
    english = evaluation_chart(CURVE, {8: "blunder"}, chart_words(**words, legend=legend))
    title = (0, 0, CHART_WIDTH, 60)
    assert _ink_span(arabic, title)[1] > CHART_WIDTH - 40 and _ink_span(arabic, title)[0] > CHART_WIDTH // 3
    assert _ink_span(english, title)[0] < 40
    under = (0, CHART_HEIGHT - 40, CHART_WIDTH, CHART_HEIGHT)  # the axis name and the legend
    assert min(_xs_of(arabic, BLUNDER, under)) > CHART_WIDTH * 2 // 3, "the first legend dot stands at the right"
    assert max(_xs_of(english, BLUNDER, under)) < CHART_WIDTH // 3
    assert _ink_span(arabic, under)[1] > CHART_WIDTH - 40


def test_a_lessons_board_names_the_colours_in_the_readers_language() -> None:
    """Native play-test (stop 36): a lesson's and a puzzle's board named the sides
    "Black" and "White" in English on an Arabic table ("يحرّك White")."""
    from bot.render.coach_pictures import board_png

    pos = Position(RULES)
    assert board_png(pos, lang="ar") == board_png(pos, players=("الأسود", "الأبيض"), lang="ar")
    assert board_png(pos) == board_png(pos, players=("Black", "White"))


def test_an_arabic_hints_legend_reads_from_the_right() -> None:
    """Native play-test (stop 36): the hint's legend swatch stood left of its word,
    at the left ("■ المقترح"); in Arabic the swatch stands right of its word, at the right."""
    pos = Position.from_spn(SPN, RULES)
    best = [Action.parse("c2-c3")]
    drawn = {lang: suggestion_image(pos, best, legend=("played", "better"), lang=lang) for lang in ("en", "ar")}
    height = Image.open(io.BytesIO(drawn["ar"])).height
    strip = (0, height - 44, 720, height)
    assert min(_xs_of(drawn["ar"], HINT, strip)) > 600
    assert max(_xs_of(drawn["en"], HINT, strip)) < 120
