"""The sentences on the images and the text board, in one place, in the reader's language.

Kept apart from drawing so the console, the text board and the image say the same thing.
The wording lives in the catalogues (``bot/locale/<lang>.json``, keys ``picture.*``), as
every other sentence of the bot does; this module only picks the key and its parameters.
Every function takes ``lang`` (English by default, so a caller that names no language
gets the pictures as they always were). Cells (``b2``), moves (``b2-c2``) and numbers
stay Latin in every language, as in the messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.explain.openings import opening_cells
from bot.explain.passes import nth_line
from bot.texts import FALLBACK, plain_name, separator, text
from engine import Outcome, Position
from engine.position import ANY, ONE
from engine.summary import TurnSummary, shuttle_holds

#: The name a picture gives the person looking at it (the console's player against the
#: bot): its sentences are then in the second person ("You win", "You are blocked"), and
#: the name itself is shown in the picture's language (:func:`shown_name`).
YOU = "You"

#: The reasons :func:`_by_loser` words, each said to the loser (``.you``), of them by
#: name (``.name``) and of nobody in particular (the catalogue test checks every key).
LOSER_REASONS = ("capture_all", "reduced", "blocked", "resignation", "timeout")
#: The sentences said to the reader where a language conjugates for them (``.you``).
DOINGS = (
    "place",
    "remove",
    "remove_blocked",
    "remove_self",
    "remove_both",
    "replace",
    "again_from",
    "again",
    "or_end",
    "blocked",
    "move",
)


def colour_name(side: int, lang: str = FALLBACK) -> str:
    """``"Black"`` or ``"White"`` in ``lang``: the colour words of the messages, capitalized."""
    return text(lang, f"color.{('black', 'white')[side]}").capitalize()


def shown_name(name: str, lang: str = FALLBACK) -> str:
    """A player's name as the picture shows it: as its owner wrote it, without the escapes
    of its message-safe form (:func:`bot.texts.plain_name`); :data:`YOU` in the picture's
    language."""
    return text(lang, "picture.you") if name == YOU else plain_name(name)


def _listed(lang: str, items: Sequence[str]) -> str:
    """Cells or moves listed as the language separates them (``b2-c2, c2-c4``)."""
    return separator(lang).join(items)


def ruleset_label(position: Position, lang: str = FALLBACK) -> str:
    """``"Seejeh · 7×7"``; empty for the standard 5x5 game, which needs no label.

    The variant is named as the messages name it in the picture's language (``variant.*``:
    "البدوية · 7×7" in Arabic, a native review), English capitalising the code; the options
    stay as written (``chain=any``, the record's own words).
    """
    rules = position.rules
    if rules.variant == "standard" and rules.size == 5 and not rules.options_text():
        return ""
    # "Two then one" in English; in another language its own name, not English words in an
    # Arabic picture (fresh-eyes play-test, stop 36)
    english = rules.variant.replace("-", " ").capitalize()
    name = english if lang == FALLBACK else text(lang, f"variant.{rules.variant}")
    label = name if rules.variant == "modern-3x3" else text(lang, "picture.ruleset", variant=name, size=rules.size)
    extra = rules.options_text()
    return f"{label} · {extra}" if extra else label


def _pieces(count: int, lang: str) -> str:
    return text(lang, "picture.pieces.one") if count == 1 else text(lang, "picture.pieces.many", count=count)


def reason_text(outcome: Outcome, position: Position, players: tuple[str, str], lang: str = FALLBACK) -> str:
    """Why the game ended, as a sentence a newcomer understands.

    ``"100 turns without a capture: 11 pieces to 4"`` rather than ``move-limit``: the
    reason names the rule and the numbers that decided it.
    """
    rules = position.rules
    winner = outcome.winner
    loser = players[1 - winner] if winner is not None else ""
    counts = (position.count(0), position.count(1))
    reason = outcome.reason
    if reason == "line":
        k = rules.win_line
        return text(lang, "picture.reason.line", count=k) if k else text(lang, "picture.reason.line_any")
    if reason == "move-limit":
        limit = rules.move_limit
        head = text(lang, "picture.reason.move_limit", limit=limit) if limit else ""
        head = head or text(lang, "picture.reason.move_limit_any")
        if winner is None:
            return text(lang, "picture.reason.count_even", head=head, pieces=_pieces(counts[0], lang))
        pieces = _pieces(counts[winner], lang)
        return text(lang, "picture.reason.count", head=head, pieces=pieces, other=counts[1 - winner])
    if reason == "turn-limit":
        limit = rules.turn_limit
        return (
            text(lang, "picture.reason.turn_limit", limit=limit)
            if limit
            else text(lang, "picture.reason.turn_limit_any")
        )
    if reason == "no-line":
        k = rules.win_line
        return text(lang, "picture.reason.no_line", count=k) if k else text(lang, "picture.reason.no_line_any")
    if reason == "reduced" and loser:
        left = counts[1 - winner] if winner is not None else 0
        return _by_loser(lang, "reduced", loser, pieces=_pieces(left, lang))
    if reason == "agreement":
        if winner is None:
            return text(lang, "picture.reason.agreement")
        # Only an end by count agreed on has a winner: say so, with the count that decided
        # it (fresh-eyes play-test: a replay's last frame read "Agreed by both players").
        return text(lang, "picture.reason.agreement.win", won=counts[winner], lost=counts[1 - winner])
    if reason == "abandoned":
        return text(lang, "picture.reason.abandoned")
    if reason.replace("-", "_") in LOSER_REASONS:
        return _by_loser(lang, reason.replace("-", "_"), loser)
    return reason.replace("-", " ")


def _by_loser(lang: str, reason: str, loser: str, **params: Any) -> str:
    """``picture.reason.<reason>`` said to the loser, of them by name, or of nobody (no
    loser known). ``"reduced"`` without a loser needs no count ("too few pieces left")."""
    if not loser:
        return text(lang, f"picture.reason.{reason}")
    if loser == YOU:
        return text(lang, f"picture.reason.{reason}.you", **params)
    return text(lang, f"picture.reason.{reason}.name", loser=plain_name(loser), **params)


def winner_text(outcome: Outcome, players: tuple[str, str], lang: str = FALLBACK) -> str:
    """``"Amira wins"``, ``"Draw"``, or ``"Game cancelled"`` (reason ``abandoned``)."""
    if outcome.reason == "abandoned":
        return text(lang, "picture.cancelled")
    if outcome.winner is None:
        return text(lang, "picture.draw")
    name = players[outcome.winner]
    return text(lang, "picture.wins.you") if name == YOU else text(lang, "picture.wins", name=plain_name(name))


def result_text(outcome: Outcome, position: Position, players: tuple[str, str], lang: str = FALLBACK) -> str:
    """``"Amira wins · every piece of Omar was captured"`` or ``"Draw · all 2500 turns played"``."""
    return f"{winner_text(outcome, players, lang)} · {reason_text(outcome, position, players, lang)}"


def shuttle_text(position: Position, piece: int, cell: int, lang: str = FALLBACK) -> str:
    """``"d2 may not go back to c2 a third time: the shuttle limit"``: the sentence of the
    refused step (``explain.refuse.shuttle``), so the picture and the refusal agree."""
    names = position.geo.names
    key, params = nth_line(position.rules.max_shuttles + 1)
    return text(lang, "explain.refuse.shuttle", src=names[piece], dst=names[cell], nth=text(lang, key, **params))


def blocked_text(position: Position, lang: str = FALLBACK) -> str:
    """Why the side to act can only pass when the shuttle limit is what holds it; else ``""``."""
    if position.result is not None or position.phase != "m":
        return ""
    legal = position.legal_actions()
    if len(legal) != 1 or legal[0].kind != "pass":
        return ""
    own = [hold for hold in shuttle_holds(position) if position.piece_at(hold[0]) == position.side]
    if not own:
        return ""
    return shuttle_text(position, *own[0], lang=lang)


def clock_text(seconds: float, lang: str = FALLBACK) -> str:
    """Time left for a turn, short: ``"4:05"``, ``"1h 05m"``, ``"2d 3h"``; ``"0:00"`` when out."""
    left = max(0, int(seconds))
    if left >= 86400:
        return text(lang, "picture.clock.days", days=left // 86400, hours=left % 86400 // 3600)
    if left >= 3600:
        return text(lang, "picture.clock.hours", hours=left // 3600, minutes=left % 3600 // 60)
    return f"{left // 60}:{left % 60:02d}"


#: How a chain's status ends in English; the footer drops it first when the line is too
#: long (the message under the picture says how to end the turn). See :func:`or_end`.
OR_END = " or end"


def or_end(lang: str = FALLBACK, you: bool = False) -> str:
    """How a chain's status ends in ``lang`` (:data:`OR_END` in English)."""
    return text(lang, "picture.doing.or_end.you" if you else "picture.doing.or_end")


def doing_text(position: Position, lang: str = FALLBACK, you: bool = False) -> str:
    """What the side to act must do now: ``"to move"``, ``"to place 2"``...; said to the
    reader (``you``) where the language conjugates for them (Arabic)."""
    tail = ".you" if you else ""
    phase = position.phase
    if phase == "p":
        left = 1 if position.state == ONE else _pieces_per_turn(position)
        return text(lang, f"picture.doing.place{tail}", count=left)
    if phase == "r":
        return _removal_doing(position, lang, tail)
    if phase == "s":
        return text(lang, f"picture.doing.replace{tail}")
    if position.state >= 0:
        cell = position.geo.names[position.state]
        return text(lang, f"picture.doing.again_from{tail}", cell=cell) + or_end(lang, you)
    if position.state == ANY:
        return text(lang, f"picture.doing.again{tail}") + or_end(lang, you)
    legal = position.legal_actions()
    if len(legal) == 1 and legal[0].kind == "pass":
        return text(lang, f"picture.doing.blocked{tail}")
    return text(lang, f"picture.doing.move{tail}")


def _removal_doing(position: Position, lang: str, tail: str) -> str:
    """``"to remove a piece: Black is blocked"``: a removal is due because a player cannot
    step (RULES.md section 4), and the picture says who, as the message does (play-test:
    the footer said only "Player 2 to remove a piece"). Under ``remove-by-blocked`` the
    remover is the blocked one; under ``pass`` both sides are."""
    rule = position.rules.blocked
    if rule == "pass":
        return text(lang, f"picture.doing.remove_both{tail}")
    if rule == "remove-by-blocked":
        return text(lang, f"picture.doing.remove_self{tail}", colour=colour_name(position.side, lang))
    if rule in ("capture-one", "remove-by-opponent", "lose"):
        return text(lang, f"picture.doing.remove_blocked{tail}", colour=colour_name(1 - position.side, lang))
    return text(lang, f"picture.doing.remove{tail}")


def _pieces_per_turn(position: Position) -> int:
    rules = position.rules
    if rules.placement == "singles" or position.hand[position.side] < 2:
        return 1
    if rules.placement == "pairs-then-singles":
        placed = rules.pieces - position.hand[position.side]
        return 2 if placed == 0 else 1
    return 2


def status_text(
    position: Position, players: tuple[str, str], outcome: Outcome | None = None, lang: str = FALLBACK
) -> str:
    """The footer's main line: the result when over, else who acts and what they must do."""
    outcome = outcome or position.outcome()
    if outcome is not None:
        return result_text(outcome, position, players, lang)
    return " ".join(status_parts(position, players, lang))


def status_parts(position: Position, players: tuple[str, str], lang: str = FALLBACK) -> tuple[str, str]:
    """Who acts and what they must do, apart: the footer keeps the second whole and cuts
    the name first when the line is too long (the header shows the name whole)."""
    name = players[position.side]
    return shown_name(name, lang), doing_text(position, lang, you=name == YOU)


def turn_text(position: Position, outcome: Outcome | None = None, lang: str = FALLBACK) -> str:
    """``"Turn 14"`` while playing, ``"1-0 after 57 turns"`` when over, ``"Not rated"``
    when cancelled (its result is ``*``: no score to show)."""
    outcome = outcome or position.outcome()
    if outcome is not None and outcome.reason == "abandoned":
        return text(lang, "picture.not_rated")
    if outcome is not None:
        done = position.turn - 1
        if done == 0:  # "1-0 after 0 turns" (outside play-test): the footer's words for it
            return text(lang, "picture.after.none", result=outcome.result)
        if done == 1:
            return text(lang, "picture.after.one", result=outcome.result)
        return text(lang, "picture.after", result=outcome.result, count=done)
    return text(lang, "picture.turn", turn=position.turn)


def phase_news_text(position: Position, last_turn: TurnSummary | None, lang: str = FALLBACK) -> str:
    """``"All pieces placed: the movement phase begins"`` on the picture right after the
    last placement (the status beside it says who moves first), else ``""``.

    When the side that was to move first was walled in and passed at once, that is the
    news ("All pieces placed: White is walled in and passes"): otherwise the picture
    says the other side is to move with no word of why (newcomer play-test).
    """
    if last_turn is None or not last_turn.placed or last_turn.steps or position.phase != "m":
        return ""
    if position.outcome() is not None:
        return ""
    sides = last_turn.sides or (last_turn.side,) * len(last_turn.actions)
    passed = [side for action, side in zip(last_turn.actions, sides, strict=True) if action.kind == "pass"]
    if passed:
        return text(lang, "picture.news.walled", colour=colour_name(passed[-1], lang))
    return text(lang, "picture.news.begins")


def last_turn_text(position: Position, last_turn: TurnSummary | None, lang: str = FALLBACK) -> str:
    """``"Last: White b2-c2, c2-c4 · took c3, d4"``: the turn in notation and what it took.

    A removal is said once, in words where it was played ("Last: Black removed e4, then
    e5-e4"): its notation and a "removed e4" after it said it twice (play-test).

    A pass played for a blocked player is said where it happened: at the end ("White is
    blocked and passes": it is the other player's turn now), or between two turns of a
    reply ("Black b5-b4 · White blocked, passed · Black c5-b5").
    """
    if last_turn is None or not last_turn.actions:
        return ""
    names = position.geo.names
    # (colour, the actions it played, the cells they took) in order; no actions: a pass
    segments: list[tuple[int, list[str], list[int]]] = []
    sides = last_turn.sides or (last_turn.side,) * len(last_turn.actions)
    took = last_turn.took or ((),) * len(last_turn.actions)
    for action, side, gone in zip(last_turn.actions, sides, took, strict=True):
        if action.kind == "end":  # "end" says nothing more
            continue
        if action.kind == "pass":
            segments.append((side, [], []))
            continue
        if not (segments and segments[-1][1] and segments[-1][0] == side):
            segments.append((side, [], []))
        segments[-1][1].append(str(action))
        if action.kind == "step":  # a removal is said where it was played ("removed d4")
            segments[-1][2].extend(gone)
    if not any(played for _, played, _ in segments):
        return text(lang, "picture.last.was_blocked", colour=colour_name(last_turn.side, lang))
    # Two sides' actions in one line (a reply around a pass): each capture is said
    # with the actions that made it, not after the last ones (newcomer play-test).
    apart = len(segments) > 1 and bool(last_turn.took)
    words = []
    for i, (side, played, cells) in enumerate(segments):
        colour = colour_name(side, lang)
        if played:
            said = _played_text(colour, played, lang)
            if apart and cells:
                said += " " + text(lang, "picture.last.took", cells=_listed(lang, [names[c] for c in cells]))
            words.append(said)
        elif i == len(segments) - 1:
            words.append(text(lang, "picture.last.passes", colour=colour))
        else:
            words.append(text(lang, "picture.last.passed", colour=colour))
    # The last placer's pair and its first steps are two turns of one side in one line:
    # "Last:" read as one turn that placed and moved (big-board play-test, native review).
    turns = sum(1 for _, played, _ in segments if played) + sum(
        1 for _, played, _ in segments if played and "-" in played[-1] and not ("-" in played[0] or "x" in played[0])
    )
    parts = [text(lang, "picture.last_turns" if turns > 1 else "picture.last", turn=" · ".join(words))]
    if last_turn.captured and not apart:
        parts.append(text(lang, "picture.last.took", cells=_listed(lang, [names[c] for c, _ in last_turn.captured])))
    return " · ".join(parts)


def _played_text(colour: str, played: Sequence[str], lang: str) -> str:
    """One side's actions with their verbs: "وضع الأبيض d1، b4 ثم حرّك d3-c3" in Arabic (a
    bot's reply spanning placement and movement read "الأبيض d1، b4، d3-c3", no verb: native
    review); English says "then" before the steps ("White d1, b4, then d3-c3"; "Black
    removed e4, e5-e4" read as two removals), and lists one kind after the colour."""
    runs: list[tuple[str, list[str]]] = []
    for action in played:  # a placement ("a1"), a step ("b2-c2") or a removal ("xd4")
        kind = "remove" if action.startswith("x") else "step" if "-" in action else "place"
        if not runs or runs[-1][0] != kind:
            runs.append((kind, []))
        # a removal's verb says it: "removed d4", not "removed xd4"
        runs[-1][1].append(action[1:] if kind == "remove" else action)
    kind, actions = runs[0]
    said = text(lang, f"picture.last.{kind}", colour=colour, actions=_listed(lang, actions))
    for kind, actions in runs[1:]:
        said += text(lang, f"picture.last.then_{kind}", actions=_listed(lang, actions))
    return said


def shuttle_caption(position: Position, lang: str = FALLBACK) -> str:
    """``"d2-c2 may not be played again now (shuttle limit)"``: what the red no-entry marks
    of the board mean, or ``""`` when none is drawn. Play-test: beside a last turn the
    footer left the mark unexplained, and a newcomer tied it to something else."""
    said = shuttle_captions(position, lang)
    return said[0] if said else ""


def shuttle_captions(position: Position, lang: str = FALLBACK) -> list[str]:
    """The ways to say :func:`shuttle_caption`, longest first, for a footer to take the
    first that fits whole: the full sentence, then the short one ("Shuttle limit forbids
    d2-c2"), each with its list of steps shortened ("a1-a2, b1-b2 and 7 more"; a bare
    "+7" said nothing to a reader). Play-test pt40:
    the note was cut mid-word ("(shuttle limit: no…"). Only the side to move's holds:
    the board marks no others (:func:`engine.summary.shuttle_holds`)."""
    names = position.geo.names
    steps = [f"{names[piece]}-{names[cell]}" for piece, cell in shuttle_holds(position, position.side)]
    said = []
    for key in ("picture.shuttle_held", "picture.shuttle_held.short"):
        for k in range(len(steps), 0, -1):
            listed = (
                _listed(lang, steps)
                if k == len(steps)
                else text(lang, "explain.more_cells", shown=_listed(lang, steps[:k]), count=len(steps) - k)
            )
            said.append(text(lang, key, steps=listed))
    return said


def hint_text(position: Position, lang: str = FALLBACK) -> str:
    """A line for the footer when there is no last turn to show: how this phase is played."""
    rules = position.rules
    # The first pairs go where the opening says, not "on any empty cell" (lane play-test).
    if cells := opening_cells(position):
        opening = text(lang, f"picture.opening.{rules.opening}")
        return text(lang, "picture.hint.opening", opening=opening, cells=separator(lang, "and").join(cells))
    if position.phase == "p":
        placement = rules.placement if rules.placement in PLACEMENTS else "any"
        count = text(lang, f"picture.hint.count.{placement}")
        where = text(lang, "picture.hint.where" if rules.place_centre else "picture.hint.where_not_centre")
        return text(lang, "picture.hint.placement", count=count, where=where)
    if position.phase == "m":
        # The no-entry mark of a piece held by the shuttle limit needs its words: a hint's
        # or a review's board has no last turn to explain it (fresh-eyes play-test).
        if holds := shuttle_holds(position, position.side):
            return shuttle_text(position, *holds[0], lang=lang)
        return text(lang, "picture.hint.move")
    if position.phase == "s":
        return text(lang, "picture.hint.replace")
    if position.phase == "r" and rules.blocked in REMOVAL_HINTS:
        return text(lang, f"picture.hint.removal.{rules.blocked}")
    return ""


#: The placement rules the hint words (``picture.hint.count.<rule>``; another says "pieces").
PLACEMENTS = ("pairs", "singles", "pairs-then-singles")
#: The ``blocked`` rules that make a player remove a piece, each with its hint
#: (``picture.hint.removal.<rule>``: what the player due to remove may take).
REMOVAL_HINTS = ("pass", "remove-by-blocked", "remove-by-opponent", "lose", "capture-one")
