"""The Discord client: a ``commands.Bot`` that owns the service and its resources.

``setup_hook`` opens what the bot needs before it connects (database, AI pool, service,
scheduler), loads the cogs and registers the ``DynamicItem`` buttons, so a button posted
before a restart still works after it. Resources can be injected (tests, the benchmark)
and are then left to their owner to close.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import MutableMapping
from typing import Any

import discord
import yarl
from discord.ext import commands

from bot import lost, scale
from bot.ai_pool import AiRunner, ProcessPoolAiRunner, ThreadAiRunner
from bot.flows import BUTTON_HANDLERS, announce_deleted_thread, announce_timer_event
from bot.i18n import SeegaTranslator
from bot.recent import BOARD_MESSAGES_LIMIT, Recent
from bot.results import TimerEvent
from bot.scheduler import Scheduler
from bot.service import GameService, default_renderer
from bot.service.limits import Limits
from bot.settings import Settings
from bot.storage import Storage
from bot.tree import SeegaTree
from bot.views import DYNAMIC_ITEMS

log = logging.getLogger(__name__)

#: Seconds a member's language choice is cached before it is read again.
LANGUAGE_TTL = 30.0

#: Loaded by name (discord.py's extensions), so the client never imports the cogs itself.
EXTENSIONS = ("bot.cogs.game",)


def apply_endpoints(settings: Settings) -> None:
    """Point discord.py's REST and gateway at ``settings`` (a proxy, or a loopback fake).

    discord.py keeps both as class attributes, so this is process-wide, which is what a
    process running one bot wants.
    """
    discord.http.Route.BASE = settings.api_base
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


def _intents() -> discord.Intents:
    # Slash commands and buttons arrive as interactions, which need no privileged intent;
    # the guilds intent keeps channels and threads cached.
    return discord.Intents(guilds=True)


class SeegaBotMixin:
    """What both bot classes share (one connection, or automatic sharding)."""

    settings: Settings
    service: GameService
    storage: Storage | None
    ai: AiRunner | None

    def _init_seega(
        self,
        settings: Settings,
        *,
        service: GameService | None = None,
        bot_turn_delay: float = 0.0,
        chain_step_delay: float = 1.0,
    ) -> None:
        self.settings = settings
        self._injected_service = service
        if service is not None:
            self.service = service
        self.storage = None
        self.ai = None
        self.scheduler: Scheduler | None = None
        self.button_handlers = BUTTON_HANDLERS
        #: Pause between the human's turn and the bot's, so people can follow (0 in tests).
        self.bot_turn_delay = bot_turn_delay
        #: Pause between the frames of a bot's capture chain, shown step by step (0: at once).
        self.chain_step_delay = chain_step_delay
        #: channel id -> the last message showing that channel's board (to disable stale
        #: buttons and take back its "thinking" line): a :class:`bot.senders.Board`.
        self.board_messages: MutableMapping[int, Any] = Recent(BOARD_MESSAGES_LIMIT)
        #: channel id -> (kind, message, its text once lapsed) of its open offer (to remove its
        #: buttons when it no longer stands, and say so if it lapsed).
        self.offer_messages: MutableMapping[int, tuple[str, Any, str]] = Recent(BOARD_MESSAGES_LIMIT)
        #: challenge id -> the message showing it (to disable its buttons when it expires),
        #: bounded: a challenge settled elsewhere (another process, a failed post) is
        #: never popped here.
        self.challenge_messages: MutableMapping[int, Any] = Recent(BOARD_MESSAGES_LIMIT)
        self.background: set[asyncio.Task[Any]] = set()
        #: user id -> (chosen language or ``None``: the client's, when read): a cache of
        #: the stored choice, re-read after LANGUAGE_TTL so a choice made through another
        #: process (shard) arrives, and bounded like the board messages.
        self.language_prefs: MutableMapping[int, tuple[str | None, float]] = Recent(BOARD_MESSAGES_LIMIT)

    async def language_of(self, user_id: int) -> str | None:
        """The language a user chose with ``/seega language`` (``None``: their client's).

        Never raises: the language is read after a turn is stored, before it is posted,
        and a database error there answered "nothing was changed" for a stored turn and
        posted no board (outside review, stop 38). On an error the last known choice
        stands, else none (the client's or the server's language).
        """
        cached = self.language_prefs.get(user_id)
        if cached is not None and time.monotonic() - cached[1] < LANGUAGE_TTL:
            return cached[0]
        try:
            language = await self.service.get_language(user_id)
        except Exception:
            log.warning("could not read the language of user %s; using the last known one", user_id, exc_info=True)
            return cached[0] if cached is not None else None
        self.language_prefs[user_id] = (language, time.monotonic())
        return language

    async def set_language_of(self, user_id: int, language: str | None) -> None:
        """Remember a user's language (in the database when the service can store it)."""
        await self.service.set_language(user_id, language)
        self.language_prefs[user_id] = (language, time.monotonic())

    def spawn(self, coro: Any, *, name: str) -> asyncio.Task[Any]:
        """Run ``coro`` in the background, keeping a reference and logging its failure."""
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self.background.add(task)

        def done(t: asyncio.Task[Any]) -> None:
            self.background.discard(t)
            if not t.cancelled() and t.exception() is not None:
                log.error("background task %s failed", name, exc_info=t.exception())

        task.add_done_callback(done)
        return task

    async def _open_resources(self) -> None:
        if self._injected_service is not None:
            return
        self.storage = await Storage.open(self.settings.database)
        self.storage.shards = scale.process_shards(self.settings)
        workers = self.settings.ai_workers
        if self.settings.db_url is not None:  # AI turns are jobs for `seega-bot worker` processes
            self.ai = await scale.queue_runner(self.settings.db_url)
        else:
            self.ai = ThreadAiRunner() if workers == 0 else ProcessPoolAiRunner(workers)
        limits = Limits(ai_running=self.settings.ai_per_guild)
        self.service = GameService(self.storage, self.ai, default_renderer(), limits=limits)

    async def _start_scheduler(self) -> None:
        self.scheduler = Scheduler(self.service, self.on_timer_event, channel_gone=self._channel_is_gone)
        await self.scheduler.start()

    async def _channel_is_gone(self, channel_id: int) -> bool:
        return await lost.channel_is_gone(self, channel_id)  # type: ignore[arg-type]

    # A deleted channel or thread, or a server the bot left, ends its games unrated and
    # closes its challenges (bot.lost; outside review atk41c, F1 and F6). The guilds
    # intent brings these events; a thread of a deleted channel comes as its own
    # raw_thread_delete (discord.py sends one per cached thread), and the raw event also
    # covers threads that were not cached (archived ones).
    # Who deleted a game's place is asked of the audit log (bot.lost.deleted_by; review
    # atk41d, F1): a thread goes with its own deletion or with its parent channel's.
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        deletions = ((discord.AuditLogAction.channel_delete, channel.id),)
        await lost.channel_deleted(self, channel.id, guild=channel.guild, deletions=deletions)  # type: ignore[arg-type]

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        deletions = (
            (discord.AuditLogAction.thread_delete, payload.thread_id),
            (discord.AuditLogAction.channel_delete, payload.parent_id),
        )
        guild = self.get_guild(payload.guild_id)  # type: ignore[attr-defined]
        ended = await lost.channel_deleted(self, payload.thread_id, guild=guild, deletions=deletions)  # type: ignore[arg-type]
        if payload.thread_type == discord.ChannelType.public_thread:  # a private thread's game stays unsaid
            await announce_deleted_thread(self, ended.games, payload.parent_id)  # type: ignore[arg-type]

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await lost.guild_removed(self, guild.id)  # type: ignore[arg-type]

    async def on_timer_event(self, event: TimerEvent) -> None:
        """Announce what the scheduler did (reminders, timeouts, expiries, due bot turns)."""
        await announce_timer_event(self, event)  # type: ignore[arg-type]

    async def _close_resources(self) -> None:
        for task in list(self.background):
            task.cancel()
        if self.scheduler is not None:
            await self.scheduler.stop()
        if self.ai is not None:
            aclose = getattr(self.ai, "aclose", None)
            if aclose is not None:
                await aclose()
            await asyncio.get_running_loop().run_in_executor(None, self.ai.close)
        if self.storage is not None:
            await self.storage.close()


class _SeegaHooks(SeegaBotMixin):
    """``setup_hook``/``close`` written once for both base classes."""

    async def setup_hook(self) -> None:
        bot: commands.Bot = self  # type: ignore[assignment]
        await self._open_resources()
        await bot.tree.set_translator(SeegaTranslator())
        for ext in EXTENSIONS:
            await bot.load_extension(ext)
        bot.add_dynamic_items(*DYNAMIC_ITEMS)
        await self._start_scheduler()
        freeze_startup_objects()
        if self.settings.guild_id is not None:
            guild = discord.Object(self.settings.guild_id)
            bot.tree.copy_global_to(guild=guild)
            synced = await bot.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), self.settings.guild_id)

    async def close(self) -> None:
        await super().close()  # type: ignore[misc]
        await self._close_resources()

    async def on_ready(self) -> None:
        bot: commands.Bot = self  # type: ignore[assignment]
        log.info("connected as %s (%s) to %d guild(s)", bot.user, bot.user.id if bot.user else "?", len(bot.guilds))


