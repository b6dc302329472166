"""Play-test pt40 (a 9x9 game against the bot): a piece captured and its cell left again
drawn as if still standing, a tiny capture mark under a stone, the opponent's shuttle
hold on the mover's picture with its note cut off, and a review's played line hidden
under the better one."""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

from bot.render import overlay, panels, render_board
from bot.render.fonts import ELLIPSIS
from bot.render.hint import HINT, suggestion_image
from bot.render.layout import layout
from bot.render.overlay import arrows, tail_sprite
from bot.render.theme import RGB, get_theme
from engine import Position, Ruleset
from engine.actions import Action
from engine.summary import TurnSummary, shuttle_holds, summarize_turn

Pixel = tuple[int, int, int]
SAND = get_theme("sand")

#: Game 2 of pt40 before White's turn 43: c4-c3 takes c2, c3-c2 takes b2, c2-b2 takes b3.
BEFORE_43 = "wbwwbwbww/bbbbwwbbb/wbbbwwbbw/wbwb1wwbb/bbb3www/www1wwbww/bb1b1bwbw/wbbbbbbbb/wwwwwwwwb w m 0/0 - 0 43"
#: Before White's turn 41: f5-e5 takes e4 (and e6), e5-e4 takes d4: White ends on e4.
BEFORE_41 = "wbwwbwbww/bbbbwwbbb/wbbbwwbbw/wbwbbwwbb/bbbw1wwww/wwwbbwbww/bbwbwbwbw/wbbbbbbbb/wwwwwwwwb w m 0/0 - 0 41"
#: Before Black's turn 42 (the review's key moment and the hint).
BEFORE_42 = "wbwwbwbww/bbbbwwbbb/wbbbwwbbw/wbwb1wwbb/bbbw2www/www1wwbww/bbwbwbwbw/wbbbbbbbb/wwwwwwwwb b m 0/0 - 0 42"


def _picture(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def _play(spn: str, *moves: str) -> tuple[Position, TurnSummary]:
    pos = Position.from_spn(spn, Ruleset.make("standard", 9))
    before = pos.copy()
    played = [pos.play(m) for m in moves]
    return pos, summarize_turn(before, played)


def _count(img: Image.Image, box: tuple[float, float, float, float], test: Callable[[Pixel], bool]) -> int:
    x0, y0, x1, y1 = (round(v) for v in box)
    return sum(1 for y in range(y0, y1) for x in range(x0, x1) if test(img.getpixel((x, y))))


def _near(colour: RGB, tolerance: int = 40) -> Callable[[Pixel], bool]:
    return lambda p: max(abs(a - b) for a, b in zip(p, colour, strict=True)) <= tolerance


def _luminance(p: Pixel) -> float:
    return 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]


def test_a_cell_captured_then_left_by_the_chain_shows_no_stone() -> None:
    """156_seega-2-44.png: White c4-c3 (taking c2), c3-c2, c2-b2. c2 ends empty, and
    the picture drew a whole black ghost there, its X under the badge of step 3. The
    cell reads empty (the board's colour around the step's badge) and the taken piece
    is a clear crossed-out mark of its own."""
    pos, turn = _play(BEFORE_43, "c4-c3", "c3-c2", "c2-b2")
    names = pos.geo.names
    c2 = names.index("c2")
    assert pos.piece_at(c2) is None
    assert (c2, 0) in turn.captured
    img = _picture(render_board(pos, turn))
    lay = layout(9)
    cx, cy = lay.centre_of(c2)
    r = lay.stone_radius
    # eight spots round the centre, on a stone's body: a stone darkens them all; the
    # arrows (in from above, out to the left) and the taken piece's mark cover three
    ring = [(cx + 0.72 * r * math.cos(a * math.pi / 4), cy + 0.72 * r * math.sin(a * math.pi / 4)) for a in range(8)]
    lum = [round(_luminance(img.getpixel((round(x), round(y))))) for x, y in ring]
    assert sum(v > 150 for v in lum) >= 5, f"c2 is empty but draws a stone there (luminance {lum})"
    red = _count(img, lay.cell_box(c2), _near(SAND.capture))
    assert red >= 140, f"the piece taken on c2 has no clear X ({red} red pixels)"


def test_a_capture_under_the_capturing_stone_is_not_a_tiny_corner_mark() -> None:
    """151_seega-2-42.png: White's chain ended on e4, whose black piece it had taken;
    the capture showed as a tiny crossed-out dot in e4's corner, easy to miss on 9x9."""
    pos, turn = _play(BEFORE_41, "f5-e5", "e5-e4")
    e4 = pos.geo.names.index("e4")
    assert pos.piece_at(e4) == 1 and (e4, 0) in turn.captured
    img = _picture(render_board(pos, turn))
    lay = layout(9)
    red = _count(img, lay.cell_box(e4), _near(SAND.capture))
    assert red >= 140, f"the piece taken on e4 shows only {red} red pixels"


