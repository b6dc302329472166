"""The bot process is killed mid-game and started again on the same database.

Also the only test of ``python -m bot`` as people run it, so it checks that the token is
sent nowhere but the Authorization header and never written to the log, at DEBUG level.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from tests.discord.fake_discord import FakeDiscord
from tests.discord.harness import TOKEN, bot_process


async def _wait_exit(proc: object, timeout: float = 15.0) -> int:
    import subprocess

    assert isinstance(proc, subprocess.Popen)
    for _ in range(int(timeout * 20)):
        code = proc.poll()
        if code is not None:
            return int(code)
        await asyncio.sleep(0.05)
    proc.kill()
    raise AssertionError("the bot process did not exit")


async def test_killed_and_restarted_process_continues_the_games(tmp_path: Path) -> None:
    fake = FakeDiscord(TOKEN)
    await fake.start()
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    db = tmp_path / "seega.db"
    log = tmp_path / "bot.log"
    proc = bot_process(fake, db, log)
    try:
        await fake.wait_connected()
        challenge = (await fake.slash(alice, "seega challenge", {"opponent": bob, "color": "black"})).reply
        await fake.click(bob, challenge, "Accept", followup=True)
        await fake.slash(alice, "place", {"first": "a1", "second": "b1"})
        pending = await fake.slash(carol, "seega challenge", {"opponent": alice}, channel_id=fake.add_channel("x"))
        assert not pending.reply.ephemeral

        proc.send_signal(signal.SIGKILL)
        await _wait_exit(proc)
        await fake.drop_connections()

        proc = bot_process(fake, db, log)
        await fake.wait_connected()
        moved = await fake.slash(bob, "place", {"first": "d5", "second": "e5"})
        assert not moved.reply.ephemeral, moved.reply.text
        assert "a1" not in moved.reply.text or "d5" in moved.reply.text
        assert moved.reply.pinged_user_ids() == {alice}
        board = await fake.slash(carol, "seega board")
        assert "4 on the board" not in board.reply.text  # each side has two pieces on the board
        assert board.reply.text.count("2 on the board") == 2
        # A button posted before the restart still works after it.
        accepted = await fake.click(alice, pending.reply, "Accept", followup=True)
        assert "Carol" in accepted.followups[0].text

        proc.send_signal(signal.SIGTERM)  # docker stop / systemctl stop
        assert await _wait_exit(proc) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        await fake.close()
    output = log.read_text()
    assert "starting with Settings(token=<set>" in output and "has connected to Gateway" in output
    assert output.rstrip().endswith("bot: stopped") or "bot: stopped" in output
    assert TOKEN not in output, "the token was written to the log"
    assert fake.token_leaks() == []
    assert any(r.headers.get("Authorization") == f"Bot {TOKEN}" for r in fake.requests)
    identify = [f for f in fake.gateway_frames if f.get("op") == 2]
    assert len(identify) == 2, "each process identified once on the gateway"
