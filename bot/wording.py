"""Sentences about games, written once for every adapter: the Discord messages and the console.

Pure functions of the service's results and a language code (``en``, ``ar``); the words
themselves are templates in ``bot/locale`` (see :mod:`bot.texts`). Discord wraps these
lines in embeds with bold cells and stones; the console prints them as they are.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from bot import explain
from bot.explain.endings import end_line
from bot.explain.rules import differences as explain_differences
from bot.explain.rules import rules_lines as explain_rules
from bot.explain.rules import sizes_text
from bot.results import GameOver, GameSummary, GameView, GuildSettings, Player, TurnEvent, TurnResult
from bot.results import player_name as player_name  # re-exported: the messages name players through wording
from bot.service.catalog import SIZES, VARIANT_SIZES, rules_for, rules_sizes
from bot.texts import text
from bot.timeparse import format_duration
from engine import BLACK, WHITE, Outcome, Position, Ruleset
from engine.coach.lessons import LESSONS


def plain(cell: str) -> str:
    return cell


def bold(cell: str) -> str:
    """A cell in Discord markdown bold."""
    return f"**{cell}**"


def event_line(who: str, event: TurnEvent, lang: str, mark: Callable[[str], str] = plain) -> str:
    """``who: what the event did`` (``who`` alone if it did nothing to say). A pass played
    for the player is one sentence with its subject, "⚫ Bob is walled in (no piece can
    step) and passes": play-test, "⚫ Bob: passes: walled in, ..." had two colons."""
    what = event_text(event, lang, mark)
    if not what:
        return who
    return f"{who} {what}" if event.note is not None else f"{who}: {what}"


#: Walled-in passes played for a person in one bot reply from which it says what they can do.
WALLED_ADVICE_AFTER = 3


def walled_advice(result: TurnResult, lang: str) -> str:
    """What a person walled in for several bot turns can do (offer an end by count, or
    resign), said once per reply; ``""`` otherwise. Play-test pt40b: a reply read "is
    walled in and passes" three times and nothing more."""
    game = result.game
    walled = [
        e for e in result.events if not e.player.is_bot and e.note is not None and e.note[0] == "explain.pass.walled"
    ]
    bot_game = game.black.is_bot or game.white.is_bot
    if not bot_game or len(walled) < WALLED_ADVICE_AFTER or result.game_over is not None:
        return ""
    return text(lang, "explain.pass.walled_advice")


def event_text(event: TurnEvent, lang: str, mark: Callable[[str], str] = plain) -> str:
    """What an event did, in the order played: placements, each step with what it took,
    removals, a pass (with its reason when the service played it), a chain's end."""
    if event.note is not None:
        return explain.word(lang, event.note)
    summary = event.summary
    names = summary_cell_names(event)
    # The language's comma and semicolon (Arabic has its own, "،" and "؛").
    comma, semicolon = text(lang, "explain.sep"), text(lang, "explain.sep_clauses")
    parts: list[str] = []
    if event.placed:
        parts.append(text(lang, "turn.placed", cells=comma.join(mark(c) for c in event.placed)))
    if event.replaced:
        enemy = "white" if event.color == "black" else "black"
        parts.append(text(lang, f"turn.replaced.{enemy}", cells=comma.join(mark(c) for c in event.replaced)))
    steps: list[str] = []
    for action, took in zip(summary.actions, summary.took or [()] * len(summary.actions), strict=True):
        notation = str(action)
        if "-" not in notation:
            continue
        step = mark(notation.replace("-", "→"))
        if took:
            cells = comma.join(mark(names[c]) for c in took)
            step = text(lang, "explain.turn.took", step=step, cells=cells)
        steps.append(step)
    if steps:
        parts.append(text(lang, "turn.moved", steps=comma.join(steps)))
    if event.removed:
        parts.append(text(lang, "turn.removed", cells=comma.join(mark(c) for c in event.removed)))
    if "pass" in event.actions:
        parts.append(text(lang, "turn.passed"))
    if event.aside is not None:
        parts.append(explain.word(lang, event.aside))
    if "end" in event.actions:
        # "then stopped" follows the steps of the same line; alone (an end-turn typed after
        # the chain's steps, a bot's chain told step by step) it began with "then" after
        # nothing (console newcomer finding)
        parts.append(text(lang, "turn.ended_chain" if parts else "turn.ended_chain_alone"))
    return semicolon.join(parts)


