"""The end of a game in one sentence: who won and why, with the numbers that decided it.

``"Seega bot (easy) wins: 100 turns without a capture, 11 pieces to your 4."`` instead
of ``0-1, move-limit``. The sentence can speak to one player ("you") when the reader is
one of them and the text is addressed to them: the console (a channel message names both
players, against the bot too).
"""

from __future__ import annotations

from bot.explain import Line
from engine import Outcome, Position

#: End reasons the bot adds to the engine's (a moderator's cancel).
BOT_REASONS = ("cancelled",)


def end_line(
    outcome: Outcome, position: Position, names: tuple[str, str], you: int | None = None, *, by_count: bool = False
) -> Line:
    """The sentence for how the game ended.

    Args:
        outcome: the result and the reason (an engine reason or ``cancelled``).
        position: the final position (its pieces and rules give the numbers).
        names: the names of Black and White, as shown to players.
        you: the colour of the reader, to say "you"; ``None`` for a public message.
        by_count: an ``agreement`` was to end by count (known when the game ends; a
            stored game does not say whether a draw was offered or counted).
    """
    why = reason_line(outcome, position, names, you, by_count=by_count)
    if outcome.reason == "cancelled":
        return why
    if outcome.winner is None:
        return ("explain.end.draw", {"why": why})
    if you is not None:
        key = "explain.end.you_win" if outcome.winner == you else "explain.end.you_lose"
        return (key, {"winner": names[outcome.winner], "why": why})
    return ("explain.end.win", {"winner": names[outcome.winner], "why": why})


def reason_line(
    outcome: Outcome, position: Position, names: tuple[str, str], you: int | None = None, *, by_count: bool = False
) -> Line:
    """Why the game ended, as a phrase (``"every piece of Omar was captured"``)."""
    rules = position.rules
    winner = outcome.winner
    reason = outcome.reason
    counts = (position.count(0), position.count(1))
    if winner is None:
        return _draw_reason(reason, rules.move_limit, rules.turn_limit, rules.win_line, counts, by_count)
    loser = 1 - winner
    person = "you" if you == loser else "name"
    if reason in ("capture-all", "blocked", "resignation", "timeout"):
        return (f"explain.why.{reason}.{person}", {"loser": names[loser]})
    if reason == "reduced":
        one = "_one" if counts[loser] == 1 else ""
        return (f"explain.why.reduced.{person}{one}", {"loser": names[loser], "count": counts[loser]})
    if reason == "line":
        mine = "you" if you == winner else "name"
        return (f"explain.why.line.{mine}", {"winner": names[winner], "count": rules.win_line})
    if reason in ("move-limit", "agreement"):
        side = "you_won" if you == winner else "you_lost" if you == loser else "name"
        key = "explain.why.move_limit" if reason == "move-limit" else "explain.why.by_count"
        return (f"{key}.{side}", {"limit": rules.move_limit, "won": counts[winner], "lost": counts[loser]})
    if reason == "cancelled":
        return ("explain.why.cancelled", {})
    return ("explain.why.abandoned", {})


def _draw_reason(
    reason: str, move_limit: int, turn_limit: int, win_line: int, counts: tuple[int, int], by_count: bool = False
) -> Line:
    if reason == "move-limit":
        return ("explain.why.move_limit.even", {"limit": move_limit, "count": counts[0]})
    if reason == "turn-limit":
        return ("explain.why.turn_limit", {"limit": turn_limit})
    if reason == "no-line":
        return ("explain.why.no_line", {"count": win_line})
    if reason == "agreement":
        if by_count:
            return ("explain.why.by_count.even", {"count": counts[0]})
        if counts[0] == counts[1]:  # a draw offer accepted, or a stored game: "agreed to a draw"
            return ("explain.why.draw_agreed.even", {"count": counts[0]})
        return ("explain.why.draw_agreed", {})
    if reason == "blocked":
        return ("explain.why.both_blocked", {})
    if reason == "cancelled":
        return ("explain.why.cancelled", {})
    return ("explain.why.abandoned", {})
