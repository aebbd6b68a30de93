"""Browser end-to-end fixtures: the real server as a subprocess and Debian's chromium through Playwright.

The server runs ``python -m duelclub.cli serve`` on a free port with a throw-away SQLite database; the browser
is ``/usr/bin/chromium`` (never a downloaded build). Without it every browser test skips with a loud reason.

Every browser test fails on any console error or uncaught page error of any page it opened (a CSP violation
is a console error): the ``browser`` fixture wires every new context's pages to :data:`CONSOLE_ERRORS`,
and the autouse fixture :func:`_no_console_errors` checks it after each test. A test that provokes an error
on purpose (say a 401 it asks for) lists its pattern with the ``console_allow`` fixture.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
SERVER_START_TIMEOUT = 40.0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def server_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of the e2e server (and of CLI commands run against its database)."""
    tmp = tmp_path_factory.mktemp("e2e-server")
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"sqlite:///{tmp / 'e2e.db'}",
        VAR_DIR=str(tmp / "var"),
        SECRET_KEY="e2e-secret-key-not-for-production-0123456789",
        BOT_THINK_SECONDS="0.2",
        PYTHONUNBUFFERED="1",
        # every browser test registers its own accounts from 127.0.0.1
        REGISTRATIONS_PER_IP="10000 per hour",
        REGISTRATION_FAILURES_PER_IP="10000 per hour",
        REGISTRATION_BURST_PER_IP="10000 per hour",
    )
    env.pop("REDIS_URL", None)
    return env


@pytest.fixture(scope="session")
def live_server(server_env: dict[str, str]) -> Iterator[str]:
    """Base URL of a real duelclub server (subprocess) on a fresh SQLite database."""
    env = server_env
    tmp = Path(env["VAR_DIR"]).parent
    port = _free_port()
    log_path = tmp / "server.log"
    log = log_path.open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "duelclub.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while True:
            if proc.poll() is not None:
                pytest.fail(f"server exited with {proc.returncode}:\n{log_path.read_text(errors='replace')}")
            try:
                if httpx.get(f"{base}/api/games", timeout=1.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"server did not answer /api/games:\n{log_path.read_text(errors='replace')}")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="session")
def admin_account(live_server: str, server_env: dict[str, str]) -> tuple[str, str]:
    """(username, password) of an admin made by ``duelclub create-admin NAME --password-stdin`` on the
    server's database (the server has migrated it by the time ``live_server`` answers)."""
    username, password = "e2eadmin", "e2e-Admin-Password-7"
    done = subprocess.run(
        [sys.executable, "-m", "duelclub.cli", "create-admin", username, "--password-stdin"],
        input=password + "\n",
        env=server_env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return username, password


CONSOLE_ERRORS: list[str] = []
"""Console errors and page errors of the pages opened by the current test (see the module docstring)."""


def _watch_page(page: Any) -> None:
    page.on("pageerror", lambda exc: CONSOLE_ERRORS.append(f"pageerror on {page.url}: {exc}"))
    page.on(
        "console",
        lambda msg: (
            CONSOLE_ERRORS.append(f"console error on {page.url}: {msg.text}") if msg.type == "error" else None
        ),
    )


class _WatchedBrowser:
    """The Playwright browser, except that every context it makes reports its pages' console errors."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, *args: Any, **kwargs: Any) -> Any:
        context = self._browser.new_context(*args, **kwargs)
        context.on("page", _watch_page)
        return context

    def new_page(self, *args: Any, **kwargs: Any) -> Any:
        page = self._browser.new_page(*args, **kwargs)
        _watch_page(page)
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture
def console_allow() -> list[str]:
    """Regular expressions of console errors the current test provokes on purpose."""
    return []


@pytest.fixture(autouse=True)
def _no_console_errors(console_allow: list[str]) -> Iterator[None]:
    """Fail the test on any console error or page error of its pages (the module docstring)."""
    CONSOLE_ERRORS.clear()
    yield
    found = [e for e in CONSOLE_ERRORS if not any(re.search(p, e) for p in console_allow)]
    CONSOLE_ERRORS.clear()
    if found:
        pytest.fail("console errors in the browser:\n" + "\n".join(found[:20]), pytrace=False)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Debian's headless chromium; skips loudly when it is not installed."""
    if not CHROMIUM.exists():
        pytest.skip(
            "!! /usr/bin/chromium is missing: browser tests NOT RUN "
            "(apt-get install chromium; a browser is never downloaded)"
        )
    sync_api = pytest.importorskip("playwright.sync_api", reason="!! playwright is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield _WatchedBrowser(b)
        finally:
            b.close()
