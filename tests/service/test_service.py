"""Every service operation on a real database (SQLite and PostgreSQL), and every bad input: a clear
error, an unchanged database."""

from __future__ import annotations

import random

import pytest

from bot.clock import FakeClock
from bot.results import (
    BadInputError,
    ChallengeError,
    ChannelBusyError,
    CorruptGameError,
    GameOverServiceError,
    IllegalMoveError,
    NoGameError,
    NotAPlayerError,
    NotYourTurnError,
    OfferResult,
    Player,
    ServiceError,
)
from bot.service import GameService
from bot.service.commands import play_place
from bot.service.limits import Limits
from engine import Position, Ruleset, read_sgn
from tests.service.helpers import (
    ALICE,
    BOB,
    CAROL,
    GUILD,
    MOD,
    Db,
    close_service,
    execute,
    insert_from,
    make_service,
    place_all,
    play_action,
    play_out,
    snapshot,
    start_people,
    write_lock_held,
)

CHAIN_SPN = "bbwwb/wwbbw/bw1bb/bwbbb/wwwww w m 0/0 - 0 13"  # white b3-c3 captures, then c3-c4 or end
PASS_SPN = "bwbbw/wbww1/bbw1w/bbbww/bbwww b m 0/0 - 8 32"  # black is blocked: only pass
REMOVE_SPN = "bwbbw/bwbwb/w1w1w/bwwwb/bbwwb b r 0/0 - 0 14"  # fouze: black removes a white piece


async def expect_refused(service: GameService, db_path: Db, call, error: type[ServiceError], *words: str) -> str:
    """``call()`` raises ``error`` whose message contains ``words``, and nothing changes."""
    before = snapshot(db_path)
    with pytest.raises(error) as info:
        await call()
    message = str(info.value)
    for word in words:
        assert word in message, message
    assert snapshot(db_path) == before
    return message


# --------------------------------------------------------------------------- placement


async def test_a_split_cell_is_suggested_only_when_the_board_has_it(service: GameService, db_path: Db) -> None:
    """ "/move i 9" on a 5x5 board answered "did you mean i9?", a cell the board does not
    have: a joined cell is suggested only when it is on the board, else it is refused as
    off the board with the board's cells."""
    off = "'i9' is not a cell of this 5×5 board; cells are written like b2, from a1 to e5."
    await insert_from(service, 1, "wbbww/wwbbw/ww1bb/bwwbb/bbwwb w m 0/0 - 0 13")  # Bob (white) steps
    for typed in ("i 9", "c2 to i 9", "9 i"):
        call = lambda t=typed: service.move(1, BOB.user_id, t)  # noqa: E731
        said = await expect_refused(service, db_path, call, BadInputError, off)
        assert "did you mean" not in said, said
    said = await expect_refused(service, db_path, lambda: service.move(1, BOB.user_id, "c 2 c 3"), BadInputError)
    assert "did you mean /move c2 c3?" in said, said
    await insert_from(service, 2, "2w1w/w1b2/bb1bb/2w2/4b w p 6/8 - 0 6")  # Bob (white) places
    said = await expect_refused(service, db_path, lambda: service.place(2, BOB.user_id, "i 9"), BadInputError, off)
    assert "did you mean" not in said, said
    said = await expect_refused(service, db_path, lambda: service.place(2, BOB.user_id, "a 2"), BadInputError)
    assert "did you mean a2?" in said, said
    # Two cells each typed in two words (console play-test, stop 39): named first was 'a'.
    said = await expect_refused(service, db_path, lambda: service.place(2, BOB.user_id, "a 2 b 1"), BadInputError)
    assert "did you mean a2 b1?" in said, said
    said = await expect_refused(service, db_path, lambda: service.place(2, BOB.user_id, "a 2 i 9"), BadInputError)
    assert "did you mean" not in said, said


async def test_challenge_accept_and_place(service: GameService, db_path: Db) -> None:
    started = await start_people(service, 1)
    assert started.game.black == ALICE and started.game.white == BOB
    assert started.to_move == ALICE and started.ping == ALICE.user_id
    assert started.game.spn == "5/5/5/5/5 b p 12/12 - 0 1"
    result = await service.place(1, ALICE.user_id, "a1", "B2 ")
    assert result.events[0].actions == ("a1", "b2")
    assert result.events[0].placed == ("a1", "b2")
    assert result.events[0].turn_complete
    assert result.to_move == BOB and result.ping == BOB.user_id
    assert result.game.spn == "5/5/5/1b3/b4 w p 10/12 - 0 2"
    assert snapshot(db_path)["games"][0][14] == result.game.spn  # spn column stored


