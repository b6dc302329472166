"""Game review: every turn judged by the engine, classed by how much it threw away.

A review analyses each position of a game once (the position before every turn and the
final one), at a fixed node budget so that it is the same on every machine. A turn's
**loss** is the mover's expected score before it (the engine's best play) minus the
mover's expected score after the turn actually played; the class follows from the loss
(:data:`THRESHOLDS`, documented with the win-chance mapping in ``docs/coach.md``).

The work is split into picklable :class:`AnalysisJob` values, one per position, so a
bot can run them in worker processes and report progress as each one finishes;
:func:`build_review` then assembles the verdicts without searching again.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from engine.actions import PLACE, Action
from engine.ai.analysis import DEFAULT_NODES, Analysis, analyse, compare_turn, value_for, win_chance
from engine.ai.search import WIN_BOUND
from engine.errors import SeegaError
from engine.outcome import BLACK, WHITE
from engine.position import Position
from engine.record import GameRecord
from engine.rules import Ruleset, format_value

CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
#: (smallest loss in expected score, class), from the worst down: a loss below 0.02 is "best".
THRESHOLDS: tuple[tuple[float, str], ...] = (
    (0.20, "blunder"),
    (0.10, "mistake"),
    (0.05, "inaccuracy"),
    (0.02, "good"),
)
#: How many key moments a review picks at most, and the smallest loss that counts as one.
KEY_MOMENTS = 5
KEY_MOMENT_LOSS = 0.05
#: The version of the review's judgement stored with it (:meth:`GameReview.to_dict`): a
#: stored review of an earlier version is computed again when asked for. 2 (2026-11-27):
#: the material floor, placed pairs judged by both cells. 3: a placement turn classed a
#: mistake or worse keeps the line the next search expects after it (:attr:`TurnVerdict.line`).
REVIEW_VERSION = 3
#: The classes of placement turn whose verdict keeps the line after it.
LINE_CLASSES = ("mistake", "blunder")
#: The least loss within one search, in centipieces (one piece), that gives a turn whose
#: next reply took pieces the material floor (:func:`material_floor`).
MATERIAL_FLOOR_CP = 100
#: Centipieces in a piece of material.
PIECE = 100
#: The smallest fall of a side's expected score over a stretch of turns that a review
#: reports as a slide (:meth:`GameReview.slide`).
SLIDE_DROP = 0.25


def classify(loss: float, played_best: bool = False) -> str:
    """The class of a turn that lost ``loss`` expected score (0..1)."""
    if played_best:
        return "best"
    for floor, label in THRESHOLDS:
        if loss >= floor:
            return label
    return "best"


def level_loss(cp_loss: int) -> float:
    """The loss in expected score that ``cp_loss`` centipieces would be in a level position
    (100, one piece: 0.08, an inaccuracy; 200: a mistake; 300: a blunder)."""
    return 0.5 - win_chance(-min(cp_loss, 10_000)) if cp_loss > 0 else 0.0


def material_floor(label: str, material: int) -> str:
    """``label``, or the class losing ``material`` centipieces would have in a level
    position if that is worse (one piece: an inaccuracy, two: a mistake, three: a blunder).

    Why: once a game is won or lost the win chance saturates, and a turn that gives two
    pieces away barely moves it: a newcomer lost 0 to 12 and the review listed none of
    the turns after which the bot took their pieces (console play-test). A review
    applies this floor to a turn whose loss within the search is at least a piece
    (:data:`MATERIAL_FLOOR_CP`) and after which the opponent's next turn took pieces,
    with ``material`` the pieces taken as far as the search agrees
    (:attr:`TurnVerdict.material`): a chain that let a forced win go but took three pieces
    is not a blunder for the one piece given back.
    """
    floor = classify(level_loss(material))
    return floor if CLASSES.index(floor) > CLASSES.index(label) else label


#: The least accuracy a turn counts with in the harmonic mean (a 0% turn would make it 0).
HARMONIC_FLOOR = 1.0


def move_accuracy(before: float, after: float) -> float:
    """Accuracy (0..100) of one turn from the mover's expected score before and after.

    Lichess's published curve over win percentages: a turn that keeps the expected score
    scores 100, one that loses 10 points of win percentage about 64, 30 points about 25.
    """
    drop = max(0.0, (before - after) * 100.0)
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * drop) - 3.1669))


@dataclass(frozen=True)
class AnalysisJob:
    """A picklable request: analyse the position after ``actions`` from the start.

    Attributes:
        variant, size, options: the ruleset (options as ``name=value`` strings).
        setup: the SPN the game started from, or ``None``.
        actions: every action before the position, as text (the shuttle history).
        max_nodes: the node budget per search.
        played: the turn actually played from this position (empty for the final one):
            its value is then taken from the same search as the best turn's.
    """

    variant: str
    size: int
    options: tuple[str, ...]
    setup: str | None
    actions: tuple[str, ...]
    max_nodes: int = DEFAULT_NODES
    played: tuple[str, ...] = ()

    def position(self) -> Position:
        """The position the job is about."""
        rules = Ruleset.make(self.variant, self.size, self.options)
        pos = Position.from_spn(self.setup, rules) if self.setup else Position(rules)
        for text in self.actions:
            pos.play(text)
        return pos


def run_job(job: AnalysisJob) -> Analysis:
    """Analyse one job's position and score the turn played there (what a worker runs)."""
    pos = job.position()
    analysis = analyse(pos, max_nodes=job.max_nodes)
    if not job.played or analysis.forced:
        return analysis
    best, played = aligned(pos, analysis.best_turn, [Action.parse(text) for text in job.played])
    compared = compare_turn(pos, best, played, max_nodes=job.max_nodes)
    if compared is not None and _disjoint_pair(best, played):
        compared = _second_cell(pos, best, played, compared, job.max_nodes)
    return replace(analysis, compared=compared)


