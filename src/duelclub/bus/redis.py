"""Redis bus (REDIS_URL set): redis.asyncio pub/sub between any number of workers and machines.

One Redis pub/sub connection per process; a reader task fans messages out to the local subscriptions.
The process subscribes to a Redis channel while it has at least one local subscriber on it. Messages are
JSON text. A process also receives its own publications through Redis (no local short cut), so every worker
sees the same order.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from redis.asyncio import Redis

from duelclub.bus.base import LocalFanout, Message, Subscription

log = logging.getLogger(__name__)
_CONTROL = "duelclub:bus"


class RedisBus(LocalFanout):
    """The Redis-backed bus; create with :meth:`connect`."""

    def __init__(self, client: Redis) -> None:
        super().__init__()
        self._redis = client
        self._pubsub = client.pubsub(ignore_subscribe_messages=True)
        self._reader: asyncio.Task[None] | None = None
        self._subscribe_lock = asyncio.Lock()

    @classmethod
    async def connect(cls, url: str) -> RedisBus:
        """Connect to ``url`` (``redis://host:port/db``); raises redis ConnectionError if unreachable."""
        bus = cls(Redis.from_url(url))
        await bus._redis.ping()
        await bus._pubsub.subscribe(_CONTROL)
        bus._reader = asyncio.create_task(bus._read(), name="redis-bus-reader")
        return bus

    async def publish(self, channel: str, message: Message) -> None:
        await self._redis.publish(channel, json.dumps(message, separators=(",", ":")))

    async def subscribe(self, channel: str) -> Subscription:
        sub, first = self.add(channel)
        if first:
            async with self._subscribe_lock:
                await self._pubsub.subscribe(channel)
        return sub

    async def on_channel_empty(self, channel: str) -> None:
        async with self._subscribe_lock:
            with contextlib.suppress(Exception):
                await self._pubsub.unsubscribe(channel)

    async def _read(self) -> None:
        while True:
            try:
                raw = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:  # connection loss: redis-py reconnects and resubscribes on the next call
                log.exception("redis bus: read failed; retrying")
                await asyncio.sleep(0.5)
                continue
            if raw is None or raw.get("type") != "message":
                continue
            self._dispatch(raw)

    def _dispatch(self, raw: dict[str, Any]) -> None:
        channel = raw["channel"].decode() if isinstance(raw["channel"], bytes) else str(raw["channel"])
        try:
            message = json.loads(raw["data"])
        except (TypeError, ValueError):
            log.warning("redis bus: dropped a non-JSON message on %s", channel)
            return
        if isinstance(message, dict):
            self.deliver(channel, message)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        self.close_all()
        await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        await self._redis.aclose()
