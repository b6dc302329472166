"""The launcher and the settings: clear messages, the console fallback, the token kept secret."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.app import main, setup_logging
from bot.dbcheck import database_problem
from bot.settings import Settings, SettingsError
from bot.transformers import normalize_cell, split_move
from tests.discord.harness import ROOT, TOKEN

GOOD = {"DISCORD_TOKEN": TOKEN, "SEEGA_DB": "games.db"}


def test_settings_defaults_and_values(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(f"DISCORD_TOKEN={TOKEN}\nSEEGA_AI_WORKERS=3\nLOG_LEVEL=debug\n")
    settings = Settings.load(env_file, environ={"SEEGA_AI_WORKERS": "2", "SEEGA_SHARDS": "auto"})
    assert settings.token == TOKEN and settings.ai_workers == 2, "the environment wins over .env"
    assert settings.log_level == "DEBUG" and settings.shards == "auto"
    assert settings.api_base == "https://discord.com/api/v10" and settings.gateway_url is None
    assert settings.db_path == Path("seega.db") and settings.guild_id is None
    assert TOKEN not in repr(settings) and "token=<set>" in repr(settings)
    bare = Settings.from_mapping({})
    assert not bare.has_token and bare.ai_workers >= 1 and bare.shards is None
    assert Settings.from_mapping({"SEEGA_SHARDS": "4", "DISCORD_TOKEN": f"Bot {TOKEN}"}).token == TOKEN


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("DISCORD_GUILD_ID", "my-server", "Copy Server ID"),
        ("SEEGA_AI_WORKERS", "many", "whole number"),
        ("SEEGA_SHARDS", "0", "'auto'"),
        ("LOG_LEVEL", "LOUD", "INFO"),
        ("DISCORD_API_BASE", "discord.com/api", "http"),
        ("DISCORD_GATEWAY_URL", "https://gateway.discord.gg", "wss://"),
        ("DISCORD_TOKEN", "not a token", "spaces"),
        ("DISCORD_TOKEN", "abc", "three parts"),
    ],
)
def test_bad_settings_name_the_setting(name: str, value: str, expected: str) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_mapping({**GOOD, name: value})
    assert name in str(caught.value) and expected in str(caught.value)
    if name == "DISCORD_TOKEN":
        assert value not in str(caught.value), "a mistyped token is not echoed back either"


def test_main_reports_a_bad_setting(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SEEGA_AI_WORKERS", "-1")
    assert main(["--env-file", os.devnull]) == 2
    assert "SEEGA_AI_WORKERS" in capsys.readouterr().err


def test_the_token_is_redacted_from_tracebacks_and_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    """Not only the message: an exception's text, its chained cause and the arguments."""
    root = logging.getLogger()
    saved_handlers, saved_level = root.handlers[:], root.level
    try:
        setup_logging(Settings.from_mapping(GOOD))
        log = logging.getLogger("bot.redaction-test")
        try:
            try:
                raise KeyError({"Authorization": f"Bot {TOKEN}"})
            except KeyError as cause:
                raise RuntimeError(f"login refused for {TOKEN}") from cause
        except RuntimeError:
            log.exception("could not log in")
        log.error("headers: %s", {"Authorization": f"Bot {TOKEN}"})
        log.warning("where %s was read", TOKEN, stack_info=True)
        err = capsys.readouterr().err
    finally:
        root.handlers[:] = saved_handlers
        root.setLevel(saved_level)
    assert "could not log in" in err and "RuntimeError: login refused for [token]" in err
    assert "KeyError" in err and "headers:" in err and "where [token] was read" in err
    assert TOKEN not in err


def test_cells_as_people_type_them() -> None:
    assert normalize_cell(" B2 ") == "b2"
    # a letter and a number off the board go on to the service, which names the board's range
    assert normalize_cell(" Z9 ") == "z9" and normalize_cell("j1") == "j1"
    for bad in ("b", "22", "bb", "", "b2 c2", "b123", "2b"):
        with pytest.raises(ValueError):
            normalize_cell(bad)
    assert split_move("b2 c2") == ("b2", "c2") == split_move(" B2-C2 ") == split_move("b2c2")
    # the arrow of the bot's own messages ("moved c2→c3"), copied back (Discord play-test)
    assert split_move("c3→b3") == ("c3", "b3") == split_move("C3 → B3") == split_move("c3–b3")
    assert split_move("b2") is None and split_move("b2 x9") is None


