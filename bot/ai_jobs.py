"""AI turns as jobs on PostgreSQL: the runner the bot uses with ``SEEGA_DB=postgresql://``,
and the ``seega-bot worker`` processes that run them on any machine.

Why it is shaped this way:

* The queue is pgqueuer's (a maintained library on PostgreSQL, asyncpg-native like our
  storage; docs/scaling.md says why it and not procrastinate). We write no queue: a job
  is enqueued with a ``dedupe_key``, picked with ``FOR UPDATE SKIP LOCKED`` by one
  worker, kept alive by the worker's heartbeat, and picked again by another worker when
  the heartbeat stops (a worker killed mid-search): the job is retried, not lost.
* A job's key is a digest of the request (the game's actions, level, ruleset...). The
  same request asked twice (the bot process restarted and resumed the bot turn) is one
  job, and its stored answer is handed to whoever asks.
* The answer goes into ``seega_ai_results`` and a ``NOTIFY seega_ai_results`` wakes the
  asking process, which ``LISTEN``\\ s (and polls now and then, should a notification be
  missed while reconnecting). The process that asked is the one that owns the game's
  shard, and the service applies the turn with its compare-and-swap, so the move is
  posted once even when a retried job answers twice.
* :class:`QueueAiRunner` has the :class:`bot.ai_pool.AiRunner` interface: the service
  does not know whether its AI is a local pool or a queue. Its :meth:`QueueAiRunner.run`
  runs the CPU-heavy functions of the engine and the coach (a hint, a review's analyses)
  as jobs the same way: the function is named, not pickled, and must be one of
  :data:`JOB_FUNCTIONS`; its argument and result are pickled and read back with an
  unpickler that only builds :data:`JOB_CLASSES` and plain data, and never changes a
  class, so a row written into the queue cannot make a worker run arbitrary code.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import hashlib
import io
import json
import logging
import pickle
import signal
import sys
from collections.abc import AsyncGenerator, Callable, Sequence
from datetime import timedelta
from typing import Any, ClassVar, TypeVar

import asyncpg
from pgqueuer import PgQueuer, Queries
from pgqueuer.models import Job

from bot.ai_pool import AiUnavailableError, ProcessPoolAiRunner, ai_time_limit
from bot.storage import pgconn
from bot.storage.listen import Listener
from bot.storage.postgres import RETRYABLE
from engine.actions import Action
from engine.ai import TurnRequest, position_value, request_turn_problem, think
from engine.ai.analysis import Analysis
from engine.ai.levels import LEVEL_TABLE
from engine.coach.hints import Advice, advise_job
from engine.coach.review import AnalysisJob, run_job

log = logging.getLogger(__name__)

ENTRYPOINT = "seega_ai_turn"
CALL_ENTRYPOINT = "seega_ai_call"
#: The functions a job may run, by ``module:name``, and the only classes a job's pickled
#: argument or result may hold. Both are explicit lists: nothing a row names is looked up
#: or imported. Two outside reviews (stop 39) showed why: a check of the module alone
#: let ``engine.cli`` + ``os.system`` reach the shell (pickle follows dotted names), and
#: importing a named module ran ``engine/__main__.py``'s ``sys.exit``, killing the worker.
JOB_FUNCTIONS: dict[str, Callable[..., Any]] = {
    f"{fn.__module__}:{fn.__qualname__}": fn for fn in (think, position_value, run_job, advise_job)
}
JOB_CLASSES: dict[tuple[str, str], type] = {
    (cls.__module__, cls.__qualname__): cls for cls in (TurnRequest, AnalysisJob, Analysis, Advice, Action)
}
#: The largest pickled argument or result read back (a review's longest job, a
#: 2,500-turn 9x9 game's prefix, is about 30 KB).
MAX_PICKLE = 1 << 20
A = TypeVar("A")
R = TypeVar("R")
RESULTS_CHANNEL = "seega_ai_results"
#: Advisory lock held while one process installs the queue's tables.
INSTALL_LOCK = 0x5EE6B
#: Results older than this are deleted (a bot turn is applied within seconds).
RESULT_TTL = "1 hour"
RESULTS_DDL = (
    "CREATE TABLE IF NOT EXISTS seega_ai_results (key TEXT PRIMARY KEY, result BYTEA NOT NULL,"
    " created_at TIMESTAMPTZ NOT NULL DEFAULT now())"
)
#: A job that could not be answered stores its reason here (``result`` empty) so the
#: asker is told at once; added to tables made before it existed.
RESULTS_ERROR_DDL = "ALTER TABLE seega_ai_results ADD COLUMN IF NOT EXISTS error TEXT"


def encode(request: TurnRequest) -> tuple[str, bytes]:
    """The job key and payload of a request."""
    fields = dataclasses.asdict(request)
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:40], text.encode()


def decode(payload: bytes) -> TurnRequest:
    """The request of a job's payload."""
    fields = json.loads(payload)
    for name in ("options", "actions"):
        fields[name] = tuple(fields[name])
    return TurnRequest(**fields)


