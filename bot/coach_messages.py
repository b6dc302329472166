"""The coach's answers as text in the reader's language, shared by Discord and the console.

Each function takes a result of :mod:`bot.service.coach_results` and a locale and
returns lines; the adapters add the pictures (Discord attachments, console files).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from bot.results import Player, clip_typed, player_name, variant_words
from bot.service.coach_results import (
    HintResult,
    LessonAnswer,
    LessonView,
    PuzzleAnswer,
    PuzzleLeader,
    PuzzleView,
    ReviewResult,
    Wording,
    draws_a_mark,
)
from bot.texts import CONTENT_LIMIT, DESCRIPTION_LIMIT, FALLBACK, has, join, separator
from bot.texts import text as t
from engine.coach.review import CLASSES
from engine.outcome import COLOR_NAMES

BLACK_STONE, WHITE_STONE = "⚫", "⚪"


def wording(locale: str) -> Wording:
    """``key, **params -> text`` in ``locale`` (what the service needs for pictures)."""
    return partial(t, locale)


def turn_text(actions: tuple[str, ...], locale: str) -> str:
    """A turn as the players type it: ``b2-c2, c2-c3`` (a pair: ``a1, b2``), listed with
    the language's comma (a pass in the reader's words: :func:`action_text`)."""
    return separator(locale).join(action_text(a, locale) for a in actions) if actions else "-"


def action_text(action: str, locale: str) -> str:
    """One action of the engine's notation as a line of actions shows it: a cell or a step
    as typed, a pass in the reader's language (outside play-test: a bare English "pass"
    in an Arabic review line, "بعد c4-c3 pass b4-c4")."""
    return t(locale, "coach.line.pass") if action == "pass" else action


def line_text(actions: str, locale: str) -> str:
    """The engine's space-separated actions (a review's ``moves``, ``reply``) as the reader
    reads them: each by :func:`action_text`, spaced with the language's marks (in Arabic
    the right-to-left mark of its cell lists, so the steps read in the line's order)."""
    return separator(locale, "word").join(action_text(a, locale) for a in actions.split())


def reasons_text(reasons: Sequence[tuple[str, dict[str, str]]], locale: str) -> str:
    """The hint's reasons joined, each worded by ``coach.reason.<key>``.

    A reason this bot has no words for is left out (the steady one stands in when none is
    left): AI workers on other machines may run a newer engine than the bot during an
    upgrade, and the raw key "coach.reason.edge" was shown at the console that way.
    """
    clauses = t(locale, "explain.sep_clauses")
    return clauses.join(_phrases(reasons, "coach.reason", locale) or [t(locale, "coach.reason.steady")])


def _phrases(reasons: Sequence[tuple[str, dict[str, str]]], prefix: str, locale: str, **extra: str) -> list[str]:
    """Each reason worded by ``<prefix>.<key>``, those this bot has no words for left out.

    The engine gives a reason's cells as one space-separated parameter (``"b3 d3"``, it
    has no language); they are listed as the language lists them ("b3 and d3", "b3 وd3").
    """
    return [
        t(locale, f"{prefix}.{key}", **_worded(params, locale), **extra)
        for key, params in reasons
        if has(FALLBACK, f"{prefix}.{key}")
    ]


def _worded(params: dict[str, str], locale: str) -> dict[str, str]:
    """``params`` with its ``cells`` (space-separated names) listed with ``locale``'s "and",
    and its lines of actions (``moves``, ``reply``) worded by :func:`line_text`."""
    out = dict(params)
    cells = params.get("cells")
    if cells:
        out["cells"] = join(locale, cells.split(), "and")
    for name in ("moves", "reply"):
        if params.get(name):
            out[name] = line_text(params[name], locale)
    return out


