"""Tournaments after a fresh-user QA pass (issue 26 §Pages, §Lifecycle), through the API and the pages: an
unknown tournament is the site's 404 page; a cancelled tournament's matches say so (not «администратор»); a
scheduled Swiss with more rounds than its players allow plays the rounds they allow; «played» counts only
games played over the board, the same in the JSON and the CSV; the page offers the game's bot levels."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

from fastapi import FastAPI
from test_tournaments_api import UserClient, create, in_play, members, play_out, until

from duelclub.store.models import Tournament


async def test_an_unknown_tournament_page_is_the_sites_404_page(user_client: UserClient) -> None:
    ann = await user_client("ann")
    for tid in ("unknown", "12345", "0b7f6c3e-5d1a-4c43-9e0f-1f2a3b4c5d6e", "x" * 300):
        r = await ann.get(f"/tournaments/{tid}")
        assert r.status_code == 404, tid
        assert 'id="not-found"' in r.text and "Турнир не найден" in r.text
    t = await create(ann)
    r = await ann.get(f"/tournaments/{t['id']}")
    assert r.status_code == 200 and 'id="tournament"' in r.text


async def test_the_page_offers_the_games_bot_levels_by_name(user_client: UserClient) -> None:
    ann = await user_client("ann")
    t = await create(ann)
    page = (await ann.get(f"/tournaments/{t['id']}")).text
    games = (await ann.get("/api/games")).json()
    levels = next(g for g in games if g["slug"] == "duel")["bot_levels"]
    assert levels, "the fake game has bot levels"
    for level in levels:
        value = level if isinstance(level, str) else level["id"]
        assert f'<option value="{value}"' in page, value
    r = await ann.post(f"/api/tournaments/{t['id']}/bots", json={"level": levels[-1]})
    assert r.status_code == 200, r.text


async def test_a_cancelled_tournaments_match_ends_as_cancelled_by_the_tournament(
    user_client: UserClient,
) -> None:
    clients = await members(user_client, "ann", "ben")
    ann = clients["ann"]
    t = await create(ann, format="swiss", rounds=1, options={"rounds": 1})
    for c in clients.values():
        await c.post(f"/api/tournaments/{t['id']}/join", json={})
    t = (await ann.post(f"/api/tournaments/{t['id']}/start", json={})).json()
    mid = in_play(t)[0]
    assert (await ann.post(f"/api/tournaments/{t['id']}/cancel", json={})).json()["status"] == "cancelled"
    match = (await clients["ben"].get(f"/api/matches/{mid}")).json()
    assert match["status"] == "aborted"
    assert match["result"]["reason"] == "tournament_cancelled"
    assert match["result"]["reason_text"] == "турнир отменён"
    assert "администратор" not in str(match["result"])


async def test_a_scheduled_swiss_with_too_many_rounds_plays_the_rounds_its_players_allow(
    app: FastAPI, user_client: UserClient
) -> None:
    clients = await members(user_client, "ann", "ben")
    ann = clients["ann"]
    starts = (datetime.now(UTC) + timedelta(minutes=30)).isoformat()
    t = await create(ann, format="swiss", rounds=3, starts_at=starts, options={"rounds": 1})
    tid = t["id"]
    assert t["starts_at"] is not None
    for c in clients.values():
        await c.post(f"/api/tournaments/{tid}/join", json={})
    r = await ann.post(f"/api/tournaments/{tid}/start", json={})
    assert (r.status_code, r.json()["code"]) == (409, "too_many_rounds"), "the organiser is still refused"
    with app.state.db.session() as s:
        row = s.get(Tournament, tid)
        assert row is not None
        row.starts_at = datetime.now(UTC) - timedelta(seconds=1)
    app.state.tournaments.kick()
    t = await until(ann, tid, lambda t: t["status"] != "open")
    cut = (t["status"], t["planned_rounds"], t["total_rounds"])
    assert cut == ("running", 3, 1), "cut to the 1 round 2 players allow, not cancelled"
    t = await until(ann, tid, lambda t: len(in_play(t)) == 1)
    await play_out(clients, in_play(t)[0])
    t = await until(ann, tid, lambda t: t["status"] == "finished")
    assert len(t["rounds"]) == 1


async def test_played_counts_games_over_the_board_not_forfeits_the_same_in_the_csv(
    user_client: UserClient,
) -> None:
    clients = await members(user_client, "ann", "ben", "dan")
    ann = clients["ann"]
    t = await create(ann, options={"rounds": 1})
    tid = t["id"]
    for c in clients.values():
        await c.post(f"/api/tournaments/{tid}/join", json={})
    await ann.post(f"/api/tournaments/{tid}/start", json={})
    assert (await clients["dan"].post(f"/api/tournaments/{tid}/withdraw", json={})).status_code == 200
    for number in (1, 2, 3):
        t = await until(ann, tid, lambda t, n=number: t["current_round"] >= n or t["status"] == "finished")
        for mid in in_play(t):
            await play_out(clients, mid)
    t = await until(ann, tid, lambda t: t["status"] == "finished")
    played = {s["username"]: s["played"] for s in t["standings"]}
    assert played == {"ann": 1, "ben": 1, "dan": 0}, "ann and ben met; every game with dan was a forfeit"
    assert sum(1 for r in t["rounds"] for p in r["pairings"] if p["forfeit"]) == 2
    rows = list(csv.DictReader(io.StringIO((await ann.get(f"/api/tournaments/{tid}/crosstable.csv")).text)))
    assert {row["player"]: int(row["played"]) for row in rows} == played


async def test_a_bot_board_plays_the_tournaments_clock_and_names_its_tournament(
    app: FastAPI, user_client: UserClient
) -> None:
    """QA: a member's board against a bot had no clock (a member could stall the round) and its page said
    «товарищеская»; now it plays the tournament's move clock, and the match summary names the tournament."""
    ann = await user_client("ann")
    t = await create(ann, name="Вечер с ботом", move_seconds=60, options={"rounds": 1})
    tid = t["id"]
    assert (await ann.post(f"/api/tournaments/{tid}/bots", json={"level": "easy"})).status_code == 200
    await ann.post(f"/api/tournaments/{tid}/join", json={})
    assert (await ann.post(f"/api/tournaments/{tid}/start", json={})).status_code == 200
    t = await until(ann, tid, lambda t: bool(in_play(t)))
    mid = in_play(t)[0]
    summary = (await ann.get(f"/api/matches/{mid}")).json()
    assert summary["move_seconds"] == 60, "the bot board plays the tournament's clock"
    assert summary["tournament"] == {"id": tid, "name": "Вечер с ботом"}
    assert summary["rated"] is False
    other = (await ann.post("/api/matches", json={"game": "duel", "vs": "bot"})).json()
    other_id = other.get("id") or other.get("match_id")
    assert (await ann.get(f"/api/matches/{other_id}")).json()["tournament"] is None