def function_name(fn: Callable[..., Any]) -> str:
    """``module:name`` of a function a job may run (one of :data:`JOB_FUNCTIONS`)."""
    name = f"{getattr(fn, '__module__', '')}:{getattr(fn, '__qualname__', '')}"
    if JOB_FUNCTIONS.get(name) is not fn:
        raise ValueError(f"{name} cannot run as a job (only {', '.join(JOB_FUNCTIONS)})")
    return name


def resolve(name: str) -> Callable[..., Any]:
    """The function a job names (refused unless it is one of :data:`JOB_FUNCTIONS`)."""
    fn = JOB_FUNCTIONS.get(name)
    if fn is None:
        raise ValueError(f"a job named a function that may not run: {name[:80]!r}")
    return fn


#: The pure-Python unpickler's own BUILD (``pickle._Unpickler.dispatch``).
_BUILD: Any = pickle._Unpickler.dispatch[pickle.BUILD[0]]


class _SafeUnpickler(pickle._Unpickler):
    """Builds the job classes (:data:`JOB_CLASSES`) and plain data, nothing else.

    The pure-Python unpickler, for one thing the C one cannot refuse: a BUILD whose target
    is a class sets attributes on the class itself (a row's 60 bytes emptied
    ``Position.legal_actions`` for the rest of the process: outside review, stop 39).
    Payloads are small, so its speed does not matter.
    """

    dispatch: ClassVar[dict[int, Any]] = dict(pickle._Unpickler.dispatch)

    def find_class(self, module: str, name: str) -> Any:
        found = JOB_CLASSES.get((module, name))
        if found is None:
            raise pickle.UnpicklingError(f"a job's data may not contain {module[:80]}.{name[:80]}")
        return found

    def _load_build(self) -> None:
        stack = self.stack  # type: ignore[attr-defined]
        if len(stack) >= 2 and isinstance(stack[-2], type):
            raise pickle.UnpicklingError("a job's data may not change a class")
        _BUILD(self)

    dispatch[pickle.BUILD[0]] = _load_build


def safe_loads(data: bytes) -> Any:
    """Unpickle a job's argument or result, building only the job classes."""
    if len(data) > MAX_PICKLE:
        raise pickle.UnpicklingError(f"a job's data of {len(data)} bytes is larger than {MAX_PICKLE}")
    return _SafeUnpickler(io.BytesIO(data)).load()


def encode_call(fn: Callable[..., Any], arg: Any) -> tuple[str, bytes]:
    """The job key and payload of ``fn(arg)``: the function's name, a newline, the pickled argument."""
    payload = function_name(fn).encode() + b"\n" + pickle.dumps(arg, protocol=pickle.HIGHEST_PROTOCOL)
    return "call-" + hashlib.sha256(payload).hexdigest()[:40], payload


def run_call(payload: bytes) -> bytes:
    """In a search process: run the call a payload names; its pickled result."""
    name, _, data = payload.partition(b"\n")
    result = resolve(name.decode())(safe_loads(data))
    return pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)


def run_turn(payload: bytes) -> bytes:
    """In a search process: the AI's turn for a turn job's payload, as text."""
    return " ".join(think(decode(payload))).encode()


