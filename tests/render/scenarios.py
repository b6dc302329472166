"""Named positions for the renderer's golden images: every phase, a chain, a capture, a
removal, game over, each board size, and Arabic names.

Each scenario is an SPN (RULES.md section 7) and the actions of the turn that led to the
drawn position, so it does not depend on any random playout: the engine replays the turn
and ``summarize_turn`` says what it did.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import Outcome, Position, Ruleset
from engine.summary import TurnSummary, summarize_turn

ARABIC_NAMES = ("أحمد الصغير", "فاطمة الزهراء")


@dataclass(frozen=True)
class Scenario:
    """A position to draw and how to draw it."""

    name: str
    variant: str
    size: int
    spn: str | None  # position before the last turn; None: the start
    actions: tuple[str, ...] = ()
    players: tuple[str, str] = ("Amira", "Omar")
    outcome: Outcome | None = None
    theme: str = "sand"
    options: tuple[str, ...] = field(default=())
    #: Actions played before the drawn turn (they build history an SPN cannot carry,
    #: such as a piece's shuttle run).
    before: tuple[str, ...] = ()
    #: Seconds left on the clock of the side to act; None: no clock drawn.
    time_left: float | None = None

    def build(self) -> tuple[Position, TurnSummary | None]:
        """The position after the turn, and the turn's summary (None if no actions)."""
        rules = Ruleset.make(self.variant, self.size, list(self.options))
        pos = Position.from_spn(self.spn, rules) if self.spn else Position(rules)
        for action in self.before:
            pos.play(action)
        if not self.actions:
            return pos, None
        before = pos.copy()
        played = [pos.play(action) for action in self.actions]
        return pos, summarize_turn(before, played)


_FULL_5 = "bwbwb/wbwbw/bw1wb/wbwbw/bwbwb w m 0/0 - 0 13"
_CHAIN_5 = "bb1ww/b3w/1b1w1/w1bw1/2bwb w m 0/0 - 0 40"
#: White places the last pair (turn 24) and, first to move, chains three captures (turn 25).
_LAST_PAIR_5 = "wbbbw/w1bwb/bb1ww/wbbbb/wbw1w w p 0/2 - 0 24"
_LAST_PAIR_ACTIONS = ("d1", "b4", "d3-c3", "c3-c2", "c2-b2")

