"""The lobby API (issue 6): the open challenge table's lifecycle and matchmaking through ``/api/queue``."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import AsyncClient

from duelclub.play.matchmaking import STALE_SECONDS, Matchmaker


async def _publish(c: AsyncClient, **body: Any) -> dict[str, Any]:
    r = await c.post("/api/challenges", json={"game": "duel", "options": {"rounds": 3}, **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


async def test_a_published_challenge_is_listed_with_its_options_clock_and_commitment(
    alice: AsyncClient, bob: AsyncClient
) -> None:
    created = await _publish(alice, move_seconds=30)
    assert created["status"] == "open" and created["invite_token"] is None
    rows = (await bob.get("/api/challenges")).json()
    assert [r["id"] for r in rows] == [created["id"]]
    row = rows[0]
    assert (row["author"], row["game"], row["move_seconds"], row["mine"]) == ("alice", "duel", 30, False)
    assert row["options"] == {"rounds": 3, "pause": False} and row["options_text"] == "раундов: 3"
    assert row["commitment"] == created["commitment"] and len(row["commitment"]) == 64
    assert (await alice.get("/api/challenges")).json()[0]["mine"] is True
    assert (await bob.get("/api/challenges?game=mezha")).json() == []


async def test_the_options_are_worded_from_each_readers_seat(alice: AsyncClient, bob: AsyncClient) -> None:
    """Межа's house: the author keeps the house chosen, whoever accepts gets the other one."""
    r = await alice.post("/api/challenges", json={"game": "mezha", "options": {"house": "olkha"}})
    assert r.status_code == 201, r.text
    mine = (await alice.get("/api/challenges")).json()[0]
    theirs = (await bob.get("/api/challenges")).json()[0]
    assert (mine["mine"], mine["options_text"]) == (True, "Ваш дом: Дом Ольхи")
    assert (theirs["mine"], theirs["options_text"]) == (False, "Ваш дом: Дом Горна")


async def test_the_author_cancels_and_the_challenge_leaves_the_table(
    alice: AsyncClient, bob: AsyncClient
) -> None:
    created = await _publish(alice)
    r = await bob.request("DELETE", f"/api/challenges/{created['id']}", json={})
    assert (r.status_code, r.json()["code"]) == (403, "not_your_match")
    r = await alice.request("DELETE", f"/api/challenges/{created['id']}", json={})
    assert r.status_code == 200 and r.json()["result"]["reason"] == "cancelled"
    assert (await bob.get("/api/challenges")).json() == []
    r = await bob.post(f"/api/challenges/{created['id']}/accept", json={})
    assert (r.status_code, r.json()["code"]) == (409, "challenge_closed")


async def test_accepting_starts_the_match_for_both(alice: AsyncClient, bob: AsyncClient) -> None:
    created = await _publish(alice, move_seconds=60)
    r = await alice.post(f"/api/challenges/{created['id']}/accept", json={})
    assert (r.status_code, r.json()["code"]) == (409, "own_challenge")
    r = await bob.post(f"/api/challenges/{created['id']}/accept", json={"client_seed": "ab"})
    assert r.status_code == 200 and r.json() == {"id": created["id"], "seat": 1}
    summary = (await alice.get(f"/api/matches/{created['id']}")).json()
    assert summary["status"] == "active" and summary["move_seconds"] == 60
    assert [s["username"] for s in summary["seats"]] == ["alice", "bob"]
    st = (await alice.get(f"/api/matches/{created['id']}/state")).json()
    assert st["clock"]["move_seconds"] == 60 and st["clock"]["deadline_at"]
    assert (await alice.get("/api/challenges")).json() == []
    r = await alice.request("DELETE", f"/api/challenges/{created['id']}", json={})
    assert (r.status_code, r.json()["code"]) == (409, "match_not_open")


async def test_a_double_accept_starts_one_match(
    alice: AsyncClient, bob: AsyncClient, carol: AsyncClient
) -> None:
    created = await _publish(alice)
    results = await asyncio.gather(
        bob.post(f"/api/challenges/{created['id']}/accept", json={}),
        carol.post(f"/api/challenges/{created['id']}/accept", json={}),
    )
    codes = sorted(r.status_code for r in results)
    assert codes == [200, 409]
    loser = next(r for r in results if r.status_code == 409)
    assert loser.json()["code"] == "challenge_taken"
    summary = (await alice.get(f"/api/matches/{created['id']}")).json()
    winner = "bob" if results[0].status_code == 200 else "carol"
    assert summary["seats"][1]["username"] == winner
    # the winner accepting again is harmless
    again = await (bob if winner == "bob" else carol).post(f"/api/challenges/{created['id']}/accept", json={})
    assert again.status_code == 200


async def test_challenge_clock_is_checked_against_the_game(alice: AsyncClient) -> None:
    r = await alice.post("/api/challenges", json={"game": "mezha", "options": {}, "move_seconds": 60})
    assert (r.status_code, r.json()["code"]) == (422, "bad_clock")
    r = await alice.post("/api/challenges", json={"game": "duel", "move_seconds": 5})
    assert (r.status_code, r.json()["code"]) == (422, "bad_clock")
    # issue 28 §4: correspondence clocks up to 7 days in every game, Межа included (from 1 day)
    r = await alice.post("/api/challenges", json={"game": "mezha", "options": {}, "move_seconds": 604_800})
    assert r.status_code == 201 and (await alice.get("/api/challenges")).json()[0]["move_seconds"] == 604_800
    r = await alice.post("/api/challenges", json={"game": "towers", "move_seconds": 604_801})
    assert (r.status_code, r.json()["code"]) == (422, "bad_clock")
    r = await alice.post("/api/challenges", json={"game": "nope"})
    assert (r.status_code, r.json()["code"]) == (422, "unknown_game")


