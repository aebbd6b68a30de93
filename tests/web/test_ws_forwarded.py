"""One frame per act on the worker that does not own the match (issue 29 §1 and §3): two app instances
share the database and Redis; an act on a socket of the other worker is forwarded to the owner, and the
mover's state comes back as the act's ack in one frame, with no read of the match on that worker."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_ws import _until_state, _until_type, cookie_header, login_client, recv, recv_state_at
from websockets.asyncio.client import connect

from duelclub.play.service import MatchService

pytestmark = pytest.mark.redis


async def test_a_forwarded_act_is_acked_by_its_state_in_one_frame(
    database_url: str, redis_url: str, server_factory: Any
) -> None:
    async with server_factory(database_url, redis_url) as one, server_factory(database_url, redis_url) as two:
        alice, bob = [await login_client(one.http, n) for n in ("fwda", "fwdb")]
        try:
            created = (await alice.post("/api/matches", json={"game": "duel", "vs": "invite"})).json()
            mid = created["id"]
            assert (
                await bob.post(f"/api/invites/{created['invite_token']}/accept", json={})
            ).status_code == 200
            async with (
                connect(
                    f"{one.ws}/ws/matches/{mid}?ack=state", additional_headers=cookie_header(alice)
                ) as wa,
                connect(f"{two.ws}/ws/matches/{mid}?ack=state", additional_headers=cookie_header(bob)) as wb,
            ):
                sa, sb = await recv(wa, "state"), await recv(wb, "state")
                # The first mover acts on its own worker, which takes the match; the other then acts on
                # the other worker, whose acts travel to the owner.
                first, second, second_served = (wa, wb, two) if sa["legal"] else (wb, wa, one)
                st = sa if first is wa else sb
                await first.send(
                    json.dumps({"type": "act", "id": "f1", "seq": st["seq"], "action": st["legal"][0]})
                )
                assert (await recv_state_at(first, 1))["ack"] == "f1"
                pushed = await recv_state_at(second, 1)
                other: MatchService = second_served.app.state.service
                forwarded, stale_seq = other.router.forwarder.forwarded, other.cache._cache[mid].seq
                await second.send(
                    json.dumps({"type": "act", "id": "f2", "seq": 1, "action": pushed["legal"][0]})
                )
                seen = await _until_state(second, 2)
                assert [m["type"] for m in seen] == ["state"] and seen[0]["ack"] == "f2"
                await second.send(json.dumps({"type": "ping"}))  # no plain ack nor second state queued
                assert [m["type"] for m in await _until_type(second, "pong")] == ["pong"]
                assert other.router.forwarder.forwarded == forwarded + 1  # it did travel to the owner
                assert other.cache._cache[mid].seq == stale_seq  # and this worker read nothing for it
                assert "ack" not in await recv_state_at(first, 2)
        finally:
            for c in (alice, bob):
                await c.aclose()
