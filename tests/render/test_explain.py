"""The picture explains itself: end sentences, the shuttle limit, whole turns, the clock."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from bot.render import render_board
from bot.render.fonts import font, width
from bot.render.layout import layout
from bot.render.overlay import mark_order
from bot.render.panels import _two_lines
from bot.render.theme import get_theme
from bot.render.words import blocked_text, clock_text, hint_text, reason_text, result_text
from engine import Outcome, Position, Ruleset
from engine.outcome import REASONS
from engine.summary import shuttle_holds
from tests.render.scenarios import BY_NAME

PLAYERS = ("Amira", "Omar")


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0, "0:00"), (-5, "0:00"), (59.9, "0:59"), (187, "3:07"), (3600, "1h 00m"), (18540, "5h 09m"), (90000, "1d 1h")],
)
def test_clock_text(seconds: float, text: str) -> None:
    assert clock_text(seconds) == text


@pytest.mark.parametrize("reason", REASONS)
@pytest.mark.parametrize("winner", [0, 1, None])
def test_every_end_reason_is_a_sentence_without_jargon(reason: str, winner: int | None) -> None:
    pos, _ = BY_NAME["move-limit-5x5"].build()
    text = reason_text(Outcome(winner, reason), pos, PLAYERS)
    assert len(text.split()) >= 2  # a phrase, not the code word
    assert "-" not in reason or reason not in text  # never "move-limit", "capture-all"...
    if winner is not None and reason in ("capture-all", "reduced", "blocked", "resignation", "timeout"):
        assert PLAYERS[1 - winner] in text  # says who lost it


def test_move_limit_sentence_gives_the_rule_and_the_count() -> None:
    s = BY_NAME["move-limit-5x5"]
    pos, _ = s.build()
    outcome = pos.outcome()
    assert outcome == Outcome(0, "move-limit")
    assert reason_text(outcome, pos, s.players) == "100 turns without a capture: 11 pieces to 4"
    draw = reason_text(Outcome(None, "move-limit"), pos, s.players)
    assert draw == "100 turns without a capture: 11 pieces each"
    assert result_text(outcome, pos, s.players).startswith("Seega bot (easy) wins · 100 turns")


def test_shuttle_limit_is_found_and_explained() -> None:
    pos, _ = BY_NAME["shuttle-held-5x5"].build()
    names = pos.geo.names
    assert [(names[a], names[t]) for a, t in shuttle_holds(pos)] == [("d2", "c2")]
    assert [str(a) for a in pos.legal_actions()] == ["pass"]
    assert blocked_text(pos) == "d2 may not go back to c2 a third time: the shuttle limit"


def test_no_shuttle_marks_without_the_limit_or_the_run() -> None:
    s = BY_NAME["shuttle-held-5x5"]
    free = Position.from_spn(s.spn or "", Ruleset.make("standard", 5, ["max_shuttles=0"]))
    for action in (*s.before, *s.actions):
        free.play(action)
    assert shuttle_holds(free) == ()
    assert blocked_text(free) == ""
    fresh = Position.from_spn(s.spn or "")  # an SPN carries no history: nothing held
    assert shuttle_holds(fresh) == ()


def test_a_whole_reply_is_numbered_in_the_order_played() -> None:
    _, turn = BY_NAME["placement-and-chain-5x5"].build()
    assert turn is not None
    assert mark_order(turn) == ([1, 2], [3, 4, 5])
    _, single = BY_NAME["first-move-5x5"].build()
    assert single is not None and mark_order(single) == ([], [0])
    _, pair = BY_NAME["placement-5x5"].build()
    assert pair is not None and mark_order(pair) == ([1, 2], [])


def test_a_long_end_sentence_wraps_within_the_footer() -> None:
    room = 480.0
    text = "Dr. Omar Abd el-Rahman, champion of the Cairo sand-board club ran out of time"
    lines, face = _two_lines(text, 19, room)
    assert len(lines) == 2
    assert " ".join(lines) == text  # nothing cut: the whole sentence is there
    assert all(width(line, face) <= room for line in lines)
    short, _ = _two_lines("Amira resigned", 19, room)
    assert short == ["Amira resigned"]
    assert width(text, font(19)) > room


def _pixels(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_the_clock_changes_only_the_footer() -> None:
    s = BY_NAME["clock-5x5"]
    pos, turn = s.build()
    plain = _pixels(render_board(pos, turn, players=s.players))
    timed = _pixels(render_board(pos, turn, players=s.players, time_left=187))
    box = ImageChops.difference(plain, timed).getbbox()
    assert box is not None
    assert box[1] >= layout(5).footer[1]  # below the board: nothing else moved
    later = _pixels(render_board(pos, turn, players=s.players, time_left=60))
    assert ImageChops.difference(timed, later).getbbox() is not None


def test_a_finished_game_shows_no_clock() -> None:
    s = BY_NAME["game-over-5x5"]
    pos, turn = s.build()
    a = render_board(pos, turn, players=s.players)
    b = render_board(pos, turn, players=s.players, time_left=100)
    assert a == b


def test_the_lane_opening_picture_names_the_opening_cells() -> None:
    """Play-test finding: the first lane picture said "two pieces per turn on any empty
    cell but the centre", and the opening then refused a1."""
    pos = Position(Ruleset.make("lane", 7))
    assert hint_text(pos) == "Lane opening: place on a4 and g4"
    pos.play("a4")
    assert hint_text(pos) == "Lane opening: place on g4"
    for cell in ("g4", "d1", "d7"):
        pos.play(cell)
    assert hint_text(pos) == "Placement: two pieces per turn on any empty cell but the centre"
    assert hint_text(Position(Ruleset.make("standard", 5))).startswith("Placement: two pieces per turn")


