"""Turn notices through the running app (issue 28 §3): ``PUT /api/me/notices``, two app instances ("workers")
on one database mailing each waiting turn once and nothing to a member whose page is open (a real
``/ws/turns`` socket on the other worker), and the mails' one-click unsubscribe link: no login, signed (an
altered one is refused), RFC 8058 headers. Small settings (a turn waits 1 s, sweeps every 0.1 s) instead of
long sleeps; mails go to a real SMTP server in-process."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from httpx import AsyncClient
from smtp_box import PUBLIC_URL, MailApp, Mailbox, wait_mails
from sqlalchemy import update
from websockets.asyncio.client import connect

from duelclub.store.db import Database
from duelclub.store.models import User

PW = "password123"
FAST = {"NOTIFY_EMAIL_AFTER_SECONDS": 1, "NOTIFY_SWEEP_SECONDS": 0.1, "MAIL_POLL_SECONDS": 0.1}


async def member(c: AsyncClient, name: str, mode: str = "each") -> int:
    r = await c.post("/api/auth/register", json={"username": name, "password": PW})
    assert r.status_code == 201, r.text
    r = await c.put("/api/me/notices", json={"email": mode, "push": False})
    assert r.status_code == 200, r.text
    return int((await c.get("/api/me")).json()["id"])


def confirm(db: Database, user_id: int, address: str) -> None:
    """The member's address, as its confirmation link would have set it (tests/notify/test_mail_api.py
    covers the link)."""
    with db.session() as s:
        s.execute(update(User).where(User.id == user_id).values(email=address, email_key=address))


async def started(a: AsyncClient, b: AsyncClient) -> str:
    r = await a.post("/api/matches", json={"game": "duel", "vs": "invite", "options": {}})
    assert r.status_code == 201, r.text
    r = await b.post(f"/api/invites/{r.json()['invite_token']}/accept", json={})
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


async def first_move(mid: str, *players: AsyncClient) -> AsyncClient:
    """The player to move moves; the client of the one who now waits."""
    for c in players:
        st = (await c.get(f"/api/matches/{mid}/state")).json()
        if st["legal"]:
            r = await c.post(
                f"/api/matches/{mid}/actions", json={"id": "m1", "seq": st["seq"], "action": st["legal"][0]}
            )
            assert r.status_code == 200, r.text
            break
    for c in players:
        if (await c.get(f"/api/matches/{mid}/state")).json()["legal"]:
            return c
    raise AssertionError("nobody waits")


async def test_notice_choices_are_stored_and_checked(mail_app: MailApp, sqlite_url: str) -> None:
    async with mail_app(sqlite_url) as (_app, client):
        c = client()
        assert (await c.get("/api/me/notices")).status_code == 401
        r = await c.post(
            "/api/auth/register",
            json={"username": "anna", "password": PW, "email": "anna@mail.example", "email_notices": True},
        )
        assert r.status_code == 201, r.text
        assert (await c.get("/api/me/notices")).json() == {"email": "each", "push": False, "has_email": False}
        r = await c.put("/api/me/notices", json={"email": "digest", "push": True})
        assert r.json() == {"email": "digest", "push": True, "has_email": False}
        for bad in ({"email": "weekly", "push": False}, {"email": "off"}, {"email": "off", "push": "x"}):
            assert (await c.put("/api/me/notices", json=bad)).status_code == 422, bad
        assert (await c.get("/api/me/notices")).json()["email"] == "digest"


async def test_two_workers_mail_each_waiting_turn_once_and_none_to_an_open_page(
    database_url: str, mailbox: Mailbox, server_factory: Callable[..., Any]
) -> None:
    # a turn waits 3 s: more than the two requests between a match's start and its first move, whatever the
    # machine's load (a member to move from the start who does not is owed a notice too)
    settings = {"SMTP_URL": mailbox.url, "PUBLIC_URL": PUBLIC_URL, **FAST, "NOTIFY_EMAIL_AFTER_SECONDS": 3}
    async with (
        server_factory(database_url, **settings) as one,
        server_factory(database_url, **settings) as two,
    ):
        db: Database = one.app.state.db
        clients = [AsyncClient(base_url=(one if n % 2 else two).http) for n in range(4)]
        names = ["anna", "boris", "vera", "gleb"]
        ids = [await member(c, n) for c, n in zip(clients, names, strict=True)]
        for uid, name in zip(ids, names, strict=True):
            confirm(db, uid, f"{name}@mail.example")
        async with contextlib.AsyncExitStack() as pages:
            for c in clients[:2]:  # both players of «watched» have a page open, on the other worker
                cookie = {"Cookie": f"duelclub_session={c.cookies['duelclub_session']}"}
                ws = await pages.enter_async_context(connect(f"{two.ws}/ws/turns", additional_headers=cookie))
                await ws.recv()  # the badge's first count: the socket is open (and seen)
            watched = await started(clients[0], clients[1])
            await first_move(watched, clients[0], clients[1])
            away = await started(clients[2], clients[3])
            waiting = await first_move(away, clients[2], clients[3])
            address = f"{names[clients.index(waiting)]}@mail.example"
            (mail,) = await wait_mails(mailbox, address)
            await asyncio.sleep(1.5)  # many more sweeps of both workers
            assert len(mailbox.to(address)) == 1
            assert [m.rcpt_tos for m in mailbox.received] == [[address]]  # none to an open page
        assert f"{PUBLIC_URL}/matches/{away}" in mail.text
        for c in clients:
            await c.aclose()


async def test_the_unsubscribe_link_works_without_login_and_only_as_signed(
    mail_app: MailApp, sqlite_url: str, mailbox: Mailbox
) -> None:
    async with mail_app(sqlite_url, **FAST) as (app, client):
        a, b = client(), client()
        ids = [await member(a, "anna"), await member(b, "boris")]
        for uid, name in zip(ids, ("anna", "boris"), strict=True):
            confirm(app.state.db, uid, f"{name}@mail.example")
        mid = await started(a, b)
        waiting = await first_move(mid, a, b)
        address = "anna@mail.example" if waiting is a else "boris@mail.example"
        (mail,) = await wait_mails(mailbox, address)
        link = mail.message["List-Unsubscribe"].strip("<>")
        assert mail.message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert link.startswith(f"{PUBLIC_URL}/unsubscribe/") and link in mail.text
        path = urlsplit(link).path
        stranger = client()  # no session, no origin: a mail provider's one-click POST
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        uid, mac = path.rsplit("/", 1)[1].split(".")
        tampered = f"/unsubscribe/{uid}.{mac[:-1]}{'A' if mac[-1] != 'A' else 'B'}"
        someone_else = f"/unsubscribe/{ids[0] if int(uid) == ids[1] else ids[1]}.{mac}"
        for bad in (tampered, someone_else, "/unsubscribe/nothing", f"/unsubscribe/{uid}"):
            r = await stranger.post(bad, content="List-Unsubscribe=One-Click", headers=form)
            assert r.status_code == 400, bad
            assert (await stranger.get(bad)).status_code == 400, bad
        assert (await waiting.get("/api/me/notices")).json()["email"] == "each"
        page = await stranger.get(path)  # opening the link changes nothing
        assert page.status_code == 200 and 'id="unsubscribe-form"' in page.text
        assert (await waiting.get("/api/me/notices")).json()["email"] == "each"
        r = await stranger.post(path, content="List-Unsubscribe=One-Click", headers=form)
        assert r.status_code == 200 and 'id="unsubscribe-done"' in r.text
        assert (await waiting.get("/api/me/notices")).json()["email"] == "off"
        other_member = b if waiting is a else a
        assert (await other_member.get("/api/me/notices")).json()["email"] == "each"


async def test_the_account_page_shows_the_choice_and_registration_offers_it(
    mail_app: MailApp, sqlite_url: str
) -> None:
    async with mail_app(sqlite_url, NOTIFY_EMAIL_AFTER_SECONDS=3 * 3600) as (_app, client):
        c = client()
        assert 'id="email-notices"' in (await c.get("/register")).text
        await member(c, "anna", "digest")
        page = (await c.get("/account")).text
        assert 'id="notices-email"' in page and '<option value="digest" selected>' in page
        assert "3 ч." in page  # NOTIFY_EMAIL_AFTER_SECONDS in words
        assert '<option value="each" selected>' not in page
