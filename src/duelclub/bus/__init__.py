"""Publish/subscribe between the match service and the WebSocket hubs (DESIGN.md §Real time)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry

from duelclub.bus.base import RESYNC, Bus, Message, Subscription, is_resync, match_channel
from duelclub.bus.memory import MemoryBus
from duelclub.bus.metrics import BusMetrics


async def open_bus(redis_url: str | None, registry: CollectorRegistry | None = None) -> Bus:
    """The Redis bus when ``redis_url`` is set, else the in-process bus; its counters go to ``registry``
    (a private registry when None). Raises redis ConnectionError when Redis is unreachable at start."""
    if redis_url:
        from duelclub.bus.redis import RedisBus

        return await RedisBus.connect(redis_url, registry)
    return MemoryBus(registry)


__all__ = [
    "RESYNC",
    "Bus",
    "BusMetrics",
    "MemoryBus",
    "Message",
    "Subscription",
    "is_resync",
    "match_channel",
    "open_bus",
]