async def install(url: str) -> None:
    """Create pgqueuer's tables and ours once (processes starting together wait for one)."""
    conn = await pgconn.connect(url)
    try:
        await conn.execute("SELECT pg_advisory_lock($1)", INSTALL_LOCK)
        try:
            queries = Queries.from_asyncpg_connection(conn)
            if not await queries.schema_is_installed():
                await queries.install()
                log.info("installed the AI job queue's tables")
            await conn.execute(RESULTS_DDL)
            await conn.execute(RESULTS_ERROR_DDL)
        finally:
            await conn.execute("SELECT pg_advisory_unlock($1)", INSTALL_LOCK)
    finally:
        await conn.close()


class QueueAiRunner:
    """The bot's AI runner on PostgreSQL: enqueue, then wait for the answer.

    Args:
        url: the database (``SEEGA_DB``).
        timeout: seconds to wait for an answer before giving up (the service logs it
            and the game waits for a retry: no move is ever chosen by anyone but the AI).
        poll: seconds between checks for an answer whose notification was missed.
    """

    def __init__(self, url: str, timeout: float = 300.0, poll: float = 2.0) -> None:
        self.url = url
        self.timeout = timeout
        self.poll = poll
        self._pool: asyncpg.Pool | None = None
        self._listener: Listener | None = None
        self._queries: Queries | None = None
        self._waiting: dict[str, asyncio.Event] = {}

    async def start(self) -> QueueAiRunner:
        """Connect, install the queue if needed, and listen for answers."""
        await install(self.url)
        self._pool = await pgconn.create_pool(self.url, min_size=1, max_size=4)
        self._queries = Queries.from_asyncpg_pool(self._pool)
        self._listener = await Listener(self.url, RESULTS_CHANNEL, self._on_result, self._wake_all).start()
        return self

    def _on_result(self, key: str) -> None:
        event = self._waiting.get(key)
        if event is not None:
            event.set()

    def _wake_all(self) -> None:
        """Answers may have been announced while not listening: every waiter looks again."""
        for event in self._waiting.values():
            event.set()

    async def _answer(self, key: str) -> bytes | None:
        """The stored answer, or ``None`` (also while the database is unreachable: ask again later).

        Raises:
            AiUnavailableError: a worker reported that it could not answer (the engine
                refused the request, its search processes kept dying or hung): the bot
                says the engine cannot answer right now, and its retry schedule applies.
        """
        assert self._pool is not None
        try:
            row = await self._pool.fetchrow("SELECT result, error FROM seega_ai_results WHERE key = $1", key)
        except (*RETRYABLE, TimeoutError) as exc:
            log.warning("AI answers: database unreachable (%s); will look again", exc)
            return None
        if row is None:
            return None
        if row["error"] is not None:
            raise AiUnavailableError(f"an AI worker could not answer: {row['error']}")
        return bytes(row["result"])

    async def _forget(self, key: str, *, failure_only: bool) -> None:
        """Delete the stored answer of ``key``: a failure reported for an earlier try
        (``failure_only``: this ask runs the job again), or a wrong answer (the next ask
        searches again). Best effort: an unreachable database leaves it stored."""
        assert self._pool is not None
        sql = "DELETE FROM seega_ai_results WHERE key = $1" + (" AND error IS NOT NULL" if failure_only else "")
        try:
            await self._pool.execute(sql, key)
        except (*RETRYABLE, TimeoutError) as exc:
            log.warning("AI answers: database unreachable (%s); the stored answer of %s stays", exc, key)

    async def _enqueue(self, entrypoint: str, key: str, payload: bytes) -> None:
        """Enqueue, retrying while the database restarts (a duplicate is skipped by its key)."""
        assert self._queries is not None, "call start() first"
        delay = 0.1
        for _ in range(8):
            try:
                await self._queries.enqueue(entrypoint, payload, dedupe_key=key, on_conflict="skip")
                return
            except RETRYABLE as exc:
                log.warning("AI queue: database unreachable (%s); retrying", exc)
                await asyncio.sleep(delay)
                delay *= 2
        raise TimeoutError("the AI job queue's database stayed unreachable")

    async def choose_turn(self, request: TurnRequest) -> list[str]:
        """Enqueue the request (once, whoever asks) and wait for a worker's answer.

        Raises:
            AiUnavailableError: also when the answer is not a legal turn (a worker on
                another release, or a broken one): its stored row is deleted so that no
                later ask is handed it, and the bot tries again (outside review atk41a:
                it was played as random moves and handed out for an hour).
        """
        key, payload = encode(request)
        try:
            turn = (await self._job(ENTRYPOINT, key, payload)).decode().split()
        except UnicodeDecodeError:
            turn = ["<not text>"]
        problem = request_turn_problem(request, turn)
        if problem is not None:
            await self._forget(key, failure_only=False)
            raise AiUnavailableError(f"an AI worker answered an illegal turn ({problem})")
        return turn

    async def evaluate(self, request: TurnRequest) -> int:
        """:func:`engine.ai.position_value` on a worker: the bot weighs a draw or an end
        by count with it (missing here, such an offer failed on PostgreSQL)."""
        return await self.run(position_value, request)

    async def run(self, fn: Callable[[A], R], arg: A) -> R:
        """``fn(arg)`` on a worker (a hint, a review's analysis): the coach's work runner."""
        key, payload = encode_call(fn, arg)
        return safe_loads(await self._job(CALL_ENTRYPOINT, key, payload))  # type: ignore[no-any-return]

    async def _job(self, entrypoint: str, key: str, payload: bytes) -> bytes:
        """Enqueue a job once (whoever asks) and wait for its stored result.

        The job is enqueued again each time a poll finds no answer (a duplicate is skipped
        by its key): a failed try's job can still be in the queue, finishing, when the
        asker retries, and that enqueue was skipped onto a job about to end, so the retry
        waited its whole timeout for nothing.
        """
        event = self._waiting.setdefault(key, asyncio.Event())
        try:
            await self._forget(key, failure_only=True)
            answer = await self._answer(key)
            if answer is not None:
                return answer
            loop = asyncio.get_running_loop()
            deadline = loop.time() + self.timeout
            polled = True
            while True:
                if polled:
                    await self._enqueue(entrypoint, key, payload)
                event.clear()
                answer = await self._answer(key)
                if answer is not None:
                    return answer
                left = deadline - loop.time()
                if left <= 0:
                    raise TimeoutError(f"no AI worker answered within {self.timeout:.0f}s (is `seega-bot worker` up?)")
                try:
                    await asyncio.wait_for(event.wait(), min(self.poll, left))
                    polled = False
                except TimeoutError:
                    polled = True
        finally:
            self._waiting.pop(key, None)

    async def aclose(self) -> None:
        """Stop listening and close the connections."""
        if self._listener is not None:
            await self._listener.close()
            self._listener = None
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    def close(self) -> None:
        """Nothing left to release synchronously (see :meth:`aclose`)."""


