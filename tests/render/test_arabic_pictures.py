"""The board pictures speak the reader's language: Arabic words from the Arabic catalogue,
shaped and laid out right to left, fitted like the English ones; English unchanged."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from bot import texts
from bot.render import render_board, text_board
from bot.render.board import board_image
from bot.render.fonts import HAS_RAQM, direction_of, draw_text, fit, font, is_cut, width
from bot.render.layout import HEIGHT, WIDTH, layout
from bot.render.panels import status_fit
from bot.render.words import (
    YOU,
    blocked_text,
    clock_text,
    hint_text,
    last_turn_text,
    reason_text,
    status_text,
    turn_text,
    winner_text,
)
from bot.texts import LRM
from engine import Outcome, Position, Ruleset
from engine.summary import summarize_turn
from tests.hostile_text import hostile_strings
from tests.render.scenarios import BY_NAME

AR = texts.messages("ar")
START = Position(Ruleset.make("standard", 5))


def _image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_an_arabic_boards_status_comes_from_the_arabic_catalogue() -> None:
    # two pieces said as Arabic says two ("يضع قطعتين", not "يضع 2": native play-test, stop 36)
    assert status_text(START, ("Amira", "Omar"), lang="ar") == "Amira " + AR["picture.doing.place#count=two"]
    assert turn_text(START, lang="ar") == AR["picture.turn"].format(turn=1)
    assert status_text(START, (YOU, "Omar"), lang="ar") == "أنت تضع قطعتين"
    # English stays as it was, by default and by name.
    english = status_text(START, ("Amira", "Omar"))
    assert english == status_text(START, ("Amira", "Omar"), lang="en") == "Amira to place 2"


def test_an_arabic_game_end_says_who_won_and_why_in_arabic() -> None:
    pos, _ = BY_NAME["game-over-5x5"].build()
    outcome = pos.outcome()
    assert outcome is not None
    players = ("Amira", "Omar")
    assert winner_text(outcome, players, "ar") == AR["picture.wins"].format(name="Amira")
    assert reason_text(outcome, pos, players, "ar") == AR["picture.reason.capture_all.name"].format(loser="Omar")
    assert winner_text(outcome, ("You", "Omar"), "ar") == AR["picture.wins.you"]
    resigned = Outcome.from_result("0-1", "resignation")
    assert reason_text(resigned, pos, (YOU, "Omar"), "ar") == AR["picture.reason.resignation.you"]
    assert reason_text(resigned, pos, (YOU, "Omar"), "en") == "You resigned"


def test_the_last_turn_the_shuttle_and_the_hint_are_arabic_with_latin_cells() -> None:
    pos, turn = BY_NAME["chain-5x5"].build()
    said = last_turn_text(pos, turn, "ar")
    assert said.startswith(AR["picture.last"].format(turn="")) and "a2-b2،\u200f b2-b1" in said
    assert "c2،\u200f c1" in said  # cells stay Latin, listed with the Arabic comma as in the messages
    held, _ = BY_NAME["shuttle-held-5x5"].build()
    assert blocked_text(held, "ar") == "لا يجوز للقطعة في d2 أن تعود إلى c2 للمرة الثالثة: حد الذهاب والإياب"
    assert hint_text(START, "ar") == AR["picture.hint.placement"].format(
        count=AR["picture.hint.count.pairs"], where=AR["picture.hint.where_not_centre"]
    )
    assert clock_text(2 * 86400 + 3 * 3600, "ar") == "2ي 3س" and clock_text(245, "ar") == "4:05"


@pytest.mark.parametrize("name", ["placement-5x5", "chain-5x5", "shuttle-held-5x5", "game-over-5x5", "clock-5x5"])
def test_the_picture_at_an_arabic_table_differs_from_the_english_one_only_in_its_words(name: str) -> None:
    scenario = BY_NAME[name]
    pos, turn = scenario.build()
    drawn = {
        lang: _image(
            render_board(
                pos, turn, players=scenario.players, outcome=scenario.outcome, time_left=scenario.time_left, lang=lang
            )
        )
        for lang in ("en", "ar")
    }
    lay = layout(pos.geo.n, WIDTH, HEIGHT)
    x0, y0, x1, _ = lay.footer
    footer = (x0, y0, x1, HEIGHT)
    assert ImageChops.difference(drawn["en"].crop(footer), drawn["ar"].crop(footer)).getbbox() is not None
    card = lay.cards[0]
    assert ImageChops.difference(drawn["en"].crop(card), drawn["ar"].crop(card)).getbbox() is not None
    board = (0, lay.cards[0][3] + 4, WIDTH, y0 - 4)  # the board itself has no words
    assert ImageChops.difference(drawn["en"].crop(board), drawn["ar"].crop(board)).getbbox() is None


def test_the_english_picture_is_the_default() -> None:
    pos, turn = BY_NAME["chain-5x5"].build()
    assert render_board(pos, turn, players=("Amira", "Omar")) == render_board(
        pos, turn, players=("Amira", "Omar"), lang="en"
    )


@pytest.mark.skipif(not HAS_RAQM, reason="right to left needs raqm")
def test_arabic_sentences_are_laid_out_right_to_left() -> None:
    """With a right-to-left base direction a Latin name sits at the right end of an Arabic
    sentence (where the reader starts), not at its left as in a left-to-right line.

    Read from the ink: the capitals of "WWWWWWWW" stop at the baseline, while the Arabic
    verb (يحرّك) reaches below it; so whichever word ends the line shows in the ink under
    the baseline at its right end.
    """
    assert direction_of("ar") == "rtl" and direction_of("en") == "ltr"
    face = font(30, bold=True)
    name = "WWWWWWWW"
    sentence = f"{name} {AR['picture.doing.move']}"
    baseline = 45

    def lowest_ink_at_the_right(direction: str) -> int:
        img = Image.new("L", (900, 80), 0)
        draw_text(ImageDraw.Draw(img), (890, baseline), sentence, face, (255,), "rs", direction)
        box = img.crop((890 - round(width(name, face)) + 4, 0, 890, 80)).getbbox()
        assert box is not None
        return box[3]

    assert lowest_ink_at_the_right("rtl") <= baseline + 1  # the name ends the line
    assert lowest_ink_at_the_right("ltr") > baseline + 3  # the verb would: the test can fail


@pytest.mark.skipif(not HAS_RAQM, reason="the marks need raqm")
def test_a_cut_latin_name_in_an_arabic_line_keeps_its_ellipsis_at_its_end() -> None:
    line, _ = fit("Omar al-Khatib the Great of Cairo", 30, 200, bold=True, direction="rtl")
    assert is_cut(line) and line.endswith(LRM)
    line, _ = fit("Omar al-Khatib the Great of Cairo", 30, 200, bold=True)  # an English line: as before
    assert is_cut(line) and not line.endswith(LRM)


@pytest.mark.parametrize("hostile", [*hostile_strings(10_000), "x" * 10_000, "\u202eOmar\u202c", "Omar\nal\rKhatib"])
def test_a_hostile_name_in_an_arabic_picture_neither_crashes_nor_overflows(hostile: str) -> None:
    rtl = direction_of("ar")
    room = 300.0
    line, face = status_fit(hostile, AR["picture.doing.move"], 30, room, 22, direction=rtl)
    assert width(line, face, rtl) <= room + 1
    text, face = fit(hostile, 30, room, bold=True, direction=rtl)
    assert width(text, face, rtl) <= room + 1
    pos, turn = BY_NAME["game-over-5x5"].build()
    img = board_image(pos, turn, players=(hostile, hostile), lang="ar")
    plain = board_image(pos, turn, players=("", ""), lang="ar")
    assert img.size == (WIDTH, HEIGHT)
    # Nothing is drawn in the picture's outer margin, whatever the name.
    lay = layout(pos.geo.n, WIDTH, HEIGHT)
    margin = (lay.footer[2] + 2, 0, WIDTH, HEIGHT)
    assert ImageChops.difference(img.crop(margin), plain.crop(margin)).getbbox() is None


def test_the_text_board_at_an_arabic_table_has_arabic_words() -> None:
    pos, turn = BY_NAME["chain-5x5"].build()
    board = text_board(pos, turn, players=("Amira", "Omar"), lang="ar")
    first = board.splitlines()[0]
    assert first == " · ".join(
        [AR["picture.text.title"], AR["picture.turn"].format(turn=41), "Amira " + AR["picture.doing.move"]]
    )
    assert "على الرقعة" in board.splitlines()[-2]
    english = text_board(pos, turn, players=("Amira", "Omar"))
    assert english.splitlines()[0] == "Seega · Turn 41 · Amira to move"
    assert english.splitlines()[-1] == "Last: White a2-b2, b2-b1 · took c2, c1"


def test_an_arabic_picture_is_read_from_the_right() -> None:
    """Native play-test (stop 36): the panels were laid out left to right, so an Arabic
    reader met the stone before the status and White's card first. In Arabic the panels
    are mirrored: Black's card on the right, each card's stone at its right edge, the
    status at the right of the footer. The board keeps its files a to e left to right."""
    from bot.render.theme import get_theme

    pos = Position.from_spn("wbbbw/wwbwb/bb1ww/wbbbb/wbwww w m 0/0 - 0 25")  # White to move
    lay = layout(5, WIDTH, HEIGHT)
    accent = get_theme("sand").accent
    drawn = {lang: _image(render_board(pos, None, players=("A", "B"), lang=lang)) for lang in ("en", "ar")}
    (lx0, ly0, lx1, ly1), (rx0, _ry0, _rx1, _ry1) = lay.cards
    mid, s = (ly0 + ly1) // 2, (ly1 - ly0) / 104
    stone_in = round(46 * s)  # a card's stone centre, from its edge

    def light(img: Image.Image, x: int) -> bool:
        return sum(img.getpixel((x, mid))) / 3 > 180  # type: ignore[arg-type, misc]

    # White's stone (light): at the left of the right card in English, at the right of the left card in Arabic
    assert light(drawn["en"], rx0 + stone_in) and not light(drawn["en"], lx1 - stone_in)
    assert light(drawn["ar"], lx1 - stone_in) and not light(drawn["ar"], rx0 + stone_in)
    # the card of the side to move (White) wears the accent outline: on the right in English, the left in Arabic
    assert drawn["en"].getpixel((rx0 + 1, mid)) == accent and drawn["en"].getpixel((lx0 + 1, mid)) != accent
    assert drawn["ar"].getpixel((lx0 + 1, mid)) == accent and drawn["ar"].getpixel((rx0 + 1, mid)) != accent
    # the footer's status starts at the right in Arabic: its stone sits at the right end
    x0, y0, x1, _ = lay.footer
    line1 = y0 + round(36 * WIDTH / 720) - round(10 * WIDTH / 720)
    assert sum(drawn["ar"].getpixel((x1 - 6 - 14, line1))) / 3 > 180  # type: ignore[arg-type, misc]
    assert sum(drawn["en"].getpixel((x0 + 6 + 14, line1))) / 3 > 180  # type: ignore[arg-type, misc]
    board = (0, ly1 + 4, WIDTH, y0 - 4)
    assert ImageChops.difference(drawn["en"].crop(board), drawn["ar"].crop(board)).getbbox() is None


@pytest.mark.skipif(not HAS_RAQM, reason="right to left needs raqm")
def test_a_score_reads_as_written_in_an_arabic_sentence() -> None:
    """Native play-test (stop 36): after Arabic letters the digits of a score are Arabic
    numbers to the bidirectional algorithm (raqm's here, the same Discord's clients
    follow), and the hyphen between them turned the run around: "بنتيجة 0-1" read
    "1-0", the other side winning. The score ends this line, so it stands at its left
    end: drawn as "0-1" alone is, not as "1-0"."""
    face = font(30, bold=True)
    sentence = texts.text("ar", "console.game_over", result="0-1", text="").rstrip(" .")
    assert sentence.startswith("انتهت") and sentence.rstrip("\u200e").endswith("0-1")

    def drawn(line: str, direction: str) -> Image.Image:
        img = Image.new("L", (500, 60), 0)
        draw_text(ImageDraw.Draw(img), (10, 40), line, face, (255,), "ls", direction)
        return img.crop((0, 0, 10 + round(width("0-1", face)) + 2, 60))

    def apart(a: Image.Image, b: Image.Image) -> float:
        return float(ImageStat.Stat(ImageChops.difference(a, b)).sum[0])

    in_sentence = drawn(sentence, "rtl")  # anti-aliased a fraction of a pixel apart: closest, not equal
    assert apart(in_sentence, drawn("0-1", "ltr")) * 2 < apart(in_sentence, drawn("1-0", "ltr"))
    assert texts.text("en", "picture.after", result="0-1", count=24) == "0-1 after 24 turns"  # English as it was


def test_an_arabic_pictures_variant_label_is_its_arabic_name() -> None:
    """Fresh-eyes play-test (stop 36): an Arabic picture's badge read "Two then one · 5×5",
    English words; then the code people type; a native review asked for its name, as the
    Arabic messages now write it."""
    from bot.render.words import ruleset_label

    pos = Position(Ruleset.make("two-then-one", 5))
    assert ruleset_label(pos, "ar") == "قطعتان ثم قطعة · 5×5"
    assert ruleset_label(Position(Ruleset.make("modern-3x3", 3)), "ar") == "الحديثة 3×3"
    assert ruleset_label(pos, "en") == "Two then one · 5×5"


def test_an_arabic_last_turn_across_placement_and_movement_has_its_verbs() -> None:
    """Native review: a bot's reply that placed its last pair and then moved read "آخر دور:
    الأبيض d1، b4، d3-c3..." with no verb; each run of actions says what it did."""
    pos, turn = BY_NAME["placement-and-chain-5x5"].build()
    said = last_turn_text(pos, turn, "ar")
    assert "وضع الأبيض d1،\u200f b4 ثم حرّك d3-c3،\u200f c3-c2،\u200f c2-b2" in said, said
    chain, chain_turn = BY_NAME["chain-5x5"].build()
    assert "حرّك الأبيض a2-b2" in last_turn_text(chain, chain_turn, "ar")
    # two turns of White's (its last pair, then its first steps): said as turns (stop 37)
    assert last_turn_text(pos, turn, "en") == "Last turns: White d1, b4, then d3-c3, c3-c2, c2-b2 · took c2, b2, b3"
    assert said.startswith("آخر الأدوار: "), said
    assert last_turn_text(chain, chain_turn, "en").startswith("Last: White a2-b2"), "one turn: Last"


