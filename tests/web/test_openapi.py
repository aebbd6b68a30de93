"""The OpenAPI document says what the server answers (issue 30 §API conventions; web/openapi.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute
from httpx import ASGITransport, AsyncClient, Response
from jsonschema import Draft202012Validator

ERROR_REF = {"$ref": "#/components/schemas/Error"}


def _operations(app: FastAPI) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (method.upper(), path): operation
        for path, operations in app.openapi()["paths"].items()
        for method, operation in operations.items()
    }


def _operation_for(app: FastAPI, method: str, url: str) -> dict[str, Any]:
    """The document's operation that serves ``method url`` (path templates matched as regexes)."""
    for (m, path), operation in _operations(app).items():
        pattern = "^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$"
        if m == method and re.match(pattern, url):
            return operation
    raise AssertionError(f"{method} {url} is not in the document")


def _declared(app: FastAPI, method: str, url: str, answer: Response) -> None:
    """``answer`` is an error the document declares for that operation, with its ``{code, message}``."""
    operation = _operation_for(app, method, url)
    status = str(answer.status_code)
    assert status in operation["responses"], (operation["operationId"], status)
    schema = operation["responses"][status]["content"]["application/json"]["schema"]
    assert schema == ERROR_REF
    assert set(answer.json()) == {"code", "message"}


def test_operation_ids_are_the_endpoint_names(app: FastAPI) -> None:
    ops = _operations(app)
    ids = [op["operationId"] for op in ops.values()]
    assert len(ids) == len(set(ids)), "operation ids must be unique"
    for op_id in ids:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", op_id) and "_api_" not in op_id, op_id
    assert ops[("POST", "/api/auth/register")]["operationId"] == "register"
    assert ops[("POST", "/api/admin/matches/{match_id}/abort")]["operationId"] == "admin_abort_match"
    names = {r.name for r in app.routes if isinstance(r, APIRoute)} | {
        op_id.removeprefix("admin_") for op_id in ids
    }
    assert {"get_match", "post_action", "create_tournament"} <= names


def test_errors_are_documented_as_code_and_message(app: FastAPI) -> None:
    spec = app.openapi()
    schemas = spec["components"]["schemas"]
    assert "HTTPValidationError" not in schemas and "ValidationError" not in schemas
    assert "HTTPValidationError" not in json.dumps(spec)  # nor a reference to it anywhere
    assert schemas["Error"]["required"] == ["code", "message"]
    for (method, path), op in _operations(app).items():
        if not path.startswith("/api/"):
            continue
        for status, response in op["responses"].items():
            if status[0] in "45":
                assert response["content"]["application/json"]["schema"] == ERROR_REF
        assert "503" in op["responses"], (method, path)
        if "{" in path:
            assert "404" in op["responses"], (method, path)


async def test_what_the_server_answers_is_declared(
    app: FastAPI, alice: AsyncClient, client_factory: Callable[[], AsyncClient]
) -> None:
    anonymous = client_factory()
    checks: list[tuple[str, str, Response]] = [
        ("POST", "/api/auth/register", await anonymous.post("/api/auth/register", json={"username": 5})),
        ("GET", "/api/me", await anonymous.get("/api/me")),
        ("GET", "/api/matches/no-such-match", await alice.get("/api/matches/no-such-match")),
        ("GET", "/api/admin/matches", await alice.get("/api/admin/matches")),
        ("POST", "/api/matches", await alice.post("/api/matches", content=b"{}")),  # not JSON: csrf
        ("GET", "/api/tournaments/999999", await alice.get("/api/tournaments/999999")),
    ]
    assert [answer.status_code for _, _, answer in checks] == [422, 401, 404, 403, 403, 404]
    for method, url, answer in checks:
        _declared(app, method, url, answer)


# -- The document against real answers (issue 30 §7): every answer provoked below has its status declared
#    for its operation, and its JSON validates (jsonschema) against the schema declared for that status,
#    references resolved in the document's components.


def _validates(app: FastAPI, method: str, url: str, answer: Response) -> str:
    """Check ``answer`` against the document of ``app``; its status."""
    spec = app.openapi()
    operation = _operation_for(app, method, url)
    status = str(answer.status_code)
    assert status in operation["responses"], (operation["operationId"], status, answer.text)
    content = operation["responses"][status].get("content", {}).get("application/json")
    assert content is not None, (operation["operationId"], status)
    root = {**content["schema"], "components": spec["components"]}
    errors = [e.message for e in Draft202012Validator(root).iter_errors(answer.json())]
    assert not errors, (operation["operationId"], status, errors)
    return status


