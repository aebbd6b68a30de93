"""``SMTP_URL`` and the mail transports (issue 28 §Real parts).

URL forms (user and password percent-encoded, both optional):

- ``smtp://[user:password@]host[:port]`` — port 25 by default; STARTTLS when the server offers it
  (aiosmtplib's default), plain otherwise;
- ``smtp+starttls://…`` — STARTTLS required (the send fails if the server does not offer it); port 587;
- ``smtps://…`` — TLS from the first byte (implicit TLS); port 465.

The server's certificate is always verified: against the system's CAs, or the bundle ``SMTP_CA_FILE`` names
(a club's own CA or a self-signed server).

:class:`SmtpTransport` sends with aiosmtplib, one connection per batch of mails; :class:`LogTransport` (no
``SMTP_URL``, the embedded default) writes each mail to the log and sends nothing: the admins' «Почта» page
(/admin/mail) then shows the mails as they would have gone.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Protocol
from urllib.parse import unquote, urlsplit

import aiosmtplib

log = logging.getLogger("duelclub.mail")

_DEFAULT_PORTS = {"smtp": 25, "smtp+starttls": 587, "smtps": 465}
SEND_TIMEOUT_SECONDS = 30.0
"""aiosmtplib's timeout per operation (well below MAIL_LEASE_SECONDS, so a lease never runs out mid-send)."""


@dataclass(frozen=True)
class SmtpConfig:
    """A parsed ``SMTP_URL``; ``start_tls``: None = if offered, True = required; ``use_tls``: implicit."""

    host: str
    port: int
    username: str | None
    password: str | None
    use_tls: bool
    start_tls: bool | None

    def __repr__(self) -> str:  # never the password
        return f"SmtpConfig(host={self.host!r}, port={self.port}, user={self.username!r}, tls={self.use_tls})"


def parse_smtp_url(url: str) -> SmtpConfig:
    """The settings of ``url`` (module docstring); raises ValueError on another scheme, no host, a bad
    port."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        raise ValueError("SMTP_URL must start with smtp://, smtp+starttls:// or smtps://")
    if not parts.hostname:
        raise ValueError("SMTP_URL has no host")
    try:
        port = parts.port or _DEFAULT_PORTS[scheme]
    except ValueError:
        raise ValueError("SMTP_URL has a bad port") from None
    return SmtpConfig(
        host=parts.hostname,
        port=port,
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password is not None else None,
        use_tls=scheme == "smtps",
        start_tls=True if scheme == "smtp+starttls" else (False if scheme == "smtps" else None),
    )


class Transport(Protocol):
    """Sends mails; ``send`` raises on failure (the sender then retries the mail later)."""

    name: str

    async def send(self, message: EmailMessage) -> None: ...


class SmtpTransport:
    """Sends through an SMTP server with aiosmtplib."""

    name = "smtp"

    def __init__(
        self, config: SmtpConfig, *, timeout: float = SEND_TIMEOUT_SECONDS, ca_file: str | None = None
    ) -> None:
        self.config = config
        self.timeout = timeout
        self.ca_file = ca_file

    async def send(self, message: EmailMessage) -> None:
        c = self.config
        await aiosmtplib.send(
            message,
            hostname=c.host,
            port=c.port,
            username=c.username,
            password=c.password,
            use_tls=c.use_tls,
            start_tls=c.start_tls,
            timeout=self.timeout,
            cert_bundle=self.ca_file,
        )


class LogTransport:
    """No SMTP server: the mail is written to the log (INFO, logger ``duelclub.mail``) and kept in the
    outbox for the «Почта» page."""

    name = "log"

    async def send(self, message: EmailMessage) -> None:
        body = message.get_body(("plain",))
        text = body.get_content() if body is not None else ""
        to, subject = message["To"], message["Subject"]
        log.info("mail (no SMTP_URL, not sent) to %s: %s\n%s", to, subject, str(text).rstrip())


def transport_for(smtp_url: str | None, ca_file: str | None = None) -> Transport:
    """:class:`SmtpTransport` for a configured ``SMTP_URL`` (the server's certificate checked against the
    system's CAs, or ``SMTP_CA_FILE``), else :class:`LogTransport`."""
    return SmtpTransport(parse_smtp_url(smtp_url), ca_file=ca_file) if smtp_url else LogTransport()
