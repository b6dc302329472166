"""Renderer speed: median time to draw a board PNG, against Pillow just encoding a PNG of that size.

Run: ``.venv/bin/python -m bench.render [--repeat N]``. Prints figures; asserts nothing.

Times are CPU seconds of this process (``time.process_time``) so that other work on the
shared machine disturbs them less; wall-clock medians are printed too. The static board
layer, the sprites and the palette are cached per (size, theme, image size), so the
first render of a size is slower and is left out (a warm-up), as in the running bot.

Columns:
- ``render``: ``render_board`` end to end (compose + map to the palette + PNG encode).
- ``compose`` / ``palette`` / ``encode``: its three parts.
- ``bare PNG``: Pillow's default ``save(format="PNG")`` of the same 720 x 900 RGB picture:
  the cost of just encoding an image that size, the yardstick of the issue.
- ``bare L1``: the same with ``compress_level=1``, a stricter yardstick.

A last line times the rating chart of a player with 100,000 rated games (a random walk),
drawn through at most ``MAX_POINTS`` points a line (outside review: 0.94 s drawing all).
The memory of a replay GIF has its own script, ``bench/replay_memory.py``.
"""

from __future__ import annotations

import argparse
import io
import itertools
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from PIL import Image

from bot.render import render_board
from bot.render.board import board_image, encode_png, to_palette
from bot.render.chart import ChartWords, rating_chart
from engine import Position, Ruleset
from engine.summary import TurnSummary, summarize_turn

#: Movement-phase positions with a capturing turn just played (5x5 a two-step chain).
CASES = {
    5: ("bb1ww/b3w/1b1w1/w1bw1/2bwb w m 0/0 - 0 40", ("a2-b2", "b2-b1")),
    7: ("b1bbbw1/1b1b2b/2wwb1b/1ww4/1www2w/2bw1wb/w2wwww b m 0/0 - 6 88", ("g5-g4",)),
    9: (
        "wb1b1bbww/bbbbwbbwb/w2bb2ww/wbbw1wwww/ww1wwbb1b/1wwww1bwb/w2bwwbbb/1ww1bbbww/wbwbbwbbw b m 0/0 - 10 90",
        ("g4-f4", "f4-f3"),
    ),
}
PLAYERS = ("Amira", "أحمد الصغير")


def case(n: int) -> tuple[Position, TurnSummary]:
    """The position and last turn drawn for size ``n``."""
    spn, actions = CASES[n]
    pos = Position.from_spn(spn, Ruleset.make("standard", n))
    before = pos.copy()
    played = [pos.play(a) for a in actions]
    return pos, summarize_turn(before, played)


def median_ms(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median CPU and wall milliseconds of ``repeat`` calls."""
    cpu, wall = [], []
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        fn()
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
    return statistics.median(cpu), statistics.median(wall)


def bare_png(img: Image.Image, **options: int) -> bytes:
    """Pillow encoding ``img`` as PNG, nothing else."""
    out = io.BytesIO()
    img.save(out, format="PNG", **options)
    return out.getvalue()


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=41)
    args = parser.parse_args()
    print(f"median of {args.repeat} runs, CPU ms (wall ms); image 720x900")
    header = ("size", "render", "compose", "palette", "encode", "bare PNG", "bare L1", "render/bare", "render/L1", "KB")
    print("  ".join(f"{h:>13}" for h in header))
    for n in (5, 7, 9):
        pos, turn = case(n)
        data = render_board(pos, turn, players=PLAYERS)  # warm the caches
        img = board_image(pos, turn, players=PLAYERS)
        pal = to_palette(img, n, "sand")
        render = median_ms(partial(render_board, pos, turn, players=PLAYERS), args.repeat)
        compose = median_ms(partial(board_image, pos, turn, players=PLAYERS), args.repeat)
        palette = median_ms(partial(to_palette, img, n, "sand"), args.repeat)
        encode = median_ms(partial(encode_png, pal), args.repeat)
        bare = median_ms(partial(bare_png, img), args.repeat)
        bare1 = median_ms(partial(bare_png, img, compress_level=1), args.repeat)
        cells = [f"{n}x{n}"]
        cells += [f"{c:.1f} ({w:.1f})" for c, w in (render, compose, palette, encode, bare, bare1)]
        cells += [f"{render[0] / bare[0]:.2f}", f"{render[0] / bare1[0]:.2f}", f"{len(data) / 1024:.0f}"]
        print("  ".join(f"{c:>13}" for c in cells))
    rng = random.Random(1)
    walk = list(itertools.accumulate((rng.uniform(-16, 16) for _ in range(100_000)), initial=1500.0))
    words = ChartWords("rating history", x_axis="rated games", legend={"5": "5x5"})
    cpu, wall = median_ms(partial(rating_chart, {5: walk}, words), max(3, args.repeat // 8))
    print(f"rating chart of {len(walk) - 1:,} games: {cpu:.0f} ms CPU ({wall:.0f} ms wall)")


if __name__ == "__main__":
    main()