# --------------------------------------------------------------------------- workers


async def serve_forever(url: str, processes: int, heartbeat: float = 30.0, time_limit: float | None = None) -> None:
    """Run :func:`serve` until SIGTERM/SIGINT, connecting again whenever the database goes
    away (a restart, a network cut): the jobs it held are picked again after the heartbeat."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    delay = 1.0
    while not stop.is_set():
        try:
            await serve(url, processes, heartbeat, stop=stop, time_limit=time_limit)
        except asyncpg.ClientConfigurationError:
            raise  # a URL asyncpg refuses (sslmode=bogus) stays wrong: `seega-bot worker` says so and stops
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            log.warning("AI worker: lost the database (%s); connecting again in %.0fs", exc, delay)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), delay)
            delay = min(delay * 2, 30.0)
        else:
            delay = 1.0


#: How many jobs at most a worker does between two clean-ups of old results and logs.
CLEAN_EVERY = 200
#: Rows of the queue's log older than this are deleted by the clean-up.
LOG_TTL = "1 day"
#: Rows deleted at most per clean-up and table (a short statement, whatever the backlog).
CLEAN_BATCH = 5000


def call_time_limit() -> float:
    """Seconds a call job (a position's value, a hint, a review's position) may take in a
    search process: the longest any level's turn may (:func:`bot.ai_pool.ai_time_limit`),
    since the worker does not unpickle a call's argument in its event loop to find its level."""
    return max(ai_time_limit(TurnRequest("standard", 5, level=name)) for name in LEVEL_TABLE)


