"""Cancelling an open invite: ``DELETE /api/matches/{id}`` by its opener (DESIGN.md §Public JSON API)."""

from __future__ import annotations

from typing import Any

from httpx import AsyncClient


async def open_invite(client: AsyncClient) -> dict[str, Any]:
    r = await client.post("/api/matches", json={"game": "duel", "vs": "invite", "options": {}})
    assert r.status_code == 201, r.text
    return dict(r.json())


async def cancel(client: AsyncClient, match_id: str) -> Any:
    return await client.request("DELETE", f"/api/matches/{match_id}", json={})


async def test_the_opener_cancels_an_open_invite(alice: AsyncClient) -> None:
    created = await open_invite(alice)
    r = await cancel(alice, created["id"])
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == "aborted"
    assert body["result"]["reason"] == "cancelled" and body["result"]["winner"] is None
    assert body["server_seed"]  # ended: the seed is published, as for any ended match
    summary = (await alice.get(f"/api/matches/{created['id']}")).json()
    assert summary["status"] == "aborted" and summary["result"]["reason"] == "cancelled"
    listed = {m["id"]: m for m in (await alice.get("/api/matches")).json()}
    assert listed[created["id"]]["status"] == "aborted" and listed[created["id"]]["invite_token"] is None


async def test_a_cancelled_invite_cannot_be_accepted(alice: AsyncClient, bob: AsyncClient) -> None:
    created = await open_invite(alice)
    assert (await cancel(alice, created["id"])).status_code == 200
    r = await bob.post(f"/api/invites/{created['invite_token']}/accept", json={})
    assert r.status_code == 409 and r.json()["code"] == "invite_closed"
    info = (await bob.get(f"/api/invites/{created['invite_token']}")).json()
    assert info["status"] == "aborted"


async def test_only_the_opener_may_cancel(alice: AsyncClient, bob: AsyncClient) -> None:
    created = await open_invite(alice)
    r = await cancel(bob, created["id"])
    assert r.status_code == 403 and r.json()["code"] == "not_your_match"
    assert (await alice.get(f"/api/matches/{created['id']}")).json()["status"] == "open"


async def test_an_accepted_invite_cannot_be_cancelled(alice: AsyncClient, bob: AsyncClient) -> None:
    created = await open_invite(alice)
    assert (await bob.post(f"/api/invites/{created['invite_token']}/accept", json={})).status_code == 200
    for who in (alice, bob):
        r = await cancel(who, created["id"])
        assert r.status_code in (403, 409)
    r = await cancel(alice, created["id"])
    assert r.status_code == 409 and r.json()["code"] == "match_not_open"
    assert (await alice.get(f"/api/matches/{created['id']}")).json()["status"] == "active"


async def test_cancelling_twice_or_a_bot_match_is_409(alice: AsyncClient) -> None:
    created = await open_invite(alice)
    assert (await cancel(alice, created["id"])).status_code == 200
    r = await cancel(alice, created["id"])
    assert r.status_code == 409 and r.json()["code"] == "match_not_open"
    vs_bot = await alice.post("/api/matches", json={"game": "duel", "vs": "bot", "options": {}})
    r = await cancel(alice, vs_bot.json()["id"])
    assert r.status_code == 409 and r.json()["code"] == "match_not_open"


async def test_cancel_needs_a_session_json_and_a_known_match(alice: AsyncClient, client_factory: Any) -> None:
    created = await open_invite(alice)
    assert (await cancel(client_factory(), created["id"])).status_code == 401
    r = await alice.request("DELETE", f"/api/matches/{created['id']}")  # no JSON content type
    assert r.status_code == 403 and r.json()["code"] == "csrf"
    r = await cancel(alice, "no-such-match")
    assert r.status_code == 404 and r.json()["code"] == "match_not_found"
