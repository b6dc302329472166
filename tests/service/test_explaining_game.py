"""The game explains itself through the service: forced passes with their reason, pictures
of whole turns, the clock on the picture, end sentences."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot import render, wording
from bot.ai_pool import ThreadAiRunner
from bot.clock import FakeClock
from bot.results import BadInputError, IllegalMoveError, NotYourTurnError, Player
from bot.service import GameService
from bot.storage import Storage
from engine import Position
from engine.summary import summarize_turn
from tests.service.helpers import ALICE, BOB, insert_from, play_action

#: White's d2 shuttles to c2 and back twice; then d2-c2 is the shuttle limit and White,
#: with nothing else that can step, must pass.
SHUTTLE = "bb3/3bb/2bww/3ww/2bww w m 0/0 - 0 30"
SHUTTLE_PLAY = ("d2-c2", "a5-a4", "c2-d2", "b5-b4", "d2-c2", "a4-a3", "c2-d2")
#: White (to move) can chain: d3-c3 took c2 (after the last pair), c3-c2, c2-b2.
CHAIN = "wbbbw/wwbwb/bb1ww/wbbbb/wbwww w m 0/0 - 0 25"


async def _service(path: Path, clock: FakeClock, renderer: object | None) -> GameService:
    storage = await Storage.open(path)
    return GameService(storage, ThreadAiRunner(), renderer, clock, random.Random(1))  # type: ignore[arg-type]


async def test_a_pass_that_is_the_only_action_is_played_with_its_reason(service: GameService) -> None:
    await insert_from(service, 1, SHUTTLE)
    for i, action in enumerate(SHUTTLE_PLAY):  # White (Bob) first, then in turn
        await play_action(service, 1, (BOB if i % 2 == 0 else ALICE).user_id, action)
    result = await play_action(service, 1, ALICE.user_id, "b4-b3")
    assert [e.actions for e in result.events] == [("b4-b3",), ("pass",)]
    passed = result.events[1]
    assert passed.player == BOB and passed.note is not None
    assert wording.event_text(passed, "en") == (
        "passes because d2 may not go back to c2 a third time (the shuttle limit) and no other piece can step"
    )
    assert "الثالثة" in wording.event_text(passed, "ar")
    assert result.to_move == ALICE and result.ping is None  # Alice plays on; she just acted
    game = await service.game(1)
    assert game is not None and game.spn.split()[1] == "b"


async def test_a_chain_picture_shows_every_step(tmp_path: Path) -> None:
    clock = FakeClock()
    service = await _service(tmp_path / "a.db", clock, render)
    try:
        await insert_from(service, 1, CHAIN)
        await service.move(1, BOB.user_id, "d3-c3")
        await service.move(1, BOB.user_id, "c3-c2")
        last = await service.move(1, BOB.user_id, "c2-b2")
        assert last.png is not None
        before = Position.from_spn(CHAIN)
        after = before.copy()
        played = [after.play(a) for a in ("d3-c3", "c3-c2", "c2-b2")]
        game = await service.game(1)
        assert game is not None and game.deadline is not None
        want = render.render_board(
            after,
            summarize_turn(before, played),
            players=("Alice", "Bob"),
            time_left=game.deadline - clock.now(),
        )
        got = Image.open(io.BytesIO(last.png)).convert("RGB")
        assert ImageChops.difference(got, Image.open(io.BytesIO(want)).convert("RGB")).getbbox() is None
        # Without the first steps the picture would differ: the test can fail.
        partial = render.render_board(after, summarize_turn(before, played[2:]), players=("Alice", "Bob"))
        assert ImageChops.difference(got, Image.open(io.BytesIO(partial)).convert("RGB")).getbbox() is not None
    finally:
        await service.storage.close()
        service.ai.close()


async def test_the_bot_reply_is_one_picture_of_the_whole_reply(tmp_path: Path) -> None:
    """The bot places its last pair and opens the movement with a chain: one picture, all of it."""
    service = await _service(tmp_path / "b.db", FakeClock(), render)
    bot = Player.bot("hard")
    try:
        await insert_from(service, 1, "wbbbw/w1bwb/bb1ww/wbbbb/wbw1w w p 0/2 - 0 24", ALICE, bot)
        result = await service.bot_turn(1)
        bot_actions = [a for e in result.events if e.player == bot for a in e.actions]
        assert bot_actions[:2] and all(len(a) == 2 for a in bot_actions[:2])  # the pair first
        before = Position.from_spn("wbbbw/w1bwb/bb1ww/wbbbb/wbw1w w p 0/2 - 0 24")
        after = before.copy()
        played = [after.play(a) for a in bot_actions]
        assert result.png is not None
        want = render.render_board(after, summarize_turn(before, played), players=("Alice", "Seega bot (hard)"))
        got = Image.open(io.BytesIO(result.png)).convert("RGB")
        diff = ImageChops.difference(got, Image.open(io.BytesIO(want)).convert("RGB")).getbbox()
        # Identical but for the clock beside the turn number (Alice's time, in the footer).
        assert diff is None or diff[1] >= 780
        turns = {e.summary.turn for e in result.events if e.player == bot}
        assert turns == {24, 25}  # two turns, each line numbered: the count never jumps unexplained
    finally:
        await service.storage.close()
        service.ai.close()


async def test_takeback_against_the_bot_and_refusals(service: GameService) -> None:
    start = await service.play_bot(10, 2, ALICE, "easy", 5, None, "black")
    assert start.to_move == ALICE
    nothing = None
    try:
        await service.takeback(2, ALICE.user_id)
    except IllegalMoveError as exc:
        nothing = exc
    assert nothing is not None and nothing.key == "takeback_nothing"
    played = await service.place(2, ALICE.user_id, "a1", "b1")  # and the bot answers with its pair
    assert [e.player.is_bot for e in played.events] == [False, True]
    back = await service.takeback(2, ALICE.user_id)
    assert back.to_move == ALICE and back.game.turn == 1
    assert back.game.pieces == (0, 0) and back.game.hand == (12, 12)
    game = await service.game(2)
    assert game is not None and game.spn.startswith("5/5/5/5/5 b p 12/12")
    # the game goes on from there
    again = await service.place(2, ALICE.user_id, "e5", "d5")
    assert again.events[0].actions == ("e5", "d5")
    # between people: refused (rated)
    await insert_from(service, 3, SHUTTLE)
    await play_action(service, 3, BOB.user_id, "d2-c2")
    refused = None
    try:
        await service.takeback(3, BOB.user_id)
    except IllegalMoveError as exc:
        refused = exc
    assert refused is not None and refused.key == "takeback_people"
    assert "rated" in refused.text("en") and refused.text("ar") != refused.text("en")


async def test_moves_and_games_in_progress(service: GameService) -> None:
    await insert_from(service, 4, CHAIN)
    await service.move(4, BOB.user_id, "d3-c3")
    await service.move(4, BOB.user_id, "c3-c2")
    await service.move(4, BOB.user_id, "c2-b2")
    await service.move(4, ALICE.user_id, "d2-d3")
    game, lines = await service.moves(4)
    assert game.channel_id == 4
    assert lines == ["25. w d3-c3✕c2 c3-c2✕b2 c2-b2✕b3", "26. b d2-d3✕d4"]
    await insert_from(service, 5, SHUTTLE)
    listed = await service.games_in_progress(10)
    assert [g.channel_id for g in listed] == [5, 4]  # newest first
    assert await service.games_in_progress(999) == []


async def test_a_refused_pair_offers_its_first_cell_again(service: GameService) -> None:
    """Play-test finding: ``/place a1 b1`` with b1 taken listed the free cells without a1,
    although a refused pair places nothing."""
    await insert_from(service, 1, "5/5/5/5/1w3 b p 11/11 - 0 1", ALICE, BOB)  # b1 is White's
    try:
        await service.place(1, ALICE.user_id, "a1 b1")
    except IllegalMoveError as exc:
        refusal = str(exc)
    else:
        raise AssertionError("b1 is taken: the pair must be refused")
    assert "b1 is already taken" in refusal or "b1" in refusal.split(";")[0]
    offered = refusal.split(";", 1)[1]
    assert "a1" in offered and "c1" in offered and "b1," not in offered, refusal
    game = await service.game(1)
    assert game is not None and game.pieces == (0, 1), "nothing was placed"


def _first_step(legal: list[str]) -> str:
    """The example a movement sentence gives: the first of the mover's steps, as typed."""
    step = next(a for a in legal if a.count("-") == 1)
    return step.replace("-", " ")


