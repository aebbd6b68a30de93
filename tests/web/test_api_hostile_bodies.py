"""Every JSON route under hostile bodies, queries and path parameters (issue 13 §3, a Hypothesis property):
never a 5xx, and a refused request changes nothing in the database.

The routes are read from the app's OpenAPI document (every ``/api`` route), so a new route is fuzzed too.
Bodies are arbitrary JSON (huge numbers, nesting, unicode, NUL) or a valid body with one field replaced;
path parameters are a real match id or invite token of the test's own matches, or arbitrary text. The
requests come from a member who plays in those matches (and sometimes from an anonymous visitor).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from starlette.testclient import TestClient

from duelclub.store.db import Database
from duelclub.store.models import BotJob, Match, MatchAction, QueueEntry, User, UserSession

PW = "password123"
SKIP = {("POST", "/api/auth/logout"), ("POST", "/api/auth/logout-all")}  # they would end the fuzzer's session
VALID_BODIES: dict[str, dict[str, Any]] = {
    "/api/auth/register": {"username": "fuzzy", "password": "fuzzy-password-1"},
    "/api/auth/login": {"username": "alice", "password": "wrong-password"},
    "/api/auth/password": {"old_password": "wrong-password", "new_password": "new-password-1"},
    "/api/matches": {"game": "duel", "vs": "invite", "options": {}},
    "/api/matches/{match_id}/actions": {"id": "f1", "seq": 0, "action": {"kind": "play", "card": 1}},
    "/api/challenges": {"game": "duel", "options": {}},
    "/api/queue": {"game": "duel", "options": {}},
    "/api/invites/{token}/accept": {"client_seed": "ab"},
}

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.sampled_from(["", "\x00", "a\x00b", "duel", "invite", "bot", "resign", "𝕏" * 5, "٣", "‮", "9" * 40]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
path_text = st.one_of(
    st.text(max_size=20),
    st.text(alphabet=string.ascii_letters + string.digits + "_-", min_size=1, max_size=50),
    st.sampled_from(["\x00", "%00", "..", "0", "-1", "9" * 30, "a/b", " "]),
)


def _routes(app: Any) -> list[tuple[str, str]]:
    """(method, path template) of every ``/api`` route in the app's OpenAPI document."""
    return [
        (method.upper(), path)
        for path, operations in app.openapi()["paths"].items()
        if path.startswith("/api")
        for method in operations
        if (method.upper(), path) not in SKIP
    ]


def fingerprint(db: Database) -> tuple[Any, ...]:
    """Row counts of every table and the matches' statuses: what a refused request must leave alone."""
    with db.session() as s:
        counts = tuple(
            s.scalar(select(func.count()).select_from(model))
            for model in (User, UserSession, Match, MatchAction, QueueEntry, BotJob)
        )
        statuses = tuple(s.execute(select(Match.id, Match.status).order_by(Match.id)).all())
    return counts, statuses


@pytest.fixture
def fuzz_app(
    database_url: str, app_builder: Callable[..., Any]
) -> Iterator[tuple[Any, TestClient, TestClient, dict[str, str]]]:
    app = app_builder(database_url)
    with TestClient(app) as alice, TestClient(app) as bob:
        for c, name in ((alice, "alice"), (bob, "bob")):
            assert c.post("/api/auth/register", json={"username": name, "password": PW}).status_code == 201
        invite = alice.post("/api/matches", json={"game": "duel", "vs": "invite"}).json()
        open_invite = alice.post("/api/matches", json={"game": "duel", "vs": "invite"}).json()
        assert bob.post(f"/api/invites/{invite['invite_token']}/accept", json={}).status_code == 200
        ids = {"match_id": invite["id"], "token": open_invite["invite_token"], "open_id": open_invite["id"]}
        yield app, alice, TestClient(app), ids


def test_every_json_route_refuses_hostile_input_cleanly(fuzz_app: Any) -> None:
    app, member, anonymous, ids = fuzz_app
    routes = _routes(app)
    assert len(routes) >= 25, routes
    db: Database = app.state.db

    @settings(
        max_examples=250,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        database=None,
    )
    @given(
        route=st.sampled_from(routes),
        params=st.dictionaries(st.sampled_from(["match_id", "token"]), path_text),
        real_ids=st.booleans(),
        body=st.one_of(json_values, st.none()),
        replace=st.booleans(),
        query=st.dictionaries(
            st.sampled_from(["since", "game", "status", "user", "limit", "seq"]), path_text
        ),
        as_member=st.booleans(),
    )
    def check(
        route: tuple[str, str],
        params: dict[str, str],
        real_ids: bool,
        body: Any,
        replace: bool,
        query: dict[str, str],
        as_member: bool,
    ) -> None:
        method, path = route
        values = {"match_id": ids["match_id"], "token": ids["token"]} if real_ids else {}
        values = {**values, **{k: v for k, v in params.items() if not real_ids}}
        url = path
        for name in ("match_id", "token"):
            url = url.replace("{" + name + "}", quote(values.get(name, "x"), safe=""))
        payload = body
        if replace and path in VALID_BODIES and isinstance(body, dict) and body:
            payload = {**VALID_BODIES[path], **dict(list(body.items())[:1])}
        client = member if as_member else anonymous
        before = fingerprint(db)
        kwargs: dict[str, Any] = {"params": query}
        if method != "GET":
            kwargs["json"] = payload
        r = client.request(method, url, **kwargs)
        assert r.status_code < 500, (method, url, payload, query, r.status_code, r.text)
        if r.status_code >= 400:
            assert fingerprint(db) == before, (method, url, payload, r.status_code, r.text)

    check()
