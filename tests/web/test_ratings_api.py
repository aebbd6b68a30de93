"""Ratings through the JSON API (issue 14 §3–8): rated or casual choices, ratings beside every name, the
«+12» of a result, the leaderboard's filters, profiles, paginated histories with filters, exports of one's own
history, «Отменить партию», and member replays of ended matches."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import AsyncClient

from duelclub.ratings.glicko2 import Rating
from duelclub.store import users
from duelclub.store.models import MemberRating, utcnow

Invite = Callable[..., Awaitable[str]]


async def _resign(c: AsyncClient, mid: str) -> dict[str, Any]:
    st = (await c.get(f"/api/matches/{mid}/state")).json()
    r = await c.post(
        f"/api/matches/{mid}/actions",
        json={"id": f"gg{st['seq']}", "seq": st["seq"], "action": {"kind": "resign"}},
    )
    assert r.status_code == 200, r.text
    return dict(r.json())


async def _play_first_moves(a: AsyncClient, b: AsyncClient, mid: str) -> None:
    """Both players make their first action (the match can no longer be aborted); a player may need several
    actions before the other's first (Дві вежі's «Граємо знову»)."""
    for _ in range(8):
        for c in (a, b):
            st = (await c.get(f"/api/matches/{mid}/state")).json()
            if not st["abortable"]:
                return
            if st["seat"] in st["to_move"] and st["legal"]:
                body = {"id": f"m{st['seq']}", "seq": st["seq"], "action": st["legal"][0]}
                assert (await c.post(f"/api/matches/{mid}/actions", json=body)).status_code == 200
                break
    st = (await a.get(f"/api/matches/{mid}/state")).json()
    assert st["abortable"] is False


async def _rated_win(winner: AsyncClient, loser: AsyncClient, invite_match: Invite, **body: Any) -> str:
    mid = await invite_match(winner, loser, **body)
    await _play_first_moves(winner, loser, mid)
    await _resign(loser, mid)
    return mid


def _set_rating(app: FastAPI, name: str, game: str, r: Rating, *, days_ago: float, matches: int = 20) -> None:
    with app.state.db.session() as s:
        user = users.find_user(s, name)
        assert user is not None
        s.add(
            MemberRating(
                user_id=user.id,
                game=game,
                rating=r.rating,
                rd=r.rd,
                volatility=r.volatility,
                matches=matches,
                wins=matches // 2,
                draws=1,
                losses=matches - matches // 2 - 1,
                best=r.rating + 10,
                streak=2,
                last_rated_at=utcnow() - timedelta(days=days_ago),
            )
        )


# -- the match page and lists --------------------------------------------------------------------------
async def test_a_rated_result_shows_each_players_new_rating_and_its_change(
    alice: AsyncClient, bob: AsyncClient, invite_match: Invite
) -> None:
    mid = await invite_match(alice, bob)
    before = (await alice.get(f"/api/matches/{mid}")).json()
    assert before["rated"] is True
    assert [s["rating"] for s in before["seats"]] == [
        {"rating": 1500, "rd": 350, "provisional": True, "delta": None}
    ] * 2
    await _play_first_moves(alice, bob, mid)
    await _resign(bob, mid)
    after = (await bob.get(f"/api/matches/{mid}")).json()
    won, lost = (s["rating"] for s in after["seats"])
    assert won["delta"] == won["rating"] - 1500 > 0 and lost["delta"] == lost["rating"] - 1500 < 0
    assert won["delta"] == -lost["delta"], "equal players move by the same amount"
    assert won["provisional"] and lost["provisional"], "one match does not establish a rating"
    mine = (await alice.get("/api/matches")).json()[0]
    assert mine["rated"] is True and mine["seats"][0]["rating"] == won and mine["opponent"]["rating"] == lost


async def test_a_casual_invite_changes_no_rating(alice: AsyncClient, bob: AsyncClient) -> None:
    r = await alice.post("/api/matches", json={"game": "duel", "vs": "invite", "rated": False})
    token = r.json()["invite_token"]
    assert (await bob.get(f"/api/invites/{token}")).json()["rated"] is False
    mid = (await bob.post(f"/api/invites/{token}/accept", json={})).json()["id"]
    await _play_first_moves(alice, bob, mid)
    await _resign(bob, mid)
    after = (await alice.get(f"/api/matches/{mid}")).json()
    assert after["rated"] is False
    assert [s["rating"]["delta"] for s in after["seats"]] == [None, None]
    assert (await alice.get("/api/members/alice")).json()["games"][0]["matches"] == 0


async def test_the_challenge_table_and_the_live_list_show_ratings(
    app: FastAPI, alice: AsyncClient, bob: AsyncClient, carol: AsyncClient
) -> None:
    _set_rating(app, "alice", "duel", Rating(1734.4, 61, 0.06), days_ago=1)
    body = {"game": "duel", "options": {}, "move_seconds": None}
    rated = (await alice.post("/api/challenges", json=body)).json()
    casual = (await bob.post("/api/challenges", json={**body, "rated": False})).json()
    rows = {r["id"]: r for r in (await carol.get("/api/challenges")).json()}
    assert rows[rated["id"]]["rated"] is True and rows[casual["id"]]["rated"] is False
    assert rows[rated["id"]]["author_rating"] == {
        "rating": 1734,
        "rd": 61,
        "provisional": False,
        "delta": None,
    }
    assert rows[casual["id"]]["author_rating"]["provisional"] is True
    await carol.post(f"/api/challenges/{rated['id']}/accept", json={})
    live = (await bob.get("/api/matches/live")).json()
    assert [(m["id"], m["rated"]) for m in live] == [(rated["id"], True)]
    assert [r["rating"] if r else None for r in live[0]["ratings"]] == [1734, 1500]
    mezha = (
        await alice.post("/api/challenges", json={"game": "mezha", "options": {"house": "olkha"}})
    ).json()
    row = next(r for r in (await carol.get("/api/challenges")).json() if r["id"] == mezha["id"])
    assert row["rated"] is False and row["author_rating"] is None, "Межа is never rated"


async def test_admins_see_ratings_in_the_match_list(
    app: FastAPI, admin: AsyncClient, alice: AsyncClient, bob: AsyncClient, invite_match: Invite
) -> None:
    await _rated_win(alice, bob, invite_match)
    rows = (await admin.get("/api/admin/matches")).json()
    assert rows[0]["rated"] is True
    assert rows[0]["seats"][0]["rating"]["delta"] > 0 > rows[0]["seats"][1]["rating"]["delta"]


# -- abort -----------------------------------------------------------------------------------------------
async def test_abort_before_both_first_actions_and_refused_after(
    alice: AsyncClient, bob: AsyncClient, carol: AsyncClient, invite_match: Invite
) -> None:
    mid = await invite_match(alice, bob)
    assert (await alice.get(f"/api/matches/{mid}/state")).json()["abortable"] is True
    r = await carol.post(f"/api/matches/{mid}/abort", json={})
    assert (r.status_code, r.json()["code"]) == (403, "not_your_seat")
    r = await bob.post(f"/api/matches/{mid}/abort", json={})
    assert r.status_code == 200 and r.json()["status"] == "aborted"
    assert r.json()["result"]["reason"] == "player_abort" and r.json()["result"]["seat"] == 1
    assert (await alice.get("/api/members/alice")).json()["games"][0]["matches"] == 0
    played = await invite_match(alice, bob)
    await _play_first_moves(alice, bob, played)
    r = await alice.post(f"/api/matches/{played}/abort", json={})
    assert (r.status_code, r.json()["code"]) == (409, "abort_too_late")


# -- the leaderboard --------------------------------------------------------------------------------------
async def test_the_leaderboard_lists_established_recently_active_ratings_best_first(
    app: FastAPI, user_client: Callable[[str], Awaitable[AsyncClient]]
) -> None:
    viewer = await user_client("viewer")
    names = ["top", "second", "third", "shaky", "idle", "stale", "fresh", "other"]
    for name in names:
        await user_client(name)
    _set_rating(app, "top", "duel", Rating(1900, 50, 0.06), days_ago=2)
    _set_rating(app, "second", "duel", Rating(1800, 109.9, 0.06), days_ago=0)  # just under 110: established
    _set_rating(app, "third", "duel", Rating(1700, 80, 0.06), days_ago=89)
    _set_rating(app, "shaky", "duel", Rating(2100, 111, 0.06), days_ago=1)  # provisional
    _set_rating(app, "idle", "duel", Rating(2000, 60, 0.06), days_ago=91)  # no rated match in 90 days
    _set_rating(app, "stale", "duel", Rating(1950, 108, 0.06), days_ago=30)  # RD grown past 110 by now
    _set_rating(app, "fresh", "duel", Rating(1600, 300, 0.06), days_ago=0)
    _set_rating(app, "other", "towers", Rating(2500, 50, 0.06), days_ago=0)
    board = (await viewer.get("/api/leaderboard/duel")).json()
    assert (board["game"], board["max_rd"], board["active_days"]) == ("duel", 110, 90)
    rows = [(e["rank"], e["username"], e["rating"]) for e in board["entries"]]
    assert rows == [(1, "top", 1900), (2, "second", 1800), (3, "third", 1700)]
    top = board["entries"][0]
    assert (top["matches"], top["wins"], top["draws"], top["losses"], top["rd"]) == (20, 10, 1, 9, 50)
    assert [e["username"] for e in (await viewer.get("/api/leaderboard/towers")).json()["entries"]] == [
        "other"
    ]
    for bad in ("mezha", "chess"):
        r = await viewer.get(f"/api/leaderboard/{bad}")
        assert (r.status_code, r.json()["code"]) == (404, "unknown_game")


async def test_the_leaderboard_holds_fifty(
    app: FastAPI, user_client: Callable[[str], Awaitable[AsyncClient]]
) -> None:
    viewer = await user_client("viewer")
    for n in range(53):
        await user_client(f"m{n:02d}")
        _set_rating(app, f"m{n:02d}", "duel", Rating(1500 + n, 60, 0.06), days_ago=1)
    entries = (await viewer.get("/api/leaderboard/duel")).json()["entries"]
    assert len(entries) == 50 and entries[0]["username"] == "m52" and entries[-1]["username"] == "m03"


# -- profiles and histories --------------------------------------------------------------------------------
async def test_a_profile_shows_each_rated_game_with_its_history(
    alice: AsyncClient, bob: AsyncClient, invite_match: Invite
) -> None:
    for _ in range(3):
        await _rated_win(alice, bob, invite_match)
    await _rated_win(bob, alice, invite_match)
    profile = (await bob.get("/api/members/ALICE")).json()
    assert profile["username"] == "alice" and profile["matches"] == 4
    assert [g["game"] for g in profile["games"]] == ["duel", "towers", "warchest", "artania"]
    duel, towers = profile["games"][0], profile["games"][1]
    assert (duel["matches"], duel["wins"], duel["draws"], duel["losses"], duel["streak"]) == (4, 3, 0, 1, -1)
    assert len(duel["history"]) == 4
    points = [p["rating"] for p in duel["history"]]
    assert points[0] < points[1] < points[2] > points[3]
    assert duel["best"] == round(points[2]) and duel["rating"]["rating"] == round(points[3])
    assert (towers["rating"], towers["matches"], towers["history"]) == (None, 0, [])
    r = await bob.get("/api/members/nobody")
    assert (r.status_code, r.json()["code"]) == (404, "member_not_found")


async def test_the_history_is_newest_first_paginated_and_filtered(
    alice: AsyncClient, bob: AsyncClient, carol: AsyncClient, invite_match: Invite
) -> None:
    wins = [await _rated_win(alice, bob, invite_match) for _ in range(3)]
    loss = await _rated_win(carol, alice, invite_match)
    token = (await alice.post("/api/matches", json={"game": "duel", "vs": "invite", "rated": False})).json()[
        "invite_token"
    ]
    casual = (await carol.post(f"/api/invites/{token}/accept", json={})).json()["id"]
    await _play_first_moves(alice, carol, casual)
    await _resign(carol, casual)
    aborted = await invite_match(bob, alice)
    await alice.post(f"/api/matches/{aborted}/abort", json={})
    await alice.post("/api/matches", json={"game": "duel", "vs": "invite"})  # open: not history
    page1 = (await carol.get("/api/members/alice/matches?per_page=4")).json()
    assert (page1["total"], page1["pages"], page1["page"], page1["per_page"]) == (6, 2, 1, 4)
    assert [i["id"] for i in page1["items"]] == [aborted, casual, loss, wins[2]]
    page2 = (await carol.get("/api/members/alice/matches?per_page=4&page=2")).json()
    assert [i["id"] for i in page2["items"]] == [wins[1], wins[0]]
    first = page2["items"][-1]
    assert (first["result"], first["reason"], first["rated"], first["rating_before"]) == (
        "win",
        "resign",
        True,
        1500,
    )
    assert first["delta"] == first["rating_after"] - 1500 > 0
    assert first["opponent"]["username"] == "bob" and first["opponent_rating"]["rating"] == 1500
    assert first["url"] == f"/matches/{first['id']}" and first["replay_url"].endswith("#replay")
    assert page1["items"][0]["result"] == "aborted" and page1["items"][0]["rated"] is False
    assert (page1["items"][1]["result"], page1["items"][1]["rated"], page1["items"][1]["delta"]) == (
        "win",
        False,
        None,
    )

    async def ids(query: str) -> list[str]:
        body = (await carol.get(f"/api/members/alice/matches?{query}")).json()
        return [i["id"] for i in body["items"]]

    assert await ids("result=win") == [casual, *reversed(wins)]
    assert await ids("result=loss") == [loss]
    assert await ids("result=aborted") == [aborted]
    assert await ids("result=draw") == []
    assert await ids("opponent=Carol") == [casual, loss]
    assert await ids("opponent=carol&result=loss") == [loss]
    assert await ids("opponent=nobody") == []
    assert await ids("game=mezha") == []
    assert (await carol.get("/api/members/alice/matches?result=bogus")).status_code == 422
    assert (await carol.get("/api/members/alice/matches?page=9")).json()["items"] == []


async def test_a_member_downloads_their_own_history_as_csv_and_json_lines(
    alice: AsyncClient, bob: AsyncClient, invite_match: Invite
) -> None:
    mid = await _rated_win(alice, bob, invite_match)
    r = await alice.get("/api/members/alice/matches/export?format=csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert "attachment" in r.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert len(rows) == 1
    row = rows[0]
    assert (row["match_id"], row["opponent"], row["result"], row["rated"]) == (mid, "bob", "win", "yes")
    assert int(row["rating_after"]) - int(row["rating_before"]) == int(row["delta"]) > 0
    assert row["url"] == f"http://testserver/matches/{mid}"
    r = await alice.get("/api/members/alice/matches/export?format=jsonl")
    assert r.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in r.text.splitlines()]
    assert [(x["id"], x["result"], x["delta"]) for x in lines] == [(mid, "win", int(row["delta"]))]
    r = await bob.get("/api/members/alice/matches/export?format=csv")
    assert (r.status_code, r.json()["code"]) == (403, "not_your_history")
    assert (await alice.get("/api/members/alice/matches/export?format=xml")).status_code == 422


async def test_the_queue_status_shows_the_rating_window_widening(app: FastAPI, alice: AsyncClient) -> None:
    r = await alice.post("/api/queue", json={"game": "duel", "options": {}})
    q = r.json()
    assert (q["status"], q["rated"], q["window"], q["rating"]["rating"]) == ("waiting", True, 200, 1500)
    service = app.state.service
    later = service.now() + timedelta(seconds=25)
    service.now = lambda: later
    assert (await alice.get("/api/queue")).json()["window"] == 400
    casual = (await alice.post("/api/queue", json={"game": "duel", "options": {}, "rated": False})).json()
    assert (casual["rated"], casual["window"], casual["rating"]) == (False, None, None)


# -- replays -------------------------------------------------------------------------------------------------
async def test_members_replay_ended_matches_only(
    alice: AsyncClient, bob: AsyncClient, carol: AsyncClient, client_factory: Any, invite_match: Invite
) -> None:
    mid = await invite_match(alice, bob)
    await _play_first_moves(alice, bob, mid)
    for path in (f"/api/matches/{mid}/moves", f"/api/matches/{mid}/replay?seq=1"):
        r = await carol.get(path)
        assert (r.status_code, r.json()["code"]) == (409, "match_not_finished"), (
            "a live match is never replayable"
        )
    await _resign(alice, mid)
    r = await client_factory().get(f"/api/matches/{mid}/moves")
    assert r.status_code == 401
    moves = (await carol.get(f"/api/matches/{mid}/moves")).json()
    assert moves["last_seq"] == 3 and [a["seq"] for a in moves["actions"]] == [1, 2, 3]
    assert moves["actions"][-1]["action"] == {"kind": "resign"}
    steps = [(await carol.get(f"/api/matches/{mid}/replay?seq={n}")).json() for n in range(4)]
    assert [s["seq"] for s in steps] == [0, 1, 2, 3] and steps[0]["action"] is None
    assert all("hands" in s["view"] for s in steps), "full information once the match has ended"
    assert steps[3]["view"]["outcome"]["reason"] == "resign"
    r = await carol.get(f"/api/matches/{mid}/replay?seq=4")
    assert (r.status_code, r.json()["code"]) == (422, "bad_seq")


@pytest.mark.parametrize("path", ["/leaderboard/duel", "/members/alice"])
async def test_the_pages_render_for_members_and_send_visitors_to_log_in(
    alice: AsyncClient, client_factory: Any, path: str
) -> None:
    r = await alice.get(path)
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    r = await client_factory().get(path)
    assert r.status_code == 303 and r.headers["location"].startswith("/login?next=")
    for missing in ("/leaderboard/mezha", "/members/nobody"):
        assert (await alice.get(missing)).status_code == 404
    r = await alice.get("/leaderboard")
    assert (r.status_code, r.headers["location"]) == (303, "/leaderboard/duel")