def test_a_removal_is_said_once_in_words_as_a_capture_is() -> None:
    """Play-tester: the picture's last-turn line said a removal twice, "Last: White xa1 ·
    removed a1" (its notation, then the words; Arabic likewise, "أزال الأبيض xa1 · أزال
    a1"). It is said once, in words where it was played, as a capture says "took c3"."""
    fouze, fouze_turn = BY_NAME["removal-fouze-5x5"].build()  # Black xe4, then e5-e4
    # "then" before the step, as the Arabic says "ثم حرّك": "removed e4, e5-e4" read as
    # two cells removed (play-test)
    assert last_turn_text(fouze, fouze_turn, "en") == "Last: Black removed e4, then e5-e4"
    assert last_turn_text(fouze, fouze_turn, "ar") == "آخر دور: أزال الأسود e4 ثم حرّك e5-e4"
    # the remover's whole turn (capture-one): the removal alone
    before = Position.from_spn("bwwbb/ww1ww/w1w1w/wwbwb/bbbbb w r 0/0 - 0 14", Ruleset.make("seejeh", 5))
    after = before.copy()
    played = [after.play("xa1")]
    turn = summarize_turn(before, played)
    assert last_turn_text(after, turn, "en") == "Last: White removed a1"
    assert last_turn_text(after, turn, "ar") == "آخر دور: أزال الأبيض a1"


def test_a_game_over_before_any_turn_says_no_turn_was_played() -> None:
    """Outside play-test: a game resigned before its first turn read "1-0 بعد 0 دور" ("1-0
    after 0 turns"); it says no turn was played, as the game's footer does."""
    over = Outcome(0, "resignation")
    assert turn_text(START, over, lang="ar") == f"{LRM}1-0{LRM}، لم يُلعب أي دور"
    assert turn_text(START, over, lang="en") == "1-0, no turn played"
