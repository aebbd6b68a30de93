"""Артания и Куявия through the JSON API: the games list, a full match against the easy bot, and an invite
match between two members played to the end (DESIGN.md §Public JSON API; rules/artania.md)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from httpx import AsyncClient

StateOf = Callable[..., Awaitable[dict[str, Any]]]
InviteMatch = Callable[..., Awaitable[str]]


async def act(client: AsyncClient, match_id: str, seq: int, action: dict[str, Any], aid: str) -> Any:
    return await client.post(
        f"/api/matches/{match_id}/actions", json={"id": aid, "seq": seq, "action": action}
    )


def pick(legal: list[dict[str, Any]], i: int) -> dict[str, Any]:
    """Vary the choice a little (equipment now and then) but keep matches short."""
    plays = [a for a in legal if a["kind"] in ("nektar", "idol", "chasy")]
    if plays and i % 3 == 0:
        return plays[0]
    return legal[0]


async def test_games_list_has_artania_with_its_options(alice: AsyncClient) -> None:
    games = {g["slug"]: g for g in (await alice.get("/api/games")).json()}
    g = games["artania"]
    assert g["title"] == "Артания и Куявия" and g["clock_mode"] == "optional"
    assert [f["name"] for f in g["options_form"]] == ["deck"]
    assert len(g["catalog"]["cards"]) == 33 and len(g["catalog"]["bonus"]) == 9


async def test_vs_easy_bot_to_the_end(alice: AsyncClient, state_of: StateOf) -> None:
    body = {"game": "artania", "vs": "bot", "bot_level": "easy", "options": {"deck": "kuyavia"}}
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
        assert view["you"] == 0 and view["sides"] == ["kuyavia", "artania"]
        assert view["to_move"] == [0] and "hands" not in view and "decks" not in view
        r = await act(alice, mid, st["seq"], pick(st["legal"], i), f"a{i}")
        assert r.status_code == 200, r.text
    summary = (await alice.get(f"/api/matches/{mid}")).json()
    assert summary["status"] == "finished"
    assert summary["result"]["reason"] in ("five_tokens", "deck_exhausted")
    log = (await alice.get(f"/api/matches/{mid}/log")).json()
    assert any(a["source"] == "bot" for a in log["actions"])
    final = (await state_of(alice, mid))["view"]
    assert final["phase"] == "over" and len(final["hands"]) == 2  # everything is public once over


async def test_an_illegal_action_is_rejected_with_a_code(
    alice: AsyncClient, state_of: StateOf, caplog: pytest.LogCaptureFixture
) -> None:
    """… and the refusal is logged with the match, seq and action, a trace to replay (play/commit.py)."""
    caplog.set_level(logging.INFO, logger="duelclub.play.commit")
    body = {"game": "artania", "vs": "bot", "bot_level": "easy", "options": {}}
    mid = (await alice.post("/api/matches", json=body)).json()["id"]
    for _ in range(300):
        st = await state_of(alice, mid)
        if st["legal"]:
            break
        await asyncio.sleep(0.01)
    bad = {"kind": "idol", "slot": 3} if st["view"]["phase"] == "window" else {"kind": "pass"}
    r = await act(alice, mid, st["seq"], bad, "x1")
    assert r.status_code == 422, r.text
    code = r.json()["code"]
    assert (await state_of(alice, mid))["seq"] == st["seq"]
    refused = [m for m in caplog.messages if "action refused" in m]
    assert refused == [f"match {mid} seq {st['seq']}: seat 0's action refused ({code}): {bad}"]


async def test_invite_match_between_two_members(
    alice: AsyncClient, bob: AsyncClient, invite_match: InviteMatch, state_of: StateOf
) -> None:
    mid = await invite_match(alice, bob, {"deck": "artania"}, game="artania")
    clients = {0: alice, 1: bob}
    for i in range(3000):
        st0 = await state_of(alice, mid)
        if st0["status"] != "active":
            break
        (seat,) = st0["view"]["to_move"]
        st = st0 if seat == 0 else await state_of(bob, mid)
        assert st["seat"] == seat and st["legal"]
        other = await state_of(clients[1 - seat], mid)
        assert other["legal"] == [] and other["view"]["hand"] is not None
        assert "hands" not in other["view"] and "decks" not in other["view"]
        assert other["view"]["sides"] == ["artania", "kuyavia"]
        r = await act(clients[seat], mid, st["seq"], pick(st["legal"], i), f"m{i}")
        assert r.status_code == 200, r.text
    summary = (await alice.get(f"/api/matches/{mid}")).json()
    assert summary["status"] == "finished"
    assert summary["result"]["reason"] in ("five_tokens", "deck_exhausted")
    log = (await bob.get(f"/api/matches/{mid}/log")).json()
    assert log["options"] == {"deck": "artania"}
    assert {a["source"] for a in log["actions"]} == {"player"}
