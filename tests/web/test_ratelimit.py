"""Throttling of logins and registrations (web/ratelimit.py): 429 ``rate_limited`` with Retry-After, per
username and per client IP, in memory or shared through Redis; registrations with three budgets per IP
(accounts, failures, bursts) and a refusal that names the wait."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

import pytest
from httpx import ASGITransport, AsyncClient, Response
from limits.storage import memory as limits_memory

from duelclub.settings import Settings
from duelclub.web import ratelimit

AppFactory = Callable[..., Any]

PW = "password123"
# The registration limits as shipped (tests/conftest.py lifts them for the other tests).
REGISTRATION_DEFAULTS = {
    name: field.default for name, field in Settings.model_fields.items() if name.startswith("REGISTRATION")
}


class FakeClock:
    """The limiter's time source, moved by hand: ``limits``' memory storage and web/ratelimit.py read the
    time as ``time.time()`` of their module ``time``, which :func:`clock` replaces by this object."""

    def __init__(self) -> None:
        self.now = float(int(time.time()))  # whole seconds: the waits below are exact

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(limits_memory, "time", fake)
    monkeypatch.setattr(ratelimit, "time", fake)
    return fake


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

    with pytest.raises(ValidationError):
        Settings(SECRET_KEY="x" * 40, DATABASE_URL="sqlite://", LOGIN_FAILURES_PER_IP="lots")


def assert_registrations_refused(r: Response, minutes: int, lang: str = "ru") -> None:
    """A 429 whose message, in ``lang``, names the wait in minutes, as ``Retry-After`` does in seconds."""
    assert_rate_limited(r, window=3 * 3600)
    assert (minutes - 1) * 60 < int(r.headers["retry-after"]) <= minutes * 60 + 1
    assert (
        r.json()["message"]
        == {
            "ru": f"Слишком много попыток регистрации с этого адреса; попробуйте через {minutes} мин.",
            "uk": f"Забагато спроб реєстрації з цієї адреси; спробуйте через {minutes} хв.",
        }[lang]
    )


async def test_twenty_newcomers_spread_over_an_evening_all_register(
    sqlite_url: str, app_factory: AppFactory, clock: FakeClock
) -> None:
    """Issue 31 §5: a club evening behind one NAT (the club room's Wi-Fi is one address). Twenty newcomers
    come in groups of four every 20 minutes, 15 seconds apart, and in each group one first picks a name
    that is taken. With every attempt counted (10 an hour) the third group was refused; now all register."""
    async with (
        app_factory(sqlite_url, **REGISTRATION_DEFAULTS) as app,
        client_of(app, "10.0.0.1") as room,
        client_of(app, "10.0.0.2") as elsewhere,
    ):
        assert (await register(elsewhere, "veteran")).status_code == 201
        codes = []
        for group in range(5):
            for newcomer in range(4):
                if newcomer == 0:
                    codes.append((await register(room, "veteran")).status_code)
                    clock.advance(15)
                codes.append((await register(room, f"newcomer{group}_{newcomer}")).status_code)
                clock.advance(15)
            clock.advance(20 * 60)
        assert codes == [409, 201, 201, 201, 201] * 5


async def test_a_burst_of_registrations_is_refused_with_the_wait_named(
    sqlite_url: str, app_factory: AppFactory, clock: FakeClock
) -> None:
    """Every attempt counts against the burst limit (5 a minute): the 6th at once waits for the minute."""
    async with app_factory(sqlite_url, **REGISTRATION_DEFAULTS) as app, client_of(app) as c:
        for i in range(5):
            assert (await register(c, f"quick{i}")).status_code == 201
        assert_registrations_refused(await register(c, "quick5"), minutes=1)
        c.cookies.set("lang", "uk")
        refused = await register(c, "quick5")
        assert_registrations_refused(refused, minutes=1, lang="uk")
        assert refused.headers["retry-after"] == "61"
        clock.advance(int(refused.headers["retry-after"]))
        assert (await register(c, "quick5")).status_code == 201


async def test_a_run_of_failed_registrations_is_refused_for_the_rest_of_the_hour(
    sqlite_url: str, app_factory: AppFactory, clock: FakeClock
) -> None:
    """Failed attempts (a taken name, a bad name, a bad password) count strictly (10 an hour), validation
    failures too: after 10 in 20 minutes, even a good registration waits 40 minutes."""
    async with (
        app_factory(sqlite_url, **REGISTRATION_DEFAULTS) as app,
        client_of(app, "10.0.0.1") as c,
        client_of(app, "10.0.0.2") as elsewhere,
    ):
        assert (await register(elsewhere, "alice")).status_code == 201
        failures = [
            {"username": "alice", "password": PW},
            {"username": "a b", "password": PW},
            {"username": "bobby", "password": "short"},
        ]
        for i in range(10):
            r = await c.post("/api/auth/register", json=failures[i % 3])
            assert r.status_code in (409, 422), r.text
            clock.advance(120)
        refused = await register(c, "carol")
        assert_registrations_refused(refused, minutes=40)
        # the first failure counts until the end of the hour's last second
        assert refused.headers["retry-after"] == str(40 * 60 + 1)
        clock.advance(40 * 60 + 1)
        assert (await register(c, "carol")).status_code == 201


async def test_the_accounts_of_one_address_are_budgeted(
    sqlite_url: str, app_factory: AppFactory, clock: FakeClock
) -> None:
    """Accounts created count against ``REGISTRATIONS_PER_IP`` (failures do not); once it is used up the
    refusal names the wait until the oldest account leaves the window."""
    async with (
        app_factory(sqlite_url, **{**REGISTRATION_DEFAULTS, "REGISTRATIONS_PER_IP": "3 per 3 hours"}) as app,
        client_of(app) as c,
    ):
        for i in range(3):
            if i:
                assert (await register(c, f"member{i - 1}")).status_code == 409  # not an account
            assert (await register(c, f"member{i}")).status_code == 201
            clock.advance(30 * 60)
        assert_registrations_refused(await register(c, "member3"), minutes=90)
        clock.advance(90 * 60 + 1)
        assert (await register(c, "member3")).status_code == 201


@pytest.mark.redis
async def test_two_workers_share_the_registration_burst_through_redis(
    sqlite_url: str, app_factory: AppFactory, redis_url: str
) -> None:
    # the counters outlive this test in Redis: an address of its own
    ip = f"10.{secrets.randbelow(256)}.{secrets.randbelow(256)}.{secrets.randbelow(256)}"
    limits = {**REGISTRATION_DEFAULTS, "REGISTRATION_BURST_PER_IP": "3 per minute"}
    async with (
        app_factory(sqlite_url, redis_url, **limits) as w1,
        app_factory(sqlite_url, redis_url, **limits) as w2,
        client_of(w1, ip) as c1,
        client_of(w2, ip) as c2,
    ):
        for i, c in enumerate((c1, c2, c1)):
            assert (await register(c, f"r{secrets.token_hex(4)}{i}")).status_code == 201
        for c in (c2, c1):
            assert_registrations_refused(await register(c, f"r{secrets.token_hex(4)}"), minutes=1)


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
