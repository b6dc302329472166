"""Sentences about games, written once for every adapter: the Discord messages and the console.

Pure functions of the service's results and a language code (``en``, ``ar``); the words
themselves are templates in ``bot/locale`` (see :mod:`bot.texts`). Discord wraps these
lines in embeds with bold cells and stones; the console prints them as they are.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.results import GameOver, Player, TurnEvent
from bot.service.catalog import rules_for
from bot.texts import text


def plain(cell: str) -> str:
    return cell


def bold(cell: str) -> str:
    """A cell in Discord markdown bold."""
    return f"**{cell}**"


def player_name(player: Player, lang: str) -> str:
    """A person's name, or "Seega bot (easy)" in the reader's language."""
    if player.is_bot:
        return text(lang, "player.bot", level=text(lang, f"level.{player.bot_level}"))
    return player.name


def event_text(event: TurnEvent, lang: str, mark: Callable[[str], str] = plain) -> str:
    """What an event did: placements, steps, captures, removals, a pass, a chain's end."""
    parts: list[str] = []
    steps = [a for a in event.actions if "-" in a]
    if event.placed:
        parts.append(text(lang, "turn.placed", cells=", ".join(mark(c) for c in event.placed)))
    if steps:
        parts.append(text(lang, "turn.moved", steps=", ".join(mark(s.replace("-", "→")) for s in steps)))
    if event.captured:
        cells = ", ".join(mark(c) for c in event.captured)
        parts.append(text(lang, "turn.captured", cells=cells, count=len(event.captured)))
    if event.removed:
        parts.append(text(lang, "turn.removed", cells=", ".join(mark(c) for c in event.removed)))
    if "pass" in event.actions:
        parts.append(text(lang, "turn.passed"))
    if "end" in event.actions:
        parts.append(text(lang, "turn.ended_chain"))
    return "; ".join(parts)


def game_over_text(over: GameOver, lang: str) -> str:
    """Who won and why ("Alice wins (resignation)"), a draw, or a cancelled game."""
    reason = text(lang, f"reason.{over.reason}")
    if over.reason == "cancelled" or over.result == "*":
        return text(lang, "over.cancelled")
    if over.winner is None:
        return text(lang, "over.draw", reason=reason)
    return text(lang, "over.win", winner=player_name(over.winner, lang), reason=reason)


def rules_lines(variant: str, lang: str) -> list[str]:
    """The rules of an offered preset, generated from its options so they never disagree
    with the engine."""
    rules = rules_for(variant)
    lines = [text(lang, "rules.board")]
    lines.append(text(lang, "rules.place_singles" if rules.placement == "singles" else "rules.place_pairs"))
    if rules.placement == "pairs-then-singles":
        lines.append(text(lang, "rules.place_then_singles"))
    if rules.opening == "lane":
        lines.append(text(lang, "rules.opening_lane"))
    if rules.after_placement == "replace":
        lines.append(text(lang, "rules.replace"))
    else:
        lines.append(text(lang, f"rules.first_mover_{rules.first_mover}"))
        if rules.captures:
            lines.append(text(lang, "rules.capture"))
            if rules.line_capture:
                lines.append(text(lang, "rules.line_capture"))
            lines.append(text(lang, "rules.safe_centre" if rules.safe_centre else "rules.unsafe_centre"))
            lines.append(text(lang, f"rules.chain_{rules.chain}"))
        if rules.max_shuttles:
            lines.append(text(lang, "rules.shuttle", count=rules.max_shuttles))
        lines.append(text(lang, f"rules.blocked_{rules.blocked}"))
    if rules.win_line:
        lines.append(text(lang, "rules.win_line", count=rules.win_line))
    if rules.captures and rules.after_placement != "replace":
        lines.append(text(lang, "rules.lose_at", count=rules.lose_at))
    if rules.move_limit:
        lines.append(text(lang, "rules.move_limit", count=rules.move_limit))
    if rules.turn_limit:
        lines.append(text(lang, "rules.turn_limit", count=rules.turn_limit))
    lines.append(text(lang, "rules.commands"))
    return lines
