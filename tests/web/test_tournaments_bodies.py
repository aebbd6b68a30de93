"""A script's wrong types are refused, not guessed at (issue 26 §Bad input: a malformed body is refused with a
clear ``{code, message}`` and nothing changed): ``"rounds": "3"`` or ``true``, ``"rated": "yes"``,
``"double": "true"``, a misspelt field, a player number as a string."""

from __future__ import annotations

from typing import Any

import pytest
from test_tournaments_api import UserClient, create

WRONG: list[dict[str, Any]] = [
    {"format": "swiss", "rounds": "3"},
    {"format": "swiss", "rounds": True},
    {"format": "swiss", "rounds": 2.0},
    {"format": "arena", "minutes": "60"},
    {"format": "round_robin", "rated": "yes"},
    {"format": "round_robin", "rated": 1},
    {"format": "round_robin", "double": "true"},
    {"format": "round_robin", "max_players": "8"},
    {"format": "round_robin", "max_players": True},
    {"format": "round_robin", "round_minutes": "30"},
    {"format": "round_robin", "move_seconds": "86400"},
    {"format": "round_robin", "max_player": 4},
]


@pytest.mark.parametrize("body", WRONG, ids=[next(k for k in b if k != "format") for b in WRONG])
async def test_a_wrongly_typed_or_unknown_field_is_refused_and_creates_nothing(
    user_client: UserClient, body: dict[str, Any]
) -> None:
    ann = await user_client("ann")
    r = await ann.post("/api/tournaments", json={"game": "duel", **body})
    assert r.status_code == 422, r.text
    refusal = r.json()
    assert refusal["code"] == "malformed" and refusal["message"], refusal
    assert (await ann.get("/api/tournaments")).json() == [], "nothing was created"


async def test_the_right_types_are_still_taken(user_client: UserClient) -> None:
    ann = await user_client("ann")
    t = await create(ann, format="swiss", rounds=3, rated=False, max_players=8, round_minutes=30)
    assert (t["planned_rounds"], t["rated"], t["max_players"], t["round_minutes"]) == (3, False, 8, 30)
    t = await create(ann, double=True, rated=None)
    assert t["double"] is True


async def test_a_player_number_must_be_a_number(user_client: UserClient) -> None:
    ann = await user_client("ann")
    t = await create(ann)
    tid = t["id"]
    assert (await ann.post(f"/api/tournaments/{tid}/join", json={})).status_code == 200
    r = await ann.post(f"/api/tournaments/{tid}/leave", json={"number": "1"})
    assert (r.status_code, r.json()["code"]) == (422, "malformed")
    assert [p["username"] for p in (await ann.get(f"/api/tournaments/{tid}")).json()["players"]] == ["ann"]
