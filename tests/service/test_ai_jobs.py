"""AI turns as jobs on PostgreSQL: a worker killed mid-search, the bot's move still arrives, once.

Real parts throughout: a PostgreSQL server, pgqueuer's queue, ``bot.ai_jobs`` workers as
separate processes (SIGKILLed like a crashed machine), the service over PostgreSQL.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.ai_jobs import QueueAiRunner, encode
from bot.clock import FakeClock
from bot.service import GameService
from bot.storage import Storage
from engine import Position, Ruleset
from engine.ai import TurnRequest
from tests.postgres import TempPostgres
from tests.service.helpers import CAROL, GUILD, query

ROOT = Path(__file__).resolve().parents[2]
HEARTBEAT = 1.0


def _worker(url: str, slow: bool = False) -> subprocess.Popen[bytes]:
    module = ["-m", "tests.service.slow_worker", url, str(HEARTBEAT)] if slow else ["-m", "bot.ai_jobs", url]
    if not slow:
        module += ["--heartbeat", str(HEARTBEAT)]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, *module], cwd=ROOT, env=env, start_new_session=True)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the worker and its search processes (the whole session), as a dead machine."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)


@pytest.fixture
def url(postgres_server: TempPostgres) -> str:
    return postgres_server.create_database()


@pytest.fixture
async def queued(url: str) -> AsyncIterator[tuple[Storage, QueueAiRunner, GameService]]:
    """The service as the bot runs it on PostgreSQL: its AI turns and calls are queue jobs."""
    storage = await Storage.open(url)
    runner = await QueueAiRunner(url, timeout=120).start()
    try:
        yield storage, runner, GameService(storage, runner, None, FakeClock())
    finally:
        await runner.aclose()
        await storage.close()


@pytest.fixture
def workers() -> Iterator[list[subprocess.Popen[bytes]]]:
    procs: list[subprocess.Popen[bytes]] = []
    yield procs
    for p in procs:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                _kill(p)


async def _wait_picked(url: str, timeout: float = 60.0, entrypoint: str = "seega_ai_turn") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = query(url, "SELECT status::text FROM pgqueuer WHERE entrypoint = ?", (entrypoint,))
        if rows and rows[0][0] == "picked":
            return
        await asyncio.sleep(0.05)
    raise AssertionError("no worker picked the job")


async def test_a_killed_worker_s_job_is_retried_and_the_move_arrives_once(
    url: str, queued: tuple[Storage, QueueAiRunner, GameService], workers: list[subprocess.Popen[bytes]]
) -> None:
    storage, _, service = queued
    slow = _worker(url, slow=True)
    workers.append(slow)
    # the bot (black) opens: its turn is a job, picked by the worker that never answers
    game = asyncio.ensure_future(service.play_bot(GUILD, 1, CAROL, "easy", 5, None, "white"))
    await _wait_picked(url)
    _kill(slow)
    assert not game.done()
    workers.append(_worker(url))  # a healthy worker takes the job over after the heartbeat
    result = await asyncio.wait_for(game, 120)
    assert result.events and result.events[0].player.is_bot and result.to_move == CAROL
    row = (await storage.all_games())[0]
    assert row.version == 1 and len(row.action_list) == 2  # one bot turn: a placement pair, once
    pos = Position(Ruleset.make("standard", 5))
    for action in row.action_list:
        pos.play(action)
    assert pos.spn() == row.spn
    assert query(url, "SELECT COUNT(*) FROM seega_ai_results") == [(1,)]
    for _ in range(100):  # the job is done, not left to be run a third time
        if query(url, "SELECT COUNT(*) FROM pgqueuer") == [(0,)]:
            break
        await asyncio.sleep(0.05)
    assert query(url, "SELECT COUNT(*) FROM pgqueuer") == [(0,)]


async def test_a_job_outlives_the_bot_process_that_asked(url: str, workers: list[subprocess.Popen[bytes]]) -> None:
    request = TurnRequest("standard", 5, level="easy", seed=7)
    first = await QueueAiRunner(url, timeout=120).start()
    asking = asyncio.ensure_future(first.choose_turn(request))
    for _ in range(200):  # enqueued...
        if query(url, "SELECT COUNT(*) FROM pgqueuer") == [(1,)]:
            break
        await asyncio.sleep(0.02)
    asking.cancel()  # ... and the bot process goes away before any worker runs
    await first.aclose()
    workers.append(_worker(url))
    key = encode(request)[0]
    for _ in range(600):
        if query(url, "SELECT COUNT(*) FROM seega_ai_results WHERE key = ?", (key,)) == [(1,)]:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the job was lost with the process that asked for it")
    # the restarted bot asks again: the stored answer, no second search, no second job
    second = await QueueAiRunner(url, timeout=5).start()
    try:
        turn = await second.choose_turn(request)
        assert len(turn) == 2
        assert query(url, "SELECT COUNT(*) FROM pgqueuer") == [(0,)]
    finally:
        await second.aclose()


async def test_any_engine_function_runs_as_a_job_and_nothing_else(
    url: str, workers: list[subprocess.Popen[bytes]]
) -> None:
    """The coach's hints and reviews go through ``run(fn, arg)``: a named engine function,
    a pickled argument; a forged row can neither name another function nor smuggle a class."""
    import pickle

    from bot.ai_jobs import resolve, safe_loads
    from engine.ai import think

    runner = await QueueAiRunner(url, timeout=120).start()
    workers.append(_worker(url))
    try:
        request = TurnRequest("standard", 5, level="easy", seed=3)
        turn = await runner.run(think, request)
        assert turn == think(request)  # the same search, run by the worker (easy with a seed is deterministic)
        with pytest.raises(ValueError, match="cannot run as a job"):
            await runner.run(os.getcwd, None)  # type: ignore[arg-type]
    finally:
        await runner.aclose()
    with pytest.raises(ValueError, match="may not run"):
        resolve("os:system")
    with pytest.raises(pickle.UnpicklingError):
        safe_loads(pickle.dumps(os.system))
    assert safe_loads(pickle.dumps(request)) == request


async def test_the_worker_command(url: str, tmp_path: Path) -> None:
    """``seega-bot worker`` serves the queue of ``SEEGA_DB`` and stops cleanly on SIGTERM
    (docker stop); with SQLite it explains that the bot runs its own pool."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), DISCORD_TOKEN="", SEEGA_AI_WORKERS="1", SEEGA_DB=url)
    worker = subprocess.Popen(
        [sys.executable, "-m", "bot", "worker"], cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True
    )
    runner = await QueueAiRunner(url, timeout=120).start()
    try:
        request = TurnRequest("standard", 5, level="easy", seed=11)
        assert len(await runner.choose_turn(request)) == 2
    finally:
        await runner.aclose()
        worker.send_signal(signal.SIGTERM)
        _, err = worker.communicate(timeout=30)
    assert worker.returncode == 0, err
    assert "AI worker: 1 processes" in err and "Traceback" not in err
    sqlite = subprocess.run(
        [sys.executable, "-m", "bot", "worker"],
        cwd=tmp_path,
        env=dict(env, SEEGA_DB=str(tmp_path / "seega.db")),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert sqlite.returncode == 2 and "SEEGA_DB=postgresql://" in sqlite.stderr


async def test_the_coach_s_analyses_run_as_jobs(url: str, workers: list[subprocess.Popen[bytes]]) -> None:
    """With the queue as AI runner, a review's analysis and a hint are jobs run by a
    worker, with the same (node-bounded) answers as in this process."""
    from bot.service.coach_work import RunnerWork, work_for
    from engine.coach.hints import advise_job
    from engine.coach.review import AnalysisJob, run_job

    runner = await QueueAiRunner(url, timeout=120).start()
    workers.append(_worker(url))
    try:
        work = work_for(runner)
        assert isinstance(work, RunnerWork)
        job = AnalysisJob("standard", 5, (), "w3b/5/wb1bw/2w2/b3b w m 0/0 - 0 30", (), 3000)
        assert await work.run(run_job, job) == run_job(job)
        assert (await work.run(advise_job, job)).actions == ("c2-c3",)
    finally:
        await runner.aclose()


async def test_the_bot_answers_an_offer_through_the_queue(
    url: str, queued: tuple[Storage, QueueAiRunner, GameService], workers: list[subprocess.Popen[bytes]]
) -> None:
    """On PostgreSQL the service weighs a draw or an end by count with the queue runner's
    ``evaluate``, which it lacked: such an offer to the bot failed with an AttributeError
    (found by ``mypy --strict bot``). The worker's value is the one this process computes."""
    from bot.results import Player
    from engine.ai import position_value
    from tests.service.helpers import ALICE, insert_from

    _, runner, service = queued
    workers.append(_worker(url))
    request = TurnRequest("standard", 5, setup="b3w/5/5/5/w3b b m 0/0 - 0 30", level="medium")
    assert await runner.evaluate(request) == position_value(request)
    await insert_from(service, 1, "b3w/5/5/5/w3b b m 0/0 - 0 30", ALICE, Player.bot("medium"))
    ended = await service.offer_end(1, ALICE.user_id)  # 2 v 2, the bot not ahead: accepted
    assert ended.game_over is not None and ended.game_over.result == "1/2-1/2"


async def test_an_offer_survives_a_killed_worker_and_a_double_click(
    url: str, queued: tuple[Storage, QueueAiRunner, GameService], workers: list[subprocess.Popen[bytes]]
) -> None:
    """The bot's answer to an end by count is a job like its turns: a worker killed while
    weighing it is replaced and the offer is answered, once; the same offer sent twice at
    once ends the game once, and the second is refused."""
    from bot.results import GameOverServiceError, Player
    from tests.service.helpers import ALICE, insert_from

    storage, _, service = queued
    slow = _worker(url, slow=True)
    workers.append(slow)
    await insert_from(service, 1, "b3w/5/5/5/w3b b m 0/0 - 0 30", ALICE, Player.bot("medium"))
    offer = asyncio.ensure_future(service.offer_end(1, ALICE.user_id))
    await _wait_picked(url, entrypoint="seega_ai_call")
    _kill(slow)
    assert not offer.done()
    workers.append(_worker(url))
    ended = await asyncio.wait_for(offer, 120)
    assert ended.game_over is not None and ended.game_over.result == "1/2-1/2"
    # The same offer twice at once, in another game: one ends it, one is refused.
    await insert_from(service, 2, "b3w/5/5/5/w3b b m 0/0 - 0 30", ALICE, Player.bot("medium"))
    first, second = await asyncio.gather(
        service.offer_end(2, ALICE.user_id), service.offer_end(2, ALICE.user_id), return_exceptions=True
    )
    results = [r for r in (first, second) if not isinstance(r, BaseException)]
    errors = [r for r in (first, second) if isinstance(r, GameOverServiceError)]
    assert len(results) == 1 and len(errors) == 1, (first, second)
    assert results[0].game_over is not None and results[0].game_over.result == "1/2-1/2"
    # the refusal reads as a sentence ("by agreed by both players" did not)
    assert "is over (a draw, 1/2-1/2: agreed by both players)" in str(errors[0])
    rows = [r for r in await storage.all_games() if r.channel_id == 2]
    assert len(rows) == 1 and rows[0].status == "finished" and rows[0].result == "1/2-1/2"


def _global(module: str, name: str) -> bytes:
    """A protocol-4 STACK_GLOBAL naming ``module`` and ``name`` as a forged row would."""
    return b"\x8c" + bytes([len(module)]) + module.encode() + b"\x8c" + bytes([len(name)]) + name.encode() + b"\x93"


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("engine.cli", "os.system"),  # a dotted name walks from an allowed module to anything
        ("engine.ai.endgame", "lzma.open"),
        ("engine.ai.endgame", "Path"),  # imported into an allowed module, not defined there
        ("engine.cli", "main"),  # a function, not a class of data
        ("engine.__main__", "main"),  # importing it ran sys.exit(main()): the worker died
        ("engine.position", "Position"),  # a class, but not one a job carries
    ],
)
def test_a_forged_row_cannot_reach_past_the_allowed_classes(tmp_path: Path, module: str, name: str) -> None:
    """Found by an outside review: the unpickler checked only the module, and pickle follows
    dotted names through attributes, so ``engine.cli`` + ``os.system`` ran a shell command.
    Only classes defined in an allowed module (and plain builtins) may be built."""
    import pickle

    from bot.ai_jobs import safe_loads

    marker = tmp_path / "ran"
    command = f"touch {marker}"
    payload = b"\x80\x04" + _global(module, name) + b"\x8c" + bytes([len(command)]) + command.encode() + b"\x85R."
    with pytest.raises(pickle.UnpicklingError, match="may not contain"):
        safe_loads(payload)
    assert not marker.exists()


