"""Bot think time, recorded where bots think: in the bot worker processes (issue 13 §2).

``duelclub_bot_think_seconds{game, level}`` — a histogram of the wall-clock seconds of each decision
(``BotWorker.think``: the position rebuilt and the bot's ``choose``). Bot workers are processes of their own,
so the histogram lives in prometheus-client's multiprocess mode: a worker whose environment has
``PROMETHEUS_MULTIPROC_DIR`` writes its samples to files there, and the web worker that started the pool
(``duelclub serve``) adds them to its ``/metrics`` with a ``MultiProcessCollector`` over that directory
(web/app.py). ``duelclub bots --metrics-port P`` serves the same for a pool started on its own.
"""

from __future__ import annotations

import os
from collections.abc import Callable

THINK_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"

ThinkTimer = Callable[[str, str, float], None]
"""``(game, level, seconds)``: record one decision's think time."""


def think_timer() -> ThinkTimer | None:
    """The recorder of this bot worker process: the multiprocess histogram when ``PROMETHEUS_MULTIPROC_DIR``
    is set (the pool sets it), else None (nothing recorded)."""
    if not os.environ.get(MULTIPROC_ENV):
        return None
    from prometheus_client import Histogram

    histogram = Histogram(
        "duelclub_bot_think_seconds",
        "Wall-clock seconds of one bot decision, by game and level",
        ["game", "level"],
        buckets=THINK_BUCKETS,
    )
    return lambda game, level, seconds: histogram.labels(game, level).observe(seconds)
