"""The one error hierarchy of the engine.

Every error is a :class:`ValueError` (bad input is a value problem) and a
:class:`SeegaError`, so callers can catch either. Messages name the input that was
wrong, what is allowed instead, and the position when there is one.
"""

from __future__ import annotations


def quoted(text: str, limit: int = 120) -> str:
    """``repr(text)``, cut to about ``limit`` characters: messages name the input that was
    wrong, but a hostile megabyte must not become a megabyte of message (a chat message
    or a log line cannot hold it). A full 9x9 SPN fits whole."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[: limit - 3] + "...")


class SeegaError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidRulesError(SeegaError):
    """An unknown preset, an unknown option, or an option value out of range."""


class InvalidPositionError(SeegaError):
    """A malformed SPN: a syntax error, a board that does not match the size, or an
    impossible state."""


class InvalidActionError(SeegaError):
    """Action text that does not parse as an action at all (``"z9-q"``)."""


class IllegalActionError(SeegaError):
    """A well-formed action that the rules do not allow in the position."""


class GameOverError(IllegalActionError):
    """An action, or a request for the best action, in a finished game."""


class InvalidRecordError(SeegaError):
    """A game record (SGN) that does not parse or does not replay.

    Attributes:
        turn: the turn number of the first bad action, when the error is one.
    """

    def __init__(self, message: str, turn: int | None = None) -> None:
        super().__init__(message)
        self.turn = turn