def _shuttle(spn: str, moves: list[str]) -> Position:
    pos = Position.from_spn(spn, Ruleset.make("standard", 9))
    for m in moves:
        pos.play(m)
    return pos


def _own(pos: Position) -> list[tuple[int, int]]:
    return [h for h in shuttle_holds(pos) if pos.piece_at(h[0]) == pos.side]


def _with_last(spn: str, moves: list[str]) -> tuple[Position, TurnSummary]:
    """The position after ``moves`` and its last move's summary (the footer's "Last:")."""
    pos = _shuttle(spn, moves[:-1])
    before = pos.copy()
    return pos, summarize_turn(before, [pos.play(moves[-1])])


#: White's a9 went a9-a8-a9-a8-a9 while Black's pieces walked (never back): Black to move.
WHITE_HELD = (
    "w8/9/9/9/9/9/9/9/8b b m 0/0 - 0 100",
    ["i1-i2", "a9-a8", "i2-i3", "a8-a9", "i3-i4", "a9-a8", "i4-i5", "a8-a9"],
)


def test_the_picture_shows_only_the_shuttle_holds_of_the_side_to_move() -> None:
    """273_seega-2-162.png: Black to move with one piece on i1, and the picture marked
    White's a9-a8 with a no-entry sign and a note: nothing Black can act on."""
    pos = _shuttle(*WHITE_HELD)
    a9, a8 = pos.geo.names.index("a9"), pos.geo.names.index("a8")
    assert pos.side == 0 and shuttle_holds(pos) == ((a9, a8),), "the engine holds White's a9"
    img = _picture(render_board(pos, None))
    lay = layout(9)
    x0, y0, x1, y1 = lay.cell_box(a8)
    red = _count(img, (x0, y0 - lay.cell // 2, x1, y1), _near(SAND.capture))
    assert red < 10, f"a no-entry sign for White's piece on Black's turn ({red} red pixels)"


def _drawn_texts(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    drawn: list[tuple[str, Any]] = []
    original = panels.draw_text

    def spy(draw: Any, xy: Any, line: str, face: Any, *rest: Any, **kw: Any) -> None:
        drawn.append((line, face))
        original(draw, xy, line, face, *rest, **kw)

    monkeypatch.setattr(panels, "draw_text", spy)
    return drawn


def _many_held() -> tuple[Position, TurnSummary]:
    """Black to move on 9x9 with every piece of row 1 held by the shuttle limit (each
    went X1-X2-X1-X2-X1) and one free piece on e4; White walked round a square."""
    files = "abcdefghi"
    ring = ["e9-f9", "f9-f8", "f8-e8", "e8-e9"]
    moves = []
    k = 0
    for f in files:
        for a, b in ((1, 2), (2, 1), (1, 2), (2, 1)):
            moves += [f"{f}{a}-{f}{b}", ring[k % 4]]
            k += 1
    return _with_last("4w4/9/9/9/9/4b4/9/9/bbbbbbbbb b m 0/0 - 0 100", moves)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_shuttle_note_is_never_cut_mid_word(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """273_seega-2-162.png: the note ended "(shuttle limit: no…", cut by the footer. The
    longest case, nine held pieces of the side to move on 9x9, is said whole or with its
    list shortened ("and N more"), never cut with an ellipsis."""
    pos, turn = _many_held()
    assert pos.side == 0 and len(_own(pos)) == 9 and pos.result is None
    drawn = _drawn_texts(monkeypatch)
    render_board(pos, turn, players=("Alice", "Seega bot (medium)"), lang=lang)
    notes = [line for line, _ in drawn if "a1-a2" in line]
    assert len(notes) == 1, drawn
    note = notes[0]
    assert ELLIPSIS not in note, f"cut: {note!r}"
    # shortened, it says how many more in words (a bare "+4" said nothing: stop 40)
    more = {"en": " more", "ar": "غيرها"}[lang]
    assert more in note or all(f"{f}1-{f}2" in note for f in "abcdefghi"), note
    assert "+" not in note, note


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_one_shuttle_note_is_whole_beside_a_last_turn(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The case of the play-test, Black's own piece held: the note is whole."""
    pos, turn = _with_last(
        "w8/9/9/9/9/9/9/9/8b b m 0/0 - 0 100",
        ["i1-i2", "a9-a8", "i2-i1", "a8-b8", "i1-i2", "b8-c8", "i2-i1", "c8-d8"],
    )
    assert pos.side == 0 and len(_own(pos)) == 1
    drawn = _drawn_texts(monkeypatch)
    render_board(pos, turn, players=("Alice", "Seega bot (medium)"), lang=lang)
    notes = [line for line, _ in drawn if "i1-i2" in line]
    assert len(notes) == 1 and ELLIPSIS not in notes[0], notes


def _actions(pos: Position, moves: list[str]) -> list[Action]:
    q = pos.copy()
    return [q.play(m) for m in moves]


def test_a_review_shows_the_played_line_where_the_better_one_starts_the_same() -> None:
    """332_moment-42.png: played d3-d4, d4-d3, end; better d3-d4, d4-d3, d3-c3. The
    green line was drawn over the blue one and no blue showed: "blue: played" pointed at
    nothing."""
    pos = Position.from_spn(BEFORE_42, Ruleset.make("standard", 9))
    played = _actions(pos, ["d3-d4", "d4-d3", "end"])
    better = _actions(pos, ["d3-d4", "d4-d3", "d3-c3"])
    img = _picture(suggestion_image(pos, better, played, legend=("played", "better")))
    lay = layout(9)
    names = pos.geo.names
    x0, _, x1, y1 = lay.cell_box(names.index("d3"))
    _, y0, _, _ = lay.cell_box(names.index("d4"))
    blue = _count(img, (x0, y0, x1, y1), _near(SAND.move, 30))
    green = _count(img, (x0, y0, x1, y1), _near(HINT, 30))
    assert blue > 300, f"the played line is hidden ({blue} blue pixels, {green} green)"
    assert green > 300


class _Pastes:
    """An image stand-in that records what :func:`arrows` pastes where."""

    def __init__(self) -> None:
        self.pastes: list[tuple[Image.Image, tuple[int, int]]] = []

    def paste(self, sprite: Image.Image, at: tuple[int, int], mask: Image.Image | None = None) -> None:
        self.pastes.append((sprite, at))


def test_the_numbers_of_a_back_and_forth_chain_do_not_stack() -> None:
    """152_hint.png: d3-d4, d4-d3, d3-c3 put the badges 1 and 3 on top of each other on d3."""
    pos = Position.from_spn(BEFORE_42, Ruleset.make("standard", 9))
    turn = summarize_turn(pos, _actions(pos, ["d3-d4", "d4-d3", "d3-c3"]))
    lay = layout(9)
    rec = _Pastes()
    arrows(rec, lay, SAND, turn)  # type: ignore[arg-type]
    numbered = {id(tail_sprite(SAND, lay.cell, k)): k for k in (1, 2, 3)}
    centres = {
        numbered[id(sprite)]: (x + sprite.width / 2, y + sprite.height / 2)
        for sprite, (x, y) in rec.pastes
        if id(sprite) in numbered
    }
    assert sorted(centres) == [1, 2, 3]
    size = tail_sprite(SAND, lay.cell, 1).width
    for a in centres:
        for b in centres:
            if a < b:
                gap = math.dist(centres[a], centres[b])
                assert gap >= size * 0.95, f"badges {a} and {b} overlap: {gap:.0f} px apart, {size} px wide"


@pytest.mark.parametrize(("lang", "word"), [("en", " wins"), ("ar", "فاز ")])
def test_a_long_winners_name_is_cut_and_the_sentence_keeps_its_words(lang: str, word: str) -> None:
    """Play-test pt40b: the end picture with a 32-character winner read
    "Alexandria_the_Great_of_Seega_99…", its "wins" cut off. The name is cut, the words
    of the sentence stay."""
    from bot.render.panels import status_beside_clock
    from engine.outcome import Outcome

    name = "Alexandria_the_Great_of_Seega_99"
    assert len(name) == 32
    pos = Position.from_spn("wbbbw/wwbwb/bb1ww/wbbbb/wbwww w m 0/0 - 0 25")
    line, _, _ = status_beside_clock(pos, (name, "Bob"), Outcome(0, "resignation"), None, 340, 1.0, lang)
    assert word in line and ELLIPSIS in line and line.replace("\u2068", "").replace("\u2069", "").count("Alex") == 1


def test_a_piece_both_lines_take_is_marked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Console play-test c41, the review of turn 16: played c5-d5 (took d4), end; better
    c5-d5, d5-d4 (took d4, then c4). d4 got two identical crossed-out badges, one per
    line, in two corners, which read as two pieces taken on one cell."""
    pos = Position.from_spn("bbb1w/wbwwb/wwwbw/bbwbw/bwbbw b m 0/0 - 3 16", Ruleset.make("standard", 5))
    played = _actions(pos, ["c5-d5", "end"])
    better = _actions(pos, ["c5-d5", "d5-d4"])
    badges: list[tuple[int, int]] = []
    real = overlay.taken_badge

    def counted(theme: Any, color: int, size: int) -> Image.Image:
        badges.append((color, size))
        return real(theme, color, size)

    monkeypatch.setattr(overlay, "taken_badge", counted)
    suggestion_image(pos, better, played, legend=("played", "better"))
    assert len(badges) == 2, f"{len(badges)} taken marks for the two pieces taken (d4, c4)"
