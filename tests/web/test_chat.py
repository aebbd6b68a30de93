"""The match chat (issue 16 §5, §7) on a real server: players and spectators kept apart until the match ends,
≤ 200 characters, a per-member rate limit, no chat with a bot, and a reported message hidden by an admin
(pushed to every open page) whose author is then muted; the rate limit shared by two workers through Redis."""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any

import pytest
from httpx import ASGITransport, AsyncClient
from websockets.asyncio.client import ClientConnection, connect

from duelclub.store import users
from duelclub.web.socket_messages import MATCH_SERVER_MESSAGE

PW = "password123"


def promote(app: Any, username: str) -> None:
    """Make ``username`` an admin in the store (what ``duelclub create-admin`` does)."""
    with app.state.db.session() as s:
        user = users.find_user(s, username)
        assert user is not None
        user.is_admin = True


async def member(base: str, name: str) -> AsyncClient:
    c = AsyncClient(base_url=base)
    assert (await c.post("/api/auth/register", json={"username": name, "password": PW})).status_code == 201
    return c


def cookie(c: AsyncClient) -> dict[str, str]:
    return {"Cookie": f"duelclub_session={c.cookies['duelclub_session']}"}


async def next_chat(ws: ClientConnection, timeout: float = 5.0) -> dict[str, Any]:
    """The next chat push (``chat`` or ``chat_hidden``); other messages are skipped."""
    async with asyncio.timeout(timeout):
        while True:
            msg = json.loads(await ws.recv())
            MATCH_SERVER_MESSAGE.validate_python(msg)  # typed (web/socket_messages.py)
            if msg["type"] in ("chat", "chat_hidden"):
                return dict(msg)


async def say(c: AsyncClient, mid: str, text: str) -> Any:
    return await c.post(f"/api/matches/{mid}/chat", json={"text": text})


async def duel(alice: AsyncClient, bob: AsyncClient) -> str:
    made = (await alice.post("/api/matches", json={"game": "duel", "vs": "invite"})).json()
    assert (await bob.post(f"/api/invites/{made['invite_token']}/accept", json={})).status_code == 200
    return str(made["id"])


async def test_players_and_spectators_chat_apart_until_the_end(served: Any) -> None:
    alice, bob, carol = [await member(served.http, n) for n in ("alice", "bob", "carol")]
    try:
        mid = await duel(alice, bob)
        url = f"{served.ws}/ws/matches/{mid}"
        async with (
            connect(url, additional_headers=cookie(alice)) as wa,
            connect(url, additional_headers=cookie(carol)) as wc,
        ):
            assert (await say(alice, mid, "Удачи!")).status_code == 201
            for ws in (wa, wc):  # a player's message reaches the players and the gallery
                got = await next_chat(ws)
                assert got["message"]["text"] == "Удачи!" and got["message"]["channel"] == "players"
            sent = await say(carol, mid, "bob, ходи Пушкарём!")
            assert sent.status_code == 201 and sent.json()["channel"] == "spectators"
            assert (await next_chat(wc))["message"]["text"] == "bob, ходи Пушкарём!"
            await say(alice, mid, "Хорошая игра")
            # alice's socket skips the spectators' hint: her next chat push is her own second message
            assert (await next_chat(wa))["message"]["text"] == "Хорошая игра"

            mine = (await alice.get(f"/api/matches/{mid}/chat")).json()
            assert mine["channel"] == "players" and [m["text"] for m in mine["messages"]] == [
                "Удачи!",
                "Хорошая игра",
            ]
            theirs = (await carol.get(f"/api/matches/{mid}/chat")).json()
            assert theirs["channel"] == "spectators" and len(theirs["messages"]) == 3

            await bob.post(
                f"/api/matches/{mid}/actions", json={"id": "r", "seq": 0, "action": {"kind": "resign"}}
            )
            after = (await alice.get(f"/api/matches/{mid}/chat")).json()
            assert "bob, ходи Пушкарём!" in [m["text"] for m in after["messages"]]  # open once it ended
    finally:
        for c in (alice, bob, carol):
            await c.aclose()


async def test_a_blocked_spectators_messages_reach_the_blocker_neither_live_nor_in_the_history(
    served: Any,
) -> None:
    """Two spectators of a third party's match, one blocked by the other (issue 28 §5: the blocked member
    cannot chat with them): nobody seated is kept apart, so the blocked one may write, but what they write
    reaches the blocker neither on the socket nor in the history; others read it."""
    names = ("alice", "bob", "carol", "dave", "erin")
    alice, bob, carol, dave, erin = [await member(served.http, n) for n in names]
    try:
        mid = await duel(alice, bob)
        assert (await carol.post("/api/members/dave/block", json={})).status_code == 200
        url = f"{served.ws}/ws/matches/{mid}"
        async with (
            connect(url, additional_headers=cookie(carol)) as wc,
            connect(url, additional_headers=cookie(erin)) as we,
        ):
            assert (await say(dave, mid, "от dave")).status_code == 201
            assert (await say(erin, mid, "от erin")).status_code == 201
            assert (await next_chat(we))["message"]["text"] == "от dave"
            assert (await next_chat(we))["message"]["text"] == "от erin"
            assert (await next_chat(wc))["message"]["text"] == "от erin", "dave's message is not pushed"
        seen = [m["text"] for m in (await carol.get(f"/api/matches/{mid}/chat")).json()["messages"]]
        assert seen == ["от erin"]
        seen = [m["text"] for m in (await erin.get(f"/api/matches/{mid}/chat")).json()["messages"]]
        assert seen == ["от dave", "от erin"]
    finally:
        for c in (alice, bob, carol, dave, erin):
            await c.aclose()


