"""Hostile input gets a clean 4xx, never a 500 (issue 13 §1.3, §1.7-8): NUL and other control characters in
ids, tokens and queries, NUL and lone surrogates in JSON bodies, reserved usernames, and proxies."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from httpx import ASGITransport, AsyncClient

PW = "password123"
CONTROL = ["%00", "a%00b", "%01", "x%1F", "%7F", "%0A"]
ID_ROUTES = [
    ("GET", "/api/matches/{x}"),
    ("GET", "/api/matches/{x}/state"),
    ("GET", "/api/matches/{x}/log"),
    ("GET", "/api/matches/{x}/presence"),
    ("POST", "/api/matches/{x}/actions"),
    ("POST", "/api/matches/{x}/claim"),
    ("POST", "/api/matches/{x}/rematch"),
    ("DELETE", "/api/matches/{x}"),
    ("GET", "/api/invites/{x}"),
    ("POST", "/api/invites/{x}/accept"),
    ("POST", "/api/challenges/{x}/accept"),
    ("DELETE", "/api/challenges/{x}"),
    ("GET", "/api/admin/matches/{x}/log"),
    ("GET", "/api/admin/matches/{x}/replay"),
    ("POST", "/api/admin/matches/{x}/abort"),
    ("GET", "/matches/{x}"),
    ("GET", "/matches/{x}/verify"),
    ("GET", "/invite/{x}"),
    ("GET", "/admin/matches/{x}"),
]


async def member(app: Any, name: str) -> AsyncClient:
    c = AsyncClient(transport=ASGITransport(app), base_url="http://testserver")
    r = await c.post("/api/auth/register", json={"username": name, "password": PW})
    assert r.status_code == 201, r.text
    return c


async def test_control_characters_in_ids_and_tokens_are_404_never_500(
    database_url: str, app_factory: Callable[..., Any]
) -> None:
    """``GET /api/matches/%00`` was a 500 on PostgreSQL, and so was every route taking an id or a token."""
    async with app_factory(database_url) as app:
        c = await member(app, "alice")
        try:
            for method, route in ID_ROUTES:
                for bad in CONTROL:
                    body = {"id": "a", "seq": 0, "action": {}} if route.endswith("actions") else {}
                    r = await c.request(method, route.format(x=bad), json=body if method != "GET" else None)
                    assert r.status_code == 404, (method, route, bad, r.status_code, r.text)
                    assert r.json()["code"] == "not_found"
        finally:
            await c.aclose()


async def test_control_characters_in_api_queries_are_422(
    database_url: str, app_factory: Callable[..., Any]
) -> None:
    async with app_factory(database_url) as app:
        c = await member(app, "alice")
        try:
            for query in ("game=%00", "game=a%01", "game=%7f"):
                r = await c.get(f"/api/challenges?{query}")
                assert r.status_code == 422 and r.json()["code"] == "malformed", (query, r.text)
            r = await c.get("/api/admin/matches?user=%00")
            assert r.status_code in (403, 422), r.text
        finally:
            await c.aclose()


@pytest.mark.parametrize(
    "raw",
    [
        '{"game": "duel", "vs": "invite", "client_seed": "a\\u0000b"}',
        '{"game": "duel", "vs": "invite", "client_seed": "\\ud800"}',
        '{"game": "duel\\u0000", "vs": "invite"}',
        '{"game": "duel", "vs": "invite", "options": {"\\udfff": 1}}',
    ],
)
async def test_nul_and_lone_surrogates_in_bodies_are_422_and_store_nothing(
    database_url: str, app_factory: Callable[..., Any], raw: str
) -> None:
    async with app_factory(database_url) as app:
        c = await member(app, "alice")
        try:
            headers = {"content-type": "application/json"}
            r = await c.post("/api/matches", content=raw.encode(), headers=headers)
            assert r.status_code == 422 and r.json()["code"] == "malformed", r.text
            assert (await c.get("/api/matches")).json() == []
            login = '{"username": "alice", "password": "\\ud800password"}'
            r = await c.post("/api/auth/login", content=login.encode(), headers=headers)
            assert r.status_code == 422, r.text
        finally:
            await c.aclose()


@pytest.mark.parametrize(
    "name", ["admin", "Admin", "аdmin", "administrator", "root", "system", "support", "moderator", "бот",
             "Бот", "bot", "bot-easy", "hard", "Сильный", "my_bot", "модератор"]
)  # fmt: skip
async def test_reserved_usernames_cannot_be_registered(client_factory: Callable[[], Any], name: str) -> None:
    r = await client_factory().post("/api/auth/register", json={"username": name, "password": PW})
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "bad_username"


async def test_ordinary_names_near_reserved_ones_are_fine(client_factory: Callable[[], Any]) -> None:
    for name in ("botanik", "robotnik", "adminka2", "rooty"):
        r = await client_factory().post("/api/auth/register", json={"username": name, "password": PW})
        assert r.status_code == 201, (name, r.text)


def test_create_admin_may_still_name_an_admin_admin(sqlite_url: str) -> None:
    from duelclub.store import users
    from duelclub.store.db import Database

    db = Database(sqlite_url)
    try:
        with db.session() as s:
            user = users.create_user(s, "admin", PW, is_admin=True, allow_reserved=True)
            assert user.username == "admin"
    finally:
        db.dispose()


async def _client_seen_by_app(options: dict[str, Any]) -> str:
    """The client address an app sees behind ``duelclub serve``'s uvicorn options, for a request from
    127.0.0.1 carrying ``X-Forwarded-For: 203.0.113.9``."""
    import uvicorn

    seen: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            seen.append(scope["client"][0])
            await send({"type": "http.response.start", "status": 204, "headers": []})
            await send({"type": "http.response.body", "body": b""})

    config = uvicorn.Config(app, **options)
    config.load()
    transport = ASGITransport(config.loaded_app, client=("127.0.0.1", 5000))
    async with AsyncClient(transport=transport, base_url="http://testserver") as c:
        await c.get("/", headers={"x-forwarded-for": "203.0.113.9"})
    return seen[0]


async def test_forwarded_for_is_ignored_unless_a_proxy_is_configured(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """uvicorn believes X-Forwarded-For from 127.0.0.1 by default: a local client could dodge the per-IP
    limits. ``duelclub serve`` believes it only from ``FORWARDED_ALLOW_IPS`` (empty by default)."""
    from duelclub.cli import uvicorn_options
    from duelclub.settings import Settings

    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    base = {"DATABASE_URL": "sqlite://", "SECRET_KEY": "x" * 40, "VAR_DIR": tmp_path}
    assert await _client_seen_by_app(uvicorn_options(Settings(**base))) == "127.0.0.1"
    trusted = uvicorn_options(Settings(**base, FORWARDED_ALLOW_IPS="127.0.0.1"))
    assert await _client_seen_by_app(trusted) == "203.0.113.9"
