"""The kill test: SIGKILL the server mid-match, start it again on the same database, and the match goes on
from the last acknowledged seq (DESIGN.md §Persistence — a move is acknowledged only after its row is
committed; state is rebuilt by replay)."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from duelclub.cli import main as cli_main

pytestmark = pytest.mark.slow
READY_SECONDS = 120.0
"""A server's start (its migrations included) on a loaded machine."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(env: dict[str, str], log: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A ``duelclub serve`` on a free port, once it answers (within :data:`READY_SECONDS`)."""
    port = _free_port()
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "duelclub.cli", "serve", "--port", str(port), "--log-level", "warning"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + READY_SECONDS
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                if httpx.get(f"{base}/api/games", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        yield proc, base
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(10)


def my_turn(c: httpx.Client, mid: str) -> dict[str, Any]:
    """Wait until the human (seat 0) may act or the match is over; the state with all events."""
    for _ in range(600):
        st: dict[str, Any] = c.get(f"/api/matches/{mid}/state", params={"since": 0}).json()
        if st["legal"] or st["status"] != "active":
            return st
        time.sleep(0.02)
    raise AssertionError("the bot never answered")


def play(c: httpx.Client, mid: str, st: dict[str, Any], aid: str) -> dict[str, Any]:
    plays = [a for a in st["legal"] if a["kind"] == "play"]
    action = (plays or st["legal"])[0]
    r = c.post(f"/api/matches/{mid}/actions", json={"id": aid, "seq": st["seq"], "action": action})
    assert r.status_code == 200, r.text
    return dict(r.json())


def rows(db: Path, mid: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        q = "SELECT seq, seat, action, source, created_at FROM match_actions WHERE match_id=? ORDER BY seq"
        return conn.execute(q, (mid,)).fetchall()


def test_sigkill_and_restart_continue_from_the_last_acknowledged_seq(tmp_path: Path) -> None:
    db = tmp_path / "kill.db"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "VAR_DIR": str(tmp_path / "var"),
        "SECRET_KEY": "kill-test-secret-0123456789abcdef",
        "BOT_THINK_SECONDS": "0.05",
    }
    env.pop("REDIS_URL", None)
    log = tmp_path / "server.log"
    with server(env, log) as (proc, base), httpx.Client(base_url=base) as c:
        assert (
            c.post("/api/auth/register", json={"username": "alice", "password": "password123"}).status_code
            == 201
        )
        body = {"game": "mezha", "vs": "bot", "bot_level": "easy", "options": {"house": "olkha"}}
        created = c.post("/api/matches", json=body)
        assert created.status_code == 201, created.text
        mid = created.json()["id"]
        acked = 0
        for i in range(3):
            acked = play(c, mid, my_turn(c, mid), f"a{i}")["seq"]
        before = my_turn(c, mid)
        rows_before = rows(db, mid)
        assert before["seq"] >= acked and len(rows_before) == before["seq"]
        cookie = c.cookies["duelclub_session"]
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    with server(env, log) as (_proc, base), httpx.Client(base_url=base) as c:
        c.cookies.set("duelclub_session", cookie)
        after = my_turn(c, mid)
        assert after == before
        assert rows(db, mid) == rows_before
        st = after
        for i in range(200):
            if st["status"] != "active":
                break
            play(c, mid, st, f"b{i}")
            st = my_turn(c, mid)
        assert st["status"] == "finished", st
        match_log = c.get(f"/api/matches/{mid}/log").json()
    assert [a["seq"] for a in match_log["actions"]] == list(range(1, len(match_log["actions"]) + 1))
    assert [(a["seq"], a["seat"], a["source"]) for a in match_log["actions"][: len(rows_before)]] == [
        (r[0], r[1], r[3]) for r in rows_before
    ]
    log_file = tmp_path / "log.json"
    log_file.write_text(json.dumps(match_log))
    assert cli_main(["verify", str(log_file)]) == 0
