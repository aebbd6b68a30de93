"""Helpers of the live-play browser tests (issue 6): a restartable server process, members in their own
browser contexts, a duel between two members made through the API, and moves made through the API.

:class:`ServerProcess` runs ``python -m duelclub.cli serve`` like the session's ``live_server`` (conftest.py),
but on its own port and SQLite file and with extra settings (e.g. a short ``ABANDON_GRACE_SECONDS``); it can
be stopped and started again on the same port and database, as a restarted server would be.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from accounts import sign_up

SERVER_START_TIMEOUT = 40.0
JS_HAS_STATE = "() => document.getElementById('match')?.dataset.seq !== undefined"
JS_SEQ_AT_LEAST = "(s) => Number(document.getElementById('match')?.dataset.seq ?? -1) >= s"
JS_SEQ_ABOVE = "(s) => Number(document.getElementById('match')?.dataset.seq ?? -1) > s"
JS_CONN = "(s) => document.getElementById('match')?.dataset.conn === s"
JS_CONN_DOWN = "() => ['connecting', 'closed'].includes(document.getElementById('match')?.dataset.conn)"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``duelclub serve`` in a subprocess on a fixed port; :meth:`stop` and :meth:`start` again keep the port
    and the database (``env["DATABASE_URL"]``), so open pages see a restart."""

    def __init__(self, env: dict[str, str], log_path: Path) -> None:
        self.env = env
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        assert self.proc is None, "already running"
        self.starts += 1
        log = self.log_path.open("ab")
        log.write(f"\n---- start {self.starts} ----\n".encode())
        log.flush()
        cmd = [sys.executable, "-m", "duelclub.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        self.proc = subprocess.Popen(cmd, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"server exited with {self.proc.returncode}:\n{self.log()}")
            try:
                if httpx.get(f"{self.base}/api/games", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"server did not answer /api/games:\n{self.log()}")
            time.sleep(0.1)

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]


def server_env_with(base_env: dict[str, str], tmp: Path, **extra: str) -> dict[str, str]:
    """The e2e server's environment with its own database and var dir under ``tmp`` and ``extra`` set."""
    env = dict(base_env)
    env.update(DATABASE_URL=f"sqlite:///{tmp / 'live.db'}", VAR_DIR=str(tmp / "var"), **extra)
    return env


class Member:
    """A member signed up in a browser context of their own, with one page and its error log."""

    def __init__(self, browser: Any, base: str, prefix: str) -> None:
        self.base = base
        self.context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="ru-RU")
        self.context.set_default_timeout(20_000)
        self.name = sign_up(self.context, base, prefix)
        self.errors: list[str] = []
        self.page = self.new_page()

    def new_page(self) -> Any:
        page = self.context.new_page()
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.on("console", self._console)
        return page

    def _console(self, msg: Any) -> None:
        # Expected 4xx answers, and failed requests while the network or the server is down on purpose.
        text = msg.text
        if msg.type != "error" or "status of 4" in text or "ERR_INTERNET_DISCONNECTED" in text:
            return
        if "ERR_CONNECTION_REFUSED" in text or "WebSocket connection" in text or "status of 50" in text:
            return
        self.errors.append(text)

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        r = self.context.request.post(f"{self.base}{path}", data=body or {})
        assert r.ok, f"POST {path}: {r.status} {r.text()}"
        return r.json()

    def get(self, path: str) -> Any:
        r = self.context.request.get(f"{self.base}{path}")
        assert r.ok, f"GET {path}: {r.status} {r.text()}"
        return r.json()

    def open_match(self, match_id: str) -> None:
        self.page.goto(f"{self.base}/matches/{match_id}")
        self.page.wait_for_function(JS_HAS_STATE)

    def seq(self) -> int:
        raw = self.page.get_attribute("#match", "data-seq")
        return int(raw) if raw is not None else -1

    def close(self) -> None:
        self.context.close()


def duel(a: Member, b: Member, game: str, options: dict[str, Any], move_seconds: int | None = None) -> str:
    """A match between members ``a`` (seat 0) and ``b`` (seat 1), started through the invite API."""
    body: dict[str, Any] = {"game": game, "vs": "invite", "options": options}
    if move_seconds is not None:
        body["move_seconds"] = move_seconds
    created = a.post("/api/matches", body)
    accepted = b.post(f"/api/invites/{created['invite_token']}/accept")
    assert accepted == {"id": created["id"], "seat": 1}
    return str(created["id"])


def api_move(member: Member, match_id: str) -> int | None:
    """One legal action of ``member`` through ``POST …/actions`` if they may act: the new seq, else None."""
    st = member.get(f"/api/matches/{match_id}/state")
    if st["status"] != "active" or st["seat"] not in st["to_move"] or not st["legal"]:
        return None
    answer = member.post(
        f"/api/matches/{match_id}/actions",
        {"id": f"api-{st['seq']}-{st['seat']}", "seq": st["seq"], "action": st["legal"][0]},
    )
    return int(answer["seq"])


def api_moves_until(member: Member, match_id: str, other: Member, *, until: Any, limit: int = 60) -> int:
    """Both members act through the API (``member`` first when both may) until ``until(state of member)``
    holds; returns the seq reached."""
    for _ in range(limit):
        st = member.get(f"/api/matches/{match_id}/state")
        if until(st):
            return int(st["seq"])
        if api_move(member, match_id) is None and api_move(other, match_id) is None:
            time.sleep(0.05)
    raise AssertionError("the members could not reach the wanted state")