async def test_the_movement_phase_is_announced_once_in_both_languages(service: GameService) -> None:
    from tests.service.helpers import start_people

    result = await start_people(service, 1)
    said = []
    rng = random.Random(7)
    while result.game.phase == "p":
        assert result.to_move is not None
        result = await play_action(service, 1, result.to_move.user_id, rng.choice(result.legal))
        said.append(wording.movement_begins(result, "en"))
    first = result.to_move
    assert first is not None
    # ... and the command to learn now (stop 35's play-test: nothing said how to move),
    # with an example the mover can type as it is (a fixed "b2 c2" was refused: b2 empty)
    step = _first_step(result.legal)
    assert said[-1] == (
        f"All pieces are placed: the movement phase begins; {first.name} moves first. "
        f"Step a piece with /move, like /move {step}."
    )
    assert not any(said[:-1]), "only the last placement says it"
    assert wording.movement_begins(result, "ar") == (
        f"وُضعت القطع كلها: تبدأ مرحلة التحريك، ويبدأ {first.name} بالتحريك. "
        f"حرّك قطعة بـ \u200e/move، مثل \u200e/move {step}."
    )
    moved = await play_action(service, 1, first.user_id, next(a for a in result.legal if "-" in a))
    assert wording.movement_begins(moved, "en") == ""


