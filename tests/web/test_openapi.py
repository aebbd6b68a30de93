"""The OpenAPI document says what the server answers (issue 30 §API conventions; web/openapi.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute
from httpx import AsyncClient, Response

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