def freeze_startup_objects() -> None:
    """Move everything alive after start-up (modules, classes, discord.py's and the
    locale's tables: most of the heap) out of the garbage collector's sight.

    A full collection walks every tracked object and stops the event loop while it
    does: measured with ``bench.hostile`` under a flood of requests, one pass took 147 ms,
    three turns' worth of latency for every server. These objects live as long as the
    process, so scanning them again and again finds nothing (``gc.freeze``; Python's
    documentation recommends it for long-running servers).
    """
    gc.collect()
    gc.freeze()


def _bot_kwargs(settings: Settings, guild_ready_timeout: float) -> dict[str, Any]:
    return {
        "command_prefix": commands.when_mentioned,
        "intents": _intents(),
        "help_command": None,
        "tree_cls": SeegaTree,
        "allowed_mentions": discord.AllowedMentions.none(),
        "guild_ready_timeout": guild_ready_timeout,
        "chunk_guilds_at_startup": False,
        "max_messages": None,
        "member_cache_flags": discord.MemberCacheFlags.none(),
    }


class SeegaBot(_SeegaHooks, commands.Bot):
    """The bot on one gateway connection."""

    def __init__(
        self,
        settings: Settings,
        *,
        service: GameService | None = None,
        guild_ready_timeout: float = 2.0,
        bot_turn_delay: float = 0.0,
        chain_step_delay: float = 1.0,
    ) -> None:
        super().__init__(**_bot_kwargs(settings, guild_ready_timeout))
        self._init_seega(settings, service=service, bot_turn_delay=bot_turn_delay, chain_step_delay=chain_step_delay)


