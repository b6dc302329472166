"""What the board picture shows without words (play-test pt38c): the captures a pending
chain may still make, whose pieces were taken, and why a removal is due."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable

import pytest
from PIL import Image

from bot.render import render_board
from bot.render.board import chain_steps
from bot.render.layout import layout
from bot.render.theme import get_theme
from bot.render.words import status_text
from bot.texts import text
from engine import Position, Ruleset
from engine.summary import TurnSummary, summarize_turn
from tests.render.scenarios import BY_NAME

Pixel = tuple[int, int, int]


def _picture(position: Position, turn: TurnSummary | None, theme: str = "sand") -> Image.Image:
    """The board as posted (the paletted PNG), in RGB."""
    return Image.open(io.BytesIO(render_board(position, turn, theme=theme))).convert("RGB")


def _after(variant: str, size: int, spn: str, *actions: str) -> tuple[Position, TurnSummary]:
    pos = Position.from_spn(spn, Ruleset.make(variant, size))
    before = pos.copy()
    played = [pos.play(a) for a in actions]
    return pos, summarize_turn(before, played)


def _around(img: Image.Image, centre: tuple[float, float], r0: float, r1: float, test: Callable[[Pixel], bool]) -> int:
    """How many pixels between ``r0`` and ``r1`` from ``centre`` pass ``test``."""
    cx, cy = centre
    count = 0
    for y in range(int(cy - r1), int(cy + r1) + 1):
        for x in range(int(cx - r1), int(cx + r1) + 1):
            if r0 <= ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 <= r1 and test(img.getpixel((x, y))):
                count += 1
    return count


def _whitish(p: Pixel) -> bool:
    return min(p) > 225


def _blackish(p: Pixel) -> bool:
    return max(p) < 75


#: (variant, size, SPN before, the turn's actions): White's chain under chain=same may go
#: on from b2 only; Black's under chain=any (seejeh) with c2 or d1.
CHAINS = {
    "same": ("standard", 5, "bb1ww/b3w/1b1w1/w1bw1/2bwb w m 0/0 - 0 40", ("a2-b2",)),
    "any": ("seejeh", 5, "bbbwb/wwbbw/wwwwb/bw1bw/bwwbb b m 0/0 - 1 14", ("d2-c2",)),
}


@pytest.mark.parametrize("chain", CHAINS)
def test_a_pending_chain_marks_each_piece_that_may_go_on_and_where(chain: str) -> None:
    """Play-test: the caption said "Player 2 may capture again or end", and nothing on the
    picture showed which piece or where. Each piece that may capture again has a ring of
    dots of its colour, and each cell a capturing step leads to a small stone of it."""
    variant, size, spn, actions = CHAINS[chain]
    pos, turn = _after(variant, size, spn, *actions)
    steps = chain_steps(pos)
    legal = [(pos.geo.index(a.src), pos.geo.index(a.dst)) for a in pos.legal_actions() if a.kind == "step"]
    assert steps == legal and steps, "the engine's capturing steps"
    if chain == "any":
        assert len({a for a, _ in steps}) == 2, "two pieces may go on, each is marked"
    img = _picture(pos, turn)
    lay = layout(size)
    r = lay.stone_radius
    own = _whitish if pos.side == 1 else _blackish
    for a, t in steps:
        assert _around(img, lay.centre_of(t), 0, lay.cell * 0.45, own) > 150, f"no mark where {a}-{t} leads"
        assert _around(img, lay.centre_of(a), r * 1.08, r * 1.45, own) > 40, f"no ring around {a}"
    # no mark once the chain has ended
    pos.play("end")
    assert chain_steps(pos) == []


def test_no_chain_marks_outside_a_chain() -> None:
    pos, _ = _after("standard", 5, "bb1ww/b3w/1b1w1/w1bw1/2bwb w m 0/0 - 0 40", "a2-b2", "end")
    assert chain_steps(pos) == []
    assert chain_steps(Position(Ruleset.make("standard", 5))) == []


def _mean(values: Iterable[float]) -> float:
    got = list(values)
    return sum(got) / len(got)


def _luminance(p: Pixel) -> float:
    return 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]


@pytest.mark.parametrize("theme", ["sand", "stone"])
def test_a_captured_piece_keeps_its_colour(theme: str) -> None:
    """Play-test: captured pieces were faded brownish discs crossed out in red, alike for
    both colours. A taken black piece reads dark and grey, a white one light; both keep
    their red X."""
    pos = Position.from_spn("bb1ww/b3w/1b1w1/w1bw1/2bwb w m 0/0 - 0 40", Ruleset.make("standard", 5))
    black_at, white_at = 22, 16  # c5 and b4, empty cells
    turn = TurnSummary(side=0, actions=(), captured=((black_at, 0), (white_at, 1)))
    img = _picture(pos, turn, theme)
    lay = layout(5)
    r = lay.stone_radius

    def body(cell: int) -> list[Pixel]:
        """The ghost's disc away from its X (left, right, above, below the centre)."""
        cx, cy = lay.centre_of(cell)
        d = 0.72 * r
        return [img.getpixel((round(cx + dx), round(cy + dy))) for dx, dy in ((d, 0), (-d, 0), (0, d), (0, -d))]

    black = body(black_at)
    white = body(white_at)
    assert _mean(_luminance(p) for p in black) < 110, f"a black ghost reads dark: {black}"
    assert _mean(p[0] - p[2] for p in black) < 30, f"a black ghost is grey, not brown: {black}"
    assert _mean(_luminance(p) for p in white) > 205, f"a white ghost reads light: {white}"
    assert _mean(p[2] for p in white) > 180, f"a white ghost is white, not orange: {white}"
    red = get_theme(theme).capture
    for cell in (black_at, white_at):
        cx, cy = lay.centre_of(cell)
        px = img.getpixel((round(cx + r * 0.3), round(cy + r * 0.3)))
        assert sum(abs(a - b) for a, b in zip(px, red, strict=True)) < 60, "still crossed out in red"


def test_a_removal_says_who_is_blocked() -> None:
    """Play-test (seejeh): the footer said only "Player 2 to remove a piece"; the message
    said "Black cannot step, so you take one of its pieces". The picture says why too."""
    pos, _ = _after("seejeh", 7, "wwwwbbb/wwwwbbb/wwwwbbb/www1bbb/wwwbbbb/wwwbbbb/wwwbbbb w m 0/0 - 0 26", "c4-d4")
    assert pos.phase == "r" and pos.side == 1
    players = ("Player 1", "Player 2")
    assert status_text(pos, players) == "Player 2 to remove a piece: Black is blocked"
    arabic = status_text(pos, players, lang="ar")
    assert arabic == "Player 2 " + text("ar", "picture.doing.remove_blocked", colour="الأسود")
    assert "محاصر" in arabic
    # fouze: the blocked player removes, itself the one blocked
    fouze = Position.from_spn("3wb/4w/5/w4/bw3 b r 0/0 - 0 40", Ruleset.make("fouze", 5))
    assert status_text(fouze, ("Amira", "Omar")) == "Amira to remove a piece: Black is blocked"
    assert status_text(fouze, ("You", "Omar")) == "You to remove a piece: you are blocked"


def test_the_scenarios_of_these_findings_exist() -> None:
    for name in ("mid-chain-5x5", "chain-any-stone-5x5", "removal-blocked-7x7"):
        assert name in BY_NAME
