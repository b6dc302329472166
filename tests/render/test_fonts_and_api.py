"""The bundled font, Arabic shaping, and the renderer's public surface."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw, ImageFont

from bot.render import THEMES, render_board, text_board, warm_up
from bot.render import fonts as render_fonts
from bot.render.fonts import BOLD, FONT_DIR, REGULAR, fit, font
from bot.render.palette import palette_image
from engine import Position, Ruleset


def test_font_files_and_licence_are_bundled_in_the_repository() -> None:
    assert FONT_DIR.name == "fonts"
    assert (FONT_DIR / "OFL.txt").read_text(encoding="utf-8").count("SIL OPEN FONT LICENSE") >= 1
    for path in (REGULAR, BOLD):
        assert path.parent == FONT_DIR
        assert path.stat().st_size > 100_000
    assert font(20).path == str(REGULAR)
    assert font(20, bold=True).path == str(BOLD)


def test_arabic_is_shaped_with_raqm() -> None:
    """Joined Arabic letters sit on one baseline; unshaped isolated forms stand taller."""
    assert render_fonts.HAS_RAQM
    word = "محمد"
    basic = ImageFont.truetype(str(REGULAR), 30, layout_engine=ImageFont.Layout.BASIC)
    shaped = font(30)
    assert shaped.getmask(word).size != basic.getmask(word).size


def test_long_names_are_cut_with_an_ellipsis() -> None:
    text, face = fit("A" * 200, 30, 200, min_size=22)
    assert text.endswith("…")
    assert face.size == 22
    assert face.getlength(text) <= 200
    short, face = fit("Amira", 30, 200)
    assert (short, face.size) == ("Amira", 30)


def test_every_theme_renders_and_unknown_themes_are_refused() -> None:
    pos = Position(Ruleset.make("standard", 5))
    for name in THEMES:
        img = Image.open(io.BytesIO(render_board(pos, theme=name)))
        assert img.size == (720, 900)
    with pytest.raises(ValueError, match="unknown theme 'neon'"):
        render_board(pos, theme="neon")


def test_blank_names_fall_back_to_the_colours() -> None:
    pos = Position(Ruleset.make("standard", 5))
    assert render_board(pos, players=("", "  ")) == render_board(pos, players=("Black", "White"))


def test_text_board_needs_only_a_position() -> None:
    pos = Position(Ruleset.make("standard", 5))
    assert text_board(pos).splitlines()[:2] == ["Seega · Turn 1 · Black to place 2", "5 . . . . ."]


def test_warm_up_builds_the_caches_for_every_size() -> None:
    warm_up(sizes=(3, 5), themes=("sand",))
    before = palette_image.cache_info().hits
    render_board(Position(Ruleset.make("modern-3x3", 3)))
    assert palette_image.cache_info().hits == before + 1


def test_steps_between_the_same_cells_are_drawn_side_by_side() -> None:
    """Play-test finding h: c1-c2 then c2-c1 drew one arrow over the other."""
    from bot.render.overlay import LANE, step_offsets

    n, cell = 5, 100.0
    c1, c2, d2 = 2, 7, 8
    there, back = step_offsets([(c1, c2), (c2, c1)], n, cell)
    assert there == (-back[0], -back[1]) and abs(there[0]) == LANE * cell / 2 and there[1] == 0
    assert step_offsets([(c1, c2), (c2, d2)], n, cell) == [(0.0, 0.0), (0.0, 0.0)], "other chains stay put"


def test_the_console_pictures_say_you_as_its_text_does() -> None:
    """Play-test finding i: the picture said "Player 1" where the console's text said "you"."""
    from bot import render
    from bot.console.output import ConsolePictures, you_in_pictures
    from bot.render.words import status_text, winner_text
    from engine import Outcome, Position, Ruleset

    pos = Position(Ruleset.make("standard", 5))
    bot = "Seega bot (easy)"
    assert you_in_pictures(("Player 1", bot)) == ("You", bot)
    assert you_in_pictures((bot, "Player 1")) == (bot, "You")
    assert you_in_pictures(("Player 1", "Player 2")) == ("Player 1", "Player 2"), "hot seat: both names"
    shown = ConsolePictures(render).render_board(pos, players=("Player 1", bot))
    assert shown == render.render_board(pos, players=("You", bot))
    assert shown != render.render_board(pos, players=("Player 1", bot))
    assert winner_text(Outcome.from_result("1-0", "resignation"), ("You", bot)) == "You win"
    assert status_text(pos, ("You", bot)) == "You to place 2"
    blocked = Position.from_spn("bw3/ww3/5/5/5 b m 0/0 - 0 30", Ruleset.make("standard", 5))
    assert [a.kind for a in blocked.legal_actions()] == ["pass"]
    assert status_text(blocked, ("You", bot)) == "You are blocked and pass"


