"""Admin API: list/filter matches, any finished match's log, abort (DESIGN.md §Web — Admin)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI
from httpx import AsyncClient

from duelclub.games.fairness import commitment
from duelclub.store import users

InviteMatch = Callable[..., Awaitable[str]]


def promote(app: FastAPI, username: str) -> None:
    with app.state.db.session() as s:
        user = users.find_user(s, username)
        assert user is not None
        user.is_admin = True


async def test_admin_endpoints_are_for_admins(
    alice: AsyncClient, client_factory: Callable[[], AsyncClient]
) -> None:
    assert (await alice.get("/api/admin/matches")).json()["code"] == "forbidden"
    assert (await alice.post("/api/admin/matches/x/abort", json={})).status_code == 403
    assert (await client_factory().get("/api/admin/matches")).status_code == 401


async def test_admin_lists_and_filters(
    app: FastAPI, alice: AsyncClient, bob: AsyncClient, carol: AsyncClient, invite_match: InviteMatch
) -> None:
    promote(app, "carol")
    duel = await invite_match(alice, bob)
    vs_bot = (
        await alice.post("/api/matches", json={"game": "duel", "vs": "bot", "options": {"pause": True}})
    ).json()
    rows = (await carol.get("/api/admin/matches")).json()
    assert [r["id"] for r in rows] == [vs_bot["id"], duel]
    assert rows[0]["seat"] is None and rows[0]["invite_token"] is None
    only_bob = (await carol.get("/api/admin/matches", params={"user": "BOB"})).json()
    assert [r["id"] for r in only_bob] == [duel]
    assert (await carol.get("/api/admin/matches", params={"user": "nobody"})).json() == []
    assert (await carol.get("/api/admin/matches", params={"status": "finished"})).json() == []
    assert (
        len((await carol.get("/api/admin/matches", params={"game": "duel", "status": "active"})).json()) == 2
    )
    assert (await carol.get("/api/admin/matches", params={"game": "mezha"})).json() == []


async def test_abort_reveals_the_seed_and_opens_the_log(
    app: FastAPI, alice: AsyncClient, bob: AsyncClient, carol: AsyncClient, invite_match: InviteMatch
) -> None:
    promote(app, "carol")
    mid = await invite_match(alice, bob)
    assert (await carol.get(f"/api/admin/matches/{mid}/log")).json()["code"] == "match_not_finished"
    r = await carol.post(f"/api/admin/matches/{mid}/abort", json={})
    assert r.status_code == 200
    summary: dict[str, Any] = r.json()
    assert summary["status"] == "aborted"
    assert summary["result"] == {"winner": None, "reason": "aborted", "names": ["alice", "bob"]}
    assert commitment(bytes.fromhex(summary["server_seed"]), mid) == summary["commitment"]
    again = await carol.post(f"/api/admin/matches/{mid}/abort", json={})
    assert again.status_code == 409 and again.json()["code"] == "match_not_active"
    log = (await carol.get(f"/api/admin/matches/{mid}/log")).json()
    assert log["status"] == "aborted" and log["actions"] == []
    assert (await alice.get(f"/api/matches/{mid}/log")).status_code == 200
    st = (await alice.get(f"/api/matches/{mid}/state")).json()
    r = await alice.post(
        f"/api/matches/{mid}/actions", json={"id": "z", "seq": st["seq"], "action": {"kind": "resign"}}
    )
    assert r.json()["code"] == "match_not_active"


async def test_abort_an_open_invite(
    app: FastAPI, alice: AsyncClient, bob: AsyncClient, carol: AsyncClient
) -> None:
    promote(app, "carol")
    created = (await alice.post("/api/matches", json={"game": "duel", "vs": "invite"})).json()
    assert (await carol.post(f"/api/admin/matches/{created['id']}/abort", json={})).json()[
        "status"
    ] == "aborted"
    r = await bob.post(f"/api/invites/{created['invite_token']}/accept", json={})
    assert r.status_code == 409 and r.json()["code"] == "invite_taken"
    log = (await carol.get(f"/api/admin/matches/{created['id']}/log")).json()
    assert log["final_view"] is None
    assert (await carol.post("/api/admin/matches/nope/abort", json={})).json()["code"] == "match_not_found"
