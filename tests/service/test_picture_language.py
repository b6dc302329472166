"""Whose language a board picture speaks: the player to move's (their ``/seega language``
choice, as the message posted with it), whoever acted or asked; the person the bot plays
for the bot's replies, English without one; the console's pictures the table's language."""

from __future__ import annotations

import io
import random
from pathlib import Path

from PIL import Image, ImageChops

from bot import render
from bot.ai_pool import ThreadAiRunner
from bot.clock import FakeClock
from bot.render.layout import HEIGHT, WIDTH, layout
from bot.results import Player
from bot.service import GameService
from bot.storage import Storage
from engine import Position, Ruleset
from tests.service.helpers import ALICE, BOB, GUILD, insert_from
from tests.service.test_console import run_console

#: White (Bob) to move can chain: d3-c3 takes c2, then c3-c2, c2-b2.
CHAIN = "wbbbw/wwbwb/bb1ww/wbbbb/wbwww w m 0/0 - 0 25"
#: The players' cards: names, counts and the "to move" badge, with no clock in them.
CARDS = (0, 0, WIDTH, layout(5, WIDTH, HEIGHT).cards[0][3] + 2)


async def _service(path: Path) -> GameService:
    storage = await Storage.open(path)
    return GameService(storage, ThreadAiRunner(), render, FakeClock(), random.Random(1))  # type: ignore[arg-type]


def _cards(png: bytes | None) -> Image.Image:
    assert png is not None
    return Image.open(io.BytesIO(png)).convert("RGB").crop(CARDS)


def _count_language_reads(service: GameService) -> list[int]:
    """The ids whose stored language the service reads from now on, in order."""
    reads: list[int] = []
    read = service.storage.user_language

    async def counted(user_id: int) -> str | None:
        reads.append(user_id)
        return await read(user_id)

    service.storage.user_language = counted  # type: ignore[method-assign]
    return reads


def _same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is None


async def test_a_board_picture_speaks_the_language_of_the_player_to_move(tmp_path: Path) -> None:
    """Drawn for who acted, each player's board came in the other's language (play-test)."""
    service = await _service(tmp_path / "a.db")
    try:
        await service.set_language(BOB.user_id, "ar")
        await insert_from(service, 1, CHAIN)
        moved = await service.move(1, BOB.user_id, "d3-c3")
        pos = Position.from_spn(CHAIN)
        pos.play("d3-c3")
        names = ("Alice", "Bob")
        arabic = _cards(render.render_board(pos, players=names, lang="ar"))
        english = _cards(render.render_board(pos, players=names))
        assert not _same(arabic, english)
        assert moved.reader == BOB.user_id and _same(_cards(moved.png), arabic), "Bob chains on: his language"
        # Anyone may look at the board: it is in the language of the player to move.
        assert _same(_cards((await service.board(1, ALICE.user_id)).png), arabic)
        assert _same(_cards((await service.board(1)).png), arabic)
        ended = await service.end_turn(1, BOB.user_id)
        pos.play("end")
        assert ended.reader == ALICE.user_id, "Alice is to move: her language, though Bob acted"
        assert _same(_cards(ended.png), _cards(render.render_board(pos, players=names)))
    finally:
        await service.storage.close()
        service.ai.close()


async def test_the_bots_reply_is_drawn_in_the_language_of_the_person_it_plays(tmp_path: Path) -> None:
    service = await _service(tmp_path / "b.db")
    bot = Player.bot("easy")
    try:
        await service.set_language(ALICE.user_id, "ar")
        await insert_from(service, 1, "wbbbw/w1bwb/bb1ww/wbbbb/wbw1w w p 0/2 - 0 24", ALICE, bot)
        reads = _count_language_reads(service)
        result = await service.bot_turn(1)
        # One picture per step of the reply, one read of the reader's language for all.
        assert len(result.events) >= 2 and reads == [ALICE.user_id]
        game = await service.game(1)
        assert game is not None and result.png is not None
        after = Position.from_spn(game.spn, Ruleset.make("standard", 5))
        # The bot's name is in Arabic too, as in the message beside the picture.
        names = ("Alice", "بوت سيجة السهل")
        assert _same(_cards(result.png), _cards(render.render_board(after, players=names, lang="ar")))
        english_name = render.render_board(after, players=("Alice", "Seega bot (easy)"), lang="ar")
        assert not _same(_cards(result.png), _cards(english_name))
        assert not _same(_cards(result.png), _cards(render.render_board(after, players=names)))
    finally:
        await service.storage.close()
        service.ai.close()


