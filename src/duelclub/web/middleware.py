"""Pure ASGI middlewares that wrap the whole app (outside Starlette's error middleware, so even a 500 answer
passes through them): security headers on every HTTP response and a request body size cap.

- :class:`SecurityHeaders` adds ``X-Frame-Options: DENY``, a ``Content-Security-Policy`` (no inline scripts
  or styles, no framing, sockets to the same host), ``X-Content-Type-Options: nosniff`` and
  ``Referrer-Policy: same-origin`` to every HTTP response that does not set them itself.
- :class:`BodyLimit` answers 413 ``{"code": "too_large"}`` when a request body is larger than ``max_bytes``:
  at once from ``Content-Length``, or, for a streamed (chunked) body, as soon as the bytes received pass the
  limit — the app then sees the client as gone and whatever it answers is dropped. The app never gets more
  than the limit; the rest of a streamed body (up to 1 MiB) is read and dropped before the answer, so that a
  client still sending can read it. WebSocket messages are capped in ``web/ws.py``.

Both hand a WebSocket on as the inner app's own coroutine (``return self.app(…)`` from a plain ``__call__``)
instead of awaiting it: an awaiting middleware keeps its coroutine frame (~0.4 KB) alive for the whole life of
a socket (issue 29 §4: memory per idle socket, tracemalloc under benchmarks/load.py --idle-sockets); so do
web/strictjson.py ``PathGuard`` and web/language.py ``LanguageMiddleware``.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from duelclub.web.strictjson import PathGuard

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self' ws: wss:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)
MAX_BODY_BYTES = 64 * 1024
DISCARD_BYTES = 1024 * 1024


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every ``http.response.start`` (a header the app set wins)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        if scope["type"] != "http":  # a socket: handed on, no frame of ours kept (module docstring)
            return self.app(scope, receive, send)
        return self._http(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers.extend((n, v) for n, v in SECURITY_HEADERS if n not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class BodyLimit:
    """413 ``too_large`` for HTTP request bodies over ``max_bytes`` (see the module docstring)."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        if scope["type"] != "http":  # a socket: no frame of ours kept (module docstring)
            return self.app(scope, receive, send)
        return self._http(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._too_large(send)
            return
        received = 0
        response_started = False
        refused = False

        async def capped_receive() -> Message:
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    refused = True
                    if not response_started:
                        if message.get("more_body", False):
                            await _discard_rest(receive)
                        await self._too_large(send)
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal response_started
            if refused:  # we answered 413 already; the app's own answer goes nowhere
                return
            if message["type"] == "http.response.start":
                response_started = True
            await send(message)

        try:
            await self.app(scope, capped_receive, guarded_send)
        except Exception:
            if not refused:
                raise

    async def _too_large(self, send: Send) -> None:
        body = json.dumps(
            {"code": "too_large", "message": f"the request body is over {self.max_bytes} bytes"}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


async def _discard_rest(receive: Receive) -> None:
    """Read and drop what is left of a streamed body, up to :data:`DISCARD_BYTES`, so that an ordinary client
    that is still sending can read the 413 (the server stops delivering the body once a response is complete,
    and a client still writing then sees a reset instead). Nothing is kept."""
    dropped = 0
    while dropped <= DISCARD_BYTES:
        message = await receive()
        if message["type"] != "http.request":
            return
        dropped += len(message.get("body", b""))
        if not message.get("more_body", False):
            return


def _content_length(scope: Scope) -> int | None:
    """The declared ``Content-Length`` (None if absent; an unparsable one counts as too large)."""
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return 1 << 62
    return None


def wrap(app: ASGIApp, *, max_body_bytes: int) -> ASGIApp:
    """``app`` inside the body limit and the path guard (web/strictjson.py) inside the security headers (so
    a 413 or a refused path carries the headers too)."""
    return SecurityHeaders(PathGuard(BodyLimit(app, max_body_bytes)))