async def test_a_pair_placed_one_cell_at_a_time_is_told_whole(service: GameService, db_path: Db) -> None:
    """Play-tester: "/place a1" then "/place b2" answered "placed on b2", the last cell
    only, where "/place a1 b2" says "placed on a1, b2". The second command's event names
    the turn's whole placement, for every adapter (the words are made once)."""
    from bot import wording

    await start_people(service, 1)
    first = await service.place(1, ALICE.user_id, "a1")
    assert first.events[0].placed == ("a1",) and not first.events[0].turn_complete
    second = await service.place(1, ALICE.user_id, "b2")
    event = second.events[0]
    assert event.actions == ("b2",), "the command played one action"
    assert event.placed == ("a1", "b2") and event.turn_complete
    assert wording.event_text(event, "en") == "placed on a1, b2"
    assert wording.event_text(event, "ar") == "وضع على a1،\u200f b2"
    # a pair given at once reads the same
    both = await service.place(1, BOB.user_id, "a2 b1")
    assert wording.event_text(both.events[0], "en") == "placed on a2, b1"


async def test_this_stops_refusals_under_hostile_input(service: GameService, db_path: Db) -> None:
    """The refusals added in this stop (a word that is not a cell before the count, a step
    from an empty cell) against what an attacker sends: long text, huge numbers, another
    user's id, and the same request twice at once. Each is refused and nothing is stored."""
    import asyncio

    await start_people(service, 1)
    await service.place(1, ALICE.user_id, "a1 b1")
    long_word = "z" * 10_000
    msg = await expect_refused(
        service, db_path, lambda: service.place(1, BOB.user_id, f"{long_word} a2 a3"), BadInputError, "is not a cell"
    )
    assert len(msg) < 500, "the typed text is echoed clipped, not whole"
    await expect_refused(
        service,
        db_path,
        lambda: service.place(1, BOB.user_id, "a2 a3 a" + "9" * 400),
        BadInputError,
        "is not a cell of this 5×5 board",
    )
    # another user's id: who may play is checked before what was typed, so a stranger and
    # the player waiting for their turn learn nothing about the words
    await expect_refused(
        service, db_path, lambda: service.place(1, CAROL.user_id, "zz99 ;DROP TABLE games"), NotAPlayerError
    )
    await expect_refused(
        service, db_path, lambda: service.place(1, ALICE.user_id, "zz99 ;DROP TABLE games"), NotYourTurnError
    )
    # the same refused request twice at once: both refused, in the same words
    before = snapshot(db_path)
    both = await asyncio.gather(
        *(service.place(1, BOB.user_id, "zz99 ;DROP TABLE games") for _ in range(2)), return_exceptions=True
    )
    assert all(isinstance(r, BadInputError) and "'zz99' is not a cell" in str(r) for r in both), both
    assert snapshot(db_path) == before
    # a step from an empty cell, twice at once, in the movement phase
    await insert_from(service, 3, CHAIN_SPN)
    before = snapshot(db_path)
    both = await asyncio.gather(*(service.move(3, BOB.user_id, "c3 b3") for _ in range(2)), return_exceptions=True)
    assert all(isinstance(r, IllegalMoveError) and "c3 is empty" in str(r) for r in both), both
    assert snapshot(db_path) == before
    await expect_refused(service, db_path, lambda: service.move(3, CAROL.user_id, "c3 b3"), NotAPlayerError)


async def test_place_one_piece_then_the_second(service: GameService) -> None:
    await start_people(service, 1)
    first = await service.place(1, ALICE.user_id, "a1")
    assert not first.events[0].turn_complete and first.to_move == ALICE and first.ping is None
    second = await service.place(1, ALICE.user_id, "e5")
    assert second.to_move == BOB