def _disjoint_pair(best: Sequence[Action], played: Sequence[Action]) -> bool:
    """Two placed pairs with no cell in common (compared at their first cells only)."""
    pairs = len(best) == len(played) == 2 and all(a.kind == PLACE for a in (*best, *played))
    return pairs and not set(best) & set(played)


def _second_cell(
    pos: Position, best: Sequence[Action], played: Sequence[Action], compared: tuple[int, int], max_nodes: int
) -> tuple[int, int]:
    """``compared`` with the played pair's second cell judged too.

    The first search scored the played first cell with its best second cell; this one
    scores the played second cell against the best pair's first cell, both after the
    played first cell, in one search. The played score is lowered by that gap (never
    raised). It can only understate the pair's loss (the best second cell after the
    played first one is at least as good as the cell it is compared with), so a pair
    as good as the best is never flagged. Forced ends are left as they are.

    Why: a pair sharing no cell with the best was judged by its first cell alone, and
    the newcomer's review of the bot's ``b5 d5`` (the chances fell 0.19 after it) said
    "best". It costs one more search, for these turns only.
    """
    best_score, played_score = compared
    if max(abs(best_score), abs(played_score)) >= WIN_BOUND:
        return compared
    after = pos.copy()
    after.push(played[0])
    second = compare_turn(after, best[:1], played[1:], max_nodes=max_nodes)
    if second is None or max(abs(second[0]), abs(second[1])) >= WIN_BOUND:
        return compared
    return best_score, played_score - max(0, second[0] - second[1])


