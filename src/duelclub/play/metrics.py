"""The match service's Prometheus metrics (issue 13 §2), in the app's registry (``GET /metrics``).

- ``duelclub_actions_total{game, source}`` — actions stored, hence acknowledged (source ``player``, ``bot``
  or ``clock``);
- ``duelclub_action_seconds{game}`` — a player's action from the moment this worker takes it up (under the
  match lock, catch-up and clock included) to its stored row: the latency histogram;
- ``duelclub_clock_timeouts_total{game}`` — moves the clock played for a player out of time.

Each costs a counter increment or a histogram observation (a few µs) on the hot path, nothing else.
"""

from __future__ import annotations

from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram

LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class PlayMetrics:
    """The counters above, registered in ``registry`` (a private one when None: tests, scripts)."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        self.actions = Counter(
            "duelclub_actions", "Actions stored (acknowledged)", ["game", "source"], registry=self.registry
        )
        self.action_seconds = Histogram(
            "duelclub_action_seconds",
            "A player's action: taken up by this worker to stored (seconds)",
            ["game"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.timeouts = Counter(
            "duelclub_clock_timeouts", "Moves played by the clock for a player out of time", ["game"],
            registry=self.registry,
        )  # fmt: skip

        self._children: dict[tuple[str, ...], Any] = {}
        """Labelled children already looked up (``labels()`` takes a lock and builds keys on every call)."""

    def _child(self, metric: Any, *labels: str) -> Any:
        key = (metric._name, *labels)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = metric.labels(*labels)
        return child

    def stored(self, game: str, source: str) -> None:
        self._child(self.actions, game, source).inc()
        if source == "clock":
            self._child(self.timeouts, game).inc()

    def acted(self, game: str, seconds: float) -> None:
        self._child(self.action_seconds, game).observe(seconds)
