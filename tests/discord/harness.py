"""Running the real bot against the loopback Discord, in this process or as a child process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bot.ai_pool import AiRunner, ThreadAiRunner
from bot.client import AnyBot, create_bot
from bot.clock import Clock
from bot.service import GameService, default_renderer
from bot.settings import Settings
from bot.storage import Storage
from tests.discord.fake_discord import FakeDiscord, Interaction, Message

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GfAkEt.SeCrEt-t0ken-never-leaks_42"
ROOT = Path(__file__).resolve().parents[2]
#: A full 5x5 placement in pairs (Black, White, Black...), rank by rank, leaving the centre empty.
FULL_PLACEMENT = [f"{f}{r}" for r in "12345" for f in "abcde" if f"{f}{r}" != "c3"]


def make_settings(fake: FakeDiscord, db: Path, **overrides: Any) -> Settings:
    settings = Settings(
        token=TOKEN,
        db_path=db,
        guild_id=fake.guild_id,
        api_base=fake.api_base,
        gateway_url=fake.gateway_url,
        ai_workers=0,
        log_level="INFO",
    )
    return replace(settings, **overrides)


@dataclass
class Harness:
    """The fake Discord, the bot, and a few people in the guild."""

    fake: FakeDiscord
    bot: AnyBot
    alice: int
    bob: int
    carol: int
    mod: int

    async def slash(self, user: int, command: str, options: dict[str, Any] | None = None, **kw: Any) -> Interaction:
        return await self.fake.slash(user, command, options, **kw)

    async def click(self, user: int, message: Message, button: str, **kw: Any) -> Interaction:
        return await self.fake.click(user, message, button, **kw)

    async def idle(self) -> None:
        """Wait until the bot's background work (bot turns, button clean-ups) is done."""
        for _ in range(200):
            pending = [t for t in self.bot.background if not t.done()]
            if not pending:
                await asyncio.sleep(0.01)
                if not [t for t in self.bot.background if not t.done()]:
                    return
            else:
                await asyncio.wait(pending, timeout=10)
        raise AssertionError("the bot's background tasks did not finish")


async def start_bot(fake: FakeDiscord, settings: Settings, **kwargs: Any) -> tuple[AnyBot, asyncio.Task[None]]:
    kwargs.setdefault("chain_step_delay", 0.0)  # bot chains at once, unless a test wants the frames
    bot = create_bot(settings, guild_ready_timeout=0.05, **kwargs)
    task = asyncio.create_task(bot.start(TOKEN), name="bot")
    ready = asyncio.create_task(bot.wait_until_ready())
    done, _ = await asyncio.wait({task, ready}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
    if ready not in done:
        ready.cancel()
        if task.done():
            task.result()  # raises the start-up error
        raise AssertionError("the bot did not become ready")
    return bot, task


async def stop_bot(bot: AnyBot, task: asyncio.Task[None]) -> None:
    await bot.close()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await asyncio.wait_for(task, 10)


@contextlib.asynccontextmanager
async def running(
    tmp_path: Path,
    *,
    clock: Clock | None = None,
    ai: AiRunner | None = None,
    bot_kwargs: dict[str, Any] | None = None,
    **overrides: Any,
) -> AsyncIterator[Harness]:
    """A fresh fake Discord and bot on a new database in ``tmp_path``.

    With ``clock`` or ``ai`` the service is built here around them (and injected), so
    tests can move time for the timers or script the bot's turns.
    """
    fake = FakeDiscord(TOKEN)
    if clock is not None:
        fake.clock = clock.now  # interaction tokens expire on the bot's time
    await fake.start()
    people = [fake.add_user(n) for n in ("alice", "bob", "carol")] + [fake.add_user("mod", moderator=True)]
    settings = make_settings(fake, tmp_path / "seega.db", **overrides)
    storage = None
    own_ai: AiRunner | None = None
    kwargs: dict[str, Any] = dict(bot_kwargs or {})
    if clock is not None or ai is not None:
        storage = await Storage.open(settings.db_path)
        if ai is None:
            ai = own_ai = ThreadAiRunner()
        kwargs["service"] = GameService(storage, ai, default_renderer(), clock=clock)
    bot, task = await start_bot(fake, settings, **kwargs)
    try:
        yield Harness(fake, bot, *people)
    finally:
        await stop_bot(bot, task)
        await fake.close()
        if own_ai is not None:
            own_ai.close()
        if storage is not None:
            await storage.close()


def bot_process(fake: FakeDiscord, db: Path | str, log_path: Path, **settings: str) -> subprocess.Popen[bytes]:
    """``python -m bot`` as a child process pointed at the fake Discord (token in its environment);
    ``settings`` add to or override its environment (``SEEGA_SHARDS="2"``...)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SEEGA_"))}
    env.update(
        {
            "DISCORD_TOKEN": TOKEN,
            "DISCORD_API_BASE": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "DISCORD_GUILD_ID": str(fake.guild_id),
            "SEEGA_DB": str(db),
            "SEEGA_AI_WORKERS": "0",
            "LOG_LEVEL": "DEBUG",
            "PYTHONPATH": str(ROOT),
        }
    )
    env.update(settings)
    log = log_path.open("ab")
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "--env-file", os.devnull], cwd=ROOT, env=env, stdout=log, stderr=log
    )
