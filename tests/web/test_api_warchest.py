"""Сундук войны through the JSON API: vs the easy bot to the end, and an invite match between two members."""

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


def passive(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A pass (or decline / first option): the bot then wins the match in a few rounds."""
    for a in legal:
        if a["kind"] in ("pass", "decline"):
            return a
    return legal[0]


async def test_games_list_has_warchest_with_options(alice: AsyncClient) -> None:
    games = {g["slug"]: g for g in (await alice.get("/api/games")).json()}
    g = games["warchest"]
    assert g["clock_mode"] == "optional"
    assert [f["name"] for f in g["options_form"]] == ["expansions", "side", "draft"]


async def test_vs_easy_bot_to_the_end(alice: AsyncClient, state_of: StateOf) -> None:
    body = {"game": "warchest", "vs": "bot", "bot_level": "easy",
            "options": {"expansions": "both", "side": "wolf", "draft": "club"}}  # fmt: skip
    r = await alice.post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    mid = r.json()["id"]
    for i in range(2000):
        st = await state_of(alice, mid)
        if st["status"] != "active":
            break
        if not st["legal"]:
            await asyncio.sleep(0.01)
            continue
        view = st["view"]
        assert view["you"] == "wolf"
        opp = view["sides"][1]
        assert "hand" not in opp and "bag" not in opp and "discard_down" not in opp
        r = await act(alice, mid, st["seq"], passive(st["legal"]), f"a{i}")
        assert r.status_code == 200, r.text
    summary = (await alice.get(f"/api/matches/{mid}")).json()
    assert summary["status"] == "finished"
    assert summary["result"]["winner"] == 1 and summary["result"]["reason"] == "control"
    log = (await alice.get(f"/api/matches/{mid}/log")).json()
    assert any(a["source"] == "bot" for a in log["actions"])


async def test_invite_match_between_two_members(
    alice: AsyncClient, bob: AsyncClient, invite_match: InviteMatch, state_of: StateOf
) -> None:
    mid = await invite_match(alice, bob, {"expansions": "nightfall", "draft": "eight"}, game="warchest")
    played = 0
    for i in range(200):
        moved = False
        for c in (alice, bob):
            st = await state_of(c, mid)
            if st["legal"]:
                legal = st["legal"]
                a = next((x for x in legal if x["kind"] in ("control", "deploy", "attack")), legal[0])
                r = await act(c, mid, st["seq"], a, f"i{i}")
                assert r.status_code == 200, r.text
                played += 1
                moved = True
                break
        assert moved
        if played >= 40:
            break
    st = await state_of(alice, mid)
    assert st["view"]["phase"] == "play"
    r = await act(bob, mid, (await state_of(bob, mid))["seq"], {"kind": "resign"}, "resign")
    assert r.status_code == 200
    summary = (await alice.get(f"/api/matches/{mid}")).json()
    assert summary["status"] == "finished" and summary["result"]["reason"] == "resign"
