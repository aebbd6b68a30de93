"""Idempotent lobby writes under double clicks and races (issue 18 §"What it must show" 2 and 4).

Every test sends the two requests at once (``asyncio.gather``) through the app, many rounds in a row, on
SQLite and PostgreSQL, and with one worker or two app instances ("workers") on the same database, as
production runs several: a member's two tabs may sit on different workers. The invariants: no 5xx under any
interleaving, one queue entry per member, one match per accepted offer, and the same answer to both clicks.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import ASGITransport, AsyncClient, Response
from sqlalchemy import func, select

from duelclub.store.models import Match, QueueEntry

ROUNDS = 12
"""Rounds per race: before the fixes, the queue race failed ~1 round in 2 and the rematch accept 2 in 5."""

Tabs = tuple[AsyncClient, AsyncClient]
MemberFactory = Callable[[str], Awaitable[Tabs]]


@pytest.fixture(params=[1, 2], ids=["one_worker", "two_workers"])
async def apps(
    request: pytest.FixtureRequest, database_url: str, app_factory: Any
) -> AsyncIterator[list[FastAPI]]:
    """One or two app instances with running lifespans (matchmaker included) on one database."""
    async with contextlib.AsyncExitStack() as stack:
        yield [await stack.enter_async_context(app_factory(database_url)) for _ in range(request.param)]


@pytest.fixture
async def member(apps: list[FastAPI]) -> AsyncIterator[MemberFactory]:
    """``await member("alice")`` → the member's two tabs: clients sharing one session, on the first and the
    last worker (the same worker when there is one)."""
    clients: list[AsyncClient] = []

    def client(app: FastAPI) -> AsyncClient:
        clients.append(AsyncClient(transport=ASGITransport(app), base_url="http://testserver"))
        return clients[-1]

    async def make(name: str) -> Tabs:
        first = client(apps[0])
        r = await first.post("/api/auth/register", json={"username": name, "password": "password123"})
        assert r.status_code == 201, r.text
        second = client(apps[-1])
        second.cookies = first.cookies
        return first, second

    yield make
    for c in clients:
        await c.aclose()


async def both(*requests: Awaitable[Response]) -> list[Response]:
    """The responses of requests sent at once; none may be a 5xx."""
    responses = list(await asyncio.gather(*requests))
    for r in responses:
        assert r.status_code < 500, r.text
    return responses


def count(app: FastAPI, *where: Any, model: Any = Match) -> int:
    with app.state.db.session() as s:
        return int(s.scalar(select(func.count()).select_from(model).where(*where)) or 0)


async def resign(client: AsyncClient, match_id: str, aid: str = "gg") -> None:
    """Resign, again on ``stale_seq`` (a bot's move may land between the read of seq and the resignation).
    A rated match resigned before both first moves ends aborted (issue 31 §1): over either way."""
    for _ in range(20):
        st = (await client.get(f"/api/matches/{match_id}/state")).json()
        body = {"id": aid, "seq": st["seq"], "action": {"kind": "resign"}}
        r = await client.post(f"/api/matches/{match_id}/actions", json=body)
        if r.status_code != 409 or r.json()["code"] != "stale_seq":
            break
    assert r.status_code == 200 and r.json()["status"] in ("finished", "aborted"), r.text


def queue_body(move_seconds: int | None = None, **options: Any) -> dict[str, Any]:
    # Casual: after a rated round the two would be rated ~340 apart, beyond the first matchmaking window
    # (issue 14 §3), and these tests are about races, not ratings.
    return {"game": "duel", "options": options, "move_seconds": move_seconds, "rated": False}


# -- the queue -------------------------------------------------------------------------------------
async def test_a_double_join_answers_both_and_leaves_one_entry(
    apps: list[FastAPI], member: MemberFactory
) -> None:
    """Issue 18 finding 3: two joins at once from one member (one answered 500 UniqueViolation)."""
    one, two = await member("alice")
    for _ in range(ROUNDS):
        r1, r2 = await both(
            one.post("/api/queue", json=queue_body(30)), two.post("/api/queue", json=queue_body(60))
        )
        assert (r1.status_code, r2.status_code) == (200, 200), (r1.text, r2.text)
        assert {r1.json()["status"], r2.json()["status"]} == {"waiting"}
        mine = (await one.get("/api/queue")).json()
        assert mine["status"] == "waiting" and mine["move_seconds"] in (30, 60)
        assert count(apps[0], model=QueueEntry) == 1


async def test_a_rejoin_keeps_a_live_queue_match_and_replaces_an_ended_one(
    apps: list[FastAPI], member: MemberFactory
) -> None:
    """A join never turns an entry paired into a live match back into a waiting one: it answers the match.
    Once that match has ended the same join replaces the entry."""
    alice, _ = await member("alice")
    bob, _ = await member("bob")
    assert (await alice.post("/api/queue", json=queue_body(30))).json()["status"] == "waiting"
    paired = (await bob.post("/api/queue", json=queue_body(30))).json()
    assert paired["status"] == "matched"
    again = (await alice.post("/api/queue", json=queue_body(60, rounds=1))).json()
    assert (again["status"], again["match_id"], again["move_seconds"]) == ("matched", paired["match_id"], 30)
    await resign(alice, paired["match_id"])
    after = (await alice.post("/api/queue", json=queue_body(60, rounds=1))).json()
    assert (after["status"], after["move_seconds"], after["options"]["rounds"]) == ("waiting", 60, 1)


async def test_a_rejoin_racing_a_pairing_never_strands_the_member(
    apps: list[FastAPI], member: MemberFactory
) -> None:
    """Alice waits; Bob joins (pairing them) while Alice joins again from another tab. Whatever the order,
    both end matched into the one match that started: the rejoin never overwrites the pairing."""
    alice, alice_tab = await member("alice")
    bob, _ = await member("bob")
    for n in range(ROUNDS):
        assert (await alice.post("/api/queue", json=queue_body(30))).json()["status"] == "waiting"
        answers = await both(
            bob.post("/api/queue", json=queue_body(30)), alice_tab.post("/api/queue", json=queue_body(30))
        )
        assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
        for _ in range(100):  # a join racing another worker's join is paired by the next pass (0.5 s)
            mine, theirs = (await alice.get("/api/queue")).json(), (await bob.get("/api/queue")).json()
            if mine["status"] == theirs["status"] == "matched":
                break
            await asyncio.sleep(0.05)
        assert mine["status"] == theirs["status"] == "matched", (n, mine, theirs)
        assert mine["match_id"] == theirs["match_id"]
        for r in answers:
            assert r.json()["status"] == "waiting" or r.json()["match_id"] == mine["match_id"]
        assert count(apps[0]) == n + 1  # one match per round
        await resign(alice, mine["match_id"], aid=f"gg{n}")


# -- rematches -------------------------------------------------------------------------------------
async def _ended_invite_match(opener: AsyncClient, joiner: AsyncClient) -> str:
    r = await opener.post("/api/matches", json={"game": "duel", "vs": "invite", "options": {}})
    assert r.status_code == 201, r.text
    r = await joiner.post(f"/api/invites/{r.json()['invite_token']}/accept", json={})
    assert r.status_code == 200, r.text
    mid = str(r.json()["id"])
    await resign(joiner, mid)
    return mid


async def test_a_double_rematch_accept_answers_the_same_live_match(
    apps: list[FastAPI], member: MemberFactory
) -> None:
    """Issue 18 finding 4: Bob accepts Alice's rematch from two tabs at once (one answered 409
    ``rematch_closed`` although the rematch was live)."""
    alice, _ = await member("alice")
    bob, bob_tab = await member("bob")
    for n in range(ROUNDS):
        old = await _ended_invite_match(alice, bob)
        offer = (await alice.post(f"/api/matches/{old}/rematch", json={})).json()
        assert offer["status"] == "open"
        r1, r2 = await both(
            bob.post(f"/api/matches/{old}/rematch", json={}),
            bob_tab.post(f"/api/matches/{old}/rematch", json={}),
        )
        assert (r1.status_code, r2.status_code) == (200, 200), (n, r1.text, r2.text)
        assert r1.json()["id"] == r2.json()["id"] == offer["id"]
        assert r1.json()["status"] == r2.json()["status"] == "active"
        assert count(apps[0], Match.rematch_of == old) == 1


async def test_offers_crossing_and_a_double_offer_make_one_rematch(
    apps: list[FastAPI], member: MemberFactory
) -> None:
    """Both players offer at once (the second offer accepts the first), and one player offers from two tabs
    at once (the same open offer)."""
    alice, alice_tab = await member("alice")
    bob, _ = await member("bob")
    for n in range(ROUNDS):
        old = await _ended_invite_match(alice, bob)
        if n % 2:
            answers = await both(
                alice.post(f"/api/matches/{old}/rematch", json={}),
                bob.post(f"/api/matches/{old}/rematch", json={}),
            )
            status = "active"
        else:
            answers = await both(
                alice.post(f"/api/matches/{old}/rematch", json={}),
                alice_tab.post(f"/api/matches/{old}/rematch", json={}),
            )
            status = "open"
        assert [r.status_code for r in answers] == [200, 200], (n, [r.text for r in answers])
        assert answers[0].json()["id"] == answers[1].json()["id"]
        summary = (await alice.get(f"/api/matches/{answers[0].json()['id']}")).json()
        assert summary["status"] == status
        assert count(apps[0], Match.rematch_of == old) == 1


async def test_two_rematch_requests_against_a_bot_start_one_match(
    apps: list[FastAPI], member: MemberFactory
) -> None:
    """Issue 18 finding 5: two rematch requests at once after a match against a bot (two matches started)."""
    one, two = await member("alice")
    for n in range(ROUNDS):
        r = await one.post("/api/matches", json={"game": "duel", "vs": "bot", "options": {}})
        assert r.status_code == 201, r.text
        old = r.json()["id"]
        await resign(one, old)
        r1, r2 = await both(
            one.post(f"/api/matches/{old}/rematch", json={}), two.post(f"/api/matches/{old}/rematch", json={})
        )
        assert (r1.status_code, r2.status_code) == (200, 200), (n, r1.text, r2.text)
        assert r1.json()["id"] == r2.json()["id"]
        assert r1.json()["status"] == r2.json()["status"] == "active"
        assert count(apps[0], Match.rematch_of == old) == 1
        assert count(apps[0]) == 2 * (n + 1)
        await resign(one, r1.json()["id"], aid=f"gg{n}")


# -- invites and challenges (already one match: keep it so) -----------------------------------------
async def test_a_double_accept_of_an_invite_answers_one_match(
    apps: list[FastAPI], member: MemberFactory
) -> None:
    alice, _ = await member("alice")
    bob, bob_tab = await member("bob")
    carol, _ = await member("carol")
    for n in range(ROUNDS):
        r = await alice.post("/api/matches", json={"game": "duel", "vs": "invite", "options": {}})
        url = f"/api/invites/{r.json()['invite_token']}/accept"
        if n % 2:  # two members at once: one seat, the other is told it is taken
            answers = await both(bob.post(url, json={}), carol.post(url, json={}))
            assert sorted(r.status_code for r in answers) == [200, 409], [r.text for r in answers]
            assert next(r for r in answers if r.status_code == 409).json()["code"] == "invite_taken"
        else:  # one member from two tabs: the same answer twice
            answers = await both(bob.post(url, json={}), bob_tab.post(url, json={}))
            assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
            assert answers[0].json() == answers[1].json() == {"id": r.json()["id"], "seat": 1}
        summary = (await alice.get(f"/api/matches/{r.json()['id']}")).json()
        assert summary["status"] == "active"
        await resign(alice, r.json()["id"])


async def test_a_double_accept_of_a_challenge_answers_one_match(
    apps: list[FastAPI], member: MemberFactory
) -> None:
    alice, _ = await member("alice")
    bob, bob_tab = await member("bob")
    carol, _ = await member("carol")
    for n in range(ROUNDS):
        r = await alice.post("/api/challenges", json={"game": "duel", "options": {}})
        url = f"/api/challenges/{r.json()['id']}/accept"
        if n % 2:
            answers = await both(bob.post(url, json={}), carol.post(url, json={}))
            assert sorted(r.status_code for r in answers) == [200, 409], [r.text for r in answers]
            assert next(r for r in answers if r.status_code == 409).json()["code"] == "challenge_taken"
        else:
            answers = await both(bob.post(url, json={}), bob_tab.post(url, json={}))
            assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
            assert answers[0].json() == answers[1].json() == {"id": r.json()["id"], "seat": 1}
        assert (await alice.get(f"/api/matches/{r.json()['id']}")).json()["status"] == "active"
        assert count(apps[0], Match.status == "open") == 0
        await resign(alice, r.json()["id"])