def summary_cell_names(event: TurnEvent) -> list[str]:
    """Cell names of the event's board, by bit index (the summary speaks in bit indexes)."""
    n = round(len(event.spn.split()[0].split("/")))
    return [f"{'abcdefghi'[i % n]}{i // n + 1}" for i in range(n * n)]


def movement_begins(result: TurnResult, lang: str, name: Callable[[Player], str] | None = None) -> str:
    """ "All pieces are placed: the movement phase begins; Bob moves first." when the
    result's placements ended the placement phase, else ``""`` (a newcomer does not
    guess that /place now refuses and /move is the command). ``name``: how a player is
    called (default their name; the console says "White (you)")."""
    game = result.game
    # Phase "r": the movement phase began with a removal due (a side walled in by the
    # last placements or by the first step); the turn line then says what to remove.
    if result.game_over is not None or game.phase not in ("m", "r") or result.to_move is None:
        return ""
    events = result.events
    placing = [i for i, e in enumerate(events) if e.placed]
    if not placing:
        return ""
    called = name or (lambda p: player_name(p, lang))
    # After the last placement: passes played for a blocked player, maybe the bot's first steps.
    after = events[placing[-1] + 1 :]
    stepped = [e for e in after if e.summary.steps]
    # The first mover walled in by the last placements passes at once: saying only that
    # the other side "moves first" contradicted the rule just learnt (console play-test).
    walled = after[0].player if after and "pass" in after[0].actions else None
    if walled is not None:
        key = "explain.movement_began_walled" if stepped else "explain.movement_begins_walled"
        mover = stepped[0].player if stepped else result.to_move
        said = text(lang, key, first=called(walled), name=called(mover))
    elif not stepped and game.phase == "r" and _rules(game).blocked != "remove-by-blocked":
        # The first mover is walled in by the last placements and its opponent removes a
        # piece first (capture-one, remove-by-opponent): "Black moves first" named the
        # remover (console play-test, seejeh 7x7). Under remove-by-blocked the walled-in
        # first mover removes, then steps: it does move first, as the line below says.
        first = game.white if result.to_move == game.black else game.black
        said = text(lang, "explain.movement_begins_removal", first=called(first), name=called(result.to_move))
    elif not stepped:
        said = text(lang, "explain.movement_begins", name=called(result.to_move))
    else:
        said = text(lang, "explain.movement_began", name=called(stepped[0].player))
    # A step is the command to learn now, whoever moves first (the console play-test of
    # stop 35: "White (you) moves first" and nothing said how); a due removal is spelt
    # out by the turn line instead.
    if game.phase != "m":
        return said
    step = example(result.legal, "step") if not result.to_move.is_bot else None
    how = text(lang, "explain.how.step_now", example=step) if step else text(lang, "explain.how.step_now_plain")
    return f"{said} {how}"


def chain_pieces(legal: Sequence[str]) -> list[str]:
    """The cells of the pieces that may capture again in a chain, in the order of the
    legal steps: one under ``chain=same`` (every step leaves from the piece that just
    captured: a newcomer had to guess which piece the chain was about), any that can
    capture under ``chain=any`` (naming only the first named a piece that had not
    captured, and was not the one the player went on with: console play-test)."""
    return list(dict.fromkeys(a.split("-")[0] for a in legal if a.count("-") == 1))


def chain_prompt(legal: Sequence[str], lang: str, key: str) -> str:
    """``key`` (a chain's prompt, ``turn.chain_hint`` or ``console.chain_pending``)
    naming the piece that may go on, or its ``_many`` form naming every piece that may."""
    pieces = chain_pieces(legal)
    if len(pieces) > 1:
        return text(lang, f"{key}_many", cells=pieces)
    return text(lang, key, cell=pieces[0] if pieces else "?")