def _in_turn_order(
    reasons: Sequence[tuple[str, dict[str, str]]], actions: Sequence[str]
) -> list[tuple[str, dict[str, str]]]:
    """``reasons`` with the cells of each listed in the order the turn names them (the
    others after, as they were): "play a4, b1: you place b1 and a4" named the pair in two
    orders (native play-test)."""
    order: dict[str, int] = {}
    for action in actions:
        for cell in action.lstrip("x").split("-"):
            order.setdefault(cell, len(order))
    out: list[tuple[str, dict[str, str]]] = []
    for key, params in reasons:
        cells = params.get("cells")
        if cells:
            params = {**params, "cells": " ".join(sorted(cells.split(), key=lambda c: order.get(c, len(order))))}
        out.append((key, params))
    return out


def hint_text(result: HintResult, locale: str) -> str:
    """The hint's line: the turn, its reasons, the hints left."""
    reasons = reasons_text(_in_turn_order(result.reasons, result.actions), locale)
    turn = turn_text(result.actions, locale)
    if len(result.actions) > 1 and result.actions[-1] == "end":
        # "end" is nothing people type: say how to stop the chain there
        turn = t(locale, "coach.hint.then_end", turn=turn_text(result.actions[:-1], locale))
    elif result.actions == ("end",):  # "play end" (native re-check, stop 36)
        turn = t(locale, "coach.hint.end_alone")
    key = "coach.hint.free" if result.free else "coach.hint.again" if result.again else "coach.hint.text"
    lines = [t(locale, key, used=result.used, limit=result.limit, turn=turn, reasons=reasons)]
    if result.win_chance is not None:
        lines.append(t(locale, "coach.hint.chance", percent=round(result.win_chance * 100)))
    if result.image is not None and draws_a_mark(result.actions):
        lines.append(t(locale, "coach.hint.legend"))
    return "\n".join(lines)


def class_count_text(label: str, count: int, locale: str) -> str:
    """``1 mistake`` or ``3 mistakes``: a class of turns and how many (singular for one)."""
    if count == 1:
        return t(locale, f"coach.review.count.{label}_one")
    return t(locale, f"coach.review.count.{label}_many", count=count)


def _with_why(turn: str, why: Sequence[tuple[str, dict[str, str]]], prefix: str, locale: str, **extra: str) -> str:
    """``a4-a3 (lets Bob capture b4 with c4-b4)``: a key moment's turn and what it does
    on the board (reasons this bot has no words for are left out)."""
    known = _phrases(why, prefix, locale, **extra)
    return t(locale, "coach.review.why", turn=turn, why=t(locale, "explain.sep_clauses").join(known)) if known else turn


#: The least fall after a turn classed best or good that the review text names beside the
#: accuracy (a mistake's size: smaller ones barely move the figure).
UNSEEN_FALL = 0.10


def review_text(result: ReviewResult, locale: str, you: int | None = None) -> str:
    """The review: accuracy and classes per player, key moments, hints used.

    ``you``: the reader's colour when the text speaks to one player (the console), so a
    key moment says "lets you capture", not "lets You capture"; ``None`` in public.
    The whole text, of any length (the console prints it); Discord shows
    :func:`review_parts`.
    """
    head, notes, moments, after, hints = _review_sections(result, locale, you)
    return "\n".join([*head, *notes, *(line for _loss, line in moments), *after, *hints])


def review_parts(result: ReviewResult, locale: str) -> tuple[str, str | None]:
    """The public review as Discord takes it: the message's content and, when the whole
    :func:`review_text` would not fit its 2,000 characters, the text of an embed (up to
    4,096) below it.

    A review of 2,064 characters failed its final edit with HTTP 400, and the stored
    review could never be shown again (outside review, stop 40): two players with long
    names, five key moments. Then the content keeps the title, each player's accuracy and
    the hints used; the embed the notes, the key moments and the slide, the least costly
    moments left out (with how many) if even 4,096 characters cannot hold them all.
    """
    whole = review_text(result, locale)
    if len(whole) <= CONTENT_LIMIT:
        return whole, None
    head, notes, moments, after, hints = _review_sections(result, locale, None)
    content = clip_typed("\n".join([*head, *hints]), CONTENT_LIMIT)
    kept = list(moments)
    while True:
        lines = [*notes, *(line for _loss, line in kept)]
        if len(kept) < len(moments):
            lines.append(t(locale, "coach.review.more_moments", count=len(moments) - len(kept)))
        lines += after
        description = "\n".join(lines)
        if len(description) <= DESCRIPTION_LIMIT or len(kept) <= 1:
            return content, clip_typed(description, DESCRIPTION_LIMIT)
        # the key moments heading stays with the first moment: drop the least costly other
        least = min(range(1, len(kept)), key=lambda i: kept[i][0])
        del kept[least]


