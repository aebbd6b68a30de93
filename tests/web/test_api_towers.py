"""Дві вежі through the JSON API: the games list, a full match against the easy bot, and an invite match
between two members played to the end (DESIGN.md §Public JSON API; rules/towers.md)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from httpx import AsyncClient

StateOf = Callable[..., Awaitable[dict[str, Any]]]
InviteMatch = Callable[..., Awaitable[str]]


async def act(client: AsyncClient, match_id: str, seq: int, action: dict[str, Any], aid: str) -> Any:
    return await client.post(
        f"/api/matches/{match_id}/actions", json={"id": aid, "seq": seq, "action": action}
    )


def aggressive(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The last playable card, else the first discard: ends matches reasonably fast."""
    plays = [a for a in legal if a["kind"] == "play"]
    return plays[-1] if plays else legal[0]


async def test_games_list_has_towers_with_its_options(alice: AsyncClient) -> None:
    games = {g["slug"]: g for g in (await alice.get("/api/games")).json()}
    g = games["towers"]
    assert g["title"] == "Дві вежі" and g["clock_mode"] == "required"
    assert [f["name"] for f in g["options_form"]] == ["battlefield", "deck"]
    assert len(g["catalog"]["cards"]) == 102 and len(g["catalog"]["battlefields"]) == 8


async def test_vs_easy_bot_to_the_end(alice: AsyncClient, state_of: StateOf) -> None:
    body = {"game": "towers", "vs": "bot", "bot_level": "easy",
            "options": {"battlefield": "archmage_citadel", "deck": "infinite"}}  # fmt: skip
    r = await alice.post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    mid = r.json()["id"]
    for i in range(3000):
        st = await state_of(alice, mid)
        if st["status"] != "active":
            break
        if not st["legal"]:
            await asyncio.sleep(0.01)
            continue
        view = st["view"]
        assert view["you"] == 0 and len(view["hand"]) == 6
        assert "hands" not in view and "pile" not in view
        assert all(a["kind"] in ("play", "discard") for a in st["legal"])
        r = await act(alice, mid, st["seq"], aggressive(st["legal"]), f"a{i}")
        assert r.status_code == 200, r.text
    summary = (await alice.get(f"/api/matches/{mid}")).json()
    assert summary["status"] == "finished"
    assert summary["result"]["reason"] in ("destruction", "tower", "resource", "draw")
    log = (await alice.get(f"/api/matches/{mid}/log")).json()
    assert any(a["source"] == "bot" for a in log["actions"])
    final = (await state_of(alice, mid))["view"]
    assert final["phase"] == "over" and len(final["hands"]) == 2  # everything is public once over


async def test_a_player_cannot_send_the_clock_action(alice: AsyncClient, state_of: StateOf) -> None:
    body = {"game": "towers", "vs": "bot", "bot_level": "easy", "options": {}}
    mid = (await alice.post("/api/matches", json=body)).json()["id"]
    for _ in range(200):
        st = await state_of(alice, mid)
        if st["legal"]:
            break
        await asyncio.sleep(0.01)
    r = await act(alice, mid, st["seq"], {"kind": "timeout"}, "t1")
    assert r.status_code >= 400
    assert (await state_of(alice, mid))["seq"] == st["seq"]


async def test_invite_match_between_two_members(
    alice: AsyncClient, bob: AsyncClient, invite_match: InviteMatch, state_of: StateOf
) -> None:
    mid = await invite_match(alice, bob, {"battlefield": "wind_square", "deck": "normal"}, game="towers")
    summary = (await alice.get(f"/api/matches/{mid}")).json()
    assert summary["status"] == "active"
    clients = {0: alice, 1: bob}
    for i in range(4000):
        st0 = await state_of(alice, mid)
        if st0["status"] != "active":
            break
        seat = st0["view"]["active"]
        st = st0 if seat == 0 else await state_of(bob, mid)
        assert st["seat"] == seat and st["legal"]
        other = await state_of(clients[1 - seat], mid)
        assert other["legal"] == [] and other["view"]["hand"] is not None
        assert "hands" not in other["view"]
        r = await act(clients[seat], mid, st["seq"], aggressive(st["legal"]), f"m{i}")
        assert r.status_code == 200, r.text
    summary = (await alice.get(f"/api/matches/{mid}")).json()
    assert summary["status"] == "finished"
    assert summary["result"]["reason"] in ("destruction", "tower", "resource", "draw", "turn_limit")
    opts = (await bob.get(f"/api/matches/{mid}/log")).json()
    assert opts["options"] == {"battlefield": "wind_square", "deck": "normal"}
