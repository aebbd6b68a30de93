"""Issue 28 §1–2 over the API, with the mails taken from a real SMTP server (tests/notify/smtp_box.py):
confirming an address, changing and removing it, and the password reset (API section exact)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from smtp_box import PUBLIC_URL, MailApp, Mailbox, wait_mails
from sqlalchemy import update

from duelclub.store.models import AccountToken, utcnow


async def _register(client: Any, name: str, email: str | None = None, **extra: Any) -> None:
    body: dict[str, Any] = {"username": name, "password": "password123", **extra}
    if email is not None:
        body["email"] = email
    r = await client.post("/api/auth/register", json=body)
    assert r.status_code == 201, r.text


async def _confirmed(client: Any, box: Mailbox, name: str, email: str) -> None:
    await _register(client, name, email)
    (mail,) = await wait_mails(box, email)
    r = await client.post("/api/auth/verify-email", json={"token": mail.token})
    assert r.status_code == 200, r.text


async def test_an_address_given_at_registration_is_confirmed_by_its_link(
    database_url: str, mail_app: MailApp, mailbox: Mailbox
) -> None:
    async with mail_app(database_url) as (_app, client):
        anna = client()
        await _register(anna, "anna", "Anna@Mail.example", email_notices=True)
        r = await anna.get("/api/me/email")
        assert r.json() == {"email": None, "email_pending": "Anna@Mail.example", "email_notices": "each"}
        (mail,) = await wait_mails(mailbox, "Anna@Mail.example")
        m = mail.message
        assert m["To"] == "Anna@Mail.example" and "noreply@localhost" in m["From"]
        assert m["Subject"] == "Подтвердите адрес почты — club.example"
        assert m["Content-Language"] == "ru" and m["Auto-Submitted"] == "auto-generated"
        assert m["Message-ID"].startswith("<duelclub.") and m["Date"]
        assert mail.link == f"{PUBLIC_URL}/verify-email/{mail.token}"
        assert "«anna»" in mail.text
        # the link works without a login, once
        r = await client().post("/api/auth/verify-email", json={"token": mail.token})
        assert r.status_code == 200 and r.json() == {"email": "Anna@Mail.example"}
        r = await anna.get("/api/me/email")
        assert r.json() == {"email": "Anna@Mail.example", "email_pending": None, "email_notices": "each"}
        r = await client().post("/api/auth/verify-email", json={"token": mail.token})
        assert r.status_code == 400 and r.json()["code"] == "bad_token"


async def test_mails_are_in_the_members_language(
    database_url: str, mail_app: MailApp, mailbox: Mailbox
) -> None:
    async with mail_app(database_url) as (_app, client):
        taras = client(cookie="lang=uk")
        await _register(taras, "taras", "taras@mail.example")
        (mail,) = await wait_mails(mailbox, "taras@mail.example")
        assert mail.message["Subject"] == "Підтвердьте адресу пошти — club.example"
        assert mail.message["Content-Language"] == "uk" and "Вітаємо" in mail.text
        await client().post("/api/auth/verify-email", json={"token": mail.token})
        # asked for in Russian, the reset mail still speaks the member's Ukrainian
        r = await client(**{"accept-language": "ru"}).post(
            "/api/auth/password-reset", json={"email": "taras@mail.example"}
        )
        assert r.status_code == 202
        _, reset = await wait_mails(mailbox, "taras@mail.example", 2)
        assert reset.message["Subject"] == "Скидання пароля — club.example"
        assert reset.link == f"{PUBLIC_URL}/reset/{reset.token}"
        # a script's bare registration tells no language; the header switcher does
        olena = client()
        await _register(olena, "olena", "olena@mail.example")
        (mail,) = await wait_mails(mailbox, "olena@mail.example")
        assert mail.message["Content-Language"] == "ru"
        await client().post("/api/auth/verify-email", json={"token": mail.token})
        assert (await olena.get("/lang/uk")).status_code == 303
        await client().post("/api/auth/password-reset", json={"email": "olena@mail.example"})
        _, reset = await wait_mails(mailbox, "olena@mail.example", 2)
        assert reset.message["Content-Language"] == "uk" and "Вітаємо, olena!" in reset.text


async def test_a_changed_address_is_confirmed_again_and_can_be_removed(
    database_url: str, mail_app: MailApp, mailbox: Mailbox
) -> None:
    async with mail_app(database_url) as (_app, client):
        anna = client()
        await _confirmed(anna, mailbox, "anna", "old@mail.example")
        r = await anna.put("/api/me/email", json={"email": "new@mail.example"})
        assert r.status_code == 200
        assert r.json()["email"] == "old@mail.example" and r.json()["email_pending"] == "new@mail.example"
        (first,) = await wait_mails(mailbox, "new@mail.example")
        r = await anna.put("/api/me/email", json={"email": "newer@mail.example"})
        (second,) = await wait_mails(mailbox, "newer@mail.example")
        # the superseded link no longer works; the latest does
        r = await client().post("/api/auth/verify-email", json={"token": first.token})
        assert r.status_code == 400
        r = await client().post("/api/auth/verify-email", json={"token": second.token})
        assert r.json() == {"email": "newer@mail.example"}
        r = await anna.put("/api/me/email", json={"email": None})
        assert r.json() == {"email": None, "email_pending": None, "email_notices": "off"}
        # a removed address gets no reset mail
        r = await client().post("/api/auth/password-reset", json={"email": "newer@mail.example"})
        assert r.status_code == 202
        await _settle(mail_app)
        assert len(mailbox.to("newer@mail.example")) == 1


async def _settle(_: Any) -> None:
    import asyncio

    await asyncio.sleep(0.5)  # longer than the sender's poll: anything written would have gone


async def test_an_address_confirmed_by_another_member_is_refused(
    database_url: str, mail_app: MailApp, mailbox: Mailbox
) -> None:
    async with mail_app(database_url) as (_app, client):
        await _confirmed(client(), mailbox, "anna", "shared@mail.example")
        boris = client()
        await _register(boris, "boris", "SHARED@mail.example")
        (mail,) = await wait_mails(mailbox, "SHARED@mail.example")
        r = await client().post("/api/auth/verify-email", json={"token": mail.token})
        assert r.status_code == 409 and r.json()["code"] == "email_taken"


async def test_password_reset_sets_the_password_once_and_ends_every_session(
    database_url: str, mail_app: MailApp, mailbox: Mailbox
) -> None:
    async with mail_app(database_url) as (_app, client):
        anna = client()
        await _confirmed(anna, mailbox, "anna", "anna@mail.example")
        other_device = client()
        r = await other_device.post("/api/auth/login", json={"username": "anna", "password": "password123"})
        assert r.status_code == 200
        stranger = client()
        r = await stranger.post("/api/auth/password-reset", json={"email": "ANNA@mail.example"})
        assert r.status_code == 202 and r.content == b""
        _, mail = await wait_mails(mailbox, "anna@mail.example", 2)
        assert mail.message["Subject"] == "Сброс пароля — club.example" and "«anna»" in mail.text
        # a bad new password leaves the link usable
        r = await stranger.post(
            "/api/auth/password-reset/confirm", json={"token": mail.token, "password": "x"}
        )
        assert r.status_code == 422 and r.json()["code"] == "bad_password"
        body = {"token": mail.token, "password": "brand-new-secret"}
        r = await stranger.post("/api/auth/password-reset/confirm", json=body)
        assert r.status_code == 200 and r.json() == {"username": "anna"}
        for device in (anna, other_device):
            assert (await device.get("/api/me")).status_code == 401
        r = await stranger.post("/api/auth/login", json={"username": "anna", "password": "password123"})
        assert r.status_code == 401
        r = await stranger.post("/api/auth/login", json={"username": "anna", "password": "brand-new-secret"})
        assert r.status_code == 200
        r = await client().post("/api/auth/password-reset/confirm", json=body)
        assert r.status_code == 400 and r.json()["code"] == "bad_token"


async def test_an_unknown_address_gets_the_same_answer_and_no_mail(
    database_url: str, mail_app: MailApp, mailbox: Mailbox
) -> None:
    async with mail_app(database_url) as (app, client):
        anna = client()
        await _register(anna, "anna", "pending@mail.example")  # never confirmed
        await wait_mails(mailbox, "pending@mail.example")
        known = await client().post("/api/auth/password-reset", json={"email": "pending@mail.example"})
        unknown = await client().post("/api/auth/password-reset", json={"email": "nobody@mail.example"})
        assert (known.status_code, known.content) == (unknown.status_code, unknown.content) == (202, b"")
        await _settle(app)
        assert mailbox.to("nobody@mail.example") == [] and len(mailbox.to("pending@mail.example")) == 1


async def test_expired_foreign_and_forged_tokens_are_refused(
    database_url: str, mail_app: MailApp, mailbox: Mailbox
) -> None:
    async with mail_app(database_url) as (app, client):
        anna = client()
        await _confirmed(anna, mailbox, "anna", "anna@mail.example")
        await client().post("/api/auth/password-reset", json={"email": "anna@mail.example"})
        await client().post("/api/auth/password-reset", json={"email": "anna@mail.example"})
        _, first, second = await wait_mails(mailbox, "anna@mail.example", 3)
        # a reset token is not a confirmation token, and a tampered one is nobody's
        r = await client().post("/api/auth/verify-email", json={"token": first.token})
        assert r.status_code == 400
        forged = first.token[:-2] + ("AA" if not first.token.endswith("AA") else "BB")
        r = await client().post(
            "/api/auth/password-reset/confirm", json={"token": forged, "password": "a-new-one-1"}
        )
        assert r.status_code == 400
        with app.state.db.session() as s:  # an hour later (PASSWORD_RESET_TTL_SECONDS)
            s.execute(update(AccountToken).values(expires_at=utcnow() - timedelta(seconds=1)))
        for mail in (first, second):
            body = {"token": mail.token, "password": "a-new-one-1"}
            r = await client().post("/api/auth/password-reset/confirm", json=body)
            assert r.status_code == 400 and r.json()["code"] == "bad_token"


@pytest.mark.parametrize(
    "address",
    ["not-an-address", "a@b", "a b@mail.example", "x@mail.example\r\nBcc: victim@mail.example",
     "x@mail.example\n", "<x@mail.example>", "a" * 65 + "@mail.example", "a@" + "b" * 250 + ".example"],
)  # fmt: skip
async def test_malformed_overlong_and_injected_addresses_are_refused(
    sqlite_url: str, mail_app: MailApp, mailbox: Mailbox, address: str
) -> None:
    async with mail_app(sqlite_url) as (_app, client):
        anna = client()
        r = await anna.post(
            "/api/auth/register", json={"username": "anna", "password": "password123", "email": address}
        )
        assert r.status_code == 422 and r.json()["code"] == "bad_email"
        await _register(anna, "anna")
        r = await anna.put("/api/me/email", json={"email": address})
        assert r.status_code == 422 and r.json()["code"] == "bad_email"
        r = await anna.post("/api/auth/password-reset", json={"email": address})
        assert r.status_code == 422 and r.json()["code"] == "bad_email"
        assert (await anna.get("/api/me/email")).json()["email_pending"] is None
        assert mailbox.received == []


async def test_reset_requests_are_rate_limited_per_address_and_per_ip(
    database_url: str, mail_app: MailApp, mailbox: Mailbox
) -> None:
    limits = {"MAIL_REQUESTS_PER_ADDRESS": "2 per hour", "MAIL_REQUESTS_PER_IP": "4 per hour"}
    async with mail_app(database_url, **limits) as (_app, client):
        c = client()
        codes = [
            (await c.post("/api/auth/password-reset", json={"email": "x@mail.example"})).status_code
            for _ in range(3)
        ]
        assert codes == [202, 202, 429]
        r = await c.post("/api/auth/password-reset", json={"email": "y@mail.example"})
        assert r.status_code == 202
        r = await c.post("/api/auth/password-reset", json={"email": "z@mail.example"})
        assert r.status_code == 202
        r = await c.post("/api/auth/password-reset", json={"email": "w@mail.example"})  # the IP's 5th
        assert r.status_code == 429 and r.json()["code"] == "rate_limited" and "Retry-After" in r.headers