def test_a_job_names_only_a_function_defined_where_it_says() -> None:
    """A job's function must be a function defined in the module it names, not a class or
    a module that module imported."""
    from bot.ai_jobs import resolve
    from engine.ai import think

    assert resolve("engine.ai:think") is think
    with pytest.raises(ValueError, match="may not run"):
        resolve("engine.ai.endgame:Path")
    with pytest.raises(ValueError, match="may not run"):
        resolve("engine.ai.endgame:lzma")


def test_a_forged_row_cannot_change_a_class_or_end_the_process() -> None:
    """Outside review (stop 39), after the first fix: a BUILD on an allowed class set its
    attributes for the rest of the process (``Position.legal_actions`` returned nothing),
    and naming ``engine.__main__`` imported it, whose ``sys.exit`` is no ``Exception``
    and ended the worker's event loop. The unpickler imports nothing a row names."""
    import pickle

    from bot.ai_jobs import MAX_PICKLE, resolve, safe_loads
    from engine.actions import Action
    from engine.position import Position

    shown = Action.__dict__["__str__"]
    # (None, {"__str__": None}) built onto the class: slot state, set with setattr.
    payload = b"\x80\x04" + _global("engine.actions", "Action") + b"N}\x8c\x07__str__Ns\x86b."
    try:
        with pytest.raises(pickle.UnpicklingError, match="may not change a class"):
            safe_loads(payload)
        assert Action.__dict__["__str__"] is shown
    finally:
        Action.__str__ = shown  # type: ignore[method-assign]  # (had it been changed, for the other tests)
    assert len(Position().legal_actions()) == 24
    with pytest.raises(ValueError, match="may not run"):
        resolve("engine.__main__:main")
    with pytest.raises(pickle.UnpicklingError):
        safe_loads(b"cengine.__main__\nAnything\n.")
    with pytest.raises(pickle.UnpicklingError, match="larger than"):
        safe_loads(b"\x80\x04" + b"N" * (MAX_PICKLE + 1))
