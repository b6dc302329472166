"""Settings of the bot, read once at start from the environment and a ``.env`` file.

Every setting the bot reads (listed in ``.env.example``) lives here, validated up front
so that a typo in a deployment fails at start with a message that names the setting and what it accepts, rather than as
a traceback an hour later. The token is kept out of ``repr`` and out of every message
this module produces: settings objects end up in logs and tracebacks.
"""

from __future__ import annotations

import logging
import os
import re
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path

from dotenv import dotenv_values

log = logging.getLogger(__name__)

DEFAULT_API_BASE = "https://discord.com/api/v10"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

#: Every setting this module reads, with its meaning; ``.env.example`` mirrors it.
SETTING_NAMES = (
    "DISCORD_TOKEN",
    "SEEGA_DB",
    "DISCORD_GUILD_ID",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
    "SEEGA_AI_WORKERS",
    "SEEGA_SHARDS",
    "SEEGA_SHARD_IDS",
    "LOG_LEVEL",
    "SEEGA_AI_PER_GUILD",
)


class SettingsError(ValueError):
    """A setting has a value the bot cannot use; the message names it and what is allowed."""


@dataclass(frozen=True)
class Settings:
    """The validated settings of one bot process.

    Attributes:
        token: the bot token, or ``None`` to run the offline console table. Never printed.
        db_path: the SQLite database file (when ``SEEGA_DB`` is not a PostgreSQL URL).
        db_url: the PostgreSQL URL of ``SEEGA_DB`` (``postgresql://user@host:port/db``), or
            ``None`` for SQLite. Never logged with its password.
        guild_id: a guild to sync slash commands to at start (development), or ``None``.
        api_base: base URL of Discord's REST API (a REST proxy, or a loopback fake in tests).
        gateway_url: the gateway URL, or ``None`` for Discord's own.
        ai_workers: processes in the AI pool.
        shards: ``None`` for one connection, ``"auto"`` for Discord's recommendation, or a count.
        shard_ids: the shards this process runs (``SEEGA_SHARD_IDS``), or ``None`` for all;
            needs a shard count. Several processes, each with its own ids, share one PostgreSQL.
        log_level: the root logging level name.
        ai_per_guild: how many AI turns one guild may have thinking at once.
    """

    token: str | None = field(default=None, repr=False)
    db_path: Path = Path("seega.db")
    db_url: str | None = field(default=None, repr=False)
    guild_id: int | None = None
    api_base: str = DEFAULT_API_BASE
    gateway_url: str | None = None
    ai_workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    shards: int | str | None = None
    shard_ids: tuple[int, ...] | None = None
    log_level: str = "INFO"
    ai_per_guild: int = 2

    def __repr__(self) -> str:
        # dataclass repr=False on the field already hides it; say whether it is set, which
        # is what someone reading a log needs to know.
        shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr)
        url = f", db_url={redact_url(self.db_url)!r}" if self.db_url else ""
        return f"Settings(token={'<set>' if self.token else None}, {shown}{url})"

    @property
    def database(self) -> str:
        """What to hand to ``Storage.open``: the PostgreSQL URL, else the SQLite path."""
        return self.db_url or str(self.db_path)

    @property
    def has_token(self) -> bool:
        """Whether a token is configured, so the bot connects to Discord (else the console table)."""
        return bool(self.token)

    @classmethod
    def load(
        cls, env_file: str | os.PathLike[str] | None = ".env", environ: Mapping[str, str] | None = None
    ) -> Settings:
        """Read settings from ``environ`` (default ``os.environ``) over the ``.env`` file.

        The environment wins over the file, as with every twelve-factor tool, so a
        container can override one value without editing the file.

        Raises:
            SettingsError: a value is malformed; the message says which and what is allowed.
        """
        values: dict[str, str] = {}
        if env_file is not None and Path(env_file).is_file():
            values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
        values.update(os.environ if environ is None else environ)
        return cls.from_mapping(values)

    @classmethod
    def from_mapping(cls, values: Mapping[str, str]) -> Settings:
        """Validate a mapping of setting names to raw strings (empty strings count as unset)."""

        def get(name: str) -> str | None:
            raw = values.get(name)
            if raw is None:
                return None
            raw = raw.strip()
            return raw or None

        token = get("DISCORD_TOKEN")
        if token is not None:
            token = _check_token(token)

        db_path, db_url = database_setting(get("SEEGA_DB"))

        guild_id = _snowflake("DISCORD_GUILD_ID", get("DISCORD_GUILD_ID"))
        api_base = _url("DISCORD_API_BASE", get("DISCORD_API_BASE") or DEFAULT_API_BASE, ("http://", "https://"))
        gateway_raw = get("DISCORD_GATEWAY_URL")
        gateway_url = _url("DISCORD_GATEWAY_URL", gateway_raw, ("ws://", "wss://")) if gateway_raw else None

        workers_raw = get("SEEGA_AI_WORKERS")
        ai_workers = (
            _whole("SEEGA_AI_WORKERS", workers_raw, minimum=0, maximum=256) if workers_raw else (os.cpu_count() or 1)
        )
        per_guild_raw = get("SEEGA_AI_PER_GUILD")
        ai_per_guild = _whole("SEEGA_AI_PER_GUILD", per_guild_raw, minimum=1, maximum=1000) if per_guild_raw else 2

        shards_raw = get("SEEGA_SHARDS")
        shards: int | str | None
        if shards_raw is None:
            shards = None
        elif shards_raw.lower() == "auto":
            shards = "auto"
        else:
            shards = _whole("SEEGA_SHARDS", shards_raw, minimum=1, maximum=100_000, hint="or 'auto'")
        shard_ids = _shard_ids(get("SEEGA_SHARD_IDS"), shards)

        level = (get("LOG_LEVEL") or "INFO").upper()
        if level not in LOG_LEVELS:
            raise SettingsError(f"LOG_LEVEL={level!r} is not a logging level; use one of {', '.join(LOG_LEVELS)}")

        return cls(
            token=token,
            db_path=db_path,
            db_url=db_url,
            guild_id=guild_id,
            api_base=api_base,
            gateway_url=gateway_url,
            ai_workers=ai_workers,
            shards=shards,
            shard_ids=shard_ids,
            log_level=level,
            ai_per_guild=ai_per_guild,
        )


