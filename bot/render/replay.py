"""Animated replay of a whole game: one GIF frame for the start and one per turn.

GIF because every Discord client animates it inline (APNG attachments are shown as a
still in most). To stay well under Discord's 8 MB upload limit whatever the game's
length, the frames are drawn at a reduced size (480 x 600, 400 x 500 for very long
games, see :func:`frame_size`), share one palette taken from the game's last position,
and every pixel that did not change since the previous frame is transparent, so a frame
costs only what its turn changed (about 6-9 KB: a 200-turn 9x9 game is under 2 MB).
A game longer than :data:`MAX_FRAMES` turns keeps its first and last turns and evenly
spaced ones between (the documented bound; no real game comes close).

Memory: the last frame is drawn first (its colours make the palette), then each frame is
drawn, mapped to the palette and diffed with the previous one as the GIF writer asks for
it, so only paletted frames (one byte a pixel) are kept, not every frame as RGBA plus two
copies, and each frame is written to the GIF as soon as the next one is drawn (see
:func:`_write_gif`). Outside review: a 130-turn replay grew the process by about 250 MB,
400 turns by about 540 MB (``bench/replay_memory.py`` measures it).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from typing import Any

from PIL import GifImagePlugin, Image, ImageChops

from bot.render.board import board_image, player_names
from bot.render.layout import HEIGHT, WIDTH
from bot.render.sprites import ghost, taken_badge
from bot.render.theme import get_theme
from bot.texts import FALLBACK
from engine import GameRecord, Outcome, Position
from engine.outcome import BLACK, WHITE
from engine.summary import TurnSummary, summarize_turn

log = logging.getLogger(__name__)

MAX_FRAMES = 401
FRAME_MS = 900
FIRST_MS = 1500
LAST_MS = 4000
CLEAR = 255  # the transparent palette index (the palette has 255 colours)


def frame_size(frames: int) -> tuple[int, int]:
    """The frame size for a replay of ``frames`` frames: 480 x 600, 400 x 500 past 250 frames."""
    scale = 2 / 3 if frames <= 250 else 5 / 9
    return (round(WIDTH * scale), round(HEIGHT * scale))


def _frames(record: GameRecord) -> list[tuple[Position, TurnSummary | None]]:
    pos = record.start()
    frames: list[tuple[Position, TurnSummary | None]] = [(pos.copy(), None)]
    for actions in record.turns:
        before = pos.copy()
        for action in actions:
            pos.push(action)
        frames.append((pos.copy(), summarize_turn(before, actions)))
    return frames


def _changes_only(previous: Image.Image, current: Image.Image) -> Image.Image:
    """``current`` with every pixel equal to ``previous`` made transparent.

    The GIF encoder then sees long runs of one index where nothing changed, which LZW
    packs to almost nothing: a frame costs what its turn changed, not a whole picture.
    """
    same = ImageChops.difference(_indices(previous), _indices(current)).point(lambda v: 255 if v == 0 else 0)
    out = current.copy()
    out.paste(CLEAR, (0, 0, *out.size), same)
    return out


def _changes_only_stream(paletted: Iterator[Image.Image]) -> Iterator[Image.Image]:
    """The first frame whole, then each next one with :func:`_changes_only`, lazily: only
    the previous paletted frame is kept to compare with."""
    previous: Image.Image | None = None
    for current in paletted:
        yield current if previous is None else _changes_only(previous, current)
        previous = current


def _indices(img: Image.Image) -> Image.Image:
    return Image.frombytes("L", img.size, img.tobytes())


def _keep(count: int) -> list[int]:
    """Indexes of the frames kept when a game has more than MAX_FRAMES."""
    if count <= MAX_FRAMES:
        return list(range(count))
    step = (count - 1) / (MAX_FRAMES - 1)
    return sorted({round(i * step) for i in range(MAX_FRAMES)})


def _palette_source(last: Image.Image, theme: str) -> Image.Image:
    """The last frame with a strip of the marks' colours under it, for the GIF's one
    palette: made from the last frame alone, it lacked the red of a capture whenever the
    last turn took nothing, and every earlier capture's X came out a faint brown, like the
    centre's pattern (fresh-eyes play-test, stop 36)."""
    th = get_theme(theme)
    size = 24
    marks = [ghost(th, BLACK, size // 2), ghost(th, WHITE, size // 2), taken_badge(th, BLACK, size)]
    strip = Image.new("RGB", (last.width, size), th.frame)
    for i, colour in enumerate((th.capture, th.move, th.accent)):
        strip.paste(colour, (i * size, 0, (i + 1) * size, size))
    for i, sprite in enumerate(marks, start=3):
        strip.paste(sprite, (i * size, 0), sprite)
    source = Image.new("RGB", (last.width, last.height + size))
    source.paste(last.convert("RGB"), (0, 0))
    source.paste(strip, (0, last.height))
    return source


def render_replay(
    record: GameRecord, players: tuple[str, str] = ("", ""), theme: str = "sand", lang: str = FALLBACK
) -> bytes:
    """The game as an animated GIF: the start, then the position after each turn.

    Each frame shows that turn's marks (arrows, placements, captures). The last frame
    holds longer and shows the result, including ends the rules cannot see
    (resignation, time-out) taken from the record's result and termination.

    ``lang``: the language of the frames' words (English by default).

    Pure and CPU-bound (a few seconds for a long game): call it off the event loop.
    """
    names = player_names(players, lang)
    frames = _frames(record)
    keep = _keep(len(frames))
    if len(keep) < len(frames):
        log.info("replay of %d turns reduced to %d frames", len(frames) - 1, len(keep))
    size = frame_size(len(keep))
    final: Outcome | None = None
    if record.result != "*" and frames[-1][0].outcome() is None:
        final = Outcome.from_result(record.result, record.termination or "agreement")
    elif record.termination == "abandoned":  # cancelled: its last frame says so
        final = Outcome(None, "abandoned")
    last = len(keep) - 1

    def draw(j: int) -> Image.Image:
        pos, turn = frames[keep[j]]
        return board_image(
            pos, turn, players=names, theme=theme, outcome=final if j == last else None, size=size, lang=lang
        )

    final_frame = draw(last)
    palette = _palette_source(final_frame, theme).quantize(
        colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    final_paletted = final_frame.quantize(palette=palette, dither=Image.Dither.NONE)
    del final_frame
    paletted = (
        final_paletted if j == last else draw(j).quantize(palette=palette, dither=Image.Dither.NONE)
        for j in range(len(keep))
    )
    durations = [FRAME_MS] * len(keep)
    durations[0] = FIRST_MS
    durations[-1] = LAST_MS
    return _write_gif(_changes_only_stream(paletted), durations)


def _write_gif(frames: Iterator[Image.Image], durations: Sequence[int]) -> bytes:
    """The GIF of paletted ``frames``, each written as soon as the next one is drawn.

    The same bytes as Pillow's ``frames[0].save(format="GIF", save_all=True,
    append_images=frames[1:], duration=durations, loop=0, disposal=1,
    transparency=CLEAR, optimize=False)`` (a test compares them), but that call keeps
    every frame until it writes the file, even when ``append_images`` is an iterator
    (Pillow 13: it adds the time of a frame equal to the one before to that one, so
    it holds them all): 80 MB for 400 frames. This holds one frame back instead, with
    Pillow's public GIF pieces (``getheader``, ``getdata``): like Pillow, it writes
    only the box that changed since the previous frame, and a frame equal to the
    previous one adds its time to it.
    """
    chunks: list[bytes] = []
    previous: Image.Image | None = None
    held: tuple[Image.Image, tuple[int, int], dict[str, Any]] | None = None  # image, offset, params
    for frame, duration in zip(frames, durations, strict=True):
        params: dict[str, Any] = {
            "loop": 0,
            "disposal": 1,
            "transparency": CLEAR,
            "optimize": False,
            "duration": duration,
        }
        if previous is None or held is None:
            header, _ = GifImagePlugin.getheader(frame, None, params)
            chunks += header
            held, previous = (frame, (0, 0), params), frame
            continue
        box = ImageChops.subtract_modulo(frame, previous).getbbox(alpha_only=False)
        if box is None:  # nothing changed: the previous frame holds longer
            held[2]["duration"] += duration
            continue
        chunks += GifImagePlugin.getdata(held[0], held[1], **held[2])
        params["include_color_table"] = True
        changed = frame if box == (0, 0, *frame.size) else frame.crop(box)
        held, previous = (changed, box[:2], params), frame
    if held is not None:
        chunks += GifImagePlugin.getdata(held[0], held[1], **held[2])
    chunks.append(b";")
    return b"".join(chunks)