def test_a_pass_inside_a_reply_is_said_where_it_happened() -> None:
    """Newcomer play-test: "Last: Black b5-b4, c5-b5 · White is blocked and passes" read as
    if White passed now, while White was to move; the pass came between the two steps."""
    from bot.render.words import last_turn_text
    from engine import Position
    from engine.summary import summarize_turn

    before = Position.from_spn("bbbbb/w1b1b/wb1bw/wwbwb/wwbww w p 0/2 - 0 12")
    pos = before.copy()
    # White places its last pair, is walled in and passes; Black moves first
    played = [pos.play(a) for a in ("b4", "d4", "pass", "c4-c3")]
    said = last_turn_text(pos, summarize_turn(before, played))
    assert said == "Last turns: White b4, d4 · White blocked, passed · Black c4-c3"
    ends = last_turn_text(pos, summarize_turn(before, played[:3]))
    assert ends == "Last: White b4, d4 · White is blocked and passes"


def test_a_capture_inside_a_reply_is_said_with_the_step_that_made_it() -> None:
    """Newcomer play-test (stop 24): "Last: White a3-a2 · Black blocked, passed · White
    a2-a3 · took b2" read as if the step back to a3 took b2; a3-a2 did, before the pass."""
    from bot.render.words import last_turn_text
    from engine import Position
    from engine.summary import summarize_turn

    before = Position.from_spn("wwwww/5/w2w1/1bw2/bwwww w m 0/0 - 0 19")
    pos = before.copy()
    played = [pos.play(a) for a in ("a3-a2", "pass", "a2-a3")]
    said = last_turn_text(pos, summarize_turn(before, played))
    assert said == "Last turns: White a3-a2 took b2 · Black blocked, passed · White a2-a3"
    # one side's turn alone keeps the short form: the chain, then all it took
    alone = Position.from_spn("5/5/5/1bw1b/w4 w m 0/0 - 0 30")
    after = alone.copy()
    steps = [after.play("a1-a2")]
    assert last_turn_text(after, summarize_turn(alone, steps)) == "Last: White a1-a2 · took b2"


def test_a_pass_at_once_after_placement_is_the_pictures_news() -> None:
    """Newcomer play-test: White placed last, was walled in and passed; the picture said
    only "All pieces placed: the movement phase begins" and "Player 2 to move"."""
    from bot.render.words import phase_news_text
    from engine import Position
    from engine.summary import summarize_turn

    before = Position.from_spn("bbbbb/w1b1b/wb1bw/wwbwb/wwbww w p 0/2 - 0 12")
    pos = before.copy()
    played = [pos.play(a) for a in ("b4", "d4", "pass")]
    assert phase_news_text(pos, summarize_turn(before, played)) == "All pieces placed: White is walled in and passes"
    pos = before.copy()
    played = [pos.play(a) for a in ("b4", "d4")]  # the pass not played yet
    assert phase_news_text(pos, summarize_turn(before, played)) == "All pieces placed: the movement phase begins"


def test_a_chains_status_drops_or_end_before_it_is_cut() -> None:
    """Newcomer play-test: beside the clock the footer read "You may capture again from
    a2 or..."; where the capture may go on must be said whole."""
    from bot.render.panels import status_fit

    room = width_of("You may capture again from a2", 22) + 4  # the chain's cell fits, "or end" does not
    text, _ = status_fit("You", "may capture again from a2 or end", 30, room, 22)
    assert text == "You may capture again from a2"
    # room enough: the whole status
    assert (
        status_fit("You", "may capture again from a2 or end", 30, 2000, 22)[0] == "You may capture again from a2 or end"
    )
    # a long name is cut, not what the side must do (the header shows the name whole)
    long_name = "Omar al-Khatib the Great"
    room = width_of("Omar al… may capture again from a2", 22) + 2
    text, face = status_fit(long_name, "may capture again from a2 or end", 30, room, 22)
    assert text.endswith(render_fonts.ELLIPSIS + " may capture again from a2"), text
    assert text.startswith("O") and face.getlength(text) <= room
    text, face = status_fit("x" * 80, "to move", 30, room, 22)
    assert text.endswith(render_fonts.ELLIPSIS + " to move") and face.getlength(text) <= room
    # too narrow for even one letter of the name: what to do alone, cut if it must be
    tiny = width_of("To mo", 22)
    text, face = status_fit("Amira", "to move", 30, tiny, 22)
    assert text.startswith("To") and text.endswith(render_fonts.ELLIPSIS) and face.getlength(text) <= tiny


