"""The offers a game holds, in its one ``end_offer`` column: which is pending, who was declined.

A game has at most one pending offer, either to end by count (the barrier rule) or a
draw; and it remembers a declined draw so the same player cannot offer it again until
they have played a turn (an offer is a question, not a way to nag); a declined offer to
end by count likewise (``countdeclined``), and an offer its offerer withdrew
(``withdrawn``, ``countwithdrawn``): each offer notifies the opponent. The column holds space-separated
``kind:colour`` words, e.g. ``draw:black`` or ``declined:white``; a bare colour
(``black``, what older versions stored) is an offer to end by count.
"""

from __future__ import annotations

#: An offer to end by count (more pieces wins, equal draws).
COUNT = "count"
#: An offer of a draw by agreement (½-½ whatever the count).
DRAW = "draw"
#: A draw offered by this colour was declined: it may not offer another before its next turn.
DECLINED = "declined"
#: An offer to end by count made by this colour was declined: not again before its next turn.
COUNT_DECLINED = "countdeclined"
#: A draw offer this colour withdrew: not again before its next turn either (an offer
#: notifies the opponent: offer, withdraw, offer again was a way to ping them at will).
WITHDRAWN = "withdrawn"
#: An offer to end by count this colour withdrew: not again before its next turn.
COUNT_WITHDRAWN = "countwithdrawn"
_PENDING = (COUNT, DRAW)
_DECLINES = (DECLINED, COUNT_DECLINED, WITHDRAWN, COUNT_WITHDRAWN)


def _decline_mark(kind: str, withdrawn: bool = False) -> str:
    if withdrawn:
        return COUNT_WITHDRAWN if kind == COUNT else WITHDRAWN
    return COUNT_DECLINED if kind == COUNT else DECLINED


def _words(value: str | None) -> list[tuple[str, str]]:
    out = []
    for word in (value or "").split():
        kind, sep, color = word.partition(":")
        out.append((kind, color) if sep else (COUNT, kind))
    return out


def _join(words: list[tuple[str, str]]) -> str | None:
    return " ".join(f"{k}:{c}" for k, c in words) or None


def pending(value: str | None) -> tuple[str, str] | None:
    """The pending offer as ``(kind, colour of who offered)``, or ``None``."""
    return next(((k, c) for k, c in _words(value) if k in _PENDING), None)


def offered_by(value: str | None, kind: str) -> str | None:
    """The colour with a pending offer of ``kind``, or ``None``."""
    offer = pending(value)
    return offer[1] if offer is not None and offer[0] == kind else None


def was_declined(value: str | None, color: str, kind: str = DRAW, *, withdrawn: bool = False) -> bool:
    """Whether ``color``'s offer of ``kind`` was declined (``withdrawn``: withdrawn by
    ``color``) and it has not played a turn since."""
    return (_decline_mark(kind, withdrawn), color) in _words(value)


def with_offer(value: str | None, kind: str, color: str) -> str | None:
    """``value`` with ``color``'s offer of ``kind`` as the one pending offer."""
    return _join([w for w in _words(value) if w[0] not in _PENDING] + [(kind, color)])


def declined(value: str | None, color: str, kind: str = DRAW, *, withdrawn: bool = False) -> str | None:
    """``value`` once ``color``'s pending offer of ``kind`` is declined, or withdrawn by
    ``color`` (``withdrawn``): remembered until its next turn."""
    mark = _decline_mark(kind, withdrawn)
    kept = [w for w in _words(value) if w[0] not in _PENDING and w != (mark, color)]
    return _join([*kept, (mark, color)])


def after_turn(value: str | None, mover: str) -> str | None:
    """``value`` once ``mover`` has completed a turn: an offer ``mover`` did not make lapses
    (playing on answers it), and ``mover`` may offer a draw again."""
    return _join(
        [(k, c) for k, c in _words(value) if (k in _PENDING and c == mover) or (k in _DECLINES and c != mover)]
    )


def without_pending(value: str | None) -> str | None:
    """``value`` with no pending offer (a takeback or its offerer withdraws it) but the
    declines kept, so taking a turn back is no way around "not again before your next turn"."""
    return _join([w for w in _words(value) if w[0] in _DECLINES])