def test_the_pieces_that_may_be_removed_are_ringed() -> None:
    """Console play-test (fouze): "you cannot step, so you remove an enemy piece next to
    one of yours: /remove one of a2, b2, c1", but the picture showed no choice. Each
    piece the side to act may remove now gets a dashed ring in the capture colour; no
    other piece does, and no ring is drawn when no removal is due."""
    from bot.render.board import removable_cells
    from bot.render.theme import get_theme

    pos, turn = BY_NAME["removal-due-5x5"].build()
    names = pos.geo.names
    assert sorted(names[c] for c in removable_cells(pos)) == ["a2", "b1", "d5", "e4"]
    img = Image.open(io.BytesIO(render_board(pos, turn, players=BY_NAME["removal-due-5x5"].players))).convert("RGB")
    lay = layout(5, *img.size)
    red = get_theme("sand").capture

    def reds_around(name: str) -> int:
        """Capture-coloured pixels in the band just outside the stone on ``name``."""
        x, y = lay.centre_of(names.index(name))
        r0, r1 = lay.stone_radius + 1, lay.stone_radius + lay.cell * 0.12
        count = 0
        for dy in range(-int(r1), int(r1) + 1):
            for dx in range(-int(r1), int(r1) + 1):
                if r0 <= (dx * dx + dy * dy) ** 0.5 <= r1:
                    p = img.getpixel((int(x + dx), int(y + dy)))
                    count += sum(abs(p[i] - red[i]) for i in range(3)) < 60
        return count

    assert all(reds_around(c) > 100 for c in ("a2", "b1", "d5", "e4"))
    assert reds_around("a1") == reds_around("e5") == 0  # the mover's own pieces: not to remove
    moving, _ = BY_NAME["capture-5x5"].build()
    assert removable_cells(moving) == []


def test_a_board_without_a_last_turn_explains_its_shuttle_mark() -> None:
    """Fresh-eyes play-test (stop 35): a review's board showed a red no-entry mark that
    neither its legend nor its footer explained (the footer gave the rule of a step).
    Without a last turn to show, the footer says what the mark means."""
    pos = Position.from_spn("bb3/3bb/2bww/3ww/2bww w m 0/0 - 0 30")
    for a in ("d2-c2", "a5-a4", "c2-d2", "b5-b4", "d2-c2", "a4-a3", "c2-d2", "b4-b3"):
        pos.play(a)
    assert shuttle_holds(pos), "d2 is held"
    assert hint_text(pos) == "d2 may not go back to c2 a third time: the shuttle limit"
    assert hint_text(Position.from_spn("bb3/3bb/2bww/3ww/2bww w m 0/0 - 0 30")) == (
        "Step one cell up, down or sideways; trap an enemy between two of yours to capture"
    )


def test_the_footer_says_what_the_no_entry_mark_means_beside_a_last_turn() -> None:
    """Play-test: a game's board drew the red no-entry mark of the shuttle limit with the
    last turn in the footer and nothing saying what the mark means; a newcomer tied it to
    something else. The footer now keeps the last turn and adds the mark and its words."""
    from bot.render.words import shuttle_caption

    pos, turn = BY_NAME["shuttle-held-can-move-5x5"].build()
    assert [str(a) for a in pos.legal_actions()] == ["e3-e4"]  # held, not blocked
    assert shuttle_caption(pos) == "d2-c2 may not be played again now (shuttle limit: no more back and forth)"
    assert shuttle_caption(pos, "ar") == "لا يجوز لعب d2-c2 مجددًا الآن (حد الذهاب والإياب)"
    assert shuttle_caption(BY_NAME["capture-5x5"].build()[0]) == ""
    img = Image.open(io.BytesIO(render_board(pos, turn, players=("Amira", "Omar")))).convert("RGB")
    lay = layout(5, *img.size)
    red = get_theme("sand").capture
    x0, y0, _x1, y1 = lay.footer
    reds = sum(
        1
        for y in range(y0, y1)
        for x in range(x0, x0 + 60)
        if sum(abs(c - r) for c, r in zip(img.getpixel((x, y))[:3], red, strict=True)) < 60
    )
    assert reds > 40, "the no-entry sign is drawn in the footer"
    # A board that says it already (a blocked player's pass, a board without a last turn)
    # has no second sign.
    blocked, turn = BY_NAME["shuttle-held-5x5"].build()
    img = Image.open(io.BytesIO(render_board(blocked, turn, players=("Amira", "Omar")))).convert("RGB")
    assert not any(
        sum(abs(c - r) for c, r in zip(img.getpixel((x, y))[:3], red, strict=True)) < 60
        for y in range(y0, y1)
        for x in range(x0, x0 + 60)
    )


