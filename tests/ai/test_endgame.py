"""The endgame tables: shipped, exact (checked against the engine's own rules and a
full-width search), loaded lazily, and used by the search to play perfectly."""

from __future__ import annotations

import random
from math import comb

import pytest

from engine import Position, Ruleset
from engine.ai import best_turn
from engine.ai.endgame import (
    TABLE_RULES,
    EndgameTables,
    covers,
    decode,
    generate,
    rank_of,
    shipped,
    subsets,
    table_name,
    unpack,
)
from engine.notation import write_spn

TABLES = shipped()
RULES7 = Ruleset.make("ludii", 7)
#: The most pieces each size's shipped tables hold (docs/ai.md, "Endgame tables").
SHIPPED_PIECES = {5: 6, 7: 4}


def _rules(size: int) -> Ruleset:
    return TABLE_RULES if size == 5 else RULES7


def _position(black: int, white: int, side: int, size: int = 5) -> Position:
    rules = _rules(size)
    pos = Position(rules)
    pos.bb = [black, white]
    pos.hand = [0, 0]
    pos.phase = "m"
    pos.side = side
    return Position.from_spn(write_spn(pos), rules)


def _random_position(rng: random.Random, nb: int, nw: int, size: int = 5) -> Position:
    cells = rng.sample(range(size * size), nb + nw)
    black = sum(1 << c for c in cells[:nb])
    white = sum(1 << c for c in cells[nb:])
    return _position(black, white, rng.randrange(2), size)


def _entry(pos: Position) -> tuple[int, int]:
    code = shipped(pos.rules.size).probe(pos.bb[0], pos.bb[1], pos.side)
    assert code is not None, pos.spn()
    return decode(code)


@pytest.mark.parametrize("size", sorted(SHIPPED_PIECES))
def test_shipped_tables_cover_every_material_up_to_their_size(size: int) -> None:
    tables = shipped(size)
    most = SHIPPED_PIECES[size]
    assert tables.max_pieces == most
    assert {(nb, n - nb) for n in range(2, most + 1) for nb in range(1, n)} == set(tables.available())


def test_only_the_rules_they_were_computed_for() -> None:
    assert covers(Ruleset.make("ludii", 5))
    assert covers(Ruleset.make("ludii", 5, ("turn_limit=600",)))  # the turn limit is not a table option
    assert covers(Ruleset.make("ludii", 7))
    assert covers(Ruleset.make("standard", 5))  # by the standard family (test_endgame_standard.py)
    assert covers(Ruleset.make("standard", 7))
    assert not covers(Ruleset.make("ludii", 9))
    assert not covers(Ruleset.make("ludii", 5, ("max_shuttles=2",)))
    assert not covers(Ruleset.make("ludii", 7, ("safe_centre=true",)))


def test_each_size_gets_its_own_tables() -> None:
    """A 7x7 game's searcher reads the 7x7 files (the 5x5 ones index other cells)."""
    from engine.ai.levels import get_level
    from engine.ai.player import make_searcher

    assert make_searcher(RULES7, get_level("hard")).tables is shipped(7)
    assert make_searcher(TABLE_RULES, get_level("hard")).tables is shipped(5)
    assert make_searcher(Ruleset.make("ludii", 9), get_level("hard")).tables is None
    # A lone black piece on a7 (cell 42) against a white one on g1 (cell 6): a draw, in
    # the 7x7 table; the same masks would be cells outside the 5x5 board.
    assert shipped(7).probe(1 << 42, 1 << 6, 0) == 0


def test_loaded_lazily() -> None:
    tables = EndgameTables()
    assert tables.loaded == {}
    tables.probe(1 << 0, 1 << 24, 0)
    assert list(tables.loaded) == [(1, 1)]


def test_ranks_index_every_subset_once() -> None:
    for k in (1, 2, 3):
        masks = subsets(k)
        assert len(masks) == comb(25, k) == len(set(masks))
        assert all(rank_of(m) == i for i, m in enumerate(masks))


@pytest.mark.parametrize(
    ("size", "material"), [(size, m) for size in sorted(SHIPPED_PIECES) for m in sorted(shipped(size).available())]
)
def test_every_sampled_entry_agrees_with_its_children(size: int, material: tuple[int, int]) -> None:
    """Each value follows from its children's, the moves made by the engine's rules
    (not the generator's): a win has a child lost for the opponent (the fastest one
    sets the distance), a loss has only children won by the opponent (the slowest sets
    it), a draw neither."""
    rng = random.Random(hash((size, material)) & 0xFFFF)
    checked = 0
    for _ in range(150):
        pos = _random_position(rng, *material, size=size)
        if pos.result is not None:
            continue
        children = []
        for code in pos.legal_codes():
            pos.push_code(code)
            if pos.result is not None:
                children.append((-1, 0) if pos.result.winner != pos.side else (1, 0))
            else:
                children.append(_entry(pos))
            pos.pop()
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


def _wins_within(pos: Position, plies: int) -> bool:
    """Full-width: the side to act forces a win within ``plies`` turns."""
    if plies <= 0:
        return False
    side = pos.side
    for code in pos.legal_codes():
        pos.push_code(code)
        if pos.result is not None:
            won = pos.result.winner == side
        else:
            won = _loses_within(pos, plies - 1)
        pos.pop()
        if won:
            return True
    return False


