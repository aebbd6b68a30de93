"""The mail sender (notify/sender.py, store/outbox.py): each mail once across workers, nothing lost while the
SMTP server is down, retries with a doubling backoff, the log transport and the admins' «Почта» page, and the
``SMTP_URL`` forms. The mails go to a real SMTP server in-process (tests/notify/smtp_box.py)."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Any

import pytest
from smtp_box import Mailbox
from sqlalchemy import select, update
from support import free_port

from duelclub.notify.sender import MailSender
from duelclub.notify.smtp import LogTransport, SmtpTransport, parse_smtp_url
from duelclub.store import outbox
from duelclub.store.db import Database
from duelclub.store.models import OutboxItem, User, utcnow


def _write(db: Database, count: int, *, prefix: str = "m") -> None:
    with db.session() as s:
        for i in range(count):
            notice = outbox.Notice(
                "email",
                "test",
                None,
                f"{prefix}{i}@mail.example",
                "ru",
                {"subject": f"№{i}", "text": "привет"},
            )
            assert outbox.enqueue(s, notice, utcnow())


def _sender(db: Database, transport: Any, **kw: Any) -> MailSender:
    return MailSender(db, transport, mail_from="Клуб <club@mail.example>", retry_seconds=30, **kw)


async def test_two_workers_send_each_mail_once(database_url: str, mailbox: Mailbox) -> None:
    _write(Database(database_url), 40)
    workers = [Database(database_url), Database(database_url)]
    senders = [_sender(db, SmtpTransport(parse_smtp_url(mailbox.url)), batch=3) for db in workers]

    async def drain(sender: MailSender) -> None:
        while await sender.run_once():
            pass

    await asyncio.gather(*(drain(s) for s in senders))
    ids = [m.message["Message-ID"] for m in mailbox.received]
    assert len(ids) == 40 and len(set(ids)) == 40
    assert sorted(r for m in mailbox.received for r in m.rcpt_tos) == sorted(
        f"m{i}@mail.example" for i in range(40)
    )
    assert all(s.sent > 0 for s in senders), [s.sent for s in senders]  # both took part
    with workers[0].session() as s:
        rows = s.scalars(select(OutboxItem)).all()
        assert {r.status for r in rows} == {"sent"} and all(r.payload["text"] == "" for r in rows)
    for db in workers:
        db.dispose()


async def test_a_mail_waits_while_the_server_is_down_and_goes_once_it_is_back(
    database_url: str, mailbox: Mailbox
) -> None:
    db = Database(database_url)
    _write(db, 1)
    down = _sender(db, SmtpTransport(parse_smtp_url(f"smtp://127.0.0.1:{free_port()}"), timeout=2))
    assert await down.run_once() == 1 and down.failures == 1
    mailbox.refuse = True  # a server that answers 451
    refused = _sender(db, SmtpTransport(parse_smtp_url(mailbox.url)))
    assert await refused.run_once() == 0  # not due yet: the backoff
    with db.session() as s:
        row = s.scalars(select(OutboxItem)).one()
        assert row.status == "queued" and row.attempts == 1 and "Connect" in (row.last_error or "")
        wait = (row.due_at - row.created_at).total_seconds()
        assert 29 <= wait <= 31
        s.execute(update(OutboxItem).values(due_at=utcnow() - timedelta(seconds=1)))
    assert await refused.run_once() == 1 and refused.failures == 1
    with db.session() as s:
        row = s.scalars(select(OutboxItem)).one()
        assert row.attempts == 2 and "451" in (row.last_error or "")
        assert 59 <= (row.due_at - utcnow()).total_seconds() <= 61  # doubled
        s.execute(update(OutboxItem).values(due_at=utcnow() - timedelta(seconds=1)))
    mailbox.refuse = False
    assert await refused.run_once() == 1
    assert len(mailbox.received) == 1 and mailbox.received[0].message["Subject"] == "№0"
    assert await refused.run_once() == 0
    db.dispose()


async def test_a_mail_is_given_up_after_the_last_try(sqlite_url: str) -> None:
    db = Database(sqlite_url)
    _write(db, 1)
    sender = _sender(
        db, SmtpTransport(parse_smtp_url(f"smtp://127.0.0.1:{free_port()}"), timeout=2), max_attempts=2
    )
    for _ in range(2):
        assert await sender.run_once() == 1
        with db.session() as s:
            s.execute(update(OutboxItem).values(due_at=utcnow() - timedelta(seconds=1)))
    assert await sender.run_once() == 0
    with db.session() as s:
        assert s.scalars(select(OutboxItem.status)).one() == "failed"
    db.dispose()


async def test_a_lost_lease_is_taken_by_another_worker(sqlite_url: str, mailbox: Mailbox) -> None:
    db = Database(sqlite_url)
    _write(db, 1)
    with db.session() as s:
        (claimed,) = outbox.claim(s, "dead-worker", utcnow(), 0.05)
    await asyncio.sleep(0.1)
    sender = _sender(db, SmtpTransport(parse_smtp_url(mailbox.url)))
    assert await sender.run_once() == 1  # the dead worker's lease ran out
    with db.session() as s:  # the dead worker's late mark changes nothing
        assert not outbox.mark_failed(
            s, claimed, utcnow(), "late", base_seconds=1, cap_seconds=1, max_attempts=5
        )
        assert s.scalars(select(OutboxItem.status)).one() == "sent"
    db.dispose()


def test_a_dedupe_key_writes_one_notice(db: Database) -> None:
    notice = outbox.Notice(
        "email", "turn", None, "a@mail.example", "ru", {"subject": "x"}, dedupe_key="turn:m1:7"
    )
    with db.session() as s:
        assert outbox.enqueue(s, notice, utcnow())
        assert not outbox.enqueue(s, notice, utcnow())
        assert len(s.scalars(select(OutboxItem)).all()) == 1


async def test_without_smtp_mails_go_to_the_log_and_the_admins_page(
    sqlite_url: str, app_factory: Any, caplog: pytest.LogCaptureFixture
) -> None:
    from httpx import ASGITransport, AsyncClient

    caplog.set_level(logging.INFO, logger="duelclub.mail")
    async with app_factory(sqlite_url, MAIL_POLL_SECONDS=0.1) as app:
        assert isinstance(app.state.mailer.transport, LogTransport)
        chief = AsyncClient(transport=ASGITransport(app), base_url="http://testserver")
        member = AsyncClient(transport=ASGITransport(app), base_url="http://testserver")
        for client, name in ((chief, "chief"), (member, "anna")):
            body = {"username": name, "password": "password123"}
            assert (await client.post("/api/auth/register", json=body)).status_code == 201
        with app.state.db.session() as s:
            s.execute(update(User).where(User.username == "chief").values(is_admin=True))
        r = await member.put("/api/me/email", json={"email": "anna@mail.example"})
        assert r.status_code == 200
        for _ in range(100):
            if "anna@mail.example" in caplog.text:
                break
            await asyncio.sleep(0.05)
        assert "mail (no SMTP_URL, not sent) to anna@mail.example" in caplog.text
        assert "/verify-email/" in caplog.text
        page = await chief.get("/admin/mail")
        assert page.status_code == 200
        assert "anna@mail.example" in page.text and "http://127.0.0.1:8000/verify-email/" in page.text
        assert "записано в журнал" in page.text
        assert (await member.get("/admin/mail")).status_code == 403
        await chief.aclose()
        await member.aclose()


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("smtp://mail.example", ("mail.example", 25, None, None, False, None)),
        ("smtp+starttls://u%40x:p%3Aw@mail.example", ("mail.example", 587, "u@x", "p:w", False, True)),
        ("smtps://user:secret@mail.example:2465", ("mail.example", 2465, "user", "secret", True, False)),
    ],
)
def test_smtp_url_forms(url: str, expected: tuple[Any, ...]) -> None:
    c = parse_smtp_url(url)
    assert (c.host, c.port, c.username, c.password, c.use_tls, c.start_tls) == expected
    assert "secret" not in repr(c)


@pytest.mark.parametrize("url", ["http://mail.example", "smtp://", "smtp://mail.example:99999"])
def test_bad_smtp_urls_are_refused(url: str) -> None:
    with pytest.raises(ValueError):
        parse_smtp_url(url)
