"""The TLS forms of ``SMTP_URL`` against a real server in-process (aiosmtpd) with a self-signed certificate
made by ``openssl`` for 127.0.0.1: ``smtp+starttls://`` with a login (the password percent-encoded),
``smtps://`` (implicit TLS), the certificate checked against ``SMTP_CA_FILE``, and refused without it."""

from __future__ import annotations

import shutil
import ssl
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.smtp import AuthResult, LoginPassword
from smtp_box import Mailbox
from sqlalchemy import select
from support import free_port

from duelclub.notify.sender import MailSender
from duelclub.notify.smtp import transport_for
from duelclub.store import outbox
from duelclub.store.db import Database
from duelclub.store.models import OutboxItem, utcnow

PASSWORD = "p:w@d/1"


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    d = tmp_path_factory.mktemp("tls")
    cert, key = d / "cert.pem", d / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


def _context(certificate: tuple[Path, Path]) -> ssl.SSLContext:
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(*map(str, certificate))
    return ctx


def _login(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
    ok = isinstance(data, LoginPassword) and (data.login, data.password) == (b"club", PASSWORD.encode())
    return AuthResult(success=ok)


@pytest.fixture
def starttls_box(certificate: tuple[Path, Path]) -> Iterator[Mailbox]:
    box = Mailbox(
        free_port(), tls_context=_context(certificate), require_starttls=True, authenticator=_login,
        auth_required=True,
    )  # fmt: skip
    box.start()
    yield box
    box.stop()


@pytest.fixture
def smtps_box(certificate: tuple[Path, Path]) -> Iterator[Mailbox]:
    box = Mailbox(free_port(), ssl_context=_context(certificate))
    box.start()
    yield box
    box.stop()


async def _send_one(sqlite_url: str, url: str, ca_file: str | None) -> str:
    db = Database(sqlite_url)
    with db.session() as s:
        notice = outbox.Notice(
            "email", "test", None, "anna@mail.example", "uk", {"subject": "Тест", "text": "x"}
        )
        outbox.enqueue(s, notice, utcnow())
    sender = MailSender(db, transport_for(url, ca_file), mail_from="club@mail.example")
    await sender.run_once()
    with db.session() as s:
        status = s.scalars(select(OutboxItem.status)).one()
    db.dispose()
    return status


async def test_starttls_with_a_login(sqlite_url: str, starttls_box: Mailbox, certificate: Any) -> None:
    url = f"smtp+starttls://club:p%3Aw%40d%2F1@127.0.0.1:{starttls_box.port}"
    assert await _send_one(sqlite_url, url, str(certificate[0])) == "sent"
    (mail,) = starttls_box.received
    assert mail.rcpt_tos == ["anna@mail.example"] and mail.message["Subject"] == "Тест"


async def test_a_wrong_password_is_a_failed_try(
    sqlite_url: str, starttls_box: Mailbox, certificate: Any
) -> None:
    url = f"smtp+starttls://club:nope@127.0.0.1:{starttls_box.port}"
    assert await _send_one(sqlite_url, url, str(certificate[0])) == "queued"  # retried later
    assert starttls_box.received == []


async def test_implicit_tls(sqlite_url: str, smtps_box: Mailbox, certificate: Any) -> None:
    assert await _send_one(sqlite_url, f"smtps://127.0.0.1:{smtps_box.port}", str(certificate[0])) == "sent"
    assert len(smtps_box.received) == 1


async def test_an_unknown_certificate_is_refused(sqlite_url: str, smtps_box: Mailbox) -> None:
    assert await _send_one(sqlite_url, f"smtps://127.0.0.1:{smtps_box.port}", None) == "queued"
    assert smtps_box.received == []
