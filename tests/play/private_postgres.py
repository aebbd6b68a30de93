"""A PostgreSQL cluster of a test's own (issue 31 §2): ``initdb`` into a fresh directory and ``pg_ctl`` on a
spare port, so a test may stop the database under a running app and start it again — never the shared server
on 5432. Importable by name (tests/play is on sys.path, see tests/conftest.py).

PostgreSQL refuses to run as root: under root the commands run as the ``postgres`` system user
(``runuser``), in a directory that user owns. The cluster trusts local TCP connections (``postgres`` user, no
password), listens on 127.0.0.1 only, opens no Unix socket and skips fsync (a throw-away test database).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg

from duelclub.store.migrate import upgrade

DATABASE = "duelclub"


def _tool(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    return str(candidates[-1]) if candidates else None


def unavailable() -> str | None:
    """Why no private cluster can be made here (no initdb/pg_ctl, or root without a ``postgres`` user)."""
    if _tool("initdb") is None or _tool("pg_ctl") is None:
        return "initdb/pg_ctl not installed"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no postgres user to run the cluster"
    return None


class PrivatePostgres:
    """One throw-away cluster on 127.0.0.1:``port``: :meth:`create` (initdb, start, the ``duelclub``
    database migrated to head), :meth:`stop` / :meth:`start` at will, :meth:`destroy` at the end."""

    def __init__(self, port: int, *, synchronous_commit: bool = False) -> None:
        self.port = port
        self.synchronous_commit = synchronous_commit
        """Whether a commit waits for its WAL to be written: needed where a ``-m immediate`` restart must not
        lose a commit already answered (benchmarks/chaos.py --pg-restart); off for quick tests. ``fsync`` is
        off either way: a killed server leaves its writes in the operating system's cache."""
        self.root = Path(tempfile.mkdtemp(prefix="duelclub-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "postgres.log"
        self._user = "postgres" if os.geteuid() == 0 else None
        if self._user is not None:
            entry = pwd.getpwnam(self._user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)

    @property
    def url(self) -> str:
        """The SQLAlchemy URL of the ``duelclub`` database."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{DATABASE}"

    def dsn(self, database: str = DATABASE) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, tool: str, *args: str) -> None:
        path = _tool(tool)
        assert path is not None, f"{tool} not installed"
        command = [path, *args]
        if self._user is not None:
            command = ["runuser", "-u", self._user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)
        if done.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"{tool} {args[:2]} failed: {done.stdout}{done.stderr}\n{log[-2000:]}")

    def create(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        self.start()
        with psycopg.connect(self.dsn("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {DATABASE}")
        upgrade(self.url)

    def _options(self) -> str:
        return (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off"
            f" -c synchronous_commit={'on' if self.synchronous_commit else 'off'} -c full_page_writes=off"
        )

    def start(self) -> None:
        """Start the cluster and wait until it accepts connections."""
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-o",
            self._options(),
            "-w",
            "-t",
            "60",
            "start",
        )
        self._wait()

    def restart(self, mode: str) -> None:
        """``pg_ctl restart -m mode`` (``fast``: sessions ended, a clean shutdown; ``immediate``: no
        shutdown, crash recovery on start) and wait until it accepts connections again."""
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", self._options(), "-m", mode, "-w",
            "-t", "60", "restart",
        )  # fmt: skip
        self._wait()

    def _wait(self) -> None:
        deadline = time.monotonic() + 30
        while True:
            try:
                psycopg.connect(self.dsn("postgres"), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        """Stop the cluster now (``-m fast``: open connections are ended, as in a real outage)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")

    def destroy(self) -> None:
        if (self.data / "postmaster.pid").exists():
            with contextlib.suppress(RuntimeError):  # already stopped
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)