async def test_place_refusals(service: GameService, db_path: Db) -> None:
    await start_people(service, 1)
    await service.place(1, ALICE.user_id, "a1 b1")
    await expect_refused(
        service, db_path, lambda: service.place(1, ALICE.user_id, "c1"), NotYourTurnError, "not your turn", "Bob"
    )
    await expect_refused(
        service, db_path, lambda: service.place(1, CAROL.user_id, "c1"), NotAPlayerError, "Alice", "Bob"
    )
    await expect_refused(
        service,
        db_path,
        lambda: service.place(1, BOB.user_id, "a1"),
        IllegalMoveError,
        "a1 is already taken",
        "you can place on",
        "a2",
    )
    await expect_refused(
        service,
        db_path,
        lambda: service.place(1, BOB.user_id, "c3"),
        IllegalMoveError,
        "c3 is the centre",
        "you can place on",
    )
    await expect_refused(
        service, db_path, lambda: service.place(1, BOB.user_id, "z9"), BadInputError, "'z9' is not a cell", "a1 to e5"
    )
    await expect_refused(service, db_path, lambda: service.place(1, BOB.user_id, "f6"), BadInputError, "a1 to e5")
    # the second cell is bad: the first is not placed either
    same = await expect_refused(
        service,
        db_path,
        lambda: service.place(1, BOB.user_id, "a2", "a2"),
        IllegalMoveError,
        "The two cells must differ: a2 was given twice",
    )
    # its example is two cells free now (fresh-eyes play-test, stop 36: "like a1 b2" with a1 taken)
    assert same.endswith("like c1 d1."), same
    # a cell typed as two words, or number first, is named as the cell meant (stop 36)
    await expect_refused(
        service,
        db_path,
        lambda: service.place(1, BOB.user_id, "c 2"),
        BadInputError,
        "did you mean c2? A cell is one word, letter and number together",
    )
    await expect_refused(
        service,
        db_path,
        lambda: service.place(1, BOB.user_id, "2c d2"),
        BadInputError,
        "did you mean c2? The letter comes first",
    )
    await expect_refused(
        service, db_path, lambda: service.place(1, BOB.user_id, "a2 a3 a4"), BadInputError, "at most two"
    )
    # words that are not cells are named before the count (review: "/place zz99 ;DROP
    # TABLE games" answered "at most two pieces, not 4", which hid what was wrong)
    msg = await expect_refused(
        service,
        db_path,
        lambda: service.place(1, BOB.user_id, "zz99 ;DROP TABLE games"),
        BadInputError,
        "'zz99' is not a cell of this 5×5 board",
        "a1 to e5",
    )
    assert "at most two" not in msg
    await expect_refused(
        service, db_path, lambda: service.place(1, BOB.user_id, "a2 a3 " + "x " * 30_000), BadInputError, "'x'"
    )
    await expect_refused(
        service,
        db_path,
        lambda: service.move(1, BOB.user_id, "a2 a3"),
        IllegalMoveError,
        "cannot move a piece now",
        "/place",
    )


async def test_no_game_and_game_over(service: GameService, db_path: Db) -> None:
    await expect_refused(
        service,
        db_path,
        lambda: service.place(5, ALICE.user_id, "a1"),
        NoGameError,
        "no game in this channel",
        "/seega play-bot",
    )
    await expect_refused(service, db_path, lambda: service.board(5), NoGameError, "no game")
    await start_people(service, 1)
    over = await service.resign(1, BOB.user_id)
    assert over.game_over is not None and over.game_over.winner == ALICE
    await expect_refused(
        service,
        db_path,
        lambda: service.place(1, ALICE.user_id, "a1"),
        GameOverServiceError,
        "is over",
        "Alice won",
        "resignation",
    )
    await expect_refused(service, db_path, lambda: service.resign(1, ALICE.user_id), GameOverServiceError, "is over")
    # ... but the final board stays reachable, with how it ended.
    final = await service.board(1)
    assert final.game_over is not None and final.game_over.winner == ALICE
    assert final.game_over.reason == "resignation" and final.to_move is None


