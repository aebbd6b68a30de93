"""CSRF protection for the JSON API and the match WebSocket.

Rule: every state-changing API call (POST/PUT/PATCH/DELETE under ``/api``) must carry
``Content-Type: application/json`` — which a cross-site HTML form cannot send without a CORS preflight this
app never grants — and, when an ``Origin`` header is present, its host must equal the request's ``Host``.
Otherwise the answer is 403 ``{"code": "csrf"}``. WebSocket handshakes get the same Origin check (browsers
always send Origin there). The session cookie is also SameSite=Lax and HttpOnly (see ``web/app.py``).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.requests import HTTPConnection, Request

from duelclub.web.errors import ApiError

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def origin_ok(conn: HTTPConnection) -> bool:
    """True if there is no Origin header or its host[:port] equals the Host header."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    host = conn.headers.get("host", "")
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    return bool(netloc) and netloc.lower() == host.lower()


def csrf_guard(request: Request) -> None:
    """Router dependency: 403 ``csrf`` for a state-changing call that is not same-origin JSON."""
    if request.method not in UNSAFE_METHODS:
        return
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json":
        raise ApiError(403, "csrf", "state-changing calls must send Content-Type: application/json")
    if not origin_ok(request):
        raise ApiError(403, "csrf", "cross-origin request refused")
