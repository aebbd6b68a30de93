"""The OpenAPI document as the server really answers (issue 30 §API conventions).

FastAPI describes a validation failure as its own 422 ``{detail: [...]}`` and knows nothing of the errors a
route raises through its dependencies. The server answers every error as ``{code, message}``
(web/errors.py), so :func:`install_openapi` rewrites the generated document once, when it is first asked for:

- operation ids are the endpoint function's name (``register``, ``get_match``), with ``admin_`` in front
  under ``/api/admin/`` where the name does not already say it (``admin_abort_match``);
- the ``Error`` schema replaces FastAPI's ``HTTPValidationError``; every error response of an ``/api``
  operation refers to it;
- each ``/api`` operation declares the errors its shape implies: 422 ``malformed`` where it takes a body,
  path or query parameters; 401 ``not_authenticated`` where it needs a member (``current_user``); 403
  where it needs an admin, a CSRF check (a state-changing method) or names something of a member's; 404
  ``not_found`` where its path names something; 413 ``too_large`` where it takes a body
  (web/middleware.py); 503 ``store_unavailable`` (with ``Retry-After``) everywhere, for a database outage
  (web/outage.py).

Errors a route answers for its own state — 400 ``bad_token``, 409 (``stale_seq``, ``invite_taken``, …), 429
``rate_limited`` — are declared on the route itself, ``responses=errors(409)`` (:func:`errors`), and get the
``Error`` schema here too. tests/web/test_openapi.py provokes answers and checks each is declared and
validates against its schema.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute

from duelclub.web.deps import admin_user, current_user
from duelclub.web.security import UNSAFE_METHODS, csrf_guard

ERROR_REF = {"$ref": "#/components/schemas/Error"}
ERROR_SCHEMA: dict[str, Any] = {
    "title": "Error",
    "type": "object",
    "properties": {
        "code": {"type": "string", "title": "Code", "description": "a stable machine code"},
        "message": {"type": "string", "title": "Message", "description": "in the reader's language"},
    },
    "required": ["code", "message"],
}
DESCRIPTIONS = {
    "400": "bad_token: the link's token is not valid (expired or used)",
    "401": "not_authenticated: no live session",
    "403": "forbidden: not allowed for this member (an admin only, a missing CSRF token, someone else's)",
    "404": "not_found: no such thing",
    "409": "a conflict with the state of what the request names (the code says which: stale_seq, …)",
    "413": "too_large: the request body is over MAX_BODY_BYTES",
    "422": "malformed: a body, path or query parameter is not valid",
    "429": "rate_limited: too many attempts; retry after Retry-After seconds",
    "503": "store_unavailable: the database cannot be reached; retry after Retry-After seconds",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """A route's ``responses=`` for the errors it answers from its own state, which its shape does not tell:
    400 (a bad link token), 409 (a conflict with the state of what it names), 429 (a rate limit). The
    document gives them the ``Error`` schema (:func:`build_openapi`); tests/web/test_openapi.py provokes
    each and checks it is declared."""
    return {status: {"description": DESCRIPTIONS[str(status)]} for status in statuses}


def operation_id(route: APIRoute) -> str:
    """The endpoint function's name, ``admin_``-prefixed under ``/api/admin/`` (unique; a test checks)."""
    if route.path.startswith("/api/admin/") and not route.name.startswith("admin_"):
        return f"admin_{route.name}"
    return route.name


def _calls(dependant: Dependant) -> Iterator[Callable[..., Any]]:
    for dep in dependant.dependencies:
        if dep.call is not None:
            yield dep.call
        yield from _calls(dep)


def _errors_of(route: APIRoute, method: str) -> set[str]:
    calls = set(_calls(route.dependant))
    member = current_user in calls or admin_user in calls
    found = {"503"}
    if member:
        found.add("401")
    if admin_user in calls or (csrf_guard in calls and method in UNSAFE_METHODS):
        found.add("403")
    if member and route.dependant.path_params:
        found.add("403")  # the thing named may be someone else's (a match, a seat, a tournament)
    if route.dependant.path_params:
        found.add("404")
    if route.dependant.path_params or route.dependant.query_params or route.dependant.body_params:
        found.add("422")
    if route.dependant.body_params:
        found.add("413")  # web/middleware.py: BodyLimit
    return found


def _error_response(status: str) -> dict[str, Any]:
    response: dict[str, Any] = {
        "description": DESCRIPTIONS.get(status, "error"),
        "content": {"application/json": {"schema": ERROR_REF}},
    }
    if status in ("429", "503"):
        response["headers"] = {"Retry-After": {"schema": {"type": "integer"}, "description": "seconds"}}
    return response


def build_openapi(app: FastAPI, routers: Sequence[APIRouter]) -> dict[str, Any]:
    """The document of ``app`` with the errors above (see the module docstring), the errors read from
    the routes of ``routers`` (the ones ``app`` includes, unprefixed)."""
    spec = get_openapi(title=app.title, version=app.version, routes=app.routes, description=app.description)
    schemas = spec.setdefault("components", {}).setdefault("schemas", {})
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    schemas["Error"] = ERROR_SCHEMA
    for route in (r for router in routers for r in router.routes):
        if not isinstance(route, APIRoute) or not route.include_in_schema:
            continue
        if not route.path.startswith("/api/"):
            continue
        for method in route.methods or ():
            operation = spec["paths"][route.path_format][method.lower()]
            responses = operation.setdefault("responses", {})
            for status in _errors_of(route, method):
                responses[status] = _error_response(status)
            for status, response in responses.items():
                if status.startswith(("4", "5")) and "content" not in response:
                    response.update({**_error_response(status), **response})  # the route's description
    return spec


def install_openapi(app: FastAPI, routers: Sequence[APIRouter]) -> None:
    """Serve :func:`build_openapi`'s document at ``/openapi.json`` (built once, on first request)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = build_openapi(app, routers)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to customise it
