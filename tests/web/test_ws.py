"""The match WebSocket with two players on a real server (DESIGN.md §Real time)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import pytest
from httpx import AsyncClient
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from duelclub.web.socket_messages import MATCH_SERVER_MESSAGE

PW = "password123"


async def login_client(base: str, username: str) -> AsyncClient:
    c = AsyncClient(base_url=base)
    r = await c.post("/api/auth/register", json={"username": username, "password": PW})
    assert r.status_code == 201, r.text
    return c


def cookie_header(c: AsyncClient) -> dict[str, str]:
    return {"Cookie": f"duelclub_session={c.cookies['duelclub_session']}"}


async def recv(ws: ClientConnection, kind: str, timeout: float = 5.0) -> dict[str, Any]:
    """The next message of type ``kind`` (others are skipped); every message read must be one of the
    match socket's typed messages (web/socket_messages.py)."""
    async with asyncio.timeout(timeout):
        while True:
            msg = json.loads(await ws.recv())
            MATCH_SERVER_MESSAGE.validate_python(msg)
            if msg["type"] == kind:
                return dict(msg)


async def errors_until_closed(ws: ClientConnection, timeout: float = 5.0) -> list[dict[str, Any]]:
    """The error messages ``ws`` gets until the server closes it (fails after ``timeout``)."""
    errors: list[dict[str, Any]] = []
    with contextlib.suppress(ConnectionClosed):
        async with asyncio.timeout(timeout):
            while True:
                msg = json.loads(await ws.recv())
                if msg["type"] == "error":
                    errors.append(msg)
    return errors


async def recv_state_at(ws: ClientConnection, seq: int) -> dict[str, Any]:
    while True:
        msg = await recv(ws, "state")
        if msg["seq"] >= seq:
            return msg


async def test_two_players_live(served: Any) -> None:
    alice, bob, carol = [await login_client(served.http, n) for n in ("alice", "bob", "carol")]
    try:
        created = (await alice.post("/api/matches", json={"game": "duel", "vs": "invite"})).json()
        mid = created["id"]
        url = f"{served.ws}/ws/matches/{mid}"
        async with connect(url, additional_headers=cookie_header(alice)) as wa:
            first = await recv(wa, "state")
            assert first["status"] == "open" and first["seat"] == 0 and first["view"] is None
            accepted = await bob.post(f"/api/invites/{created['invite_token']}/accept", json={})
            assert accepted.status_code == 200
            started = await recv(wa, "state")  # the acceptance is pushed
            assert started["status"] == "active"
            async with connect(url, additional_headers=cookie_header(bob)) as wb:
                sb = await recv(wb, "state")
                assert sb["seat"] == 1 and sb["events"] == []
                leader = await _play_rounds(wa, wb, started, sb)
                await _errors_keep_the_socket_open(leader)
            await _reconnect_with_sync(bob, wa, url, mid)
            await _spectator_is_read_only(carol, url)
    finally:
        for c in (alice, bob, carol):
            await c.aclose()


async def _play_rounds(
    wa: ClientConnection, wb: ClientConnection, sa: dict[str, Any], sb: dict[str, Any]
) -> None:
    """The mover acts over its socket; the other socket gets the move pushed, card hidden."""
    mover, other, st = (wa, wb, sa) if sa["legal"] else (wb, wa, sb)
    action = st["legal"][0]
    await mover.send(json.dumps({"type": "act", "id": "m1", "seq": st["seq"], "action": action}))
    assert await recv(mover, "ack") == {"type": "ack", "id": "m1", "seq": 1}
    pushed = await recv_state_at(other, 1)
    assert pushed["events"] == [{"kind": "played", "seat": st["seat"], "seq": 1}]
    assert pushed["legal"], "now the other seat is to move"
    mine = await recv_state_at(mover, 1)
    assert mine["events"] == [{**action, "kind": "played", "seat": st["seat"], "seq": 1}]
    reply = pushed["legal"][0]
    await other.send(json.dumps({"type": "act", "id": "m2", "seq": 1, "action": reply}))
    assert (await recv(other, "ack"))["seq"] == 2
    after = await recv_state_at(mover, 2)
    assert [e["kind"] for e in after["events"]] == ["played", "round"]
    return mover if after["legal"] else other