SCENARIOS: tuple[Scenario, ...] = (
    Scenario("start-5x5", "standard", 5, None),
    Scenario("placement-5x5", "standard", 5, "5/1b3/5/3b1/5 w p 10/12 - 0 2", ("b2", "d4")),
    Scenario("first-move-5x5", "standard", 5, _FULL_5, ("b3-c3",)),
    Scenario("capture-5x5", "standard", 5, _CHAIN_5, ("a2-b2", "end")),
    Scenario("mid-chain-5x5", "standard", 5, _CHAIN_5, ("a2-b2",)),
    Scenario("chain-5x5", "standard", 5, _CHAIN_5, ("a2-b2", "b2-b1")),
    # Under chain=any (seejeh) Black's c2 and d1 may both capture again: each is ringed,
    # and its way to d2 marked in Black's colour; the taken white b2 stays white.
    Scenario(
        "chain-any-stone-5x5", "seejeh", 5, "bbbwb/wwbbw/wwwwb/bw1bw/bwwbb b m 0/0 - 1 14", ("d2-c2",), theme="stone"
    ),
    Scenario("removal-fouze-5x5", "fouze", 5, "3wb/4w/5/w4/bw3 b m 0/0 - 0 40", ("xe4", "e5-e4")),
    Scenario("removal-due-5x5", "fouze", 5, "3wb/4w/5/w4/bw3 b r 0/0 - 0 40"),
    # White walls Black in (seejeh, capture-one): the footer says why White removes.
    Scenario(
        "removal-blocked-7x7",
        "seejeh",
        7,
        "wwwwbbb/wwwwbbb/wwwwbbb/www1bbb/wwwbbbb/wwwbbbb/wwwbbbb w m 0/0 - 0 26",
        ("c4-d4",),
        players=("Player 1", "Player 2"),
        time_left=59 * 60 + 59,
    ),
    Scenario("replacement-5x5", "five-in-a-row", 5, "bbwwb/bwwbb/ww1bb/wbbww/wwbbw b s 0/0 - 0 13", ("c5",)),
    Scenario("game-over-5x5", "standard", 5, "3b1/1bw2/5/5/b4 b m 0/0 - 0 60", ("d5-d4",)),
    Scenario("arabic-names-5x5", "standard", 5, _FULL_5, ("d3-c3",), players=ARABIC_NAMES),
    Scenario(
        "resignation-5x5",
        "standard",
        5,
        _CHAIN_5,
        ("a2-b2", "b2-b1"),
        players=("Amira", "Omar"),
        outcome=Outcome(1, "resignation"),
    ),
    Scenario("modern-3x3", "modern-3x3", 3, "3/bb1/2w w p 1/2 - 0 4", ("b3",)),
    Scenario("modern-3x3-line", "modern-3x3", 3, "1w1/bb1/wwb b m 0/0 - 1 8", ("c1-c2",)),
    Scenario(
        "placement-7x7",
        "standard",
        7,
        "b1wbw1w/bwww1b1/bw1bw1b/bbw1ww1/wbbbw1b/bbbbw2/wb2www b p 6/6 - 0 19",
        ("b7", "c5"),
        players=("Amira", ARABIC_NAMES[1]),
    ),
    Scenario(
        "seejeh-chain-7x7",
        "seejeh",
        7,
        "b1bbbw1/1b1b2b/2wwb1b/1ww4/1www2w/2bw1wb/w2wwww b m 0/0 - 6 88",
        ("g5-g4", "g6-g7"),
    ),
    Scenario(
        "chain-9x9",
        "standard",
        9,
        "wb1b1bbww/bbbbwbbwb/w2bb2ww/wbbw1wwww/ww1wwbb1b/1wwww1bwb/w2bwwbbb/1ww1bbbww/wbwbbwbbw b m 0/0 - 10 90",
        ("g4-f4", "f4-f3"),
        players=("A very long player name that will not fit", "Omar"),
    ),
    Scenario(
        "draw-agreement-9x9",
        "standard",
        9,
        "wb1b1bbww/bbbbwbbwb/w2bb2ww/wbbw1wwww/ww1wwbb1b/1wwww1bwb/w2bwwbbb/1ww1bbbww/wbwbbwbbw b m 0/0 - 10 90",
        players=ARABIC_NAMES,
        outcome=Outcome(None, "agreement"),
    ),
    Scenario("stone-theme-5x5", "standard", 5, _CHAIN_5, ("a2-b2", "b2-b1"), theme="stone"),
    # White's d2 went d2-c2-d2-c2-d2: going back to c2 a third time is the shuttle limit,
    # and it is White's only piece that could move, so White is blocked and passes.
    Scenario(
        "shuttle-held-5x5",
        "standard",
        5,
        "bb3/3bb/2bww/3ww/2bww w m 0/0 - 0 30",
        ("b4-b3",),
        before=("d2-c2", "a5-a4", "c2-d2", "b5-b4", "d2-c2", "a4-a3", "c2-d2"),
    ),
    # The same shuttle run, but White can still step (e3-e4): the footer shows the last
    # turn, and under it what the no-entry mark means (play-test: it said nothing).
    Scenario(
        "shuttle-held-can-move-5x5",
        "standard",
        5,
        "bb2b/3b1/2bww/3ww/2bww w m 0/0 - 0 30",
        ("b4-b3",),
        before=("d2-c2", "a5-a4", "c2-d2", "b5-b4", "d2-c2", "a4-a3", "c2-d2"),
    ),
    # A bot's reply that spans two turns: its last placement, then its first step, a chain
    # taking three pieces. One picture numbers all four marks in the order played.
    Scenario(
        "placement-and-chain-5x5",
        "standard",
        5,
        _LAST_PAIR_5,
        _LAST_PAIR_ACTIONS,
    ),
    # A chain there and back (c1-c2 took b2, c2-c1 took b1): the two arrows side by side,
    # each with its number, not one on top of the other.
    Scenario("back-and-forth-chain-5x5", "standard", 5, "bb3/5/3b1/wb3/wbw2 w m 0/0 - 0 30", ("c1-c2", "c2-c1")),
    # A bot's chain of four from a newcomer's game: a2-b2, b2-a2 (there and back, two
    # lanes), a2-a3 (a second step from a2: its number moves back), a3-b3, then "end".
    Scenario(
        "chain-from-one-cell-twice-5x5",
        "standard",
        5,
        "bwwwb/wbbwb/bbw1w/w1bww/bbwwb w m 0/0 - 1 19",
        ("a2-b2", "b2-a2", "a2-a3", "a3-b3", "end"),
        players=("You", "Seega bot (easy)"),
    ),
    # White places the last pair: the footer says the movement phase begins (who moves
    # first is the status beside it), not "Last: White d1, b4".
    Scenario("movement-begins-5x5", "standard", 5, _LAST_PAIR_5, ("d1", "b4")),
    Scenario(
        "move-limit-5x5",
        "standard",
        5,
        "bbbb1/bbb2/b1b1w/bb1w1/ww3 b m 0/0 - 99 180",
        ("c4-d4",),
        players=("Seega bot (easy)", "You"),
    ),
    Scenario("clock-5x5", "standard", 5, _CHAIN_5, ("a2-b2", "b2-b1"), time_left=3 * 60 + 7),
    Scenario(
        "clock-hours-7x7",
        "seejeh",
        7,
        "b1bbbw1/1b1b2b/2wwb1b/1ww4/1www2w/2bw1wb/w2wwww b m 0/0 - 6 88",
        ("g5-g4", "g6-g7"),
        players=("فاطمة الزهراء", "A very long player name that will not fit"),
        time_left=5 * 3600 + 9 * 60,
    ),
    # An end sentence too long for one line beside the ruleset label wraps onto two.
    Scenario(
        "timeout-wrapped-7x7",
        "seejeh",
        7,
        "b1bbbw1/1b1b2b/2wwb1b/1ww4/1www2w/2bw1wb/w2wwww b m 0/0 - 6 88",
        ("g5-g4", "g6-g7"),
        players=("فاطمة الزهراء", "Dr. Omar Abd el-Rahman, champion of the Cairo sand-board club"),
        outcome=Outcome(0, "timeout"),
    ),
)

BY_NAME = {s.name: s for s in SCENARIOS}