async def test_the_picture_of_a_turn_shows_the_pass_that_followed_it(tmp_path: Path) -> None:
    """Play-test finding e: after a forced pass the picture showed the turn before it as if
    nothing followed; it now says who was blocked and passed."""
    from bot.render.words import last_turn_text

    clock = FakeClock()
    service = await _service(tmp_path / "p.db", clock, render)
    try:
        await insert_from(service, 1, SHUTTLE)
        for i, action in enumerate(SHUTTLE_PLAY):
            await play_action(service, 1, (BOB if i % 2 == 0 else ALICE).user_id, action)
        start = Position.from_spn(SHUTTLE)  # with its history: the shuttle limit counts the steps
        for action in SHUTTLE_PLAY:
            start.play(action)
        result = await play_action(service, 1, ALICE.user_id, "b4-b3")  # Bob (White) must pass
        assert result.png is not None and [e.actions for e in result.events] == [("b4-b3",), ("pass",)]
        after = start.copy()
        played = [after.play("b4-b3"), after.play("pass")]
        summary = summarize_turn(start, played)
        assert last_turn_text(after, summary) == "Last: Black b4-b3 · White is blocked and passes"
        game = await service.game(1)
        assert game is not None and game.deadline is not None
        want = render.render_board(after, summary, players=("Alice", "Bob"), time_left=game.deadline - clock.now())
        got = Image.open(io.BytesIO(result.png)).convert("RGB")
        assert ImageChops.difference(got, Image.open(io.BytesIO(want)).convert("RGB")).getbbox() is None
        silent = render.render_board(
            after, summarize_turn(start, played[:1]), players=("Alice", "Bob"), time_left=game.deadline - clock.now()
        )
        assert ImageChops.difference(got, Image.open(io.BytesIO(silent)).convert("RGB")).getbbox() is not None
        (tmp_path / "pass.png").write_bytes(result.png)
    finally:
        await service.storage.close()
        service.ai.close()


async def test_a_chain_typed_in_one_move_is_played_whole_or_not_at_all(service: GameService, db_path: object) -> None:
    """Play-test finding b: ``/move d3 c3 c2 b2`` plays the chain; a refused later step
    plays nothing and says which step and why."""
    from tests.service.helpers import snapshot

    await insert_from(service, 1, CHAIN)
    before = snapshot(db_path)  # type: ignore[arg-type]
    for typed, words in (
        (
            "d3 c3 c2 c1",
            ["Step 3 of your chain, c2-c1, is refused:", "from c2 you can step to b2", "Nothing was played"],
        ),
        ("d3-c3-b3-a3", ["Step 2 of your chain, c3-b3, is refused:"]),
        ("d3 c3 d3 c3", ["After c3-d3 no further capture is possible", "type /move d3 c3 d3."]),
    ):
        with pytest.raises(IllegalMoveError) as caught:
            await service.move(1, BOB.user_id, typed)
        for word in words:
            assert word in str(caught.value), str(caught.value)
        assert snapshot(db_path) == before, f"{typed}: no step was half-played"  # type: ignore[arg-type]
    with pytest.raises(NotYourTurnError):
        await service.move(1, ALICE.user_id, "d3 c3 c2")
    played = await service.move(1, BOB.user_id, "d3 → c3 → c2 → b2".replace("→", "->"))
    assert [e.actions for e in played.events] == [("d3-c3", "c3-c2", "c2-b2")]
    assert "d3→c3" in wording.event_text(played.events[0], "en") and played.to_move == ALICE
    game = await service.game(1)
    assert game is not None and game.spn.startswith("wbbbw/wwbwb/b3w/ww1bb/wbwww b m")


