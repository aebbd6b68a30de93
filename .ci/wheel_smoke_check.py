"""Checks a running ``duelclub serve`` for .ci/wheel_smoke.sh (standard library only: it runs in the wheel's
fresh virtual environment).

Usage: ``python wheel_smoke_check.py BASE_URL ADMIN_NAME ADMIN_PASSWORD``. Waits up to 90 s for ``/healthz``,
then checks: the welcome page (anonymous), a static script and stylesheet (from the installed package), a new
member's lobby page, and the admin's ``/admin`` page after logging in as the account ``duelclub create-admin``
made. Exit 0 when all pass, 1 with the reason otherwise.
"""

from __future__ import annotations

import http.cookiejar
import json
import sys
import time
import urllib.error
import urllib.request
from typing import Any

START_TIMEOUT = 90.0


class Client:
    """One browser-like client: its own cookie jar; same-origin JSON for state-changing calls (CSRF)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def get(self, path: str) -> tuple[int, str, str]:
        """(status, content type, body) of GET ``path``."""
        try:
            with self.opener.open(self.base + path, timeout=30) as r:
                return r.status, r.headers.get("content-type", ""), r.read().decode("utf-8")
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get("content-type", ""), e.read().decode("utf-8", "replace")

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, str]:
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "Origin": self.base},
            method="POST",
        )
        try:
            with self.opener.open(request, timeout=30) as r:
                return r.status, r.read().decode("utf-8")
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode("utf-8", "replace")


def check(condition: bool, what: str) -> None:
    if not condition:
        raise SystemExit(f"wheel-smoke: FAILED: {what}")
    print(f"wheel-smoke: ok: {what}")


def wait_until_up(client: Client) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            if client.get("/healthz")[0] == 200:
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise SystemExit(f"wheel-smoke: FAILED: {client.base}/healthz silent for {START_TIMEOUT:.0f} s")
        time.sleep(0.5)


def main(base: str, admin: str, password: str) -> None:
    anonymous = Client(base)
    wait_until_up(anonymous)
    status, _, page = anonymous.get("/")
    check(status == 200 and "/login" in page and "Межа" in page, "GET / (welcome page) is 200 with the games")
    status, kind, script = anonymous.get("/static/js/lobby.js")
    check(status == 200 and "javascript" in kind and "import" in script, "GET /static/js/lobby.js")
    status, kind, _ = anonymous.get("/static/css/app.css")
    check(status == 200 and kind.startswith("text/css"), "GET /static/css/app.css")
    check(anonymous.get("/readyz")[0] == 200, "GET /readyz (database reachable)")

    member = Client(base)
    status, text = member.post("/api/auth/register", {"username": "smokemember", "password": "password123"})
    check(status == 201, f"POST /api/auth/register is 201 (got {status} {text[:200]})")
    status, _, page = member.get("/")
    check(status == 200 and 'id="lobby-conn"' in page and "/static/js/lobby.js" in page, "the lobby page")
    check(member.get("/admin")[0] in (403, 404), "a member is not an admin")

    chief = Client(base)
    status, text = chief.post("/api/auth/login", {"username": admin, "password": password})
    check(status == 200, f"the admin made by create-admin logs in (got {status} {text[:200]})")
    status, _, page = chief.get("/admin")
    check(status == 200, "GET /admin as that admin")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    main(*sys.argv[1:4])
