"""Shared fixtures for the server tests (store/, play/, web/): a tiny fake game, databases, apps, clients.

- ``Duel`` (slug ``duel``) is a three-card fake game with hidden hands, a seeded deal, a pause where both
  seats may act (like Mezha D17) and resignation; tests use it so they do not depend on Mezha's rules.
- ``database_url`` is parametrized over SQLite and PostgreSQL (127.0.0.1:5432, database ``test``); when a
  service (PostgreSQL, Redis) is unreachable its tests skip with a loud reason, and the terminal summary
  ends with a banner listing them.
"""

from __future__ import annotations

import asyncio
import copy
import os
import random
import secrets
import shutil
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

import psycopg
import pytest
import uvicorn
from argon2 import PasswordHasher
from fastapi import FastAPI
from httpx import ASGITransport, AsyncClient
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from duelclub.bus import MemoryBus
from duelclub.games.contract import JSON, Game, IllegalAction, Outcome, Seat
from duelclub.games.fairness import Stream
from duelclub.play.service import MatchService
from duelclub.settings import Settings
from duelclub.store import users
from duelclub.store.db import Database
from duelclub.store.migrate import upgrade
from duelclub.web.app import create_app

# Overridable to point the service-backed tests elsewhere (or nowhere, to see the skip banner).
PG_URL = os.environ.get("DUELCLUB_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
PG_DSN = PG_URL.replace("postgresql+psycopg://", "postgresql://")
REDIS_URL = os.environ.get("DUELCLUB_TEST_REDIS", "redis://127.0.0.1:6379/0")


# -- the fake game -------------------------------------------------------------------------------
class _A(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Play(_A):
    kind: Literal["play"] = "play"
    card: int


class Continue(_A):
    kind: Literal["continue"] = "continue"


class Resign(_A):
    kind: Literal["resign"] = "resign"


class DuelOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rounds: int = Field(default=3, ge=1, le=3)
    pause: bool = False


@dataclass
class DuelState:
    hands: list[list[int]]
    turn: int
    rounds: int
    pause: bool
    played: list[int | None] = field(default_factory=lambda: [None, None])
    score: list[int] = field(default_factory=lambda: [0, 0])
    round: int = 1
    paused: bool = False
    outcome: Outcome | None = None


class Duel(Game[DuelState, Any, DuelOptions]):
    """Each seat holds 3 of the cards 1..10 (dealt from the match stream); per round the seat to move plays
    a card face down, then the other; the higher card wins the round and leads the next. With
    ``pause`` both seats may send ``continue`` between rounds. Most rounds won wins."""

    slug: ClassVar[str] = "duel"
    title: ClassVar[str] = "Duel"
    options_model: ClassVar[type[BaseModel]] = DuelOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = TypeAdapter(
        Annotated[Play | Continue | Resign, Field(discriminator="kind")]
    )
    bot_levels: ClassVar[tuple[str, ...]] = ("easy",)

    def new_match(self, key: bytes, options: DuelOptions) -> DuelState:
        st = Stream(key)
        first = st.randint(2)
        deck = st.shuffled(list(range(1, 11)))
        return DuelState([sorted(deck[:3]), sorted(deck[3:6])], first, options.rounds, options.pause)

    def to_move(self, state: DuelState) -> frozenset[Seat]:
        if state.outcome is not None:
            return frozenset()
        return frozenset((0, 1)) if state.paused else frozenset((state.turn,))

    def legal_actions(self, state: DuelState, seat: Seat) -> list[Any]:
        if seat not in self.to_move(state):
            return []
        return [Continue()] if state.paused else [Play(card=c) for c in state.hands[seat]]

    def apply(self, state: DuelState, seat: Seat, action: Any) -> list[JSON]:
        if state.outcome is not None:
            raise IllegalAction("match_over", "the match is over")
        if action.kind == "resign":
            state.outcome = Outcome(1 - seat, "resign")
            return [{"kind": "resign", "seat": seat}]
        if action.kind == "continue":
            if not state.paused:
                raise IllegalAction("not_paused", "nothing to continue")
            state.paused = False
            return [{"kind": "continue", "seat": seat}]
        if state.paused or seat != state.turn:
            raise IllegalAction("not_your_turn", "wait for your turn")
        if action.card not in state.hands[seat]:
            raise IllegalAction("card_not_in_hand", f"no card {action.card} in hand")
        state.hands[seat].remove(action.card)
        state.played[seat] = action.card
        events: list[JSON] = [{"kind": "played", "seat": seat, "card": action.card}]
        if state.played[1 - seat] is None:
            state.turn = 1 - seat
            return events
        a, b = state.played
        winner = 0 if (a or 0) > (b or 0) else 1
        state.score[winner] += 1
        events.append({"kind": "round", "cards": [a, b], "winner": winner})
        state.played, state.turn, state.round = [None, None], winner, state.round + 1
        if state.score[winner] > state.rounds // 2 or state.round > state.rounds:
            s0, s1 = state.score
            state.outcome = Outcome(None if s0 == s1 else (0 if s0 > s1 else 1), "score")
        elif state.pause:
            state.paused = True
        return events

    def view(self, state: DuelState, seat: Seat | None) -> JSON:
        if state.outcome is not None:
            return self.full_view(state)
        played = [c if (c is None or s == seat) else "hidden" for s, c in enumerate(state.played)]
        return {
            "hand": list(state.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in state.hands],
            "played": played,
            "score": list(state.score),
            "round": state.round,
            "turn": state.turn,
            "paused": state.paused,
        }

    def full_view(self, state: DuelState) -> JSON:
        return {
            "hands": [list(h) for h in state.hands],
            "played": list(state.played),
            "score": list(state.score),
            "round": state.round,
            "outcome": state.outcome.to_json() if state.outcome else None,
        }

    def event_view(self, state: DuelState, event: JSON, seat: Seat | None) -> JSON:
        if event["kind"] == "played" and event["seat"] != seat and state.outcome is None:
            return {"kind": "played", "seat": event["seat"]}
        return dict(event)

    def determinize(self, state: DuelState, seat: Seat, rng: random.Random) -> DuelState:
        return self.copy(state)

    def outcome(self, state: DuelState) -> Outcome | None:
        return state.outcome

    def timeout_action(self, state: DuelState, seat: Seat) -> Any:
        return Continue() if state.paused else Play(card=state.hands[seat][0])

    def to_position(self, state: DuelState) -> JSON:
        return {"version": 1, **self.full_view(state), "turn": state.turn}

    def from_position(self, position: JSON) -> DuelState:
        raise ValueError("not supported by the fake game")

    def copy(self, state: DuelState) -> DuelState:
        return copy.deepcopy(state)


DUEL = Duel()


class FirstLegalBot:
    """A fake bot: the first legal action (or a random one with ``randomize``)."""

    level = "easy"

    def choose(self, game: Any, state: Any, seat: Seat, rng: random.Random) -> Any:
        actions = game.legal_actions(state, seat)
        if not actions:
            raise ValueError("nothing to choose")
        return actions[0]


def fake_games() -> dict[str, Any]:
    from duelclub.games.mezha import GAME as MEZHA

    return {"duel": DUEL, "mezha": MEZHA}


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


# -- databases -------------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def _pg_schema() -> Iterator[str]:
    """A fresh schema in PostgreSQL ``test``, migrated to head, for this session only.

    The schema is created per session and dropped at the end (a unique name rather than ``public``, so two
    test runs at once on the machine do not drop each other's tables). The URL selects it through the
    libpq ``options=-csearch_path=…`` parameter."""
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
        conn.execute("TRUNCATE match_actions, matches, users RESTART IDENTITY CASCADE")


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


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database(database_url)
    yield database
    database.dispose()


def make_service(database: Database, bus: Any = None, *, bots: bool = True) -> MatchService:
    """A match service with the fake games (no app)."""
    return MatchService(database, bus or MemoryBus(), fake_games(), fake_bot_factory if bots else None)


@pytest.fixture
async def service_factory() -> AsyncIterator[Callable[..., MatchService]]:
    """``service_factory(db, bus=None, bots=True)`` → a MatchService (a "worker"), stopped at teardown."""
    made: list[MatchService] = []

    def make(database: Database, bus: Any = None, *, bots: bool = True) -> MatchService:
        made.append(make_service(database, bus, bots=bots))
        return made[-1]

    yield make
    for service in made:
        await service.stop()


# -- apps and clients ------------------------------------------------------------------------------
def make_settings(url: str, var_dir: Path, redis_url: str | None = None) -> Settings:
    return Settings(
        DATABASE_URL=url,
        REDIS_URL=redis_url,
        SECRET_KEY="test-secret-key-0123456789abcdef",
        VAR_DIR=var_dir,
        BOT_THINK_SECONDS=0.05,
    )


def build_app(url: str, var_dir: Path, redis_url: str | None = None) -> FastAPI:
    return create_app(
        make_settings(url, var_dir, redis_url), games_map=fake_games(), bot_factory=fake_bot_factory
    )


@pytest.fixture
async def app(sqlite_url: str, tmp_path: Path) -> AsyncIterator[FastAPI]:
    """The app on a fresh SQLite database, lifespan running."""
    application = build_app(sqlite_url, tmp_path / "var")
    async with application.router.lifespan_context(application):
        yield application


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


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@asynccontextmanager
async def serve(application: FastAPI) -> AsyncIterator[Served]:
    """Run ``application`` (lifespan included) with uvicorn until the block exits."""
    port = free_port()
    config = uvicorn.Config(application, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
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
    """``async with server_factory(database_url, redis_url=None) as served:`` — another app instance
    ("worker") behind its own uvicorn server."""
    count = 0

    def make(url: str, redis_url: str | None = None) -> Any:
        nonlocal count
        count += 1
        return serve(build_app(url, tmp_path / f"var{count}", redis_url))

    return make
