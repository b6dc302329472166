"""The ``standard`` endgame tables: solved under the standard preset's moves (safe centre,
same-piece chains) without its two history rules, checked against the engine's own
rules (whole turns, chains included), and used by the search only where a value's
distance fits the move limit's clock."""

from __future__ import annotations

import lzma
import random
from collections.abc import Iterator

import pytest

from engine import Position, Ruleset
from engine.ai import best_turn
from engine.ai.endgame import (
    EndgameTables,
    covers,
    decode,
    family_of,
    generate,
    pack,
    shipped,
    table_name,
)
from engine.notation import write_spn

TABLES = shipped(5, "standard")
LUDII = shipped(5, "ludii")
TABLES7 = shipped(7, "standard")
#: The standard preset as played (shuttle limit 2, move limit 100).
STANDARD = Ruleset.make("standard", 5)
#: The rules the tables are exact under: the standard moves without the two history rules.
EXACT = Ruleset.make("standard", 5, ("max_shuttles=0", "move_limit=0"))
EXACT7 = Ruleset.make("standard", 7, ("max_shuttles=0", "move_limit=0"))
#: The most pieces the shipped standard tables hold per board size (docs/ai.md,
#: "Endgame tables").
SHIPPED_PIECES = {5: 6, 7: 4}


def _materials(size: int) -> list[tuple[int, int]]:
    return [(nb, n - nb) for n in range(2, SHIPPED_PIECES[size] + 1) for nb in range(1, n)]


def _position(black: int, white: int, side: int, rules: Ruleset = EXACT, clock: int = 0) -> Position:
    pos = Position(rules)
    pos.bb = [black, white]
    pos.hand = [0, 0]
    pos.phase = "m"
    pos.side = side
    pos.clock = clock
    return Position.from_spn(write_spn(pos), rules)


def _random_position(rng: random.Random, nb: int, nw: int, rules: Ruleset = EXACT) -> Position:
    cells = rng.sample(range(rules.size**2), nb + nw)
    black = sum(1 << c for c in cells[:nb])
    white = sum(1 << c for c in cells[nb:])
    return _position(black, white, rng.randrange(2), rules)


def _entry(pos: Position, tables: EndgameTables | None = None) -> tuple[int, int]:
    if tables is None:
        tables = TABLES if pos.rules.size == 5 else TABLES7
    code = tables.probe(pos.bb[0], pos.bb[1], pos.side)
    assert code is not None, pos.spn()
    return decode(code)


def _turn_ends(pos: Position) -> Iterator[tuple[int, int]]:
    """The table value, for the opponent, of each way the side to act can play its
    whole turn (a step, and in a chain every further capture or ``end``), through the
    engine's actions: (-1, 0) when the turn wins the game."""
    mover = pos.side
    for code in pos.legal_codes():
        pos.push_code(code)
        if pos.result is not None:
            yield (-1, 0) if pos.result.winner == mover else (1, 0)
        elif pos.side == mover:
            yield from _turn_ends(pos)
        else:
            yield _entry(pos)
        pos.pop()


@pytest.mark.parametrize("size", sorted(SHIPPED_PIECES))
def test_shipped_standard_tables_cover_every_material(size: int) -> None:
    tables = shipped(size, "standard")
    assert tables.max_pieces == SHIPPED_PIECES[size]
    assert set(tables.available()) == set(_materials(size))


def test_the_rulesets_each_family_serves() -> None:
    from engine.ai.levels import get_level
    from engine.ai.player import make_searcher

    assert family_of(STANDARD) == "standard" and covers(STANDARD)
    assert family_of(EXACT) == "standard"
    assert family_of(Ruleset.make("standard", 5, ("move_limit=40", "max_shuttles=3"))) == "standard"
    assert family_of(Ruleset.make("fouze", 5)) is None  # another blocked rule
    assert family_of(Ruleset.make("standard", 5, ("chain=any",))) is None
    assert family_of(Ruleset.make("standard", 5, ("safe_centre=false",))) is None
    assert family_of(Ruleset.make("standard", 7)) == "standard"
    assert family_of(Ruleset.make("standard", 9)) is None
    assert family_of(Ruleset.make("ludii", 5)) == "ludii"
    assert make_searcher(STANDARD, get_level("hard")).tables is TABLES
    assert make_searcher(Ruleset.make("standard", 7), get_level("hard")).tables is TABLES7
    assert make_searcher(Ruleset.make("ludii", 5), get_level("hard")).tables is LUDII


