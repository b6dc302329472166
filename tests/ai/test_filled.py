"""The filled-board table (``ludii`` 5x5): generated from the labels on every symmetric
image, found in the data folder, and used by the search at the end of placement."""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable
from pathlib import Path

import pytest

from bench.filledgen import assemble, boards_file, filled_position, label
from bench.learn_placement import label_searcher, searched_value
from engine import Position, Ruleset
from engine.ai.filled import (
    CENTRE,
    ENTRIES,
    FILLED,
    STEP,
    FilledTable,
    canonical,
    covers,
    file_name,
    images_of,
    index_of,
    pack,
    quantize,
    shipped,
    unpack,
)
from engine.ai.levels import get_level
from engine.ai.player import choose, components, make_searcher
from engine.ai.search import Limits, Searcher

CELLS = [c for c in range(25) if c != CENTRE]
TABLE_RULES = Ruleset.make("ludii", 5)


def _random_board(rng: random.Random) -> int:
    white = 0
    for c in rng.sample(CELLS, 12):
        white |= 1 << c
    return white


def test_the_eight_images_of_a_board_are_the_board_turned_and_mirrored() -> None:
    rng = random.Random(5)
    for _ in range(200):
        white = _random_board(rng)
        images = images_of(white)
        assert images[0] == white
        assert all(image.bit_count() == 12 and image & FILLED == image for image in images)
        # Every image has the same smallest image, and turning twice is a half turn.
        assert {canonical(image) for image in images} == {canonical(white)}
        assert images_of(images[1])[1] == images[2]
    # a1 (cell 0) goes to each corner and back along the board's symmetries.
    assert {image.bit_length() - 1 for image in images_of(1)} == {0, 4, 20, 24}


def test_every_filled_board_has_its_own_index() -> None:
    rng = random.Random(6)
    boards = {_random_board(rng) for _ in range(3000)}
    indexes = {index_of(board) for board in boards}
    assert len(indexes) == len(boards)
    assert all(0 <= i < ENTRIES for i in indexes)
    # The last board in colex order (every White piece on the top cells) is the last entry.
    top = sum(1 << c for c in CELLS[-12:])
    assert index_of(top) == ENTRIES - 1


def test_quantize_rounds_to_the_nearest_step_and_clamps() -> None:
    assert quantize(0) == 0
    assert quantize(14) == 1 and quantize(15) == 2 and quantize(-15) == -2 and quantize(-14) == -1
    assert quantize(10**6) == 127 and quantize(-(10**6)) == -127


def test_a_table_round_trips_and_a_wrong_length_is_refused(tmp_path: Path) -> None:
    values = array("b", bytes(ENTRIES))
    values[17] = -5
    values[ENTRIES - 1] = 127
    path = tmp_path / "t.xz"
    path.write_bytes(pack(values))
    table = FilledTable(path)
    assert unpack(path.read_bytes()) == values
    assert table.value(sum(1 << c for c in CELLS[-12:])) == 127 * STEP
    with pytest.raises(ValueError, match="entries"):
        unpack(pack(array("b", bytes(100))))


def test_the_table_covers_the_presets_movement_rules_on_5x5_only() -> None:
    assert covers(TABLE_RULES)
    assert not covers(Ruleset.make("standard", 5))
    assert not covers(Ruleset.make("ludii", 7))
    assert not covers(Ruleset.make("ludii", 5, {"first_mover": "white"}))
    assert not covers(Ruleset.make("ludii", 5, {"safe_centre": True}))
    # The turn limit and how the board was filled do not change a filled board's worth.
    assert covers(Ruleset.make("ludii", 5, {"turn_limit": 0, "placement": "pairs-then-singles"}))


def _assembled(work: Path, value: Callable[[int], int]) -> Path:
    """A whole table from the generator's ``assemble``: every canonical board labelled
    ``value(board)`` in two job files, as ``label --jobs 2`` leaves them."""
    boards = boards_file(work)
    for job in range(2):
        lines = [f"{b} {value(b)}" for i, b in enumerate(boards) if i % 2 == job]
        (work / f"part-{job}-of-2.txt").write_text("\n".join(lines) + "\n")
    out = work / file_name("ludii")
    assert assemble(work, out) == 0
    return out


def test_the_generator_counts_the_boards_and_spreads_each_label_over_its_images(tmp_path: Path) -> None:
    boards = boards_file(tmp_path)
    assert len(boards) == 339_106 == len(set(boards))
    # Burnside: the classes' sizes add up to every filled board.
    assert sum(len(set(images_of(b))) for b in boards) == ENTRIES

    def value(board: int) -> int:
        return 37 * (board & 0x3FF).bit_count() - 150

    table = FilledTable(_assembled(tmp_path, value))
    rng = random.Random(11)
    for _ in range(300):
        white = _random_board(rng)
        expected = quantize(value(canonical(white))) * STEP
        assert {table.value(image) for image in images_of(white)} == {expected}


def test_a_board_missing_a_label_writes_no_table(tmp_path: Path) -> None:
    first = boards_file(tmp_path)[0]
    (tmp_path / "part-0-of-1.txt").write_text(f"{first} 5\n")
    out = tmp_path / "t.xz"
    assert assemble(tmp_path, out) == 339_105
    assert not out.exists()