def aligned(
    pos: Position, best: Sequence[Action], played: Sequence[Action]
) -> tuple[tuple[Action, ...], tuple[Action, ...]]:
    """``(best, played)`` with the cells a placed pair shares put first, in the same order.

    :func:`~engine.ai.analysis.compare_turn` compares the two turns where they first part,
    with the played action's best continuation. A pair ``e2 e4`` against the best ``d2 e2``
    parted at ``e2`` against ``d2``, and ``e2`` (completed by ``d2``, the best pair itself)
    scored as well as ``d2``: ``e4`` was never judged, and a placement the next search saw
    as losing 0.39 read "best" (newcomer play-test). Played as ``e2 e4`` against ``e2 d2``
    they part at the second cell: the whole pair is judged, in the same one search. Only
    turns of placements, and only when both orders are legal and reach the same position.
    """
    best, played = tuple(best), tuple(played)
    if not best or not played or any(a.kind != PLACE for a in (*best, *played)):
        return best, played
    common = [a for a in played if a in best]
    if not common or len(common) == len(played):
        return best, played
    new_best = (*common, *(a for a in best if a not in common))
    new_played = (*common, *(a for a in played if a not in common))
    if _reached(pos, new_best) != _reached(pos, best) or _reached(pos, new_played) != _reached(pos, played):
        return best, played
    return new_best, new_played


def played_on(pos: Position, turn: Sequence[Action]) -> Position | None:
    """A copy of ``pos`` after ``turn``, checked (``None`` if it is not legal there)."""
    copy = pos.copy()
    try:
        for action in turn:
            copy.play(action)
    except SeegaError:
        return None
    return copy


def _reached(pos: Position, turn: Sequence[Action]) -> tuple[int, int, int, str, int, int, int, int] | None:
    """The key of ``pos`` after ``turn``, checked (``None`` if it is not legal there)."""
    after = played_on(pos, turn)
    return None if after is None else after.key()


def jobs_for(record: GameRecord, max_nodes: int = DEFAULT_NODES) -> list[AnalysisJob]:
    """One job per position of ``record``: before each turn, and the final position."""
    rules = record.rules
    options = tuple(f"{k}={format_value(v)}" for k, v in sorted(rules.overrides().items()))
    done: list[str] = []
    jobs = []
    for actions in record.turns:
        played = tuple(str(a) for a in actions)
        jobs.append(AnalysisJob(rules.variant, rules.size, options, record.setup, tuple(done), max_nodes, played))
        done.extend(played)
    jobs.append(AnalysisJob(rules.variant, rules.size, options, record.setup, tuple(done), max_nodes))
    return jobs


@dataclass(frozen=True)
class TurnVerdict:
    """The judgement of one turn.

    Attributes:
        index: the turn's index in the record (0 for the first turn played).
        number: the turn number as the record counts it.
        side: who played it.
        played: the actions played, as text.
        best: the engine's best turn from the same position, as text.
        before: the mover's expected score before the turn (with best play).
        after: the mover's expected score after the turn played.
        loss: ``before - after``, never below 0 (0 when the best turn was played).
        label: one of :data:`CLASSES`.
        forced: the mover had no choice (not counted in accuracy).
        cp_loss: centipieces the turn played lost against the best within one search
            (:func:`~engine.ai.analysis.compare_turn`; forced ends count as
            :data:`~engine.ai.search.WIN_BOUND`), 0 when not scored that way.
        gave: pieces of the mover that the opponent's next turn took (as played, or
            the engine's answer, followed to the end of its chain), when the turn lost
            material within the search: the class then has the material floor
            (:func:`material_floor`). 0 otherwise.
        line: for a turn of placements classed a mistake or a blunder (:data:`LINE_CLASSES`),
            the opponent's best line after it as the next position's search sees it (that
            search's best turn, then the rest of its principal variation), as text; empty
            otherwise. A placement's cost shows only once the moves begin, and the key
            moment names a capture this line contains
            (:func:`~engine.coach.hints.moment_reasons`): a review listed a placement that
            let the opponent take four pieces as a blunder, with no word of what it allowed
            (fresh-eyes play-test, Discord).
    """

    index: int
    number: int
    side: int
    played: tuple[str, ...]
    best: tuple[str, ...]
    before: float
    after: float
    loss: float
    label: str
    forced: bool
    cp_loss: int = 0
    gave: int = 0
    line: tuple[str, ...] = ()

    @property
    def material(self) -> int:
        """The material the turn gave away, in centipieces: the pieces the reply took, as
        far as the search agrees (at most :attr:`cp_loss`); 0 without the floor."""
        return min(self.cp_loss, PIECE * self.gave)

    @property
    def weight(self) -> float:
        """How big a key moment this turn is: its loss, or its material floor's if larger."""
        return max(self.loss, level_loss(self.material))


