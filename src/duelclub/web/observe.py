"""What every request and socket leaves behind for operations (issue 13 §2): a request id and the log
context, the HTTP and socket metrics, and the database pool gauge.

:class:`Observe` (pure ASGI, just inside the security headers) for each HTTP request or WebSocket:

- takes the client's ``X-Request-ID`` when it is a sane token (letters, digits, ``-_.``, at most 64), else
  makes one, answers it in ``X-Request-ID``, and opens the log context (duelclub/logs.py) with it and the
  match id read from the path (``/api/matches/{id}``, ``/matches/{id}``, ``/ws/matches/{id}``, …); the user
  id is bound by the session look-up (web/deps.py);
- counts ``duelclub_http_requests_total{method, route, status}`` — ``route`` is the route's template
  (``/api/matches/{match_id}``), ``<unmatched>`` for a path no route took, so ids never become labels;
- keeps ``duelclub_open_sockets{kind}`` (``match`` or ``lobby``) from accept to end.

:class:`WebMetrics` also exposes ``duelclub_db_pool_in_use`` (connections checked out of this process's
pool, read at each scrape). None of this adds work per WebSocket message.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from duelclub.logs import CONTEXT
from duelclub.store.db import Database
from duelclub.web.wssend import RAW_SEND

_SANE_ID = re.compile(r"[A-Za-z0-9._\-]{1,64}")
_MATCH_IN_PATH = re.compile(
    r"^/(?:api/(?:admin/)?matches|matches|ws/matches|api/challenges)/([A-Za-z0-9_\-]+)"
)
REQUEST_ID_HEADER = b"x-request-id"


class WebMetrics:
    """The web layer's metrics in ``registry`` (the app's, ``GET /metrics``)."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.registry = registry
        self.requests = Counter(
            "duelclub_http_requests",
            "HTTP requests answered, by method, route template and status",
            ["method", "route", "status"],
            registry=registry,
        )
        self.sockets = Gauge(
            "duelclub_open_sockets", "Open WebSockets on this worker", ["kind"], registry=registry
        )
        self.pool_in_use = Gauge(
            "duelclub_db_pool_in_use",
            "Database connections checked out of this process's pool",
            registry=registry,
        )

    def track_pool(self, db: Database) -> None:
        """Make ``duelclub_db_pool_in_use`` read ``db``'s pool at each scrape."""
        pool: Any = db.engine.pool
        self.pool_in_use.set_function(
            lambda: float(pool.checkedout()) if hasattr(pool, "checkedout") else 0.0
        )

    def open_sockets(self) -> dict[str, int]:
        """``{"match": n, "lobby": m}`` now."""
        read = self.registry.get_sample_value
        return {kind: int(read("duelclub_open_sockets", {"kind": kind}) or 0) for kind in ("match", "lobby")}


def request_id_of(scope: Scope) -> str:
    """The client's sane ``X-Request-ID``, or a new random one."""
    for name, value in scope.get("headers", ()):
        if name == REQUEST_ID_HEADER:
            text: str = value.decode("latin-1")
            if _SANE_ID.fullmatch(text):
                return text
            break
    return secrets.token_hex(8)


def open_context(scope: Scope, request_id: str) -> dict[str, Any]:
    """A fresh log context for this request or socket (see the module docstring)."""
    found = _MATCH_IN_PATH.match(scope.get("path", ""))
    context: dict[str, Any] = {"request_id": request_id, "user_id": None, "match_id": found and found[1]}
    CONTEXT.set(context)
    return context


class Observe:
    """The ASGI middleware of the module docstring; ``metrics`` comes from the app's state at start-up."""

    def __init__(self, app: ASGIApp, get_metrics: Any) -> None:
        self.app = app
        self.get_metrics = get_metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        metrics: WebMetrics | None = self.get_metrics()
        request_id = request_id_of(scope)
        open_context(scope, request_id)
        if kind == "websocket":
            await self._socket(scope, receive, send, metrics)
            return
        status = 500

        async def observed_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message = {
                    **message,
                    "headers": [*message.get("headers", []), (REQUEST_ID_HEADER, request_id.encode())],
                }
            await send(message)

        try:
            await self.app(scope, receive, observed_send)
        finally:
            if metrics is not None:
                route = scope.get("route")
                template = getattr(route, "path", None) or "<unmatched>"
                metrics.requests.labels(scope.get("method", "GET"), template, str(status)).inc()

    async def _socket(self, scope: Scope, receive: Receive, send: Send, metrics: WebMetrics | None) -> None:
        gauge = (
            metrics.sockets.labels("match" if scope["path"].startswith("/ws/matches") else "lobby")
            if metrics
            else None
        )
        accepted = False

        async def observed_send(message: Message) -> None:
            nonlocal accepted
            if message["type"] == "websocket.accept" and gauge is not None and not accepted:
                accepted = True
                gauge.inc()
            await send(message)

        scope[RAW_SEND] = send  # frames skip the chain once open (web/wssend.py)
        try:
            await self.app(scope, receive, observed_send)
        finally:
            if accepted and gauge is not None:
                gauge.dec()