def job_failure(exc: BaseException) -> str:
    """What the asker is told when a job could not be answered (one line, no traceback)."""
    return f"{type(exc).__name__}: {exc}"[:500]


async def serve(
    url: str,
    processes: int,
    heartbeat: float = 30.0,
    batch: int = 1,
    stop: asyncio.Event | None = None,
    time_limit: float | None = None,
) -> None:
    """Run one worker: take AI jobs from the queue, think in ``processes`` processes, until
    ``stop`` is set (returns) or the database connection fails (raises).

    ``time_limit`` replaces each job's own limit (:func:`bot.ai_pool.ai_time_limit`; tests
    shorten it). The search processes are a :class:`ProcessPoolAiRunner`'s, so one that
    dies is replaced and the job asked again, and one that hangs past the job's limit is
    killed with its pool; either way a job that cannot be answered is reported back to
    the asker at once (:func:`report_failure`) instead of leaving it to its timeout.
    """
    await install(url)
    search = ProcessPoolAiRunner(processes)
    conn = await pgconn.connect(url)
    db = await pgconn.create_pool(url, min_size=1, max_size=2)
    pgq = PgQueuer.from_asyncpg_connection(conn)
    done = 0

    async def answer(key: str, work: Callable[[bytes], bytes], payload: bytes, limit: float) -> None:
        nonlocal done
        if await db.fetchval("SELECT 1 FROM seega_ai_results WHERE key = $1 AND error IS NULL", key) is None:
            try:
                result = await search.call(work, payload, time_limit or limit)
            except Exception as exc:
                log.exception("AI worker: job %s could not be answered; telling the asker", key)
                await report_failure(db, key, job_failure(exc))
                return
            await store_result(db, key, result)
        else:  # answered by a worker that died before marking the job done: tell again
            await db.execute("SELECT pg_notify($1, $2)", RESULTS_CHANNEL, key)
        done += 1
        if done % CLEAN_EVERY == 0:
            await clean_up(db)

    @pgq.entrypoint(ENTRYPOINT)
    async def ai_turn(job: Job) -> None:
        assert job.payload is not None
        try:
            request = decode(job.payload)
        except Exception as exc:  # a payload no search can read: the asker is told at once
            await report_failure(db, hashlib.sha256(job.payload).hexdigest()[:40], job_failure(exc))
            return
        await answer(encode(request)[0], run_turn, job.payload, ai_time_limit(request))

    @pgq.entrypoint(CALL_ENTRYPOINT)
    async def ai_call(job: Job) -> None:
        assert job.payload is not None
        key = "call-" + hashlib.sha256(job.payload).hexdigest()[:40]
        try:
            resolve(job.payload.partition(b"\n")[0].decode())  # refused before anything is unpickled
        except (ValueError, UnicodeDecodeError) as exc:
            await report_failure(db, key, job_failure(exc))
            return
        await answer(key, run_call, job.payload, call_time_limit())

    only_free_processes(pgq, processes)
    stop = stop or asyncio.Event()
    stopper = asyncio.ensure_future(_when_set(stop, pgq.shutdown))
    log.info("AI worker: %d processes, heartbeat %.0fs", processes, heartbeat)
    try:
        await pgq.run(
            batch_size=batch,
            max_concurrent_tasks=max(2 * batch, processes),
            heartbeat_timeout=timedelta(seconds=heartbeat),
            dequeue_timeout=timedelta(seconds=5),
        )
    finally:
        stopper.cancel()
        search.abandon()
        await _close(db)
        await _close(conn)


async def _close(db: asyncpg.Pool | asyncpg.Connection) -> None:
    """Close politely if the server answers, else drop: after a network cut a polite
    close waits for an answer that never comes, and the worker never served again."""
    try:
        await asyncio.wait_for(db.close(), 5)
    except Exception:
        db.terminate()


