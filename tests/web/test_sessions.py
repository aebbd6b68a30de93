"""Server-side sessions: logout ends a session for good, «log out everywhere», password changes
(DESIGN.md §Web — cookie sessions; store/sessions.py)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from httpx import AsyncClient
from sqlalchemy import select, update

from duelclub.store.models import UserSession, utcnow

PW = "password123"
NEW_PW = "a-new-password-456"
ClientFactory = Callable[[], AsyncClient]


def cookie_of(c: AsyncClient) -> str:
    return str(c.cookies["duelclub_session"])


def with_cookie(client_factory: ClientFactory, cookie: str) -> AsyncClient:
    c = client_factory()
    c.cookies.set("duelclub_session", cookie)
    return c


async def login(client_factory: ClientFactory, username: str, password: str = PW) -> AsyncClient:
    c = client_factory()
    r = await c.post("/api/auth/login", json={"username": username, "password": password})
    assert r.status_code == 200, r.text
    return c


async def test_a_logged_out_cookie_replayed_is_401(alice: AsyncClient, client_factory: ClientFactory) -> None:
    stolen = cookie_of(alice)
    assert (await with_cookie(client_factory, stolen).get("/api/me")).status_code == 200
    assert (await alice.post("/api/auth/logout", json={})).status_code == 204
    replay = with_cookie(client_factory, stolen)
    r = await replay.get("/api/me")
    assert r.status_code == 401 and r.json()["code"] == "not_authenticated"
    r = await replay.post("/api/matches", json={"game": "duel", "vs": "invite"})
    assert r.status_code == 401


async def test_logout_all_ends_the_sessions_of_other_clients(
    alice: AsyncClient, client_factory: ClientFactory
) -> None:
    laptop = await login(client_factory, "alice")
    phone = await login(client_factory, "alice")
    bob = client_factory()
    assert (await bob.post("/api/auth/register", json={"username": "bob", "password": PW})).status_code == 201
    r = await phone.post("/api/auth/logout-all", json={})
    assert r.status_code == 204
    for c in (alice, laptop, phone):
        assert (await c.get("/api/me")).status_code == 401
    assert (await bob.get("/api/me")).status_code == 200  # other users are untouched
    assert (await client_factory().post("/api/auth/logout-all", json={})).status_code == 401


async def test_password_change_works_and_ends_the_other_sessions(
    alice: AsyncClient, client_factory: ClientFactory
) -> None:
    other = await login(client_factory, "alice")
    r = await alice.post("/api/auth/password", json={"old_password": PW, "new_password": NEW_PW})
    assert r.status_code == 204, r.text
    assert (await alice.get("/api/me")).status_code == 200  # this session stays
    assert (await other.get("/api/me")).status_code == 401
    r = await client_factory().post("/api/auth/login", json={"username": "alice", "password": PW})
    assert r.status_code == 401 and r.json()["code"] == "bad_credentials"
    await login(client_factory, "alice", NEW_PW)


async def test_password_change_needs_the_old_password_and_a_good_new_one(alice: AsyncClient) -> None:
    r = await alice.post("/api/auth/password", json={"old_password": "nope-nope", "new_password": NEW_PW})
    assert r.status_code == 403 and r.json()["code"] == "wrong_password"
    r = await alice.post("/api/auth/password", json={"old_password": PW, "new_password": " " * 10})
    assert r.status_code == 422 and r.json()["code"] == "bad_password" and r.json()["message"]
    r = await alice.post("/api/auth/password", json={"old_password": PW})
    assert r.status_code == 422 and r.json()["code"] == "malformed"


async def test_a_new_password_must_differ_from_the_old_one_and_not_hold_the_name(alice: AsyncClient) -> None:
    r = await alice.post("/api/auth/password", json={"old_password": PW, "new_password": PW})
    assert r.status_code == 422 and r.json()["code"] == "bad_password"
    r = await alice.post("/api/auth/password", json={"old_password": PW, "new_password": "ALICE-2026!"})
    assert r.status_code == 422 and r.json()["code"] == "bad_password"
    assert "имя" in r.json()["message"]


async def test_password_change_needs_a_session(client_factory: ClientFactory) -> None:
    r = await client_factory().post("/api/auth/password", json={"old_password": PW, "new_password": NEW_PW})
    assert r.status_code == 401


async def test_the_database_holds_only_the_hash_of_the_session_id(app: Any, alice: AsyncClient) -> None:
    with app.state.db.session() as s:
        rows = list(s.scalars(select(UserSession)))
    assert len(rows) == 1
    row = rows[0]
    cookie = cookie_of(alice)
    assert row.token_hash not in cookie
    assert len(row.token_hash) == 64 and row.created_at <= row.last_seen_at < row.expires_at
    assert row.expires_at - row.created_at == timedelta(days=30)


async def test_an_expired_session_is_anonymous(app: Any, alice: AsyncClient) -> None:
    with app.state.db.session() as s:
        s.execute(update(UserSession).values(expires_at=utcnow() - timedelta(seconds=1)))
    assert (await alice.get("/api/me")).status_code == 401
    page = await alice.get("/")
    assert page.status_code == 200 and 'href="/login"' in page.text


async def test_a_new_login_ends_the_session_the_cookie_had(
    app: Any, alice: AsyncClient, client_factory: ClientFactory
) -> None:
    before = cookie_of(alice)
    r = await alice.post("/api/auth/login", json={"username": "alice", "password": PW})
    assert r.status_code == 200
    assert cookie_of(alice) != before
    assert (await with_cookie(client_factory, before).get("/api/me")).status_code == 401
    with app.state.db.session() as s:
        assert len(list(s.scalars(select(UserSession)))) == 1


async def test_an_old_style_user_id_cookie_is_not_a_session(app: Any, client_factory: ClientFactory) -> None:
    """The previous cookie held ``{"uid": n}`` and could not be revoked: it no longer logs anyone in."""
    import base64
    import json

    from itsdangerous import TimestampSigner

    await (client_factory()).post("/api/auth/register", json={"username": "alice", "password": PW})
    signer = TimestampSigner(app.state.settings.SECRET_KEY)
    forged = signer.sign(base64.b64encode(json.dumps({"uid": 1}).encode())).decode()
    assert (await with_cookie(client_factory, forged).get("/api/me")).status_code == 401
