"""Shared by the coach's use cases: a stored game as a ruleset, a position, a record, a job."""

from __future__ import annotations

from bot.service.loaded import replay
from bot.storage import GameRow
from engine.coach.review import AnalysisJob
from engine.position import START, Position
from engine.record import GameRecord
from engine.rules import Ruleset, format_value


def rules_of(row: GameRow) -> Ruleset:
    """The game's ruleset."""
    return Ruleset.make(row.variant, row.size, [o for o in row.options.split(",") if o])


def position_of(row: GameRow) -> Position:
    """The position the stored game reaches (shuttle history included)."""
    return replay(row)


def record_of(row: GameRow) -> GameRecord:
    """The game's record (turns grouped as the rules group them)."""
    return GameRecord.from_position(position_of(row), setup=row.setup)


def whole_turns(row: GameRow) -> GameRecord:
    """The game's record without a turn left half done (the first cell of a pair, a
    chain not ended): a game cancelled there was reviewed as if the half were the whole
    turn ("a1" alone, "best": outside review, stop 39)."""
    record = record_of(row)
    pos = position_of(row)
    if pos.result is None and pos.state != START and pos.phase != "r" and record.turns:
        record.turns = record.turns[:-1]
    return record


def job_for(row: GameRow, actions: tuple[str, ...], max_nodes: int, played: tuple[str, ...] = ()) -> AnalysisJob:
    """A picklable analysis of the game's position after ``actions`` (and of ``played`` from it)."""
    rules = rules_of(row)
    options = tuple(f"{k}={format_value(v)}" for k, v in sorted(rules.overrides().items()))
    return AnalysisJob(rules.variant, rules.size, options, row.setup, actions, max_nodes, played)


def is_practice(row: GameRow) -> bool:
    """A game against the bot, or one person playing both sides: never rated, hints allowed."""
    return row.black_level is not None or row.white_level is not None or row.black_id == row.white_id