async def test_second_game_in_a_busy_channel(service: GameService, db_path: Db) -> None:
    """A player of the channel's game is told to finish it first; anybody else, who
    cannot (play-test: Carol was told to resign a game she does not play), who plays here
    and to play elsewhere."""
    await start_people(service, 1)
    outsider = "Alice and Bob are playing here; start yours in another channel or a thread."
    for call in (lambda: service.challenge(GUILD, 1, CAROL, BOB), lambda: service.play_bot(GUILD, 1, CAROL, "easy")):
        assert await expect_refused(service, db_path, call, ChannelBusyError) == outsider
    for call in (lambda: service.challenge(GUILD, 1, BOB, CAROL), lambda: service.play_bot(GUILD, 1, ALICE, "easy")):
        await expect_refused(service, db_path, call, ChannelBusyError, "already has a game", "/seega resign", "thread")
    # a challenge asking for a thread is fine, and is played in the new thread
    ch = await service.challenge(GUILD, 1, CAROL, BOB, thread=True)
    accepted = await service.accept_challenge(ch.challenge.id, BOB.user_id, channel_id=77)
    assert accepted.game.channel_id == 77
    # accepting into a busy channel is refused, and closes the challenge: left open, its
    # Accept started a game nobody meant once the other game was over (play-test)
    ch2 = await service.challenge(GUILD, 1, CAROL, ALICE, thread=True)
    with pytest.raises(ChannelBusyError, match="are playing here"):  # Alice does not play there
        await service.accept_challenge(ch2.challenge.id, ALICE.user_id, 77)
    assert (await service.get_challenge(ch2.challenge.id)).status == "closed"
    await service.resign(77, BOB.user_id)
    with pytest.raises(ChallengeError, match="it was closed when a game started in this channel"):
        await service.accept_challenge(ch2.challenge.id, ALICE.user_id, 77)
    assert await service.game(77) is None


async def test_challenge_refusals_and_decline(service: GameService, db_path: Db, clock: FakeClock) -> None:
    await expect_refused(
        service, db_path, lambda: service.challenge(GUILD, 1, ALICE, ALICE), ChallengeError, "yourself"
    )
    await expect_refused(
        service, db_path, lambda: service.challenge(GUILD, 1, ALICE, BOB, 6), BadInputError, "5×5, 7×7 or 9×9"
    )
    await expect_refused(
        service,
        db_path,
        lambda: service.challenge(GUILD, 1, ALICE, BOB, 7, "five-in-a-row"),
        BadInputError,
        "five-in-a-row is played on 5×5",
    )
    await expect_refused(
        service,
        db_path,
        lambda: service.challenge(GUILD, 1, ALICE, BOB, 5, "chess"),
        BadInputError,
        "not a variant",
        "standard",
    )
    await expect_refused(
        service,
        db_path,
        lambda: service.challenge(GUILD, 1, ALICE, BOB, color="green"),
        BadInputError,
        "black, white or random",
    )
    ch = await service.challenge(GUILD, 1, ALICE, BOB, 7, "seejeh", "white")
    assert ch.ping == BOB.user_id and ch.challenge.variant == "seejeh"
    await expect_refused(
        service, db_path, lambda: service.accept_challenge(ch.challenge.id, CAROL.user_id), ChallengeError, "Only Bob"
    )
    await expect_refused(
        service, db_path, lambda: service.decline_challenge(ch.challenge.id, CAROL.user_id), ChallengeError, "Only Bob"
    )
    declined = await service.decline_challenge(ch.challenge.id, BOB.user_id)
    assert declined.challenge.status == "declined"
    await expect_refused(
        service,
        db_path,
        lambda: service.accept_challenge(ch.challenge.id, BOB.user_id),
        ChallengeError,
        "no longer open",
        "declined",
    )
    await expect_refused(
        service, db_path, lambda: service.accept_challenge(999, BOB.user_id), ChallengeError, "no challenge #999"
    )
    # once the wait after a decline is over (docs/limits.md), colours are honoured
    clock.advance(Limits().rechallenge_after)
    ch = await service.challenge(GUILD, 1, ALICE, BOB, 7, "seejeh", "white")
    started = await service.accept_challenge(ch.challenge.id, BOB.user_id)
    assert started.game.white == ALICE and started.game.size == 7 and started.game.variant == "seejeh"


# --------------------------------------------------------------------------- movement


async def test_another_piece_in_a_chain_is_refused_for_the_true_reason(service: GameService, db_path: Db) -> None:
    """Fresh-eyes play-test (stop 36): in a chain, stepping another piece was refused with
    "Only a capture continues a chain, and e3 has none", though e3-d3 would capture d2.
    The reason is the same-piece rule: only the piece that captured goes on."""
    await insert_from(service, 4, "wbbbw/wwbwb/bb1ww/wbbbb/wbwww w m 0/0 - 0 25")  # White (Bob) to move
    await service.move(4, BOB.user_id, "d3 c3")  # takes c2; c3 may go on
    msg = await expect_refused(
        service,
        db_path,
        lambda: service.move(4, BOB.user_id, "e3 d3"),  # would take d2 (d1 is White's), on another turn
        IllegalMoveError,
        "Only the piece that just captured, on c3, may go on capturing in this turn; e3 waits",
    )
    assert "has none" not in msg