async def _errors_keep_the_socket_open(ws: ClientConnection) -> None:
    await ws.send("{oops")
    err = await recv(ws, "error")
    assert err["code"] == "malformed" and err["id"] is None
    await ws.send(json.dumps({"type": "act", "id": "bad", "seq": 2, "action": {"kind": "play", "card": 99}}))
    err = await recv(ws, "error")
    assert (err["id"], err["code"]) == ("bad", "card_not_in_hand")
    stale_move = {"kind": "play", "card": 0}  # from the old state (a resignation is never stale)
    await ws.send(json.dumps({"type": "act", "id": "old", "seq": 0, "action": stale_move}))
    assert (await recv(ws, "error"))["code"] == "stale_seq"
    await ws.send(json.dumps({"type": "sync", "seq": 2}))
    assert (await recv(ws, "state"))["seq"] == 2


async def _reconnect_with_sync(bob: AsyncClient, wa: ClientConnection, url: str, mid: str) -> None:
    """Bob is away while a move is made (Alice's over her socket, or his own over HTTP); back, he syncs."""
    st = (await bob.get(f"/api/matches/{mid}/state")).json()
    seq = st["seq"]
    if st["legal"]:
        body = {"id": "h1", "seq": seq, "action": st["legal"][0]}
        assert (await bob.post(f"/api/matches/{mid}/actions", json=body)).status_code == 200
    else:
        await wa.send(json.dumps({"type": "sync", "seq": seq}))
        sa = await recv_state_at(wa, seq)
        await wa.send(json.dumps({"type": "act", "id": "a3", "seq": seq, "action": sa["legal"][0]}))
        await recv(wa, "ack")
    async with connect(url, additional_headers=cookie_header(bob)) as wb:
        now = await recv(wb, "state")
        assert now["seq"] == seq + 1 and now["events"] == []
        await wb.send(json.dumps({"type": "sync", "seq": seq}))
        synced = await recv(wb, "state")
        assert synced["seq"] == seq + 1 and [e["seq"] for e in synced["events"]] == [seq + 1]


async def _spectator_is_read_only(carol: AsyncClient, url: str) -> None:
    async with connect(url, additional_headers=cookie_header(carol)) as wc:
        st = await recv(wc, "state")
        assert st["seat"] is None and st["legal"] == [] and st["view"]["hand"] is None
        await wc.send(json.dumps({"type": "act", "id": "c1", "seq": st["seq"], "action": {"kind": "resign"}}))
        assert (await recv(wc, "error"))["code"] == "not_your_seat"


async def test_unknown_match_socket_gets_an_error(served: Any) -> None:
    async with connect(f"{served.ws}/ws/matches/nope") as ws:
        err = await recv(ws, "error")
        assert err["code"] == "match_not_found"


async def test_cross_origin_handshake_is_refused(served: Any) -> None:
    with pytest.raises(InvalidStatus):
        async with connect(f"{served.ws}/ws/matches/x", origin="https://evil.example"):  # type: ignore[arg-type]
            pass


