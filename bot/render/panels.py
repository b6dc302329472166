"""The header (both players) and the footer (the state of the game) of a board image."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.render.fonts import ELLIPSIS, draw_text, fit, font, is_cut, width
from bot.render.layout import Box, Layout
from bot.render.sprites import stone
from bot.render.theme import RGB, Theme
from bot.render.words import (
    OR_END,
    blocked_text,
    clock_text,
    hint_text,
    last_turn_text,
    phase_news_text,
    reason_text,
    ruleset_label,
    status_parts,
    turn_text,
    winner_text,
)
from engine import Outcome, Position
from engine.summary import TurnSummary


def _pill(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, size: int, fill: RGB, ink: RGB) -> None:
    face = font(size, bold=True)
    w = width(text, face)
    h = size * 1.45
    x, y = centre
    draw.rounded_rectangle(
        (x - w / 2 - size * 0.7, y - h / 2, x + w / 2 + size * 0.7, y + h / 2), radius=h / 2, fill=fill
    )
    draw_text(draw, (x, y), text, face, ink, "mm")


def _counts(position: Position, color: int) -> str:
    on_board = position.count(color)
    hand = position.hand[color]
    if position.phase == "p" or any(position.hand):
        return f"{on_board} on board · {hand} in hand"
    lost = position.rules.pieces - on_board - hand
    return f"{on_board} on board · {lost} lost" if lost > 0 else f"{on_board} on board"


def _card(
    img: Image.Image, draw: ImageDraw.ImageDraw, box: Box, theme: Theme, color: int, name: str, counts: str, badge: str
) -> None:
    x0, y0, x1, y1 = box
    s = (y1 - y0) / 104
    if badge:
        draw.rounded_rectangle(box, radius=round(16 * s), outline=theme.accent, width=max(2, round(4 * s)))
    r = round(25 * s)
    icon = stone(theme, color, r)
    cx, cy = x0 + round(46 * s), (y0 + y1) // 2
    img.paste(icon, (cx - icon.width // 2, cy - icon.height // 2), icon)
    tx = x0 + round(86 * s)
    room = x1 - round(14 * s) - tx
    text, face = fit(name, round(30 * s), room, bold=True, min_size=round(22 * s))
    draw_text(draw, (tx, y0 + round(50 * s)), text, face, theme.text, "ls")
    text, face = fit(counts, round(23 * s), room, min_size=round(17 * s))
    draw_text(draw, (tx, y0 + round(82 * s)), text, face, theme.muted, "ls")
    if badge:
        _pill(draw, ((x0 + x1) / 2 + (x1 - x0) * 0.25, y0), badge, round(14 * s), theme.accent, theme.frame)


def header(
    img: Image.Image, lay: Layout, theme: Theme, position: Position, players: tuple[str, str], outcome: Outcome | None
) -> None:
    """Both players: stone, name, pieces on board and in hand; the one to act (or the winner) marked."""
    draw = ImageDraw.Draw(img)
    for color in (0, 1):
        if outcome is None:
            badge = "TO MOVE" if position.side == color else ""
        else:
            badge = "DRAW" if outcome.winner is None else "WINNER" if outcome.winner == color else ""
        _card(img, draw, lay.cards[color], theme, color, players[color], _counts(position, color), badge)


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
    img: Image.Image, draw: ImageDraw.ImageDraw, right: float, baseline: int, s: float, theme: Theme, seconds: float
) -> float:
    """Draw "(clock) 4:05 left" ending at ``right``; the x where it starts."""
    text = f"{clock_text(seconds)} left"
    face = font(round(24 * s), bold=True)
    tw = width(text, face)
    draw_text(draw, (right, baseline), text, face, theme.text, "rs")
    icon = clock_icon(theme, round(22 * s))
    ix = round(right - tw - round(8 * s) - icon.width)
    img.paste(icon, (ix, baseline - round(19 * s)), icon)
    return ix


def _two_lines(text: str, face_size: int, room: float) -> tuple[list[str], ImageFont.FreeTypeFont]:
    """``text`` on one line at ``face_size`` if it fits, else split at a space into two."""
    face = font(face_size)
    if width(text, face) <= room:
        return [text], face
    words = text.split(" ")
    for cut in range(len(words) - 1, 0, -1):
        first = " ".join(words[:cut])
        if width(first, face) <= room:
            rest, _ = fit(" ".join(words[cut:]), face_size, room)
            return [first, rest], face
    line, face = fit(text, face_size, room)
    return [line], face


def _detail(
    draw: ImageDraw.ImageDraw, text: str, x: float, right: float, baseline: int, s: float, theme: Theme
) -> None:
    """The footer's second line; a sentence too long for it wraps onto two smaller lines."""
    room = right - x
    line, face = fit(text, round(23 * s), room, min_size=round(20 * s))
    if not is_cut(line) or text.endswith(ELLIPSIS):
        draw_text(draw, (x, baseline), line, face, theme.muted, "ls")
        return
    lines, face = _two_lines(text, round(19 * s), room)
    if len(lines) == 1:
        draw_text(draw, (x, baseline), lines[0], face, theme.muted, "ls")
        return
    gap = round(23 * s)
    for i, part in enumerate(lines):
        draw_text(draw, (x, baseline - round(10 * s) + i * gap), part, face, theme.muted, "ls")