@dataclass(frozen=True)
class Slide:
    """A stretch of turns over which one side's expected score fell the most.

    Attributes:
        side: whose chances fell.
        first, last: the turn numbers the stretch begins and ends with.
        before, after: that side's expected score before ``first`` and after ``last``.
    """

    side: int
    first: int
    last: int
    before: float
    after: float
    steep: int = 0
    steep_before: float = 0.0
    steep_after: float = 0.0

    @property
    def start(self) -> int:
        """The turn after which the fall starts: where the evaluation chart shows ``before``
        (the chart draws the chances after every turn, so "before turn 8" is its point 7)."""
        return self.first - 1

    @property
    def sudden(self) -> bool:
        """Whether one turn (:attr:`steep`) carries at least half of the fall: then it did
        not fall "a little at a time", and the review says which turn it was."""
        return self.steep_before - self.steep_after >= (self.before - self.after) / 2


@dataclass(frozen=True)
class GameReview:
    """A whole game's review, small enough to store as JSON and show again at once.

    Attributes:
        turns: one verdict per turn.
        curve: Black's expected score at every position (``len(turns) + 1`` values).
        accuracy: ``(black, white)`` accuracy %, ``None`` for a side with no choice made.
        key_moments: indexes into ``turns`` of the biggest losses, in game order.
        max_nodes: the node budget used.
    """

    turns: tuple[TurnVerdict, ...]
    curve: tuple[float, ...]
    accuracy: tuple[float | None, float | None]
    key_moments: tuple[int, ...]
    max_nodes: int

    def slide(self, min_drop: float = SLIDE_DROP) -> Slide | None:
        """The stretch of turns over which one side's expected score fell the most, when
        it fell by at least ``min_drop``; else ``None``.

        Why: a fixed-budget search judges each turn against what it sees, so a side can
        lose a won game by many turns that each cost too little to be a mistake (each
        search sees a little further than the last). A review that then said only "no
        big mistakes" of a game lost 12 to 0 misled the player (console play-test).

        The slide also names the turn after which the chances fell the most
        (:attr:`Slide.steep`): a review said "fell a little at a time, from 69% to 6%
        between turns 8 and 15" of a fall that the chart showed as one jump at turn 10
        (and 50%, not 69%, at its point 8: the chart draws the chances after each turn).
        """
        curve, turns = self.curve, self.turns
        best: Slide | None = None
        for side in (BLACK, WHITE):
            chances = [c if side == BLACK else 1.0 - c for c in curve]
            top = 0  # index of the highest chance so far (the latest of equals: the fall starts there)
            for j in range(1, len(chances)):
                if chances[j - 1] >= chances[top]:
                    top = j - 1
                drop = chances[top] - chances[j]
                if drop >= min_drop and (best is None or drop > best.before - best.after):
                    k = max(range(top, j), key=lambda k: chances[k] - chances[k + 1])
                    steep = (turns[k].number, chances[k], chances[k + 1])
                    best = Slide(side, turns[top].number, turns[j - 1].number, chances[top], chances[j], *steep)
        return best

    def unseen_falls(self, side: int, min_fall: float = KEY_MOMENT_LOSS) -> tuple[tuple[int, float, float], ...]:
        """``(turn number, chances before, chances after)`` of ``side``'s turns classed best
        or good whose fall along the curve was at least ``min_fall``.

        The accuracy counts such a turn by that fall (:func:`game_accuracy`), the class by
        the loss within its own search: a review read "accuracy 83% · 8 best · 0 good · 0
        inaccuracies · 0 mistakes · 0 blunders" (newcomer play-test), and the text now
        names these turns beside the figure. The engine's own best turn is never listed
        (its accuracy is 100 whatever the next search finds).
        """
        out = []
        for i, v in enumerate(self.turns):
            if v.side != side or v.forced or not v.loss or CLASSES.index(v.label) > CLASSES.index("good"):
                continue
            before, after = self.curve[i], self.curve[i + 1]
            if side == WHITE:
                before, after = 1.0 - before, 1.0 - after
            if before - after >= min_fall:
                out.append((v.number, before, after))
        return tuple(out)

    def counts(self, side: int) -> dict[str, int]:
        """How many turns of ``side`` fell in each class."""
        out = dict.fromkeys(CLASSES, 0)
        for t in self.turns:
            if t.side == side and not t.forced:
                out[t.label] += 1
        return out

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the inverse of :meth:`from_dict`)."""
        return {
            "turns": [asdict(t) for t in self.turns],
            "curve": list(self.curve),
            "accuracy": list(self.accuracy),
            "key_moments": list(self.key_moments),
            "max_nodes": self.max_nodes,
            "version": REVIEW_VERSION,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameReview:
        """A review from :meth:`to_dict`'s layout."""
        turns = tuple(
            TurnVerdict(
                # lists back to tuples
                **{**t, "played": tuple(t["played"]), "best": tuple(t["best"]), "line": tuple(t.get("line", ()))}
            )
            for t in data["turns"]
        )
        curve = tuple(data["curve"])
        # Computed again, not read: a review stored under the earlier plain mean reads as a
        # new one does (the stored "accuracy" is kept in the JSON for other readers).
        accuracy = (game_accuracy(turns, curve, BLACK), game_accuracy(turns, curve, WHITE))
        return cls(turns, curve, accuracy, tuple(data["key_moments"]), int(data["max_nodes"]))


