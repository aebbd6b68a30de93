"""Accounts and sessions: register, login, logout, me; CSRF and error shapes (DESIGN.md §Public JSON API)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from httpx import AsyncClient

PW = "password123"


async def test_register_sets_an_httponly_lax_session_cookie(
    client_factory: Callable[[], AsyncClient],
) -> None:
    c = client_factory()
    r = await c.post("/api/auth/register", json={"username": "alice", "password": PW})
    assert r.status_code == 201
    assert r.json() == {"id": 1, "username": "alice", "is_admin": False}
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("duelclub_session=")
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
    me = await c.get("/api/me")
    assert me.json()["username"] == "alice"


async def test_duplicate_username_is_taken_case_insensitively(
    client_factory: Callable[[], AsyncClient],
) -> None:
    c = client_factory()
    assert (await c.post("/api/auth/register", json={"username": "Alice", "password": PW})).status_code == 201
    r = await client_factory().post("/api/auth/register", json={"username": "aLICE", "password": PW})
    assert r.status_code == 409
    assert r.json()["code"] == "username_taken"


async def test_cyrillic_usernames_are_allowed_and_unique_case_insensitively(
    client_factory: Callable[[], AsyncClient],
) -> None:
    r = await client_factory().post("/api/auth/register", json={"username": "Олеся_1", "password": PW})
    assert r.status_code == 201
    r = await client_factory().post("/api/auth/register", json={"username": "олеся_1", "password": PW})
    assert r.json()["code"] == "username_taken"


@pytest.mark.parametrize(
    "username",
    ["ab", "a" * 21, "bad name", "bad!name", "tab\tname", "name\n", "", "аdmin", "Олег_Smith", "раssword"],
)
async def test_bad_usernames_are_refused_with_a_message(
    client_factory: Callable[[], AsyncClient], username: str
) -> None:
    r = await client_factory().post("/api/auth/register", json={"username": username, "password": PW})
    assert r.status_code == 422
    assert r.json()["code"] == "bad_username"
    assert r.json()["message"]


@pytest.mark.parametrize(
    "password",
    [
        "short",
        "1234567",
        "p" * 129,
        " " * 8,
        "\t" * 8,
        " \u3000 \u00a0    ",
        "pass\x00word",
        "password\n1",
        "pa\x7fssword",
    ],
)
async def test_bad_passwords_are_refused_with_a_message(
    client_factory: Callable[[], AsyncClient], password: str
) -> None:
    r = await client_factory().post("/api/auth/register", json={"username": "goodname", "password": password})
    assert r.status_code == 422
    # NUL never gets past the JSON parser (web/strictjson.py, issue 13 §1.3): 422 malformed
    assert r.json()["code"] == ("malformed" if "\x00" in password else "bad_password")
    assert r.json()["message"]


async def test_a_password_holding_the_username_is_refused(client_factory: Callable[[], AsyncClient]) -> None:
    body = {"username": "Goodname", "password": "my-goodname-1"}
    r = await client_factory().post("/api/auth/register", json=body)
    assert r.status_code == 422 and r.json()["code"] == "bad_password"


@pytest.mark.parametrize("password", ["p" * 8, "p" * 128, "  spaced  out  ", "пароль-очень-длинный"])
async def test_good_passwords_are_accepted(client_factory: Callable[[], AsyncClient], password: str) -> None:
    r = await client_factory().post("/api/auth/register", json={"username": "goodname", "password": password})
    assert r.status_code == 201, r.text


@pytest.mark.parametrize(
    "body", [{"username": "goodname"}, {"password": PW}, {"username": 5, "password": PW}]
)
async def test_a_registration_missing_a_field_is_malformed(
    client_factory: Callable[[], AsyncClient], body: dict[str, object]
) -> None:
    r = await client_factory().post("/api/auth/register", json=body)
    assert r.status_code == 422
    assert r.json()["code"] == "malformed"


async def test_login_and_logout(client_factory: Callable[[], AsyncClient]) -> None:
    await client_factory().post("/api/auth/register", json={"username": "alice", "password": PW})
    c = client_factory()
    assert (await c.get("/api/me")).json() == {"code": "not_authenticated", "message": "log in first"}
    r = await c.post("/api/auth/login", json={"username": "ALICE", "password": PW})
    assert r.status_code == 200 and r.json()["username"] == "alice"
    assert (await c.get("/api/me")).status_code == 200
    assert (await c.post("/api/auth/logout", json={})).status_code == 204
    assert (await c.get("/api/me")).status_code == 401


@pytest.mark.parametrize("username,password", [("alice", "wrong-password"), ("nobody", PW)])
async def test_bad_credentials(
    client_factory: Callable[[], AsyncClient], username: str, password: str
) -> None:
    await client_factory().post("/api/auth/register", json={"username": "alice", "password": PW})
    r = await client_factory().post("/api/auth/login", json={"username": username, "password": password})
    assert r.status_code == 401
    assert r.json()["code"] == "bad_credentials"


async def test_a_tampered_cookie_is_not_a_session(client_factory: Callable[[], AsyncClient]) -> None:
    c = client_factory()
    c.cookies.set("duelclub_session", "eyJ1aWQiOiAxfQ==.forged.signature")
    assert (await c.get("/api/me")).status_code == 401


async def test_csrf_requires_json(client_factory: Callable[[], AsyncClient]) -> None:
    c = client_factory()
    r = await c.post("/api/auth/register", data={"username": "alice", "password": PW})
    assert r.status_code == 403
    assert r.json()["code"] == "csrf"


async def test_csrf_refuses_a_foreign_origin(client_factory: Callable[[], AsyncClient]) -> None:
    c = client_factory()
    body = {"username": "alice", "password": PW}
    r = await c.post("/api/auth/register", json=body, headers={"Origin": "https://evil.example"})
    assert r.status_code == 403 and r.json()["code"] == "csrf"
    r = await c.post("/api/auth/register", json=body, headers={"Origin": "http://testserver"})
    assert r.status_code == 201


async def test_invalid_json_is_malformed(client_factory: Callable[[], AsyncClient]) -> None:
    r = await client_factory().post(
        "/api/auth/login", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 422
    assert r.json()["code"] == "malformed"


async def test_unknown_api_path_is_a_json_404(client_factory: Callable[[], AsyncClient]) -> None:
    r = await client_factory().get("/api/nothing-here")
    assert r.status_code == 404
    assert r.json()["code"] == "not_found"


async def test_a_name_mixing_latin_and_cyrillic_is_bad_username(
    client_factory: Callable[[], AsyncClient],
) -> None:
    await client_factory().post("/api/auth/register", json={"username": "admin", "password": PW})
    r = await client_factory().post("/api/auth/register", json={"username": "аdmin", "password": PW})
    assert r.status_code == 422 and r.json()["code"] == "bad_username"
    assert "кирилл" in r.json()["message"]


@pytest.mark.parametrize("first,second", [("coe", "сое"), ("РОР", "pop"), ("Васо", "BACO"), ("tex", "ТЕХ")])
async def test_a_look_alike_of_an_existing_name_is_taken(
    client_factory: Callable[[], AsyncClient], first: str, second: str
) -> None:
    r = await client_factory().post("/api/auth/register", json={"username": first, "password": PW})
    assert r.status_code == 201
    r = await client_factory().post("/api/auth/register", json={"username": second, "password": PW})
    assert r.status_code == 409 and r.json()["code"] == "username_taken"