async def test_every_answer_is_declared_and_validates_against_its_schema(
    app: FastAPI,
    alice: AsyncClient,
    bob: AsyncClient,
    client_factory: Callable[[], AsyncClient],
    invite_match: Callable[..., Any],
) -> None:
    anonymous = client_factory()
    created = await alice.post("/api/matches", json={"game": "duel", "vs": "invite"})
    opened, token = created.json()["id"], created.json()["invite_token"]
    started = await invite_match(alice, bob)
    too_big = {"username": "alice", "password": "x" * (app.state.settings.MAX_BODY_BYTES + 1)}
    reset, confirm = {"token": "no-such-token", "password": "password123"}, "/api/auth/password-reset/confirm"
    act, stale = f"/api/matches/{started}/actions", {"id": "a1", "seq": 999, "action": {}}
    json_type = {"Content-Type": "application/json"}  # a state-changing call is JSON (web/security.py)
    cancelled = await alice.delete(f"/api/matches/{opened}", headers=json_type)
    checks: list[tuple[str, str, Response]] = [
        ("GET", "/api/games", await anonymous.get("/api/games")),
        ("GET", "/api/me", await alice.get("/api/me")),
        ("POST", "/api/matches", created),
        ("GET", f"/api/matches/{started}", await bob.get(f"/api/matches/{started}")),
        ("GET", f"/api/matches/{started}/state", await bob.get(f"/api/matches/{started}/state")),
        ("DELETE", f"/api/matches/{opened}", cancelled),
        ("POST", confirm, await anonymous.post(confirm, json=reset)),
        ("GET", "/api/me", await anonymous.get("/api/me")),
        ("GET", "/api/admin/matches", await alice.get("/api/admin/matches")),
        ("GET", "/api/matches/no-such-match", await alice.get("/api/matches/no-such-match")),
        ("POST", f"/api/invites/{token}/accept", await bob.post(f"/api/invites/{token}/accept", json={})),
        ("POST", act, await alice.post(act, json=stale)),
        ("DELETE", f"/api/matches/{opened}", await alice.delete(f"/api/matches/{opened}", headers=json_type)),
        ("POST", "/api/auth/login", await anonymous.post("/api/auth/login", json=too_big)),
        ("POST", "/api/auth/register", await anonymous.post("/api/auth/register", json={"username": 5})),
    ]
    statuses = [_validates(app, method, url, answer) for method, url, answer in checks]
    expected = ["200", "200", "201", "200", "200", "200", "400", "401", "403", "404", "409", "409", "409"]
    assert statuses == [*expected, "413", "422"]


async def test_a_rate_limited_answer_is_declared(sqlite_url: str, app_factory: Callable[..., Any]) -> None:
    async with app_factory(sqlite_url, LOGIN_FAILURES_PER_USERNAME_IP="1 per 15 minutes") as app:
        async with AsyncClient(transport=ASGITransport(app), base_url="http://testserver") as c:
            wrong = {"username": "alice", "password": "wrong-password"}
            assert (await c.post("/api/auth/login", json=wrong)).status_code == 401
            answer = await c.post("/api/auth/login", json=wrong)
        assert _validates(app, "POST", "/api/auth/login", answer) == "429"
        assert "Retry-After" in _operation_for(app, "POST", "/api/auth/login")["responses"]["429"]["headers"]


def test_each_route_that_answers_a_conflict_or_a_limit_declares_it(app: FastAPI) -> None:
    """A few routes whose own state answers 409 or 429 (the route's docstring names the codes): declared."""
    ops = {op["operationId"]: op for op in _operations(app).values()}
    for op_id in ("post_action", "accept_invite", "claim_win", "join_tournament", "write_chat", "register"):
        assert "409" in ops[op_id]["responses"], op_id
    for op_id in ("login", "register", "change_password", "password_reset", "write_chat", "delete_account"):
        assert "429" in ops[op_id]["responses"], op_id
    assert "409" not in ops["get_match"]["responses"] and "429" not in ops["get_match"]["responses"]