def _after_turn(pos: Position, actions: Sequence[Action]) -> tuple[int, int, int, str, int, int, int, int]:
    copy = pos.copy()
    for action in actions:
        copy.push(action)
    return copy.key()


def build_review(record: GameRecord, analyses: Sequence[Analysis], max_nodes: int = DEFAULT_NODES) -> GameReview:
    """Assemble a review from the analyses of :func:`jobs_for`'s jobs, in order.

    Args:
        record: the game.
        analyses: one per position (``len(record.turns) + 1``).
        max_nodes: the budget the analyses used (stored with the review).
    """
    if len(analyses) != len(record.turns) + 1:
        raise ValueError(f"{len(analyses)} analyses for {len(record.turns)} turns: one per position is needed")
    pos = record.start()
    verdicts: list[TurnVerdict] = []
    for i, actions in enumerate(record.turns):
        here, there = analyses[i], analyses[i + 1]
        side, number = pos.side, pos.turn
        before = here.win_chance
        after = value_for(there, side)
        played_key = _after_turn(pos, actions)
        best_key = _after_turn(pos, here.best_turn) if here.best_turn else None
        played_best = here.forced or best_key == played_key
        cp_loss = gave = 0
        if here.compared is not None and not played_best:
            # Both scores from one search: the loss is the gap within it, never the gap
            # between two searches of different depth (which could flag the best move).
            best_score, played_score = here.compared
            played_best = played_score >= best_score
            loss = max(0.0, win_chance(best_score) - win_chance(played_score))
            after = max(0.0, before - loss)
            cp_loss = max(0, _bounded(best_score) - _bounded(played_score))
            # Not when the best was a forced win: a chain that took three pieces and kept
            # a won game is not "giving a piece away" for the one its reply takes back.
            if cp_loss >= MATERIAL_FLOOR_CP and best_score < WIN_BOUND:
                following = record.turns[i + 1] if i + 1 < len(record.turns) else ()
                gave = _taken_by_reply(pos, actions, (following, there.best_turn))
        else:
            loss = 0.0 if played_best else max(0.0, before - after)
        label = classify(loss, played_best)
        if gave:
            label = material_floor(label, min(cp_loss, PIECE * gave))
        line: tuple[str, ...] = ()
        if label in LINE_CLASSES and actions and all(a.kind == PLACE for a in actions):
            line = tuple(str(a) for a in (*there.best_turn, *there.line))
        verdicts.append(
            TurnVerdict(
                i,
                number,
                side,
                tuple(str(a) for a in actions),
                tuple(str(a) for a in here.best_turn),
                round(before, 4),
                round(after, 4),
                round(loss, 4),
                label,
                here.forced,
                cp_loss,
                gave,
                line,
            )
        )
        for action in actions:
            pos.push(action)
    curve = tuple(round(value_for(a, BLACK), 4) for a in analyses)
    return GameReview(
        tuple(verdicts),
        curve,
        (game_accuracy(verdicts, curve, BLACK), game_accuracy(verdicts, curve, WHITE)),
        _key_moments(verdicts),
        max_nodes,
    )