async def store_result(db: asyncpg.Pool, key: str, result: bytes) -> None:
    """Store a job's answer (over a failure reported for an earlier try) and wake the asker."""
    await _store_row(db, key, result, None)


async def report_failure(db: asyncpg.Pool, key: str, reason: str) -> None:
    """Tell the asker at once that its job failed (the path of an answer: a row and a
    ``NOTIFY``). Without it a job that raised was dropped by pgqueuer and the asker waited
    its whole timeout, then said no worker was up (outside review atk41a). An answer
    already stored is kept: the failure row is only for a key with none."""
    await _store_row(db, key, b"", reason)


async def _store_row(db: asyncpg.Pool, key: str, result: bytes, error: str | None) -> None:
    """Write a job's row (an answer, or a failure when ``error`` is set) and wake the asker.
    Either replaces a failure stored for an earlier try; a stored answer is never replaced."""
    async with db.acquire() as c, c.transaction():
        await c.execute(
            "INSERT INTO seega_ai_results (key, result, error) VALUES ($1, $2, $3) ON CONFLICT (key) DO UPDATE"
            " SET result = EXCLUDED.result, error = EXCLUDED.error, created_at = now()"
            " WHERE seega_ai_results.error IS NOT NULL",
            key,
            result,
            error,
        )
        await c.execute("SELECT pg_notify($1, $2)", RESULTS_CHANNEL, key)


async def clean_up(db: asyncpg.Pool) -> None:
    """Delete old answers and old rows of pgqueuer's log.

    pgqueuer writes three ``pgqueuer_log`` rows per job and never deletes them (it has
    no call that deletes by age; ``clear_queue_log`` empties the table), so without this
    the log grew by ~740 bytes a job for ever (outside review atk41a). Each ``DELETE`` is
    bounded (:data:`CLEAN_BATCH` rows) so a large backlog is worked off over several
    clean-ups instead of in one long statement.
    """
    await db.execute(f"DELETE FROM seega_ai_results WHERE created_at < now() - interval '{RESULT_TTL}'")
    for table in ("pgqueuer_log", "pgqueuer_statistics"):
        await db.execute(
            f"DELETE FROM {table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM {table}"
            f" WHERE created < now() - interval '{LOG_TTL}' LIMIT {CLEAN_BATCH}))"
        )


def only_free_processes(pgq: PgQueuer, processes: int) -> None:
    """Let the worker hold no more jobs than it has search processes.

    pgqueuer's ``max_concurrent_tasks`` is that cap, enforced in the dequeue query, but
    its ``run`` refuses one below twice the batch size, so a one-process worker took two
    jobs: the second waited behind the first while another worker sat idle (outside
    review atk41a). ``run`` is given a value it accepts and the dequeue the real one.
    """
    qm = pgq.qm
    fetch = qm.fetch_jobs

    def fetch_jobs(batch_size: int, _limit: int | None, heartbeat_timeout: timedelta) -> AsyncGenerator[Job, None]:
        return fetch(min(batch_size, processes), processes, heartbeat_timeout)

    setattr(qm, "fetch_jobs", fetch_jobs)  # noqa: B010  (an instance's method, replaced for this worker)


async def _when_set(source: asyncio.Event, target: asyncio.Event) -> None:
    await source.wait()
    target.set()


def run_workers(url: str, processes: int, heartbeat: float = 30.0, time_limit: float | None = None) -> int:
    """``seega-bot worker``: serve until SIGTERM/Ctrl-C; returns the exit status."""
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve_forever(url, processes, heartbeat, time_limit))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot.ai_jobs URL [--processes N] [--heartbeat S]`` (tests, benchmarks)."""
    parser = argparse.ArgumentParser(prog="python -m bot.ai_jobs")
    parser.add_argument("url")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--heartbeat", type=float, default=30.0, help="seconds before a silent worker's job is retried")
    parser.add_argument(
        "--time-limit", type=float, default=None, help="seconds any job may search (default: its level's)"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return run_workers(args.url, args.processes, args.heartbeat, args.time_limit)


if __name__ == "__main__":
    sys.exit(main())
