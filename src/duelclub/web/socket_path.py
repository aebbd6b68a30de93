"""The short way in for match sockets (issue 29 §4: memory per idle socket).

A WebSocket lives for as long as its page is open, and every ASGI layer between the server and the handler
that awaits the next one keeps a coroutine frame (and whatever it holds) alive for all that time. Through
the whole app a match socket passed some fifteen: FastAPI's error, telemetry, body-limit and exit-stack
middlewares (two ``AsyncExitStack`` s), the router and the included router, the session and exception
middlewares — about 4 KB a socket that does nothing (tracemalloc under benchmarks/load.py --idle-sockets).

:class:`MatchSocketPath` sits inside ``web/observe.py``'s layer (the request id, the log context and the
open-socket gauge still apply) and sends a ``websocket`` scope whose path is ``/ws/matches/{match_id}``
straight to what the handler needs: Starlette's ``SessionMiddleware`` (the member's cookie) and
``ExceptionMiddleware`` with the app's exception handlers (a store outage on open: 1013, web/outage.py),
then the route itself (web/ws.py ``match_socket``). Everything else takes the whole stack as before.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

from fastapi import APIRouter, FastAPI
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.routing import Match, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send


class MatchSocketPath:
    """``app`` for everything but match sockets, which go the short way (see the module docstring)."""

    def __init__(self, app: ASGIApp, fastapi_app: FastAPI, route: WebSocketRoute) -> None:
        self.app = app
        self.route = route
        handlers = {k: v for k, v in fastapi_app.exception_handlers.items() if k not in (500, Exception)}
        short: ASGIApp = ExceptionMiddleware(route.handle, handlers=handlers)
        for m in fastapi_app.user_middleware:
            cls: Any = m.cls
            args: Any = m.args
            kwargs: Any = m.kwargs
            if cls is SessionMiddleware:  # the app's own, with its settings
                short = cls(short, *args, **kwargs)
        self.short = short
        self.router = fastapi_app.router

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        if scope["type"] == "websocket":
            match, child = self.route.matches(scope)
            if match is Match.FULL:
                scope.update(child)
                scope.setdefault("router", self.router)
                return self.short(scope, receive, send)
        return self.app(scope, receive, send)


def socket_route(router: APIRouter, name: str) -> WebSocketRoute:
    """The WebSocket route called ``name`` of ``router`` (web/ws.py's ``match_socket``; the app's own list
    holds the included routers, not their routes)."""
    for route in router.routes:
        if isinstance(route, WebSocketRoute) and route.name == name:
            return route
    raise LookupError(f"no WebSocket route {name!r}")
