"""Issue 28 §6: a member deletes their account (``DELETE /api/me {password}``). Their matches stay for the
audit log under an anonymous name; the address, the password, the sessions, mailed links and mails are
erased; open invites are withdrawn and active matches resigned; the name may be registered anew."""

from __future__ import annotations

from typing import Any

from httpx import ASGITransport, AsyncClient
from sqlalchemy import func, select

from duelclub.store.models import AccountToken, OutboxItem, User


async def _delete(client: AsyncClient, password: str) -> Any:
    return await client.request("DELETE", "/api/me", json={"password": password})


async def test_deleting_an_account_keeps_its_matches_under_an_anonymous_name(
    database_url: str, app_factory: Any, invite_match: Any
) -> None:
    async with app_factory(database_url) as app:
        clients: list[AsyncClient] = []

        def client_factory() -> AsyncClient:
            clients.append(AsyncClient(transport=ASGITransport(app), base_url="http://testserver"))
            return clients[-1]

        try:
            await _scenario(app, client_factory, invite_match)
        finally:
            for c in clients:
                await c.aclose()


async def _scenario(app: Any, client_factory: Any, invite_match: Any) -> None:
    alice, bob = client_factory(), client_factory()
    for client, name in ((alice, "alice"), (bob, "bob")):
        body = {"username": name, "password": "password123"}
        assert (await client.post("/api/auth/register", json=body)).status_code == 201
    assert (await alice.put("/api/me/email", json={"email": "alice@mail.example"})).status_code == 200
    ended_id = await invite_match(alice, bob)
    body = {"id": "r", "seq": 0, "action": {"kind": "resign"}}
    assert (await bob.post(f"/api/matches/{ended_id}/actions", json=body)).status_code == 200
    match_id = await invite_match(alice, bob)
    r = await alice.post("/api/matches", json={"game": "duel", "vs": "invite", "options": {}})
    assert r.status_code == 201
    invite_id = r.json()["id"]
    other_device = client_factory()
    r = await other_device.post("/api/auth/login", json={"username": "alice", "password": "password123"})
    assert r.status_code == 200

    r = await _delete(alice, "not-the-password")
    assert r.status_code == 403 and r.json()["code"] == "wrong_password"
    assert (await alice.get("/api/me")).status_code == 200  # nothing changed

    assert (await _delete(alice, "password123")).status_code == 204
    for device in (alice, other_device):
        assert (await device.get("/api/me")).status_code == 401
    r = await bob.post("/api/auth/login", json={"username": "alice", "password": "password123"})
    assert r.status_code == 401
    with app.state.db.session() as s:
        user = s.scalars(select(User).where(User.deleted_at.is_not(None))).one()
        name = user.username
        assert name == f"deleted-{user.id}" and user.email is None and user.email_key is None
        for model in (AccountToken, OutboxItem):
            assert s.scalar(select(func.count()).select_from(model).where(model.user_id == user.id)) == 0

    # the match stays, resigned, under the anonymous name; the open invite is withdrawn
    summary = (await bob.get(f"/api/matches/{match_id}")).json()
    assert summary["status"] in ("finished", "aborted")
    log = await bob.get(f"/api/matches/{match_id}")
    assert name in log.text and "alice" not in log.text
    assert (await bob.get(f"/api/matches/{invite_id}")).json()["status"] == "aborted"
    ended = await bob.get(f"/api/matches/{ended_id}")  # ended before: its stored result is renamed too
    assert ended.json()["result"]["names"] == [name, "bob"] and "alice" not in ended.text
    assert (await bob.get("/api/members/alice")).status_code == 404
    assert (await bob.get(f"/api/members/{name}")).status_code == 200

    # the old name is free; the anonymous one is nobody's to take
    newcomer = client_factory()
    body = {"username": "alice", "password": "password123"}
    assert (await newcomer.post("/api/auth/register", json=body)).status_code == 201
    body = {"username": name, "password": "password123"}
    r = await client_factory().post("/api/auth/register", json=body)
    assert r.status_code == 422 and r.json()["code"] == "bad_username"


async def test_deleting_needs_a_login(client_factory: Any) -> None:
    r = await client_factory().request("DELETE", "/api/me", json={"password": "x"})
    assert r.status_code == 401