async def test_move_chain_and_end_turn(service: GameService, db_path: Db) -> None:
    await insert_from(service, 3, CHAIN_SPN)
    msg = await expect_refused(
        service,
        db_path,
        lambda: service.move(3, BOB.user_id, "a5 a4"),
        IllegalMoveError,
        "a5 is not one of your pieces",
        "you can move from",
    )
    assert "b3" in msg
    # an empty cell typed first (the destination, or a slip): said as such, not "not yours"
    msg = await expect_refused(
        service,
        db_path,
        lambda: service.move(3, BOB.user_id, "c3 b3"),
        IllegalMoveError,
        "c3 is empty: there is no piece there to move; you can move from",
    )
    assert "b3" in msg and "not one of your pieces" not in msg
    await expect_refused(
        service,
        db_path,
        lambda: service.move(3, BOB.user_id, "b3", "b4"),
        IllegalMoveError,
        "b4 is occupied by one of your pieces",  # the why, not just "b3 cannot step to b4"
        "you can step to c3",
    )
    await expect_refused(
        service,
        db_path,
        lambda: service.move(3, BOB.user_id, "b3", "b5"),
        IllegalMoveError,
        "b3 cannot step to b5: pieces step one cell, to a neighbour",
    )
    await expect_refused(
        service, db_path, lambda: service.move(3, BOB.user_id, "b3"), BadInputError, "Say where b3 goes", "c3"
    )
    await expect_refused(service, db_path, lambda: service.move(3, BOB.user_id, "b3 to"), BadInputError, "not a move")
    # a cell off the board is named, as /place names it (newcomer play-test: "'d6 j6' is not a move")
    for typed, cell in (("b3 j3", "j3"), ("b3-a10", "a10"), ("j6", "j6"), ("6b b3", "6b")):
        await expect_refused(
            service,
            db_path,
            lambda typed=typed: service.move(3, BOB.user_id, typed),
            BadInputError,
            f"'{cell}' is not a cell",
        )
    # "/move" alone in the console, or blanks: say what to type, not "'' is not a move"
    for empty in ("", "   ", " \t" * 5_000):  # 10,000 blanks get the same answer
        await expect_refused(
            service,
            db_path,
            lambda text=empty: service.move(3, BOB.user_id, text),
            BadInputError,
            "Say which piece moves",
            "/move b2 c2",
        )
    await expect_refused(
        service, db_path, lambda: service.end_turn(3, BOB.user_id), IllegalMoveError, "no chain of captures"
    )
    await expect_refused(
        service, db_path, lambda: service.remove(3, BOB.user_id, "a1"), IllegalMoveError, "No removal is due"
    )
    result = await service.move(3, BOB.user_id, "b3-c3")
    assert result.chain_pending and result.to_move == BOB
    assert result.events[0].captured and not result.events[0].turn_complete
    assert set(result.legal) == {"c3-c4", "end"}
    await expect_refused(
        service,
        db_path,
        lambda: service.move(3, BOB.user_id, "e1", "e2"),
        IllegalMoveError,
        "Only the piece that just captured, on c3, may go on",  # the same-piece rule (stop 36)
        "from c3",
        "/seega end-turn",
    )
    await expect_refused(
        service, db_path, lambda: service.place(3, BOB.user_id, "c2"), IllegalMoveError, "placement phase is over"
    )
    ended = await service.end_turn(3, BOB.user_id)
    assert ended.events[0].actions == ("end",) and ended.to_move == ALICE and not ended.chain_pending


async def test_move_forms(service: GameService) -> None:
    for channel, text, to in ((4, "b3 c3", None), (5, "B3-C3", None), (6, "b3", "c3"), (7, " b3 - c3 ", "c3")):
        await insert_from(service, channel, CHAIN_SPN)
        result = await service.move(channel, BOB.user_id, text, to)
        assert result.events[0].actions == ("b3-c3",)


