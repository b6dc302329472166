"""The header (both players) and the footer (the state of the game) of a board image."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.render.fonts import draw_text, fit, font, width
from bot.render.layout import Box, Layout
from bot.render.sprites import stone
from bot.render.theme import RGB, Theme
from bot.render.words import hint_text, last_turn_text, ruleset_label, status_text, turn_text
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


def footer(
    img: Image.Image,
    lay: Layout,
    theme: Theme,
    position: Position,
    last_turn: TurnSummary | None,
    players: tuple[str, str],
    outcome: Outcome | None,
) -> None:
    """Who acts (or the result), the turn number, the last turn in notation and the ruleset."""
    draw = ImageDraw.Draw(img)
    x0, y0, x1, _ = lay.footer
    s = lay.width / 720
    line1 = y0 + round(36 * s)
    line2 = y0 + round(72 * s)
    turn = turn_text(position, outcome)
    tface = font(round(24 * s), bold=True)
    tw = width(turn, tface)
    draw_text(draw, (x1 - round(6 * s), line1), turn, tface, theme.muted, "rs")
    who = outcome.winner if outcome is not None else position.side
    tx = x0 + round(6 * s)
    if who is not None:
        r = round(13 * s)
        icon = stone(theme, who, r)
        cy = line1 - round(10 * s)
        img.paste(icon, (tx + r - icon.width // 2 + 2, cy - icon.height // 2), icon)
        tx += 2 * r + round(12 * s)
    status = status_text(position, players, outcome)
    text, face = fit(status, round(30 * s), x1 - tx - tw - round(24 * s), bold=True, min_size=round(22 * s))
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
    last = last_turn_text(position, last_turn)
    if not last and outcome is None:
        last = hint_text(position)
    if last:
        text, face = fit(last, round(23 * s), right - x0 - round(6 * s), min_size=round(18 * s))
        draw_text(draw, (x0 + round(6 * s), line2), text, face, theme.muted, "ls")
