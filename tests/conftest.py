"""Shared fixtures for the server tests (store/, play/, web/): a tiny fake game, databases, apps, clients.

- ``Duel`` (slug ``duel``, in tests/play/duel_fake.py) is a three-card fake game with hidden hands, a
  seeded deal, a pause where both seats may act (like Mezha D17) and resignation.
- ``database_url`` is parametrized over SQLite and PostgreSQL (127.0.0.1:5432, database ``test``); when a
  service (PostgreSQL, Redis) is unreachable its tests skip with a loud reason, and the terminal summary
  ends with a banner listing them.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
import uvicorn
from argon2 import PasswordHasher
from fastapi import FastAPI
from httpx import ASGITransport, AsyncClient

from duelclub.bus import MemoryBus
from duelclub.cli import uvicorn_options
from duelclub.play.ownership import Leases
from duelclub.play.service import MatchService
from duelclub.settings import Settings
from duelclub.store import users
from duelclub.store.db import Database
from duelclub.store.migrate import upgrade
from duelclub.web.app import create_app

sys.path.insert(0, str(Path(__file__).parent / "play"))  # the fake game is a helper module, not a package
from duel_fake import DUEL, Duel, FirstLegalBot
from support import fake_games, free_port

# Overridable to point the service-backed tests elsewhere (or nowhere, to see the skip banner).
PG_URL = os.environ.get("DUELCLUB_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
PG_DSN = PG_URL.replace("postgresql+psycopg://", "postgresql://")
REDIS_URL = os.environ.get("DUELCLUB_TEST_REDIS", "redis://127.0.0.1:6379/0")
# The tests pick their own data directories (several still by the older name VAR_DIR, which DATA_DIR would
# override in the servers they start): never the developer's.
os.environ.pop("DATA_DIR", None)


# -- the fake game (tests/play/duel_fake.py) -------------------------------------------------------
def fake_bot_factory(slug: str, level: str) -> Any:
    if slug == "duel":
        return FirstLegalBot()
    from duelclub.bots.registry import make_bot

    return make_bot(slug, level, think_seconds=0.05)


@pytest.fixture
def duel() -> Duel:
    return DUEL


# -- services: PostgreSQL, Redis, and the loud banner -----------------------------------------------
_availability: dict[str, str | None] = {}
_service_skips: list[tuple[str, str]] = []


def _probe(name: str, check: Callable[[], None]) -> str | None:
    if name not in _availability:
        try:
            check()
            _availability[name] = None
        except Exception as exc:
            _availability[name] = " ".join(f"{type(exc).__name__}: {exc}".split())[:160]
    return _availability[name]


def _check_pg() -> None:
    psycopg.connect(PG_DSN, connect_timeout=3).close()


def _check_redis() -> None:
    import redis

    redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()


def require_postgres() -> None:
    """Skip (loudly) unless PostgreSQL answers at PG_DSN."""
    error = _probe("postgres", _check_pg)
    if error:
        pytest.skip(f"!!! PostgreSQL unreachable at {PG_DSN} ({error}): PostgreSQL test NOT RUN")


def require_redis() -> None:
    """Skip (loudly) unless Redis answers at REDIS_URL."""
    error = _probe("redis", _check_redis)
    if error:
        pytest.skip(f"!!! Redis unreachable at {REDIS_URL} ({error}): Redis test NOT RUN")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped and ("postgres" in report.keywords or "redis" in report.keywords):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        _service_skips.append((report.nodeid, str(reason)))


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_terminal_summary(terminalreporter: Any) -> Iterator[None]:
    """After pytest's own summary: a red banner naming every service-backed test that did not run."""
    yield
    if not _service_skips:
        return
    tr = terminalreporter
    tr.section("SERVICE-BACKED TESTS SKIPPED", sep="!", red=True, bold=True)
    tr.line(f"{len(_service_skips)} test(s) needing PostgreSQL or Redis did NOT run:", red=True, bold=True)
    for nodeid, reason in _service_skips:
        tr.line(f"  {nodeid}", red=True)
        tr.line(f"      {reason.removeprefix('Skipped: ')}", red=True)
    tr.line("Start them (see .ci/run) and run the suite again.", red=True, bold=True)