async def test_anonymous_visitors_read_the_table_but_cannot_publish(
    alice: AsyncClient, client_factory: Any
) -> None:
    await _publish(alice)
    anon = client_factory()
    assert len((await anon.get("/api/challenges")).json()) == 1
    r = await anon.post("/api/challenges", json={"game": "duel"})
    assert r.status_code == 401


# -- matchmaking -----------------------------------------------------------------------------------
async def _join(c: AsyncClient, **body: Any) -> dict[str, Any]:
    r = await c.post("/api/queue", json={"game": "duel", "options": {}, **body})
    assert r.status_code == 200, r.text
    return dict(r.json())


async def test_two_members_with_compatible_options_are_paired_at_once(
    alice: AsyncClient, bob: AsyncClient
) -> None:
    first = await _join(alice, move_seconds=30)
    assert first["status"] == "waiting" and first["move_seconds"] == 30
    second = await _join(bob, move_seconds=30)
    assert second["status"] == "matched" and second["match_id"]
    mine = (await alice.get("/api/queue")).json()
    assert mine == {**mine, "status": "matched", "match_id": second["match_id"]}
    summary = (await alice.get(f"/api/matches/{second['match_id']}")).json()
    assert summary["status"] == "active" and summary["move_seconds"] == 30
    assert [s["username"] for s in summary["seats"]] == ["alice", "bob"]  # the older entry opens


async def test_different_options_or_clocks_are_not_paired(
    alice: AsyncClient, bob: AsyncClient, carol: AsyncClient
) -> None:
    await _join(alice, move_seconds=30)
    assert (await _join(bob, move_seconds=60))["status"] == "waiting"
    assert (await _join(carol, options={"rounds": 1}, move_seconds=30))["status"] == "waiting"
    assert (await alice.get("/api/queue")).json()["status"] == "waiting"


async def test_one_entry_per_member_and_leaving_the_queue(alice: AsyncClient, bob: AsyncClient) -> None:
    await _join(alice, move_seconds=30)
    await _join(alice, move_seconds=60)  # replaces the first entry
    assert (await alice.get("/api/queue")).json()["move_seconds"] == 60
    r = await alice.request("DELETE", "/api/queue", json={})
    assert r.status_code == 200 and r.json()["status"] == "none"
    assert (await _join(bob, move_seconds=60))["status"] == "waiting"  # alice is gone
    r = await alice.post("/api/queue", json={"game": "duel", "move_seconds": 60})
    assert r.json()["status"] == "matched"


async def test_a_member_does_not_meet_themselves(alice: AsyncClient) -> None:
    await _join(alice)
    assert (await _join(alice))["status"] == "waiting"


async def test_a_stale_entry_is_dropped(app: FastAPI, alice: AsyncClient, bob: AsyncClient) -> None:
    from datetime import timedelta

    from duelclub.store.models import QueueEntry

    await _join(alice)
    with app.state.db.session() as s:
        entry = s.get(QueueEntry, 1)
        assert entry is not None
        entry.seen_at = entry.seen_at - timedelta(seconds=STALE_SECONDS + 1)
    assert (await _join(bob))["status"] == "waiting"
    assert (await alice.get("/api/queue")).json()["status"] == "none"


@pytest.mark.parametrize("game", ["duel", "mezha"])
async def test_queue_works_for_every_game(alice: AsyncClient, bob: AsyncClient, game: str) -> None:
    await _join(alice, game=game)
    assert (await _join(bob, game=game))["status"] == "matched"


async def test_two_workers_share_one_queue(database_url: str, app_factory: Any) -> None:
    """Entries written through two app instances on one database are paired by either's matchmaker, and
    never twice: two passes at once start one match."""
    from httpx import ASGITransport

    async with app_factory(database_url) as one, app_factory(database_url) as two:
        ca = AsyncClient(transport=ASGITransport(one), base_url="http://testserver")
        cb = AsyncClient(transport=ASGITransport(two), base_url="http://testserver")
        try:
            for c, name in ((ca, "walter"), (cb, "wendy")):
                r = await c.post("/api/auth/register", json={"username": name, "password": "password123"})
                assert r.status_code == 201
            await one.state.matchmaker.stop()
            await two.state.matchmaker.stop()
            from duelclub.play import matchmaking

            for c, app in ((ca, one), (cb, two)):
                user = (await c.get("/api/me")).json()
                await matchmaking.join(
                    app.state.service,
                    user["id"],
                    game="duel",
                    options={},
                    move_seconds=None,
                    matchmaker=_NoPair(),  # type: ignore[arg-type]
                )
            started = await asyncio.gather(
                Matchmaker(one.state.service).pair(), Matchmaker(two.state.service).pair()
            )
            assert sum(len(s) for s in started) == 1
            mid = (started[0] or started[1])[0]
            assert (await ca.get("/api/queue")).json()["match_id"] == mid
            assert (await cb.get("/api/queue")).json()["match_id"] == mid
        finally:
            await ca.aclose()
            await cb.aclose()


class _NoPair:
    async def pair(self) -> list[str]:
        return []
