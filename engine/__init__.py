"""Seega: the rules of the Egyptian board game, its notation, records and AI.

A pure library: no I/O, no asyncio, nothing outside the standard library. The rules,
the variants, the notation (SPN, SGN) and the command line are specified in
``docs/rules.md``; where it is silent, ``docs/rules-decisions.md`` says what the engine does.

>>> from engine import Position, Ruleset
>>> pos = Position(Ruleset.make("standard", 5))
>>> pos.play("a1"); pos.play("b1")
Action.parse('a1')
Action.parse('b1')
>>> pos.spn()
'5/5/5/5/bb3 w p 10/12 - 0 2'
"""

from engine.actions import Action
from engine.board import cell_name, geometry, parse_cell
from engine.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidPositionError,
    InvalidRecordError,
    InvalidRulesError,
    SeegaError,
)
from engine.notation import board_text, read_spn, write_spn
from engine.outcome import BLACK, COLOR_NAMES, REASONS, WHITE, Outcome
from engine.position import Position
from engine.record import GameRecord, read_sgn
from engine.rules import OPTION_NAMES, PRESETS, STANDARD, Ruleset

__all__ = [
    "Action",
    "BLACK",
    "COLOR_NAMES",
    "GameOverError",
    "GameRecord",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidPositionError",
    "InvalidRecordError",
    "InvalidRulesError",
    "OPTION_NAMES",
    "Outcome",
    "PRESETS",
    "Position",
    "REASONS",
    "Ruleset",
    "STANDARD",
    "SeegaError",
    "WHITE",
    "board_text",
    "cell_name",
    "geometry",
    "parse_cell",
    "read_sgn",
    "read_spn",
    "write_spn",
]