REDIS_GROUP = "redis"
"""The pytest-xdist group of every Redis test: they run one after another in one worker (``--dist
loadgroup``, set in pyproject.toml), since Redis pub/sub channels (``lobby``, ``user:{id}``, ``match:{id}``)
are global to the server, whatever the database number, and two workers' apps would hear each other."""


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook reads the xdist_group marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests run last: Playwright's sync API (a session-scoped fixture in tests/e2e) keeps an event
    loop running in the main thread until the session ends, and pytest-asyncio cannot start one after it.
    Under pytest-xdist each worker runs its share in this order too (loadgroup hands work out first come,
    first served), and the Redis tests form one group (:data:`REDIS_GROUP`)."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None or "/e2e/" in item.nodeid)
    for item in items:
        if item.get_closest_marker("redis") is not None or "redis_url" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group(REDIS_GROUP))


# -- databases -------------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def _pg_schema() -> Iterator[str]:
    """A fresh schema in PostgreSQL ``test``, migrated to head, for this session only.

    The schema is created per session and dropped at the end (a unique name rather than ``public``, so two
    test runs at once on the machine, or two pytest-xdist workers of one run, never see each other's
    tables). The URL selects it through the libpq ``options=-csearch_path=…`` parameter."""
    require_postgres()
    schema = f"test_{os.getpid()}_{secrets.token_hex(3)}"
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        conn.execute(f'CREATE SCHEMA "{schema}"')
    url = f"{PG_URL}?options=-csearch_path%3D{schema}"
    upgrade(url)
    yield url
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def _truncate_pg(url: str) -> None:
    dsn = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("TRUNCATE match_actions, matches, user_sessions, users RESTART IDENTITY CASCADE")


@pytest.fixture(autouse=True)
def _fast_password_hashing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cheap argon2 parameters in tests (the production hasher costs ~0.3 s per hash)."""
    monkeypatch.setattr(users, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))


@pytest.fixture(scope="session")
def _sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One SQLite file migrated to head; tests get copies."""
    path = tmp_path_factory.mktemp("template") / "duelclub.db"
    upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture
