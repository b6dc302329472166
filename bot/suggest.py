""" "Did you mean /place?": the closest known command to a mistyped one.

Pure and small so the console and the Discord adapter ask the same question of the same
list. A typo of one or two letters (``plcae``, ``mvoe``, ``resing``) finds its command;
a word that resembles nothing gets no suggestion rather than a wild guess.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

#: How alike a word must be to a command to be suggested (difflib's ratio, 0 to 1).
CUTOFF = 0.6


def did_you_mean(word: str, known: Iterable[str]) -> str | None:
    """The known command closest to ``word`` (compared without a leading ``/``), or ``None``.

    An exact match (any case) is returned as known; ``None`` when nothing is close.
    """
    typed = word.strip().lstrip("/").lower()
    if not typed or len(typed) > 64:  # a pasted paragraph is not a typo
        return None
    names = {name.lstrip("/").lower(): name for name in known}
    if typed in names:
        return names[typed]
    swapped = _transpositions(typed) & names.keys()
    if swapped:
        return names[min(swapped)]
    close = difflib.get_close_matches(typed, list(names), n=1, cutoff=CUTOFF)
    return names[close[0]] if close else None


def _transpositions(word: str) -> set[str]:
    """``word`` with each pair of neighbouring letters swapped (the commonest typo)."""
    return {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)}