def status_fit(name: str, doing: str, size: int, room: float, min_size: int) -> tuple[str, ImageFont.FreeTypeFont]:
    """The footer's status line, ``name`` and ``doing``, fitted to ``room``.

    What the side must do is the news and is kept whole; the name, already whole in the
    header, is what gets cut. A chain's closing "or end" goes before that (the message
    under the picture says how to end the turn). Newcomer play-test: beside the clock
    the footer read "You may capture again from a2 or...", and with a long name "Omar
    al-Khatib the Great may ca...".
    """
    short = doing.removesuffix(OR_END)
    for act in dict.fromkeys((doing, short)):
        line, face = fit(f"{name} {act}", size, room, bold=True, min_size=min_size)
        if not is_cut(line):
            return line, face
    face = font(min_size, True)
    rest = f" {short}"
    name_room = room - width(rest, face)
    if name_room < width(name[:1] + ELLIPSIS, face):  # not even one letter of the name
        return fit(f"{name}{rest}", size, room, bold=True, min_size=min_size)
    cut, _ = fit(name, min_size, name_room, bold=True)
    return cut + rest, face


def footer(
    img: Image.Image,
    lay: Layout,
    theme: Theme,
    position: Position,
    last_turn: TurnSummary | None,
    players: tuple[str, str],
    outcome: Outcome | None,
    time_left: float | None = None,
) -> None:
    """Who acts (or who won), the turn number, the clock, and a second line: why the game
    ended, why a blocked player passes, the last turn in notation, or how to play."""
    draw = ImageDraw.Draw(img)
    x0, y0, x1, _ = lay.footer
    s = lay.width / 720
    line1 = y0 + round(36 * s)
    line2 = y0 + round(72 * s)
    turn = turn_text(position, outcome)
    tface = font(round(24 * s), bold=True)
    tw = width(turn, tface)
    draw_text(draw, (x1 - round(6 * s), line1), turn, tface, theme.muted, "rs")
    status_right = x1 - round(6 * s) - tw - round(24 * s)
    if time_left is not None and outcome is None:
        status_right = _clock(img, draw, status_right, line1, s, theme, time_left) - round(20 * s)
    who = outcome.winner if outcome is not None else position.side
    tx = x0 + round(6 * s)
    if who is not None:
        r = round(13 * s)
        icon = stone(theme, who, r)
        cy = line1 - round(10 * s)
        img.paste(icon, (tx + r - icon.width // 2 + 2, cy - icon.height // 2), icon)
        tx += 2 * r + round(12 * s)
    room, size, min_size = status_right - tx, round(30 * s), round(22 * s)
    if outcome is not None:
        text, face = fit(winner_text(outcome, players), size, room, bold=True, min_size=min_size)
    else:
        text, face = status_fit(*status_parts(position, players), size, room, min_size)
    draw_text(draw, (tx, line1), text, face, theme.accent if outcome is not None else theme.text, "ls")
    label = ruleset_label(position)
    right = x1 - round(6 * s)
    if label:
        lface = font(round(19 * s), bold=True)
        lw = width(label, lface)
        if lw > (x1 - x0) * 0.45:
            label, lface = fit(label, round(19 * s), (x1 - x0) * 0.45, bold=True)
            lw = width(label, lface)
        pad = round(10 * s)
        box = (right - lw - 2 * pad, line2 - round(22 * s), right, line2 + round(7 * s))
        draw.rounded_rectangle(box, radius=round(14 * s), fill=theme.card)
        draw_text(draw, (right - pad, line2 - round(7 * s)), label, lface, theme.text, "rm")
        right = round(box[0]) - round(12 * s)
    if outcome is not None:
        reason = reason_text(outcome, position, players)
        detail = reason[:1].upper() + reason[1:]  # a sentence of its own under the winner
    else:
        detail = (
            blocked_text(position)
            or phase_news_text(position, last_turn)
            or last_turn_text(position, last_turn)
            or hint_text(position)
        )
    if detail:
        _detail(draw, detail, x0 + round(6 * s), right, line2, s, theme)