#: A cell's name (a placement's action).
_CELL = re.compile(r"[a-i][1-9]")


def example(legal: Sequence[str], kind: str) -> str | None:
    """The cells of a command that can be typed as it is now, taken from the legal
    actions: ``"b4 c4"`` for a step, two cells for a pair, one for a single placement;
    ``None`` when the actions hold none.

    A fixed example ("like /move b2 c2") was refused when a newcomer typed it: b2 was
    empty, or the opponent's (stop 35's fresh-eyes play-test, three games of three).
    """
    if kind == "step":
        step = next((a for a in legal if a.count("-") == 1), None)
        return step.replace("-", " ") if step else None
    cells = [a for a in legal if _CELL.fullmatch(a)]
    if not cells:
        return None
    return f"{cells[0]} {cells[-1]}" if kind == "pair" and len(cells) > 1 else cells[0]


def mid_pair(game: GameView) -> bool:
    """Whether the side to place has placed the first piece of its pair this turn (the
    SPN's fifth field counts the turn's actions done): a newcomer who typed one cell
    needs to be told the turn is not over."""
    fields = game.spn.split()
    return game.phase == "p" and len(fields) > 4 and fields[4] != "-"


def placing_help(game: GameView, legal: Sequence[str], lang: str) -> str | None:
    """How to place now, said where a person learns it on Discord: on their first
    placement turn, on the first turn of single placements (``two-then-one``), and after
    the first piece of a pair (the turn is not over); ``None`` on the other turns, whose
    picture says "to place 2" to someone who has placed before.

    The Discord play-test found the first turn said only "your turn (⚫)": the command to
    type was in the picture's rules line for the opening of the lane rule, nowhere else.
    """
    if game.phase != "p" or game.to_move is None:
        return None
    if mid_pair(game):
        return text(lang, "explain.how.place_second", example=example(legal, "one"))
    rules = _rules(game)
    held = game.hand[0 if game.to_move == game.black else 1]
    if rules.placement == "singles":
        return text(lang, "explain.how.place_one", example=example(legal, "one")) if held == rules.pieces else None
    if rules.placement == "pairs-then-singles" and held == rules.pieces - 2:
        return text(lang, "explain.how.place_one_now", example=example(legal, "one"))
    if held == rules.pieces:
        return text(lang, "explain.how.place", example=example(legal, "pair"))
    return None


def end_offer_explained(
    game: GameView, result: str, user_id: int, lang: str, name: Callable[[Player], str] | None = None
) -> str:
    """What an offer to end by count means, with what it would give now, said to the
    player about to send it ("Now 5 black, 4 white: Alice would win. If Bob accepts...").
    ``name``: how a player is called (default their name; the console against the bot
    says "Black (you)", as on every other line, not the table's "Player 1")."""
    called = name or (lambda p: player_name(p, lang))
    if result == "1/2-1/2":
        verdict = text(lang, "offer.verdict.draw")
    else:
        winner = game.black if result == "1-0" else game.white
        verdict = text(lang, "offer.verdict.win", name=called(winner))
    opponent = game.white if game.color_of(user_id) == "black" else game.black
    key = "offer.explain.bot" if opponent.is_bot else "offer.explain.people"
    black, white = game.pieces
    return text(lang, key, black=black, white=white, verdict=verdict, opponent=player_name(opponent, lang))


def turn_number(event: TurnEvent, lang: str) -> str:
    """``"Turn 25"``: the turn the event was played in (a reply may span two turns)."""
    return text(lang, "explain.turn.number", turn=event.summary.turn)


