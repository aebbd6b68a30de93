"""Matches over the JSON API with the fake ``duel`` game (DESIGN.md §Public JSON API, §Fairness).

Duel: 3 hidden cards per seat; per round the seat to move plays, then the other; the higher card wins.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable
from typing import Any

from httpx import AsyncClient

from duelclub.games.fairness import commitment, match_key

StateOf = Callable[..., Awaitable[dict[str, Any]]]
InviteMatch = Callable[..., Awaitable[str]]


async def act(client: AsyncClient, match_id: str, seq: int, action: dict[str, Any], aid: str = "a1") -> Any:
    return await client.post(
        f"/api/matches/{match_id}/actions", json={"id": aid, "seq": seq, "action": action}
    )


async def mover(
    clients: list[AsyncClient], match_id: str, state_of: StateOf
) -> tuple[AsyncClient, dict[str, Any]]:
    """The client whose seat is to move, and its state."""
    for c in clients:
        st = await state_of(c, match_id)
        if st["legal"]:
            return c, st
    raise AssertionError("nobody to move")


async def test_create_vs_bot_starts_at_once_and_the_bot_answers(
    alice: AsyncClient, state_of: StateOf
) -> None:
    body = {"game": "duel", "vs": "bot", "bot_level": "easy", "options": {}}
    r = await alice.post("/api/matches", json=body)
    assert r.status_code == 201
    created = r.json()
    assert created["status"] == "active" and created["seat"] == 0 and len(created["commitment"]) == 64
    assert created["invite_url"] is None
    mid = created["id"]
    for i in range(200):
        st = await state_of(alice, mid)
        if st["status"] != "active":
            break
        if not st["legal"]:  # the bot is due: it answers by itself
            await asyncio.sleep(0.01)
            continue
        assert st["seat"] == 0 and st["to_move"] == [0]
        r = await act(alice, mid, st["seq"], st["legal"][0], aid=f"a{i}")
        assert r.status_code == 200
    log = (await alice.get(f"/api/matches/{mid}/log")).json()
    sources = [(a["seat"], a["source"]) for a in log["actions"]]
    assert (1, "bot") in sources and (0, "player") in sources
    assert {src for seat, src in sources if seat == 1} == {"bot"}
    summary = (await alice.get(f"/api/matches/{mid}")).json()
    assert summary["seats"] == [
        {"seat": 0, "username": "alice", "bot": None, "rating": summary["seats"][0]["rating"]},
        {"seat": 1, "username": None, "bot": "easy", "rating": None},
    ]
    assert summary["rated"] is False, "a match against a bot is never rated"


async def test_create_errors(alice: AsyncClient) -> None:
    cases = [
        ({"game": "chess", "vs": "bot"}, "unknown_game"),
        ({"game": "duel", "vs": "bot", "bot_level": "godlike"}, "bad_bot_level"),
        ({"game": "duel", "vs": "invite", "options": {"rounds": 9}}, "bad_options"),
        ({"game": "duel", "vs": "invite", "client_seed": "XYZ"}, "bad_client_seed"),
        ({"game": "duel", "vs": "friend"}, "malformed"),
    ]
    for body, code in cases:
        r = await alice.post("/api/matches", json=body)
        assert r.status_code == 422, body
        assert r.json()["code"] == code, body


async def test_matches_need_a_login(client_factory: Callable[[], AsyncClient]) -> None:
    r = await client_factory().post("/api/matches", json={"game": "duel", "vs": "bot"})
    assert r.status_code == 401 and r.json()["code"] == "not_authenticated"


async def test_an_invite_tells_the_move_clock_it_offers(alice: AsyncClient, bob: AsyncClient) -> None:
    """The invited player sees the time per move before accepting (the invite page shows it)."""
    body = {"game": "duel", "vs": "invite", "move_seconds": 300}
    created = (await alice.post("/api/matches", json=body)).json()
    assert created["move_seconds"] == 300  # the creator's invite box says it too
    info = (await bob.get(f"/api/invites/{created['invite_token']}")).json()
    assert info["move_seconds"] == 300


async def test_invite_flow(alice: AsyncClient, bob: AsyncClient, carol: AsyncClient) -> None:
    r = await alice.post("/api/matches", json={"game": "duel", "vs": "invite", "options": {"rounds": 1}})
    body = r.json()
    assert (
        body["status"] == "open" and body["invite_url"] == f"http://testserver/invite/{body['invite_token']}"
    )
    token = body["invite_token"]
    info = (await bob.get(f"/api/invites/{token}")).json()
    assert info == {
        "id": body["id"],
        "game": "duel",
        "opener": "alice",
        "options": {"rounds": 1, "pause": False},
        "options_text": "раундов: 1",
        "commitment": body["commitment"],
        "status": "open",
        "rated": True,
        "opener_rating": {"rating": 1500, "rd": 350, "provisional": True, "delta": None},
        "move_seconds": None,  # no clock
    }
    mine = (await alice.get("/api/matches")).json()
    assert mine[0]["invite_token"] == token and mine[0]["status"] == "open"
    assert mine[0]["options_text"] == "раундов: 1 (вы открыли)"  # from the caller's seat
    r = await alice.post(f"/api/invites/{token}/accept", json={})
    assert r.status_code == 409 and r.json()["code"] == "own_invite"
    r = await bob.post(f"/api/invites/{token}/accept", json={"client_seed": "beef"})
    assert r.json() == {"id": body["id"], "seat": 1}
    r = await bob.post(f"/api/invites/{token}/accept", json={})
    assert r.json() == {"id": body["id"], "seat": 1}  # accepting twice is harmless
    r = await carol.post(f"/api/invites/{token}/accept", json={})
    assert r.status_code == 409 and r.json()["code"] == "invite_taken"
    r = await carol.get("/api/invites/nope")
    assert r.status_code == 404 and r.json()["code"] == "invite_not_found"
    summary = (await carol.get(f"/api/matches/{body['id']}")).json()
    assert summary["status"] == "active"
    assert summary["client_seeds"] == {"a": "", "b": "beef"}
    assert [s["username"] for s in summary["seats"]] == ["alice", "bob"]
    assert summary["server_seed"] is None


async def test_unknown_match_is_404(alice: AsyncClient) -> None:
    for path in ("", "/state", "/log"):
        r = await alice.get(f"/api/matches/nope{path}")
        assert r.status_code == 404 and r.json()["code"] == "match_not_found"
    r = await act(alice, "nope", 0, {"kind": "resign"})
    assert r.status_code == 404 and r.json()["code"] == "match_not_found"


async def test_hidden_hand_is_not_in_the_other_views(
    alice: AsyncClient, bob: AsyncClient, carol: AsyncClient, invite_match: InviteMatch, state_of: StateOf
) -> None:
    mid = await invite_match(alice, bob)
    a, b, spectator = [await state_of(c, mid) for c in (alice, bob, carol)]
    assert (a["seat"], b["seat"], spectator["seat"]) == (0, 1, None)
    assert len(a["view"]["hand"]) == 3 and spectator["view"]["hand"] is None and spectator["legal"] == []
    assert not set(a["view"]["hand"]) & set(b["view"]["hand"])
    c, st = await mover([alice, bob], mid, state_of)
    card = st["legal"][0]["card"]
    r = await act(c, mid, st["seq"], st["legal"][0])
    assert r.json()["events"] == [{"kind": "played", "seat": st["seat"], "card": card, "seq": 1}]
    other = bob if c is alice else alice
    ost = await state_of(other, mid, since=0)
    assert ost["view"]["played"][st["seat"]] == "hidden"
    assert ost["events"] == [{"kind": "played", "seat": st["seat"], "seq": 1}]
    assert str(card) not in str(ost["view"]["played"])


async def test_not_your_seat_and_stale_seq(
    alice: AsyncClient, bob: AsyncClient, carol: AsyncClient, invite_match: InviteMatch, state_of: StateOf
) -> None:
    mid = await invite_match(alice, bob)
    c, st = await mover([alice, bob], mid, state_of)
    r = await act(carol, mid, st["seq"], st["legal"][0])
    assert r.status_code == 403 and r.json()["code"] == "not_your_seat"
    r = await act(c, mid, st["seq"] + 1, st["legal"][0])
    assert r.status_code == 409 and r.json()["code"] == "stale_seq"
    assert (await act(c, mid, st["seq"], st["legal"][0], aid="x")).status_code == 200
    c2, st2 = await mover([alice, bob], mid, state_of)
    r = await act(c2, mid, st["seq"], st2["legal"][0], aid="y")  # the old seq
    assert r.status_code == 409 and r.json()["code"] == "stale_seq"


async def test_not_your_turn_is_the_engine_code(
    alice: AsyncClient, bob: AsyncClient, invite_match: InviteMatch, state_of: StateOf
) -> None:
    mid = await invite_match(alice, bob)
    c, _ = await mover([alice, bob], mid, state_of)
    other = bob if c is alice else alice
    ost = await state_of(other, mid)
    r = await act(other, mid, ost["seq"], {"kind": "play", "card": ost["view"]["hand"][0]})
    assert r.status_code == 422 and r.json()["code"] == "not_your_turn"


async def test_illegal_move_leaves_the_state_unchanged(
    alice: AsyncClient, bob: AsyncClient, invite_match: InviteMatch, state_of: StateOf
) -> None:
    mid = await invite_match(alice, bob)
    c, before = await mover([alice, bob], mid, state_of)
    missing = next(n for n in range(1, 11) if n not in before["view"]["hand"])
    r = await act(c, mid, before["seq"], {"kind": "play", "card": missing})
    assert r.status_code == 422 and r.json()["code"] == "card_not_in_hand"
    r = await act(c, mid, before["seq"], {"kind": "fly"})
    assert r.status_code == 422 and r.json()["code"] == "malformed_action"
    r = await c.post(f"/api/matches/{mid}/actions", json={"seq": 0, "action": {}})
    assert r.status_code == 422 and r.json()["code"] == "malformed"
    assert await state_of(c, mid) == before


async def test_a_resent_action_id_is_applied_once(
    alice: AsyncClient, bob: AsyncClient, invite_match: InviteMatch, state_of: StateOf
) -> None:
    mid = await invite_match(alice, bob)
    c, st = await mover([alice, bob], mid, state_of)
    first = await act(c, mid, st["seq"], st["legal"][0], aid="once")
    again = await act(c, mid, st["seq"], st["legal"][0], aid="once")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert (await state_of(c, mid))["seq"] == 1
    # still harmless after the match moved on
    c2, st2 = await mover([alice, bob], mid, state_of)
    await act(c2, mid, st2["seq"], st2["legal"][0], aid="next")
    late = await act(c, mid, st["seq"], st["legal"][0], aid="once")
    assert late.json() == first.json()
    assert (await state_of(c, mid))["seq"] == 2


async def test_resign_ends_the_match_and_reveals_a_verifiable_seed(
    alice: AsyncClient, bob: AsyncClient, carol: AsyncClient, invite_match: InviteMatch, state_of: StateOf
) -> None:
    mid = await invite_match(alice, bob)
    before = (await alice.get(f"/api/matches/{mid}")).json()
    assert before["server_seed"] is None
    assert (await alice.get(f"/api/matches/{mid}/log")).json()["code"] == "match_not_finished"
    st = await state_of(bob, mid)
    r = await act(bob, mid, st["seq"], {"kind": "resign"})  # legal out of turn too
    assert r.status_code == 200
    # a rated match resigned before both first moves is aborted, unrated (issue 31 §1); its seed is out too
    assert r.json()["status"] == "aborted"
    assert r.json()["result"] == {
        "winner": None,
        "reason": "unplayed",
        "reason_text": "закончилась до первых ходов — не в счёт",
        "names": ["alice", "bob"],
        "seat": 1,
        "ended_by": "resign",
    }
    after = (await carol.get(f"/api/matches/{mid}")).json()
    seed = bytes.fromhex(after["server_seed"])
    assert commitment(seed, mid) == after["commitment"] == before["commitment"]
    direct = hashlib.sha256(b"duelclub/v1/commit\0" + seed + b"\0" + mid.encode()).hexdigest()
    assert direct == after["commitment"]
    r = await act(alice, mid, r.json()["seq"], {"kind": "resign"}, aid="late")
    assert r.status_code == 409 and r.json()["code"] == "match_not_active"


async def test_log_after_the_end_for_players_only(
    alice: AsyncClient, bob: AsyncClient, carol: AsyncClient, invite_match: InviteMatch, state_of: StateOf
) -> None:
    mid = await invite_match(alice, bob, {"rounds": 1})
    c, st = await mover([alice, bob], mid, state_of)
    await act(c, mid, st["seq"], st["legal"][0], aid="1")
    c2, st2 = await mover([alice, bob], mid, state_of)
    r = await act(c2, mid, st2["seq"], st2["legal"][0], aid="2")
    assert r.json()["status"] == "finished" and r.json()["result"]["reason"] == "score"
    assert (await carol.get(f"/api/matches/{mid}/log")).json()["code"] == "not_your_match"
    log = (await alice.get(f"/api/matches/{mid}/log")).json()
    assert log["scheme"] == "duelclub/v1" and log["options"] == {"rounds": 1, "pause": False}
    assert [(a["seq"], a["source"], a["action"]) for a in log["actions"]] == [
        (1, "player", st["legal"][0]),
        (2, "player", st2["legal"][0]),
    ]
    assert log["client_seeds"] == {"a": "aa", "b": "bb"}
    key = match_key(bytes.fromhex(log["server_seed"]), mid, "aa", "bb")
    assert len(key) == 32
    assert log["final_view"]["outcome"] == {"winner": r.json()["result"]["winner"], "reason": "score"}


async def test_my_matches_newest_first_with_opponent_and_result(
    alice: AsyncClient, bob: AsyncClient, invite_match: InviteMatch
) -> None:
    first = await invite_match(alice, bob)
    second = (
        await alice.post("/api/matches", json={"game": "duel", "vs": "bot", "options": {"pause": True}})
    ).json()["id"]
    rows = (await alice.get("/api/matches")).json()
    assert [r["id"] for r in rows] == [second, first]
    assert rows[0]["options"]["pause"] is True
    # an active match between two people: the list's to_move is the match's own
    assert rows[1]["to_move"] == (await alice.get(f"/api/matches/{first}/state")).json()["to_move"]
    assert rows[0]["opponent"] == {"seat": 1, "username": None, "bot": "easy", "rating": None}
    assert rows[1]["opponent"] == {
        "seat": 1,
        "username": "bob",
        "bot": None,
        "rating": {"rating": 1500, "rd": 350, "provisional": True, "delta": None},
    }
    assert (await bob.get("/api/matches")).json()[0]["opponent"]["username"] == "alice"


async def test_the_bot_waits_in_the_pause_for_the_human(alice: AsyncClient, state_of: StateOf) -> None:
    r = await alice.post("/api/matches", json={"game": "duel", "vs": "bot", "options": {"pause": True}})
    mid = r.json()["id"]
    for _ in range(200):
        st = await state_of(alice, mid)
        if st["view"]["paused"]:
            break
        if st["legal"]:
            await act(alice, mid, st["seq"], st["legal"][0], aid=f"p{st['seq']}")
        await asyncio.sleep(0.01)
    assert st["view"]["paused"] and st["to_move"] == [0, 1]
    await asyncio.sleep(0.2)
    assert (await state_of(alice, mid))["seq"] == st["seq"]  # the bot did not continue
    r = await act(alice, mid, st["seq"], {"kind": "continue"}, aid="go")
    assert r.status_code == 200 and r.json()["view"]["paused"] is False


async def test_games_list(client_factory: Callable[[], AsyncClient]) -> None:
    games = (await client_factory().get("/api/games")).json()
    duel = next(g for g in games if g["slug"] == "duel")
    assert duel["bot_levels"] == ["easy"]
    assert duel["options_schema"]["properties"]["rounds"]["maximum"] == 3
    mezha = next(g for g in games if g["slug"] == "mezha")
    assert mezha["title"] == "Межа" and mezha["catalog"]


async def test_a_player_cannot_send_the_clock_only_action(alice: AsyncClient, state_of: StateOf) -> None:
    """``Game.clock_only`` actions (the fake's ``timeout``) come only from the clock: 422, nothing changes."""
    r = await alice.post(
        "/api/matches", json={"game": "duel", "vs": "bot", "bot_level": "easy", "options": {}}
    )
    mid = r.json()["id"]
    for _ in range(200):
        st = await state_of(alice, mid)
        if st["legal"]:
            break
        await asyncio.sleep(0.01)
    assert st["legal"], "the bot never let seat 0 move"
    r = await act(alice, mid, st["seq"], {"kind": "timeout"})
    assert r.status_code == 422 and r.json()["code"] == "clock_only"
    after = await state_of(alice, mid)
    assert after["seq"] == st["seq"] and after["view"] == st["view"]
    assert (await act(alice, mid, st["seq"], st["legal"][0])).status_code == 200