def test_a_table_in_the_data_folder_is_used_by_hard_and_expert(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.ai import filled

    monkeypatch.setattr(filled, "DATA_DIR", tmp_path)
    assert shipped(TABLE_RULES) is None  # no file: the search plays without a table
    values = array("b", bytes(ENTRIES))
    (tmp_path / file_name("ludii")).write_bytes(pack(values))
    table = shipped(TABLE_RULES)
    assert table is not None and table.path == tmp_path / "seega5-ludii-filled.xz"
    assert shipped(TABLE_RULES) is table  # one per process
    assert make_searcher(TABLE_RULES, get_level("hard")).filled is table
    assert make_searcher(TABLE_RULES, get_level("expert")).filled is table
    assert make_searcher(TABLE_RULES, get_level("medium")).filled is None
    assert make_searcher(Ruleset.make("standard", 5), get_level("hard")).filled is None


def _before_the_last_turns() -> Position:
    """A ``ludii`` placement with four cells left: Black places a pair, then White."""
    rng = random.Random(3)
    pos = Position(TABLE_RULES)
    while (pos.bb[0] | pos.bb[1]).bit_count() < 20:
        pos.push_code(rng.choice(pos.legal_codes()))
    assert pos.phase == "p" and pos.side == 0 and pos.hand == [2, 2]
    return pos


def test_the_search_chooses_the_placement_the_table_values_most(tmp_path: Path) -> None:
    pos = _before_the_last_turns()
    empty = [c for c in CELLS if not (pos.bb[0] | pos.bb[1]) >> c & 1]
    # Without the table, the search picks some first cell by its evaluation ...
    plain = make_searcher(TABLE_RULES, get_level("medium"))
    first = plain.search(pos, Limits(max_depth=8)).best
    first_cell = pos.copy()
    first_cell.push_code(first)
    chosen = next(c for c in empty if first_cell.bb[0] >> c & 1)
    # ... the table says Black wins only with the two other cells, so White gets these.
    whites = [chosen, next(c for c in empty if c != chosen)]
    target = pos.bb[1] | sum(1 << c for c in whites)
    values = array("b", [-100]) * ENTRIES
    values[index_of(target)] = 100
    path = tmp_path / "filled.xz"
    path.write_bytes(pack(values))
    searcher = Searcher(*components(TABLE_RULES), filled=FilledTable(path))
    result = searcher.search(pos, Limits(max_depth=8))
    assert result.score == 100 * STEP
    assert searcher.filled_hits > 0
    after = pos.copy()
    after.push_code(result.best)
    placed = after.bb[0] & ~pos.bb[0]
    assert placed.bit_length() - 1 not in whites
    # The position itself is the filled board the table was searched at.
    assert filled_position(target, TABLE_RULES).bb == [FILLED & ~target, target]


def test_a_player_reads_the_table_before_its_clock_starts(tmp_path: Path) -> None:
    """Reading the table takes 0.12 s of lzma. The command line plays one action per
    process, so a table read at the search's first probe came out of each placement's
    1 s budget (stop 35 found it: the stop 34 games against Ludii played so). ``choose``
    reads it before the search begins, as it does the endgame tables."""
    path = tmp_path / "filled.xz"
    path.write_bytes(pack(array("b", bytes(ENTRIES))))
    nodes_at_reading: list[int] = []

    class Watched(FilledTable):
        def load(self) -> array[int]:
            if self._values is None:
                nodes_at_reading.append(searcher.nodes)
            return super().load()

    searcher = Searcher(*components(TABLE_RULES), filled=Watched(path))
    choose(_before_the_last_turns(), get_level("hard"), seed=1, max_nodes=5_000, searcher=searcher)
    assert searcher.filled_hits > 0  # the search did reach filled boards ...
    assert nodes_at_reading == [0]  # ... with the table read once, before its first node


def test_a_filled_board_with_a_single_first_step_is_searched_not_called_level() -> None:
    """Black (the first mover) with one piece next to the centre has one legal step;
    ``Searcher.search`` plays a lone action unscored (0), which as a label called every
    such board level. The label searches it: the value of the board after the step,
    negated (the same search one ply later)."""
    rng = random.Random(2)
    around = [7, 11, 13, 17]  # c2, b3, d3, c4: the centre's neighbours
    labels = []
    for _ in range(6):
        white = sum(1 << c for c in around[1:])
        for c in rng.sample([c for c in CELLS if c not in around], 9):
            white |= 1 << c
        pos = filled_position(white, TABLE_RULES)
        assert len(pos.legal_codes()) == 1
        assert label_searcher(TABLE_RULES).search(pos, Limits(max_nodes=2_000)).score == 0  # the old label
        value = label(white, 2_000, TABLE_RULES)
        pos.push_code(pos.legal_codes()[0])
        assert value == -searched_value(label_searcher(TABLE_RULES), pos, Limits(max_nodes=2_000))
        labels.append(value)
    assert all(labels)
