"""Hostile input stops at the door (issue 13 §1.3): control characters in paths and queries, NUL and lone
surrogates in JSON bodies.

PostgreSQL refuses NUL in text (``GET /api/matches/%00`` was a 500) and no database takes a lone UTF-16
surrogate, which Python's ``json`` module lets through. So:

- :class:`PathGuard` (ASGI, outermost): a path with a control character (U+0000–U+001F, U+007F) is 404
  ``not_found`` — no id, token or page has one — and an API query string with one (raw or %-escaped) is
  422 ``malformed``; a WebSocket handshake with either is refused before the app sees it. (Pages keep their
  queries: the login page's ``next`` falls back to ``/`` on its own.)
- :class:`StrictJsonRoute` (the API routers' ``route_class``): bodies are parsed with orjson, which refuses
  lone surrogates, and a body holding the escape ``\\u0000`` is refused too — both 422 ``malformed``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import orjson
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

NUL_REFUSED = "NUL characters are not accepted"
"""The decode error of a body holding ``\\u0000`` (web/errors.py words it for people)."""
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_CONTROL_QUERY = re.compile(rb"[\x00-\x1f\x7f]|%[01][0-9a-fA-F]|%7[fF]")


class PathGuard:
    """404/422 for control characters in the path or the query (the module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        # A plain __call__ handing on the inner app's coroutine: no frame of ours kept for a socket's life
        # (web/middleware.py).
        if scope["type"] in ("http", "websocket"):
            status = 0
            if _CONTROL.search(scope.get("path", "")):
                status = 404
            elif _CONTROL_QUERY.search(scope.get("query_string", b"")) and (
                scope["type"] == "websocket" or scope.get("path", "").startswith("/api/")
            ):
                status = 422
            if status:
                return _refuse(scope, send, status)
        return self.app(scope, receive, send)


async def _refuse(scope: Scope, send: Send, status: int) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    code, message = ("not_found", "no such page") if status == 404 else ("malformed", "bad query string")
    body = json.dumps({"code": code, "message": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class StrictJsonRequest(Request):
    """A request whose ``json()`` is orjson's, refusing ``\\u0000`` (FastAPI turns the error into 422)."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            body = await self.body()
            at = body.find(b"\\u0000")
            if at >= 0:
                raise json.JSONDecodeError(NUL_REFUSED, body.decode(errors="replace"), at)
            self._json = orjson.loads(body)  # orjson.JSONDecodeError is a json.JSONDecodeError
        return self._json


class StrictJsonRoute(APIRoute):
    """An API route whose handler sees :class:`StrictJsonRequest` (FastAPI's custom request recipe)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJsonRequest(request.scope, request.receive))

        return strict