@pytest.mark.parametrize(("size", "material"), [(size, m) for size in sorted(SHIPPED_PIECES) for m in _materials(size)])
def test_every_sampled_entry_agrees_with_its_whole_turns(size: int, material: tuple[int, int]) -> None:
    """Each value follows from the values after the side's whole turns, played by the
    engine under ``standard`` without shuttle and move limit (chains included): a win
    has a turn leaving the opponent lost (the fastest sets the distance), a loss only
    turns leaving it won (the slowest sets it), a draw neither."""
    rng = random.Random(hash((size, material)) & 0xFFFF)
    checked = 0
    for _ in range(150):
        pos = _random_position(rng, *material, rules=EXACT if size == 5 else EXACT7)
        if pos.result is not None:
            continue
        children = list(_turn_ends(pos))
        lost = [d for o, d in children if o == -1]
        if lost:
            expected = (1, min(lost) + 1)
        elif all(o == 1 for o, _d in children):
            expected = (-1, max(d for _o, d in children) + 1)
        else:
            expected = (0, 0)
        assert _entry(pos) == expected, pos.spn()
        checked += 1
    assert checked > 100


def _wins_within(pos: Position, turns: int) -> bool:
    """Full-width: the side to act forces a win within ``turns`` turns (a chain's
    further actions belong to the turn they continue)."""
    if turns <= 0:
        return False
    side = pos.side
    for code in pos.legal_codes():
        pos.push_code(code)
        if pos.result is not None:
            won = pos.result.winner == side
        elif pos.side == side:
            won = _wins_within(pos, turns)
        else:
            won = _loses_within(pos, turns - 1)
        pos.pop()
        if won:
            return True
    return False


def _loses_within(pos: Position, turns: int) -> bool:
    """Full-width: the side to act loses within ``turns`` turns whatever it does."""
    if turns <= 0:
        return False
    side = pos.side
    for code in pos.legal_codes():
        pos.push_code(code)
        if pos.result is not None:
            lost = pos.result.winner != side
        elif pos.side == side:
            lost = _loses_within(pos, turns)
        else:
            lost = _wins_within(pos, turns - 1)
        pos.pop()
        if not lost:
            return False
    return True


@pytest.mark.parametrize("size", sorted(SHIPPED_PIECES))
def test_sampled_entries_match_a_full_width_search(size: int) -> None:
    """Short wins and losses are proved at exactly their distance (not one turn
    sooner) by the engine; draws and long results are shown not to end within 3 turns."""
    rng = random.Random(5)
    materials = [(1, 2), (2, 1), (3, 1), (1, 3), (2, 2)]
    if size == 5:
        materials += [(3, 2), (2, 3), (4, 1), (1, 4), (4, 2), (2, 4), (3, 3)]
    rules = EXACT if size == 5 else EXACT7
    wins: list[Position] = []
    losses: list[Position] = []
    others: list[Position] = []
    want = 8 if size == 5 else 4  # short losses are rarer on the bigger board
    for _ in range(100_000):
        if len(wins) >= want and len(losses) >= want and len(others) >= 20:
            break
        pos = _random_position(rng, *rng.choice(materials), rules=rules)
        if pos.result is not None:
            continue
        outcome, distance = _entry(pos)
        if outcome == 1 and distance <= 3:
            if len(wins) < want:
                wins.append(pos)
        elif outcome == -1 and distance <= 3:
            if len(losses) < want:
                losses.append(pos)
        elif len(others) < 20:
            others.append(pos)
    assert len(wins) == len(losses) == want and len(others) == 20
    for pos in wins:
        distance = _entry(pos)[1]
        assert _wins_within(pos, distance) and not _wins_within(pos, distance - 1), pos.spn()
    for pos in losses:
        distance = _entry(pos)[1]
        assert _loses_within(pos, distance) and not _loses_within(pos, distance - 1), pos.spn()
    for pos in others:
        assert not _wins_within(pos, 3) and not _loses_within(pos, 3), pos.spn()


