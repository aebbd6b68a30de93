"""Two workers drive one tournament (issue 26 §Real time and scale), on PostgreSQL and Redis: exactly one of
them pairs each round — the lease keeps the work in one place, the tournament's version guard keeps it
single even when both act on "round ended" at once."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import psycopg
import pytest
from fastapi import FastAPI
from httpx import ASGITransport, AsyncClient
from sqlalchemy import func, select
from test_tournaments_api import in_play, play_out, until

from duelclub.store.models import Match, TournamentGame

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def _count(app: FastAPI, model: Any, *where: Any) -> int:
    with app.state.db.session() as s:
        return int(s.scalar(select(func.count()).select_from(model).where(*where)) or 0)


async def test_simultaneous_round_ends_on_two_workers_pair_once(
    app_factory: Any, redis_url: str, request: pytest.FixtureRequest
) -> None:
    url = request.getfixturevalue("_pg_schema")
    with psycopg.connect(
        url.split("?")[0].replace("postgresql+psycopg://", "postgresql://"), autocommit=True
    ) as conn:
        schema = url.split("search_path%3D", 1)[1]
        tables = ", ".join(f'"{schema}".{t}' for t in ("match_actions", "matches", "user_sessions", "users"))
        conn.execute(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
    async with contextlib.AsyncExitStack() as stack:
        apps = [await stack.enter_async_context(app_factory(url, redis_url)) for _ in range(2)]
        clients: dict[str, AsyncClient] = {}
        for i, name in enumerate(("wka", "wkb", "wkc", "wkd")):
            c = AsyncClient(transport=ASGITransport(apps[i % 2]), base_url="http://testserver")
            await stack.enter_async_context(c)
            r = await c.post("/api/auth/register", json={"username": name, "password": "password123"})
            assert r.status_code == 201
            clients[name] = c
        wa = clients["wka"]
        r = await wa.post(
            "/api/tournaments", json={"game": "duel", "format": "round_robin", "options": {"rounds": 1}}
        )
        tid = r.json()["id"]
        for c in clients.values():
            await c.post(f"/api/tournaments/{tid}/join", json={})
        starts = await asyncio.gather(*(c.post(f"/api/tournaments/{tid}/start", json={}) for c in (wa, wa)))
        assert sorted(r.status_code for r in starts) == [200, 409]
        drivers = [a.state.tournaments for a in apps]
        for number in (1, 2, 3):
            t = await until(wa, tid, lambda t, n=number: t["current_round"] == n and len(in_play(t)) == 2)
            matches = in_play(t)
            # Both matches end at once, one on each worker; then both workers race to pair the next round.
            await asyncio.gather(*(play_out(clients, m) for m in matches))
            await asyncio.gather(*(d.advance(tid) for d in drivers for _ in range(3)))
        t = await until(wa, tid, lambda t: t["status"] == "finished")
        assert [len(r["pairings"]) for r in t["rounds"]] == [2, 2, 2]
        assert _count(apps[0], TournamentGame, TournamentGame.tournament_id == tid) == 6
        assert _count(apps[0], Match) == 6, "no round's matches were opened twice"
        pairs = {frozenset(p["seats"]) for r in t["rounds"] for p in r["pairings"]}
        assert len(pairs) == 6
