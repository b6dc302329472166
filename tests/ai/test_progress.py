"""A stuck game: the soonest capture the opponent cannot stop (``engine/ai/progress.py``)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine import Position, Ruleset
from engine.actions import Action
from engine.ai.levels import get_level
from engine.ai.player import choose, components, make_searcher, play_turn
from engine.ai.progress import STUCK_CLOCK, forcing_actions, is_stuck
from engine.ai.search import Limits, Result, Searcher
from engine.position import START

LUDII = Ruleset.make("ludii", 5)
STANDARD = Ruleset.make("standard", 5)
#: The final position of a Black draw against Ludii Alpha-Beta (ten pieces each, White
#: walled in and passing for 191 turns, the clock at 381): Black has a capture in three
#: plies (a4-b4 forces a5-a4, then b5-a5 takes a4), yet hard at 1 s played a waiting move
#: (docs/ai.md, "Against Ludii").
STUCK = "wbwww/b1bww/b2bb/1bbww/1bwbw b m 0/0 - 381 401"


def _with_clock(spn: str, clock: int) -> str:
    fields = spn.split()
    fields[5] = str(clock)
    return " ".join(fields)


def _names(pos: Position, codes: list[int]) -> set[str]:
    return {str(pos.table.actions[c]) for c in codes}


def _forces_by_definition(pos: Position, mover: int, root: tuple[int, int], plies: int) -> bool:
    """The definition, searched in full: a net capture by ``mover`` (the opponent has
    lost more pieces than ``mover`` since the root) within ``plies`` plies, whatever the
    opponent does; a win counts, a draw or a loss does not."""
    if pos.result is not None:
        return pos.result.winner == mover
    if pos.plies and root[1] - pos.count(1 - mover) > root[0] - pos.count(mover) and pos.side != mover:
        return True
    if plies == 0:
        return False
    outcomes = []
    for code in pos.legal_codes():
        pos.push_code(code)
        gained = root[1] - pos.count(1 - mover) > root[0] - pos.count(mover)
        outcomes.append(gained if pos.side == mover and gained else _forces_by_definition(pos, mover, root, plies - 1))
        pos.pop()
    return any(outcomes) if pos.side == mover else all(outcomes)


def _reference(pos: Position, max_plies: int) -> tuple[int, set[str]]:
    mover = pos.side
    root = (pos.count(mover), pos.count(1 - mover))
    for k in range(1, max_plies + 1):
        found = []
        for code in pos.legal_codes():
            pos.push_code(code)
            gained = root[1] - pos.count(1 - mover) > root[0] - pos.count(mover)
            if gained or _forces_by_definition(pos, mover, root, k - 1):
                found.append(code)
            pos.pop()
        if found:
            return k, _names(pos, found)
    return 0, set()


def test_the_stuck_draw_has_a_capture_in_three_plies() -> None:
    pos = Position.from_spn(STUCK, LUDII)
    _ev, tactics = components(LUDII)
    plies, codes = forcing_actions(pos, tactics)
    assert plies == 3
    assert "a4-b4" in _names(pos, codes)
    # The waiting moves hard used to play force nothing that soon.
    assert not _names(pos, codes) & {"b2-b3", "a3-b3"}
    assert pos.spn() == STUCK and pos.plies == 0


def test_forcing_actions_match_the_definition_on_sampled_positions() -> None:
    """Against a full-width search of the definition, on positions reached by random
    play under two presets (the standard one has chains and a safe centre)."""
    rng = random.Random(7)
    checked = 0
    for rules in (LUDII, STANDARD):
        _ev, tactics = components(rules)
        for _game in range(6):
            pos = Position(rules)
            while pos.result is None and pos.turn < 40:
                pos.push_code(rng.choice(pos.legal_codes()))
                if pos.phase == "m" and pos.state == START and pos.turn > 26 and rng.random() < 0.3:
                    probe = Position.from_spn(pos.spn(), rules)
                    got_plies, got = forcing_actions(probe, tactics, max_plies=3, max_nodes=10**7)
                    assert (got_plies, _names(probe, got)) == _reference(probe, 3), probe.spn()
                    checked += 1
    assert checked >= 8


def test_out_of_nodes_it_answers_nothing_and_leaves_the_position_alone() -> None:
    pos = Position.from_spn(STUCK, LUDII)
    _ev, tactics = components(LUDII)
    assert forcing_actions(pos, tactics, max_nodes=5) == (0, [])
    assert pos.spn() == STUCK and pos.plies == 0


def test_is_stuck_reads_the_no_capture_clock() -> None:
    assert is_stuck(Position.from_spn(STUCK, LUDII))
    assert not is_stuck(Position.from_spn(_with_clock(STUCK, STUCK_CLOCK - 1), LUDII))
    assert is_stuck(Position.from_spn(_with_clock(STUCK, STUCK_CLOCK), LUDII))
    assert not is_stuck(Position(LUDII))
    # Under a move limit a stuck game ends by count: the standard preset is left alone.
    assert not is_stuck(Position.from_spn(STUCK, STANDARD))


def _exact_searcher(rules: Ruleset) -> Searcher:
    searcher = make_searcher(rules, get_level("hard"))
    searcher.reductions = searcher.futility = searcher.lazy_leaves = False
    return searcher


def test_at_least_agrees_with_the_exact_root_scores() -> None:
    """Without the prunings that make a null window differ from a full one, the
    null-window test is exactly 'the exact score is at least the floor'."""
    pos = Position.from_spn(STUCK, LUDII)
    scores = _exact_searcher(LUDII).search(pos, Limits(max_depth=4), exact_root=True).scores
    for code, score in list(scores.items())[:6]:
        assert _exact_searcher(LUDII).at_least(pos, code, 4, score) is True
        assert _exact_searcher(LUDII).at_least(pos, code, 4, score + 1) is False
    assert pos.spn() == STUCK and pos.plies == 0


def test_hard_plays_the_sooner_capture_only_in_a_stuck_game() -> None:
    """Deterministic (a node limit): stuck, hard plays an action that forces a capture
    in three plies; the same board with a fresh clock is left to the search alone."""
    hard = get_level("hard")
    stuck = Position.from_spn(STUCK, LUDII)
    _ev, tactics = components(LUDII)
    _plies, forcing = forcing_actions(stuck, tactics)
    choice = choose(stuck, hard, 60_000, max_nodes=20_000, searcher=make_searcher(LUDII, hard))
    assert choice.code in forcing
    fresh = Position.from_spn(_with_clock(STUCK, 3), LUDII)
    plain = choose(fresh, hard, 60_000, max_nodes=20_000, searcher=make_searcher(LUDII, hard))
    assert plain.result is not None and plain.code == plain.result.best
    off = dataclasses.replace(hard, progress=False)
    control = choose(stuck, off, 60_000, max_nodes=20_000, searcher=make_searcher(LUDII, off))
    assert control.code not in forcing, "the control: without it the search waits here"


def test_a_whole_turn_does_not_follow_the_line_of_an_action_it_did_not_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stuck-game capture plays an action that is not the search's first, so the rest
    of the search's line is not this turn's plan: the next action is searched again.
    Checked on a placement pair (two actions a turn), with the first choice rigged to
    differ from the search's best as the capture makes it."""
    import engine.ai.player as player

    pos = Position(STANDARD)
    real_choose = player.choose
    calls: list[str] = []

    def rigged(p: Position, *args: object, **kwargs: object) -> player.Choice:
        calls.append(p.spn())
        if len(calls) == 1:
            a1, b1, c1 = (
                p.table.actions.index(a) for a in (Action.parse("a1"), Action.parse("b1"), Action.parse("c1"))
            )
            return player.Choice(a1, Result(best=b1, score=0, depth=2, nodes=1, pv=[b1, c1]))
        return real_choose(p, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(player, "choose", rigged)
    choices = play_turn(pos, get_level("medium"))
    assert len(choices) == 2 and len(calls) == 2, "the second placement was searched, not taken from the line"
    assert str(pos.table.actions[choices[0].code]) == "a1"


def test_the_and_or_search_stops_at_its_deadline() -> None:
    """A short budget must not be spent proving captures: with the deadline already
    past it answers nothing (the clock is read at the first node and every 64th) and leaves the position alone."""
    pos = Position.from_spn(STUCK, LUDII)
    _ev, tactics = components(LUDII)
    assert forcing_actions(pos, tactics, max_nodes=10**9, deadline=0.0) == (0, [])
    assert forcing_actions(pos, tactics, max_nodes=10**9)[0] == 3
    assert pos.spn() == STUCK and pos.plies == 0


def test_at_least_gives_up_at_its_node_limit() -> None:
    pos = Position.from_spn(STUCK, LUDII)
    searcher = make_searcher(LUDII, get_level("hard"))
    code = next(iter(forcing_actions(pos, components(LUDII)[1])[1]))
    assert searcher.at_least(pos, code, 12, 0, max_nodes=100) is None
    assert searcher.nodes <= 100 + 64
    assert pos.spn() == STUCK and pos.plies == 0