def test_the_console_draws_arabic_pictures_at_an_arabic_table_in_hot_seat_too(tmp_path: Path) -> None:
    """Player 2 has no language of their own: the table's language is the pictures' one."""
    run_console(
        tmp_path / "c.db",
        ["/seega language ar", "/seega challenge size:5 color:black", "/place a1 b1", "/place a2 b2"],
        tmp_path,
    )
    images = sorted((tmp_path / "seega-images").glob("seega-game1-*.png"))
    assert images
    pos = Position(Ruleset.make("standard", 5))
    for cell in ("a1", "b1", "a2", "b2"):
        pos.play(cell)
    names = ("اللاعب 1", "اللاعب 2")  # named in the table's language too (native re-check, stop 36)
    got = _cards(images[-1].read_bytes())
    assert _same(got, _cards(render.render_board(pos, players=names, lang="ar")))
    assert not _same(got, _cards(render.render_board(pos, players=("Player 1", "Player 2"), lang="ar")))
    assert not _same(got, _cards(render.render_board(pos, players=names)))


def test_the_console_against_the_bot_names_you_and_the_bot_in_arabic(tmp_path: Path) -> None:
    """Play-test finding: once the service named the bot in the picture's language, the
    console no longer knew it for the bot, and the card said "Player 1" instead of "You"."""
    from bot.render.words import YOU

    run_console(tmp_path / "d.db", ["/seega language ar", "/seega play-bot level:easy color:white"], tmp_path)
    (image,) = sorted((tmp_path / "seega-images").glob("seega-game1-*.png"))
    pos = Position(Ruleset.make("standard", 5))
    for cell in ("a1", "b1"):  # the cards show counts and names only: any two cells do
        pos.play(cell)
    got = _cards(image.read_bytes())
    assert _same(got, _cards(render.render_board(pos, players=("بوت سيجة السهل", YOU), lang="ar")))
    assert not _same(got, _cards(render.render_board(pos, players=("بوت سيجة السهل", "Player 1"), lang="ar")))


async def test_the_boards_language_survives_hostile_ids_and_two_requests_at_once(tmp_path: Path) -> None:
    """Hostile input beside the board's language: ids out of range, another person's id,
    the same request twice at once. A picture is never lost and never in the language of
    whoever asked: in the player to move's (Bob's)."""
    import asyncio

    service = await _service(tmp_path / "h.db")
    try:
        await service.set_language(BOB.user_id, "ar")
        await service.set_language(987654321, "en")
        await insert_from(service, 1, CHAIN)
        pos = Position.from_spn(CHAIN)
        names = ("Alice", "Bob")
        arabic = _cards(render.render_board(pos, players=names, lang="ar"))
        reads = _count_language_reads(service)
        for huge in (10**40, -(10**40), 2**63):  # out of any id range: never looked up
            assert _same(_cards((await service.board(1, huge)).png), arabic)
        assert set(reads) == {BOB.user_id}
        # Two people ask at the same moment: the same picture, in the player to move's language.
        bob, alice = await asyncio.gather(service.board(1, BOB.user_id), service.board(1, ALICE.user_id))
        assert _same(_cards(bob.png), arabic) and _same(_cards(alice.png), arabic)
        # Someone else (who chose English, not a player here) asks: still Bob's language.
        assert _same(_cards((await service.board(1, 987654321)).png), arabic)
    finally:
        await service.storage.close()
        service.ai.close()


async def test_a_replay_survives_hostile_ids_and_two_askers_at_once(tmp_path: Path) -> None:
    """Hostile input on /seega record's reader: ids out of any range get English without
    a query, another person's choice is never used, and two people asking at the same
    moment each get the replay in their own language, with one read each."""
    import asyncio

    from engine.record import read_sgn

    service = await _service(tmp_path / "r.db")
    try:
        await service.set_language(BOB.user_id, "ar")
        await insert_from(service, 1, CHAIN)
        await service.resign(1, ALICE.user_id)
        reads = _count_language_reads(service)
        english = (await service.record(GUILD, channel_id=1)).replay
        record = read_sgn((await service.record(GUILD, channel_id=1, replay=False)).sgn)
        assert english == render.render_replay(record, ("Alice", "Bob"))
        for huge in (10**40, -(10**40), 2**63):
            assert (await service.record(GUILD, channel_id=1, user_id=huge)).replay == english
        assert reads == []
        bob, alice = await asyncio.gather(
            service.record(GUILD, channel_id=1, user_id=BOB.user_id),
            service.record(GUILD, channel_id=1, user_id=ALICE.user_id),
        )
        assert bob.replay == render.render_replay(record, ("Alice", "Bob"), lang="ar")
        assert alice.replay == english and sorted(reads) == sorted([BOB.user_id, ALICE.user_id])
    finally:
        await service.storage.close()
        service.ai.close()
