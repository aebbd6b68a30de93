"""In-process bus: the default when REDIS_URL is unset (one worker)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry

from duelclub.bus.base import LocalFanout, Message, Subscription, new_worker_id
from duelclub.bus.metrics import BusMetrics


class MemoryBus(LocalFanout):
    """Delivers published messages to this process's subscribers only; always healthy, never resyncs."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        super().__init__()
        self.worker_id = new_worker_id()
        self.metrics = BusMetrics(registry)
        self.metrics.track_health(lambda: True)

    @property
    def healthy(self) -> bool:
        return True

    async def publish(self, channel: str, message: Message) -> None:
        self.deliver(channel, dict(message))

    async def subscribe(self, channel: str) -> Subscription:
        sub, _first = self.add(channel)
        return sub

    async def close(self) -> None:
        self.close_all()
