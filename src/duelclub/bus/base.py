"""The bus contract (DESIGN.md §Real time): publish/subscribe of small JSON messages per channel.

The match service publishes a ``change`` notice on ``match:{id}`` after every committed change (the
messages are typed in ``bus/messages.py``); every worker's
WebSocket hub subscribes and pushes fresh views to its own sockets. Messages are notifications: a subscriber
that misses one (a slow socket, a Redis reconnect) still converges at the next one or on ``sync``.

The database is the truth, the bus only carries news (issue 18 §1):

- ``publish`` never raises and never waits for the network: the publishing process's own subscribers get the
  message at once, directly; other workers get it when Redis carries it. A message Redis could not carry is
  logged (rate-limited) and counted, and is left to the repair below.
- ``healthy`` says whether the bus reaches the other workers now (the in-process bus: always).
- When the connection to Redis comes back after a failure, every local subscription (every channel) gets
  :data:`RESYNC` — ``{"type": "resync"}`` — meaning "news may have been lost: re-read from the database".
- ``worker_id`` is a unique id of this bus, i.e. of the worker process (per-worker channels).
- ``metrics`` counts publish failures, reconnects and resyncs (``bus/metrics.py``).

Usage::

    sub = await bus.subscribe(match_channel("m1"))
    try:
        async for message in sub:
            ...
    finally:
        await sub.close()
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any, Protocol

from duelclub.aio import LeanQueue
from duelclub.bus.metrics import BusMetrics

Message = Mapping[str, Any]
"""A bus message: any JSON object (the club's own are typed in ``bus/messages.py``); receivers never
change one (every local subscriber gets the same object)."""
RESYNC_KIND = "resync"
RESYNC: Message = {"type": RESYNC_KIND}
"""Delivered to every local subscription when the bus reconnects after a failure: re-read the database."""


def new_worker_id() -> str:
    """A unique id for one bus (one worker process): ``{host}-{pid}-{8 hex}``."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(4)}"


def is_resync(message: Message) -> bool:
    """Whether ``message`` is the :data:`RESYNC` notice."""
    return message.get("type") == RESYNC_KIND


def match_channel(match_id: str) -> str:
    """The channel of one match: ``match:{id}``."""
    return f"match:{match_id}"


class Subscription:
    """Messages of one channel for one local consumer, in arrival order (an async iterator).

    Every open match socket holds one, so it queues in a :class:`~duelclub.aio.LeanQueue` (~3 KB less
    than an ``asyncio.Queue`` per idle socket, issue 12). Once closed, every ``get`` ends the iteration."""

    __slots__ = ("_closed", "_hub", "_queue", "channel", "on_message")

    def __init__(self, channel: str, hub: LocalFanout) -> None:
        self.channel = channel
        self._hub = hub
        self._queue = LeanQueue[Message | None]()
        self._closed = False
        self.on_message: Callable[[], None] | None = None
        """Called (on the event loop) after each message is queued: for a consumer that reads with
        :meth:`drain` when told, instead of keeping a task waiting in :meth:`get`."""

    def _put(self, message: Message | None) -> None:
        self._queue.put_nowait(message)
        if self.on_message is not None and message is not None:
            self.on_message()

    async def get(self) -> Message:
        """The next message; raises StopAsyncIteration once closed."""
        await self._queue.wait()
        message = self._queue.items[0]
        if message is None:  # the end mark stays: a later get ends too
            raise StopAsyncIteration
        del self._queue.items[0]
        return message

    @property
    def pending(self) -> bool:
        """Whether a message is queued (:meth:`drain` would return some)."""
        items = self._queue.items
        return bool(items) and items[0] is not None

    def drain(self) -> list[Message]:
        """Messages already queued, without waiting (lets consumers coalesce bursts)."""
        items = self._queue.items
        end = items.index(None) if None in items else len(items)
        out: list[Message] = [m for m in items[:end] if m is not None]
        del items[:end]
        return out

    def __aiter__(self) -> AsyncIterator[Message]:
        return self

    async def __anext__(self) -> Message:
        return await self.get()

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._put(None)
            await self._hub.remove(self)


class LocalFanout:
    """Channel → local subscriptions; shared by the memory and Redis buses."""

    def __init__(self) -> None:
        self._subs: dict[str, set[Subscription]] = {}

    def add(self, channel: str) -> tuple[Subscription, bool]:
        """A new subscription, and whether it is the channel's first local one."""
        sub = Subscription(channel, self)
        subs = self._subs.setdefault(channel, set())
        subs.add(sub)
        return sub, len(subs) == 1

    async def remove(self, sub: Subscription) -> None:
        subs = self._subs.get(sub.channel)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[sub.channel]
                await self.on_channel_empty(sub.channel)

    async def on_channel_empty(self, channel: str) -> None:
        """Hook: the last local subscriber of ``channel`` left."""

    def deliver(self, channel: str, message: Message) -> None:
        for sub in list(self._subs.get(channel, ())):
            sub._put(message)

    def channels(self) -> list[str]:
        """The channels with at least one local subscription."""
        return list(self._subs)

    def listening(self, channel: str) -> bool:
        """Whether ``channel`` has a subscription in this process (a socket of the match, a watcher)."""
        return channel in self._subs

    def unheard(self, channel: str) -> bool:
        """Whether a message on ``channel`` would reach nobody: in one process, nobody subscribed here."""
        return not self.listening(channel)

    def deliver_everywhere(self, message: Message) -> int:
        """``message`` to every local subscription of every channel; returns how many got it."""
        count = 0
        for subs in list(self._subs.values()):
            for sub in list(subs):
                sub._put(dict(message))
                count += 1
        return count

    def close_all(self) -> None:
        for subs in list(self._subs.values()):
            for sub in list(subs):
                sub._closed = True
                sub._put(None)
        self._subs.clear()


class Bus(Protocol):
    """Publish/subscribe of JSON-able dicts per channel (see the module docstring for the guarantees)."""

    worker_id: str
    metrics: BusMetrics

    @property
    def healthy(self) -> bool:
        """Whether messages reach the other workers now (False while Redis is unreachable)."""
        ...

    async def publish(self, channel: str, message: Message) -> None:
        """Deliver ``message`` to every current subscriber of ``channel`` (this worker's at once, other
        workers' through Redis). Never raises; a message Redis cannot carry is logged and counted."""
        ...

    def listening(self, channel: str) -> bool:
        """Whether this worker has a subscription on ``channel`` (no network: the local fan-out's)."""
        ...

    def unheard(self, channel: str) -> bool:
        """Whether a message on ``channel`` is believed to reach nobody at all, here or in another worker
        (without asking: what the last publish there found; False when unknown)."""
        ...

    async def subscribe(self, channel: str) -> Subscription:
        """A subscription receiving the messages published on ``channel`` from now on (never raises: while
        Redis is down it starts with this worker's messages; :data:`RESYNC` follows the reconnect)."""
        ...

    async def close(self) -> None:
        """Stop delivering; open subscriptions end."""
        ...
