"""Glicko-2 ratings for games between people, through the ``glicko2`` package.

Each rated game is its own rating period for both players (the usual choice for
online play, where games are not batched into tournaments). The maths is the library's;
this module only maps stored rows to its ``Player`` objects and back.
"""

from __future__ import annotations

from dataclasses import replace

import glicko2  # type: ignore[import-untyped]  # the package ships no type hints

from bot.storage import RatingRow

#: A new player's rating, deviation and volatility (Glickman's defaults).
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOL = 0.06


def glicko2_update(
    rating: float, rd: float, vol: float, opponents: list[tuple[float, float, float]]
) -> tuple[float, float, float]:
    """One Glicko-2 rating period for one player.

    Args:
        rating, rd, vol: the player's values before the period.
        opponents: ``(rating, rd, score)`` per game, score 1 win, 0.5 draw, 0 loss.

    Returns:
        ``(rating, rd, vol)`` after the period.
    """
    player = glicko2.Player(rating=rating, rd=rd, vol=vol)
    if opponents:
        player.update_player([o[0] for o in opponents], [o[1] for o in opponents], [o[2] for o in opponents])
    else:
        player.did_not_compete()
    return float(player.rating), float(player.rd), float(player.vol)


def rate_game(black: RatingRow, white: RatingRow, black_score: float) -> tuple[RatingRow, RatingRow]:
    """New rows for both players of one game (``black_score``: 1, 0.5 or 0).

    Both updates use the opponent's rating *before* the game, as Glicko-2 requires.
    """
    white_score = 1.0 - black_score
    b = glicko2_update(black.rating, black.rd, black.vol, [(white.rating, white.rd, black_score)])
    w = glicko2_update(white.rating, white.rd, white.vol, [(black.rating, black.rd, white_score)])
    return _after(black, b, black_score), _after(white, w, white_score)


def _after(row: RatingRow, new: tuple[float, float, float], score: float) -> RatingRow:
    return replace(
        row,
        rating=new[0],
        rd=new[1],
        vol=new[2],
        games=row.games + 1,
        wins=row.wins + (score == 1.0),
        losses=row.losses + (score == 0.0),
        draws=row.draws + (score == 0.5),
    )