def test_without_a_token_the_console_table_opens(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SEEGA_"))}
    env.update({"SEEGA_DB": str(tmp_path / "console.db"), "SEEGA_AI_WORKERS": "1", "PYTHONPATH": str(ROOT)})
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--env-file", os.devnull],
        input="quit\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "No DISCORD_TOKEN set" in done.stderr
    assert "console" in done.stdout.lower() or "table" in done.stdout.lower()
    assert (tmp_path / "console.db").exists()


def test_a_stale_compiled_engine_is_a_warning_at_start(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """After an upgrade without a rebuild Python runs the old compiled engine: say so
    where an operator looks (the log), not only at INFO, which the console hides."""
    import engine.compiled
    from bot.app import engine_build

    with caplog.at_level(logging.WARNING, logger="bot"):
        assert engine_build() in ("compiled", "pure Python")
    assert not caplog.records
    stale = "compiled, but older than its sources: rebuild (python -m bench.compile) or remove it (--clean)"
    monkeypatch.setattr(engine.compiled, "build_name", lambda: stale)
    with caplog.at_level(logging.WARNING, logger="bot"):
        assert engine_build() == stale
    assert [r.levelno for r in caplog.records] == [logging.WARNING] and "bench.compile" in caplog.text


async def _create_database(path: Path) -> None:
    from bot.storage import Storage

    store = await Storage.open(path)
    await store.close()


def _unusable_databases(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """SEEGA_DB values that cannot work, with a word the one-line answer must contain."""
    text = tmp_path / "notes.db"
    text.write_text("my notes, not a database\n" * 40)
    noise = tmp_path / "noise.db"
    noise.write_bytes(bytes(range(256)) * 20)
    good = tmp_path / "good.db"
    asyncio.run(_create_database(good))
    truncated = tmp_path / "truncated.db"
    truncated.write_bytes(good.read_bytes()[:3000])
    return {
        "text": (text, "not a Seega database"),
        "noise": (noise, "not a Seega database"),
        "truncated": (truncated, "damaged"),
        "no folder": (tmp_path / "missing" / "seega.db", "create its folder"),
    }


@pytest.mark.parametrize("case", ["text", "noise", "truncated", "no folder"])
@pytest.mark.parametrize("with_token", [False, True])
def test_a_database_that_cannot_be_opened_is_one_line_naming_seega_db(
    tmp_path: Path, case: str, with_token: bool
) -> None:
    db, expected = _unusable_databases(tmp_path)[case]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SEEGA_"))}
    env.update({"SEEGA_DB": str(db), "SEEGA_AI_WORKERS": "1", "PYTHONPATH": str(ROOT)})
    if with_token:  # the Discord bot checks before it connects (nothing listens there)
        env.update({"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"})
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--env-file", os.devnull],
        input="quit\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"SEEGA_DB={db}" in lines[0] and expected in lines[0]
    assert TOKEN not in done.stderr


def test_a_read_only_database_is_named_with_what_to_do(tmp_path: Path) -> None:
    """The real error SQLite gives for a file it may not write (root ignores chmod, so a URI)."""
    path = tmp_path / "ro.db"
    sqlite3.connect(path).close()
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    with pytest.raises(sqlite3.OperationalError) as caught:
        conn.execute("CREATE TABLE t (x)")
    conn.close()
    line = database_problem(path, caught.value)
    assert f"SEEGA_DB={path}" in line and "cannot be written" in line and "write the file and its folder" in line


async def test_sync_publishes_global_commands_once(tmp_path: Path) -> None:
    from bot.app import sync_commands
    from tests.discord.fake_discord import FakeDiscord
    from tests.discord.harness import make_settings

    fake = FakeDiscord(TOKEN)
    await fake.start()
    try:
        settings = make_settings(fake, tmp_path / "sync.db", guild_id=None)
        assert await sync_commands(settings) == 0
        names = {c["name"] for c in fake.commands[None]}
        assert names == {"seega", "place", "move", "remove"}
        assert fake.guild_id not in fake.commands, "a global sync writes nothing per guild"
        assert not (tmp_path / "sync.db").exists(), "syncing needs no database"
        assert fake.token_leaks() == []
    finally:
        await fake.close()


def test_the_console_module_checks_its_database_too(tmp_path: Path) -> None:
    """``python -m bot.console DB`` is a second way in; it gets the same one line."""
    db, expected = _unusable_databases(tmp_path)["truncated"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SEEGA_"))}
    env.update({"SEEGA_AI_WORKERS": "1", "PYTHONPATH": str(ROOT)})
    done = subprocess.run(
        [sys.executable, "-m", "bot.console", str(db)],
        input="quit\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert f"SEEGA_DB={db}" in lines[0] and expected in lines[0]
