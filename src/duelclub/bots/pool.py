"""A pool of bot worker processes (issue 12 item 1): ``duelclub serve``'s local pool and ``duelclub bots``.

:class:`WorkerPool` starts ``count`` processes ``python -m duelclub.bots.worker --parent-pid <this pid>`` with
this process's environment (so the same ``DATABASE_URL``), and a supervisor thread restarts any that exits
(after ``RESTART_DELAY`` seconds, so a worker that cannot start does not spin). The children die with their
parent even when it is SIGKILLed (PR_SET_PDEATHSIG, set against the supervisor thread that spawns them and
lives as long as the pool), so no orphan keeps thinking. :meth:`WorkerPool.stop` terminates them
(SIGTERM, then SIGKILL after ``timeout``).

The supervisor sleeps until something happens — a child exits (its pidfd becomes readable), a restart is
due, or :meth:`WorkerPool.stop` writes to a wake-up pipe — rather than looking every 0.2 s: five wake-ups a
second of an idle web process (issue 29 §4: an idle server's own background work). Where pidfds are
missing (not Linux, or a kernel before 5.3) it looks every :data:`SUPERVISE_SECONDS`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
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
"""How often the supervisor looks at its children where it cannot wait for their exit (no pidfds)."""


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
        self._pidfds: dict[int, tuple[subprocess.Popen[bytes], int]] = {}
        """pid → (child, its pidfd: readable once it has exited), until the child is reaped."""
        self._wake: tuple[int, int] | None = None
        """The supervisor's wake-up pipe (read end, write end), open from :meth:`start` to :meth:`stop`."""

    @property
    def pids(self) -> list[int]:
        """The running children's pids."""
        return [p.pid for p in self._procs if p is not None and p.poll() is None]

    def start(self) -> WorkerPool:
        """Start the supervisor thread, which spawns the workers; returns self."""
        if self.count > 0 and self._thread is None:
            self._wake = os.pipe()
            self._thread = threading.Thread(target=self._supervise, name="bot-pool", daemon=True)
            self._thread.start()
        return self

    def command(self, i: int) -> list[str]:
        """The command line of worker ``i``."""
        cmd = [sys.executable, "-m", "duelclub.bots.worker", "--name", f"{self.name_prefix}-{i}"]
        return [*cmd, "--parent-pid", str(os.getpid())]

    def _spawn(self, i: int) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(self.command(i), env=self.env)
        pidfd_open = getattr(os, "pidfd_open", None)
        if pidfd_open is not None:
            if proc.pid in self._pidfds:  # the pid of a child reaped a moment ago, reused
                os.close(self._pidfds.pop(proc.pid)[1])
            with contextlib.suppress(OSError):  # a kernel before 5.3: _sleep looks every SUPERVISE_SECONDS
                self._pidfds[proc.pid] = (proc, pidfd_open(proc.pid))
        return proc

    def _sleep(self, restart_in: float | None) -> None:
        """Until a child exits, ``restart_in`` seconds pass (None: no restart pending), or :meth:`stop`.

        Every child's pidfd is watched until the child is seen reaped — not only those that ``poll()``
        calls running now: ``Popen.poll`` answers None (running) while another thread holds its wait
        lock (``pids``, say), and a dead child left out of the watch would leave the supervisor asleep
        for good; its readable pidfd instead ends the sleep at once, and the next look sees it dead."""
        timeout = restart_in
        if any(p is not None and p.returncode is None and p.pid not in self._pidfds for p in self._procs):
            timeout = SUPERVISE_SECONDS if timeout is None else min(timeout, SUPERVISE_SECONDS)
        assert self._wake is not None
        wake = self._wake[0]
        readable, _, _ = select.select([wake, *(fd for _, fd in self._pidfds.values())], [], [], timeout)
        if wake in readable:
            os.read(wake, 64)
        for pid, (proc, fd) in list(self._pidfds.items()):  # the pidfds of children seen reaped
            if proc.poll() is not None:
                os.close(fd)
                del self._pidfds[pid]

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
            now = time.monotonic()
            self._sleep(min((max(0.0, at + RESTART_DELAY - now) for at in died_at.values()), default=None))
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
        for _, fd in self._pidfds.values():
            os.close(fd)
        self._pidfds.clear()

    def stop(self, timeout: float = 10.0) -> None:
        """Terminate the workers and the supervisor (idempotent)."""
        self._stop.set()
        if self._wake is not None:
            os.write(self._wake[1], b"x")
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                return  # still terminating its children: the pipe stays open for it
            self._thread = None
        if self._wake is not None:
            wake, self._wake = self._wake, None
            os.close(wake[0])
            os.close(wake[1])

    def wait(self) -> None:
        """Block until :meth:`stop` is called (from a signal handler or another thread)."""
        while not self._stop.wait(1.0):
            pass
