"""The bot worker pool's supervisor (bots/pool.py): a worker that exits is restarted, the supervisor sleeps
until something happens instead of looking five times a second (issue 29 §4), and stop leaves no child."""

from __future__ import annotations

import os
import sys
import time

import pytest

from duelclub.bots import pool as pool_module
from duelclub.bots.pool import WorkerPool


class _SleeperPool(WorkerPool):
    """Workers that only sleep (no database): the supervisor's own behaviour."""

    def command(self, i: int) -> list[str]:
        return [sys.executable, "-c", "import time; time.sleep(60)"]


def _until(check: object, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="pidfds are Linux's")
def test_the_supervisor_sleeps_until_a_worker_exits_then_restarts_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool_module, "RESTART_DELAY", 0.2)
    pool = _SleeperPool(2)
    naps: list[float | None] = []
    sleep = pool._sleep

    def counted(restart_in: float | None) -> None:
        naps.append(restart_in)
        sleep(restart_in)

    monkeypatch.setattr(pool, "_sleep", counted)
    pool.start()
    try:
        _until(lambda: len(pool.pids) == 2)
        first = list(pool.pids)
        time.sleep(1.0)
        assert len(naps) <= 2, naps  # asleep while nothing happens (a look every 0.2 s would be 5)
        os.kill(first[0], 9)
        _until(lambda: len(pool.pids) == 2 and first[0] not in pool.pids)
        assert first[1] in pool.pids  # the other one left alone
        assert any(n is not None and 0 < n <= 0.2 for n in naps)  # the restart waited its delay
    finally:
        started = time.monotonic()
        children = list(pool.pids)
        pool.stop()
        assert time.monotonic() - started < 5.0
    assert all(not _alive(pid) for pid in children)
    pool.stop()  # idempotent


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:  # a zombie is dead
        return f.read().split()[2] != "Z"