def test_the_clock_says_less_before_the_status_is_cut() -> None:
    """Fresh-eyes play-test (stop 36): beside "1h 29m for this turn" the status read
    "Player 2 may capture a…". The clock drops "for this turn" when its long words would
    cut what the side to act must do, and keeps them when there is room."""
    from bot.render.fonts import is_cut
    from bot.render.layout import HEIGHT, WIDTH, layout
    from bot.render.panels import status_beside_clock
    from engine import Action, Position

    pos = Position.from_spn("wbbbw/wwbwb/bb1ww/wbbbb/wbwww w m 0/0 - 0 25")
    pos.push(Action.parse("d3-c3"))  # White's c3 may capture again
    x0, _, x1, _ = layout(5, WIDTH, HEIGHT).footer
    room = (x1 - x0) - 150  # the footer less the turn number and the stone, as drawn
    players = ("Player 1", "Player 2")
    line, _, said = status_beside_clock(pos, players, None, 5399, room, 1.0)
    assert said == "1h 29m" and not is_cut(line) and line == "Player 2 may capture again from c3"
    before = Position.from_spn("wbbbw/wwbwb/bb1ww/wbbbb/wbwww w m 0/0 - 0 25")
    line, _, said = status_beside_clock(before, players, None, 5399, room, 1.0)
    assert said == "1h 29m for this turn" and line == "Player 2 to move"  # room for both
    line, _, said = status_beside_clock(pos, players, None, None, room, 1.0)
    assert said == "" and not is_cut(line)


def test_a_capture_the_chain_stepped_into_shows_the_taken_piece() -> None:
    """Fresh-eyes play-test (stop 36): a chain took b2 and then stepped into it; a bare red
    X in the corner of the stone that arrived read as if that stone had been taken. The
    corner shows the taken piece itself (Black's, dark), crossed out."""
    from engine.summary import summarize_turn

    pos = Position.from_spn("wbbbw/wwbwb/bb1ww/wbbbb/wbwww w m 0/0 - 0 25")
    before = pos.copy()
    played = [pos.play(a) for a in ("d3-c3", "c3-c2", "c2-b2")]  # takes c2, b2 (then steps in), b3
    turn = summarize_turn(before, played)
    img = Image.open(io.BytesIO(render_board(pos, turn, players=("A", "B")))).convert("RGB")
    lay = layout(5, img.width, img.height)
    b2 = pos.geo.names.index("b2")
    x0, y0, x1, _ = lay.cell_box(b2)
    size = (x1 - x0) // 3 + 4
    corner = [img.getpixel((x0 + x, y0 + y)) for x in range(size) for y in range(size)]
    # a black stone's body: dark grey (the red X, the white stone and the sand are not)
    grey = sum(1 for p in corner if max(p) < 90 and max(p) - min(p) < 20)  # type: ignore[arg-type, type-var]
    assert pos.piece_at(b2) == 1 and grey > 100, grey  # White's piece stands there, Black's shows taken


def test_an_end_by_count_agreed_on_says_so_with_the_count() -> None:
    """Fresh-eyes play-test (stop 36): the last frame of a game ended by count, 9 pieces to
    8, read "Agreed by both players", as if it had been a draw offer."""
    pos = Position.from_spn("wbbbw/wwbwb/bb1ww/wbbbb/wbwww w m 0/0 - 0 25")
    counts = (pos.count(0), pos.count(1))
    won = Outcome.from_result("0-1", "agreement")
    said = reason_text(won, pos, ("Ann", "Bob"))
    assert said == f"ended by count, as both agreed: {counts[1]} pieces to {counts[0]}"
    assert reason_text(Outcome(None, "agreement"), pos, ("Ann", "Bob")) == "drawn by agreement"


def test_the_clock_says_less_before_a_name_in_the_status_is_cut() -> None:
    """Stop 36, at 360 px: the Arabic status read "بوت سيجة... يواصل الأسر من c2" beside
    "بقي 50:00 لهذا الدور": the name was cut (not what to do), and the clock kept its long words."""
    from bot.render.layout import HEIGHT, WIDTH, layout
    from bot.render.panels import status_beside_clock
    from engine import Action, Position

    pos = Position.from_spn("wbbbw/wwbwb/bb1ww/wbbbb/wbwww w m 0/0 - 0 25")
    pos.push(Action.parse("d3-c3"))
    x0, _, x1, _ = layout(5, WIDTH, HEIGHT).footer
    line, _, said = status_beside_clock(pos, ("أنت", "بوت سيجة السهل"), None, 3000, (x1 - x0) - 150, 1.0, "ar")
    assert "…" not in line and said == "50:00", (line, said)
