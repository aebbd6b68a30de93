"""The FastAPI application factory (DESIGN.md §Layers — web/; CONVENTIONS.md §Web).

``create_app(settings)`` builds an app whose lifespan opens the database engine and the bus, creates the
match service (``app.state.service``, with Redis leases for match ownership when REDIS_URL is set) with
its background workers — the clock sweeper (``app.state.clock``), the matchmaker
(``app.state.matchmaker``), the presence heartbeat (``app.state.presence``), the mail sender
(``app.state.mailer``, notify/sender.py), the push sender (``app.state.pusher``, notify/push_sender.py), the
site-socket presence (``app.state.member_presence``) and the turn notices' sweep (``app.state.notices``,
play/notices.py: its ``dispatcher`` carries each notice by e-mail and Web Push) — and resumes the bots of
active matches (their jobs: bots think in bot worker processes, never here); on shutdown it stops
them and closes the bus and the engine. It does not migrate: ``duelclub serve`` and the tests do that first.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

import anyio.to_thread
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from prometheus_client import CollectorRegistry
from prometheus_client.multiprocess import MultiProcessCollector
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp

from duelclub.bus import Bus, open_bus
from duelclub.logs import recent_errors
from duelclub.notify.accounts import MailSite
from duelclub.notify.dispatch import Dispatcher, EmailChannel, NoticeSite
from duelclub.notify.push_channel import PushChannel
from duelclub.notify.push_sender import PushSender
from duelclub.notify.sender import MailSender
from duelclub.notify.smtp import transport_for
from duelclub.play.bots import BotFactory, BotWorkers
from duelclub.play.live import AnyGame
from duelclub.play.matchmaking import Matchmaker
from duelclub.play.member_presence import MemberPresence
from duelclub.play.metrics import PlayMetrics
from duelclub.play.notices import NoticeSweeper
from duelclub.play.ownership import RedisLeases
from duelclub.play.presence import PresenceTracker
from duelclub.play.service import MatchService
from duelclub.play.threads import use_threads
from duelclub.play.tournament_driver import TournamentDriver
from duelclub.settings import Settings
from duelclub.store.db import Database
from duelclub.store.sessions import SESSION_TTL
from duelclub.web import lobby_ws, turns, ws
from duelclub.web.errors import install_error_handlers
from duelclub.web.language import LanguageMiddleware
from duelclub.web.middleware import wrap
from duelclub.web.observe import Observe, WebMetrics
from duelclub.web.openapi import install_openapi, operation_id
from duelclub.web.page_errors import install_page_not_found
from duelclub.web.passwords import Hashing
from duelclub.web.ratelimit import AuthLimiter
from duelclub.web.routes import (
    account_delete,
    admin,
    analysis,
    auth,
    blocks,
    chat,
    docs,
    games,
    health,
    lobby,
    mail,
    matches,
    members,
    notices,
    push,
    replays,
    tournaments,
)
from duelclub.web.session_watch import SessionWatch
from duelclub.web.socket_path import MatchSocketPath, socket_route
from duelclub.web.tournament_cache import DetailCache

SESSION_COOKIE = "duelclub_session"
SESSION_MAX_AGE = int(SESSION_TTL.total_seconds())


class DuelclubApp(FastAPI):
    """FastAPI whose outermost layers are the security headers, the path guard and the body size cap
    (``web/middleware.py``) and the request id, log context and HTTP metrics (``web/observe.py``): outside
    Starlette's error middleware, so a 500 answer gets the headers and is counted too; around them the
    request's UI language (``web/language.py``). Inside them, match sockets take a short way to their route
    (``web/socket_path.py``)."""

    def build_middleware_stack(self) -> ASGIApp:
        settings: Settings = self.state.settings
        route = socket_route(ws.router, "match_socket")
        stack = MatchSocketPath(super().build_middleware_stack(), self, route)
        observed = Observe(stack, lambda: getattr(self.state, "web_metrics", None))
        inner = wrap(observed, max_body_bytes=settings.MAX_BODY_BYTES)
        return LanguageMiddleware(inner)


def _start_notices(app: FastAPI, settings: Settings, db: Database, service: MatchService) -> None:
    """The push sender, the site-socket presence and the turn notices' sweep (issue 28 §3), registered
    with ``service``: the sweep's dispatcher writes each notice by e-mail and Web Push, then wakes both
    senders."""
    app.state.pusher = pusher = PushSender(
        db,
        private_key=settings.VAPID_PRIVATE_KEY,
        subject=settings.vapid_subject(),
        ttl_seconds=settings.PUSH_TTL_SECONDS,
        timeout_seconds=settings.PUSH_TIMEOUT_SECONDS,
        poll_seconds=settings.PUSH_POLL_SECONDS,
        lease_seconds=settings.PUSH_LEASE_SECONDS,
        retry_seconds=settings.PUSH_RETRY_SECONDS,
        retry_max_seconds=settings.PUSH_RETRY_MAX_SECONDS,
        max_attempts=settings.PUSH_MAX_ATTEMPTS,
        http_loopback=settings.PUSH_HTTP_LOOPBACK,
    )
    mailer = app.state.mailer

    def written() -> None:
        mailer.wake()
        pusher.wake()

    app.state.member_presence = MemberPresence(service)
    app.state.notices = NoticeSweeper(
        service,
        Dispatcher([EmailChannel(NoticeSite(settings.SECRET_KEY, settings.PUBLIC_URL)), PushChannel()]),
        public_url=settings.PUBLIC_URL,
        after_seconds=settings.NOTIFY_EMAIL_AFTER_SECONDS,
        digest_hour=settings.NOTIFY_DIGEST_HOUR,
        interval=settings.NOTIFY_SWEEP_SECONDS,
        on_written=written,
    )
    for worker in (pusher, app.state.member_presence, app.state.notices):
        service.add_background(worker)


def _start_workers(app: FastAPI, settings: Settings, db: Database, bus: Bus, service: MatchService) -> None:
    """The service's background workers (the module docstring), registered with ``service``, and the
    per-process caches and limits the routes read from ``app.state``."""
    app.state.clock = service.clock_sweeper()
    app.state.matchmaker = Matchmaker(service)
    app.state.presence = PresenceTracker(service)
    app.state.tournaments = TournamentDriver(
        service, service.leases, bus, grace_seconds=settings.TOURNAMENT_GRACE_SECONDS
    )
    for worker in (app.state.clock, app.state.matchmaker, app.state.presence, app.state.tournaments):
        service.add_background(worker)
    app.state.tournament_details = DetailCache(db.read_session)
    app.state.limiter = AuthLimiter(settings)
    app.state.mailer = MailSender(
        db,
        transport_for(settings.SMTP_URL, settings.SMTP_CA_FILE),
        mail_from=settings.MAIL_FROM,
        poll_seconds=settings.MAIL_POLL_SECONDS,
        lease_seconds=settings.MAIL_LEASE_SECONDS,
        retry_seconds=settings.MAIL_RETRY_SECONDS,
        retry_max_seconds=settings.MAIL_RETRY_MAX_SECONDS,
        max_attempts=settings.MAIL_MAX_ATTEMPTS,
    )
    service.add_background(app.state.mailer)
    _start_notices(app, settings, db, service)


def _lifespan(
    settings: Settings,
    games_map: Mapping[str, AnyGame] | None,
    bot_factory: BotFactory | None,
    bot_metrics_dir: Path | None,
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The app's lifespan: opens the database, the bus and the match service with its workers; closes
    them in reverse on shutdown (the module docstring)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        from duelclub.games.registry import all_games

        db = Database(
            settings.DATABASE_URL,
            pool_size=settings.DB_POOL_SIZE,
            sqlite_synchronous=settings.SQLITE_SYNCHRONOUS,
        )
        app.state.metrics = registry = CollectorRegistry()  # this process's, GET /metrics (routes/health.py)
        app.state.web_metrics = WebMetrics(registry)
        app.state.web_metrics.track_pool(db)
        if bot_metrics_dir is not None:
            MultiProcessCollector(registry, path=str(bot_metrics_dir))  # type: ignore[no-untyped-call]
        app.state.recent_errors = recent_errors()
        app.state.started_at = time.time()
        bus = await open_bus(settings.REDIS_URL, registry)
        bots = bot_factory or BotWorkers(
            think_seconds=settings.BOT_THINK_SECONDS, poll_seconds=settings.BOT_POLL_SECONDS
        )
        service = MatchService(
            db,
            bus,
            games_map if games_map is not None else all_games(),
            bots,
            abandon_grace_seconds=settings.ABANDON_GRACE_SECONDS,
            tournament_grace_seconds=settings.TOURNAMENT_GRACE_SECONDS,
            leases=RedisLeases.from_url(settings.REDIS_URL) if settings.REDIS_URL else None,
            rating_rules=settings.rating_rules(),
            metrics=PlayMetrics(registry),
        )
        app.state.db, app.state.bus, app.state.service = db, bus, service
        _start_workers(app, settings, db, bus, service)
        app.state.session_watch = SessionWatch(bus)
        # Blocking database work runs in anyio's threads: as many threads as pooled connections, so a
        # thread never waits for a connection (issue 12 §2).
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.DB_POOL_SIZE
        use_threads(settings.DB_POOL_SIZE)
        await app.state.session_watch.start()
        await service.start()
        try:
            yield
        finally:
            await service.stop()
            await app.state.session_watch.stop()
            await bus.close()
            db.dispose()

    return lifespan


def _include_routes(app: FastAPI, settings: Settings) -> None:
    """The JSON API and socket routers (their OpenAPI document, web/openapi.py), the pages, the API docs'
    assets and the static files."""
    api_routers = (
        auth.router,
        mail.router,
        notices.router,
        account_delete.router,
        push.router,
        blocks.router,
        games.router,
        lobby.router,
        matches.router,
        replays.router,
        analysis.router,
        members.router,
        admin.router,
        chat.router,
        chat.admin_router,
        ws.router,
        lobby_ws.router,
        turns.router,
        tournaments.router,
        health.router,
    )
    for router in api_routers:
        app.include_router(router)
    install_openapi(app, api_routers)
    from duelclub.web import language
    from duelclub.web.routes import mail_pages, pages, rules, tournament_pages

    app.include_router(language.router)
    app.include_router(pages.router)
    app.include_router(tournament_pages.router)
    app.include_router(mail_pages.router)
    app.include_router(notices.pages)
    app.include_router(push.worker_router)
    app.include_router(rules.router)
    app.include_router(docs.router)
    app.mount(docs.ASSETS_URL, docs.assets(), name="api-docs")
    app.mount("/static", StaticFiles(directory=settings.STATIC_DIR, check_dir=False), name="static")


def create_app(
    settings: Settings | None = None,
    *,
    games_map: Mapping[str, AnyGame] | None = None,
    bot_factory: BotFactory | None = None,
    bot_metrics_dir: Path | None = None,
) -> FastAPI:
    """The duelclub app. ``games_map`` defaults to the registry. Bots think in bot worker processes
    (``duelclub serve``'s pool or ``duelclub bots``); a ``bot_factory`` is for tests only: the app then runs
    an in-process bot worker with it (play/bots.py). ``bot_metrics_dir``: where the local bot pool writes
    its think-time histograms (bots/metrics.py), added to ``/metrics``."""
    settings = (settings or Settings()).prepared()

    lifespan = _lifespan(settings, games_map, bot_factory, bot_metrics_dir)

    # /docs and /redoc are served from local files (web/routes/docs.py), not FastAPI's CDN pages.
    app = DuelclubApp(
        title="duelclub",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        generate_unique_id_function=operation_id,
    )
    app.state.settings = settings
    app.state.hashing = Hashing(settings)
    app.state.mail_site = MailSite(
        secret=settings.SECRET_KEY,
        public_url=settings.PUBLIC_URL,
        reset_ttl_seconds=settings.PASSWORD_RESET_TTL_SECONDS,
        verify_ttl_seconds=settings.EMAIL_VERIFY_TTL_SECONDS,
    )
    install_error_handlers(app)
    install_page_not_found(app)  # after it: it wraps the JSON handler
    app.add_middleware(
        SessionMiddleware,
        secret_key=settings.SECRET_KEY,
        session_cookie=SESSION_COOKIE,
        max_age=SESSION_MAX_AGE,
        same_site="lax",
        https_only=settings.COOKIE_SECURE,
    )
    _include_routes(app, settings)
    return app
