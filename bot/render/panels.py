"""The header (both players) and the footer (the state of the game) of a board image.

The sentences come from :mod:`bot.render.words` in the picture's language; each is drawn
with that language's base direction (:func:`bot.render.fonts.direction_of`: Arabic right
to left). For a right-to-left language the panels are mirrored too (:class:`Side`): Black's
card stands on the right, each card's stone at its right edge, and the footer reads from the
right (who acts, then the clock and the turn at the left). A native reader found the
left-to-right layout read backwards: the status began at the left, beside the stone. The
board itself is never mirrored: its files run a to e from left to right in the notation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.render.fonts import DIRECTION, ELLIPSIS, direction_of, draw_text, fit, font, is_cut, probe, width
from bot.render.layout import Box, Layout
from bot.render.overlay import no_entry_sprite
from bot.render.sprites import stone
from bot.render.theme import RGB, Theme
from bot.render.words import (
    OR_END,
    YOU,
    blocked_text,
    clock_text,
    hint_text,
    last_turn_text,
    or_end,
    phase_news_text,
    reason_text,
    ruleset_label,
    shown_name,
    shuttle_captions,
    shuttle_text,
    status_parts,
    turn_text,
    winner_text,
)
from bot.texts import FALLBACK, plain_name, text
from engine import Outcome, Position
from engine.summary import TurnSummary, shuttle_holds


@dataclass(frozen=True)
class Side:
    """Where a panel's parts stand: as laid out for a left-to-right reader, or, for a
    right-to-left one, mirrored across the span ``x0``..``x1``.

    The drawing code lays everything out left to right and passes its x coordinates and
    anchors through here: one layout, read from either side.
    """

    x0: float
    x1: float
    rtl: bool = False

    def x(self, x: float) -> float:
        """An x coordinate of the left-to-right layout, on this side."""
        return self.x0 + self.x1 - x if self.rtl else x

    def left(self, x: float, w: float) -> int:
        """The left edge of a thing ``w`` wide whose left edge was ``x`` (for pasting)."""
        return round(self.x(x + w) if self.rtl else x)

    def anchor(self, anchor: str) -> str:
        """A text anchor of the left-to-right layout (``"ls"``), on this side (``"rs"``)."""
        if not self.rtl:
            return anchor
        return {"l": "r", "r": "l"}.get(anchor[0], anchor[0]) + anchor[1:]

    def box(self, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        """A rectangle of the left-to-right layout, on this side."""
        a, top, b, bottom = box
        a, b = sorted((self.x(a), self.x(b)))
        return (a, top, b, bottom)


def side_of(x0: float, x1: float, direction: str | None) -> Side:
    """The :class:`Side` of a panel spanning ``x0``..``x1`` whose words run in ``direction``."""
    return Side(x0, x1, direction == "rtl")


def _pill(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    word: str,
    size: int,
    fill: RGB,
    ink: RGB,
    direction: str | None = DIRECTION,
) -> None:
    face = font(size, bold=True)
    w = width(word, face, direction)
    h = size * 1.45
    x, y = centre
    draw.rounded_rectangle(
        (x - w / 2 - size * 0.7, y - h / 2, x + w / 2 + size * 0.7, y + h / 2), radius=h / 2, fill=fill
    )
    draw_text(draw, (x, y), word, face, ink, "mm", direction)


def _counts(position: Position, color: int, lang: str = FALLBACK) -> str:
    on_board = position.count(color)
    hand = position.hand[color]
    if position.phase == "p" or any(position.hand):
        return text(lang, "picture.counts.hand", board=on_board, hand=hand)
    lost = position.rules.pieces - on_board - hand
    if lost > 0:
        return text(lang, "picture.counts.lost", board=on_board, lost=lost)
    return text(lang, "picture.counts.board", board=on_board)


def _card(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: Box,
    theme: Theme,
    color: int,
    name: str,
    counts: str,
    badge: str,
    direction: str | None = DIRECTION,
) -> None:
    x0, y0, x1, y1 = box
    s = (y1 - y0) / 104
    side = side_of(x0, x1, direction)
    if badge:
        draw.rounded_rectangle(box, radius=round(16 * s), outline=theme.accent, width=max(2, round(4 * s)))
    r = round(25 * s)
    icon = stone(theme, color, r)
    cx, cy = x0 + round(46 * s), (y0 + y1) // 2
    img.paste(icon, (side.left(cx - icon.width // 2, icon.width), cy - icon.height // 2), icon)
    tx = x0 + round(86 * s)
    room = x1 - round(14 * s) - tx
    # The name alone keeps the renderer's base direction in every language: it is a name,
    # not a sentence, and a cut Latin name keeps its ellipsis at its end.
    line, face = fit(name, round(30 * s), room, bold=True, min_size=round(22 * s))
    draw_text(draw, (side.x(tx), y0 + round(50 * s)), line, face, theme.text, side.anchor("ls"))
    line, face = fit(counts, round(23 * s), room, min_size=round(17 * s), direction=direction)
    draw_text(draw, (side.x(tx), y0 + round(82 * s)), line, face, theme.muted, side.anchor("ls"), direction)
    if badge:
        centre = (side.x((x0 + x1) / 2 + (x1 - x0) * 0.25), y0)
        _pill(draw, centre, badge, round(14 * s), theme.accent, theme.frame, direction)


def _badge(position: Position, outcome: Outcome | None, color: int) -> str:
    """The key of the word on a player's card: who is to move, or who won; ``""`` for none."""
    if outcome is None:
        return "picture.badge.to_move" if position.side == color else ""
    if outcome.reason == "abandoned":
        return ""  # cancelled: nobody drew and nobody won
    if outcome.winner is None:
        return "picture.badge.draw"
    return "picture.badge.winner" if outcome.winner == color else ""