async def test_pass_and_remove(service: GameService, db_path: Db) -> None:
    await insert_from(service, 8, PASS_SPN)
    await expect_refused(
        service, db_path, lambda: service.move(8, ALICE.user_id, "a1 a2"), IllegalMoveError, "pass with /seega end-turn"
    )
    passed = await service.end_turn(8, ALICE.user_id)
    assert passed.events[0].actions == ("pass",) and passed.to_move == BOB
    await insert_from(service, 9, REMOVE_SPN, variant="fouze")
    await expect_refused(
        service,
        db_path,
        lambda: service.remove(9, ALICE.user_id, "a1"),
        IllegalMoveError,
        "a1 cannot be removed (it is one of your pieces): ",  # why not, then whose and which may
        "you remove an enemy piece next to one of yours",
        "/remove one of a3, b2, b4, b5, c1,",
    )
    removed = await service.remove(9, ALICE.user_id, "c1")
    assert removed.events[0].removed == ("c1",)
    assert removed.to_move == ALICE  # the blocked player now steps


async def test_autocomplete(service: GameService) -> None:
    await insert_from(service, 3, CHAIN_SPN)
    assert await service.legal_from_cells(3) == ["b3"]
    assert await service.legal_from_cells(3, ALICE.user_id) == []
    assert await service.legal_to_cells(3, "b3") == ["c3"]
    assert await service.legal_place_cells(3) == []
    assert await service.legal_from_cells(12345) == []
    await start_people(service, 1)
    cells = await service.legal_place_cells(1, ALICE.user_id)
    assert len(cells) == 24 and "c3" not in cells


async def test_resign_offer_accept_cancel(service: GameService, db_path: Db) -> None:
    started = await start_people(service, 1)
    placed = await service.place(1, ALICE.user_id, "a1 b1")
    await expect_refused(service, db_path, lambda: service.accept_end(1, BOB.user_id), IllegalMoveError, "no offer")
    await expect_refused(service, db_path, lambda: service.offer_end(1, CAROL.user_id), NotAPlayerError, "Alice")
    await expect_refused(service, db_path, lambda: service.offer_end(1, ALICE.user_id), IllegalMoveError, "placed")
    assert started.game.id == placed.game.id
    moving = await place_all(service, 1, placed, random.Random(4))
    assert moving.game.phase == "m" and moving.game_over is None
    offer = await service.offer_end(1, ALICE.user_id)
    assert isinstance(offer, OfferResult) and offer.opponent == BOB and offer.ping == BOB.user_id
    await expect_refused(
        service, db_path, lambda: service.accept_end(1, ALICE.user_id), IllegalMoveError, "You offered", "Bob decides"
    )
    ended = await service.accept_end(1, BOB.user_id)
    assert ended.game_over is not None and ended.game_over.reason == "agreement"
    assert ended.game_over.result == "1/2-1/2" and ended.game_over.rated  # 12 pieces each: a draw
    # a new game in the same channel; an offer lapses when the opponent plays on
    again = await start_people(service, 1, BOB, ALICE)
    again = await place_all(service, 1, again, random.Random(5))
    mover = again.to_move
    assert mover is not None
    other = ALICE if mover == BOB else BOB
    await service.offer_end(1, other.user_id)
    played = await play_action(service, 1, mover.user_id, again.legal[0])
    if played.to_move == mover:  # a capture that may chain: the turn ends when the mover says so
        await service.end_turn(1, mover.user_id)
    assert (await service.game(1)).end_offer_by is None  # type: ignore[union-attr]
    cancelled = await service.cancel(1, MOD)
    assert cancelled.game_over is not None and cancelled.game_over.result == "*"
    assert not cancelled.game_over.rated and cancelled.game.status == "cancelled"
    stats = await service.stats(GUILD, ALICE.user_id)
    assert stats.ratings[0].games == 1  # the cancelled game is not rated


async def test_whole_game_between_people_is_rated_and_recorded(service: GameService) -> None:
    start = await start_people(service, 1)
    result = await play_out(service, 1, start, random.Random(7))
    over = result.game_over
    assert over is not None and over.rated and len(over.rating_changes) == 2
    rec = await service.record(GUILD, channel_id=1)
    record = read_sgn(rec.sgn)  # the SGN replays
    assert record.result == over.result and record.tags["Black"] == "Alice"
    assert rec.filename == f"seega-{result.game.id}.sgn" and rec.replay is None
    history = await service.history(GUILD, ALICE.user_id)
    assert history[0].result == over.result and history[0].turns > 20
    with pytest.raises(NoGameError):
        await service.record(GUILD + 1, game_id=result.game.id)
    summary = await service.get_game(result.game.id)
    assert summary is not None and summary.black == ALICE and summary.result == over.result
    assert await service.get_game(result.game.id, GUILD + 1) is None and await service.get_game(999) is None