def _loses_within(pos: Position, plies: int) -> bool:
    """Full-width: the side to act loses within ``plies`` turns whatever it does."""
    if plies <= 0:
        return False
    side = pos.side
    for code in pos.legal_codes():
        pos.push_code(code)
        if pos.result is not None:
            lost = pos.result.winner != side
        else:
            lost = _wins_within(pos, plies - 1)
        pos.pop()
        if not lost:
            return False
    return True


@pytest.mark.parametrize("size", sorted(SHIPPED_PIECES))
def test_sampled_entries_match_a_full_width_search(size: int) -> None:
    """Short wins and losses are proved at exactly their distance (and not one turn
    sooner); draws and long results are shown not to end within three turns."""
    rng = random.Random(5)
    materials = [(1, 2), (2, 1), (3, 1), (1, 3), (2, 2)]
    if size == 5:
        materials += [(3, 2), (2, 3), (4, 1), (1, 4), (4, 2), (2, 4)]
    wins: list[Position] = []
    losses: list[Position] = []
    others: list[Position] = []
    want = 8 if size == 5 else 4  # short losses are rarer on the bigger board
    for _ in range(100_000):
        if len(wins) >= want and len(losses) >= want and len(others) >= 20:
            break
        material = rng.choice(materials)
        pos = _random_position(rng, *material, size=size)
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


@pytest.mark.parametrize(("size", "pieces"), [(5, 4), (7, 3)])
def test_generator_reproduces_the_shipped_files(size: int, pieces: int) -> None:
    """Rebuilt here (the smaller materials: the rest take minutes), the tables equal
    the shipped files entry for entry."""
    fresh = generate(pieces, size=size)
    assert len(fresh) == pieces * (pieces - 1) // 2
    for material, (side0, side1) in fresh.items():
        path = TABLES.directory / table_name(*material, size)
        shipped0, shipped1 = unpack(path.read_bytes())
        assert shipped0 == side0 and shipped1 == side1, material


def test_hard_plays_a_won_7x7_ending_perfectly() -> None:
    """On 7x7 too, from a table win (three pieces against one) the game ends in
    exactly the table's distance."""
    rng = random.Random(4)
    while True:
        pos = _random_position(rng, 3, 1, size=7)
        if pos.result is None and _entry(pos)[0] == 1 and _entry(pos)[1] >= 6:
            break
    _outcome, distance = _entry(pos)
    winner, start = pos.side, pos.turn
    while pos.result is None:
        for action in best_turn(pos, "hard", 200):
            pos.push(action)
    assert pos.result.winner == winner
    assert pos.turn - start == distance


def _find(outcome: int, least: int, pieces: tuple[int, int], seed: int) -> Position:
    rng = random.Random(seed)
    while True:
        pos = _random_position(rng, *pieces)
        if pos.result is None:
            o, d = _entry(pos)
            if o == outcome and d >= least:
                return pos


def test_hard_plays_a_won_ending_perfectly() -> None:
    """From a table win in d turns, hard against hard (both from the tables) ends the
    game in exactly d turns, the winner the side that was to move."""
    pos = _find(1, 5, (3, 1), seed=3)
    _outcome, distance = _entry(pos)
    winner, start = pos.side, pos.turn
    while pos.result is None:
        for action in best_turn(pos, "hard", 200):
            pos.push(action)
    assert pos.result.winner == winner
    assert pos.turn - start == distance


def test_tables_are_read_before_the_clock_starts() -> None:
    """A few captures from the tables, a move loads them before its budget starts."""
    from engine.ai.levels import get_level
    from engine.ai.player import choose, make_searcher

    rules = Ruleset.make("ludii", 5)
    searcher = make_searcher(rules, get_level("hard"))
    assert searcher.tables is not None
    searcher.tables = EndgameTables()  # a fresh, unread copy
    pos = Position.from_spn("bb3/1w1w1/2b2/w1w2/b3w b m 0/0 - 0 40", rules)  # 9 pieces
    choose(pos, get_level("hard"), 50, searcher=searcher)
    reachable = {(nb, nw) for nb, nw in searcher.tables.available() if nb <= pos.count(0) and nw <= pos.count(1)}
    assert set(searcher.tables.loaded) == reachable
    assert (5, 1) not in reachable  # 4 black pieces, 5 white: never 5 v 1


def test_search_sees_table_wins_beyond_its_horizon() -> None:
    """With 7 pieces on the board, a capture into a table position won in many turns is
    a proven win for a depth-3 search with the tables, and only an advantage without."""
    from engine.ai.levels import get_level
    from engine.ai.player import make_searcher
    from engine.ai.search import WIN_BOUND, Limits

    rng = random.Random(11)
    level = get_level("hard")
    for _ in range(20_000):
        pos = _random_position(rng, 4, 3)
        if pos.result is not None:
            continue
        good = False
        for code in pos.legal_codes():
            pos.push_code(code)
            if pos.result is None and pos.count(0) + pos.count(1) == 6:
                outcome, distance = _entry(pos)
                good = outcome == -1 and distance >= 12
            pos.pop()
            if good:
                break
        if good:
            break
    else:
        pytest.fail("no 7-piece position with a capture into a long table win")
    with_tables = make_searcher(TABLE_RULES, level)
    found = with_tables.search(pos, Limits(max_depth=3))
    assert found.score >= WIN_BOUND and with_tables.table_hits > 0
    without = make_searcher(TABLE_RULES, level)
    without.tables, without.table_pieces = None, 0
    blind = without.search(pos, Limits(max_depth=3))
    assert blind.score < WIN_BOUND
