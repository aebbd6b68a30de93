"""The tournament driver's own state (play/tournament_driver.py, play/tournament_boards.py): a cancelled
tournament is let go (its lease, its lock, its boards, its match subscriptions), a pass reads only the boards
that can have changed yet sees what a full read sees, and a driver that starts afresh mid-tournament (a
restart) resumes from the stored rows."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import ASGITransport, AsyncClient
from sqlalchemy import func, select
from test_tournaments_api import UserClient, create, in_play, members, play_out, until

from duelclub.play.tournament_boards import read as read_boards
from duelclub.play.tournament_driver import TournamentDriver, lease_id
from duelclub.store import tournaments as repo
from duelclub.store.models import Match, MatchAction


async def _watched(driver: TournamentDriver, match_ids: list[str]) -> None:
    for _ in range(200):
        if set(match_ids) <= driver.watching:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the driver never subscribed to the matches in play")


async def _forgotten(driver: TournamentDriver, tid: str, match_ids: list[str]) -> None:
    for _ in range(300):
        if tid not in driver.driving and not set(match_ids) & driver.watching:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"still driving {tid}: {driver.driving}, watching {driver.watching}")


@pytest.mark.parametrize("who", ["organiser", "admin"])
async def test_a_cancel_releases_the_lease_and_the_match_subscriptions(
    app: FastAPI, user_client: UserClient, admin: Any, who: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    driver: TournamentDriver = app.state.tournaments
    released: list[str] = []
    leases = driver._leases
    original = leases.release

    async def release(key: str) -> None:
        released.append(key)
        await original(key)

    monkeypatch.setattr(leases, "release", release)
    clients = await members(user_client, "ann", "ben", "cat", "dan")
    ann = clients["ann"]
    t = await create(ann, format="swiss", rounds=2, options={"rounds": 3})
    tid = t["id"]
    for c in clients.values():
        await c.post(f"/api/tournaments/{tid}/join", json={})
    t = (await ann.post(f"/api/tournaments/{tid}/start", json={})).json()
    matches = in_play(t)
    assert len(matches) == 2
    await _watched(driver, matches)
    assert tid in driver.driving
    canceller = ann if who == "organiser" else admin
    r = await canceller.post(f"/api/tournaments/{tid}/cancel", json={})
    assert r.status_code == 200 and r.json()["status"] == "cancelled", r.text
    await _forgotten(driver, tid, matches)
    assert lease_id(tid) in released, "the lease is given up"
    for mid in matches:
        assert (await ann.get(f"/api/matches/{mid}")).json()["status"] == "aborted"


async def test_a_pass_reads_only_what_changed_and_sees_what_a_full_read_sees(
    app: FastAPI, user_client: UserClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    driver: TournamentDriver = app.state.tournaments
    clients = await members(user_client, "ann", "ben", "cat", "dan", "eve")
    ann = clients["ann"]
    t = await create(ann, options={"rounds": 1})
    tid = t["id"]
    for c in clients.values():
        await c.post(f"/api/tournaments/{tid}/join", json={})
    await ann.post(f"/api/tournaments/{tid}/start", json={})
    asked: list[dict[str, Any]] = []
    original = repo.games

    def spy(s: Any, tournament_id: str, **kw: Any) -> Any:
        asked.append(kw)
        return original(s, tournament_id, **kw)

    for number in (1, 2, 3, 4, 5):
        t = await until(ann, tid, lambda t, n=number: t["current_round"] == n and len(in_play(t)) == 2)
        first = in_play(t)[0]
        await play_out(clients, first)
        # recorded (by the driver, in the background); nothing else changes until the next match is played
        await until(ann, tid, lambda t, m=first: m not in in_play(t))
        with app.state.db.session() as s, monkeypatch.context() as patch:
            full = repo.snapshot(s, tid)
            known = driver._boards.get(tid)
            assert known is not None and full is not None
            patch.setattr(repo, "games", spy)
            found = read_boards(s, tid, known)
            assert found is not None
            assert found[0] == full, "the incremental read is the full read"
            assert asked[-1]["after_round"] == number, "only the boards in play and the later rounds"
            assert len(asked[-1]["boards"]) <= 2
        await play_out(clients, in_play(t)[1])
    t = await until(ann, tid, lambda t: t["status"] == "finished")
    assert [len(r["pairings"]) for r in t["rounds"]] == [3] * 5
    assert tid not in driver.driving


async def test_a_fresh_driver_resumes_a_tournament_from_the_stored_rows(
    app: FastAPI, user_client: UserClient
) -> None:
    old: TournamentDriver = app.state.tournaments
    clients = await members(user_client, "ann", "ben", "cat", "dan")
    ann = clients["ann"]
    t = await create(ann, options={"rounds": 1})
    tid = t["id"]
    for c in clients.values():
        await c.post(f"/api/tournaments/{tid}/join", json={})
    await ann.post(f"/api/tournaments/{tid}/start", json={})
    t = await until(ann, tid, lambda t: len(in_play(t)) == 2)
    for mid in in_play(t):
        await play_out(clients, mid)
    await until(ann, tid, lambda t: t["current_round"] == 2)
    await old.stop()  # the worker goes away mid-tournament; a new one knows nothing but the rows
    service = app.state.service
    new = TournamentDriver(service, service.leases, app.state.bus, interval=0.05)
    app.state.tournaments = new
    await new.start()
    try:
        for number in (2, 3):
            t = await until(ann, tid, lambda t, n=number: t["current_round"] == n and len(in_play(t)) == 2)
            for mid in in_play(t):
                await play_out(clients, mid)
        t = await until(ann, tid, lambda t: t["status"] == "finished")
    finally:
        await new.stop()
    pairs = [frozenset(p["seats"]) for r in t["rounds"] for p in r["pairings"]]
    assert len(pairs) == len(set(pairs)) == 6, "every pair once, none twice"


@pytest.mark.parametrize(("grace", "move", "first"), [(300, 30, 300), (5, 30, 30)])
async def test_a_clocked_tournament_match_waits_for_its_first_move_at_least_the_grace(
    sqlite_url: str, app_factory: Any, grace: int, move: int, first: int
) -> None:
    """The first deadline is max(move clock, grace): the clock's first-move abort never comes before the
    tournament's no-show grace (issue 26 §Byes, no-shows and withdrawal)."""
    async with app_factory(sqlite_url, TOURNAMENT_GRACE_SECONDS=grace) as app:
        clients: dict[str, AsyncClient] = {}
        for name in ("ann", "ben"):
            c = AsyncClient(transport=ASGITransport(app), base_url="http://testserver")
            r = await c.post("/api/auth/register", json={"username": name, "password": "password123"})
            assert r.status_code == 201
            clients[name] = c
        t = await create(clients["ann"], format="swiss", rounds=1, move_seconds=move, options={"rounds": 3})
        for c in clients.values():
            await c.post(f"/api/tournaments/{t['id']}/join", json={})
        t = (await clients["ann"].post(f"/api/tournaments/{t['id']}/start", json={})).json()
        mid = in_play(t)[0]
        with app.state.db.session() as s:
            row = s.get(Match, mid)
            assert row is not None and row.started_at is not None and row.deadline_at is not None
            assert (row.move_seconds, (row.deadline_at - row.started_at).total_seconds()) == (move, first)
        # each seat's first move gets the grace: after the first mover, the other seat still does ...
        waits = []
        for _ in range(2):
            for c in clients.values():
                st = (await c.get(f"/api/matches/{mid}/state")).json()
                if st["legal"]:
                    action = next(a for a in st["legal"] if a.get("kind") != "resign")
                    body = {"id": f"a{st['seq']}", "seq": st["seq"], "action": action}
                    assert (await c.post(f"/api/matches/{mid}/actions", json=body)).status_code == 200
                    break
            with app.state.db.session() as s:
                row = s.get(Match, mid)
                assert row is not None and row.deadline_at is not None
                last = s.scalar(select(func.max(MatchAction.created_at)).where(MatchAction.match_id == mid))
                waits.append(round((row.deadline_at - last).total_seconds()))
        # ... and once both have moved, the move clock alone counts
        assert waits == [first, move]
        for c in clients.values():
            await c.aclose()


async def test_an_idle_driver_sleeps_longer_but_not_past_the_next_start(
    app: FastAPI, user_client: UserClient
) -> None:
    """Issue 29 §1: with no tournament due the driver reads the table every IDLE_SECONDS, not every second,
    and never sleeps past an open tournament's start time; a creation wakes it to read that time."""
    from datetime import UTC, datetime, timedelta

    from duelclub.play.tournament_driver import IDLE_SECONDS

    driver: TournamentDriver = app.state.tournaments
    driver.kick()
    await driver._pass()
    assert driver._wait == IDLE_SECONDS > driver._interval
    ann = (await members(user_client, "ann"))["ann"]
    starts = datetime.now(UTC) + timedelta(seconds=IDLE_SECONDS / 2)
    await create(ann, starts_at=starts.isoformat())
    driver.kick()
    await driver._pass()
    assert driver._interval <= driver._wait <= IDLE_SECONDS / 2