def _bounded(score: int) -> int:
    """A search score with forced ends counted as :data:`WIN_BOUND` (two forced wins, or two
    forced losses, differ by nothing a player could see)."""
    return max(-WIN_BOUND, min(WIN_BOUND, score))


def _taken_by_reply(pos: Position, actions: Sequence[Action], replies: Sequence[Sequence[Action]]) -> int:
    """How many of the mover's pieces the opponent's next turn takes after ``actions``
    (played in ``pos``): the most of ``replies`` (the turn played next, the engine's
    answer), each followed to the end of its chain (:func:`biggest_capture`)."""
    after = pos.copy()
    side = after.side
    for action in actions:
        after.push(action)
    if after.result is not None or after.side == side:
        return 0
    most = 0
    for reply in replies:
        if reply:
            most = max(most, _taken(after, reply), biggest_capture(after, reply[0])[1])
    return most


def _taken(pos: Position, reply: Sequence[Action]) -> int:
    """How many pieces of the side not to act ``reply`` takes in ``pos`` (0 if it does not fit)."""
    copy = pos.copy()
    victim = 1 - copy.side
    start = copy.count(victim)
    try:
        for action in reply:
            copy.play(action)
    except SeegaError:
        return 0
    return start - copy.count(victim)


def volatility_weights(curve: Sequence[float]) -> list[float]:
    """One weight per turn: how much the expected score swung around it (lichess).

    The standard deviation, in win percentage, of a window of positions around the turn
    (a tenth of the game, 2 to 8 positions), clamped to 0.5..12: a turn played while the
    game was in the balance weighs up to 24 times one played in a decided position.
    """
    values = [100.0 * c for c in curve]
    turns = len(values) - 1
    size = min(len(values), max(2, min(8, turns // 10)))
    windows = [values[:size]] * max(0, size - 2) + [values[k : k + size] for k in range(len(values) - size + 1)]
    return [min(12.0, max(0.5, statistics.pstdev(w))) for w in windows[:turns]]


def game_accuracy(verdicts: Sequence[TurnVerdict], curve: Sequence[float], side: int) -> float | None:
    """``side``'s accuracy % over the game, ``None`` if it never had a choice.

    Lichess's game accuracy: the mean of two means of the turns' accuracies, one weighted
    by :func:`volatility_weights` and one harmonic. A plain mean reads high in a lost game:
    once the game is decided few turns lose win chance, so a player crushed 12-0 after a
    blunder and three mistakes scored 85% (newcomer play-test; 77% now). The harmonic mean
    keeps a blunder's weight, and the volatility weights count the turns where the game
    was still in play.

    A turn that was not the engine's best is measured by the larger of its loss within
    one search and the fall of the mover's chances along ``curve`` from this position to
    the next (lichess measures only the latter). The loss alone missed a slow slide: each
    search values the turn it judges almost like the best, the next search sees further,
    and a side whose chances fell from 50% to 1% by such turns read 97%. The engine's own
    best turn scores 100 whatever the next search finds.
    """
    weights = volatility_weights(curve)
    mine = [(i, v) for i, v in enumerate(verdicts) if v.side == side and not v.forced]
    if not mine:
        return None
    scores = [_turn_accuracy(v, curve[i], curve[i + 1]) if v.loss or v.material else 100.0 for i, v in mine]
    w = [weights[i] for i, _ in mine]
    weighted = sum(a * x for a, x in zip(scores, w, strict=True)) / sum(w)
    harmonic = len(scores) / sum(1.0 / max(HARMONIC_FLOOR, a) for a in scores)
    return round((weighted + harmonic) / 2, 1)


def _turn_accuracy(verdict: TurnVerdict, black_before: float, black_after: float) -> float:
    """One turn's accuracy: the largest of its loss within the search, its fall along the
    curve, and what the pieces it gave away would cost in a level game (its material
    floor, :attr:`TurnVerdict.weight`): in a decided game the chances barely move, and a
    player who moved at random and lost 12-0 read 87% (Discord play-test, stop 39)."""
    fall = black_before - black_after if verdict.side == BLACK else black_after - black_before
    return move_accuracy(verdict.before, verdict.before - max(verdict.weight, fall))


def _key_moments(verdicts: Sequence[TurnVerdict]) -> tuple[int, ...]:
    """The turns with the biggest :attr:`TurnVerdict.weight` of at least :data:`KEY_MOMENT_LOSS`
    (at most :data:`KEY_MOMENTS`), in game order: a turn that gave pieces away counts as
    it would in a level game."""
    worst = sorted((v for v in verdicts if v.weight >= KEY_MOMENT_LOSS), key=lambda v: (-v.weight, v.index))
    return tuple(sorted(v.index for v in worst[:KEY_MOMENTS]))


def review_record(
    record: GameRecord,
    max_nodes: int = DEFAULT_NODES,
    progress: Callable[[int, int], None] | None = None,
) -> GameReview:
    """Review ``record`` in this process, calling ``progress(done, total)`` after each position."""
    jobs = jobs_for(record, max_nodes)
    analyses: list[Analysis] = []
    for job in jobs:
        analyses.append(run_job(job))
        if progress is not None:
            progress(len(analyses), len(jobs))
    return build_review(record, analyses, max_nodes)


#: How many action sequences :func:`biggest_capture` looks at before it stops (a
#: ``chain=any`` position can branch widely; a bounded answer keeps the review cheap).
CAPTURE_SEQUENCES = 2000


def biggest_capture(position: Position, first: Action | None = None) -> tuple[tuple[Action, ...], int, bool]:
    """The side to act's turn that takes the most pieces, read off the rules (no search).

    Returns ``(turn, taken, wins)``: the whole turn (a chain followed as far as it goes),
    how many enemy pieces it takes, and whether it wins the game; the turn is empty when
    none takes anything. ``first``, when given, fixes the turn's first action (the piece
    the opponent chose to capture with, followed to the end of its chain). At most
    :data:`CAPTURE_SEQUENCES` sequences are looked at. ``position`` is not modified.
    """
    pos = position.copy()
    if pos.result is not None:
        return (), 0, False
    side, turn = pos.side, pos.turn
    enemy = 1 - side
    start = pos.count(enemy)
    best: tuple[tuple[Action, ...], int, bool] = ((), 0, False)
    budget = [CAPTURE_SEQUENCES]

    def walk(line: list[Action]) -> None:
        nonlocal best
        if budget[0] <= 0:
            return
        budget[0] -= 1
        over = pos.result is not None or pos.turn != turn or pos.side != side
        if over:
            taken = start - pos.count(enemy)
            wins = pos.result is not None and pos.result.winner == side
            # The most taken (a win first), then the shortest such turn (no idle "end").
            if (wins, taken, -len(line)) > (best[2], best[1], -len(best[0])) and (wins or taken):
                best = (tuple(line), taken, wins)
            return
        actions = pos.legal_actions()
        if not line and first is not None:
            actions = [a for a in actions if a == first]
        for action in actions:
            pos.push(action)
            line.append(action)
            walk(line)
            line.pop()
            pos.pop()

    walk([])
    return best if best[1] or best[2] else ((), 0, False)
