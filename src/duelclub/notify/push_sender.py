"""The background Web Push sender of a web worker (issue 28 §3, DESIGN.md §Notices).

Each pass leases the due ``push_jobs`` (store/push.py, leased as the mail outbox is), encrypts each
payload for its browser (RFC 8291, ``aes128gcm``), signs a VAPID token for the push service's origin
(RFC 8292: ``aud`` the endpoint's origin, ``exp`` 12 hours on, ``sub`` the site's contact) and posts it
with pywebpush over one aiohttp session. The push service's answer decides the row:

- 2xx: ``sent``;
- 404 or 410: the browser's subscription is gone (unsubscribed, expired): it is deleted with its jobs;
- 400, 403 and 413 (a malformed message, a key the subscription was not made with, a payload too large):
  another try would get the same answer, the job is ``failed``;
- anything else (429, 5xx, no answer): due again after a doubling backoff, ``failed`` after
  ``PUSH_MAX_ATTEMPTS`` tries.

The endpoint is checked again before each post (notify/push.py), and its host name is resolved through
:class:`PublicResolver`, which drops private, loopback and link-local addresses: a name that points into the
site's own network is not posted to (the job fails as unreachable).

Any number of workers may run a sender on one database: a job is leased to one of them at a time, so each
push goes once (a worker that dies between the service's acceptance and its mark lets another push it again
after ``PUSH_LEASE_SECONDS``; the notification's ``tag`` makes the browser show it once).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
from enum import Enum

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush_async

from duelclub.notify.background import NoticeSender
from duelclub.notify.push import BadSubscription, check_endpoint, reachable_address
from duelclub.notify.vapid import load_private_key
from duelclub.store import push
from duelclub.store.db import Database
from duelclub.store.models import utcnow

log = logging.getLogger("duelclub.push")

GONE = frozenset({404, 410})
FINAL = frozenset({400, 403, 413})


class Answer(Enum):
    SENT = "sent"
    GONE = "gone"
    FINAL = "final"
    RETRY = "retry"


class PublicResolver(AbstractResolver):
    """aiohttp's threaded resolver keeping only the addresses the site may post to (public ones; loopback
    ones too when ``loopback``); OSError when none is left."""

    def __init__(self, *, loopback: bool = False) -> None:
        self._inner = aiohttp.ThreadedResolver()
        self.loopback = loopback

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        found = await self._inner.resolve(host, port, family)
        kept = [r for r in found if reachable_address(r["host"], loopback=self.loopback)]
        if not kept:
            raise OSError(f"{host} has no public address")
        return kept

    async def close(self) -> None:
        await self._inner.close()


class PushSender(NoticeSender):
    """Sends the due push jobs: :meth:`start` / :meth:`stop`, :meth:`wake`, :meth:`run_once` (one pass;
    tests call it). ``sent``, ``gone`` and ``failures`` count this sender's outcomes."""

    log = log

    def __init__(
        self,
        db: Database,
        *,
        private_key: str,
        subject: str,
        ttl_seconds: int = 86400,
        timeout_seconds: float = 10.0,
        poll_seconds: float = 2.0,
        lease_seconds: float = 60.0,
        retry_seconds: float = 30.0,
        retry_max_seconds: float = 3600.0,
        max_attempts: int = 10,
        batch: int = 10,
        http_loopback: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.http_loopback = http_loopback
        self.db = db
        self.vapid = Vapid02(load_private_key(private_key), conf={"no-strict": True})
        self.subject = subject
        self.ttl_seconds = ttl_seconds
        self.timeout_seconds = timeout_seconds
        self.poll_seconds = poll_seconds
        self.lease_seconds = lease_seconds
        self.retry_seconds = retry_seconds
        self.retry_max_seconds = retry_max_seconds
        self.max_attempts = max_attempts
        self.batch = batch
        self.name = name or f"{socket.gethostname()}:{os.getpid()}:{id(self):x}"
        self._http: aiohttp.ClientSession | None = None
        self.sent = self.gone = self.failures = 0

    def _session(self) -> aiohttp.ClientSession:
        resolver = PublicResolver(loopback=self.http_loopback)
        return aiohttp.ClientSession(connector=aiohttp.TCPConnector(resolver=resolver))

    async def opened(self) -> None:
        self._http = self._session()

    async def closed(self) -> None:
        http, self._http = self._http, None
        if http is not None:
            await http.close()

    def _claim(self) -> list[push.ClaimedPush]:
        with self.db.session() as s:
            return push.claim(
                s, self.name, utcnow(), self.lease_seconds, limit=self.batch, max_attempts=self.max_attempts
            )

    async def run_once(self) -> int:
        """Lease and push the due jobs (at most one batch); how many were taken."""
        if self._stopping:
            return 0
        items = await asyncio.to_thread(self._claim)
        if not items:
            return 0
        if self._http is None:  # run_once without start (tests): a session for this pass
            async with self._session() as http:
                for item in items:
                    await self._push(item, http)
        else:
            for item in items:
                await self._push(item, self._http)
        return len(items)

    async def _deliver(self, item: push.ClaimedPush, http: aiohttp.ClientSession) -> tuple[Answer, str]:
        try:
            check_endpoint(item.endpoint, http_loopback=self.http_loopback)
        except BadSubscription as exc:
            return Answer.FINAL, f"not posted to: {exc}"
        data = json.dumps(item.payload, ensure_ascii=False)
        info = {"endpoint": item.endpoint, "keys": {"p256dh": item.p256dh, "auth": item.auth}}
        try:
            await webpush_async(
                subscription_info=info,
                data=data,
                vapid_private_key=self.vapid,
                vapid_claims={"sub": self.subject},  # aud (the endpoint's origin) and exp are added
                ttl=self.ttl_seconds if item.ttl is None else item.ttl,
                timeout=self.timeout_seconds,
                headers={"Urgency": "normal"},
                aiohttp_session=http,
            )
        except asyncio.CancelledError:
            raise
        except WebPushException as exc:
            status = exc.status_code
            error = " ".join(str(exc.message).split())[:300]
            if status in GONE:
                return Answer.GONE, error
            return (Answer.FINAL if status in FINAL else Answer.RETRY), error
        except Exception as exc:  # no answer: connection refused, timeout, TLS
            return Answer.RETRY, f"{type(exc).__name__}: {exc}"
        return Answer.SENT, ""

    async def _push(self, item: push.ClaimedPush, http: aiohttp.ClientSession) -> None:
        answer, error = await self._deliver(item, http)
        if answer is Answer.SENT:
            self.sent += 1
        elif answer is Answer.GONE:
            self.gone += 1
            log.info("push %s: subscription %s is gone (%s): deleted", item.id, item.subscription_id, error)
        else:
            self.failures += 1
            log.warning(
                "push %s to subscription %s failed (try %s): %s",
                item.id,
                item.subscription_id,
                item.token,
                error,
            )
        if not await asyncio.to_thread(self._record, item, answer, error):
            log.warning("push %s: lease lost before it was marked %s", item.id, answer.value)

    def _record(self, item: push.ClaimedPush, answer: Answer, error: str) -> bool:
        with self.db.session() as s:
            if answer is Answer.SENT:
                return push.mark_sent(s, item, utcnow())
            if answer is Answer.GONE:
                return push.drop_subscription(s, item)
            return push.mark_failed(
                s,
                item,
                utcnow(),
                error,
                base_seconds=self.retry_seconds,
                cap_seconds=self.retry_max_seconds,
                max_attempts=self.max_attempts,
                final=answer is Answer.FINAL,
            )
