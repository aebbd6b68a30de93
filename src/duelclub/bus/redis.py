"""Redis bus (REDIS_URL set): redis.asyncio pub/sub between any number of workers and machines.

Per process: one pub/sub connection, read by a reader task that fans messages out to the local
subscriptions, and a small pool for publishing, fed by a sender task. The process subscribes to a Redis
channel while it has at least one local subscriber on it.

Issue 18 §1 (the database is the truth, the bus only carries news):

- ``publish`` delivers to this process's own subscribers at once and queues the message for Redis; it never
  waits for the network and never raises. The sender publishes the queue in order (pipelined); a batch Redis
  refuses is dropped, logged (rate-limited) and counted — consumers repair the gap from the database (the
  next notice, or the resync below).
- Every Redis payload is the message plus ``"_origin": worker_id`` (a key reserved for the bus), written
  first; the reader strips it and skips the echo of this process's own messages (they were delivered
  already) by their first bytes, without parsing them. Consumers see the dicts as published.
- The reader owns the pub/sub connection: on any error (or no answer to its pings for
  :data:`DEAD_SECONDS`) it marks the bus unhealthy, drops the connection and reconnects with backoff,
  subscribing afresh to every channel that has local subscribers; once back, it delivers ``{"type":
  "resync"}`` to every local subscription. redis-py's own silent reconnect is off on that connection
  (no retries), so a lost connection is always seen.
- The publish connections have a health check before reuse after :data:`HEALTH_CHECK_SECONDS` idle and
  two retries with reconnect: a pooled connection Redis closed while it was down is replaced, not failed.

Alone on a channel (issue 29 §3): when both players' sockets of a match are on its owner (the lease follows
the players), nobody else listens on ``match:{id}`` and sending each change to Redis only to skip its echo
was ~0.3 ms of CPU per action. So the sender reads PUBLISH's answer (how many connections got it): when that
is no more than this process's own confirmed subscription, the process is *alone* on the channel and keeps
its messages there (delivered locally, not sent) for :data:`ALONE_SECONDS`, then sends the next one to
look again. A process that starts listening on a channel says so on the control channel once Redis has
confirmed its subscription (``{"listen": channel}``); a process alone there stops being alone at once and, if
it kept a message back meanwhile, sends ``resync`` on the channel, so the newcomer re-reads the database (as
after a reconnect) rather than miss it. This process's subscription is counted from Redis's own
confirmation (read by the reader) and only for publishes sent after it; an unsubscription uncounts before it
is sent; and a count from a publish sent before the latest ``listen`` notice arrived is not believed (the
notice may overtake the answer, and the newcomer would miss up to ALONE_SECONDS of messages: the likely
cause of a socket behind in 2 of 5 ``benchmarks/chaos.py`` runs before this rule). The belief errs towards
sending.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import orjson
from prometheus_client import CollectorRegistry
from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError

from duelclub.bus.base import RESYNC, LocalFanout, Message, Subscription, new_worker_id
from duelclub.bus.metrics import BusMetrics

log = logging.getLogger(__name__)
_CONTROL = "duelclub:bus"
ORIGIN_KEY = "_origin"
CONNECT_TIMEOUT = 1.0
"""Seconds to open a TCP connection to Redis."""
COMMAND_TIMEOUT = 2.0
"""Seconds to wait for a command's answer (publish, subscribe)."""
HEALTH_CHECK_SECONDS = 5
"""A publish connection idle this long is pinged (and replaced if dead) before its next use."""
PING_SECONDS = 5.0
DEAD_SECONDS = 12.0
"""The pub/sub connection counts as lost when nothing (not even a pong) came for this long."""
RECONNECT_SECONDS = (0.1, 2.0)
"""Reader backoff between reconnection attempts: first, cap (doubling)."""
OUTBOX_LIMIT = 10_000
"""Messages waiting for Redis beyond this are dropped (and counted) instead of queued."""
BATCH_LIMIT = 200
LOG_EVERY_SECONDS = 30.0
ALONE_SECONDS = 15.0
"""How long a process that saw nobody else listening on a channel keeps its messages there before it sends
one to Redis again (the module docstring; the ``listen`` notice ends it at once, so this only bounds how
long a newcomer whose notice was lost waits — it then gets a ``resync``). 5 s left ~0.33 publishes per
action at 100 matches (think 1 s) on two workers with sticky sockets; 15 s ~0.2 (1,249 in 5,800 actions)."""
ALONE_CHANNELS = 10_000
"""At most this many channels are remembered as alone (or as having kept messages back)."""
LISTEN_KEY = "listen"