def resign_ahead(game: GameView, color: str | None, lang: str, name: str | None = None) -> str:
    """What the resign question adds when the resigner has more pieces on the board ("",
    when they have not, or while pieces are still placed): resigning loses whatever the
    count. Console play-test: a newcomer ahead 12 to 9 resigned a stuck game, and nothing
    said that ending by count (``/seega offer-end``) would have won it. ``name``: the
    resigner as the hot seat names them (two people at one keyboard), else "you"."""
    if color is None or game.phase == "p" or game.status != "active":
        return ""
    mine, theirs = game.pieces if color == "black" else (game.pieces[1], game.pieces[0])
    if mine <= theirs:
        return ""
    if name is None:
        return text(lang, "resign.ahead", mine=mine, theirs=theirs)
    return text(lang, "resign.ahead.named", name=name, mine=mine, theirs=theirs)


def game_over_text(over: GameOver, lang: str, game: GameView | None = None, you: Player | None = None) -> str:
    """The end of the game in a sentence: who won and why, with the numbers that decided it
    ("Seega bot (easy) wins: 100 turns without a capture, 11 pieces to your 4.").

    Args:
        over: how the game ended.
        lang: the reader's language.
        game: the game at its end (its final position gives the counts); without it, the
            short form "Alice wins (resignation)".
        you: the player reading, to say "you" (the console; never a channel message).
    """
    if over.reason == "cancelled" or over.result == "*":
        if over.cancelled_by:
            return text(lang, "over.cancelled_by", moderator=over.cancelled_by)
        return text(lang, "over.cancelled")
    if game is None:
        reason = text(lang, f"reason.{over.reason}")
        if over.winner is None:
            return text(lang, "over.draw", reason=reason)
        return text(lang, "over.win", winner=player_name(over.winner, lang), reason=reason)
    return _ending(over.result, over.reason, game, lang, you, by_count=over.by_count)


def _rules(game: GameView | GameSummary) -> Ruleset:
    """The game's ruleset, read from its row's fields."""
    return Ruleset.make(game.variant, game.size, [o for o in game.options.split(",") if o])


def _position(game: GameView | GameSummary) -> Position:
    """The game's current (or final) position, read from its row's fields."""
    return Position.from_spn(game.spn, _rules(game))


def task_text(game: GameView, lang: str) -> str | None:
    """What the side to act must do when the rules ask for more than a free placement or
    a step, said to that side: a removal, with why, whose piece and the cells ("White
    cannot step, so you take one of its pieces: /remove one of a5, c5, d1"), a
    five-in-a-row replacement, with what it does and the cells, or the cells an opening
    rule leaves (:attr:`GameView.task`, made by the service from the position with its
    shuttle history). ``None`` otherwise."""
    return None if game.task is None else explain.word(lang, game.task)


def _ending(
    result: str,
    reason: str,
    game: GameView | GameSummary,
    lang: str,
    you: Player | None = None,
    *,
    by_count: bool = False,
) -> str:
    """The end sentence of ``game`` (its final position gives the numbers)."""
    position = _position(game)
    names = (player_name(game.black, lang), player_name(game.white, lang))
    outcome = Outcome.from_result(result, reason)
    reader = None if you is None else (BLACK if you == game.black else WHITE if you == game.white else None)
    return explain.word(lang, end_line(outcome, position, names, reader, by_count=by_count))


def ending_text(game: GameSummary | GameView, lang: str, you: Player | None = None) -> str:
    """How a game of a list ended, in words ("Bob wins: Alice resigned."), or its status
    ("in progress", "cancelled") when it has no result to explain; ``you``: the reader,
    when the list speaks to one player (the console against the bot)."""
    if game.status != "finished" or game.result not in ("1-0", "0-1", "1/2-1/2") or not game.spn:
        return text(lang, f"status.{game.status}")
    try:
        return _ending(game.result, game.reason or "abandoned", game, lang, you)
    except Exception:  # an old row whose position no longer reads: the short form
        reason = text(lang, f"reason.{game.reason}")
        if game.result == "1/2-1/2":
            return text(lang, "over.draw", reason=reason)
        winner = game.black if game.result == "1-0" else game.white
        return text(lang, "over.win", winner=player_name(winner, lang), reason=reason)


