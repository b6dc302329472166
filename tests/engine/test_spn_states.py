"""docs/rules.md section 7: an SPN stating something no game reaches is malformed.

Review atk41b, finding 3: these were read and given legal actions (replacements under
``standard``, steps under ``five-in-a-row``, removals when nobody was blocked or by the
wrong side). docs/rules-decisions.md 2 lists the checks; each refusal below names what
is wrong and what is allowed, and each has an accepted neighbour that shows the line
is drawn where the rules draw it.
"""

from __future__ import annotations

import pytest

from engine import InvalidPositionError
from tests.engine.helpers import legal, play, position

IMPOSSIBLE = [
    # The phase must be one the rules have (sections 2 and 6).
    (
        "bwbwb/wbwbw/bw1wb/wbwbw/bwbwb b s 0/0 - 0 13",
        "standard",
        [],
        "phase s (replacement) needs after_placement=replace (five-in-a-row); these rules have phases p, m and r",
    ),
    (
        "bbw2/5/5/5/5 w m 0/0 - 0 13",
        "five-in-a-row",
        [],
        "phase m with after_placement=replace, which has no movement phase; its phases are p and s",
    ),
    ("bbw2/5/5/5/5 w r 0/0 - 0 13", "five-in-a-row", [], "phase r with after_placement=replace"),
    # Placement: the clock is 0, the centre stays empty, state 1 only inside a pair.
    ("5/5/5/5/5 b p 12/12 - 7 1", "standard", [], "clock 7 in phase p; the clock is 0 during placement"),
    (
        "5/5/2b2/5/5 w p 11/12 - 0 2",
        "standard",
        [],
        "a piece on the centre c3 in phase p; with place_centre=false the centre stays empty",
    ),
    (
        "5/5/5/5/b4 b p 11/12 1 0 1",
        "standard",
        ["placement=singles"],
        "state 1 (half a pair) with placement=singles; the state is -",
    ),
    (
        "5/5/5/5/5 b p 12/12 1 0 1",
        "standard",
        [],
        "state 1 (half a pair) but b has all 12 pieces in hand, so it has placed nothing",
    ),
    (
        "5/5/5/ww3/bbb2 b p 9/10 1 0 3",
        "two-then-one",
        [],
        "state 1 (half a pair) with placement=pairs-then-singles is possible only in a side's first turn "
        "(hand 11 after its first piece), not with hand 9",
    ),
    # Phase r only where the blocked rule makes the side to act remove (section 4).
    (
        "bw3/5/5/5/5 b r 0/0 - 0 20",
        "standard",
        [],
        "phase r, a removal due, yet under blocked=pass a removal is due only when both players are blocked",
    ),
    (
        "bw3/5/5/5/5 b r 0/0 - 0 20",
        "fouze",
        ["max_shuttles=0"],
        "the blocked player removes an enemy piece, so the side to act must be blocked, but black can step",
    ),
    (
        "5/5/5/b4/wb3 w r 0/0 - 3 20",  # White, the side to act, is the blocked one
        "lane",
        [],
        "the opponent of a blocked player removes, so the side not to act must be blocked, but black can step",
    ),
    ("bw3/5/5/5/2b1w b r 0/0 - 0 20", "seejeh", [], "so the side not to act must be blocked, but white can step"),
    (
        "bbbww/3bw/b1bww/3bw/bbbbb b r 0/0 b3 0 50",
        "aljaafreh",
        [],
        "under blocked=lose a removal is due only at turn 14 (the second mover's first movement turn), "
        "played by the first mover (black); this is turn 50",
    ),
    (
        "wwwbb/3wb/w1wbb/3wb/wwwww w r 0/0 b3 0 14",  # the colours swapped: White is not the first mover
        "aljaafreh",
        [],
        "played by the first mover (black); this is turn 14 with white to act",
    ),
    # A chain goes on only while a capturing step exists (section 3).
    ("5/5/5/5/b3w w m 0/0 e1 0 20", "standard", [], "a chain (state e1) needs a capturing step to continue with"),
    ("5/5/5/5/b3w w m 0/0 c 0 20", "standard", ["chain=any"], "a chain (state c) needs a capturing step"),
]