def test_generator_reproduces_the_shipped_files() -> None:
    """Rebuilt here up to 4 pieces, the tables equal the shipped files byte for byte
    (the entries, and the compressed file as ``pack`` writes it); and 3 v 2, the first
    material where a chain takes two pieces and leaves one (with two pieces a second
    capture by the same piece never has a far piece: up to 4 pieces only the safe
    centre tells the families apart), from the 4-piece tables."""
    fresh = generate(4, family="standard")
    assert len(fresh) == 6
    fresh.update(generate(5, family="standard", known=fresh, materials=[(3, 2)]))
    assert len(fresh) == 7
    for material, arrays in fresh.items():
        data = (TABLES.directory / table_name(*material, 5, "standard")).read_bytes()
        raw = arrays[0].tobytes() + arrays[1].tobytes()
        assert lzma.decompress(data) == raw, material
        assert pack(arrays) == data, material


def test_generator_reproduces_the_shipped_7x7_files() -> None:
    """The same on 7x7, up to 3 pieces (the 4-piece materials take half a minute)."""
    fresh = generate(3, size=7, family="standard")
    for material, arrays in fresh.items():
        data = (TABLES7.directory / table_name(*material, 7, "standard")).read_bytes()
        assert pack(arrays) == data, material


def test_the_safe_centre_changes_a_value() -> None:
    """White's lone piece on the centre, black to move with b3 beside it and d4 one step
    from d3: under ludii the step d4-d3 takes it (a win in 1), under standard the centre
    is safe: the same step takes nothing and the tables say so."""
    c3, b3, d4 = 12, 11, 18  # cell = 5 * row + file, a1 = 0
    black, white = (1 << b3) | (1 << d4), 1 << c3
    ludii = _position(black, white, 0, Ruleset.make("ludii", 5))
    standard = _position(black, white, 0)
    assert _entry(ludii, LUDII) == (1, 1)
    assert _entry(standard) == (0, 0)  # safe there, the lone piece runs: a draw
    step = "d4-d3"
    ludii.play(step)
    assert ludii.result is not None and ludii.result.winner == 0
    standard.play(step)
    assert standard.result is None and standard.count(1) == 1
    # Off the centre the same pattern is a win in 1 in both families.
    b1, c2, d2 = 1, 7, 8  # b1-b2 takes c2 against d2
    black, white = (1 << b1) | (1 << d2), 1 << c2
    assert _entry(_position(black, white, 0)) == (1, 1)


def test_a_chain_changes_a_value() -> None:
    """A position won in one turn only by a chain: one piece takes twice with ``chain=same``
    (one capturing step, then another by the same piece); under ludii the turn ends after
    the first capture and the win is not in 1."""
    rng = random.Random(8)
    for _ in range(200_000):
        pos = _random_position(rng, 3, 2)
        if pos.result is not None or pos.bb[0] & (1 << 12) or pos.bb[1] & (1 << 12):
            continue  # nothing on the centre: the chain alone makes the difference
        if _entry(pos) == (1, 1) and _entry(pos, LUDII) != (1, 1):
            break
    else:
        pytest.fail("no 3 v 2 position won in 1 only by a chain")
    side = pos.side
    # No single step takes both: the win needs the chain, which the engine continues.
    for code in pos.legal_codes():
        pos.push_code(code)
        assert pos.result is None, pos.spn()
        pos.pop()
    won = False
    for code in pos.legal_codes():
        pos.push_code(code)
        if pos.side == side and pos.result is None:  # the chain goes on
            for more in pos.legal_codes():
                pos.push_code(more)
                won = won or (pos.result is not None and pos.result.winner == side)
                pos.pop()
        pos.pop()
    assert won
    ludii = _position(pos.bb[0], pos.bb[1], side, Ruleset.make("ludii", 5))
    for code in ludii.legal_codes():
        ludii.push_code(code)
        assert ludii.side != side or ludii.result is not None  # no chain: the turn is over
        ludii.pop()


