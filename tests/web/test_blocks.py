"""Blocking (issue 28 §5), on SQLite and PostgreSQL: the API (list, block, unblock; idempotent; oneself, an
unknown member and a deleted account refused), and one test per path it keeps apart — challenges (both
ways, and the table), invite links, the matchmaking queue, and the chat."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from httpx import ASGITransport, AsyncClient
from sqlalchemy import func, select

from duelclub.play.matchmaking import Matchmaker
from duelclub.store.models import Block, User

Members = Callable[[str], Awaitable[AsyncClient]]


@pytest.fixture
async def club(database_url: str, app_factory: Any) -> AsyncIterator[tuple[Any, Members]]:
    """The app on SQLite or PostgreSQL and ``await member(name)`` → a logged-in client of a new member."""
    async with app_factory(database_url) as app:
        clients: list[AsyncClient] = []

        async def member(name: str) -> AsyncClient:
            c = AsyncClient(transport=ASGITransport(app), base_url="http://testserver")
            clients.append(c)
            r = await c.post("/api/auth/register", json={"username": name, "password": "password123"})
            assert r.status_code == 201, r.text
            return c

        try:
            yield app, member
        finally:
            for c in clients:
                await c.aclose()


async def _block(c: AsyncClient, name: str) -> Any:
    return await c.put(f"/api/me/blocks/{name}", json={})


async def test_blocks_are_listed_idempotent_and_lifted(club: tuple[Any, Members]) -> None:
    _, member = club
    alice, _bob, _carol = await member("alice"), await member("bob"), await member("carol")
    r = await _block(alice, "bob")
    assert r.status_code == 200 and r.json() == {"username": "bob", "blocked": True, "changed": True}
    assert (await _block(alice, "BOB")).json() == {"username": "bob", "blocked": True, "changed": False}
    r = await alice.post("/api/members/carol/block", json={})  # the form of the same call
    assert r.status_code == 200 and r.json()["changed"] is True
    listed = (await alice.get("/api/me/blocks")).json()
    assert sorted(b["username"] for b in listed) == ["bob", "carol"] and all(b["blocked_at"] for b in listed)
    assert (await _bob.get("/api/me/blocks")).json() == []  # a block is the blocker's list only

    r = await alice.request("DELETE", "/api/me/blocks/bob", json={})
    assert r.status_code == 200 and r.json() == {"username": "bob", "blocked": False, "changed": True}
    r = await alice.request("DELETE", "/api/me/blocks/bob", json={})
    assert r.status_code == 200 and r.json()["changed"] is False
    r = await alice.request("DELETE", "/api/members/carol/block", json={})
    assert r.json()["changed"] is True
    assert (await alice.get("/api/me/blocks")).json() == []


async def test_blocking_oneself_an_unknown_member_or_a_deleted_account_is_refused(
    club: tuple[Any, Members],
) -> None:
    app, member = club
    alice, dave = await member("alice"), await member("dave")
    r = await _block(alice, "alice")
    assert (r.status_code, r.json()["code"]) == (422, "block_self")
    r = await _block(alice, "nobody")
    assert (r.status_code, r.json()["code"]) == (404, "member_not_found")
    await _block(dave, "alice")
    assert (await dave.request("DELETE", "/api/me", json={"password": "password123"})).status_code == 204
    deleted = next(n for n in _names(app) if n.startswith("deleted-"))
    r = await _block(alice, deleted)
    assert (r.status_code, r.json()["code"]) == (404, "member_not_found")
    assert (await alice.get("/api/me/blocks")).json() == []
    with app.state.db.session() as s:  # the deleted account's own block is erased with it
        assert s.scalar(select(func.count()).select_from(Block)) == 0
    anon = AsyncClient(transport=ASGITransport(app), base_url="http://testserver")
    async with anon:
        assert (await anon.get("/api/me/blocks")).status_code == 401
        assert (await _block(anon, "alice")).status_code == 401


def _names(app: Any) -> list[str]:
    with app.state.db.session() as s:
        return list(s.scalars(select(User.username)))


async def _challenge(c: AsyncClient) -> str:
    r = await c.post("/api/challenges", json={"game": "duel", "options": {}})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


async def test_challenges_are_refused_both_ways_and_left_out_of_the_table(club: tuple[Any, Members]) -> None:
    _, member = club
    alice, bob, carol = await member("alice"), await member("bob"), await member("carol")
    await _block(alice, "bob")
    of_alice, of_bob = await _challenge(alice), await _challenge(bob)
    r = await bob.post(f"/api/challenges/{of_alice}/accept", json={})
    assert (r.status_code, r.json()["code"]) == (403, "blocked_by_member")
    assert "alice" in r.json()["message"]
    r = await alice.post(f"/api/challenges/{of_bob}/accept", json={})  # the blocker cannot either
    assert (r.status_code, r.json()["code"]) == (409, "you_blocked")
    assert [c["id"] for c in (await bob.get("/api/challenges")).json()] == [of_bob]
    assert [c["id"] for c in (await alice.get("/api/challenges")).json()] == [of_alice]
    assert len((await carol.get("/api/challenges")).json()) == 2
    for mid in (of_alice, of_bob):
        assert (await alice.get(f"/api/matches/{mid}")).json()["status"] == "open"  # nothing changed

    await alice.request("DELETE", "/api/me/blocks/bob", json={})
    r = await bob.post(f"/api/challenges/{of_alice}/accept", json={})
    assert r.status_code == 200 and r.json()["id"] == of_alice


async def test_invite_links_refuse_the_blocked_member_with_a_clear_message(club: tuple[Any, Members]) -> None:
    _, member = club
    alice, bob, carol = await member("alice"), await member("bob"), await member("carol")
    await _block(alice, "bob")
    r = await alice.post("/api/matches", json={"game": "duel", "vs": "invite", "options": {}})
    token = r.json()["invite_token"]
    r = await bob.post(f"/api/invites/{token}/accept", json={}, headers={"Accept-Language": "uk"})
    assert (r.status_code, r.json()["code"]) == (403, "blocked_by_member")
    assert "alice" in r.json()["message"] and "заблокува" in r.json()["message"]  # in the member's language
    r = await bob.post("/api/matches", json={"game": "duel", "vs": "invite", "options": {}})
    r = await alice.post(f"/api/invites/{r.json()['invite_token']}/accept", json={})
    assert (r.status_code, r.json()["code"]) == (409, "you_blocked")
    r = await carol.post(f"/api/invites/{token}/accept", json={})
    assert r.status_code == 200  # anyone else still may


async def _join(c: AsyncClient) -> dict[str, Any]:
    r = await c.post("/api/queue", json={"game": "duel", "options": {}, "move_seconds": 30})
    assert r.status_code == 200, r.text
    return dict(r.json())


async def test_matchmaking_never_pairs_a_blocked_pair(club: tuple[Any, Members]) -> None:
    app, member = club
    alice, bob, carol = await member("alice"), await member("bob"), await member("carol")
    await _block(bob, "alice")
    assert (await _join(alice))["status"] == "waiting"
    assert (await _join(bob))["status"] == "waiting"
    assert await Matchmaker(app.state.service).pair() == []
    assert (await alice.get("/api/queue")).json()["status"] == "waiting"
    paired = await _join(carol)  # the next compatible member takes the oldest entry
    assert paired["status"] == "matched"
    seats = (await carol.get(f"/api/matches/{paired['match_id']}")).json()["seats"]
    assert [s["username"] for s in seats] == ["alice", "carol"]
    assert (await bob.get("/api/queue")).json()["status"] == "waiting"


async def test_chat_is_closed_between_a_blocked_pair(club: tuple[Any, Members], invite_match: Any) -> None:
    _, member = club
    alice, bob, carol = await member("alice"), await member("bob"), await member("carol")
    match_id = await invite_match(alice, bob)
    url = f"/api/matches/{match_id}/chat"
    assert (await bob.post(url, json={"text": "before"})).status_code == 201
    await _block(alice, "bob")
    r = await bob.post(url, json={"text": "after"})
    assert (r.status_code, r.json()["code"]) == (403, "blocked_by_member")
    r = await alice.post(url, json={"text": "mine"})
    assert (r.status_code, r.json()["code"]) == (409, "you_blocked")
    assert [m["text"] for m in (await alice.get(url)).json()["messages"]] == []  # bob's old one hidden
    assert [m["text"] for m in (await bob.get(url)).json()["messages"]] == ["before"]
    assert (await alice.get(url)).json()["opponent_blocked"] is True

    await _block(alice, "carol")  # a blocked spectator cannot write to the blocker's match either
    r = await carol.post(url, json={"text": "from the gallery"})
    assert (r.status_code, r.json()["code"]) == (403, "blocked_by_member")
    await alice.request("DELETE", "/api/me/blocks/bob", json={})
    assert (await bob.post(url, json={"text": "again"})).status_code == 201
    assert [m["text"] for m in (await alice.get(url)).json()["messages"]] == ["before", "again"]