def _review_sections(
    result: ReviewResult, locale: str, you: int | None
) -> tuple[list[str], list[str], list[tuple[float, str]], list[str], list[str]]:
    """The review's lines in order: the head (title, accuracy per player), the notes (the
    falls the accuracy counts), the key moments (each with its loss, the heading first),
    what follows them (the slide, or a clean game) and the hints used."""
    review = result.review
    lines = [f"**{t(locale, 'coach.review.title', id=result.game_id, black=result.names[0], white=result.names[1])}**"]
    if result.cancelled:
        lines[0] += " " + t(locale, "coach.review.cancelled")
    if result.cached:
        lines[0] += " " + t(locale, "coach.review.stored")
    for side, stone in ((0, BLACK_STONE), (1, WHITE_STONE)):
        counts = review.counts(side)
        accuracy = review.accuracy[side]
        shown = f"{accuracy:.0f}%" if accuracy is not None else t(locale, "coach.review.no_accuracy")
        lines.append(
            t(
                locale,
                "coach.review.player",
                stone=stone,
                name=result.names[side],
                accuracy=shown,
                counts=" · ".join(class_count_text(c, counts[c], locale) for c in CLASSES),
            )
        )
    notes: list[str] = []
    for side in (0, 1):
        # The accuracy counts a turn by how far the chances fell after it when that is
        # more than its loss within its own search; its class does not. Said, so that
        # "accuracy 83% · 8 best" does not read as a contradiction (newcomer play-test).
        falls = review.unseen_falls(side, UNSEEN_FALL)[:3]
        if falls and review.accuracy[side] is not None:
            turns = [
                t(locale, "coach.review.unseen_turn", number=n, before=f"{b:.0%}", after=f"{a:.0%}")
                for n, b, a in falls
            ]
            notes.append(
                t(
                    locale,
                    "coach.review.unseen_you" if you == side else "coach.review.unseen",
                    name=result.names[side],
                    turns=join(locale, turns, "and"),
                    count=len(turns),
                )
            )
    moments: list[tuple[float, str]] = []
    if result.moments:
        moments.append((1.0, t(locale, "coach.review.moments")))
        for m in result.moments:
            # What the turn let the other player do, said to them when they read it.
            let = m.played_why if you != 1 - m.side else tuple((f"{k}_you", p) for k, p in m.played_why)
            if not let and 0 <= m.index < len(review.turns):
                # Nothing the board shows at once (a placement, a quiet step): say at least
                # what the engine thinks it cost; "played a2, b4, better d2, b4" alone left
                # a newcomer asking why it was a blunder (play-test).
                verdict = review.turns[m.index]
                let = (("chances", {"before": f"{verdict.before:.0%}", "after": f"{verdict.after:.0%}"}),)
            other = result.names[1 - m.side]
            played = _with_why(turn_text(m.played, locale), let, "coach.review", locale, player=other)
            moments.append(
                (
                    m.loss,
                    "- "
                    + t(
                        locale,
                        "coach.review.moment",
                        number=m.number,
                        player=m.player,
                        label=t(locale, f"coach.class.{m.label}"),
                        played=played,
                        best=_with_why(turn_text(m.best, locale), m.best_why, "coach.reason", locale),
                    ),
                )
            )
    after: list[str] = []
    slide = review.slide()
    if slide is not None and not any(
        m.side == slide.side and slide.first <= m.number <= slide.last for m in result.moments
    ):
        # No single turn of that side lost much there, yet its chances fell far: say where.
        # Said beside the key moments too: a newcomer's placements gave away five pieces
        # a little at a time while the key moments listed only the bot's inaccuracies,
        # and the review read as praise of a game lost 12 to 3 (fresh-eyes play-test).
        # The turns named are the chart's points (it draws the chances after each turn),
        # and a fall mostly at one turn is said to be so, not "a little at a time": a
        # review said "from 69% to 6% between turns 8 and 15" under a chart showing 50% at
        # turn 8 and one jump at turn 10 (newcomer play-test).
        # Beside that side's own key moments (outside the stretch), never "no single big
        # mistake": a review said so right after listing two of Alice's blunders (play-test).
        own = any(m.side == slide.side for m in result.moments)
        gradual = "coach.review.slide_also" if own else "coach.review.slide"
        after.append(
            t(
                locale,
                "coach.review.slide_sudden" if slide.sudden else gradual,
                name=result.names[slide.side],
                start=slide.start,
                last=slide.last,
                before=f"{slide.before:.0%}",
                after=f"{slide.after:.0%}",
                steep=slide.steep,
                steep_before=f"{slide.steep_before:.0%}",
                steep_after=f"{slide.steep_after:.0%}",
            )
        )
    elif not result.moments:
        after.append(t(locale, "coach.review.no_moments"))
    hints = [t(locale, "coach.review.hints", count=result.hints)] if result.hints else []
    return lines, notes, moments, after, hints