class ShardedSeegaBot(_SeegaHooks, commands.AutoShardedBot):
    """The bot at scale: several gateway shards in one process."""

    def __init__(
        self,
        settings: Settings,
        *,
        service: GameService | None = None,
        guild_ready_timeout: float = 2.0,
        bot_turn_delay: float = 0.0,
        chain_step_delay: float = 1.0,
    ) -> None:
        count = settings.shards if isinstance(settings.shards, int) else None
        # discord.py takes shard_ids=None (all shards) though its annotation says a list.
        sharding: dict[str, Any] = {"shard_count": count}
        if settings.shard_ids is not None:
            sharding["shard_ids"] = list(settings.shard_ids)
        super().__init__(**sharding, **_bot_kwargs(settings, guild_ready_timeout))
        self._init_seega(settings, service=service, bot_turn_delay=bot_turn_delay, chain_step_delay=chain_step_delay)

    async def connect(self, *, reconnect: bool = True) -> None:
        # With a gateway URL of our own (a proxy) discord.py would still take the URL
        # Discord recommends when it asks for the shard count: ask for the count only.
        if self.shard_count is None and self.settings.gateway_url:
            self.shard_count, _url, _limits = await self.http.get_bot_gateway()
        await super().connect(reconnect=reconnect)


AnyBot = SeegaBot | ShardedSeegaBot


def create_bot(settings: Settings, **kwargs: Any) -> AnyBot:
    """The bot class ``settings`` asks for (``SEEGA_SHARDS``), with its endpoints applied."""
    apply_endpoints(settings)
    if settings.shards is None:
        return SeegaBot(settings, **kwargs)
    return ShardedSeegaBot(settings, **kwargs)
