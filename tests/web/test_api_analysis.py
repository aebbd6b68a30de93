"""``GET /api/matches/{id}/analysis`` (issue 17 §4, §6; play/analysis.py, store/analysis.py): the same members
as the replay may ask for it; it is queued by the first ask of a finished match (202 ``pending``),
computed in the background by the bot worker loop (``BotWorker.run`` with the analysis as its side work),
stored once and then answered with one entry per action."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from fastapi import FastAPI
from httpx import AsyncClient

from duelclub.bots.analysis_worker import AnalysisRunner
from duelclub.bots.worker import BotWorker, PollWakeup
from duelclub.store import analysis as store
from duelclub.store.models import utcnow

Invite = Callable[..., Awaitable[str]]


async def _finished(alice: AsyncClient, bob: AsyncClient, invite_match: Invite) -> str:
    """A duel between alice and bob played to its end (both play their first legal action)."""
    mid = await invite_match(alice, bob)
    for i in range(60):
        for c in (alice, bob):
            st = (await c.get(f"/api/matches/{mid}/state")).json()
            if st["status"] != "active":
                return mid
            if st["legal"]:
                body = {"id": f"p{i}", "seq": st["seq"], "action": st["legal"][0]}
                assert (await c.post(f"/api/matches/{mid}/actions", json=body)).status_code == 200
                break
    raise AssertionError("the match did not end")


def _runner(app: FastAPI) -> AnalysisRunner:
    service = app.state.service
    return AnalysisRunner(app.state.db, lambda slug: service.games[slug], name="test-analyst", effort=0.2)


def _no_bots(slug: str, level: str, think: float | None) -> Any:
    raise AssertionError("no bot job in these tests")


async def test_the_analysis_is_asked_for_then_computed_by_the_worker_loop(
    app: FastAPI, alice: AsyncClient, bob: AsyncClient, carol: AsyncClient, invite_match: Invite
) -> None:
    mid = await _finished(alice, bob, invite_match)
    r = await carol.get(f"/api/matches/{mid}/analysis")
    assert (r.status_code, r.json()["status"]) == (202, "pending"), "any member who sees the replay"
    assert r.json() == {"id": mid, "game": "duel", "status": "pending", "iterations": None, "entries": []}
    with app.state.db.session() as s:
        assert store.get(s, mid) is not None, "the first ask queues it"
    wakeup = PollWakeup()
    worker = BotWorker(
        app.state.db,
        lambda slug: app.state.service.games[slug],
        _no_bots,
        name="w",
        poll_seconds=0.02,
        wakeup=wakeup,
        side_work=_runner(app).step,
    )
    stop = threading.Event()
    thread = threading.Thread(target=worker.run, args=(stop,), daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while (r := await alice.get(f"/api/matches/{mid}/analysis")).status_code == 202:
            assert r.json()["status"] == "pending"
            assert time.monotonic() < deadline, "the worker loop never computed the analysis"
            await asyncio.sleep(0.05)
    finally:
        stop.set()
        wakeup.close()
        thread.join(10)
    assert r.status_code == 200, r.text
    body = r.json()
    moves = (await alice.get(f"/api/matches/{mid}/moves")).json()
    assert body["status"] == "ready" and body["game"] == "duel" and body["iterations"] >= 2
    assert [e["seq"] for e in body["entries"]] == [a["seq"] for a in moves["actions"]]
    assert [e["seat"] for e in body["entries"]] == [a["seat"] for a in moves["actions"]]
    again = (await bob.get(f"/api/matches/{mid}/analysis")).json()
    assert again == body, "stored once, read many times"


async def test_who_may_ask_and_when(
    app: FastAPI, alice: AsyncClient, bob: AsyncClient, client_factory: Any, invite_match: Invite
) -> None:
    r = await alice.get("/api/matches/nope/analysis")
    assert (r.status_code, r.json()["code"]) == (404, "match_not_found")
    mid = await invite_match(alice, bob)
    r = await alice.get(f"/api/matches/{mid}/analysis")
    assert (r.status_code, r.json()["code"]) == (409, "match_not_finished")
    with app.state.db.session() as s:
        assert store.get(s, mid) is None, "a live match is never queued"
    r = await client_factory().get(f"/api/matches/{mid}/analysis")
    assert r.status_code == 401, "visitors see no replay, hence no analysis"
    assert not _runner(app).step(), "nothing was queued"


async def test_a_stored_analysis_is_not_recomputed_by_a_lease_that_ran_out(
    app: FastAPI, alice: AsyncClient, bob: AsyncClient, invite_match: Invite
) -> None:
    mid = await _finished(alice, bob, invite_match)
    assert (await alice.get(f"/api/matches/{mid}/analysis")).status_code == 202
    runner = _runner(app)
    with app.state.db.session() as s:
        first = store.take(s, "slow", utcnow(), lease_seconds=-1)  # a lease that has already run out
    assert first is not None
    assert runner.step(), "another worker takes it over"
    with app.state.db.session() as s:
        assert not store.store(s, first, [], 1, utcnow()), "the first worker's late answer is refused"
        row = store.get(s, mid)
    assert row is not None and row.entries and len(row.entries) > 0


async def test_bot_jobs_are_answered_between_the_decisions_of_an_analysis(
    app: FastAPI, alice: AsyncClient, bob: AsyncClient, invite_match: Invite
) -> None:
    mid = await _finished(alice, bob, invite_match)
    assert (await alice.get(f"/api/matches/{mid}/analysis")).status_code == 202
    runner = _runner(app)
    due = [True, True, False]  # two bot jobs waiting when the analysis starts, then none
    calls: list[bool] = []

    def bot_step() -> bool:
        calls.append(due.pop(0) if due else False)
        return calls[-1]

    runner.between = bot_step
    assert runner.step()
    actions = (await alice.get(f"/api/matches/{mid}/moves")).json()["actions"]
    assert calls.count(True) == 2, "the waiting bot jobs were answered first"
    assert calls.count(False) == len(actions), "and the queue looked at again before every decision"


async def test_an_analysis_the_workers_gave_up_on_says_so(
    app: FastAPI, alice: AsyncClient, bob: AsyncClient, invite_match: Invite
) -> None:
    """After MAX_ATTEMPTS failed takes the answer is 409 ``analysis_failed``, not «pending» forever."""
    mid = await _finished(alice, bob, invite_match)
    assert (await alice.get(f"/api/matches/{mid}/analysis")).json()["status"] == "pending"
    for _ in range(store.MAX_ATTEMPTS):
        with app.state.db.session() as s:
            job = store.take(s, "failing", utcnow(), lease_seconds=60)
            assert job is not None
            store.release(s, job, utcnow() - timedelta(seconds=1))  # failed; due again at once
    r = await alice.get(f"/api/matches/{mid}/analysis")
    assert (r.status_code, r.json()["code"]) == (409, "analysis_failed")
    assert not _runner(app).step(), "nobody takes it again"
