"""The match log's ``initial`` deal (DESIGN.md §Public JSON API — ``/log``; rules/fairness.md §Reveal).

``initial`` is ``game.full_view(game.new_match(K, options))``: what the verify page recomputes in the browser.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from httpx import AsyncClient

from duelclub.games.fairness import Stream, match_key
from duelclub.games.mezha import GAME as MEZHA
from duelclub.games.mezha.cards import CARD_INDEX, HOUSES, IDS, OMEN_IDS, deck_list

InviteMatch = Callable[..., Awaitable[str]]
StateOf = Callable[..., Awaitable[dict[str, Any]]]


def plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


async def resign(client: AsyncClient, match_id: str, state_of: StateOf) -> None:
    st = await state_of(client, match_id)
    r = await client.post(
        f"/api/matches/{match_id}/actions", json={"id": "r", "seq": st["seq"], "action": {"kind": "resign"}}
    )
    assert r.status_code == 200 and r.json()["status"] == "finished", r.text


async def test_the_log_carries_the_initial_deal_for_players_and_admins(
    alice: AsyncClient, bob: AsyncClient, admin: AsyncClient, invite_match: InviteMatch, state_of: StateOf
) -> None:
    mid = await invite_match(alice, bob, {"house": "gorn"}, game="mezha")
    await resign(bob, mid, state_of)
    log = (await alice.get(f"/api/matches/{mid}/log")).json()
    assert (await admin.get(f"/api/admin/matches/{mid}/log")).json()["initial"] == log["initial"]
    key = match_key(bytes.fromhex(log["server_seed"]), mid, "aa", "bb")
    dealt = MEZHA.new_match(key, MEZHA.parse_options({"house": "gorn"}))
    assert log["initial"] == plain(MEZHA.full_view(dealt))


async def test_initial_follows_the_documented_stream_order(
    alice: AsyncClient, bob: AsyncClient, invite_match: InviteMatch, state_of: StateOf
) -> None:
    """rules/mezha.md §Match setup: starter, seat 0's deck, seat 1's deck, the omens; hands are the top 8."""
    mid = await invite_match(alice, bob, {"house": "olkha"}, game="mezha")
    await resign(alice, mid, state_of)
    log = (await bob.get(f"/api/matches/{mid}/log")).json()
    initial = log["initial"]
    stream = Stream(match_key(bytes.fromhex(log["server_seed"]), mid, "aa", "bb"))
    assert initial["starter"] == stream.randint(2)
    for seat, house in enumerate(("olkha", "gorn")):
        deck = [IDS[k] for k in stream.shuffled(deck_list(HOUSES.index(house)))]
        assert initial["hands"][seat] == sorted(deck[:8], key=CARD_INDEX.__getitem__)
        assert initial["decks"][seat] == deck[8:]
    assert initial["omens"] == stream.shuffled(list(OMEN_IDS))
    assert initial["houses"] == ["olkha", "gorn"]


async def test_initial_is_the_deal_not_the_final_position(
    alice: AsyncClient, bob: AsyncClient, invite_match: InviteMatch, state_of: StateOf, duel: Any
) -> None:
    mid = await invite_match(alice, bob, {"rounds": 1})
    for _ in range(2):
        for c in (alice, bob):
            st = await state_of(c, mid)
            if st["legal"]:
                body = {"id": "x", "seq": st["seq"], "action": st["legal"][0]}
                await c.post(f"/api/matches/{mid}/actions", json=body)
                break
    log = (await alice.get(f"/api/matches/{mid}/log")).json()
    assert log["status"] == "finished" and len(log["actions"]) == 2
    key = match_key(bytes.fromhex(log["server_seed"]), mid, "aa", "bb")
    assert log["initial"] == plain(duel.full_view(duel.new_match(key, duel.parse_options({"rounds": 1}))))
    assert log["initial"] != log["final_view"]


async def test_no_log_and_no_initial_before_the_end(
    alice: AsyncClient, bob: AsyncClient, admin: AsyncClient, invite_match: InviteMatch
) -> None:
    mid = await invite_match(alice, bob, game="mezha")
    for client, path in ((alice, f"/api/matches/{mid}/log"), (admin, f"/api/admin/matches/{mid}/log")):
        r = await client.get(path)
        assert r.status_code == 409 and r.json()["code"] == "match_not_finished"
        assert "initial" not in r.text