def sqlite_url(tmp_path: Path, _sqlite_template: Path) -> str:
    """A fresh migrated SQLite file."""
    path = tmp_path / "duelclub.db"
    shutil.copyfile(_sqlite_template, path)
    return f"sqlite:///{path}"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest) -> str:
    """A migrated, empty database: SQLite, then PostgreSQL (skipped loudly when unreachable)."""
    if request.param == "sqlite":
        url: str = request.getfixturevalue("sqlite_url")
        return url
    pg: str = request.getfixturevalue("_pg_schema")
    _truncate_pg(pg)
    return pg


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database with no tables yet (migration tests): a SQLite file, then a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.db'}"
        return
    require_postgres()
    schema = f"empty_{os.getpid()}_{secrets.token_hex(3)}"
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{PG_URL}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(PG_DSN, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database(database_url)
    yield database
    database.dispose()


def make_service(
    database: Database, bus: Any = None, *, bots: bool = True, leases: Leases | None = None
) -> MatchService:
    """A match service with the fake games (no app); ``leases``: its own (default: local ones)."""
    return MatchService(
        database, bus or MemoryBus(), fake_games(), fake_bot_factory if bots else None, leases=leases
    )


@pytest.fixture
async def service_factory() -> AsyncIterator[Callable[..., MatchService]]:
    """``service_factory(db, bus=None, bots=True, leases=None)`` → a MatchService (a "worker"), stopped at
    teardown."""
    made: list[MatchService] = []

    def make(
        database: Database, bus: Any = None, *, bots: bool = True, leases: Leases | None = None
    ) -> MatchService:
        made.append(make_service(database, bus, bots=bots, leases=leases))
        return made[-1]

    yield make
    for service in made:
        await service.stop()


# -- apps and clients ------------------------------------------------------------------------------
# Tests register many users from 127.0.0.1 (and Redis counters outlive a test run): the throttling tests
# set their own small limits.
UNTHROTTLED = {
    "LOGIN_FAILURES_PER_USERNAME_IP": "100000 per minute",
    "LOGIN_FAILURES_PER_IP": "100000 per minute",
    "REGISTRATIONS_PER_IP": "100000 per minute",
    "REGISTRATION_FAILURES_PER_IP": "100000 per minute",
    "REGISTRATION_BURST_PER_IP": "100000 per minute",
}


def make_settings(url: str, var_dir: Path, redis_url: str | None = None, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "DATABASE_URL": url,
        "REDIS_URL": redis_url,
        "SECRET_KEY": "test-secret-key-0123456789abcdef",
        "DATA_DIR": var_dir,
        "BOT_THINK_SECONDS": 0.05,
        # cheap argon2 in tests (web/passwords.py; the production profile costs tens of ms per hash)
        "ARGON2_TIME_COST": 1,
        "ARGON2_MEMORY_KIB": 1024,
        **UNTHROTTLED,
    }
    return Settings(**{**values, **overrides})


def build_app(url: str, var_dir: Path, redis_url: str | None = None, **overrides: Any) -> FastAPI:
    return create_app(
        make_settings(url, var_dir, redis_url, **overrides),
        games_map=fake_games(),
        bot_factory=fake_bot_factory,
    )


@pytest.fixture
async def app(sqlite_url: str, tmp_path: Path) -> AsyncIterator[FastAPI]:
    """The app on a fresh SQLite database, lifespan running."""
    application = build_app(sqlite_url, tmp_path / "var")
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
def app_builder(tmp_path: Path) -> Callable[..., FastAPI]:
    """``app_builder(url, **settings)`` → an app with these settings, lifespan not started (for Starlette's
    TestClient, which runs it)."""
    return lambda url, **overrides: build_app(url, tmp_path / "built", **overrides)


@pytest.fixture
def app_factory(tmp_path: Path) -> Callable[..., Any]:
    """``async with app_factory(url, redis_url=None, **settings) as app:`` — an app with these settings
    (e.g. small rate limits), lifespan running."""
    count = 0

    @asynccontextmanager
    async def make(url: str, redis_url: str | None = None, **overrides: Any) -> AsyncIterator[FastAPI]:
        nonlocal count
        count += 1
        application = build_app(url, tmp_path / f"app{count}", redis_url, **overrides)
        async with application.router.lifespan_context(application):
            yield application

    return make


ClientFactory = Callable[[], AsyncClient]


@pytest.fixture
async def client_factory(app: FastAPI) -> AsyncIterator[ClientFactory]:
    """Makes clients of ``app``, each with its own cookie jar (one per user)."""
    clients: list[AsyncClient] = []

    def make() -> AsyncClient:
        c = AsyncClient(transport=ASGITransport(app), base_url="http://testserver")
        clients.append(c)
        return c

    yield make
    for c in clients:
        await c.aclose()


async def register(client: AsyncClient, username: str, password: str = "password123") -> dict[str, Any]:
    r = await client.post("/api/auth/register", json={"username": username, "password": password})
    assert r.status_code == 201, r.text
    return dict(r.json())


UserClient = Callable[[str], Awaitable[AsyncClient]]


@pytest.fixture
def user_client(client_factory: ClientFactory) -> UserClient:
    """``await user_client("alice")`` → a logged-in client for a new user."""

    async def make(username: str) -> AsyncClient:
        c = client_factory()
        await register(c, username)
        return c

    return make


@pytest.fixture
async def alice(user_client: UserClient) -> AsyncClient:
    return await user_client("alice")


@pytest.fixture
async def bob(user_client: UserClient) -> AsyncClient:
    return await user_client("bob")


@pytest.fixture
async def carol(user_client: UserClient) -> AsyncClient:
    return await user_client("carol")


def promote(app: FastAPI, username: str) -> None:
    """Make ``username`` an admin, directly in the store (what ``duelclub create-admin`` does)."""
    with app.state.db.session() as s:
        user = users.find_user(s, username)
        assert user is not None
        user.is_admin = True


@pytest.fixture
async def admin(app: FastAPI, user_client: UserClient) -> AsyncClient:
    """A logged-in admin (``chief``)."""
    client = await user_client("chief")
    promote(app, "chief")
    return client


InviteMatch = Callable[..., Awaitable[str]]


@pytest.fixture
def invite_match() -> InviteMatch:
    """``await invite_match(opener, joiner, options={...})`` → the id of a started ``duel`` invite match."""

    async def make(
        opener: AsyncClient, joiner: AsyncClient, options: dict[str, Any] | None = None, game: str = "duel"
    ) -> str:
        body = {"game": game, "vs": "invite", "options": options or {}, "client_seed": "aa"}
        r = await opener.post("/api/matches", json=body)
        assert r.status_code == 201, r.text
        token = r.json()["invite_token"]
        r = await joiner.post(f"/api/invites/{token}/accept", json={"client_seed": "bb"})
        assert r.status_code == 200, r.text
        return str(r.json()["id"])

    return make


async def get_state(client: AsyncClient, match_id: str, since: int | None = None) -> dict[str, Any]:
    url = f"/api/matches/{match_id}/state" + (f"?since={since}" if since is not None else "")
    r = await client.get(url)
    assert r.status_code == 200, r.text
    return dict(r.json())


@pytest.fixture
def state_of() -> Callable[..., Awaitable[dict[str, Any]]]:
    """``await state_of(client, match_id, since=None)`` → the caller's state payload."""
    return get_state


# -- a real server in the test's event loop (WebSocket tests) ---------------------------------------
@dataclass
class Served:
    """A uvicorn server running ``app`` on 127.0.0.1:``port`` inside the test's event loop."""

    app: FastAPI
    port: int

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


@asynccontextmanager
async def serve(application: FastAPI) -> AsyncIterator[Served]:
    """Run ``application`` (lifespan included) with uvicorn until the block exits."""
    port = free_port()
    options = uvicorn_options(application.state.settings)  # as `duelclub serve` runs it
    config = uvicorn.Config(
        application, host="127.0.0.1", port=port, log_level="warning", lifespan="on", **options
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    for _ in range(500):
        if server.started or task.done():
            break
        await asyncio.sleep(0.01)
    if not server.started:
        task.cancel()
        raise RuntimeError("uvicorn did not start")
    try:
        yield Served(application, port)
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 10)


@pytest.fixture
async def served(sqlite_url: str, tmp_path: Path) -> AsyncIterator[Served]:
    """The app on a fresh SQLite database behind a real uvicorn server."""
    async with serve(build_app(sqlite_url, tmp_path / "var")) as s:
        yield s


@pytest.fixture
def redis_url() -> str:
    """The Redis URL, or a loud skip when Redis is unreachable (mark such tests ``redis``)."""
    require_redis()
    return REDIS_URL


@pytest.fixture
def server_factory(tmp_path: Path) -> Callable[..., Any]:
    """``async with server_factory(database_url, redis_url=None, **settings) as served:`` — another app
    instance ("worker") behind its own uvicorn server."""
    count = 0

    def make(url: str, redis_url: str | None = None, **overrides: Any) -> Any:
        nonlocal count
        count += 1
        return serve(build_app(url, tmp_path / f"var{count}", redis_url, **overrides))

    return make