def test_a_name_cut_to_a_letter_or_two_gives_its_place_to_what_to_do() -> None:
    """Clock play-test (removal-blocked-7x7): the footer read "Pl… to remove a piece:
    Black is blocked"; two letters of "Player 2" say nothing, and the header shows who
    is to move. The name goes, and what to do starts the line."""
    from bot.render.panels import status_fit

    doing = "to remove a piece: Black is blocked"
    room = width_of("Pl… " + doing, 22) + 2
    text, face = status_fit("Player 2", doing, 30, room, 22)
    assert text == "To remove a piece: Black is blocked" and face.getlength(text) <= room
    # four letters and more are kept
    room = width_of("Play… " + doing, 22) + 2
    assert status_fit("Player 2", doing, 30, room, 22)[0] == "Play… " + doing


def width_of(text: str, size: int) -> float:
    return render_fonts.width(text, font(size, True))


def test_a_cut_arabic_name_shows_its_ellipsis_at_the_names_end_on_the_left() -> None:
    """Arabic reads right to left, so a cut Arabic name ends on its left: the ellipsis
    belongs there, even in an English line. It used to be drawn on the name's right,
    between the name and "may capture" (review, stop 21)."""
    name = "عمر الخطيب العظيم ابن عبد الله"
    for tail in ("", " may capture again"):
        text, face = fit(name, 30, 220, bold=True)
        assert render_fonts.is_cut(text)
        img = Image.new("L", (600, 80), 0)
        render_fonts.draw_text(ImageDraw.Draw(img), (10, 55), text + tail, face, (255,), "ls")
        box = img.getbbox()
        assert box is not None
        # The first two of the ellipsis' three dots (its whole width reaches the letter).
        dots = round(face.getlength(render_fonts.ELLIPSIS) * 2 / 3)
        left = img.crop((box[0], 0, box[0] + dots, 80)).getbbox()
        assert left is not None
        # Only the ellipsis' three dots, low and short, are at the left end of the ink.
        assert left[3] - left[1] <= face.size // 4, (tail, left)
    latin, _face = fit("Omar al-Khatib the Great", 30, 220, bold=True)
    assert latin.endswith(render_fonts.ELLIPSIS) and render_fonts.is_cut(latin)


@pytest.mark.parametrize(
    "name",
    ["Amira\nNour", "Amira\r\nNour", "Amira\u2028Nour", "Amira\x00Nour", "Amira\n" + "Nour " * 2000],
    ids=["newline", "crlf", "line-separator", "nul", "10000-characters"],
)
def test_a_name_with_a_line_break_is_drawn_on_one_line(name: str) -> None:
    """Names are stored text from outside; raqm refuses a line holding a line break
    ("raqm_layout() failed"), which made every picture of such a game fail."""
    pos = Position(Ruleset.make("standard", 5))
    spaced = "".join(" " if not ch.isprintable() else ch for ch in name)
    assert render_board(pos, players=(name, "Nour")) == render_board(pos, players=(spaced, "Nour"))


def test_a_very_long_name_is_cut_with_few_measurements(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cut is searched, not found one character at a time: a 10,000-character name
    of spaced words took over a minute per picture when each shorter prefix was measured."""
    calls = 0
    measure = render_fonts.width

    def counting_width(text: str, face: ImageFont.FreeTypeFont, direction: str | None = None) -> float:
        nonlocal calls
        calls += 1
        return measure(text, face, direction)

    monkeypatch.setattr(render_fonts, "width", counting_width)
    name = "Nour " * 2000
    text, face = fit(name, 30, 300, bold=True, min_size=22)
    assert calls <= 40, calls
    monkeypatch.undo()
    # The longest prefix that fits: one more character would not.
    assert render_fonts.is_cut(text) and render_fonts.width(text, face) <= 300
    kept = len(text.removesuffix(render_fonts.ELLIPSIS))
    longer = name[: kept + 1].rstrip() + render_fonts.ELLIPSIS
    assert len(longer) <= len(text) or render_fonts.width(longer, face) > 300
