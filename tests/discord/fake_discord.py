"""A small Discord on 127.0.0.1: the REST routes the bot uses and a gateway websocket.

The real discord.py client talks to it exactly as it talks to Discord, so the tests cover
the library's own parsing of payloads, multipart uploads, webhooks and the gateway
handshake instead of mocks of them. It is deliberately strict where Discord is strict
(an interaction answered twice, a missing required option, an unknown choice) and records
every request and gateway frame so tests can assert what was sent (and that the token
went nowhere but the ``Authorization`` header).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

DISCORD_EPOCH = 1420070400000
#: Discord's limits: characters of a message's content, of a string option's value.
CONTENT_LIMIT = 2000
OPTION_LIMIT = 6000
#: Seconds an interaction's token can be used for followups and edits.
WEBHOOK_TTL = 15 * 60.0
ALL_PERMISSIONS = (1 << 50) - 1
MANAGE_CHANNELS = 1 << 4
MEMBER_PERMISSIONS = ALL_PERMISSIONS & ~(MANAGE_CHANNELS | (1 << 3) | (1 << 5) | (1 << 28))
#: Audit log action types (Discord's numbering) of a deleted channel, a deleted thread.
CHANNEL_DELETE, THREAD_DELETE = 12, 112
EPHEMERAL = 1 << 6

# Application command option types (Discord's numbering).
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = range(1, 11)


def _iso(ts: float | None = None) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(time.time() if ts is None else ts))


@dataclass
class RecordedRequest:
    """One REST request as it arrived, for assertions about what the bot sent."""

    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Attachment:
    """A file the bot uploaded."""

    filename: str
    data: bytes
    id: int = 0


@dataclass
class Message:
    """A message as the fake Discord keeps it (posted, followup or interaction response)."""

    id: int
    channel_id: int
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    allowed_mentions: dict[str, Any] | None = None
    interaction_id: int | None = None
    webhook_id: int | None = None
    edits: int = 0
    deleted: bool = False
    pinged: set[int] = field(default_factory=set)
    #: What the message said (its text) before each edit, oldest first.
    history: list[str] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def text(self) -> str:
        """Content and embed texts joined, for assertions that do not care about layout."""
        parts = [self.content]
        for embed in self.embeds:
            parts.append(embed.get("title", ""))
            parts.append(embed.get("description", ""))
            for fld in embed.get("fields", []):
                parts.append(f"{fld.get('name', '')}: {fld.get('value', '')}")
            footer = embed.get("footer") or {}
            parts.append(footer.get("text", ""))
            author = embed.get("author") or {}
            parts.append(author.get("name", ""))
        return "\n".join(p for p in parts if p)

    def buttons(self) -> list[dict[str, Any]]:
        """Every button of the message, in order."""
        return [c for row in self.components for c in row.get("components", []) if c.get("type") == 2]

    def button(self, label_or_prefix: str) -> dict[str, Any]:
        """The button whose label or custom_id starts with ``label_or_prefix`` (case ignored)."""
        want = label_or_prefix.lower()
        for button in self.buttons():
            if (button.get("label") or "").lower().startswith(want) or button.get("custom_id", "").startswith(
                label_or_prefix
            ):
                return button
        raise AssertionError(f"no button {label_or_prefix!r} in {[b.get('label') for b in self.buttons()]}")

    def pinged_user_ids(self) -> set[int]:
        """The users this message notified when it was created (edits notify nobody)."""
        return set(self.pinged)

    def _compute_pings(self) -> set[int]:
        """Apply ``allowed_mentions`` to the mentions in the content, as Discord does."""
        mentioned = {int(m) for m in re.findall(r"<@!?(\d+)>", self.content)}
        am = self.allowed_mentions
        if am is None:
            return mentioned
        allowed = {int(u) for u in am.get("users", [])}
        if "users" in am.get("parse", []):
            return mentioned
        return mentioned & allowed

    def png(self) -> bytes:
        """The first PNG attachment (asserting there is one)."""
        for att in self.attachments:
            if att.data.startswith(b"\x89PNG\r\n\x1a\n"):
                return att.data
        raise AssertionError(f"no PNG attachment in message {self.id}: {[a.filename for a in self.attachments]}")


@dataclass
class Interaction:
    """An interaction the fake sent to the bot and everything the bot answered to it."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    payload: dict[str, Any]
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    callback_files: list[Attachment] = field(default_factory=list)
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    deferred: bool = False
    original_edited: bool = False
    sent_at: float = 0.0
    callback_at: float = 0.0

    @property
    def callback_type(self) -> int | None:
        return self.callbacks[0]["type"] if self.callbacks else None

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices of an autocomplete interaction."""
        assert self.callback_type == 8, f"not an autocomplete answer: {self.callbacks}"
        return list(self.callbacks[0]["data"]["choices"])

    @property
    def reply(self) -> Message:
        """The message that answers this interaction (original response, or the updated message)."""
        if self.original is not None:
            return self.original
        if self.followups:
            return self.followups[0]
        raise AssertionError(f"interaction {self.id} has no message answer: callbacks {self.callbacks}")


class GatewayConnection:
    """One websocket session (one bot process, or one shard of it)."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.seq = 0
        self.shard: tuple[int, int] = (0, 1)
        self.identified = asyncio.Event()

    async def send(self, op: int, d: Any, t: str | None = None) -> None:
        s = None
        if op == 0:
            self.seq += 1
            s = self.seq
        await self.ws.send_str(json.dumps({"op": op, "d": d, "s": s, "t": t}))


