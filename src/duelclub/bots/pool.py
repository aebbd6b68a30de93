"""A pool of bot worker processes (issue 12 item 1): ``duelclub serve``'s local pool and ``duelclub bots``.

:class:`WorkerPool` starts ``count`` processes ``python -m duelclub.bots.worker --parent-pid <this pid>`` with
this process's environment (so the same ``DATABASE_URL``), and a supervisor thread restarts any that exits
(after ``RESTART_DELAY`` seconds, so a worker that cannot start does not spin). The children die with their
parent even when it is SIGKILLed (PR_SET_PDEATHSIG, set against the supervisor thread that spawns them and
lives as long as the pool), so no orphan keeps thinking. :meth:`WorkerPool.stop` terminates them
(SIGTERM, then SIGKILL after ``timeout``).
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from duelclub.bots.metrics import MULTIPROC_ENV

log = logging.getLogger(__name__)
RESTART_DELAY = 1.0
"""Seconds between a worker's exit and its restart."""
SUPERVISE_SECONDS = 0.2
"""How often the supervisor looks at its children."""


class WorkerPool:
    """``count`` bot worker processes, restarted when they die; ``start()`` / ``stop()``.

    ``name_prefix`` names the workers ``<prefix>-<i>`` (the ``worker`` column of a leased job);
    ``env`` overrides the environment they inherit; ``metrics_dir`` (emptied at start) is where they write
    their think-time histograms (bots/metrics.py: ``PROMETHEUS_MULTIPROC_DIR``).
    """

    def __init__(
        self,
        count: int,
        *,
        name_prefix: str | None = None,
        env: dict[str, str] | None = None,
        metrics_dir: Path | None = None,
    ):
        self.count = count
        self.name_prefix = name_prefix or f"bots-{os.uname().nodename}-{os.getpid()}"
        self.env = {**os.environ, **(env or {})}
        self.metrics_dir = metrics_dir
        if metrics_dir is not None:
            shutil.rmtree(metrics_dir, ignore_errors=True)
            metrics_dir.mkdir(parents=True, exist_ok=True)
            self.env[MULTIPROC_ENV] = str(metrics_dir)
        self._procs: list[subprocess.Popen[bytes] | None] = [None] * count
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def pids(self) -> list[int]:
        """The running children's pids."""
        return [p.pid for p in self._procs if p is not None and p.poll() is None]

    def start(self) -> WorkerPool:
        """Start the supervisor thread, which spawns the workers; returns self."""
        if self.count > 0 and self._thread is None:
            self._thread = threading.Thread(target=self._supervise, name="bot-pool", daemon=True)
            self._thread.start()
        return self

    def _spawn(self, i: int) -> subprocess.Popen[bytes]:
        cmd = [sys.executable, "-m", "duelclub.bots.worker", "--name", f"{self.name_prefix}-{i}"]
        return subprocess.Popen([*cmd, "--parent-pid", str(os.getpid())], env=self.env)

    def _supervise(self) -> None:
        # The children are spawned by this thread: PR_SET_PDEATHSIG fires when it ends, i.e. with the process
        # or after stop() has reaped them.
        died_at: dict[int, float] = {}
        while not self._stop.is_set():
            for i, proc in enumerate(self._procs):
                if proc is not None and proc.poll() is None:
                    continue
                if proc is not None and i not in died_at:
                    log.warning("bot worker %d (pid %d) exited with %s", i, proc.pid, proc.returncode)
                    died_at[i] = time.monotonic()
                if i in died_at and time.monotonic() - died_at[i] < RESTART_DELAY:
                    continue
                try:
                    self._procs[i] = self._spawn(i)
                except OSError:
                    log.exception("cannot start bot worker %d", i)
                    died_at[i] = time.monotonic()
                    continue
                died_at.pop(i, None)
            self._stop.wait(SUPERVISE_SECONDS)
        self._terminate()

    def _terminate(self, timeout: float = 5.0) -> None:
        procs = [p for p in self._procs if p is not None]
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
        deadline = time.monotonic() + timeout
        for proc in procs:
            try:
                proc.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def stop(self, timeout: float = 10.0) -> None:
        """Terminate the workers and the supervisor (idempotent)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def wait(self) -> None:
        """Block until :meth:`stop` is called (from a signal handler or another thread)."""
        while not self._stop.wait(1.0):
            pass
