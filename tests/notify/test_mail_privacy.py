"""Issue 28 §1: a member's address is never shown to other members — not in profiles, match views, logs,
challenges, leaderboards, tournaments, nor on the admin pages other than «Почта» (admins only)."""

from __future__ import annotations

from typing import Any

from httpx import AsyncClient
from sqlalchemy import update

from duelclub.store.models import User

ADDRESS = "alice.private@mail.example"


async def test_the_address_is_in_no_other_members_view(
    app: Any, alice: AsyncClient, bob: AsyncClient, admin: AsyncClient, invite_match: Any
) -> None:
    r = await alice.put("/api/me/email", json={"email": ADDRESS})
    assert r.status_code == 200
    with app.state.db.session() as s:  # as if confirmed
        s.execute(update(User).where(User.username == "alice").values(email=ADDRESS, email_key=ADDRESS))
    match_id = await invite_match(alice, bob)
    assert (
        await alice.post(
            f"/api/matches/{match_id}/actions", json={"id": "r1", "seq": 0, "action": {"kind": "resign"}}
        )
    ).status_code in (200, 409, 422)
    paths = [
        "/api/members/alice",
        "/api/members/alice/matches",
        "/api/members/alice/matches/export",
        "/members/alice",
        f"/api/matches/{match_id}",
        f"/api/matches/{match_id}/state",
        f"/api/matches/{match_id}/log",
        f"/api/matches/{match_id}/presence",
        f"/matches/{match_id}",
        "/api/matches/live",
        "/api/challenges",
        "/api/leaderboard/duel",
        "/leaderboard",
        "/api/tournaments",
        "/tournaments",
        "/",
    ]
    admin_paths = ["/admin", "/api/admin/matches", f"/api/admin/matches/{match_id}/log", "/admin/status"]
    seen = 0
    for client, where in ((bob, paths), (admin, paths + admin_paths)):
        for path in where:
            r = await client.get(path)
            seen += r.status_code == 200
            assert ADDRESS not in r.text and "private@" not in r.text, path
    assert seen >= 20  # the routes answered, so the check means something
    page = await admin.get("/admin/mail")  # the one place: the admins' mail log
    assert ADDRESS in page.text
    assert (await bob.get("/admin/mail")).status_code == 403
    assert ADDRESS not in (await bob.get("/api/me/email")).text
