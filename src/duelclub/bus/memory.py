"""In-process bus: the default when REDIS_URL is unset (one worker)."""

from __future__ import annotations

from duelclub.bus.base import LocalFanout, Message, Subscription


class MemoryBus(LocalFanout):
    """Delivers published messages to this process's subscribers only."""

    async def publish(self, channel: str, message: Message) -> None:
        self.deliver(channel, dict(message))

    async def subscribe(self, channel: str) -> Subscription:
        sub, _first = self.add(channel)
        return sub

    async def close(self) -> None:
        self.close_all()
