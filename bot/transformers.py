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
from bot.service.commands import split_chain_text
from engine import parse_cell
from engine.errors import InvalidActionError

_CELL = re.compile(r"^[a-i][1-9]$")


class CellError(app_commands.AppCommandError):
    """A value that is not a cell name; ``value`` is what was typed."""

    def __init__(self, value: str) -> None:
        value = clip_typed(value)
        super().__init__(f"{value!r} is not a cell; cells are written like b2 (a letter, then a number)")
        self.value = value


def normalize_cell(text: str) -> str:
    """``" B2 "`` -> ``"b2"``.

    Raises:
        ValueError: the text is not a cell name.
    """
    name = text.strip().lower()
    if not _CELL.match(name):
        raise ValueError(f"{clip_typed(text)!r} is not a cell")
    try:
        parse_cell(name)
    except InvalidActionError as exc:  # the engine is the authority on names
        raise ValueError(str(exc)) from None
    return name


class CellTransformer(app_commands.Transformer):
    """A single cell name such as ``b2``."""

    async def transform(self, interaction: discord.Interaction, value: str) -> str:
        try:
            return normalize_cell(value)
        except ValueError:
            raise CellError(value) from None


def split_move(text: str) -> tuple[str, str] | None:
    """``"b2 c2"``, ``"b2-c2"`` or ``"b2c2"`` -> ``("b2", "c2")``; ``None`` if it is not two cells."""
    parts = [p for p in re.split(r"[\s\-–>,]+", text.strip().lower()) if p]
    if len(parts) == 1 and len(parts[0]) == 4:
        parts = [parts[0][:2], parts[0][2:]]
    if len(parts) != 2:
        return None
    try:
        return normalize_cell(parts[0]), normalize_cell(parts[1])
    except ValueError:
        return None


class MoveTransformer(app_commands.Transformer):
    """The ``from`` option of ``/move``: a cell, or a whole step (``b2 c2``, ``b2-c2``)."""

    async def transform(self, interaction: discord.Interaction, value: str) -> str:
        both = split_move(value)
        if both is not None:
            return f"{both[0]}-{both[1]}"
        chain = split_chain_text(value)
        if chain is not None:  # a chain of captures in one command: the service plays it whole
            return "-".join(chain)
        try:
            return normalize_cell(value)
        except ValueError:
            raise CellError(value) from None


Cell = app_commands.Transform[str, CellTransformer]
MoveFrom = app_commands.Transform[str, MoveTransformer]
