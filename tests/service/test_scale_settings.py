"""The settings of a deployment of many processes: SEEGA_DB picks the backend, shard ranges."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.dbcheck import check_postgres
from bot.settings import Settings, SettingsError, redact_url
from bot.storage import Shards, is_postgres_url, sqlite_path

TOKEN = "MTIz.NDU2.Nzg5"


def load(**values: str) -> Settings:
    return Settings.from_mapping({"DISCORD_TOKEN": TOKEN, **values})


def test_seega_db_picks_the_backend() -> None:
    default = load()
    assert default.db_url is None and default.database == "seega.db"
    assert load(SEEGA_DB="games/seega.db").database == str(Path("games/seega.db"))
    assert load(SEEGA_DB="sqlite:///games.db").database == "games.db"
    assert load(SEEGA_DB="sqlite:////var/lib/seega.db").database == "/var/lib/seega.db"
    pg = load(SEEGA_DB="postgresql://seega:s3cret@db:5432/seega")
    assert pg.database == "postgresql://seega:s3cret@db:5432/seega" and is_postgres_url(pg.database)
    assert "s3cret" not in repr(pg) and "seega:***@db" in repr(pg)  # settings end up in logs
    assert load(SEEGA_DB="postgres://db/seega").db_url == "postgres://db/seega"
    for bad in ("mysql://db/seega", "sqlite://games.db", "postgresql://"):
        with pytest.raises(SettingsError, match="SEEGA_DB"):
            load(SEEGA_DB=bad)
    assert sqlite_path("sqlite:///x.db") == "x.db" and sqlite_path("x.db") == "x.db"


def test_shard_ids() -> None:
    assert load().shard_ids is None
    assert load(SEEGA_SHARDS="8", SEEGA_SHARD_IDS="0-3").shard_ids == (0, 1, 2, 3)
    assert load(SEEGA_SHARDS="8", SEEGA_SHARD_IDS=" 4,5 , 7").shard_ids == (4, 5, 7)
    assert load(SEEGA_SHARDS="8", SEEGA_SHARD_IDS="0-1,6").shard_ids == (0, 1, 6)
    for shards, ids, words in (
        ("8", "8", "within 0-7"),
        ("8", "3-1", "within 0-7"),
        ("8", "a-b", "like 0-3"),
        ("8", "1-", "like 0-3"),
        ("8", "-1", "like 0-3"),
        ("auto", "0", "total number of shards"),
        ("", "0", "total number of shards"),
    ):
        with pytest.raises(SettingsError, match=words):
            load(SEEGA_SHARDS=shards, SEEGA_SHARD_IDS=ids)


def test_shards_filter_matches_discord_routing() -> None:
    shards = Shards(4, [1, 3, 3])
    assert shards.ids == (1, 3) and shards.sql() == "((guild_id >> 22) % 4) IN (1, 3)"
    assert [shards.owns(s << 22) for s in range(4)] == [False, True, False, True]


def test_start_with_an_unreachable_postgresql(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """One clear line, the password hidden, exit 2; and no stray SQLite file is made."""
    from bot.app import main
    from tests.postgres import free_port

    monkeypatch.chdir(tmp_path)
    for name in ("SEEGA_SHARDS", "SEEGA_SHARD_IDS", "DISCORD_GUILD_ID"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("SEEGA_DB", f"postgresql://seega:hunter2@127.0.0.1:{free_port()}/seega")
    assert main(["run", "--env-file", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert "cannot be used" in err and "seega:***@127.0.0.1" in err and "hunter2" not in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://seega@127.0.0.1:1/seega?password=s3cret",  # libpq's form, which asyncpg reads
        "postgresql://seega@127.0.0.1:1/seega?sslmode=disable&password=s3cret&application_name=bot",
        "postgresql://seega@127.0.0.1:1/seega?sslpassword=s3cret",
        "postgresql://seega:s3c@ret@127.0.0.1:1/seega",  # an '@' left in the password
    ],
)
def test_a_database_password_is_hidden_wherever_the_url_is_written(url: str) -> None:
    """The password hider knew only ``user:password@``: a password passed as libpq's
    ``?password=`` (asyncpg connects with it) reached the settings' repr, the start-up
    check's one line and every printed copy of ``SEEGA_DB`` as typed; a password with an
    '@' in it left its end shown."""
    settings = load(SEEGA_DB=url)
    assert "s3c" not in redact_url(url) and "ret@" not in redact_url(url)
    assert "s3c" not in repr(settings)
    problem = check_postgres(url)  # nobody listens on port 1: the one-line problem
    assert problem is not None and "SEEGA_DB=" in problem and "s3c" not in problem


SECRET = "S3cretPW"


@pytest.mark.parametrize(
    ("values", "setting"),
    [
        ({"SEEGA_SHARDS": "2", "SEEGA_SHARD_IDS": "²"}, "SEEGA_SHARD_IDS"),  # str.isdigit() takes it, int() not
        ({"SEEGA_SHARDS": "4", "SEEGA_SHARD_IDS": "0-³"}, "SEEGA_SHARD_IDS"),
        ({"DISCORD_GUILD_ID": "¹²³⁴⁵⁶⁷⁸⁹¹²³⁴⁵⁶⁷"}, "DISCORD_GUILD_ID"),
        ({"SEEGA_DB": f"postgresql://seega:{SECRET}@127.0.0.1:notaport/seega"}, "SEEGA_DB"),
        ({"SEEGA_DB": f"postgresql://seega:{SECRET}@127.0.0.1:99999/seega"}, "SEEGA_DB"),
        ({"SEEGA_DB": f"postgresql://seega:{SECRET}@[::1/seega"}, "SEEGA_DB"),
        ({"SEEGA_DB": f"postgresql://seega:{SECRET}@h1:5432,h2:x/seega"}, "SEEGA_DB"),
    ],
)
def test_hostile_settings_are_refused_by_name(values: dict[str, str], setting: str) -> None:
    """Outside review atk41a (F9): these ended in a traceback (``int('²')``, asyncpg's
    ``ValueError`` on the port or the bracket) instead of the one-line error naming the
    setting and what it accepts; the password is never in it."""
    with pytest.raises(SettingsError) as caught:
        load(**values)
    assert str(caught.value).startswith(setting) and SECRET not in str(caught.value)


def test_valid_postgresql_hosts_are_still_accepted() -> None:
    for url in (
        "postgresql://seega:pw@[::1]:5432/seega",
        "postgresql://seega:pw@h1:5432,h2:5433/seega",
        "postgresql://seega:p@ss/w[rd@db:5432/seega",  # unencoded @, / and [ in the password
        "postgresql:///seega?host=/var/run/postgresql",
    ):
        assert load(SEEGA_DB=url).db_url == url


@pytest.mark.parametrize(
    ("command", "values"),
    [
        (["run"], {"SEEGA_DB": f"postgresql://seega:{SECRET}@127.0.0.1:notaport/seega"}),
        (["worker"], {"SEEGA_DB": f"postgresql://seega:{SECRET}@127.0.0.1:notaport/seega"}),
        (["worker"], {"SEEGA_DB": f"postgresql://seega:{SECRET}@[::1/seega"}),
        (["run"], {"SEEGA_SHARDS": "2", "SEEGA_SHARD_IDS": "²"}),
        (["run"], {"SEEGA_DB": f"postgresql://seega:{SECRET}@127.0.0.1:1/seega?sslmode=bogus"}),
        (["worker"], {"SEEGA_DB": f"postgresql://seega:{SECRET}@127.0.0.1:1/seega?sslmode=bogus"}),
        (["migrate-db", "--to", f"postgresql://seega:{SECRET}@127.0.0.1:notaport/seega"], {}),
    ],
)
def test_hostile_settings_end_in_one_line_not_a_traceback(
    tmp_path: Path, command: list[str], values: dict[str, str]
) -> None:
    """The same values through ``seega-bot`` itself (and ``worker``, ``migrate-db``): exit
    status 2, one line on stderr, no traceback, no password."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "PYTHONPATH": str(root), "DISCORD_TOKEN": TOKEN}
    env.update({"SEEGA_DB": str(tmp_path / "seega.db"), **values})
    done = subprocess.run(
        [sys.executable, "-m", "bot", *command, "--env-file", str(tmp_path / "none")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and SECRET not in done.stderr + done.stdout
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
