"""Bot workers think on the CPU time nobody else wants (bots/worker.py ``use_scheduling``,
``BOT_WORKER_SCHEDULING``; issue 27 §3: members' latency with twenty master bots thinking): a worker the pool
starts runs under ``SCHED_IDLE``; ``normal`` leaves a process as it is."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from duelclub.bots.pool import WorkerPool

pytestmark = pytest.mark.skipif(
    not hasattr(os, "SCHED_IDLE") or not hasattr(os, "sched_getscheduler"), reason="SCHED_IDLE is Linux's"
)


def _policy_after(policy: str) -> tuple[bool, int]:
    """(use_scheduling's answer, the policy then) in a fresh interpreter: the change cannot be undone."""
    code = (
        "import os; from duelclub.bots.worker import use_scheduling; "
        f"print(use_scheduling({policy!r}), os.sched_getscheduler(0))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    answer, number = out.split()
    return answer == "True", int(number)


def test_idle_puts_the_process_under_sched_idle_and_normal_leaves_it() -> None:
    assert _policy_after("idle") == (True, os.SCHED_IDLE)
    assert _policy_after("normal") == (False, os.SCHED_OTHER)


def test_a_worker_the_pool_starts_thinks_under_sched_idle_by_default(tmp_path: Path) -> None:
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}", "DATA_DIR": str(tmp_path)}
    env_without = {k: v for k, v in os.environ.items() if k != "BOT_WORKER_SCHEDULING"}
    pool = WorkerPool(1, env=env)
    pool.env = {**env_without, **env}  # the default, whatever this shell says
    pool.start()
    try:
        deadline = time.monotonic() + 20.0
        while True:
            pids = pool.pids
            if pids and os.sched_getscheduler(pids[0]) == os.SCHED_IDLE:
                break
            assert time.monotonic() < deadline, "the worker never went under SCHED_IDLE"
            time.sleep(0.05)
    finally:
        pool.stop()