class _Throttled:
    """Logs a warning at most every ``LOG_EVERY_SECONDS``, saying how many were suppressed meanwhile."""

    def __init__(self) -> None:
        self._last = -LOG_EVERY_SECONDS
        self._suppressed = 0

    def warn(self, what: str, exc: BaseException | None) -> None:
        now = time.monotonic()
        if now - self._last < LOG_EVERY_SECONDS:
            self._suppressed += 1
            return
        more = f" ({self._suppressed} more since the last report)" if self._suppressed else ""
        log.warning("redis bus: %s: %s%s", what, f"{type(exc).__name__}: {exc}" if exc else "", more)
        self._last, self._suppressed = now, 0


class RedisBus(LocalFanout):
    """The Redis-backed bus; create with :meth:`connect`."""

    def __init__(self, url: str, registry: CollectorRegistry | None = None) -> None:
        super().__init__()
        self.worker_id = new_worker_id()
        self._echo = orjson.dumps({ORIGIN_KEY: self.worker_id})[:-1]
        """How this process's own payloads begin (``{"_origin":"<id>"``): their echo is skipped unparsed."""
        self.metrics = BusMetrics(registry)
        self.metrics.track_health(lambda: self.healthy)
        common: dict[str, Any] = {
            "socket_connect_timeout": CONNECT_TIMEOUT,
            "socket_timeout": COMMAND_TIMEOUT,
            "socket_keepalive": True,
        }
        self._redis = Redis.from_url(
            url,
            health_check_interval=HEALTH_CHECK_SECONDS,
            retry=Retry(ExponentialBackoff(cap=0.1, base=0.01), 2),
            **common,
        )
        self._listener = Redis.from_url(url, retry=Retry(ExponentialBackoff(), 0), **common)
        self._pubsub: PubSub | None = None
        self._healthy = False
        self._down_since: float | None = None
        self._outbox: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue(OUTBOX_LIMIT)
        self._tasks: list[asyncio.Task[None]] = []
        self._subscribe_lock = asyncio.Lock()
        self._publish_log, self._read_log = _Throttled(), _Throttled()
        self._confirmed: dict[str, float] = {}
        """Channel → when Redis confirmed this process's subscription (``time.monotonic()``): from then on
        its pub/sub connection counts among a publish's receivers there."""
        self._heard: dict[str, float] = {}
        """Channel → when another process last said it listens there (a count taken before is stale)."""
        self._alone: dict[str, float] = {}
        """Channel → until when (``time.monotonic()``) nobody else is believed to listen on it."""
        self._kept: set[str] = set()
        """Channels with a message kept back while alone (a newcomer there is told to resync)."""
        self.kept_local = 0
        """Messages delivered here only, nobody else listening (for tests and benchmarks)."""

    @classmethod
    async def connect(cls, url: str, registry: CollectorRegistry | None = None) -> RedisBus:
        """Connect to ``url`` (``redis://host:port/db``); raises redis ConnectionError if unreachable now
        (later outages are survived)."""
        bus = cls(url, registry)
        await bus._redis.ping()
        pubsub = await bus._open_pubsub()
        bus._healthy = True
        bus._tasks = [
            asyncio.create_task(bus._listen(pubsub), name="redis-bus-reader"),
            asyncio.create_task(bus._send(), name="redis-bus-sender"),
        ]
        return bus

    @property
    def healthy(self) -> bool:
        return self._healthy

    async def publish(self, channel: str, message: Message) -> None:
        self.deliver(channel, dict(message))
        until = self._alone.get(channel)
        if until is not None:
            if until > time.monotonic():
                self._keep(channel)
                return
            del self._alone[channel]
        try:
            payload = orjson.dumps({ORIGIN_KEY: self.worker_id, **message})  # the origin first: _dispatch
            self._outbox.put_nowait((channel, payload))
        except (TypeError, ValueError):  # a caller's bug; the change it reports is stored all the same
            self.metrics.publish_failed()
            log.exception("redis bus: message on %s is not JSON; not sent to other workers", channel)
        except asyncio.QueueFull:
            self.metrics.publish_failed()
            self._publish_log.warn(f"outbox full ({OUTBOX_LIMIT}); message dropped", None)

    async def subscribe(self, channel: str) -> Subscription:
        sub, first = self.add(channel)
        if first:
            async with self._subscribe_lock:
                if self._pubsub is not None:  # else the reader subscribes to it when it reconnects
                    try:
                        await self._pubsub.subscribe(channel)
                    except Exception as exc:  # the reader sees the loss and resubscribes everything
                        self._read_log.warn(f"subscribe {channel} failed", exc)
        return sub

    async def on_channel_empty(self, channel: str) -> None:
        self._confirmed.pop(channel, None)  # uncounted before Redis hears of it: no false "alone"
        async with self._subscribe_lock:
            if self._pubsub is not None:
                with contextlib.suppress(Exception):
                    await self._pubsub.unsubscribe(channel)

    # -- the sender ----------------------------------------------------------------------------------
    async def _send(self) -> None:
        while True:
            batch = [await self._outbox.get()]
            while len(batch) < BATCH_LIMIT and not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            try:
                async with asyncio.timeout(CONNECT_TIMEOUT + COMMAND_TIMEOUT):
                    async with self._redis.pipeline(transaction=False) as pipe:
                        for channel, payload in batch:
                            pipe.publish(channel, payload)
                        sent_at = time.monotonic()
                        receivers = await pipe.execute()
                for (channel, _), got in zip(batch, receivers, strict=True):
                    self._learn(channel, got, sent_at)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.metrics.publish_failed(len(batch))
                self._publish_log.warn(f"publish failed; {len(batch)} message(s) not carried", exc)
            finally:
                for _ in batch:
                    self._outbox.task_done()

    def unheard(self, channel: str) -> bool:
        """Nobody listening here, and the last look found nobody elsewhere (a dead worker's channel: its
        forwarded writes are given up at once rather than after the forward's time-out, play/forward.py)."""
        until = self._alone.get(channel)
        return until is not None and until > time.monotonic() and not self.listening(channel)

    def _learn(self, channel: str, receivers: Any, sent_at: float) -> None:
        """PUBLISH on ``channel``, sent at ``sent_at``, reached ``receivers`` connections: alone there when
        that is at most this process's own subscription — counted only when Redis had confirmed it before
        the publish was sent; and no count taken before another process's ``listen`` notice arrived is
        believed (the notice may have overtaken the answer)."""
        if channel == _CONTROL or not isinstance(receivers, int):
            return
        if self._heard.get(channel, -1.0) >= sent_at:
            return
        mine = 1 if self._confirmed.get(channel, sent_at) < sent_at else 0
        if receivers <= mine:
            if len(self._alone) >= ALONE_CHANNELS:  # a bound: beyond it, every message is sent again
                self._alone.clear()
            self._alone[channel] = time.monotonic() + ALONE_SECONDS
        else:  # somebody listens (their notice may have been lost): tell them if anything was kept back
            self._somebody_listens(channel)

    def _somebody_listens(self, channel: str) -> None:
        """Another process confirmed a subscription to ``channel``: not alone; a resync if a message was
        kept back (sent to Redis only: this process's own subscribers had it)."""
        if len(self._heard) >= ALONE_CHANNELS:  # a bound; with it goes every belief a notice could end
            self._heard.clear()
            self._alone.clear()
        self._heard[channel] = time.monotonic()
        self._alone.pop(channel, None)
        if channel in self._kept:
            self._kept.discard(channel)
            self._send_only(channel, {"type": RESYNC["type"]})

    def _keep(self, channel: str) -> None:
        if len(self._kept) >= ALONE_CHANNELS:  # a bound: the channels long gone are forgotten with the rest
            self._kept.clear()
            self._alone.clear()
        self._kept.add(channel)
        self.kept_local += 1

    def _send_only(self, channel: str, message: Message) -> None:
        """Queue ``message`` for Redis without delivering it here."""
        with contextlib.suppress(asyncio.QueueFull):
            self._outbox.put_nowait((channel, orjson.dumps({ORIGIN_KEY: self.worker_id, **message})))

    def _confirm(self, channel: str) -> None:
        """Redis confirmed this process's subscription to ``channel``: counted, and said to the others."""
        if channel == _CONTROL or not self.listening(channel):
            return  # a confirmation that arrived after the last local subscriber left
        self._confirmed[channel] = time.monotonic()
        self._alone.pop(channel, None)
        self._send_only(_CONTROL, {LISTEN_KEY: channel})

    # -- the reader ----------------------------------------------------------------------------------
    async def _open_pubsub(self) -> PubSub:
        """A fresh pub/sub connection subscribed to the control channel and every locally wanted one."""
        pubsub = self._listener.pubsub()  # subscribe confirmations read too: self._confirmed
        self._confirmed.clear()
        self._alone.clear()
        try:
            await pubsub.subscribe(_CONTROL, *self.channels())
            async with self._subscribe_lock:  # channels first wanted meanwhile: subscribe() saw no pubsub
                have = {c.decode() if isinstance(c, bytes) else str(c) for c in pubsub.channels}
                missing = [c for c in self.channels() if c not in have]
                if missing:
                    await pubsub.subscribe(*missing)
                self._pubsub = pubsub
        except BaseException:
            with contextlib.suppress(Exception):
                await pubsub.aclose()  # type: ignore[no-untyped-call]
            raise
        return pubsub

    async def _listen(self, pubsub: PubSub | None) -> None:
        delay = RECONNECT_SECONDS[0]
        while True:
            try:
                if pubsub is None:
                    pubsub = await self._open_pubsub()
                    self._back_up()
                delay = RECONNECT_SECONDS[0]
                await self._read(pubsub)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._went_down(exc)
            finally:
                self._pubsub = None
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()  # type: ignore[no-untyped-call]
                pubsub = None
            await asyncio.sleep(delay)
            delay = min(delay * 2, RECONNECT_SECONDS[1])

    async def _read(self, pubsub: PubSub) -> None:
        """Dispatch messages until the connection fails (raises)."""
        loop = asyncio.get_running_loop()
        last_seen = last_ping = loop.time()
        while True:
            raw = await pubsub.get_message(timeout=1.0)
            now = loop.time()
            if raw is not None:
                last_seen = now
                kind = raw.get("type")
                if kind == "message":
                    self._dispatch(raw)
                elif kind == "subscribe":
                    self._confirm(_text(raw["channel"]))
            if now - last_seen > DEAD_SECONDS:
                raise RedisConnectionError(f"no answer from Redis for {DEAD_SECONDS:.0f} s")
            if now - last_ping >= PING_SECONDS:
                await pubsub.ping()
                last_ping = now

    def _went_down(self, exc: BaseException) -> None:
        if self._healthy:
            log.warning("redis bus: connection lost (%s: %s); reconnecting", type(exc).__name__, exc)
            self._healthy, self._down_since = False, time.monotonic()
        else:
            self._read_log.warn("reconnect failed", exc)

    def _back_up(self) -> None:
        """Connected again: healthy, counted, and every local subscription told to re-read."""
        self._healthy = True
        if self._down_since is None:
            return
        log.warning("redis bus: reconnected after %.1f s; resyncing", time.monotonic() - self._down_since)
        self._down_since = None
        self.metrics.reconnected()
        self.metrics.resynced(self.deliver_everywhere(RESYNC))

    def _dispatch(self, raw: dict[str, Any]) -> None:
        data = raw["data"]
        if isinstance(data, bytes) and data.startswith(self._echo):
            return  # this process's own message, delivered locally already: not parsed (issue 29 §3)
        channel = _text(raw["channel"])
        try:
            message = orjson.loads(data)
        except (TypeError, ValueError):
            log.warning("redis bus: dropped a non-JSON message on %s", channel)
            return
        if isinstance(message, dict) and message.pop(ORIGIN_KEY, None) != self.worker_id:
            if channel == _CONTROL and isinstance(message.get(LISTEN_KEY), str):
                self._somebody_listens(message[LISTEN_KEY])
                return
            self.deliver(channel, message)

    async def close(self) -> None:
        """Send what is queued (for up to a second), then stop; open subscriptions end."""
        if self._healthy:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._outbox.join(), 1.0)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.close_all()
        await self._redis.aclose()
        await self._listener.aclose()


def _text(channel: Any) -> str:
    return channel.decode() if isinstance(channel, bytes) else str(channel)