async def test_an_ended_session_cannot_act_over_an_open_socket(served: Any) -> None:
    alice, bob = [await login_client(served.http, n) for n in ("wsalice", "wsbob")]
    try:
        created = (await alice.post("/api/matches", json={"game": "duel", "vs": "invite"})).json()
        headers = cookie_header(alice)
        await bob.post(f"/api/invites/{created['invite_token']}/accept", json={})
        async with connect(f"{served.ws}/ws/matches/{created['id']}", additional_headers=headers) as wa:
            state = await recv(wa, "state")
            assert (await alice.post("/api/auth/logout-all", json={})).status_code in (200, 204)
            action = {"type": "act", "id": "late", "seq": state["seq"], "action": {"kind": "resign"}}
            with contextlib.suppress(ConnectionClosed):  # the watch may have closed it already
                await wa.send(json.dumps(action))
            errors = await errors_until_closed(wa)
            # The ended session is announced (web/session_watch.py): the socket is told and closed at
            # once; an act that raced the close is refused with its own id.
            assert errors and {e["code"] for e in errors} == {"not_authenticated"}
            assert {e["id"] for e in errors} <= {"late", None}
            assert wa.close_code == 4401
        summary = (await bob.get(f"/api/matches/{created['id']}")).json()
        assert summary["status"] == "active"  # nothing was applied
    finally:
        for c in (alice, bob):
            await c.aclose()


async def test_a_socket_whose_session_ended_is_closed_at_once_before_any_push(
    served: Any,
) -> None:
    alice, bob = [await login_client(served.http, n) for n in ("pushalice", "pushbob")]
    try:
        created = (await alice.post("/api/matches", json={"game": "duel", "vs": "invite"})).json()
        headers = cookie_header(alice)
        await bob.post(f"/api/invites/{created['invite_token']}/accept", json={})
        async with connect(f"{served.ws}/ws/matches/{created['id']}", additional_headers=headers) as wa:
            await recv(wa, "state")
            assert (await alice.post("/api/auth/logout-all", json={})).status_code in (200, 204)
            # bob's move is published; alice's socket must not receive it any more
            r = await bob.post(
                f"/api/matches/{created['id']}/actions",
                json={"id": "b1", "seq": 0, "action": {"kind": "resign"}},
            )
            assert r.status_code == 200, r.text
            async with asyncio.timeout(5):
                first = json.loads(await wa.recv())  # no state push: the error comes first
                while first["type"] == "presence":  # connection notices (alice's own connect) are no states
                    first = json.loads(await wa.recv())
            assert (first["type"], first["code"]) == ("error", "not_authenticated")
            await wa.wait_closed()
            assert wa.close_code == 4401
    finally:
        for c in (alice, bob):
            await c.aclose()


@pytest.mark.redis
async def test_a_logout_on_one_worker_closes_the_members_socket_on_another(
    database_url: str, redis_url: str, server_factory: Any
) -> None:
    """Session revocation is bus news (web/session_watch.py): alice logs out everywhere through worker A;
    her socket on worker B is told and closed with 4401, and an act raced against it is refused."""
    async with server_factory(database_url, redis_url) as one, server_factory(database_url, redis_url) as two:
        alice = await login_client(one.http, "revokea")
        bob = await login_client(one.http, "revokeb")
        try:
            created = (await alice.post("/api/matches", json={"game": "duel", "vs": "invite"})).json()
            await bob.post(f"/api/invites/{created['invite_token']}/accept", json={})
            async with connect(
                f"{two.ws}/ws/matches/{created['id']}", additional_headers=cookie_header(alice)
            ) as wa:
                await recv(wa, "state")
                assert (await alice.post("/api/auth/logout-all", json={})).status_code == 204
                errors = await errors_until_closed(wa)
                assert [e["code"] for e in errors] == ["not_authenticated"] and wa.close_code == 4401
            summary = (await bob.get(f"/api/matches/{created['id']}")).json()
            assert summary["status"] == "active"
        finally:
            for c in (alice, bob):
                await c.aclose()