def differences_lines(variant: str, lang: str, size: int | None = None) -> list[str]:
    """How ``variant`` differs from standard (on a board of ``size``, else the smallest it is
    shown on), as lines of its own rules text (:func:`bot.explain.rules.differences`), the
    header first; empty for standard. At the top of its rules and at a game's start."""
    rules = rules_for(variant)
    if size is not None and size != rules.size:
        rules = Ruleset.make(rules.variant, size)
    lines = explain_differences(rules, rules_sizes(rules.variant))
    if not lines:
        return []
    return [text(lang, "explain.rules.differs"), *(explain.word(lang, line) for line in lines)]


def differences_text(variant: str, lang: str, size: int | None = None, bullet: str = "• ") -> str:
    """:func:`differences_lines` as one block (the header, then a line per difference), or
    ``""`` for standard: said when a game of a variant starts (console and Discord)."""
    lines = differences_lines(variant, lang, size)
    return "\n".join([lines[0], *(bullet + line for line in lines[1:])]) if lines else ""


def rules_lines(variant: str, lang: str) -> list[str]:
    """The rules of an offered preset, generated from its :class:`~engine.Ruleset` by
    :mod:`bot.explain.rules` (one source for Discord and the console, both languages)."""
    rules = rules_for(variant)
    lines = explain_rules(rules, rules_sizes(rules.variant))
    if rules.variant not in VARIANT_SIZES:
        # Shown, as docs/rules.md lists it, but not played here: no "play with /place".
        lines[-1] = (
            "explain.rules.not_offered",
            {"sizes": sizes_text(rules_sizes(rules.variant)), "offered": sizes_text(SIZES)},
        )
    else:
        # Last, for a newcomer: where to learn and how to start (play-test: the rules
        # never named /seega learn).
        lines.append(("explain.rules.learn", {"count": len(LESSONS)}))
    return [explain.word(lang, line) for line in lines]


#: The settings of ``/seega settings``, by the option names people type, in the order shown.
SETTINGS = ("turn_timeout", "challenge_timeout", "default_variant", "hints")


def setting_value(settings: GuildSettings, name: str, lang: str) -> str:
    """One setting's value as a reader reads it: ``1h``, ``standard``, ``3``, or "off" for no hints."""
    if name == "hints":
        return str(settings.hints) if settings.hints else text(lang, "settings.hints_off")
    if name == "default_variant":
        return settings.default_variant
    return format_duration(settings.turn_timeout if name == "turn_timeout" else settings.challenge_timeout, lang)


def setting_label(name: str, lang: str) -> str:
    """A setting's name in words, with the option people type: "Time per turn (turn_timeout)"."""
    return text(lang, "settings.name", label=text(lang, f"settings.label.{name}"), option=name)


def settings_items(settings: GuildSettings, lang: str) -> list[tuple[str, str]]:
    """``(label, value)`` of every setting, in :data:`SETTINGS` order."""
    return [(setting_label(name, lang), setting_value(settings, name, lang)) for name in SETTINGS]


def settings_change_text(before: GuildSettings, after: GuildSettings, lang: str) -> str:
    """What a change did: each setting changed, old value to new; or that nothing changed."""
    changed = [
        text(
            lang,
            "settings.change",
            label=text(lang, f"settings.label.{name}"),
            before=setting_value(before, name, lang),
            after=setting_value(after, name, lang),
        )
        for name in SETTINGS
        if setting_value(before, name, lang) != setting_value(after, name, lang)
    ]
    if not changed:
        return text(lang, "settings.unchanged")
    said = text(lang, "settings.changed", changes=text(lang, "explain.sep_clauses").join(changed))
    if setting_value(before, "turn_timeout", lang) != setting_value(after, "turn_timeout", lang):
        # Games keep the time they started with: a moderator who changes it must not
        # believe a running game's clock changed (nor that a player's was shortened).
        said += "\n" + text(lang, "settings.turn_timeout_new_games")
    return said