async def test_messages_are_short_and_rate_limited_and_bots_have_no_chat(served: Any) -> None:
    alice, bob = [await member(served.http, n) for n in ("alice", "bob")]
    try:
        mid = await duel(alice, bob)
        assert (await say(alice, mid, "x" * 201)).json()["code"] == "bad_message"
        assert (await say(alice, mid, "   ")).status_code == 422
        codes = [(await say(alice, mid, f"m{i}")).status_code for i in range(6)]
        assert codes == [201] * 5 + [429]
        assert (await say(bob, mid, "мне можно")).status_code == 201  # the limit is per member

        vs_bot = (
            await alice.post("/api/matches", json={"game": "duel", "vs": "bot", "bot_level": "easy"})
        ).json()
        assert (await say(alice, vs_bot["id"], "привет")).json()["code"] == "no_chat"
        assert (await alice.get(f"/api/matches/{vs_bot['id']}/chat")).json()["enabled"] is False
    finally:
        await alice.aclose()
        await bob.aclose()


async def test_a_reported_message_is_hidden_by_an_admin_and_its_author_muted(served: Any) -> None:
    # "root" is a reserved name now (issue 13): the admin is "chief"
    alice, bob, root = [await member(served.http, n) for n in ("alice", "bob", "chief")]
    promote(served.app, "chief")
    try:
        mid = await duel(alice, bob)
        rude = (await say(alice, mid, "грубость")).json()
        assert (await alice.post(f"/api/chat/{rude['id']}/report", json={})).json()["code"] == "own_message"
        assert (await bob.post(f"/api/chat/{rude['id']}/report", json={})).json() == {"reported": True}
        assert (await bob.post(f"/api/chat/{rude['id']}/report", json={})).json() == {"reported": False}
        assert (await bob.get("/api/admin/chat/reports")).status_code == 403

        queue = (await root.get("/api/admin/chat/reports")).json()
        assert [(r["message"]["text"], r["reporter"], r["match_id"]) for r in queue] == [
            ("грубость", "bob", mid)
        ]
        async with connect(f"{served.ws}/ws/matches/{mid}", additional_headers=cookie(bob)) as wb:
            settled = await root.post(
                f"/api/admin/chat/{rude['id']}/settle", json={"hide": True, "mute_minutes": 60}
            )
            assert settled.status_code == 200
            assert await next_chat(wb) == {"type": "chat_hidden", "id": rude["id"]}
        assert (await bob.get(f"/api/matches/{mid}/chat")).json()["messages"] == []
        log = (await root.get(f"/api/admin/matches/{mid}/chat")).json()
        assert [(m["text"], m["hidden"]) for m in log] == [("грубость", True)]  # kept in the admin log
        assert (await root.get("/api/admin/chat/reports")).json() == []
        muted = await say(alice, mid, "ещё")
        assert muted.status_code == 403 and muted.json()["code"] == "muted"
    finally:
        for c in (alice, bob, root):
            await c.aclose()


def user_ids_from(app: Any, first: int) -> None:
    """Make ``first`` the next user id of the app's (SQLite) database, which hands out the largest id + 1:
    the chat counters in Redis are per member id and outlive a test run."""
    with app.state.db.session() as s:
        placeholder = users.create_user(s, f"z{secrets.token_hex(6)}", PW)
        placeholder.id = first - 1


@pytest.mark.redis
async def test_the_rate_limit_holds_across_two_workers_sharing_redis(
    sqlite_url: str, app_factory: Any, redis_url: str
) -> None:
    """Issue 31 §3: with the count per worker, alternating two workers let 10 messages through in 0.1 s.
    Counted in Redis, the 6th message in 10 s is refused on either worker."""
    async with (
        app_factory(sqlite_url, redis_url) as w1,
        app_factory(sqlite_url, redis_url) as w2,
        AsyncClient(transport=ASGITransport(w1), base_url="http://testserver") as alice,
        AsyncClient(transport=ASGITransport(w1), base_url="http://testserver") as bob,
    ):
        user_ids_from(w1, 10**6 + secrets.randbelow(10**9))
        for c, name in ((alice, "alice"), (bob, "bob")):
            assert (
                await c.post("/api/auth/register", json={"username": name, "password": PW})
            ).status_code == 201
        mid = await duel(alice, bob)
        async with AsyncClient(
            transport=ASGITransport(w2), base_url="http://testserver", cookies=alice.cookies
        ) as alice_on_w2:
            codes = [(await say((alice, alice_on_w2)[i % 2], mid, f"m{i}")).status_code for i in range(5)]
            assert codes == [201] * 5
            for c in (alice, alice_on_w2):  # the 6th, on either worker
                refused = await say(c, mid, "ещё")
                assert refused.status_code == 429 and refused.json()["code"] == "chat_rate_limited"
            assert (await say(bob, mid, "мне можно")).status_code == 201  # still per member
        messages = (await bob.get(f"/api/matches/{mid}/chat")).json()["messages"]
        assert [m["text"] for m in messages] == [f"m{i}" for i in range(5)] + ["мне можно"]