async def test_the_csv_names_a_bot_as_the_page_does(user_client: UserClient) -> None:
    """Issue 30 QA: the CSV wrote ``bot:novice`` where the page says «Бот (новичок)» (in the reader's
    language, as the page; the test game's bot is ``easy``, the old id of ``light``)."""
    clients = await members(user_client, "ann")
    ann = clients["ann"]
    tid = (await create(ann))["id"]
    assert (await ann.post(f"/api/tournaments/{tid}/bots", json={"level": "easy"})).status_code == 200
    await ann.post(f"/api/tournaments/{tid}/join", json={})
    for lang, bot in (("ru", "Бот (лёгкий)"), ("uk", "Бот (легкий)")):
        r = await ann.get(f"/api/tournaments/{tid}/crosstable.csv", headers={"Accept-Language": lang})
        players = {row["player"] for row in csv.DictReader(io.StringIO(r.text))}
        assert players == {"ann", bot}, (lang, players)


async def test_an_unrated_tournaments_resignation_before_both_first_moves_is_a_game_played(
    user_client: UserClient,
) -> None:
    """docs/tournaments.md §Played: only a rated match is kept from ending before both first moves (it ends
    aborted, a forfeit); in an unrated tournament the resignation is a game lost over the board."""
    clients = await members(user_client, "ann", "ben")
    ann = clients["ann"]
    t = await create(ann, rated=False, options={"rounds": 1})
    for c in clients.values():
        await c.post(f"/api/tournaments/{t['id']}/join", json={})
    t = (await ann.post(f"/api/tournaments/{t['id']}/start", json={})).json()
    mid = in_play(t)[0]
    body = {"id": "r0", "seq": 0, "action": {"kind": "resign"}}
    assert (await clients["ben"].post(f"/api/matches/{mid}/actions", json=body)).status_code == 200
    assert (await ann.get(f"/api/matches/{mid}")).json()["status"] == "finished"
    t = await until(ann, t["id"], lambda t: t["status"] == "finished")
    board = t["rounds"][0]["pairings"][0]
    assert not board["forfeit"] and board["result"] in ("1-0", "0-1"), board
    table = {s["username"]: (s["played"], s["points"]) for s in t["standings"]}
    assert table == {"ann": (1, 1), "ben": (1, 0)}


async def test_an_arenas_games_are_headed_as_games_and_a_round_robins_as_rounds(
    user_client: UserClient,
) -> None:
    ann = await user_client("ann")
    arena = await create(ann, format="arena", minutes=5)
    page = (await ann.get(f"/tournaments/{arena['id']}")).text
    assert '<h2 id="rounds-title">Партии</h2>' in page, "an arena has no rounds to name"
    robin = await create(ann)
    page = (await ann.get(f"/tournaments/{robin['id']}")).text
    assert '<h2 id="rounds-title">Туры и партии</h2>' in page