class FakeDiscord:
    """The loopback Discord. Start it with ``await fake.start()``; stop with ``await fake.close()``."""

    def __init__(self, token: str, *, guild_name: str = "Seega Club") -> None:
        self.token = token
        self._ids = itertools.count(1)
        self.app_id = self.snowflake()
        self.bot_user = self._user_payload(self.app_id, "Seega", bot=True)
        self.guild_id = self.snowflake()
        #: The server's "Moderators" role: Manage Channels server-wide.
        self.moderator_role_id = self.snowflake()
        self.guild_name = guild_name
        self.users: dict[int, dict[str, Any]] = {self.app_id: self.bot_user}
        #: A member's permissions in the channels (what interactions carry).
        self.member_permissions: dict[int, int] = {}
        #: Users who are not members of the guild (a user id typed into a user option).
        self.outsiders: set[int] = set()
        #: A member's roles (what their server-wide permissions come from).
        self.member_roles: dict[int, list[int]] = {}
        #: The bot's own permissions in a channel (an interaction's ``app_permissions``),
        #: where a test took some away; everything elsewhere.
        self.bot_permissions: dict[int, int] = {}
        #: The server's audit log, newest last: what ``delete_channel(..., by=user)`` and
        #: the bot's own deletions recorded. ``view_audit_log``: whether the bot may read
        #: it (View Audit Log); false, Discord answers 403 Missing Permissions.
        self.audit_log: list[dict[str, Any]] = []
        self.view_audit_log = True
        self.channels: dict[int, dict[str, Any]] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, Interaction] = {}
        self.requests: list[RecordedRequest] = []
        self.gateway_frames: list[dict[str, Any]] = []
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.unknown_routes: list[str] = []
        #: Seconds an interaction's token (followups, edits of its messages) lives: Discord's
        #: 15 minutes. ``clock`` measures it: tests with a fake clock set it to the bot's.
        self.webhook_ttl: float | None = WEBHOOK_TTL
        self.clock: Callable[[], float] = time.perf_counter
        #: Awaited with each REST request before it is handled: a test holds one request
        #: back (Discord's latency) to order a race as it wants.
        self.request_hook: Callable[[web.Request], Awaitable[None]] | None = None
        self.connections: list[GatewayConnection] = []
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0
        #: More guilds than the first (``add_guild``): guild id -> name. Sharding tests
        #: put them on different shards; each guild's events go to its shard's connection.
        self.extra_guilds: dict[int, str] = {}
        self.channel_id = self.add_channel("games")

    # -- identities ---------------------------------------------------------------------------

    def snowflake(self) -> int:
        return ((int(time.time() * 1000) - DISCORD_EPOCH) << 22) | (next(self._ids) & 0x3FFFFF)

    @staticmethod
    def _user_payload(uid: int, name: str, *, bot: bool = False) -> dict[str, Any]:
        return {
            "id": str(uid),
            "username": name,
            "global_name": name.capitalize(),
            "discriminator": "0",
            "avatar": None,
            "bot": bot,
            "public_flags": 0,
        }

    def add_user(self, name: str, *, moderator: bool = False, channel_moderator: bool = False) -> int:
        """A guild member. Moderators have the Moderators role (Manage Channels server-wide);
        a channel moderator has Manage Channels only through the channels' overwrites."""
        uid = self.snowflake()
        self.users[uid] = self._user_payload(uid, name)
        self.member_permissions[uid] = ALL_PERMISSIONS if moderator or channel_moderator else MEMBER_PERMISSIONS
        self.member_roles[uid] = [self.moderator_role_id] if moderator else []
        return uid

    def add_guild(self, name: str, *, shard: int = 0, shard_count: int = 1) -> tuple[int, int]:
        """Another guild the bot is in, on ``shard`` of ``shard_count``; returns (guild id, its "games" channel)."""
        while True:
            gid = self.snowflake()
            if (gid >> 22) % shard_count == shard:
                break
            time.sleep(0.001)  # the next millisecond gives the next shard
        self.extra_guilds[gid] = name
        return gid, self.add_channel("games", guild_id=gid)

    def guild_ids(self) -> list[int]:
        """Every guild the bot is in, the first one first."""
        return [self.guild_id, *self.extra_guilds]

    def guild_of(self, channel_id: int) -> int:
        """The guild a channel (or thread) belongs to."""
        channel = self.channels.get(channel_id)
        return int(channel["guild_id"]) if channel is not None else self.guild_id

    async def add_thread(self, kind: int, owner: int, *, members: list[int] | None = None) -> int:
        """A thread of the test channel made by ``owner`` (``kind`` 11 public, 12 private),
        announced to the bot as Discord does; ``members`` (a private thread's) are kept for
        the thread-member route only, as Discord does not send them with the thread."""
        tid = self.snowflake()
        thread: dict[str, Any] = {
            "id": str(tid),
            "type": kind,
            "guild_id": str(self.guild_id),
            "parent_id": str(self.channel_id),
            "name": "a game",
            "owner_id": str(owner),
            "message_count": 0,
            "member_count": len(members or ()),
            "rate_limit_per_user": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": "2026-01-01T00:00:00+00:00",
                "locked": False,
                "invitable": False,
            },
        }
        self.channels[tid] = {**thread, "members": members} if members is not None else thread
        await self.dispatch("THREAD_CREATE", thread)
        return tid

    def add_channel(self, name: str, *, guild_id: int | None = None) -> int:
        cid = self.snowflake()
        self.channels[cid] = {
            "id": str(cid),
            "type": 0,
            "guild_id": str(guild_id or self.guild_id),
            "name": name,
            "position": len(self.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }
        return cid

    def _member_payload(self, uid: int, *, with_user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.member_roles.get(uid, [])],
            "joined_at": _iso(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "premium_since": None,
            "communication_disabled_until": None,
            "permissions": str(self.member_permissions.get(uid, MEMBER_PERMISSIONS)),
        }
        if with_user:
            data["user"] = self.users[uid]
        return data

    def guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        gid = guild_id or self.guild_id
        mine = [c for c in self.channels.values() if int(c["guild_id"]) == gid]
        return {
            "id": str(gid),
            "name": self.extra_guilds.get(gid, self.guild_name),
            "icon": None,
            "owner_id": str(self.app_id),  # no test user owns the server (an owner may do anything)
            "roles": [
                {
                    "id": str(gid),
                    "name": "@everyone",
                    "permissions": str(MEMBER_PERMISSIONS),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                },
                {
                    "id": str(self.moderator_role_id),
                    "name": "Moderators",
                    "permissions": str(ALL_PERMISSIONS),
                    "position": 1,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                },
            ],
            "channels": [c for c in mine if c["type"] == 0],
            "threads": [c for c in mine if c["type"] == 11],
            "members": [self._member_payload(self.app_id)],
            "member_count": len(self.member_permissions) + 1,
            "large": False,
            "unavailable": False,
            "features": [],
            "emojis": [],
            "stickers": [],
            "voice_states": [],
            "presences": [],
            "joined_at": _iso(),
            "preferred_locale": "en-US",
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_flags": 0,
        }

    # -- server lifecycle -----------------------------------------------------------------------

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application(middlewares=[self._record], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def close(self) -> None:
        for conn in list(self.connections):
            if not conn.ws.closed:
                await conn.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def drop_connections(self) -> None:
        """Close every gateway socket, as when the bot process dies."""
        for conn in list(self.connections):
            if not conn.ws.closed:
                await conn.ws.close()
        self.connections.clear()

    # -- waiting -----------------------------------------------------------------------------

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0, what: str = "condition") -> Any:
        """Wait until ``predicate()`` is truthy (re-checked after every change); return its value."""

        async def waiter() -> Any:
            async with self._changed:
                while True:
                    value = predicate()
                    if value:
                        return value
                    await self._changed.wait()

        try:
            return await asyncio.wait_for(waiter(), timeout)
        except TimeoutError:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}") from None

    async def wait_connected(self, count: int = 1, timeout: float = 20.0) -> None:
        await self.wait_for(
            lambda: sum(1 for c in self.connections if c.identified.is_set() and not c.ws.closed) >= count,
            timeout,
            "the bot to identify on the gateway",
        )

    # -- gateway -------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        conn = GatewayConnection(ws)
        await conn.send(10, {"heartbeat_interval": 41250})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                self.gateway_frames.append(frame)
                op = frame.get("op")
                if op == 1:
                    await conn.send(11, None)
                elif op == 2:
                    shard = frame["d"].get("shard") or [0, 1]
                    conn.shard = (int(shard[0]), int(shard[1]))
                    await self._identify(conn)
                elif op == 6:
                    await conn.send(9, False)  # invalid session: identify afresh
        finally:
            if conn in self.connections:
                self.connections.remove(conn)
        return ws

    async def _identify(self, conn: GatewayConnection) -> None:
        shard_id, count = conn.shard
        mine = [g for g in self.guild_ids() if (g >> 22) % count == shard_id]
        ready: dict[str, Any] = {
            "v": 10,
            "user": self.bot_user,
            "guilds": [{"id": str(g), "unavailable": True} for g in mine],
            "session_id": f"session-{self.snowflake()}",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.app_id), "flags": 0},
            "shard": [shard_id, count],
            "private_channels": [],
            "relationships": [],
        }
        await conn.send(0, ready, "READY")
        for gid in mine:
            await conn.send(0, self.guild_payload(gid), "GUILD_CREATE")
        self.connections.append(conn)
        conn.identified.set()
        await self._notify()

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway event to the connection that owns the event's guild (its shard)."""
        guild = int(data.get("guild_id") or self.guild_id)
        live = [c for c in self.connections if not c.ws.closed and c.identified.is_set()]
        for conn in reversed(live):
            shard_id, count = conn.shard
            if (guild >> 22) % count == shard_id:
                await conn.send(0, data, event)
                return
        raise AssertionError(f"no gateway connection to send {event} to")

    # -- interactions (what a user does) -------------------------------------------------------

    def _find_command(self, name: str) -> dict[str, Any]:
        for scope in (self.guild_id, None):
            for cmd in self.commands.get(scope, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd
        raise AssertionError(f"command {name!r} was not synced; synced: {self.command_names()}")

    def command_names(self) -> list[str]:
        names = []
        for cmds in self.commands.values():
            for cmd in cmds:
                subs = [o["name"] for o in cmd.get("options", []) if o["type"] == SUB_COMMAND]
                names.extend(f"{cmd['name']} {s}" for s in subs) if subs else names.append(cmd["name"])
        return sorted(names)

    def _build_options(
        self, schema: list[dict[str, Any]], values: dict[str, Any], focused: str | None
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Turn ``values`` into option payloads the way Discord's client would, validating them."""
        by_name = {o["name"]: o for o in schema}
        out: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        for name, value in values.items():
            if name not in by_name:
                raise AssertionError(f"unknown option {name!r}; options are {list(by_name)}")
            spec = by_name[name]
            kind = spec["type"]
            if kind == USER:
                uid = int(value)
                resolved.setdefault("users", {})[str(uid)] = self.users[uid]
                if uid not in self.outsiders:  # Discord resolves a user, and a member only for one
                    resolved.setdefault("members", {})[str(uid)] = self._member_payload(uid, with_user=False)
                value = str(uid)
            elif kind == INTEGER:
                value = value if name == focused else int(value)
            elif kind == BOOLEAN:
                value = bool(value)
            elif kind == STRING:
                value = str(value)
                if len(value) > OPTION_LIMIT:
                    raise AssertionError(
                        f"Discord would refuse {name}: {len(value)} characters, at most {OPTION_LIMIT}"
                    )
            if spec.get("choices") and name != focused:
                allowed = [c["value"] for c in spec["choices"]]
                if value not in allowed:
                    raise AssertionError(f"Discord would refuse {name}={value!r}: choices are {allowed}")
            option = {"name": name, "type": kind, "value": value}
            if name == focused:
                option["focused"] = True
            out.append(option)
        if focused is None:
            for spec in schema:
                if spec.get("required") and spec["name"] not in values:
                    raise AssertionError(f"Discord would refuse: option {spec['name']!r} is required")
        return out, resolved

    def _interaction_payload(
        self, itype: int, user_id: int, channel_id: int, data: dict[str, Any], locale: str
    ) -> tuple[int, str, dict[str, Any]]:
        iid = self.snowflake()
        token = f"interaction-token-{iid}"
        channel = self.channels[channel_id]
        payload = {
            "id": str(iid),
            "application_id": str(self.app_id),
            "type": itype,
            "token": token,
            "version": 1,
            "data": data,
            "guild_id": str(self.guild_of(channel_id)),
            "channel_id": str(channel_id),
            "channel": channel,
            "member": self._member_payload(user_id),
            "locale": locale,
            "guild_locale": "en-US",
            "app_permissions": str(self.bot_permissions.get(channel_id, ALL_PERMISSIONS)),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_of(channel_id))},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        return iid, token, payload

    async def _send_interaction(
        self, itype: int, user_id: int, channel_id: int, data: dict[str, Any], locale: str, **extra: Any
    ) -> Interaction:
        iid, token, payload = self._interaction_payload(itype, user_id, channel_id, data, locale)
        payload.update(extra)
        inter = Interaction(iid, token, itype, user_id, channel_id, payload)
        self.interactions[iid] = inter
        inter.sent_at = self.clock()
        await self.dispatch("INTERACTION_CREATE", payload)
        return inter

    async def slash(
        self,
        user_id: int,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        channel_id: int | None = None,
        locale: str = "en-US",
        wait: bool = True,
        timeout: float = 15.0,
    ) -> Interaction:
        """Run a slash command as ``user_id`` and (by default) wait for its final answer.

        ``command`` is ``"move"`` or ``"seega challenge"``. A deferred answer is awaited
        until the bot edits its original response.
        """
        inter = await self._start_command(user_id, command, options or {}, None, channel_id, locale)
        if wait:
            await self.wait_answer(inter, timeout)
        return inter

    async def autocomplete(
        self,
        user_id: int,
        command: str,
        options: dict[str, Any],
        focused: str,
        *,
        channel_id: int | None = None,
        locale: str = "en-US",
    ) -> list[dict[str, Any]]:
        """The choices the bot offers while ``focused`` is typed."""
        inter = await self._start_command(user_id, command, options, focused, channel_id, locale)
        await self.wait_for(lambda: inter.callbacks, 10.0, f"autocomplete answer to /{command}")
        return inter.choices

    async def _start_command(
        self,
        user_id: int,
        command: str,
        options: dict[str, Any],
        focused: str | None,
        channel_id: int | None,
        locale: str,
    ) -> Interaction:
        parts = command.split()
        cmd = self._find_command(parts[0])
        schema = cmd.get("options", [])
        if len(parts) > 1:
            sub = next((o for o in schema if o["name"] == parts[1] and o["type"] == SUB_COMMAND), None)
            if sub is None:
                raise AssertionError(f"no subcommand {command!r}")
            opts, resolved = self._build_options(sub.get("options", []), options, focused)
            top_opts = [{"name": parts[1], "type": SUB_COMMAND, "options": opts}]
        else:
            top_opts, resolved = self._build_options(schema, options, focused)
        data: dict[str, Any] = {"id": cmd.get("id"), "name": parts[0], "type": 1, "options": top_opts}
        if resolved:
            data["resolved"] = resolved
        return await self._send_interaction(4 if focused else 2, user_id, channel_id or self.channel_id, data, locale)

    async def click(
        self,
        user_id: int,
        message: Message,
        button: str,
        *,
        wait: bool = True,
        locale: str = "en-US",
        timeout: float = 15.0,
        followup: bool = False,
    ) -> Interaction:
        """Press a button (by label or custom_id prefix) of ``message`` as ``user_id``.

        With ``followup``, also wait for the first followup message (a button that updates
        its own message and then posts a new one).
        """
        spec = message.button(button)
        if spec.get("disabled"):
            raise AssertionError(f"button {spec.get('label')!r} is disabled: Discord would not send a click")
        data = {"custom_id": spec["custom_id"], "component_type": 2}
        inter = await self._send_interaction(
            3, user_id, message.channel_id, data, locale, message=self.message_payload(message)
        )
        if wait:
            await self.wait_answer(inter, timeout)
        if followup:
            await self.wait_for(lambda: inter.followups, timeout, f"a followup to the {button} button")
        return inter

    async def click_custom_id(
        self, user_id: int, message: Message, custom_id: str, *, followup: bool = False
    ) -> Interaction:
        """Send a click even for a button that is disabled (an old client, a race).

        The button must be among the message's components: discord.py, like Discord,
        only knows clicks on components of the message.
        """
        data = {"custom_id": custom_id, "component_type": 2}
        inter = await self._send_interaction(
            3, user_id, message.channel_id, data, "en-US", message=self.message_payload(message)
        )
        await self.wait_answer(inter)
        if followup:
            await self.wait_for(lambda: inter.followups, 15.0, f"a followup to {custom_id}")
        return inter

    async def wait_answer(self, inter: Interaction, timeout: float = 15.0) -> Interaction:
        """Wait for the callback; if it is a defer, wait for the edited original or a followup."""
        await self.wait_for(lambda: inter.callbacks, timeout, f"a callback to interaction {inter.payload['data']}")
        if inter.callback_type == 5:
            await self.wait_for(
                lambda: inter.original_edited or inter.followups, timeout, "the deferred answer to be sent"
            )
        return inter

    # -- REST ----------------------------------------------------------------------------------

    @web.middleware
    async def _record(self, request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
        body = await request.read()
        self.requests.append(
            RecordedRequest(request.method, request.path, request.query_string, dict(request.headers), body)
        )
        if self.request_hook is not None:
            await self.request_hook(request)
        return await handler(request)

    @staticmethod
    def _json(data: Any, status: int = 200) -> web.Response:
        # discord.py parses JSON only when the content type is exactly application/json.
        if status == 204:
            return web.Response(status=204)
        return web.Response(status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"})

    def _error(self, status: int, code: int, message: str) -> web.Response:
        return self._json({"code": code, "message": message}, status)

    async def _payload(self, request: web.Request) -> tuple[dict[str, Any], list[Attachment]]:
        """A JSON or multipart body: the JSON part and the uploaded files."""
        body = await request.read()  # cached by aiohttp: the recording middleware read it first
        ctype = request.headers.get("Content-Type", "")
        if not ctype.startswith("multipart/"):
            data = json.loads(body) if body else {}
            self._check_content(data)
            return data, []
        boundary = re.search(r'boundary="?([^";]+)"?', ctype)
        assert boundary is not None, ctype
        data: dict[str, Any] = {}
        files: list[Attachment] = []
        for chunk in body.split(b"--" + boundary.group(1).encode())[1:]:
            if chunk.startswith(b"--"):
                break
            head, _, content = chunk.lstrip(b"\r\n").partition(b"\r\n\r\n")
            content = content[:-2] if content.endswith(b"\r\n") else content
            disposition = head.decode("utf-8", "replace")
            name = re.search(r'name="([^"]*)"', disposition)
            filename = re.search(r'filename="([^"]*)"', disposition)
            if name is None:
                continue
            if name.group(1) == "payload_json":
                data = json.loads(content)
            elif name.group(1).startswith("files["):
                index = int(name.group(1)[6:-1])
                files.append(Attachment(filename.group(1) if filename else name.group(1), content, index))
        self._check_content(data)
        return data, files

    @staticmethod
    def _check_content(data: Any) -> None:
        """Refuse a message or an embed longer than Discord allows, as Discord does (400, Invalid Form Body)."""
        if not isinstance(data, dict):
            return
        for body in (data, data.get("data")):
            content = body.get("content") if isinstance(body, dict) else None
            if isinstance(content, str) and len(content) > CONTENT_LIMIT:
                error = {"code": 50035, "message": "Invalid Form Body", "errors": {"content": {}}}
                raise web.HTTPBadRequest(text=json.dumps(error), content_type="application/json")
            embeds = body.get("embeds") if isinstance(body, dict) else None
            for embed in embeds or []:
                if len(embed.get("description") or "") > 4096 or len(embed.get("title") or "") > 256:
                    error = {"code": 50035, "message": "Invalid Form Body", "errors": {"embeds": {}}}
                    raise web.HTTPBadRequest(text=json.dumps(error), content_type="application/json")

    def _authorized(self, request: web.Request) -> bool:
        return request.headers.get("Authorization") == f"Bot {self.token}"

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        webhook = path.startswith(("/webhooks/", "/interactions/"))
        if not webhook and not self._authorized(request):
            return self._error(401, 0, "401: Unauthorized")
        for pattern, meth, handler in self._routes():
            m = re.fullmatch(pattern, path)
            if m and meth == method:
                response: web.StreamResponse = await handler(request, *m.groups())
                await self._notify()
                return response
        self.unknown_routes.append(f"{method} {path}")
        return self._error(404, 0, f"404: Not Found ({method} {path})")

    def _routes(self) -> Iterable[tuple[str, str, Callable[..., Any]]]:
        return [
            (r"/users/@me", "GET", self._get_me),
            (r"/oauth2/applications/@me", "GET", self._get_application),
            (r"/applications/@me", "GET", self._get_application),
            (r"/gateway", "GET", self._get_gateway),
            (r"/gateway/bot", "GET", self._get_gateway_bot),
            (r"/applications/(\d+)/commands", "PUT", self._put_commands),
            (r"/applications/(\d+)/commands", "GET", self._get_commands),
            (r"/applications/(\d+)/guilds/(\d+)/commands", "PUT", self._put_commands),
            (r"/applications/(\d+)/guilds/(\d+)/commands", "GET", self._get_commands),
            (r"/interactions/(\d+)/([^/]+)/callback", "POST", self._callback),
            (r"/webhooks/(\d+)/([^/]+)", "POST", self._followup),
            (r"/webhooks/(\d+)/([^/]+)/messages/([^/]+)", "PATCH", self._edit_webhook_message),
            (r"/webhooks/(\d+)/([^/]+)/messages/([^/]+)", "GET", self._get_webhook_message),
            (r"/webhooks/(\d+)/([^/]+)/messages/([^/]+)", "DELETE", self._delete_webhook_message),
            (r"/channels/(\d+)", "GET", self._get_channel),
            (r"/channels/(\d+)", "PATCH", self._edit_channel),
            (r"/channels/(\d+)", "DELETE", self._delete_channel),
            (r"/channels/(\d+)/messages", "POST", self._post_message),
            (r"/channels/(\d+)/messages/(\d+)", "PATCH", self._edit_message),
            (r"/channels/(\d+)/messages/(\d+)", "GET", self._get_message),
            (r"/channels/(\d+)/messages/(\d+)", "DELETE", self._delete_message),
            (r"/channels/(\d+)/messages/(\d+)/threads", "POST", self._thread_from_message),
            (r"/channels/(\d+)/threads", "POST", self._thread),
            (r"/channels/(\d+)/typing", "POST", self._typing),
            (r"/channels/(\d+)/thread-members/(\d+)", "GET", self._get_thread_member),
            (r"/guilds/(\d+)/members/(\d+)", "GET", self._get_member),
            (r"/guilds/(\d+)/audit-logs", "GET", self._get_audit_log),
            (r"/users/(\d+)", "GET", self._get_user),
        ]

    async def _get_me(self, request: web.Request) -> web.Response:
        return self._json(self.bot_user)

    async def _get_application(self, request: web.Request) -> web.Response:
        return self._json(
            {
                "id": str(self.app_id),
                "name": "Seega",
                "icon": None,
                "description": "Seega for Discord",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self._user_payload(self.snowflake(), "owner"),
                "summary": "",
                "verify_key": "0" * 64,
                "team": None,
                "flags": 0,
                "bot": self.bot_user,
            }
        )

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return self._json({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return self._json(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
            }
        )

    async def _put_commands(self, request: web.Request, app_id: str, guild_id: str | None = None) -> web.Response:
        data, _ = await self._payload(request)
        out = []
        for cmd in data:
            cmd = dict(cmd)
            cmd["id"] = str(self.snowflake())
            cmd["application_id"] = app_id
            cmd["version"] = "1"
            if guild_id:
                cmd["guild_id"] = guild_id
            out.append(cmd)
        self.commands[int(guild_id) if guild_id else None] = out
        return self._json(out)

    async def _get_commands(self, request: web.Request, app_id: str, guild_id: str | None = None) -> web.Response:
        return self._json(self.commands.get(int(guild_id) if guild_id else None, []))

    def message_payload(self, msg: Message) -> dict[str, Any]:
        author = self.bot_user
        return {
            "id": str(msg.id),
            "channel_id": str(msg.channel_id),
            "guild_id": str(self.guild_of(msg.channel_id)),
            "author": author,
            "content": msg.content,
            "timestamp": _iso(),
            "edited_timestamp": _iso() if msg.edits else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(a.id or self.snowflake()),
                    "filename": a.filename,
                    "size": len(a.data),
                    "url": f"http://127.0.0.1:{self.port}/attachments/{msg.id}/{a.filename}",
                    "proxy_url": f"http://127.0.0.1:{self.port}/attachments/{msg.id}/{a.filename}",
                }
                for a in msg.attachments
            ],
            "embeds": msg.embeds,
            "pinned": False,
            "type": 0,
            "flags": msg.flags,
            "components": msg.components,
            "webhook_id": str(msg.webhook_id) if msg.webhook_id else None,
            "application_id": str(self.app_id),
        }

    def _new_message(self, channel_id: int, data: dict[str, Any], files: list[Attachment], **extra: Any) -> Message:
        msg = Message(
            id=self.snowflake(),
            channel_id=channel_id,
            author_id=self.app_id,
            content=data.get("content") or "",
            embeds=data.get("embeds") or [],
            components=data.get("components") or [],
            attachments=[Attachment(f.filename, f.data, self.snowflake()) for f in files],
            flags=int(data.get("flags") or 0),
            allowed_mentions=data.get("allowed_mentions"),
            **extra,
        )
        msg.pinged = msg._compute_pings()
        self.messages[msg.id] = msg
        return msg

    @staticmethod
    def _apply_edit(msg: Message, data: dict[str, Any], files: list[Attachment], fresh_id: Callable[[], int]) -> None:
        msg.history.append(msg.text)
        if "content" in data:
            msg.content = data["content"] or ""
        if "embeds" in data:
            msg.embeds = data["embeds"] or []
        if "components" in data:
            msg.components = data["components"] or []
        # Discord notifies people only when a message is created: an edit pings nobody,
        # so the creation-time allowed_mentions stay what decides who was pinged.
        if "attachments" in data:
            keep = {str(a.get("id")) for a in data["attachments"] or []}
            msg.attachments = [a for a in msg.attachments if str(a.id) in keep]
        msg.attachments.extend(Attachment(f.filename, f.data, fresh_id()) for f in files)
        msg.edits += 1

    def _interaction_by_token(self, token: str) -> Interaction | None:
        inter = next((i for i in self.interactions.values() if i.token == token), None)
        if inter is not None and self.webhook_ttl is not None and self.clock() - inter.sent_at > self.webhook_ttl:
            return None  # the token expired: Discord answers Unknown Webhook
        return inter

    async def _callback(self, request: web.Request, iid: str, token: str) -> web.Response:
        inter = self.interactions.get(int(iid))
        if inter is None or inter.token != token:
            return self._error(404, 10062, "Unknown interaction")
        data, files = await self._payload(request)
        if inter.callbacks:
            return self._error(400, 40060, "Interaction has already been acknowledged.")
        inter.callback_at = time.perf_counter()
        inter.callbacks.append(data)
        inter.callback_files = files
        ctype = data["type"]
        body = data.get("data") or {}
        result: dict[str, Any] = {"interaction": {"id": iid, "type": inter.type}}
        if ctype == 4:
            inter.original = self._new_message(inter.channel_id, body, files, interaction_id=inter.id)
            result["resource"] = {"type": 4, "message": self.message_payload(inter.original)}
            result["interaction"]["response_message_id"] = str(inter.original.id)
            result["interaction"]["response_message_ephemeral"] = inter.original.ephemeral
        elif ctype == 5:
            inter.deferred = True
            inter.original = self._new_message(
                inter.channel_id, {"content": "", "flags": body.get("flags", 0)}, [], interaction_id=inter.id
            )
            result["interaction"]["response_message_loading"] = True
            result["interaction"]["response_message_ephemeral"] = inter.original.ephemeral
            result["resource"] = {"type": 5, "message": self.message_payload(inter.original)}
        elif ctype == 7:
            target = self.messages[int(inter.payload["message"]["id"])]
            self._apply_edit(target, body, files, self.snowflake)
            inter.original = target
            result["resource"] = {"type": 7, "message": self.message_payload(target)}
        elif ctype == 6:
            inter.deferred = True
        return self._json(result)

    async def _followup(self, request: web.Request, app_id: str, token: str) -> web.Response:
        inter = self._interaction_by_token(token)
        if inter is None:
            return self._error(404, 10015, "Unknown Webhook")
        if not inter.callbacks:
            return self._error(404, 10015, "Unknown Webhook (no callback yet)")
        data, files = await self._payload(request)
        msg = self._new_message(inter.channel_id, data, files, interaction_id=inter.id, webhook_id=int(app_id))
        inter.followups.append(msg)
        return self._json(self.message_payload(msg))

    def _webhook_target(self, token: str, message_id: str) -> tuple[Interaction | None, Message | None]:
        inter = self._interaction_by_token(token)
        if inter is None:
            return None, None
        if message_id == "@original":
            return inter, inter.original
        return inter, self.messages.get(int(message_id))

    async def _edit_webhook_message(self, request: web.Request, app_id: str, token: str, mid: str) -> web.Response:
        inter, msg = self._webhook_target(token, mid)
        if inter is None or msg is None:
            return self._error(404, 10008, "Unknown Message")
        data, files = await self._payload(request)
        self._apply_edit(msg, data, files, self.snowflake)
        if mid == "@original":
            inter.original_edited = True
        return self._json(self.message_payload(msg))

    async def _get_webhook_message(self, request: web.Request, app_id: str, token: str, mid: str) -> web.Response:
        _, msg = self._webhook_target(token, mid)
        if msg is None:
            return self._error(404, 10008, "Unknown Message")
        return self._json(self.message_payload(msg))

    async def _delete_webhook_message(self, request: web.Request, app_id: str, token: str, mid: str) -> web.Response:
        _, msg = self._webhook_target(token, mid)
        if msg is None:
            return self._error(404, 10008, "Unknown Message")
        msg.deleted = True
        return self._json(None, 204)

    async def _edit_channel(self, request: web.Request, cid: str) -> web.Response:
        """A channel's (a thread's) new name."""
        channel = self.channels.get(int(cid))
        if channel is None:
            return self._error(404, 10003, "Unknown Channel")
        data, _ = await self._payload(request)
        if "name" in data:
            channel["name"] = data["name"]
        for key in ("archived", "locked"):
            if key in data and "thread_metadata" in channel:
                channel["thread_metadata"][key] = data[key]
        await self.dispatch("THREAD_UPDATE" if channel["type"] == 11 else "CHANNEL_UPDATE", channel)
        return self._json(channel)

    async def _delete_channel(self, request: web.Request, cid: str) -> web.Response:
        """A channel (a thread) deleted by the bot."""
        channel = await self.delete_channel(int(cid), by=self.app_id)
        if channel is None:
            return self._error(404, 10003, "Unknown Channel")
        return self._json(channel)

    async def delete_channel(
        self, channel_id: int, *, tell: bool = True, by: int | None = None
    ) -> dict[str, Any] | None:
        """A channel or thread deleted (by the bot, or a moderator in their client), with
        its messages; ``tell``: Discord sends ``CHANNEL_DELETE`` / ``THREAD_DELETE``
        (false: the bot was not connected to hear it). Deleting a channel deletes its
        threads too, which Discord announces with the channel's event only. ``by``: who
        deleted it, written to the server's audit log first, as Discord does (one entry,
        for the channel only: its threads get none); ``None`` writes nothing."""
        channel = self.channels.pop(channel_id, None)
        if channel is None:
            return None
        if by is not None:
            self.audit_log.append(
                {
                    "id": str(self.snowflake()),
                    "guild_id": channel["guild_id"],
                    "user_id": str(by),
                    "target_id": str(channel_id),
                    "action_type": THREAD_DELETE if channel["type"] in (11, 12) else CHANNEL_DELETE,
                    "changes": [{"key": "name", "old_value": channel.get("name")}],
                }
            )
        threads = [c for c, v in self.channels.items() if v.get("parent_id") == str(channel_id)]
        for thread in threads:
            self.channels.pop(thread)
        gone = {channel_id, *threads}
        for message in self.messages.values():
            if message.channel_id in gone:
                message.deleted = True
        if tell:
            await self.dispatch("THREAD_DELETE" if channel["type"] in (11, 12) else "CHANNEL_DELETE", channel)
        return channel

    async def _get_thread_member(self, request: web.Request, cid: str, uid: str) -> web.Response:
        """One member of a thread: those listed in its ``"members"`` (a test's), else none."""
        channel = self.channels.get(int(cid))
        if channel is None:
            return self._error(404, 10003, "Unknown Channel")
        if int(uid) not in channel.get("members", []):
            return self._error(404, 10007, "Unknown Member")
        return self._json({"id": cid, "user_id": uid, "join_timestamp": _iso(), "flags": 0})

    async def _get_channel(self, request: web.Request, cid: str) -> web.Response:
        channel = self.channels.get(int(cid))
        if channel is None:
            return self._error(404, 10003, "Unknown Channel")
        return self._json(channel)

    async def _post_message(self, request: web.Request, cid: str) -> web.Response:
        if int(cid) not in self.channels:
            return self._error(404, 10003, "Unknown Channel")
        data, files = await self._payload(request)
        msg = self._new_message(int(cid), data, files)
        return self._json(self.message_payload(msg))

    async def _edit_message(self, request: web.Request, cid: str, mid: str) -> web.Response:
        msg = self.messages.get(int(mid))
        if msg is None or msg.deleted:
            return self._error(404, 10008, "Unknown Message")
        data, files = await self._payload(request)
        self._apply_edit(msg, data, files, self.snowflake)
        return self._json(self.message_payload(msg))

    async def _get_message(self, request: web.Request, cid: str, mid: str) -> web.Response:
        msg = self.messages.get(int(mid))
        if msg is None or msg.deleted:
            return self._error(404, 10008, "Unknown Message")
        return self._json(self.message_payload(msg))

    async def _delete_message(self, request: web.Request, cid: str, mid: str) -> web.Response:
        msg = self.messages.get(int(mid))
        if msg is None:
            return self._error(404, 10008, "Unknown Message")
        msg.deleted = True
        return self._json(None, 204)

    def _new_thread(self, parent: int, name: str, message_id: int | None) -> dict[str, Any]:
        tid = message_id or self.snowflake()
        thread = {
            "id": str(tid),
            "type": 11,
            "guild_id": str(self.guild_of(parent)),
            "parent_id": str(parent),
            "name": name,
            "owner_id": str(self.app_id),
            "message_count": 0,
            "member_count": 1,
            "rate_limit_per_user": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": _iso(),
                "locked": False,
            },
        }
        self.channels[tid] = thread
        return thread

    async def _thread_from_message(self, request: web.Request, cid: str, mid: str) -> web.Response:
        data, _ = await self._payload(request)
        if int(mid) in self.channels:  # a thread made from a message takes its id: one per message
            return self._error(400, 160004, "A thread has already been created for this message")
        thread = self._new_thread(int(cid), data.get("name", "thread"), int(mid))
        await self.dispatch("THREAD_CREATE", {**thread, "newly_created": True})
        return self._json(thread, 201)

    async def _thread(self, request: web.Request, cid: str) -> web.Response:
        data, _ = await self._payload(request)
        thread = self._new_thread(int(cid), data.get("name", "thread"), None)
        await self.dispatch("THREAD_CREATE", {**thread, "newly_created": True})
        return self._json(thread, 201)

    async def _typing(self, request: web.Request, cid: str) -> web.Response:
        return self._json(None, 204)

    async def _get_member(self, request: web.Request, gid: str, uid: str) -> web.Response:
        if int(uid) not in self.users or int(uid) in self.outsiders:
            return self._error(404, 10007, "Unknown Member")
        return self._json(self._member_payload(int(uid)))

    async def _get_audit_log(self, request: web.Request, gid: str) -> web.Response:
        """The server's audit log, newest first, filtered as Discord filters it
        (``action_type``, ``user_id``, ``before``; ``limit`` 1 to 100, default 50)."""
        if not self.view_audit_log:
            return self._error(403, 50013, "Missing Permissions")
        query = request.query
        limit = int(query.get("limit", 50))
        if not 1 <= limit <= 100:
            return self._error(400, 50035, "Invalid Form Body")
        entries = [e for e in reversed(self.audit_log) if e["guild_id"] == gid]
        if "action_type" in query:
            entries = [e for e in entries if e["action_type"] == int(query["action_type"])]
        if "user_id" in query:
            entries = [e for e in entries if e["user_id"] == query["user_id"]]
        if "before" in query:
            entries = [e for e in entries if int(e["id"]) < int(query["before"])]
        entries = entries[:limit]
        users = [self.users[int(e["user_id"])] for e in entries if int(e["user_id"]) in self.users]
        return self._json(
            {
                "audit_log_entries": entries,
                "users": list({u["id"]: u for u in users}.values()),
                "integrations": [],
                "webhooks": [],
                "threads": [],
                "guild_scheduled_events": [],
                "auto_moderation_rules": [],
                "application_commands": [],
            }
        )

    async def _get_user(self, request: web.Request, uid: str) -> web.Response:
        if int(uid) not in self.users:
            return self._error(404, 10013, "Unknown User")
        return self._json(self.users[int(uid)])

    # -- views for tests -----------------------------------------------------------------------

    def channel_messages(self, channel_id: int | None = None, *, public_only: bool = True) -> list[Message]:
        """Messages visible in a channel, oldest first (ephemeral ones left out by default)."""
        cid = channel_id or self.channel_id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == cid
            and not m.deleted
            and not (public_only and m.ephemeral)
            and (m.content or m.embeds or m.attachments)
        ]

    def last_message(self, channel_id: int | None = None) -> Message:
        msgs = self.channel_messages(channel_id)
        assert msgs, "no message in the channel"
        return msgs[-1]

    def token_leaks(self) -> list[str]:
        """Every place the token was sent other than an Authorization header or the IDENTIFY frame."""
        leaks = []
        needle = self.token.encode()
        for req in self.requests:
            where = f"{req.method} {req.path}"
            if self.token in req.path or self.token in req.query:
                leaks.append(f"{where}: URL")
            if needle in req.body:
                leaks.append(f"{where}: body")
            for name, value in req.headers.items():
                if self.token in value and name.lower() != "authorization":
                    leaks.append(f"{where}: header {name}")
        for frame in self.gateway_frames:
            text = json.dumps(frame)
            if self.token in text and not (frame.get("op") == 2 and frame["d"].get("token") == self.token):
                leaks.append(f"gateway op {frame.get('op')}")
        return leaks