def header(
    img: Image.Image,
    lay: Layout,
    theme: Theme,
    position: Position,
    players: tuple[str, str],
    outcome: Outcome | None,
    lang: str = FALLBACK,
) -> None:
    """Both players: stone, name, pieces on board and in hand; the one to act (or the winner) marked."""
    draw = ImageDraw.Draw(img)
    direction = direction_of(lang)
    cards = lay.cards[::-1] if direction == "rtl" else lay.cards  # Black's is read first
    for color in (0, 1):
        key = _badge(position, outcome, color)
        badge = text(lang, key) if key else ""
        name = shown_name(players[color], lang)
        _card(img, draw, cards[color], theme, color, name, _counts(position, color, lang), badge, direction)


@lru_cache(maxsize=8)
def clock_icon(theme: Theme, size: int) -> Image.Image:
    """A small clock face (ring and two hands) before the time left for the turn."""
    ss = 3
    big = Image.new("RGBA", (size * ss, size * ss), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    c, r = size * ss / 2, size * ss / 2 - ss
    w = max(ss, round(size * ss * 0.12))
    ink = (*theme.text, 255)
    draw.ellipse((c - r, c - r, c + r, c + r), outline=ink, width=w)
    draw.line((c, c, c, c - r * 0.62), fill=ink, width=w)
    draw.line((c, c, c + r * 0.48, c), fill=ink, width=w)
    return big.resize((size, size), Image.Resampling.LANCZOS)


def _clock(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    right: float,
    baseline: int,
    s: float,
    theme: Theme,
    said: str,
    lang: str = FALLBACK,
    side: Side | None = None,
) -> float:
    """Draw "(clock) 4:05 for this turn" (``said``) ending at ``right`` (of the
    left-to-right layout, put on ``side``); the x where it starts."""
    side = side or Side(0, 0)
    direction = direction_of(lang)
    face = font(round(24 * s), bold=True)
    draw_text(draw, (side.x(right), baseline), said, face, theme.text, side.anchor("rs"), direction)
    icon = clock_icon(theme, round(22 * s))
    ix = round(right - _clock_width(said, s, lang))
    img.paste(icon, (side.left(ix, icon.width), baseline - round(19 * s)), icon)
    return ix


def _clock_width(said: str, s: float, lang: str = FALLBACK) -> float:
    """How wide :func:`_clock` draws ``said`` with its icon."""
    return width(said, font(round(24 * s), bold=True), direction_of(lang)) + round(8 * s) + round(22 * s)


def clock_forms(seconds: float, lang: str = FALLBACK) -> tuple[str, str]:
    """The clock's words, long ("1h 29m for this turn") and short ("1h 29m"): the short
    one when the long one would cut what the side to act must do (fresh-eyes play-test:
    "Player 2 may capture a…" beside "1h 29m for this turn")."""
    clock = clock_text(seconds, lang)
    return text(lang, "picture.clock.left", clock=clock), clock


def _two_lines(
    sentence: str, face_size: int, room: float, direction: str | None = DIRECTION
) -> tuple[list[str], ImageFont.FreeTypeFont]:
    """``sentence`` on one line at ``face_size`` if it fits, else split at a space into two."""
    face = font(face_size)
    head = probe(sentence, room)  # the first line comes from its head (see probe)
    if width(head, face, direction) <= room:
        if len(head) == len(sentence) or width(sentence, face, direction) <= room:
            return [sentence], face
        head = sentence
    words = head.split(" ")
    # The most words that fit the first line, searched: trying one cut after another
    # measured the whole first line each time, and a name of thousands of short words in
    # the sentence ("every piece of 1 1 1 ... was captured") took minutes per picture.
    low, high = 0, len(words) - 1  # ``low`` words fit (none is assumed to)
    while low < high:
        middle = (low + high + 1) // 2
        if width(" ".join(words[:middle]), face, direction) <= room:
            low = middle
        else:
            high = middle - 1
    while low and width(" ".join(words[:low]), face, direction) > room:  # shaping is only nearly monotonic
        low -= 1
    if low:
        first = " ".join(words[:low])
        rest, _ = fit(sentence[len(first) + 1 :], face_size, room, direction=direction)
        return [first, rest], face
    line, face = fit(sentence, face_size, room, direction=direction)
    return [line], face


def _detail(
    draw: ImageDraw.ImageDraw,
    sentence: str,
    x: float,
    right: float,
    baseline: int,
    s: float,
    theme: Theme,
    direction: str | None = DIRECTION,
    side: Side | None = None,
) -> None:
    """The footer's second line; a sentence too long for it wraps onto two smaller lines.
    ``x``..``right`` is its span in the left-to-right layout, put on ``side``."""
    side = side or Side(0, 0)
    room = right - x
    at, anchor = side.x(x), side.anchor("ls")
    line, face = fit(sentence, round(23 * s), room, min_size=round(20 * s), direction=direction)
    if not is_cut(line) or sentence.endswith(ELLIPSIS):
        draw_text(draw, (at, baseline), line, face, theme.muted, anchor, direction)
        return
    lines, face = _two_lines(sentence, round(19 * s), room, direction)
    if len(lines) == 1:
        draw_text(draw, (at, baseline), lines[0], face, theme.muted, anchor, direction)
        return
    gap = round(23 * s)
    for i, part in enumerate(lines):
        draw_text(draw, (at, baseline - round(10 * s) + i * gap), part, face, theme.muted, anchor, direction)


#: The fewest letters of a cut name the footer's status shows; fewer, and it drops the name.
NAME_KEPT = 4


def status_fit(
    name: str,
    doing: str,
    size: int,
    room: float,
    min_size: int,
    *,
    end: str = OR_END,
    direction: str | None = DIRECTION,
) -> tuple[str, ImageFont.FreeTypeFont]:
    """The footer's status line, ``name`` and ``doing``, fitted to ``room``.

    What the side must do is the news and is kept whole; the name, already whole in the
    header, is what gets cut, and dropped when fewer than :data:`NAME_KEPT` letters of it
    would be left ("To remove a piece: …"). A chain's closing "or end" (``end``, in the picture's
    language) goes before that (the message under the picture says how to end the
    turn). Newcomer play-test: beside the clock the footer read "You may capture again
    from a2 or...", and with a long name "Omar al-Khatib the Great may ca...".
    """
    short = doing.removesuffix(end)
    for act in dict.fromkeys((doing, short)):
        line, face = fit(f"{name} {act}", size, room, bold=True, min_size=min_size, direction=direction)
        if not is_cut(line):
            return line, face
    face = font(min_size, True)
    rest = f" {short}"
    name_room = room - width(rest, face, direction)
    kept = min(NAME_KEPT, len(name))
    if name_room >= width(name[:kept] + ELLIPSIS, face, direction):
        cut, _ = fit(name, min_size, name_room, bold=True, direction=direction)
        return cut + rest, face
    # A name cut to a letter or two says nothing ("Pl… to remove a piece", clock play-test):
    # its place goes, and what to do starts the line (the header shows who is to move).
    alone = short[:1].upper() + short[1:]
    return fit(alone, size, room, bold=True, min_size=min_size, direction=direction)


def winner_fit(
    outcome: Outcome, players: tuple[str, str], size: int, room: float, min_size: int, lang: str = FALLBACK
) -> tuple[str, ImageFont.FreeTypeFont]:
    """The footer's "Amira wins" fitted to ``room``: a name too long is cut, never the
    sentence's own words (play-test pt40b: "Alexandria_the_Great_of_Seega_99…", its "wins"
    cut off; the header's card shows the name too)."""
    direction = direction_of(lang)
    won = winner_text(outcome, players, lang)
    line, face = fit(won, size, room, bold=True, min_size=min_size, direction=direction)
    name = players[outcome.winner] if outcome.winner is not None else YOU
    if not is_cut(line) or outcome.reason == "abandoned" or name == YOU:
        return line, face
    mark = "\x00"
    before, _, after = text(lang, "picture.wins", name=mark).partition(mark)
    face = font(min_size, True)
    cut, _ = fit(
        plain_name(name), min_size, room - width(before + after, face, direction), bold=True, direction=direction
    )
    return before + cut + after, face


def status_beside_clock(
    position: Position,
    players: tuple[str, str],
    outcome: Outcome | None,
    time_left: float | None,
    room: float,
    s: float,
    lang: str = FALLBACK,
) -> tuple[str, ImageFont.FreeTypeFont, str]:
    """The footer's status line fitted to ``room`` (what it shares with the clock), and the
    clock's words (``""``: no clock): the long ones unless they would cut the status, the
    name in it included (an Arabic status read "بوت سيجة... يواصل الأسر من c2")."""
    direction = direction_of(lang)
    size, min_size = round(30 * s), round(22 * s)

    def status(width_left: float) -> tuple[str, ImageFont.FreeTypeFont]:
        if outcome is not None:
            return winner_fit(outcome, players, size, width_left, min_size, lang)
        end = or_end(lang, you=players[position.side] == YOU)
        parts = status_parts(position, players, lang)
        return status_fit(*parts, size, width_left, min_size, end=end, direction=direction)

    if time_left is None or outcome is not None:
        return (*status(room), "")
    for said in clock_forms(time_left, lang):
        line, face = status(room - _clock_width(said, s, lang) - round(20 * s))
        if ELLIPSIS not in line:  # nothing cut: neither what to do nor the name before it
            break
    return line, face, said


def footer(
    img: Image.Image,
    lay: Layout,
    theme: Theme,
    position: Position,
    last_turn: TurnSummary | None,
    players: tuple[str, str],
    outcome: Outcome | None,
    time_left: float | None = None,
    lang: str = FALLBACK,
) -> None:
    """Who acts (or who won), the turn number, the clock, and a second line: why the game
    ended, why a blocked player passes, the last turn in notation, or how to play."""
    draw = ImageDraw.Draw(img)
    direction = direction_of(lang)
    x0, y0, x1, _ = lay.footer
    side = side_of(x0, x1, direction)
    s = lay.width / 720
    line1 = y0 + round(36 * s)
    line2 = y0 + round(72 * s)
    turn = turn_text(position, outcome, lang)
    tface = font(round(24 * s), bold=True)
    tw = width(turn, tface, direction)
    draw_text(draw, (side.x(x1 - round(6 * s)), line1), turn, tface, theme.muted, side.anchor("rs"), direction)
    status_right = x1 - round(6 * s) - tw - round(24 * s)
    who = outcome.winner if outcome is not None else position.side
    tx = x0 + round(6 * s)
    if who is not None:
        r = round(13 * s)
        icon = stone(theme, who, r)
        cy = line1 - round(10 * s)
        img.paste(icon, (side.left(tx + r - icon.width // 2 + 2, icon.width), cy - icon.height // 2), icon)
        tx += 2 * r + round(12 * s)
    line, face, said = status_beside_clock(position, players, outcome, time_left, status_right - tx, s, lang)
    if said:
        _clock(img, draw, status_right, line1, s, theme, said, lang, side)
    ink = theme.accent if outcome is not None else theme.text
    draw_text(draw, (side.x(tx), line1), line, face, ink, side.anchor("ls"), direction)
    label = ruleset_label(position, lang)
    right = x1 - round(6 * s)
    if label:
        lface = font(round(19 * s), bold=True)
        lw = width(label, lface, direction)
        if lw > (x1 - x0) * 0.45:
            label, lface = fit(label, round(19 * s), (x1 - x0) * 0.45, bold=True, direction=direction)
            lw = width(label, lface, direction)
        pad = round(10 * s)
        box = (right - lw - 2 * pad, line2 - round(22 * s), right, line2 + round(7 * s))
        draw.rounded_rectangle(side.box(box), radius=round(14 * s), fill=theme.card)
        draw_text(
            draw, (side.x(right - pad), line2 - round(7 * s)), label, lface, theme.text, side.anchor("rm"), direction
        )
        right = round(box[0]) - round(12 * s)
    if outcome is not None:
        reason = reason_text(outcome, position, players, lang)
        detail = reason[:1].upper() + reason[1:]  # a sentence of its own under the winner
    else:
        detail = (
            blocked_text(position, lang)
            or phase_news_text(position, last_turn, lang)
            or last_turn_text(position, last_turn, lang)
            or hint_text(position, lang)
        )
    held = shuttle_captions(position, lang) if outcome is None and position.phase == "m" else []
    own = shuttle_holds(position, position.side)
    if held and detail not in {shuttle_text(position, *h, lang=lang) for h in own}:
        # The no-entry marks on the board need their words, and the line above them says
        # something else (the last turn): both, on two smaller lines.
        gap = round(23 * s)
        if detail:
            line, face = fit(detail, round(19 * s), right - x0 - round(6 * s), direction=direction)
            draw_text(
                draw,
                (side.x(x0 + round(6 * s)), line2 - round(10 * s)),
                line,
                face,
                theme.muted,
                side.anchor("ls"),
                direction,
            )
        _held_caption(
            img,
            draw,
            held,
            x0 + round(6 * s),
            right,
            line2 - round(10 * s) + (gap if detail else 0),
            s,
            theme,
            direction,
            side,
        )
    elif detail:
        _detail(draw, detail, x0 + round(6 * s), right, line2, s, theme, direction, side)


def _held_caption(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    sentences: Sequence[str],
    x: float,
    right: float,
    baseline: int,
    s: float,
    theme: Theme,
    direction: str | None,
    side: Side,
) -> None:
    """The no-entry sign, as the board draws it, then what it means, on one line from
    ``x`` to ``right`` ending at ``baseline``: the first of ``sentences`` (longest first,
    :func:`shuttle_captions`) that fits whole, a little smaller if need be; cut only if
    none does. The sign is drawn, not written: the fonts have no ⛔."""
    face_size = round(19 * s)
    d = round(20 * s)
    sign = no_entry_sprite(theme, round(100 * s)).resize((d, d), Image.Resampling.LANCZOS)
    top = baseline - round(face_size * 0.72) - (d - round(face_size * 0.72)) // 2
    img.paste(sign, (side.left(x, d), top), sign)
    at = x + d + round(8 * s)
    line, face = "", font(face_size)
    for sentence in sentences:
        line, face = fit(sentence, face_size, right - at, min_size=round(17 * s), direction=direction)
        if not is_cut(line):
            break
    draw_text(draw, (side.x(at), baseline), line, face, theme.muted, side.anchor("ls"), direction)
