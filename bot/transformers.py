"""Transformers: typed options for slash commands, with errors people can act on.

A cell typed as ``" B2 "`` arrives as ``"b2"``; anything else becomes a
:class:`CellError` (an ``AppCommandError``) that the error handler answers ephemerally in
the user's language. The board size is not known here, so a cell outside a 5x5 board is
left to the service, whose message names the legal cells.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.results import clip_typed
from bot.service.commands import (
    one_word,
    parse_move,
    rejoined_cells,
    split_chain_text,
    split_move_text,
    split_step_words,
)
from engine.board import ascii_typed

#: The shape of a cell on some board: a letter, then a number. Whether it is on the game's
#: board is the service's to say, with the board's own range ("'z9' is not a cell of this
#: 5x5 board; ... from a1 to e5"): "z9 is not a cell: a letter, then a number" was false.
_CELL_SHAPE = re.compile(r"^[a-z][0-9]{1,2}$")


class CellError(app_commands.AppCommandError):
    """A value that is not a cell name; ``value`` is what was typed."""

    def __init__(self, value: str) -> None:
        value = clip_typed(value)
        super().__init__(f"{value!r} is not a cell; cells are written like b2 (a letter, then a number)")
        self.value = value


def normalize_cell(text: str) -> str:
    """``" B2 "`` -> ``"b2"``; a letter and a number off every board (``" Z9 "``) too, for
    the service to refuse with the game's board in its message.

    Raises:
        ValueError: the text is not shaped like a cell name.
    """
    name = ascii_typed(text.strip().lower())
    if not _CELL_SHAPE.match(name):
        raise ValueError(f"{clip_typed(text)!r} is not a cell")
    return name


class CellTransformer(app_commands.Transformer):
    """A single cell name such as ``b2`` (``1a`` goes on to the service, which answers "did
    you mean a1?")."""

    async def transform(self, interaction: discord.Interaction, value: str) -> str:
        return _cell_for_the_service(ascii_typed(value))


def split_move(text: str) -> tuple[str, str] | None:
    """``"b2 c2"``, ``"b2-c2"``, ``"b2→c2"`` or ``"b2c2"`` -> ``("b2", "c2")``; ``None`` if
    it is not two cells (read as the service reads a step: :func:`split_move_text`)."""
    cells = split_move_text(text)
    if cells is None or cells[1] is None:
        return None
    return cells[0].lower(), cells[1].lower()


def _cell_for_the_service(value: str) -> str:
    """A cell, or a word shaped like one that the service names better, knowing the board
    (``1a``: "did you mean a1?"; ``j6``: off this board).

    Raises:
        CellError: the value is not shaped like a cell at all.
    """
    words = split_step_words(value)
    if words is not None and words[1] is None:
        return words[0].lower()
    meant = rejoined_cells(value)
    if meant is not None and len(meant) == 1:
        # "B 2" (a space inside the cell): the service answers "did you mean b2?" if the
        # game's board has it, as for /place first:"b 2" (play-test: refused without help)
        return " ".join(value.split())
    try:
        return normalize_cell(value)
    except ValueError:
        raise CellError(value) from None


class PlaceTransformer(app_commands.Transformer):
    """The ``first`` option of ``/place``: a cell, or both cells of the pair (``a1 b2``),
    as the console and ``/move``'s ``from`` read two cells in one option."""

    async def transform(self, interaction: discord.Interaction, value: str) -> str:
        value = ascii_typed(value)  # "a١،b٢": an Arabic keyboard's digits and comma
        both = split_move(value)
        if both is not None:
            return f"{both[0]} {both[1]}"
        if len(value) <= 40 and len(value.split()) > 1:
            # "a 1", "1a b1", "a1 b2 c3": the service reads the words and names what is
            # wrong with them on this board ("did you mean a1?"), as the console does.
            return " ".join(value.split())
        return _cell_for_the_service(value)


class MoveTransformer(app_commands.Transformer):
    """The ``from`` option of ``/move``: a cell, or a whole step (``b2 c2``, ``b2-c2``,
    ``b2 to c2``)."""

    async def transform(self, interaction: discord.Interaction, value: str) -> str:
        value = ascii_typed(value)  # "a١،b٢": an Arabic keyboard's digits and comma
        both = split_move(value)
        if both is not None:
            return f"{both[0]}-{both[1]}"
        chain = split_chain_text(value)
        if chain is not None:  # a chain of captures in one command: the service plays it whole
            return "-".join(chain)
        words = split_step_words(value)
        if words is not None and words[1] is not None:  # "d6 j6": the service names the cell off the board
            return f"{words[0]} {words[1]}"
        if one_word(value):
            return _cell_for_the_service(value)
        if rejoined_cells(value) is not None:
            # "a 1 b 1": the service suggests the cells meant if the game's board has them
            # ("i 9" on a 5x5 board is refused as off the board, not suggested)
            return value
        # A step the service cannot read ("d3 into c3", "b2 c"): its refusal names the
        # forms that work, in the user's language.
        parse_move(value, None)
        raise CellError(value)  # not reached: parse_move refuses what the readers above refused


Cell = app_commands.Transform[str, CellTransformer]
PlaceFirst = app_commands.Transform[str, PlaceTransformer]
MoveFrom = app_commands.Transform[str, MoveTransformer]