def puzzle_text(view: PuzzleView, locale: str) -> str:
    """The puzzle's heading and task."""
    head = "coach.puzzle.daily" if view.daily else "coach.puzzle.new"
    lines = [
        t(
            locale,
            head,
            day=view.day or "",
            id=view.puzzle_id,
            difficulty=view.difficulty,
            variant=variant_words(view.variant),
            size=view.size,
        ),
        t(locale, "coach.puzzle.task", color=t(locale, f"color.{COLOR_NAMES[view.side]}").capitalize()),
    ]
    if view.answered:
        lines.append(t(locale, "coach.puzzle.answered_before"))
    return "\n".join(lines)


def puzzle_answer_text(answer: PuzzleAnswer, locale: str) -> str:
    """Right, wrong, or why the answer could not be read; then the solution and rating."""
    if answer.refusal is not None:  # as a game says it: the rule, and the moves allowed
        return t(locale, "coach.answer.refused", why=answer.refusal)
    if answer.outcome in ("unreadable", "offboard", "half", "illegal", "empty"):
        return t(locale, f"coach.answer.{answer.outcome}", detail=answer.detail)
    if answer.outcome == "partial":
        return t(locale, "coach.puzzle.partial")
    lines = [
        _wrong_text(answer, locale) if answer.outcome == "wrong" else t(locale, f"coach.puzzle.{answer.outcome}"),
        t(locale, "coach.puzzle.solution", solution=turn_text(answer.solution, locale)),
    ]
    if answer.outcome == "wrong":
        lines.append(_why_text(answer, locale))
    if answer.rated:
        lines.append(
            t(
                locale,
                "coach.puzzle.rating",
                before=round(answer.rating_before),
                after=round(answer.rating_after),
                streak=answer.streak,
                best=answer.best_streak,
            )
        )
    else:
        lines.append(t(locale, "coach.puzzle.unrated"))
    return "\n".join(lines)


def _wrong_text(answer: PuzzleAnswer, locale: str) -> str:
    """ "Not this one", with what the answer visibly does wrong where the engine can tell
    cheaply: it takes nothing (or fewer) where the solution takes, and what it lets the opponent do
    at once, worded as a review's key moment (``coach.review.allows_*``)."""
    said = []
    if answer.captured < answer.solution_captures:
        # "e5-e4 took d4 and left c5": a capture, but not the puzzle's (re-check play-test)
        fewer = t(locale, "coach.puzzle.takes_fewer", count=answer.captured, best=answer.solution_captures)
        said.append(fewer if answer.captured else t(locale, "coach.puzzle.takes_nothing"))
    said += _phrases(answer.why, "coach.review", locale, player=t(locale, "coach.puzzle.opponent"))
    if not said:
        return t(locale, "coach.puzzle.wrong")
    return t(locale, "coach.puzzle.wrong_why", why=join(locale, said, "and"))