async def test_bot_game_plays_the_bot_turn_and_counts_per_level(service: GameService) -> None:
    start = await service.play_bot(GUILD, 2, CAROL, "easy", 5, None, "white")
    assert start.game.black.is_bot and start.events and start.events[0].player.is_bot
    assert start.to_move == CAROL and start.ping == CAROL.user_id
    result = await play_out(service, 2, start, random.Random(3))
    assert result.game_over is not None and not result.game_over.rated
    stats = await service.stats(GUILD, CAROL.user_id)
    assert stats.ratings == () and stats.versus_bot["easy"].games == 1
    assert await service.leaderboard(GUILD, 5) == []


async def test_bot_turn_on_request(service: GameService) -> None:
    start = await service.play_bot(GUILD, 2, CAROL, "easy", 5, None, "white", bot_reply=False)
    assert start.bot_to_move and start.to_move is not None and start.to_move.is_bot
    await expect_refused(
        service,
        getattr(service.storage, "url", service.storage.path),
        lambda: service.place(2, CAROL.user_id, "a1"),
        NotYourTurnError,
        "bot's turn",
    )
    played = await service.bot_turn(2)
    assert played.to_move == CAROL and played.events


async def test_corrupt_game_is_set_aside(service: GameService, db_path: Db, clock: FakeClock) -> None:
    await start_people(service, 1)
    await service.place(1, ALICE.user_id, "a1 b1")
    execute(db_path, "UPDATE games SET spn = '5/5/5/5/5 b p 12/12 - 0 1', version = version + 1")
    fresh = await make_service(db_path, clock)
    try:
        with pytest.raises(CorruptGameError, match="set aside"):
            await fresh.board(1)
        assert (await fresh.storage.all_games())[0].status == "corrupt"
        # the channel is free again
        await start_people(fresh, 1)
    finally:
        await close_service(fresh)


async def test_settings(service: GameService, db_path: Db) -> None:
    default = await service.get_settings(GUILD)
    assert (default.turn_timeout, default.challenge_timeout, default.default_variant) == (3600, 600, "standard")
    changed = await service.set_settings(GUILD, "45s", "10m", "lane", moderator=MOD)
    assert (changed.turn_timeout, changed.challenge_timeout, changed.default_variant) == (45, 600, "lane")
    await expect_refused(
        service,
        db_path,
        lambda: service.set_settings(GUILD, "10s", moderator=MOD),
        BadInputError,
        "turn_timeout",
        "30s to 7d",
    )
    await expect_refused(
        service, db_path, lambda: service.set_settings(GUILD, "8d", moderator=MOD), BadInputError, "out of range"
    )
    await expect_refused(
        service,
        db_path,
        lambda: service.set_settings(GUILD, None, "soon", moderator=MOD),
        BadInputError,
        "not a duration",
    )
    await expect_refused(
        service,
        db_path,
        lambda: service.set_settings(GUILD, None, None, "chess", moderator=MOD),
        BadInputError,
        "not a variant",
    )
    ch = await service.challenge(GUILD, 1, ALICE, BOB)
    assert ch.challenge.variant == "lane"


async def test_bad_level_and_hot_seat(service: GameService, db_path: Db) -> None:
    await expect_refused(
        service,
        db_path,
        lambda: service.play_bot(GUILD, 1, ALICE, "godlike"),
        BadInputError,
        "easy, medium, hard or expert",
    )
    # one person playing both colours (the console's hot seat) acts for the side to move
    me = Player(5, "Me")
    await service.storage.insert_game(
        __import__("bot.storage", fromlist=["NewGame"]).NewGame(
            GUILD,
            4,
            "standard",
            5,
            "",
            me.user_id,
            me.name,
            None,
            me.user_id,
            me.name,
            None,
            "5/5/5/5/5 b p 12/12 - 0 1",
            service.clock.now(),
        )
    )
    await service.place(4, me.user_id, "a1 b1")
    second = await service.place(4, me.user_id, "a2 b2")
    assert second.game.turn == 3