def _find(outcome: int, least: int, pieces: tuple[int, int], seed: int, rules: Ruleset) -> Position:
    rng = random.Random(seed)
    while True:
        pos = _random_position(rng, *pieces, rules=rules)
        if pos.result is None:
            o, d = _entry(pos)
            if o == outcome and d >= least:
                return pos


def test_hard_plays_a_won_ending_within_its_distance() -> None:
    """Under ``standard`` (shuttle limit 2, move limit 100) with a fresh clock, from a
    table win in d turns hard against hard ends the game within d turns, the winner the
    side that was to move."""
    pos = _find(1, 6, (3, 2), seed=3, rules=STANDARD)
    _outcome, distance = _entry(pos)
    winner, start = pos.side, pos.turn
    while pos.result is None:
        for action in best_turn(pos, "hard", 200):
            pos.push(action)
    assert pos.result.winner == winner
    assert pos.turn - start <= distance


def test_the_clock_decides_whether_a_value_is_used() -> None:
    """A 3 v 1 win in d turns: with a fresh clock the search reads it from the tables;
    with fewer than d turns left before the move limit no table value is used (the lone
    piece never captures, so every later position's distance overruns the clock too) and
    the search's answer is the ordinary search's, without tables."""
    from engine.ai.levels import get_level
    from engine.ai.player import make_searcher
    from engine.ai.search import WIN_BOUND, Limits

    level = get_level("hard")
    pos = _find(1, 5, (3, 1), seed=2, rules=STANDARD)
    _outcome, distance = _entry(pos)
    fresh = make_searcher(STANDARD, level)
    found = fresh.search(pos, Limits(max_depth=3))
    assert fresh.table_hits > 0 and found.score >= WIN_BOUND
    late = _position(pos.bb[0], pos.bb[1], pos.side, STANDARD, clock=STANDARD.move_limit - distance + 1)
    with_tables = make_searcher(STANDARD, level)
    result = with_tables.search(late, Limits(max_depth=3))
    assert with_tables.table_hits == 0
    without = make_searcher(STANDARD, level)
    without.tables, without.table_pieces = None, 0
    blind = without.search(late, Limits(max_depth=3))
    assert (result.best, result.score) == (blind.best, blind.score)
    # With exactly d turns left the win fits the clock and is used.
    just = _position(pos.bb[0], pos.bb[1], pos.side, STANDARD, clock=STANDARD.move_limit - distance)
    searcher = make_searcher(STANDARD, level)
    assert searcher.search(just, Limits(max_depth=3)).score >= WIN_BOUND and searcher.table_hits > 0


def test_draws_are_used_only_without_history_rules() -> None:
    """A table draw says nothing under ``standard`` (the move limit may end the game
    first, more pieces winning), and is exact without the move and shuttle limits."""
    from engine.ai.levels import get_level
    from engine.ai.player import make_searcher

    rng = random.Random(6)
    while True:
        pos = _random_position(rng, 3, 3, rules=STANDARD)
        if pos.result is None and _entry(pos) == (0, 0):
            break
    searcher = make_searcher(STANDARD, get_level("hard"))
    assert searcher._probe(pos, 0) is None and searcher.table_hits == 0
    exact = make_searcher(EXACT, get_level("hard"))
    assert exact.tables is TABLES
    assert exact._probe(Position.from_spn(pos.spn(), EXACT), 0) is not None and exact.table_hits == 1
