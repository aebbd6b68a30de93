"""Publish/subscribe between the match service and the WebSocket hubs (DESIGN.md §Real time)."""

from __future__ import annotations

from duelclub.bus.base import Bus, Message, Subscription, match_channel
from duelclub.bus.memory import MemoryBus


async def open_bus(redis_url: str | None) -> Bus:
    """The Redis bus when ``redis_url`` is set, else the in-process bus."""
    if redis_url:
        from duelclub.bus.redis import RedisBus

        return await RedisBus.connect(redis_url)
    return MemoryBus()


__all__ = ["Bus", "MemoryBus", "Message", "Subscription", "match_channel", "open_bus"]
