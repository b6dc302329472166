"""Many processes on one PostgreSQL, through the loopback Discord (issue 10).

Two bot processes (``python -m bot``) run shard 0 and shard 1 of 2; the fake gateway
routes each guild's events to the connection of its shard. AI turns are jobs run by
``bot.ai_jobs`` worker processes. Everything is real but Discord: the PostgreSQL server,
the queue, discord.py's sharded client, SIGKILL.

* A game in a guild of each shard, each answered by its own process.
* A worker SIGKILLed while it holds the bot's turn: another worker takes the job, the
  bot's move is posted once, by the process that owns the guild.
* A bot process SIGKILLed mid-game and started again: the game goes on, a button posted
  before the kill still works.
* Deadlines that passed while a process was down are applied by the process owning the
  guild when it comes back, once; the other process leaves them alone.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.discord.fake_discord import FakeDiscord, Message
from tests.discord.harness import TOKEN, bot_process
from tests.postgres import TempPostgres
from tests.service.helpers import execute, query

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _worker(url: str, *, slow: bool = False) -> subprocess.Popen[bytes]:
    args = ["-m", "tests.service.slow_worker", url, "1"] if slow else ["-m", "bot.ai_jobs", url, "--heartbeat", "1"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, *args], cwd=ROOT, env=env, start_new_session=True)


def _signal(proc: subprocess.Popen[bytes], sig: int) -> None:
    """A worker with its search processes (its own session), or a bot process alone."""
    if proc.poll() is not None:
        return
    if os.getpgid(proc.pid) == proc.pid:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)


def _stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGKILL) -> None:
    _signal(proc, sig)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        _signal(proc, signal.SIGKILL)
        proc.wait(timeout=20)


async def _until(predicate: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _bot_turn_messages(fake: FakeDiscord, channel: int) -> list[Message]:
    return [m for m in fake.channel_messages(channel) if "Seega bot" in m.text and "placed on" in m.text]


async def test_two_shard_processes_workers_and_kills(postgres_server: TempPostgres, tmp_path: Path) -> None:
    url = postgres_server.create_database()
    fake = FakeDiscord(TOKEN)
    await fake.start()
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    shard_a = (fake.guild_id >> 22) % 2
    guild_b, channel_b = fake.add_guild("Other Club", shard=1 - shard_a, shard_count=2)
    channel_a = fake.channel_id
    logs = {s: tmp_path / f"bot{s}.log" for s in (0, 1)}

    def start(shard: int) -> subprocess.Popen[bytes]:
        return bot_process(fake, url, logs[shard], SEEGA_SHARDS="2", SEEGA_SHARD_IDS=str(shard))

    bots = {s: start(s) for s in (0, 1)}
    workers = [_worker(url, slow=True)]
    try:
        await fake.wait_connected(2, timeout=60)
        assert sorted(c.shard for c in fake.connections) == [(0, 2), (1, 2)]

        # a game between people in the guild of shard A, a bot game in the guild of shard B
        challenge = (await fake.slash(alice, "seega challenge", {"opponent": bob, "color": "black"})).reply
        await fake.click(bob, challenge, "Accept", followup=True)
        placed = await fake.slash(alice, "place", {"first": "a1", "second": "b1"})
        assert not placed.reply.ephemeral, placed.reply.text
        pending = await fake.slash(
            carol, "seega challenge", {"opponent": alice, "color": "black"}, channel_id=fake.add_channel("x")
        )
        assert not pending.reply.ephemeral

        await fake.slash(carol, "seega play-bot", {"level": "easy", "color": "white"}, channel_id=channel_b)
        await _until(
            lambda: query(url, "SELECT status::text FROM pgqueuer") == [("picked",)], 60, "the slow worker's pick"
        )
        _stop(workers[0])  # killed while it thinks
        assert _bot_turn_messages(fake, channel_b) == []
        workers += [_worker(url), _worker(url)]
        await _until(lambda: _bot_turn_messages(fake, channel_b), 90, "the bot's move after the worker died")
        await asyncio.sleep(1.5)  # room for a duplicate to show up, were there one
        assert len(_bot_turn_messages(fake, channel_b)) == 1
        rows = query(url, "SELECT guild_id, version, actions FROM games WHERE channel_id = ?", (channel_b,))
        assert rows[0][0] == guild_b and rows[0][1] == 1 and len(str(rows[0][2]).split()) == 2
        # both bot processes die mid-game (SIGKILL); deadlines pass while they are down
        owner_b = 1 - shard_a
        for shard in (0, 1):
            _stop(bots[shard])
        await fake.drop_connections()
        past = time.time() - 5
        execute(url, "UPDATE games SET deadline = ?, remind_at = NULL WHERE status = 'active'", (past,))
        bots[shard_a] = start(shard_a)
        await fake.wait_connected(1, timeout=60)
        await _until(
            lambda: query(url, "SELECT status FROM games WHERE channel_id = ?", (channel_a,)) == [("finished",)],
            60,
            "shard A's process to apply its guild's deadline",
        )
        # shard A's process leaves shard B's guild alone: that game waits for its own process
        await asyncio.sleep(2)
        assert query(url, "SELECT status FROM games WHERE channel_id = ?", (channel_b,)) == [("active",)]
        bots[owner_b] = start(owner_b)
        await fake.wait_connected(2, timeout=60)
        await _until(
            lambda: query(url, "SELECT status FROM games WHERE channel_id = ?", (channel_b,)) == [("finished",)],
            60,
            "shard B's process to apply its guild's deadline",
        )

        def timeouts(channel: int) -> list[Message]:
            return [m for m in fake.channel_messages(channel) if "ran out" in m.text]

        # the game is finished in the database a moment before its picture is posted
        for channel in (channel_a, channel_b):
            await _until(lambda channel=channel: timeouts(channel), 30, "the timeout's announcement")
        await asyncio.sleep(1.5)  # room for a duplicate to show up, were there one
        for channel in (channel_a, channel_b):
            assert len(timeouts(channel)) == 1, [m.text for m in fake.channel_messages(channel)]

        # a button posted before the kill still works after it, on the restarted process
        accepted = await fake.click(alice, pending.reply, "Accept", followup=True)
        assert "Carol" in accepted.followups[0].text
        moved = await fake.slash(carol, "place", {"first": "a1", "second": "b1"}, channel_id=pending.channel_id)
        assert not moved.reply.ephemeral, moved.reply.text
    finally:
        for proc in [*bots.values(), *workers]:
            _stop(proc, signal.SIGTERM)
        await fake.close()
    for log in logs.values():
        assert TOKEN not in log.read_text()
