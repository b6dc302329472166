"""Game records (SGN, docs/rules.md section 7): tags, turns, result; written and read back.

Reading a record replays every action under its ruleset, so a record that reads is a
legal game; the first illegal action is reported with its turn number.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import NoReturn

from engine.actions import Action
from engine.errors import InvalidRecordError, SeegaError, quoted
from engine.numbers import parse_whole
from engine.outcome import REASONS, Outcome
from engine.position import Position
from engine.rules import Ruleset

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_TAG_NAME = re.compile(r"\w+")
_NUMBER = re.compile(r"^[0-9]+\.+")


@dataclass
class GameRecord:
    """A game as its ruleset, optional set-up position, turns and result.

    Attributes:
        rules: the ruleset (variant, size and options).
        turns: each turn's actions, in order.
        setup: the SPN the game started from, or ``None`` for the usual start.
        result: ``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` (still going).
        termination: the reason (``capture-all``, ``resignation``...) or ``None``.
        tags: other tags (``Black``, ``White``, ``Date``...), in order.
    """

    rules: Ruleset
    turns: list[list[Action]] = field(default_factory=list)
    setup: str | None = None
    result: str = "*"
    termination: str | None = None
    tags: dict[str, str] = field(default_factory=dict)

    def start(self) -> Position:
        """The position the game started from."""
        return Position.from_spn(self.setup, self.rules) if self.setup else Position(self.rules)

    def replay(self) -> Position:
        """The position after every turn, with its full move stack.

        Raises:
            InvalidRecordError: an action is illegal or a turn is split wrongly; the
                message and ``turn`` attribute give the turn number.
        """
        return self._replay(self.turns, followed=False)

    def _replay(self, turns: list[list[Action]], followed: bool) -> Position:
        """The position after ``turns`` from the start; ``followed``: more of the record
        comes after them, so the last turn too must be complete."""
        pos = self.start()
        last = len(turns) - 1
        for i, actions in enumerate(turns):
            number = pos.turn
            for action in actions:
                if pos.turn != number:
                    raise InvalidRecordError(f"turn {number}: the turn was over before {action}", number)
                try:
                    pos.play(action)
                except SeegaError as exc:
                    raise InvalidRecordError(f"turn {number}: {exc}", number) from None
            if pos.turn == number and (i < last or followed):
                raise InvalidRecordError(
                    f"turn {number}: the turn is not complete after {','.join(map(str, actions))}; "
                    f"{pos.explain_legal()}",
                    number,
                )
        return pos

    @classmethod
    def from_position(cls, pos: Position, setup: str | None = None, **tags: str) -> GameRecord:
        """The record of the actions pushed on ``pos`` since its start (``setup`` if read from SPN)."""
        start = Position.from_spn(setup, pos.rules) if setup else Position(pos.rules)
        turns: list[list[Action]] = []
        number = -1
        for action in pos.move_stack:
            if start.turn != number:
                turns.append([])
                number = start.turn
            turns[-1].append(action)
            start.push(action)
        outcome = pos.outcome()
        return cls(
            rules=pos.rules,
            turns=turns,
            setup=setup,
            result=outcome.result if outcome else "*",
            termination=outcome.reason if outcome else None,
            tags=dict(tags),
        )

    def to_sgn(self) -> str:
        """The record as SGN text."""
        tags = {"Variant": self.rules.variant, "Size": str(self.rules.size)}
        for name in ("Black", "White", "Date"):
            if name in self.tags:
                tags[name] = self.tags[name]
        tags["Result"] = self.result
        if self.termination:
            tags["Termination"] = self.termination
        if self.setup:
            tags["SetUp"] = self.setup
        options = self.rules.options_text()
        if options:
            tags["Options"] = options
        for name, value in self.tags.items():
            tags.setdefault(name, value)
        for name in tags:
            if not _TAG_NAME.fullmatch(name):
                raise InvalidRecordError(f"tag name {quoted(name, 40)} must be letters, digits or _ (like WhiteElo)")
        head = "\n".join(f'[{k} "{_escape(v)}"]' for k, v in tags.items())
        start_turn = self.start().turn if self.setup else 1
        words = [f"{start_turn + i}. {','.join(str(a) for a in actions)}" for i, actions in enumerate(self.turns)]
        words.append(self.result)
        lines, line = [], ""
        for word in words:
            if line and len(line) + 1 + len(word) > 79:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
        return f"{head}\n\n" + "\n".join(lines) + "\n"


#: Escapes with a letter; the characters of the categories in ``_CODED`` are written
#: as a backslash, ``u`` and four hex digits.
_NAMED = {"\\": "\\", '"': '"', "\n": "n", "\r": "r", "\t": "t"}
_UNNAMED = {letter: ch for ch, letter in _NAMED.items()}
#: Categories written with a hex code: control characters (including the separators
#: ``str.splitlines`` breaks lines on: U+001C-U+001E, U+0085), line and paragraph
#: separators (U+2028, U+2029) and lone surrogates. All lie in the BMP.
_CODED = ("Cc", "Zl", "Zp", "Cs")
_HEX = frozenset("0123456789abcdefABCDEF")


def _escape(value: str) -> str:
    """A tag value as it is written between the quotes: one line, nothing unescaped
    that the reader would take for syntax (see :func:`_unescape`)."""
    out = []
    for ch in value:
        if ch in _NAMED:
            out.append("\\" + _NAMED[ch])
        elif unicodedata.category(ch) in _CODED:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


def _unescape(text: str) -> str:
    """The value of a tag as read between its quotes; the inverse of :func:`_escape`.

    An unknown escape stands for its character (``\\x`` is ``x``), as older
    versions read every escape.
    """
    out = []
    i, end = 0, len(text)
    while i < end:
        ch = text[i]
        if ch != "\\" or i + 1 == end:
            out.append(ch)
            i += 1
            continue
        letter = text[i + 1]
        code = text[i + 2 : i + 6]
        if letter == "u" and len(code) == 4 and all(c in _HEX for c in code):
            out.append(chr(int(code, 16)))
            i += 6
            continue
        out.append(_UNNAMED.get(letter, letter))
        i += 2
    return "".join(out)


def _drop_comments(text: str) -> str:
    """The movetext with each ``{comment}`` replaced by a space (a ``{`` inside a comment
    is part of it), in one pass: a pattern like ``\\{[^}]*\\}`` retries from every ``{``
    and takes quadratic time on a run of unclosed braces.

    Raises:
        InvalidRecordError: a ``{`` without its ``}``, or a ``}`` outside a comment.
    """
    out: list[str] = []
    pos = 0
    while True:
        start = text.find("{", pos)
        stop = len(text) if start < 0 else start
        if text.find("}", pos, stop) >= 0:
            raise InvalidRecordError("a } outside a {comment} in the moves")
        if start < 0:
            out.append(text[pos:])
            return "".join(out)
        end = text.find("}", start + 1)
        if end < 0:
            raise InvalidRecordError("an unclosed {comment} in the moves")
        out.append(text[pos:start])
        out.append(" ")
        pos = end + 1


def read_sgn(text: str) -> GameRecord:
    """Parse SGN text and replay it.

    Raises:
        InvalidRecordError: a syntax error, an unknown variant or option, or an
            illegal action (with its turn number).
    """
    tags: dict[str, str] = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines) and (not lines[i].strip() or lines[i].lstrip().startswith("[")):
        line = lines[i].strip()
        if line:
            m = _TAG.match(line)
            if not m:
                raise InvalidRecordError(f'bad tag line {quoted(line, 80)}; tags are written [Name "value"]')
            tags[m.group(1)] = _unescape(m.group(2))
        i += 1
    movetext = _drop_comments("\n".join(lines[i:]))
    size: int | None = None
    if "Size" in tags:
        size = parse_whole(tags["Size"], 9)
        if size is None:
            raise InvalidRecordError(
                f"bad ruleset tags: Size {quoted(tags['Size'], 40)} must be 5, 7 or 9 (3 for modern-3x3)"
            )
    try:
        options = [o for o in tags.get("Options", "").split(",") if o.strip()]
        rules = Ruleset.make(tags.get("Variant", "standard"), size, options)
    except (SeegaError, ValueError) as exc:
        raise InvalidRecordError(f"bad ruleset tags: {exc}") from None
    result = tags.get("Result", "*")
    turns: list[list[Action]] = []
    token_result: str | None = None
    for token in movetext.split():
        if token_result is not None:
            _raise_after(record_of(rules, turns, tags), turns, f"{quoted(token, 40)} after the result {token_result}")
        if token in RESULTS:
            token_result = token
            continue
        token = _NUMBER.sub("", token)
        if not token:
            continue
        if "" in token.split(","):
            _raise_after(
                record_of(rules, turns, tags),
                turns,
                f"{quoted(token, 40)} has an empty action; a turn's actions are joined by ',' with nothing "
                "between them (a space or a {comment} inside a turn splits it in two)",
            )
        try:
            turns.append([Action.parse(a) for a in token.split(",")])
        except SeegaError as exc:
            _raise_after(record_of(rules, turns, tags), turns, str(exc))
    if token_result is not None:
        if "Result" in tags and tags["Result"] != token_result:
            raise InvalidRecordError(f"the Result tag {result} and the result {token_result} after the moves differ")
        result = token_result
    if result not in RESULTS:
        raise InvalidRecordError(f"result {quoted(result, 40)} must be one of {', '.join(RESULTS)}")
    record = record_of(rules, turns, tags)
    record.result = result
    pos = _replayed(record, turns, followed=False)
    outcome = pos.outcome()
    if outcome is not None and outcome.result != result:
        raise InvalidRecordError(f"the record says {result} but the game ended {outcome}")
    _check_termination(record.termination, outcome)
    return record


#: The tags :func:`read_sgn` turns into fields of the record rather than keeping.
_KNOWN_TAGS = frozenset({"Variant", "Size", "Options", "SetUp", "Result", "Termination"})

#: The reasons of docs/rules.md section 5 that end a game outside the rules: a record
#: whose replayed game the rules do not end may give one of these.
OUTSIDE_REASONS = ("agreement", "resignation", "timeout", "abandoned")


def record_of(rules: Ruleset, turns: list[list[Action]], tags: dict[str, str]) -> GameRecord:
    """The record of read ``tags`` and ``turns`` (result ``*`` until the caller sets it)."""
    return GameRecord(
        rules=rules,
        turns=turns,
        setup=tags.get("SetUp"),
        termination=tags.get("Termination"),
        tags={k: v for k, v in tags.items() if k not in _KNOWN_TAGS},
    )


def _replayed(record: GameRecord, turns: list[list[Action]], followed: bool) -> Position:
    """``record`` replayed through ``turns``; a bad set-up SPN is a record error too."""
    try:
        return record._replay(turns, followed)
    except SeegaError as exc:
        if isinstance(exc, InvalidRecordError):
            raise
        raise InvalidRecordError(f"bad SetUp: {exc}") from None


def _raise_after(record: GameRecord, turns: list[list[Action]], fault: str) -> NoReturn:
    """Report a syntax fault met after ``turns``, as rules.md section 7 asks for "the
    first illegal one with its turn number": an illegal action in an earlier turn comes
    first in the record, so the turns before the fault are replayed, and the fault is
    numbered by the game turn it falls in (a set-up may start at turn 20), not by its
    place among the record's tokens."""
    pos = _replayed(record, turns, followed=True)
    raise InvalidRecordError(f"turn {pos.turn}: {fault}", pos.turn)


def _check_termination(termination: str | None, outcome: Outcome | None) -> None:
    """``[Termination]`` must be a reason of docs/rules.md section 5, and agree with the
    replayed game: the rules' own reason if the rules ended it, else a reason outside
    the rules (resignation, agreement...)."""
    if termination is None:
        return
    if termination not in REASONS:
        raise InvalidRecordError(
            f"Termination {quoted(termination, 40)} is not a reason; reasons are {', '.join(REASONS)}"
        )
    if outcome is not None and termination != outcome.reason:
        raise InvalidRecordError(f"the record's Termination {termination} differs from the end of the game, {outcome}")
    if outcome is None and termination not in OUTSIDE_REASONS:
        raise InvalidRecordError(
            f"the record's Termination {termination} is an end under the rules, but the rules do not end this game; "
            f"a game they do not end ends by {', '.join(OUTSIDE_REASONS)}"
        )