async def test_locked_database_gives_a_friendly_error(db_path: Db, clock: FakeClock) -> None:
    from bot.ai_pool import ThreadAiRunner
    from bot.results import StorageBusyError
    from bot.storage import Storage

    storage = await Storage.open(db_path, busy_timeout_ms=20)
    service = GameService(storage, ThreadAiRunner(), None, clock, random.Random(1))
    try:
        await start_people(service, 1)
        async with write_lock_held(db_path):  # another process holds the write lock
            await expect_refused(
                service,
                db_path,
                lambda: service.place(1, ALICE.user_id, "a1 b1"),
                StorageBusyError,
                "busy",
                "try again",
            )
        placed = await service.place(1, ALICE.user_id, "a1 b1")  # and then it works
        assert placed.to_move == BOB
    finally:
        await close_service(service)


async def test_corrupt_game_is_logged(service: GameService, db_path: Db, caplog: pytest.LogCaptureFixture) -> None:
    await start_people(service, 1)
    execute(db_path, "UPDATE games SET actions = 'c3', version = version + 1")  # the centre: not a legal placement
    with caplog.at_level("ERROR", logger="bot.service"), pytest.raises(CorruptGameError):
        await service.board(1)
    assert any("corrupt" in r.message and "does not replay" in r.message for r in caplog.records)


async def test_five_in_a_row_replacement(service: GameService, db_path: Db) -> None:
    await insert_from(service, 11, "bbbwb/wwbbw/ww1wb/bwwbw/bwwbb b s 0/0 - 0 13", variant="five-in-a-row")
    await expect_refused(
        service,
        db_path,
        lambda: service.remove(11, ALICE.user_id, "a1"),
        IllegalMoveError,
        "a1 is your own piece",
        "replace an enemy piece",
        "b1",
    )
    await expect_refused(
        service,
        db_path,
        lambda: service.move(11, ALICE.user_id, "a1 a2"),
        IllegalMoveError,
        "replace an enemy piece with /place on",
    )
    replaced = await service.place(11, ALICE.user_id, "b1")  # /place and /remove both replace here
    assert replaced.events[0].actions == ("b1",) and replaced.to_move == BOB


async def test_moves_by_number_reads_only_this_servers_games(service: GameService) -> None:
    """Hostile review of stop 36's ``moves game:N``: another server's game, ids beyond
    any stored one and huge or negative numbers are "no such game", never another
    server's moves and never a database error."""
    from bot.results import NoGameError

    other = await start_people(service, 7)  # GUILD's game
    await insert_from(service, 8, "5/5/5/5/5 b p 12/12 - 0 1", guild_id=GUILD + 1)  # another server's
    elsewhere = (await service.game(8)).id  # type: ignore[union-attr]
    game, _ = await service.moves(7, other.game.id, GUILD)
    assert game.id == other.game.id
    for asked in (elsewhere, 10**6, 10**40, -(10**40), 0, -1, 2**63):
        with pytest.raises(NoGameError) as refused:
            await service.moves(7, asked, GUILD)
        assert refused.value.key == "no_such_game", asked


async def test_the_leaderboard_with_no_size_shows_a_size_that_has_rated_games(service: GameService) -> None:
    """Play-test: plain ``/seega leaderboard`` said "No rated games yet" (5x5) beside 7x7 games."""
    assert await service.leaderboard_size(GUILD) == 5  # nothing rated anywhere: the default size
    await start_people(service, 1, size=7)
    await service.resign(1, BOB.user_id)
    assert await service.leaderboard_size(GUILD) == 7
    assert (await service.leaderboard(GUILD, 7))[0].name == "Alice"
    await start_people(service, 1)
    await service.resign(1, ALICE.user_id)
    assert await service.leaderboard_size(GUILD) == 5  # the default size once it has some


def test_a_cell_given_twice_when_one_piece_is_left_is_answered_as_one_piece() -> None:
    """The second piece of a turn: "/place a2 a2" was told to "place on two different
    cells, like b1 c1", which the next try refused as "places only one piece" (console
    play-test, stop 40). It is now answered as the one piece it is."""
    pos = Position.from_spn("b4/5/5/5/4b w p 0/2 - 0 2", Ruleset.make("standard", 5))
    pos.play("a2")  # White's first piece of the turn: one is left
    with pytest.raises(IllegalMoveError, match=r"^This turn places only one piece; place just b2\.$"):
        play_place(pos.copy(), ["b2", "b2"])
    with pytest.raises(IllegalMoveError, match=r"a2 is already taken"):
        play_place(pos.copy(), ["a2", "a2"])
