"""Counters of the bus (issue 18 §1: a failed publish is logged and counted), in a Prometheus registry.

Names (each worker process exposes its own at ``GET /metrics``, web/routes/health.py):

- ``duelclub_bus_publish_failures_total`` — messages Redis did not carry to the other workers;
- ``duelclub_bus_reconnects_total`` — times the bus got its Redis connection back after losing it;
- ``duelclub_bus_resyncs_total`` — ``{"type": "resync"}`` notices delivered to local subscriptions;
- ``duelclub_bus_healthy`` — 1 while the bus reaches the other workers, else 0.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge


class BusMetrics:
    """The bus counters, registered in ``registry`` (a private one when None: tests, scripts)."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        self._failures = Counter(
            "duelclub_bus_publish_failures",
            "Messages Redis did not carry to the other workers",
            registry=self.registry,
        )
        self._reconnects = Counter(
            "duelclub_bus_reconnects", "Redis connection regained after a failure", registry=self.registry
        )
        self._resyncs = Counter(
            "duelclub_bus_resyncs", "Resync notices delivered to local subscriptions", registry=self.registry
        )
        self._healthy = Gauge(
            "duelclub_bus_healthy", "1 while the bus reaches the other workers", registry=self.registry
        )

    def track_health(self, healthy: Callable[[], bool]) -> None:
        """Make ``duelclub_bus_healthy`` read ``healthy()`` at every scrape."""
        self._healthy.set_function(lambda: 1.0 if healthy() else 0.0)

    def publish_failed(self, messages: int = 1) -> None:
        self._failures.inc(messages)

    def reconnected(self) -> None:
        self._reconnects.inc()

    def resynced(self, subscriptions: int) -> None:
        self._resyncs.inc(subscriptions)

    def publish_failures(self) -> float:
        """Messages not carried so far."""
        return self._value("duelclub_bus_publish_failures_total")

    def reconnects(self) -> float:
        return self._value("duelclub_bus_reconnects_total")

    def resyncs(self) -> float:
        return self._value("duelclub_bus_resyncs_total")

    def _value(self, name: str) -> float:
        return self.registry.get_sample_value(name) or 0.0