def database_setting(raw: str | None) -> tuple[Path, str | None]:
    """``SEEGA_DB`` -> (SQLite path, PostgreSQL URL or ``None``).

    A ``postgresql://`` (or ``postgres://``) URL selects PostgreSQL; a path or a
    ``sqlite:///path`` URL selects SQLite (the default ``seega.db``).
    """
    if raw and raw.startswith(("postgresql://", "postgres://")):
        if len(raw.split("//", 1)[1]) < 2:
            raise SettingsError("SEEGA_DB is a PostgreSQL URL without a host: postgresql://user@host:port/db")
        check_postgres_hosts("SEEGA_DB", raw)
        return Path("seega.db"), raw
    if raw and raw.startswith("sqlite://"):
        if not raw.startswith("sqlite:///"):
            raise SettingsError(f"SEEGA_DB={raw!r}: write sqlite:///relative.db or sqlite:////absolute/path.db")
        raw = raw[len("sqlite:///") :]
    elif raw and "://" in raw:
        raise SettingsError(f"SEEGA_DB={redact_url(raw)!r}: use a file path, sqlite:///path or postgresql://...")
    db_path = Path(raw).expanduser() if raw else Path("seega.db")
    if db_path.exists() and db_path.is_dir():
        raise SettingsError(f"SEEGA_DB={str(db_path)!r} is a directory; give the path of a database file")
    return db_path, None