@pytest.mark.parametrize(("spn", "preset", "options", "message"), IMPOSSIBLE)
def test_an_impossible_state_is_refused_naming_what_is_wrong(
    spn: str, preset: str, options: list[str], message: str
) -> None:
    with pytest.raises(InvalidPositionError) as info:
        position(spn, preset, options)
    assert f"SPN '{spn}' is an impossible state: " in str(info.value)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("spn", "preset", "options", "actions"),
    [
        # five-in-a-row has the replacement phase: White's pieces are Black's to replace.
        ("bwbwb/wbwbw/bw1wb/wbwbw/bwbwb b s 0/0 - 0 13", "five-in-a-row", [], 12),
        # modern-3x3 places on the centre.
        ("3/1b1/3 w p 2/3 - 0 2", "modern-3x3", [], 8),
        # pairs-then-singles: the second piece of a side's first turn.
        ("5/5/5/5/b4 b p 11/12 1 0 1", "two-then-one", [], 23),
        # Unequal set-up hands under pairs: half a pair, whatever the counts.
        ("5/5/5/5/bbb2 b p 8/12 1 0 1", "standard", [], 21),
        # The lose exception at turn 14, removed by the first mover (review finding 2's position).
        ("bbbww/3bw/b1bww/3bw/bbbbb b r 0/0 b3 0 14", "aljaafreh", [], 2),
        # White blocked: Black, its opponent, removes one of its own pieces next to White.
        ("5/5/5/b4/wb3 b r 0/0 - 3 20", "lane", [], 2),
        # An SPN has no shuttle history, and a history can forbid a piece's one step (a5-a4):
        # so with a shuttle limit this removal may be due, and is not refused.
        ("bw3/5/5/5/5 b r 0/0 - 0 20", "fouze", [], 1),
    ],
)
def test_the_possible_neighbour_of_each_refusal_is_read(
    spn: str, preset: str, options: list[str], actions: int
) -> None:
    pos = position(spn, preset, options)
    assert pos.spn() == spn
    assert len(legal(pos)) == actions


@pytest.mark.parametrize(
    ("spn", "preset", "result"),
    [
        ("www/b2/1bb b p 0/0 - 0 7", "modern-3x3", "0-1 line"),
        ("wbbwb/bwwbw/wb1bb/wwwww/bbbbw b p 0/0 - 0 13", "five-in-a-row", "0-1 line"),
    ],
)
def test_a_game_won_by_the_last_placement_reads_back(spn: str, preset: str, result: str) -> None:
    # Found by a random round trip while checking finding 3: the engine wrote these (a line
    # by White's last piece, both hands empty, phase still p) and refused to read them,
    # "b is to place but has no piece in hand".
    pos = position(spn, preset)
    assert (pos.spn(), str(pos.outcome())) == (spn, result)


def test_a_removal_under_pass_that_the_shuttle_limit_made_due_reads_back() -> None:
    # Both players blocked only by their shuttle history (max_shuttles=1): the engine writes
    # phase r, and the SPN, which has no history, must still read (decision 2: "blocked
    # under some history", as no piece of either side has two steps).
    options = ["max_shuttles=1", "move_limit=0", "captures=false"]
    start = "bb2w/wwbww/wwwww/wwwbb/wbbww w m 0/0 - 0 40"
    steps = ["d4-d5", "c4-c5", "d5-d4", "c5-c4", "e5-d5", "b5-c5", "d5-e5", "c5-b5"]
    pos = play(position(start, "standard", options), *steps)
    assert pos.spn() == "bb2w/wwbww/wwwww/wwwbb/wbbww w r 0/0 - 8 48"
    assert legal(position(pos.spn(), "standard", options)) == legal(pos)
