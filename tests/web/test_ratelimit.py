"""Throttling of logins and registrations (web/ratelimit.py): 429 ``rate_limited`` with Retry-After, per
username and per client IP, in memory or shared through Redis."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

import pytest
from httpx import ASGITransport, AsyncClient, Response

AppFactory = Callable[..., Any]

PW = "password123"


def client_of(app: Any, ip: str = "127.0.0.1") -> AsyncClient:
    """A client of ``app`` seen as coming from ``ip``."""
    return AsyncClient(transport=ASGITransport(app, client=(ip, 40000)), base_url="http://testserver")


async def register(c: AsyncClient, username: str) -> Response:
    return await c.post("/api/auth/register", json={"username": username, "password": PW})


async def login(c: AsyncClient, username: str, password: str) -> Response:
    return await c.post("/api/auth/login", json={"username": username, "password": password})


def assert_rate_limited(r: Response, window: int = 15 * 60) -> None:
    assert r.status_code == 429, r.text
    assert r.json()["code"] == "rate_limited" and r.json()["message"]
    assert 1 <= int(r.headers["retry-after"]) <= window


async def test_failed_logins_per_username_and_ip_are_limited(
    sqlite_url: str, app_factory: AppFactory
) -> None:
    limits = {"LOGIN_FAILURES_PER_USERNAME_IP": "3 per 15 minutes"}
    async with (
        app_factory(sqlite_url, **limits) as app,
        client_of(app) as c,
    ):
        assert (await register(c, "alice")).status_code == 201
        assert (await register(c, "bob")).status_code == 201
        for _ in range(3):
            assert (await login(c, "alice", "wrong-password")).status_code == 401
        assert_rate_limited(await login(c, "alice", "wrong-password"))
        assert_rate_limited(await login(c, "ALICE", PW))  # the guessing client, even right, in any case
        assert (await login(c, "bob", PW)).status_code == 200  # other names are not affected


async def test_ten_wrong_passwords_do_not_lock_the_owner_out(
    sqlite_url: str, app_factory: AppFactory
) -> None:
    """Issue 13 §1.6: ten wrong passwords for a name (the default limit) locked its owner out for 15 minutes,
    right password included. The owner, from a client with no failures, still logs in; the guesser not."""
    limits = {"LOGIN_FAILURES_PER_USERNAME_IP": "10 per 15 minutes"}
    async with (
        app_factory(sqlite_url, **limits) as app,
        client_of(app, "10.0.0.66") as guesser,
        client_of(app, "10.0.0.7") as owner,
    ):
        assert (await register(owner, "alice")).status_code == 201
        for i in range(10):
            assert (await login(guesser, "alice", f"wrong-password-{i}")).status_code == 401
        assert_rate_limited(await login(guesser, "alice", "wrong-password-x"))
        assert (await login(owner, "alice", PW)).status_code == 200


async def test_failed_logins_per_ip_are_limited(sqlite_url: str, app_factory: AppFactory) -> None:
    limits = {"LOGIN_FAILURES_PER_IP": "5 per 15 minutes"}
    async with (
        app_factory(sqlite_url, **limits) as app,
        client_of(app, "10.0.0.1") as attacker,
        client_of(app, "10.0.0.2") as member,
    ):
        assert (await register(member, "alice")).status_code == 201
        for i in range(5):
            assert (await login(attacker, f"guess{i}", "wrong-password")).status_code == 401
        assert_rate_limited(await login(attacker, "alice", PW))
        assert (await login(member, "alice", PW)).status_code == 200


async def test_successful_logins_are_not_counted(sqlite_url: str, app_factory: AppFactory) -> None:
    limits = {"LOGIN_FAILURES_PER_USERNAME_IP": "2 per 15 minutes"}
    async with app_factory(sqlite_url, **limits) as app, client_of(app) as c:
        await register(c, "alice")
        for _ in range(5):
            assert (await login(c, "alice", PW)).status_code == 200


async def test_wrong_old_passwords_count_as_failed_logins(sqlite_url: str, app_factory: AppFactory) -> None:
    limits = {"LOGIN_FAILURES_PER_USERNAME_IP": "2 per 15 minutes"}
    async with app_factory(sqlite_url, **limits) as app, client_of(app) as c:
        await register(c, "alice")
        body = {"old_password": "guess-guess", "new_password": "new-password-1"}
        for _ in range(2):
            assert (await c.post("/api/auth/password", json=body)).status_code == 403
        assert_rate_limited(await c.post("/api/auth/password", json={**body, "old_password": PW}))


async def test_registrations_per_ip_are_limited(sqlite_url: str, app_factory: AppFactory) -> None:
    limits = {"REGISTRATIONS_PER_IP": "2 per hour"}
    async with (
        app_factory(sqlite_url, **limits) as app,
        client_of(app, "10.0.0.1") as c,
        client_of(app, "10.0.0.2") as other,
    ):
        assert (await register(c, "alice")).status_code == 201
        assert (await register(c, "bob")).status_code == 201
        assert_rate_limited(await register(c, "carol"), window=3600)
        assert (await register(other, "carol")).status_code == 201


def test_limits_must_be_readable() -> None:
    from pydantic import ValidationError

    from duelclub.settings import Settings

    with pytest.raises(ValidationError):
        Settings(SECRET_KEY="x" * 40, DATABASE_URL="sqlite://", LOGIN_FAILURES_PER_IP="lots")


@pytest.mark.redis
async def test_two_workers_share_the_counters_through_redis(
    sqlite_url: str, app_factory: AppFactory, redis_url: str
) -> None:
    name = f"r{secrets.token_hex(6)}"  # the counters outlive this test in Redis
    limits = {"LOGIN_FAILURES_PER_USERNAME_IP": "2 per 15 minutes"}
    async with (
        app_factory(sqlite_url, redis_url, **limits) as w1,
        app_factory(sqlite_url, redis_url, **limits) as w2,
        client_of(w1) as c1,
        client_of(w2) as c2,
    ):
        assert (await register(c1, name)).status_code == 201
        assert (await login(c1, name, "wrong-password")).status_code == 401
        assert (await login(c2, name, "wrong-password")).status_code == 401
        assert_rate_limited(await login(c1, name, PW))  # the same client address on both workers
        assert_rate_limited(await login(c2, name, PW))
