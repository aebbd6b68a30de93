"""Admin API: list/filter matches, any finished match's log, abort (DESIGN.md §Web — Admin)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI
from httpx import AsyncClient

from duelclub.games.fairness import commitment, match_key
from duelclub.store import matches as repo
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
    assert summary["result"] == {
        "winner": None,
        "reason": "aborted",
        "reason_text": "партия прервана",
        "names": ["alice", "bob"],
    }
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
    assert r.status_code == 409 and r.json()["code"] == "invite_closed"
    log = (await carol.get(f"/api/admin/matches/{created['id']}/log")).json()
    assert log["final_view"] is None and log["initial"] is None
    assert (await carol.post("/api/admin/matches/nope/abort", json={})).json()["code"] == "match_not_found"


def plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


async def play_out(clients: list[AsyncClient], match_id: str) -> None:
    """Both players play their first legal action until the match ends."""
    for i in range(50):
        for c in clients:
            st = (await c.get(f"/api/matches/{match_id}/state")).json()
            if st["status"] != "active":
                return
            if st["legal"]:
                body = {"id": f"p{i}", "seq": st["seq"], "action": st["legal"][0]}
                assert (await c.post(f"/api/matches/{match_id}/actions", json=body)).status_code == 200
                break
    raise AssertionError("the match did not end")


async def test_replay_at_seq_n_is_the_state_after_n_actions(
    alice: AsyncClient, bob: AsyncClient, admin: AsyncClient, invite_match: InviteMatch, duel: Any
) -> None:
    mid = await invite_match(alice, bob)
    await play_out([alice, bob], mid)
    log = (await admin.get(f"/api/admin/matches/{mid}/log")).json()
    n = len(log["actions"])
    assert n >= 4  # three rounds at most; two won rounds end it
    key = match_key(bytes.fromhex(log["server_seed"]), mid, "aa", "bb")
    state = duel.new_match(key, duel.parse_options({}))
    for seq in range(n + 1):
        step = (await admin.get(f"/api/admin/matches/{mid}/replay", params={"seq": seq})).json()
        assert (step["id"], step["game"], step["seq"], step["last_seq"]) == (mid, "duel", seq, n)
        assert step["view"] == plain(duel.full_view(state)), seq
        if seq == 0:
            assert step["action"] is None and step["events"] == [] and step["view"] == log["initial"]
        else:
            assert step["action"] == log["actions"][seq - 1]
        if seq < n:
            entry = log["actions"][seq]
            duel.apply(state, entry["seat"], duel.parse_action(entry["action"]))
    assert step["view"] == log["final_view"]
    r = await admin.get(f"/api/admin/matches/{mid}/replay", params={"seq": n + 1})
    assert r.status_code == 422 and r.json()["code"] == "bad_seq"
    assert (await admin.get(f"/api/admin/matches/{mid}/replay", params={"seq": -1})).status_code == 422


async def test_replay_is_for_admins_and_ended_matches_only(
    app: FastAPI, alice: AsyncClient, bob: AsyncClient, admin: AsyncClient, invite_match: InviteMatch
) -> None:
    mid = await invite_match(alice, bob)
    r = await admin.get(f"/api/admin/matches/{mid}/replay", params={"seq": 0})
    assert r.status_code == 409 and r.json()["code"] == "match_not_finished"
    assert (await alice.get(f"/api/admin/matches/{mid}/replay")).json()["code"] == "forbidden"
    assert (await admin.get("/api/admin/matches/nope/replay")).json()["code"] == "match_not_found"
    created = (await alice.post("/api/matches", json={"game": "duel", "vs": "invite"})).json()
    await admin.post(f"/api/admin/matches/{created['id']}/abort", json={})
    r = await admin.get(f"/api/admin/matches/{created['id']}/replay")
    assert r.status_code == 409  # aborted before the deal: nothing to replay
    await play_out([alice, bob], mid)
    assert (await alice.get(f"/api/admin/matches/{mid}/replay")).status_code == 403


async def test_the_server_seed_of_a_live_match_is_nowhere_in_admin_output(
    app: FastAPI, alice: AsyncClient, bob: AsyncClient, admin: AsyncClient, invite_match: InviteMatch
) -> None:
    """rules/fairness.md §Values: S is secret until the end, admin screens of live matches included."""
    live = await invite_match(alice, bob)
    waiting = (await alice.post("/api/matches", json={"game": "duel", "vs": "invite"})).json()["id"]
    seeds: dict[str, str] = {}
    for mid in (live, waiting):
        with app.state.db.session() as s:
            record = repo.get_match(s, mid)
            assert record is not None
            seed = seeds[mid] = record.server_seed
        paths = [
            "/api/admin/matches",
            f"/api/admin/matches?user=alice&status={record.status}",
            f"/api/matches/{mid}",
            f"/api/matches/{mid}/state",
            f"/api/admin/matches/{mid}/log",
            f"/api/admin/matches/{mid}/replay?seq=0",
            f"/admin/matches/{mid}",
            f"/matches/{mid}/verify",
            "/admin",
        ]
        for path in paths:
            r = await admin.get(path)
            assert r.status_code in (200, 409), (path, r.status_code)
            assert seed not in r.text, path
        assert (await admin.get(f"/api/matches/{mid}")).json()["server_seed"] is None
    r = await admin.post(f"/api/admin/matches/{live}/abort", json={})
    assert r.json()["server_seed"] == seeds[live]  # published once the match has ended


async def test_abort_an_active_match_vs_the_bot(alice: AsyncClient, admin: AsyncClient) -> None:
    body = {"game": "duel", "vs": "bot", "options": {"pause": True}}
    mid = (await alice.post("/api/matches", json=body)).json()["id"]
    r = await admin.post(f"/api/admin/matches/{mid}/abort", json={})
    assert r.status_code == 200 and r.json()["status"] == "aborted" and r.json()["server_seed"]
    rows = (await admin.get("/api/admin/matches", params={"status": "aborted"})).json()
    assert [row["id"] for row in rows] == [mid]
    log = (await admin.get(f"/api/admin/matches/{mid}/log")).json()
    assert log["initial"] is not None
    step = (await admin.get(f"/api/admin/matches/{mid}/replay", params={"seq": 0})).json()
    assert step["view"] == log["initial"]
