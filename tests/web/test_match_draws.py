"""The draw log of a match (play/draws.py; rules/fairness.md §Reveal and verification; issue 15 §5).

``GET /api/matches/{id}/draws`` and the log's ``draws`` list every draw of the fairness stream, in order, once
the match has ended; a running match exposes none (they would reveal its hidden deal). Each draw recomputes
from ``K`` alone, and the command-line verifier rejects a log whose draws were changed.
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from httpx import AsyncClient

from duelclub.games.fairness import Stream, match_key
from duelclub.games.registry import get_game
from duelclub.play.verify import verify_log

InviteMatch = Callable[..., Awaitable[str]]
StateOf = Callable[..., Awaitable[dict[str, Any]]]


async def _play(
    clients: tuple[AsyncClient, AsyncClient], mid: str, state_of: StateOf, moves: int, both: bool = False
) -> int:
    """Up to ``moves`` actions, each by whoever may act (the first legal action) — with ``both``, more until
    each seat has acted (a match that ends before both seats moved is aborted, not finished: play/endings.py;
    a Дві вежі deal with «Граємо знову» cards can give the first player four actions in a row); → how many
    were made."""
    made = 0
    for _ in range(moves * 8):
        for c in clients:
            st = await state_of(c, mid)
            if st["status"] != "active" or (made >= moves and not (both and st["abortable"])):
                return made
            if st["legal"]:
                body = {"id": f"a{made}", "seq": st["seq"], "action": st["legal"][0]}
                r = await c.post(f"/api/matches/{mid}/actions", json=body)
                assert r.status_code == 200, r.text
                made += 1
                break
    return made


async def _resign(client: AsyncClient, mid: str, state_of: StateOf) -> None:
    st = await state_of(client, mid)
    body = {"id": "resign", "seq": st["seq"], "action": {"kind": "resign"}}
    r = await client.post(f"/api/matches/{mid}/actions", json=body)
    assert r.status_code == 200 and r.json()["status"] == "finished", r.text


async def test_a_running_match_exposes_no_draws(
    alice: AsyncClient,
    bob: AsyncClient,
    carol: AsyncClient,
    client_factory: Callable[[], AsyncClient],
    invite_match: InviteMatch,
    state_of: StateOf,
) -> None:
    mid = await invite_match(alice, bob, game="towers")
    assert await _play((alice, bob), mid, state_of, 3) == 3
    for c in (alice, bob, carol):
        r = await c.get(f"/api/matches/{mid}/draws")
        assert r.status_code == 409 and r.json()["code"] == "match_not_finished", r.text
        assert (await c.get(f"/api/matches/{mid}/log")).status_code in (403, 409)
        for path in (f"/api/matches/{mid}", f"/api/matches/{mid}/state"):
            body = (await c.get(path)).text
            assert '"draws"' not in body and '"bound"' not in body
    assert (await client_factory().get(f"/api/matches/{mid}/draws")).status_code == 401


@pytest.mark.parametrize("game", ["mezha", "towers", "warchest", "artania"])
async def test_an_ended_match_publishes_its_draws_which_recompute_from_the_key(
    alice: AsyncClient,
    bob: AsyncClient,
    carol: AsyncClient,
    invite_match: InviteMatch,
    state_of: StateOf,
    game: str,
) -> None:
    mid = await invite_match(alice, bob, game=game)
    played = await _play((alice, bob), mid, state_of, 4, both=True)
    await _resign(bob, mid, state_of)
    r = await carol.get(f"/api/matches/{mid}/draws")  # any member, like the replays
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["scheme"] == "duelclub/v1" and out["status"] == "finished" and out["actions"] == played + 1
    log = (await alice.get(f"/api/matches/{mid}/log")).json()
    assert log["draws"] == out["draws"] and len(out["draws"]) > 2
    stream = Stream(match_key(bytes.fromhex(log["server_seed"]), mid, "aa", "bb"))
    assert [stream.randint(d["bound"]) for d in out["draws"]] == [d["value"] for d in out["draws"]]
    assert verify_log(log, get_game).ok

    changed = copy.deepcopy(log)
    last = changed["draws"][-1]
    last["value"] = (last["value"] + 1) % last["bound"]
    verdict = verify_log(changed, get_game)
    assert not verdict.ok and f"draw #{len(log['draws'])}" in verdict.message
    fewer = {**log, "draws": log["draws"][:-1]}
    assert not verify_log(fewer, get_game).ok


async def test_a_match_cancelled_before_the_deal_has_no_draws(alice: AsyncClient) -> None:
    r = await alice.post("/api/matches", json={"game": "towers", "vs": "invite", "options": {}})
    assert r.status_code == 201, r.text
    mid = r.json()["id"]
    assert (await alice.request("DELETE", f"/api/matches/{mid}", json={})).status_code == 200
    out = (await alice.get(f"/api/matches/{mid}/draws")).json()
    assert out["status"] == "aborted" and out["draws"] == [] and out["actions"] == 0
    log = (await alice.get(f"/api/matches/{mid}/log")).json()
    assert log["draws"] == [] and log["initial"] is None
    assert verify_log(log, get_game).ok