async def test_a_chain_that_ends_early_says_so(service: GameService, db_path: object) -> None:
    from tests.service.helpers import snapshot

    await insert_from(service, 1, "wbbbw/wwbwb/bb1ww/wbbbb/wbwww b m 0/0 - 0 25")  # Black to move
    pos = Position.from_spn("wbbbw/wwbwb/bb1ww/wbbbb/wbwww b m 0/0 - 0 25")
    quiet = next(str(a) for a in pos.legal_actions() if not summarize_turn(pos, [a]).captured and "-" in str(a))
    src, dst = quiet.split("-")
    before = snapshot(db_path)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError) as caught:
        await service.move(1, ALICE.user_id, f"{src} {dst} {src}")
    assert f"{quiet} captures nothing, so your turn ends there" in str(caught.value)
    assert "ينتهي دورك" in caught.value.text("ar")
    assert snapshot(db_path) == before  # type: ignore[arg-type]
    with pytest.raises(BadInputError) as long:
        await service.move(1, ALICE.user_id, " ".join(["a1"] * 20_000))
    assert "error id" not in str(long.value)


async def test_a_walled_in_piece_says_why_it_cannot_move(service: GameService) -> None:
    """Play-test (newcomer): "a5 cannot move now" left out that every cell beside it is taken."""
    await insert_from(service, 1, "bwwwb/wbbwb/bbw1w/wbwbw/bbwwb b m 0/0 - 0 16", ALICE, BOB)
    with pytest.raises(IllegalMoveError) as caught:
        await service.move(1, ALICE.user_id, "a5 a4")
    assert str(caught.value) == (
        "a5 cannot move: every cell next to it is taken, and pieces step only to an empty "
        "neighbouring cell; you can move from d2."
    )
    assert "مشغولة" in caught.value.text("ar")


async def test_the_movement_phase_is_announced_when_the_bot_placed_last_and_moved(service: GameService) -> None:
    """Newcomer play-test: the bot's last pair and its first step came in one reply, and
    nothing said the movement phase had begun."""
    from tests.service.helpers import place_all

    bot = Player.bot("easy")
    result = await service.play_bot(10, 1, ALICE, "easy", color="black")
    result = await place_all(service, 1, result, random.Random(3))
    said = wording.movement_begins(result, "en")
    # White (the bot) places the last pair and, first to move, steps in the same reply
    assert result.events[-1].placed == () and any(e.placed for e in result.events)
    assert said == (
        f"All pieces are placed: the movement phase has begun, and {wording.player_name(bot, 'en')} "
        f"moved first. Step a piece with /move, like /move {_first_step(result.legal)}."
    ), said
    assert "بدأت مرحلة التحريك" in wording.movement_begins(result, "ar")


async def test_the_movement_phase_is_announced_when_it_begins_with_a_removal(service: GameService) -> None:
    """Play-test finding (fouze): the bot's last pair and its first step walled every
    black piece in, and the reply went straight to the removal: nothing said the
    movement phase had begun, and the usual "Step a piece with /move" would be wrong."""
    bot = Player.bot("easy")
    await insert_from(service, 1, "ww1bb/bb1ww/bb1ww/b1bww/1wbbw b p 2/2 - 0 11", ALICE, bot, variant="fouze")
    result = await service.place(1, ALICE.user_id, "c5 c4")
    # the bot's last pair (the two cells left) and its only step, d3-c3, in one reply
    assert [e.actions for e in result.events][-1] == ("d3-c3",) and result.game.phase == "r"
    assert wording.movement_begins(result, "en") == (
        "All pieces are placed: the movement phase has begun, and Seega bot (easy) moved first."
    )
    assert "/move" not in wording.movement_begins(result, "ar")


async def test_a_step_beside_the_safe_centre_says_why_nothing_was_taken(service: GameService) -> None:
    """Newcomer play-test: d2-d3 flanked White's c3 with b3 and took nothing; the centre
    is safe, and the turn line now says so."""
    await insert_from(service, 1, "bwwwb/wbbwb/bbw1w/wbwbw/bbwwb b m 0/0 - 0 16", ALICE, BOB)
    played = await service.move(1, ALICE.user_id, "d2 d3")
    (event,) = played.events
    assert event.captured == ()
    assert wording.event_text(event, "en") == "moved d2→d3; c3 stands on the centre, where no piece can be captured"
    assert "في خانة الوسط" in wording.event_text(event, "ar")
    quiet = await service.move(1, BOB.user_id, "e2 d2")
    assert "centre" not in wording.event_text(quiet.events[0], "en")


