"""The background mail sender of a web worker (issue 28, DESIGN.md §Notices).

Each pass leases the due ``email`` rows of the outbox (store/outbox.py: ``FOR UPDATE SKIP LOCKED`` on
PostgreSQL, a guarded UPDATE on SQLite), sends them through the transport (notify/smtp.py: aiosmtplib, or
the log), and marks each ``sent`` — or, on failure, due again after a doubling backoff (``failed`` after
``MAIL_MAX_ATTEMPTS`` tries). Any number of workers may run a sender on one database: a row is leased to one
of them at a time, so each mail goes once (a worker that dies between the SMTP server's acceptance and its
mark lets another resend that one mail after ``MAIL_LEASE_SECONDS``, with the same ``Message-ID``).

A worker that writes a mail calls :meth:`MailSender.wake`, so its own mails leave at once; the others find
theirs within ``MAIL_POLL_SECONDS``. An SMTP server that is down delays mails, never the requests that
wrote them. With SMTP configured, a sent mail's text (live links) is dropped from the row; without it (the
log transport) the text stays for the admins' «Почта» page.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from datetime import datetime

from duelclub.notify.background import NoticeSender
from duelclub.notify.compose import message
from duelclub.notify.smtp import Transport
from duelclub.store import outbox
from duelclub.store.db import Database
from duelclub.store.models import utcnow

log = logging.getLogger("duelclub.mail")


class MailSender(NoticeSender):
    """Sends the outbox's mails: :meth:`start` / :meth:`stop` (a background worker of the app),
    :meth:`wake`, and :meth:`run_once` (one pass; tests call it) — the loop is notify/background.py's."""

    log = log

    def __init__(
        self,
        db: Database,
        transport: Transport,
        *,
        mail_from: str,
        poll_seconds: float = 2.0,
        lease_seconds: float = 120.0,
        retry_seconds: float = 30.0,
        retry_max_seconds: float = 3600.0,
        max_attempts: int = 20,
        batch: int = 10,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.db = db
        self.transport = transport
        self.mail_from = mail_from
        self.poll_seconds = poll_seconds
        self.lease_seconds = lease_seconds
        self.retry_seconds = retry_seconds
        self.retry_max_seconds = retry_max_seconds
        self.max_attempts = max_attempts
        self.batch = batch
        self.name = name or f"{socket.gethostname()}:{os.getpid()}:{id(self):x}"
        self.sent = 0
        self.failures = 0

    def _claim(self, now: datetime) -> list[outbox.Claimed]:
        with self.db.session() as s:
            return outbox.claim(
                s, self.name, now, self.lease_seconds, limit=self.batch, max_attempts=self.max_attempts
            )

    async def run_once(self) -> int:
        """Lease and send the due mails (at most one batch); how many were taken."""
        if self._stopping:
            return 0
        items = await asyncio.to_thread(self._claim, utcnow())
        for item in items:
            await self._send(item)  # taken: sent and marked even while stopping (or its lease runs out)
        return len(items)

    async def _send(self, item: outbox.Claimed) -> None:
        try:
            await self.transport.send(message(item, self.mail_from))
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.failures += 1
            error = f"{type(exc).__name__}: {exc}"
            log.warning("mail %s to %s not sent (try %s): %s", item.id, item.recipient, item.token, error)
            await asyncio.to_thread(self._failed, item, error)
            return
        self.sent += 1
        if not await asyncio.to_thread(self._sent, item):
            log.warning("mail %s: lease lost before it was marked sent", item.id)

    def _sent(self, item: outbox.Claimed) -> bool:
        with self.db.session() as s:
            return outbox.mark_sent(s, item, utcnow(), keep_payload=self.transport.name == "log")

    def _failed(self, item: outbox.Claimed, error: str) -> None:
        with self.db.session() as s:
            outbox.mark_failed(
                s,
                item,
                utcnow(),
                error,
                base_seconds=self.retry_seconds,
                cap_seconds=self.retry_max_seconds,
                max_attempts=self.max_attempts,
            )
