"""Nothing acknowledged is lost under kill -9 mid-round (issue 26 §Bad input): a real ``duelclub serve`` plays
a round robin; mid-round — one match over, one in play with acknowledged acts — the server is SIGKILLed and
started again on the same database. Every acknowledged act is in the log, the match in play goes on from its
last acknowledged seq, the round resumes and the tournament finishes with every pair met exactly once and no
board or match written twice."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_kill import server

pytestmark = pytest.mark.slow
NAMES = ("ann", "ben", "cat", "dan")


def detail(c: httpx.Client, tid: str) -> dict[str, Any]:
    r = c.get(f"/api/tournaments/{tid}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def until(c: httpx.Client, tid: str, check: Any, seconds: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        t = detail(c, tid)
        if check(t):
            return t
        assert time.monotonic() < deadline, f"gave up: {t['status']} round {t['current_round']}"
        time.sleep(0.1)


def in_play(t: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for r in t["rounds"] for p in r["pairings"] if p["match_id"] and p["result"] is None]


class Acts:
    """The acts the server acknowledged: (match id, seq) → the action sent."""

    def __init__(self) -> None:
        self.acked: dict[tuple[str, int], dict[str, Any]] = {}

    def act(self, c: httpx.Client, mid: str, action: dict[str, Any] | None = None) -> bool:
        """One act of ``c``'s seat (its first legal action, or ``action``); whether it was acknowledged."""
        st = c.get(f"/api/matches/{mid}/state").json()
        if st["status"] != "active" or not (action or st["legal"]):
            return False
        body = {"id": f"{mid}-{st['seq']}", "seq": st["seq"], "action": action or st["legal"][0]}
        r = c.post(f"/api/matches/{mid}/actions", json=body)
        if r.status_code != 200:
            return False
        self.acked[(mid, int(r.json()["seq"]))] = body["action"]
        return True

    def moves(self, seats: list[httpx.Client], mid: str, count: int) -> None:
        """``count`` acknowledged acts in the match, whoever is to move (each seat's first move included)."""
        done = 0
        for _ in range(50 * count):
            for c in seats:
                done += self.act(c, mid)
                if done >= count:
                    return
        raise AssertionError("the match made no progress")

    def finish(self, seats: list[httpx.Client], mid: str) -> None:
        """Both seats move once, then the first resigns (a decided match, not an unplayed one)."""
        self.moves(seats, mid, 4)
        assert self.act(seats[0], mid, {"kind": "resign"}) or self.act(seats[1], mid, {"kind": "resign"})


def logged(db: Path) -> dict[tuple[str, int], Any]:
    with sqlite3.connect(db) as conn:
        return {(m, s): a for m, s, a in conn.execute("SELECT match_id, seq, action FROM match_actions")}


def counts(db: Path, tid: str) -> tuple[int, int]:
    with sqlite3.connect(db) as conn:
        boards = conn.execute("SELECT count(*) FROM tournament_games WHERE tournament_id=?", (tid,))
        matches = conn.execute("SELECT count(*) FROM matches")
        return int(boards.fetchone()[0]), int(matches.fetchone()[0])


def test_kill_9_mid_round_loses_no_acknowledged_act_and_the_tournament_finishes(tmp_path: Path) -> None:
    db = tmp_path / "kill.db"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "VAR_DIR": str(tmp_path / "var"),
        "SECRET_KEY": "tournament-kill-secret-0123456789",
        "TOURNAMENT_GRACE_SECONDS": "600",
        "BOT_WORKERS": "0",
    }
    env.pop("REDIS_URL", None)
    log = tmp_path / "server.log"
    acts = Acts()
    cookies: dict[str, str] = {}
    with server(env, log) as (proc, base):
        clients = {n: httpx.Client(base_url=base) for n in NAMES}
        for n, c in clients.items():
            r = c.post("/api/auth/register", json={"username": n, "password": "password123"})
            assert r.status_code == 201, r.text
            cookies[n] = c.cookies["duelclub_session"]
        ann = clients["ann"]
        r = ann.post("/api/tournaments", json={"game": "mezha", "format": "round_robin", "name": "kill -9"})
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        for c in clients.values():
            assert c.post(f"/api/tournaments/{tid}/join", json={}).status_code == 200
        t = ann.post(f"/api/tournaments/{tid}/start", json={}).json()
        over, going = in_play(t)
        acts.finish([clients[n] for n in over["seats"]], over["match_id"])
        acts.moves([clients[n] for n in going["seats"]], going["match_id"], 5)
        mid = going["match_id"]
        before = [c.get(f"/api/matches/{mid}/state").json() for c in (clients[n] for n in going["seats"])]
        proc.send_signal(signal.SIGKILL)  # mid-round: one match over (maybe not yet recorded), one in play
        proc.wait(10)
        for c in clients.values():
            c.close()
    stored = logged(db)
    for key, action in acts.acked.items():
        assert key in stored, f"acknowledged act {key} lost"
        assert json.loads(stored[key]) == action
    with server(env, log) as (_proc, base):
        clients = {n: httpx.Client(base_url=base, cookies={"duelclub_session": cookies[n]}) for n in NAMES}
        ann = clients["ann"]
        after = [c.get(f"/api/matches/{mid}/state").json() for c in (clients[n] for n in going["seats"])]
        assert [(s["seq"], s["view"], s["legal"]) for s in after] == [
            (s["seq"], s["view"], s["legal"]) for s in before
        ], "the match in play goes on from its last acknowledged seq"
        t = until(ann, tid, lambda t: over["match_id"] not in {p["match_id"] for p in in_play(t)})
        assert t["current_round"] == 1 and [p["match_id"] for p in in_play(t)] == [mid], (
            "the round resumes: the ended match recorded, nothing paired again"
        )
        acts.finish([clients[n] for n in going["seats"]], mid)
        for number in (2, 3):
            t = until(ann, tid, lambda t, n=number: t["current_round"] == n and len(in_play(t)) == 2)
            for p in in_play(t):
                acts.finish([clients[n] for n in p["seats"]], p["match_id"])
        t = until(ann, tid, lambda t: t["status"] == "finished")
        for c in clients.values():
            c.close()
    pairs = [frozenset(p["seats"]) for r in t["rounds"] for p in r["pairings"]]
    assert len(pairs) == len(set(pairs)) == 6, "every pair exactly once"
    assert all(p["result"] in ("1-0", "0-1") for r in t["rounds"] for p in r["pairings"])
    assert sum(s["points"] for s in t["standings"]) == 6
    assert counts(db, tid) == (6, 6), "no board and no match written twice"
    stored = logged(db)
    assert all(stored.get(key) is not None for key in acts.acked)
