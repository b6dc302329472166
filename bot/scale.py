"""How one bot process takes its part in a deployment of many (docs/scaling.md).

* Timers: a process applies the timers (turn deadlines, reminders, challenge expiry,
  resumed bot turns) of its own shards' guilds only: the storage's timer queries are
  filtered by ``(guild_id >> 22) % SEEGA_SHARDS IN (SEEGA_SHARD_IDS)``, Discord's own
  routing formula. No two processes look at the same game's timers, and should two ever
  do (a shard moved between processes during a rolling restart) the service's
  compare-and-swap still applies each timeout once.
* Guild settings: the service caches them; a change saved by any process is sent with
  PostgreSQL ``NOTIFY`` and every process's service drops its cached copy at once
  (:meth:`bot.storage.Storage.on_settings_changed`).
* AI: with PostgreSQL the bot's turns are jobs for ``seega-bot worker`` processes
  (:mod:`bot.ai_jobs`); with SQLite the in-process pool stays.
"""

from __future__ import annotations

from bot.ai_jobs import QueueAiRunner
from bot.settings import Settings
from bot.storage import Shards


def process_shards(settings: Settings) -> Shards | None:
    """The shards whose guilds' timers this process applies (``None``: every guild)."""
    if settings.shard_ids is None or not isinstance(settings.shards, int):
        return None
    return Shards(settings.shards, settings.shard_ids)


async def queue_runner(url: str) -> QueueAiRunner:
    """The AI runner of a bot on PostgreSQL: jobs on the queue."""
    return await QueueAiRunner(url).start()
