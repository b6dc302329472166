"""What a takeback against the bot takes back."""

from __future__ import annotations

from bot.service.takeback import takeback
from engine import BLACK, WHITE, Position

LAST_PAIR = "wbbbw/w1bwb/bb1ww/wbbbb/wbw1w w p 0/2 - 0 24"


def _played(spn: str | None, actions: list[str]) -> Position:
    pos = Position.from_spn(spn) if spn else Position()
    for a in actions:
        pos.play(a)
    return pos


def test_back_to_the_start_of_my_last_turn_with_the_bots_reply() -> None:
    pos = _played(None, ["a1", "b1", "a2", "b2", "a3", "b3"])  # black, white (me), black (the bot)
    back, taken = takeback(pos, WHITE)
    assert taken == 4  # the bot's pair a3 b3 and my pair a2 b2
    assert back.side == WHITE and back.turn == 2 and back.count(WHITE) == 0 and back.count(BLACK) == 2


def test_placement_pairs_go_back_one_pair_each() -> None:
    pos = _played(None, ["a1", "b1", "d1", "e1"])  # black's pair, white's pair; black to place
    back, taken = takeback(pos, BLACK)
    assert taken == 4 and back.turn == 1 and back.side == BLACK and back.count(BLACK) == 0
    back, taken = takeback(pos, WHITE)
    assert taken == 2 and back.turn == 2 and back.side == WHITE and back.count(WHITE) == 0


def test_a_chain_in_progress_goes_whole() -> None:
    pos = _played(LAST_PAIR, ["d1", "b4", "d3-c3", "c3-c2"])  # white mid-chain
    back, taken = takeback(pos, WHITE)
    assert taken == 2 and back.turn == 25 and back.side == WHITE
    assert back.count(BLACK) == 12  # both captures undone


def test_nothing_to_take_back_before_my_first_turn() -> None:
    pos = _played(None, ["a1", "b1"])
    back, taken = takeback(pos, WHITE)
    assert taken == 0 and back is pos
