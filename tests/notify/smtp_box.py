"""A real SMTP server in-process for the mail tests (aiosmtpd), and helpers to read what it received.

``Mailbox`` runs aiosmtpd's ``Controller`` (its own thread and event loop) on a free port; every message it
receives is parsed with the standard library and kept with its envelope. Nothing of the mail path is
mocked: the app's sender connects to it with aiosmtplib exactly as it would to a club's server.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import Envelope, Session

PUBLIC_URL = "https://club.example"
"""The ``PUBLIC_URL`` of the apps of the ``mail_app`` fixture (tests/notify/conftest.py)."""
MailApp = Callable[..., Any]
"""The ``mail_app`` fixture: ``async with mail_app(url, **settings) as (app, client_factory)``."""
LINK = re.compile(r"https?://\S+/(?:reset|verify-email)/([A-Za-z0-9_.-]+)")


@dataclass
class Received:
    mail_from: str
    rcpt_tos: list[str]
    message: EmailMessage

    @property
    def text(self) -> str:
        body = self.message.get_body(("plain",))
        assert body is not None
        return str(body.get_content())

    @property
    def link(self) -> str:
        found = re.search(r"https?://\S+", self.text)
        assert found is not None, self.text
        return found.group(0)

    @property
    def token(self) -> str:
        found = LINK.search(self.text)
        assert found is not None, self.text
        return found.group(1)


class _Handler:
    def __init__(self, box: Mailbox) -> None:
        self.box = box

    async def handle_DATA(self, server: Any, session: Session, envelope: Envelope) -> str:
        if self.box.refuse:
            return "451 try again later"
        raw = envelope.original_content or envelope.content
        assert isinstance(raw, bytes)
        msg = message_from_bytes(raw, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        with self.box.lock:
            self.box.received.append(Received(str(envelope.mail_from), list(envelope.rcpt_tos), msg))
        return "250 OK"


class Mailbox:
    """An SMTP server on 127.0.0.1:``port`` collecting mails; ``refuse`` makes it answer 451 to every mail."""

    def __init__(self, port: int, **server: Any) -> None:
        """``server``: aiosmtpd's options (``tls_context`` and ``require_starttls`` for STARTTLS,
        ``ssl_context`` for implicit TLS, ``authenticator``…)."""
        self.port = port
        self.received: list[Received] = []
        self.lock = threading.Lock()
        self.refuse = False
        self.controller = Controller(_Handler(self), hostname="127.0.0.1", port=port, **server)

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.controller.start()

    def stop(self) -> None:
        self.controller.stop()

    def to(self, address: str) -> list[Received]:
        with self.lock:
            return [m for m in self.received if address in m.rcpt_tos]

    def wait_for(self, address: str, count: int = 1, timeout: float = 10.0) -> list[Received]:
        """The mails to ``address`` once there are ``count`` of them (AssertionError after ``timeout``)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.to(address)
            if len(found) >= count:
                return found
            time.sleep(0.02)
        raise AssertionError(f"{len(self.to(address))} mails to {address}, expected {count}")


async def wait_mails(box: Mailbox, address: str, count: int = 1) -> list[Received]:
    """:meth:`Mailbox.wait_for` without blocking the event loop the app's sender runs on."""
    return await asyncio.to_thread(box.wait_for, address, count)
