"""A throw-away PostgreSQL server for tests and benchmarks.

The server is the Debian package's (``postgresql``; ``.ci/run`` installs it): its
binaries live under ``/usr/lib/postgresql/<version>/bin``. :class:`TempPostgres` runs
``initdb`` in a temporary directory and starts ``postgres`` on a free loopback port with
its socket in that directory, so it touches nothing of the machine's own cluster and
several can run at once. ``initdb`` refuses to run as root, so when we are root the
server runs as the ``postgres`` user (``runuser``). Durability is switched off
(``fsync``, ``synchronous_commit``, ``full_page_writes``): the data dies with the test.

A missing server is an error, never a skip: the PostgreSQL tests must run everywhere.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

USER = "seega"


class PostgresMissingError(RuntimeError):
    """No PostgreSQL server binaries on this machine."""


def find_bin_dir() -> Path:
    """The directory of ``initdb``/``pg_ctl``: ``$SEEGA_PG_BIN``, else the newest Debian one."""
    override = os.environ.get("SEEGA_PG_BIN")
    if override:
        return Path(override)
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parent.parent.name.split(".")[0])
    )
    if candidates:
        return Path(candidates[-1]).parent
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    raise PostgresMissingError(
        "PostgreSQL server binaries not found: install the Debian package `postgresql`"
        " (apt-get install -y postgresql; .ci/run does it) or set SEEGA_PG_BIN"
    )


def free_port() -> int:
    """A TCP port free on the loopback interface right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class TempPostgres:
    """One PostgreSQL server in a temporary directory; ``start()`` ... ``stop()``."""

    def __init__(self, max_connections: int = 300) -> None:
        self.bin = find_bin_dir()
        self.max_connections = max_connections
        self.root = Path(tempfile.mkdtemp(prefix="seega-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self._as_postgres = os.geteuid() == 0
        self._databases = 0
        #: Databases made since the last :meth:`drop_created` (each is a 7 MB copy of template0).
        self.created: list[str] = []
        self._watchdog: subprocess.Popen[bytes] | None = None

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self._as_postgres:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=120)

    def start(self) -> TempPostgres:
        """``initdb`` and start the server; returns self once it accepts connections."""
        if self._as_postgres:
            shutil.chown(self.root, "postgres", "postgres")
        done = self._run("initdb", "-D", str(self.data), "-U", USER, "-A", "trust", "--no-sync", "-E", "UTF8")
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed: {done.stderr.strip() or done.stdout.strip()}")
        done = self._pg_ctl("start")
        if done.returncode != 0:
            log = (self.root / "server.log").read_text(errors="replace") if (self.root / "server.log").exists() else ""
            raise RuntimeError(f"PostgreSQL did not start: {done.stderr.strip()} {log[-2000:]}")
        self._start_watchdog()
        self._wait_port()
        return self

    def _pg_ctl(self, action: str) -> subprocess.CompletedProcess[str]:
        options = (
            f"-p {self.port} -h 127.0.0.1 -k {self.root} -c fsync=off -c synchronous_commit=off"
            f" -c full_page_writes=off -c max_connections={self.max_connections} -c shared_buffers=64MB"
        )
        log = str(self.root / "server.log")  # the server's output goes there, never into our pipes
        return self._run("pg_ctl", "-D", str(self.data), "-l", log, "-o", options, "-m", "fast", "-w", action)

    def _start_watchdog(self) -> None:
        """A shell that stops the server if this process dies without stopping it (SIGKILL,
        a CI timeout): a test server must never outlive its tests."""
        stop = [str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"]
        if self._as_postgres:
            stop = ["runuser", "-u", "postgres", "--", *stop]
        script = (
            f"while kill -0 {os.getpid()} 2>/dev/null; do sleep 1; done; "
            f"{shlex.join(stop)} >/dev/null 2>&1; rm -rf {shlex.quote(str(self.root))}"
        )
        self._watchdog = subprocess.Popen(
            ["sh", "-c", script], start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    def restart(self) -> None:
        """Restart the server (fast shutdown: open connections are ended), as an outage would."""
        done = self._pg_ctl("restart")
        if done.returncode != 0:
            raise RuntimeError(f"PostgreSQL did not restart: {done.stderr.strip()}")
        self._wait_port()

    def _wait_port(self) -> None:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return
            if time.monotonic() > deadline:
                raise RuntimeError("PostgreSQL did not open its port")
            time.sleep(0.05)

    def url(self, database: str = "postgres") -> str:
        """The connection URL of ``database`` on this server."""
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, prefix: str = "t") -> str:
        """A new empty database; returns its URL."""
        self._databases += 1
        name = f"{prefix}{self._databases}"
        done = self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, "-T", "template0", name)
        if done.returncode != 0:
            raise RuntimeError(f"createdb failed: {done.stderr.strip()}")
        self.created.append(name)
        return self.url(name)

    def drop_created(self) -> None:
        """Drop the databases made so far (connections still open to them are ended)."""
        names, self.created = self.created, []
        for name in names:
            done = self._run("dropdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, "--force", name)
            if done.returncode != 0:
                raise RuntimeError(f"dropdb {name} failed: {done.stderr.strip()}")

    def stop(self) -> None:
        """Stop the server and delete its directory."""
        if self._watchdog is not None:
            self._watchdog.kill()
            self._watchdog.wait()
            self._watchdog = None
        if self.data.exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> TempPostgres:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
