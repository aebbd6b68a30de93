"""psycopg connections for ``LISTEN`` that sleep until a notification comes (issue 29 §1 and §4).

psycopg waits on a connection's socket in steps of 0.1 s (``interval``, to look for a Ctrl-C between
steps), so a connection idling in ``notifies()`` woke its process ten times a second: the web worker's
LISTEN for bot answers (play/bots.py) and each bot worker's LISTEN for jobs (bots/worker.py) — 20 of an
idle server's ~40 wake-ups a second, each 100–200 µs of CPU on this VM (``benchmarks/load.py``: the
workers' own background work was ~1 % of a core, ~0.2 ms per action at 50 matches). These subclasses wait
in steps of :data:`LISTEN_STEP_SECONDS` instead, through psycopg's documented ``Connection.wait``. A
Ctrl-C or SIGTERM still ends the wait at once: the signal interrupts the wait itself (PEP 475), and an
asyncio task is cancelled through its future whatever the step.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.abc import PQGen

LISTEN_STEP_SECONDS = 60.0
"""The longest single wait of a listening connection (psycopg's own: 0.1 s)."""


class ListenConnection(psycopg.Connection[Any]):
    """A blocking connection whose waits take steps of :data:`LISTEN_STEP_SECONDS` (the module docstring)."""

    def wait(
        self, gen: PQGen[Any], interval: float = LISTEN_STEP_SECONDS, timeout: float | None = None
    ) -> Any:
        return super().wait(gen, interval=max(interval, LISTEN_STEP_SECONDS), timeout=timeout)


class AsyncListenConnection(psycopg.AsyncConnection[Any]):
    """An asyncio connection whose waits take steps of :data:`LISTEN_STEP_SECONDS` (the module docstring)."""

    async def wait(
        self, gen: PQGen[Any], interval: float = LISTEN_STEP_SECONDS, timeout: float | None = None
    ) -> Any:
        return await super().wait(gen, interval=max(interval, LISTEN_STEP_SECONDS), timeout=timeout)
