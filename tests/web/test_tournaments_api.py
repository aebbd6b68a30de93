"""Tournaments through the API (issue 26 §API, §Bad input, §Lifecycle), with the fake game ``duel``: a round
robin from creation to the final table (every pair once, commitments before the first action, seeds after
the end, the CSV), a bye, a Swiss, withdrawal, no-shows, bots, and every refusal changing nothing.

The app's driver pairs in the background; the tests wait for it by reading the tournament, never by sleeping
a fixed time."""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI
from httpx import ASGITransport, AsyncClient

Json = dict[str, Any]
UserClient = Callable[[str], Awaitable[AsyncClient]]
"""The ``user_client`` fixture (tests/conftest.py): a logged-in client for a new member."""


async def create(client: AsyncClient, **body: Any) -> Json:
    r = await client.post("/api/tournaments", json={"game": "duel", "format": "round_robin", **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


async def read(client: AsyncClient, tid: str) -> Json:
    r = await client.get(f"/api/tournaments/{tid}")
    assert r.status_code == 200, r.text
    return dict(r.json())


async def until(client: AsyncClient, tid: str, check: Any, seconds: float = 15.0) -> Json:
    """Read the tournament until ``check(t)`` holds (the driver works in the background)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while True:
        t = await read(client, tid)
        if check(t):
            return t
        assert loop.time() < deadline, f"gave up waiting: {t['status']} round {t['current_round']}"
        await asyncio.sleep(0.05)


async def play_out(clients: dict[str, AsyncClient], match_id: str) -> None:
    """Play the match to its end with each seat's first legal action."""
    for _ in range(200):
        moved = False
        for c in clients.values():
            st = (await c.get(f"/api/matches/{match_id}/state")).json()
            if st["status"] != "active":
                return
            if st["legal"]:
                body = {"id": f"m{st['seq']}", "seq": st["seq"], "action": st["legal"][0]}
                await c.post(f"/api/matches/{match_id}/actions", json=body)
                moved = True
        if not moved:
            await asyncio.sleep(0.02)
    raise AssertionError("the match did not end")


async def members(user_client: UserClient, *names: str) -> dict[str, AsyncClient]:
    return {n: await user_client(n) for n in names}


def in_play(t: Json) -> list[str]:
    return [
        p["match_id"] for r in t["rounds"] for p in r["pairings"] if p["match_id"] and p["result"] is None
    ]


async def test_a_four_player_round_robin_from_creation_to_the_final_table(user_client: UserClient) -> None:
    clients = await members(user_client, "ann", "ben", "cat", "dan")
    ann = clients["ann"]
    t = await create(ann, name="Вечер", options={"rounds": 1})
    tid = t["id"]
    assert (t["status"], t["players"], t["organiser"]) == ("open", [], "ann")
    for c in clients.values():
        assert (await c.post(f"/api/tournaments/{tid}/join", json={})).status_code == 200
    r = await ann.post(f"/api/tournaments/{tid}/start", json={})
    assert r.status_code == 200, r.text
    t = r.json()
    assert t["status"] == "running" and t["current_round"] == 1 and t["total_rounds"] == 3
    met: set[frozenset[str]] = set()
    for number in (1, 2, 3):
        t = await until(ann, tid, lambda t, n=number: t["current_round"] == n and len(in_play(t)) == 2)
        pairings = t["rounds"][number - 1]["pairings"]
        for p in pairings:
            assert p["commitment"] and p["server_seed"] is None, "the commitment is out before any action"
            state = (await ann.get(f"/api/matches/{p['match_id']}")).json()
            assert state["commitment"] == p["commitment"]
            met.add(frozenset(p["seats"]))
            await play_out({n: clients[n] for n in p["seats"]}, p["match_id"])
    t = await until(ann, tid, lambda t: t["status"] == "finished")
    assert len(met) == 6, "every pair met exactly once"
    assert all(p["server_seed"] and p["result"] for r in t["rounds"] for p in r["pairings"])
    assert sum(s["points"] for s in t["standings"]) == 6
    assert [s["rank"] for s in t["standings"]] == [1, 2, 3, 4]
    assert all(s["played"] == 3 for s in t["standings"])
    r = await ann.get(f"/api/tournaments/{tid}/crosstable.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(r.text)))
    assert len(rows) == 5 and {row[1] for row in rows[1:]} == {"ann", "ben", "cat", "dan"}
    listed = (await ann.get("/api/tournaments?status=finished")).json()
    assert [x["id"] for x in listed] == [tid] and listed[0]["players"] == 4


async def test_an_odd_round_robin_gives_each_player_one_bye(user_client: UserClient) -> None:
    clients = await members(user_client, "ann", "ben", "cat")
    t = await create(clients["ann"], options={"rounds": 1})
    tid = t["id"]
    for c in clients.values():
        await c.post(f"/api/tournaments/{tid}/join", json={})
    await clients["ann"].post(f"/api/tournaments/{tid}/start", json={})
    for number in (1, 2, 3):
        t = await until(clients["ann"], tid, lambda t, n=number: t["current_round"] == n)
        for mid in in_play(t):
            await play_out(clients, mid)
    t = await until(clients["ann"], tid, lambda t: t["status"] == "finished")
    byes = [p["seats"][0] for r in t["rounds"] for p in r["pairings"] if p["seats"][1] is None]
    assert sorted(byes) == ["ann", "ben", "cat"]
    assert all(
        p["match_id"] is None and p["result"] == "bye"
        for r in t["rounds"]
        for p in r["pairings"]
        if p["seats"][1] is None
    )
    assert sum(s["points"] for s in t["standings"]) == 3 + 3  # three games, three byes


async def test_a_swiss_pairs_by_score_and_never_twice(user_client: UserClient) -> None:
    clients = await members(user_client, "pl1", "pl2", "pl3", "pl4", "pl5")
    t = await create(clients["pl1"], format="swiss", rounds=3, options={"rounds": 1})
    tid = t["id"]
    for c in clients.values():
        await c.post(f"/api/tournaments/{tid}/join", json={})
    await clients["pl1"].post(f"/api/tournaments/{tid}/start", json={})
    for number in (1, 2, 3):
        t = await until(clients["pl1"], tid, lambda t, n=number: t["current_round"] == n)
        for mid in in_play(t):
            await play_out(clients, mid)
    t = await until(clients["pl1"], tid, lambda t: t["status"] == "finished")
    pairs = [frozenset(p["seats"]) for r in t["rounds"] for p in r["pairings"] if p["seats"][1] is not None]
    assert len(pairs) == len(set(pairs)) == 6
    byes = [p["seats"][0] for r in t["rounds"] for p in r["pairings"] if p["seats"][1] is None]
    assert len(byes) == len(set(byes)) == 3


async def test_refusals_are_clear_and_change_nothing(user_client: UserClient) -> None:
    clients = await members(user_client, "org", "ivy", "joe")
    org, ivy, joe = clients["org"], clients["ivy"], clients["joe"]
    r = await org.post("/api/tournaments", json={"game": "duel", "format": "ladder"})
    assert (r.status_code, r.json()["code"]) == (422, "bad_format")
    r = await org.post("/api/tournaments", json={"game": "nope", "format": "swiss", "rounds": 2})
    assert (r.status_code, r.json()["code"]) == (422, "unknown_game")
    r = await org.post(
        "/api/tournaments", json={"game": "duel", "format": "swiss", "rounds": 9, "max_players": 4}
    )
    assert (r.status_code, r.json()["code"]) == (422, "too_many_rounds")
    r = await org.post("/api/tournaments", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and "code" in r.json()
    assert (await org.get("/api/tournaments/nope")).json()["code"] == "tournament_not_found"
    t = await create(org, max_players=2, format="swiss", rounds=1)
    tid = t["id"]
    assert (await ivy.post(f"/api/tournaments/{tid}/start", json={})).json()["code"] == "not_organiser"
    assert (await org.post(f"/api/tournaments/{tid}/start", json={})).json()["code"] == "too_few_players"
    assert (await ivy.post(f"/api/tournaments/{tid}/join", json={})).status_code == 200
    assert (await ivy.post(f"/api/tournaments/{tid}/join", json={})).json()["code"] == "already_joined"
    assert (await org.post(f"/api/tournaments/{tid}/start", json={})).json()["code"] == "too_few_players"
    assert (await joe.post(f"/api/tournaments/{tid}/join", json={})).status_code == 200
    r = await org.post(f"/api/tournaments/{tid}/join", json={})
    assert (r.status_code, r.json()["code"]) == (409, "tournament_full")
    assert (await read(org, tid))["players"][1]["username"] == "joe" and len(
        (await read(org, tid))["players"]
    ) == 2
    assert (await org.post(f"/api/tournaments/{tid}/pause", json={})).json()[
        "code"
    ] == "tournament_not_running"
    assert (await org.post(f"/api/tournaments/{tid}/start", json={})).status_code == 200
    assert (await org.post(f"/api/tournaments/{tid}/start", json={})).json()["code"] == "tournament_started"
    assert (await ivy.post(f"/api/tournaments/{tid}/leave", json={})).json()["code"] == "tournament_started"
    t = await read(org, tid)
    assert t["current_round"] == 1 and len(t["rounds"]) == 1, "a second start pairs nothing"


async def test_withdrawal_forfeits_the_rest_of_a_round_robin(user_client: UserClient) -> None:
    clients = await members(user_client, "ann", "ben", "cat", "dan")
    t = await create(clients["ann"], options={"rounds": 1})
    tid = t["id"]
    for c in clients.values():
        await c.post(f"/api/tournaments/{tid}/join", json={})
    await clients["ann"].post(f"/api/tournaments/{tid}/start", json={})
    t = await until(clients["ann"], tid, lambda t: len(in_play(t)) == 2)
    r = await clients["dan"].post(f"/api/tournaments/{tid}/withdraw", json={})
    assert r.status_code == 200, r.text
    t = await until(clients["ann"], tid, lambda t: len(in_play(t)) == 1)
    dans = next(p for p in t["rounds"][0]["pairings"] if "dan" in p["seats"])
    # resigned before both first moves: the match is aborted unplayed, a forfeit lost (issue 31 §1)
    assert dans["result"] in ("+/-", "-/+") and dans["forfeit"], "the match in play is resigned"
    assert (await clients["dan"].get(f"/api/matches/{dans['match_id']}")).json()["status"] == "aborted"
    for number in (1, 2, 3):
        t = await until(clients["ann"], tid, lambda t, n=number: t["current_round"] >= n)
        for mid in in_play(t):
            await play_out(clients, mid)
    t = await until(clients["ann"], tid, lambda t: t["status"] == "finished")
    later = [p for r in t["rounds"][1:] for p in r["pairings"] if "dan" in p["seats"]]
    assert len(later) == 2 and all(p["forfeit"] and p["match_id"] is None for p in later)
    assert next(s for s in t["standings"] if s["username"] == "dan")["withdrawn"]


async def test_an_organiser_fills_the_count_with_a_bot(user_client: UserClient) -> None:
    clients = await members(user_client, "ann", "ben", "cat")
    ann = clients["ann"]
    t = await create(ann, options={"rounds": 1})
    tid = t["id"]
    assert (
        await clients["ben"].post(f"/api/tournaments/{tid}/bots", json={"level": "easy"})
    ).status_code == 403
    assert (await ann.post(f"/api/tournaments/{tid}/bots", json={"level": "grandmaster"})).status_code == 422
    assert (await ann.post(f"/api/tournaments/{tid}/bots", json={"level": "easy"})).status_code == 200
    for c in clients.values():
        await c.post(f"/api/tournaments/{tid}/join", json={})
    assert (await ann.post(f"/api/tournaments/{tid}/start", json={})).status_code == 200
    for number in (1, 2, 3):
        t = await until(ann, tid, lambda t, n=number: t["current_round"] >= n)
        for mid in in_play(t):
            await play_out(clients, mid)
    t = await until(ann, tid, lambda t: t["status"] == "finished", seconds=30)
    assert any(p["username"] == "bot:easy" for p in t["players"])
    assert all(s["played"] == 3 for s in t["standings"])


async def test_pause_holds_the_next_round_and_cancel_aborts_the_matches(
    app: FastAPI, user_client: UserClient
) -> None:
    clients = await members(user_client, "ann", "ben")
    ann = clients["ann"]
    t = await create(ann, format="swiss", rounds=1, options={"rounds": 1})
    tid = t["id"]
    for c in clients.values():
        await c.post(f"/api/tournaments/{tid}/join", json={})
    t = (await ann.post(f"/api/tournaments/{tid}/start", json={})).json()
    assert (await ann.post(f"/api/tournaments/{tid}/pause", json={})).json()["status"] == "paused"
    assert (await ann.post(f"/api/tournaments/{tid}/resume", json={})).json()["status"] == "running"
    mid = in_play(t)[0]
    r = await ann.post(f"/api/tournaments/{tid}/cancel", json={})
    assert r.json()["status"] == "cancelled"
    assert (await ann.get(f"/api/matches/{mid}")).json()["status"] == "aborted"
    assert (await ann.post(f"/api/tournaments/{tid}/resume", json={})).json()[
        "code"
    ] == "tournament_not_paused"


async def test_two_no_shows_lose_by_forfeit_and_withdraw_the_player(
    sqlite_url: str, app_factory: Any
) -> None:
    """A seat that makes no first move within the grace period loses by forfeit; the second time the player
    is withdrawn (issue 26 §Byes, no-shows and withdrawal)."""
    async with app_factory(sqlite_url, TOURNAMENT_GRACE_SECONDS=1) as app:
        clients: dict[str, AsyncClient] = {}
        for name in ("ann", "ben", "ghost"):
            c = AsyncClient(transport=ASGITransport(app), base_url="http://testserver")
            r = await c.post("/api/auth/register", json={"username": name, "password": "password123"})
            assert r.status_code == 201
            clients[name] = c
        present = {n: c for n, c in clients.items() if n != "ghost"}
        ann = clients["ann"]
        t = await create(ann, options={"rounds": 1})
        tid = t["id"]
        for c in clients.values():
            await c.post(f"/api/tournaments/{tid}/join", json={})
        await ann.post(f"/api/tournaments/{tid}/start", json={})
        for number in (1, 2, 3):
            t = await until(
                ann, tid, lambda t, n=number: t["current_round"] >= n or t["status"] == "finished"
            )
            for mid in in_play(t):
                await play_out(present, mid)
        t = await until(ann, tid, lambda t: t["status"] == "finished", seconds=30)
        ghost_games = [
            p for r in t["rounds"] for p in r["pairings"] if "ghost" in p["seats"] and p["seats"][1]
        ]
        assert len(ghost_games) == 2 and all(p["forfeit"] for p in ghost_games)
        ghost = next(p for p in t["players"] if p["username"] == "ghost")
        assert ghost["withdrawn"] and ghost["forfeits"] == 2
        byes = [p for r in t["rounds"] for p in r["pairings"] if p["seats"] == ["ghost", None]]
        assert len(byes) <= 1, "a withdrawn player's later bye is dropped"
        assert next(s for s in t["standings"] if s["username"] == "ghost")["points"] == len(byes)
        # the members' match lists name each board's tournament, so that a forfeit reads as one
        listed = (await clients["ghost"].get("/api/matches")).json()
        boards = {p["match_id"] for p in ghost_games}
        assert {m["id"] for m in listed} == boards
        assert all(m["tournament"] == {"id": tid, "name": t["name"]} for m in listed)
        assert all(m["result"]["reason"] in {"unplayed", "no_first_move"} for m in listed)
        # ... and so do the members' histories: a loss (or a win) without play, counted by the filters
        history = (await ann.get("/api/members/ghost/matches")).json()["items"]
        assert {h["id"] for h in history} == boards
        assert {(h["status"], h["result"]) for h in history} == {("aborted", "loss")}
        assert all(h["reason_text"] == f"без игры (турнир «{t['name']}»)" for h in history)
        assert all(h["tournament"] == {"id": tid, "name": t["name"]} for h in history)
        for result, n in (("loss", 2), ("win", 0), ("aborted", 0)):
            page = (await ann.get(f"/api/members/ghost/matches?result={result}")).json()
            assert page["total"] == n, (result, page)
        winners = {p["seats"][0] if p["seats"][1] == "ghost" else p["seats"][1] for p in ghost_games}
        for name in winners:
            wins = (await ann.get(f"/api/members/{name}/matches?result=win")).json()["items"]
            assert {h["id"] for h in wins} & boards and all(h["result"] == "win" for h in wins)
        # a tournament board has no rematch: the tournament pairs the next game
        r = await clients["ghost"].post(f"/api/matches/{next(iter(boards))}/rematch", json={})
        assert (r.status_code, r.json()["code"]) == (409, "rematch_not_allowed")
        export = (await clients["ghost"].get("/api/members/ghost/matches/export?format=csv")).text
        rows = list(csv.DictReader(io.StringIO(export)))
        assert {(r["result"], r["tournament"]) for r in rows} == {("loss", t["name"])}
        for c in clients.values():
            await c.aclose()


async def test_a_profile_lists_the_members_tournaments(user_client: UserClient) -> None:
    clients = await members(user_client, "ann", "ben")
    t = await create(clients["ann"])
    await clients["ben"].post(f"/api/tournaments/{t['id']}/join", json={})
    mine = (await clients["ann"].get("/api/tournaments?member=ben")).json()
    assert [x["id"] for x in mine] == [t["id"]]
    assert (await clients["ann"].get("/api/tournaments?member=ann")).json() == [], (
        "organising is not entering"
    )
    page = await clients["ann"].get("/members/ben")
    assert page.status_code == 200 and "member-tournament-items" in page.text


async def test_a_swiss_with_more_rounds_than_its_players_allow_does_not_start(
    user_client: UserClient,
) -> None:
    clients = await members(user_client, "ann", "ben")
    t = await create(clients["ann"], format="swiss", rounds=2)
    for c in clients.values():
        await c.post(f"/api/tournaments/{t['id']}/join", json={})
    r = await clients["ann"].post(f"/api/tournaments/{t['id']}/start", json={})
    assert (r.status_code, r.json()["code"]) == (409, "too_many_rounds")
    assert (await read(clients["ann"], t["id"]))["status"] == "open"


async def test_a_match_in_play_at_the_round_deadline_is_lost_on_time(
    app: FastAPI, user_client: UserClient
) -> None:
    from datetime import timedelta

    from duelclub.store.models import Tournament

    clients = await members(user_client, "ann", "ben")
    t = await create(clients["ann"], format="swiss", rounds=1, round_minutes=1, options={"rounds": 3})
    tid = t["id"]
    for c in clients.values():
        await c.post(f"/api/tournaments/{tid}/join", json={})
    t = (await clients["ann"].post(f"/api/tournaments/{tid}/start", json={})).json()
    mid = in_play(t)[0]
    for c in clients.values():  # both make their first move: no no-show, a real match in play
        st = (await c.get(f"/api/matches/{mid}/state")).json()
        if st["legal"]:
            await c.post(
                f"/api/matches/{mid}/actions", json={"id": "1", "seq": st["seq"], "action": st["legal"][0]}
            )
    with app.state.db.session() as s:
        row = s.get(Tournament, tid)
        assert row is not None and row.round_started_at is not None
        row.round_started_at = row.round_started_at - timedelta(minutes=2)
    app.state.tournaments.kick()
    t = await until(clients["ann"], tid, lambda t: t["status"] == "finished")
    match = (await clients["ann"].get(f"/api/matches/{mid}")).json()
    assert match["status"] == "finished" and match["result"]["reason"] == "timeout"


async def test_no_claim_nor_abort_on_a_board_before_both_first_moves(user_client: UserClient) -> None:
    """Before both players of a board have moved, the tournament's no-show rule decides (after its grace the
    absent seat forfeits), not the shorter abandonment claim, which would also have scored an unplayed
    board as a won game in an unrated tournament, nor a player's abort; once both have moved the claim is as
    in any match."""
    clients = await members(user_client, "ann", "ben")
    ann, ben = clients["ann"], clients["ben"]
    t = await create(ann, options={"rounds": 3}, rated=False)
    tid = t["id"]
    for c in clients.values():
        await c.post(f"/api/tournaments/{tid}/join", json={})
    t = (await ann.post(f"/api/tournaments/{tid}/start", json={})).json()
    mid = in_play(t)[0]
    assert (await ann.get(f"/api/matches/{mid}")).json()["move_seconds"] is None  # claims need no clock
    for c in (ann, ben):
        r = await c.post(f"/api/matches/{mid}/claim", json={})
        assert (r.status_code, r.json()["code"]) == (409, "claim_not_allowed"), r.text
        assert (await c.get(f"/api/matches/{mid}/presence")).json()["claim_at"] is None
        # nor «Отменить партию»: an abort scored the board -/-, the present player's forfeit win gone
        r = await c.post(f"/api/matches/{mid}/abort", json={})
        assert (r.status_code, r.json()["code"]) == (409, "abort_not_allowed"), r.text
        assert (await c.get(f"/api/matches/{mid}/state")).json()["abortable"] is False
    moved: set[str] = set()
    for _ in range(10):  # until both seats have made their first move
        for name, c in clients.items():
            st = (await c.get(f"/api/matches/{mid}/state")).json()
            if st["legal"] and name not in moved:
                body = {"id": f"m{st['seq']}", "seq": st["seq"], "action": st["legal"][0]}
                assert (await c.post(f"/api/matches/{mid}/actions", json=body)).status_code == 200
                moved.add(name)
    st = (await ann.get(f"/api/matches/{mid}/state")).json()
    assert st["status"] == "active", st
    r = await ann.post(f"/api/matches/{mid}/claim", json={})
    assert r.json()["code"] == "claimant_not_connected", r.text  # allowed now: only the socket is missing