async def test_one_frame_per_act_with_ack_state(served: Any) -> None:
    """On a socket opened with ``?ack=state`` (the page's), the mover's own state carries the ack: one
    frame per act, no separate ``ack``; the other seat gets the move pushed as before."""
    alice, bob = [await login_client(served.http, n) for n in ("ann", "ben")]
    try:
        created = (await alice.post("/api/matches", json={"game": "duel", "vs": "invite"})).json()
        mid = created["id"]
        assert (await bob.post(f"/api/invites/{created['invite_token']}/accept", json={})).status_code == 200
        url = f"{served.ws}/ws/matches/{mid}?ack=state"
        async with (
            connect(url, additional_headers=cookie_header(alice)) as wa,
            connect(url, additional_headers=cookie_header(bob)) as wb,
        ):
            sa, sb = await recv(wa, "state"), await recv(wb, "state")
            mover, other, st = (wa, wb, sa) if sa["legal"] else (wb, wa, sb)
            act = {"type": "act", "id": "x1", "seq": st["seq"], "action": st["legal"][0]}
            await mover.send(json.dumps(act))
            seen = await _until_state(mover, 1)
            assert [m["type"] for m in seen].count("ack") == 0
            answer = seen[-1]
            assert answer["ack"] == "x1" and answer["seq"] == 1 and answer["events"][0]["kind"] == "played"
            pushed = await recv_state_at(other, 1)
            assert "ack" not in pushed and pushed["legal"]
            await other.send(json.dumps({"type": "act", "id": "x2", "seq": 1, "action": pushed["legal"][0]}))
            assert (await recv_state_at(other, 2))["ack"] == "x2"
            later = await recv_state_at(mover, 2)
            assert "ack" not in later
            await other.send(json.dumps({"type": "ping"}))  # no late ack nor second state was queued
            kinds = [m["type"] for m in await _until_type(other, "pong")]
            assert "ack" not in kinds and "state" not in kinds
    finally:
        for c in (alice, bob):
            await c.aclose()


async def _until_type(ws: ClientConnection, kind: str) -> list[dict[str, Any]]:
    """Every message up to and including the first of type ``kind``."""
    out: list[dict[str, Any]] = []
    async with asyncio.timeout(5):
        while not out or out[-1]["type"] != kind:
            out.append(json.loads(await ws.recv()))
            MATCH_SERVER_MESSAGE.validate_python(out[-1])
    return out


async def _until_state(ws: ClientConnection, seq: int) -> list[dict[str, Any]]:
    """Every message up to and including the first state of ``seq`` or later."""
    out: list[dict[str, Any]] = []
    async with asyncio.timeout(5):
        while not out or out[-1]["type"] != "state" or out[-1]["seq"] < seq:
            out.append(json.loads(await ws.recv()))
            MATCH_SERVER_MESSAGE.validate_python(out[-1])
    return out


async def test_a_presence_push_reads_no_match_when_the_socket_is_current(served: Any) -> None:
    """A presence notice (the opponent's socket closed) reaches a socket that already has the match's
    current state: its presence push is built from the cache, with no read of the match (issue 29: presence
    pushes were the biggest read in the two-worker profile)."""
    alice, bob = [await login_client(served.http, n) for n in ("presa", "presb")]
    try:
        created = (await alice.post("/api/matches", json={"game": "duel", "vs": "invite"})).json()
        await bob.post(f"/api/invites/{created['invite_token']}/accept", json={})
        url = f"{served.ws}/ws/matches/{created['id']}"
        cache = served.app.state.service.cache
        reads: list[str] = []
        read_since = cache._read_since

        def counted(match_id: str, *args: Any) -> Any:
            reads.append(match_id)
            return read_since(match_id, *args)

        async with connect(url, additional_headers=cookie_header(alice)) as wa:
            await recv(wa, "state")
            async with connect(url, additional_headers=cookie_header(bob)) as wb:
                await recv(wb, "state")
                while not all(s["online"] for s in (await recv(wa, "presence"))["seats"]):
                    pass
                cache._read_since = counted
            while all(s["online"] for s in (await recv(wa, "presence"))["seats"]):
                pass  # until bob's close is pushed
            assert reads == [], "the presence push read the match again"
    finally:
        for c in (alice, bob):
            await c.aclose()