def solve_text(answer: PuzzleAnswer | LessonAnswer, locale: str) -> str:
    """``/seega solve``'s answer: what was answered (the puzzle by number, or the lesson),
    then the verdict as ``puzzle``'s and ``learn``'s own texts say it."""
    if isinstance(answer, LessonAnswer):
        return lesson_answer_text(answer, locale)  # its header is its own, as /move's
    head = t(locale, "coach.solve.daily" if answer.daily else "coach.solve.puzzle", id=answer.puzzle_id)
    return f"{head}\n{puzzle_answer_text(answer, locale)}"


def _why_text(answer: PuzzleAnswer, locale: str) -> str:
    """Why the solution beats a wrong answer, as far as playing it shows."""
    if answer.solution_wins:
        return t(locale, "coach.puzzle.why_win")
    if answer.solution_captures == 1:
        return t(locale, "coach.puzzle.why_capture_one")
    if answer.solution_captures > 1:
        return t(locale, "coach.puzzle.why_capture_many", count=answer.solution_captures)
    return t(locale, "coach.puzzle.why_quiet")


def puzzle_leaders_text(leaders: list[PuzzleLeader], locale: str) -> str:
    """The solvers' leaderboard."""
    if not leaders:
        return t(locale, "coach.puzzle.top_empty")
    lines = [f"**{t(locale, 'coach.puzzle.top_title')}**"]
    for rank, e in enumerate(leaders, 1):
        lines.append(
            t(
                locale,
                "coach.puzzle.top_line",
                rank=rank,
                name=player_name(Player(e.user_id, e.name), locale),  # "اللاعب 1" at an Arabic console
                rating=round(e.rating),
                solved=e.solved,
                failed=e.failed,
                streak=e.best_streak,
            )
        )
    return "\n".join(lines)


def lesson_text(view: LessonView, locale: str, text: str | None = None) -> str:
    """A lesson: title, the few sentences (``text``: an adapter's own wording of them,
    the console's without the button it has not), the task, how to answer, progress."""
    key = f"coach.learn.{view.lesson_id}"
    return "\n".join(
        [
            t(locale, "coach.learn.header", number=view.number, total=view.total, title=t(locale, f"{key}.title")),
            t(locale, f"{key}.text") if text is None else text,
            f"**{t(locale, f'{key}.task')}**",
            # a game of theirs here takes /place and /move (GameService.lesson_try)
            t(locale, "coach.learn.how_in_game" if view.game_here else "coach.learn.how", number=view.number),
            t(locale, "coach.learn.progress", done=view.done_count, total=view.total),
        ]
    )


def lesson_answer_text(answer: LessonAnswer, locale: str) -> str:
    """The answer to an exercise try, and what comes next, under the lesson's header.

    The header ("📘 Lesson 3") heads every answer, by ``/seega solve`` or by ``/move`` and
    ``/place``: those commands usually play a game, and it says the lesson answered
    (play-test: only solve's answers had it). The tick is added here, never by the words.
    """
    head = t(locale, "coach.solve.lesson", number=answer.number)
    if answer.refusal is not None:  # as a game says it: the rule, and the moves allowed
        return f"{head}\n" + t(locale, "coach.answer.refused", why=answer.refusal)
    lines = [head, ("✅ " if answer.solved else "") + t(locale, answer.key, detail=answer.detail)]
    if answer.solved:
        if answer.next_number is not None:
            lines.append(t(locale, "coach.learn.next", number=answer.next_number))
        elif answer.done_count == answer.total:
            lines.append(t(locale, "coach.learn.all_done"))
    return "\n".join(lines)