async def test_a_pass_at_the_start_of_the_movement_phase_names_who_moves_first(service: GameService) -> None:
    """Newcomer play-test: after my last pair I was walled in and passed, and the line said
    "Player 1 moved first". Then it said "the bot moves first", which contradicts the rule
    a newcomer has just read (the last placer moves first): now it says both (console
    play-test, stop 22)."""
    bot = Player.bot("easy")
    await insert_from(service, 1, "bbbbb/w1b1b/wb1bw/wwbwb/wwbww w p 0/2 - 0 12", bot, ALICE)
    result = await service.place(1, ALICE.user_id, "b4 d4", bot_reply=False)
    assert [e.actions for e in result.events] == [("b4", "d4"), ("pass",)]
    assert wording.event_text(result.events[1], "en") == "is walled in (no piece can step) and passes"
    assert wording.movement_begins(result, "en") == (
        "All pieces are placed: the movement phase begins. Alice moves first but is walled in, "
        "so passes; Seega bot (easy) to move. Step a piece with /move: the cell it stands on, "
        "then the empty cell beside it where it goes."
    )  # the bot to move: no step of Alice's to show yet
    assert "محاصر" in wording.movement_begins(result, "ar")
    # With the bot's first step in the same reply, the sentence says it stepped.
    await insert_from(service, 2, "bbbbb/w1b1b/wb1bw/wwbwb/wwbww w p 0/2 - 0 12", bot, ALICE)
    replied = await service.place(2, ALICE.user_id, "b4 d4")
    assert [e.actions for e in replied.events][:2] == [("b4", "d4"), ("pass",)]
    assert wording.movement_begins(replied, "en") == (
        "All pieces are placed: the movement phase has begun. Alice moved first but was walled in "
        "and passed, and Seega bot (easy) made the first step. "
        f"Step a piece with /move, like /move {_first_step(replied.legal)}."
    )


async def test_a_piece_held_by_the_shuttle_limit_says_so(service: GameService) -> None:
    """Newcomer play-test: "/move e5 e4" answered "e5 cannot move now" when the shuttle
    limit held it (its only empty neighbour was the cell it had shuttled to); it now says why."""
    held = "bb3/3b1/2bww/3ww/2bww w m 0/0 - 0 30"  # SHUTTLE with e4 empty: White's e3 can still step
    await insert_from(service, 1, held)
    for i, action in enumerate((*SHUTTLE_PLAY, "b4-b3")):
        await play_action(service, 1, (BOB if i % 2 == 0 else ALICE).user_id, action)
    with pytest.raises(IllegalMoveError) as caught:
        await service.move(1, BOB.user_id, "d2 c2")
    assert str(caught.value) == "d2 may not go back to c2 a third time: the shuttle limit; you can move from e3."
    assert "حد الذهاب والإياب" in caught.value.text("ar")
    played = await service.move(1, BOB.user_id, "e3 e4")  # nothing was spoilt by the refusal
    assert [e.actions for e in played.events] == [("e3-e4",)]


async def test_a_chain_stopped_on_its_own_line_does_not_begin_with_then(service: GameService) -> None:
    """Console newcomer finding: an end-turn after a chain's steps read "Turn 14 · Black
    (Player 1): then stopped, though the piece could capture again", "then" after nothing.
    Alone it says "stopped the chain"; after steps in the same line "then stopped" stays."""
    from dataclasses import replace

    await insert_from(service, 1, CHAIN)
    moved = (await service.move(1, BOB.user_id, "d3 c3")).events[0]
    assert moved.actions == ("d3-c3",) and moved.captured
    ended = (await service.end_turn(1, BOB.user_id)).events[0]
    assert ended.actions == ("end",)
    assert wording.event_text(ended, "en") == "stopped the chain, though the piece could capture again"
    assert wording.event_text(ended, "ar") == "أنهى السلسلة، مع أن القطعة كانت تستطيع الأسر مجددًا"
    both = replace(moved, actions=(*moved.actions, "end"))  # steps and the stop told in one line
    assert wording.event_text(both, "en") == (
        "moved d3→c3 and took c2; then stopped, though the piece could capture again"
    )
    assert wording.event_text(both, "ar").endswith("ثم أنهى السلسلة، مع أن القطعة كانت تستطيع الأسر مجددًا")