def check_postgres_hosts(name: str, url: str) -> None:
    """Refuse a PostgreSQL URL whose host or port cannot be read (a port that is not a
    number from 0 to 65535, an IPv6 address without its closing bracket), naming the
    setting and never showing the password. asyncpg raised a bare ``ValueError`` for them
    deep in the start-up: a 60-line traceback (outside review atk41a). Several hosts
    (``h1:5432,h2:5433``) are checked one by one, as asyncpg and libpq accept them.
    """
    rest = url.split("://", 1)[1]
    hosts = rest.rpartition("@")[2] if "@" in rest else rest  # after the last @: a password may hold one
    hosts = hosts.split("/", 1)[0].split("?", 1)[0]
    for host in hosts.split(","):
        try:
            _ = urllib.parse.urlsplit("//" + host).port  # raises ValueError if unreadable
        except ValueError:
            raise SettingsError(
                f"{name}={redact_url(url)!r}: the host or port {host[:80]!r} cannot be read; write"
                " postgresql://user:password@host:5432/db (a port from 0 to 65535, an IPv6 host in"
                " brackets: [::1]:5432)"
            ) from None


def redact_url(url: str) -> str:
    """A database URL without its password, for logs and messages.

    Both places a password can be written are hidden: ``user:password@`` (up to the
    last ``@``, so an ``@`` or ``/`` left unencoded in the password shows none of it;
    hiding too much of a malformed URL is harmless) and libpq's query parameters
    ``password=`` and ``sslpassword=``, which asyncpg reads too.
    """
    url = re.sub(r"//([^:@/]*):.*@", r"//\1:***@", url)
    return re.sub(r"([?&](?:ssl)?password=)[^&]*", r"\1***", url, flags=re.IGNORECASE)


def _shard_ids(raw: str | None, shards: int | str | None) -> tuple[int, ...] | None:
    """``SEEGA_SHARD_IDS`` like ``0-3`` or ``4,5`` (or ``0-1,6``) -> sorted ids below the count."""
    if raw is None:
        return None
    if not isinstance(shards, int):
        raise SettingsError("SEEGA_SHARD_IDS needs SEEGA_SHARDS set to the total number of shards (a number)")
    ids: set[int] = set()
    for part in raw.replace(" ", "").split(","):
        lo, _, hi = part.partition("-")
        if not _ascii_digits(lo) or (hi and not _ascii_digits(hi)) or (_ and not hi):
            raise SettingsError(f"SEEGA_SHARD_IDS={raw!r}: write shard ids like 0-3 or 4,5")
        first, last = int(lo), int(hi or lo)
        if first > last or last >= shards:
            raise SettingsError(f"SEEGA_SHARD_IDS={raw!r}: ids must be ranges within 0-{shards - 1} (SEEGA_SHARDS)")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


def _check_token(token: str) -> str:
    """Reject obvious mistakes without ever echoing the token back."""
    if token.lower().startswith("bot "):
        token = token[4:].strip()
    if any(ch.isspace() for ch in token):
        raise SettingsError(
            "DISCORD_TOKEN contains spaces; paste the token alone (from the Bot page of your application)"
        )
    if token.count(".") != 2:
        raise SettingsError(
            "DISCORD_TOKEN does not look like a bot token (three parts separated by dots); "
            "copy it again from the Bot page of your application in the Developer Portal"
        )
    return token


def _ascii_digits(text: str) -> bool:
    """Whether ``text`` is 0-9 digits only: ``str.isdigit`` also takes ``²`` and other
    digits ``int`` refuses, and the setting then ended in a traceback (outside review atk41a)."""
    return text.isascii() and text.isdigit()


def _snowflake(name: str, raw: str | None) -> int | None:
    if raw is None:
        return None
    if not _ascii_digits(raw) or not 15 <= len(raw) <= 21:
        raise SettingsError(
            f"{name}={raw!r} is not a Discord id; enable Developer Mode, right-click the server and Copy Server ID"
        )
    return int(raw)


def _url(name: str, raw: str | None, schemes: tuple[str, ...]) -> str:
    assert raw is not None
    if not raw.startswith(schemes) or len(raw) <= len(raw.split("//", 1)[0]) + 2:
        raise SettingsError(f"{name}={raw!r} is not a URL starting with {' or '.join(schemes)}")
    return raw.rstrip("/")


def _whole(name: str, raw: str | None, *, minimum: int, maximum: int, hint: str = "") -> int:
    assert raw is not None
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or not minimum <= value <= maximum:
        extra = f" {hint}" if hint else ""
        raise SettingsError(f"{name}={raw!r} must be a whole number from {minimum} to {maximum}{extra}")
    return value
