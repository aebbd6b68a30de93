"""A JSON route's refusal of a body that is missing or not a JSON object says so (web/errors.py
``body_message``), in the reader's language, with the code unchanged (422 ``malformed``): an empty POST read
only «Field required», which does not say that the whole body is missing. A field's own error keeps its
field name, and says what is wrong in the reader's language too (``field_words``)."""

from __future__ import annotations

import pytest
from test_tournaments_api import UserClient

JSON_TYPE = {"content-type": "application/json"}

CASES = [
    (b"", "Нет тела запроса: нужен объект JSON.", "Немає тіла запиту: потрібен об'єкт JSON."),
    (
        b"{x",
        "Тело запроса — не JSON (ошибка у символа 1).",
        "Тіло запиту — не JSON (помилка біля символу 1).",
    ),
    (b"null", "Тело запроса должно быть объектом JSON.", "Тіло запиту має бути об'єктом JSON."),
    (b"[1, 2]", "Тело запроса должно быть объектом JSON.", "Тіло запиту має бути об'єктом JSON."),
    (
        b'{"game": "duel\\u0000"}',
        "Тело запроса содержит символ NUL: он не принимается.",
        "Тіло запиту містить символ NUL: він не приймається.",
    ),
]


@pytest.mark.parametrize(("body", "ru", "uk"), CASES, ids=["empty", "not_json", "null", "list", "nul"])
async def test_a_missing_or_non_object_body_is_malformed_and_says_why(
    user_client: UserClient, body: bytes, ru: str, uk: str
) -> None:
    ann = await user_client("ann")
    for lang, words in (("ru", ru), ("uk", uk)):
        r = await ann.post("/api/tournaments", content=body, headers={**JSON_TYPE, "Accept-Language": lang})
        assert (r.status_code, r.json()) == (422, {"code": "malformed", "message": words}), (lang, r.text)
    assert (await ann.get("/api/tournaments")).json() == [], "nothing was created"


async def test_an_empty_body_is_named_on_every_json_route(user_client: UserClient) -> None:
    ann = await user_client("ann")
    r = await ann.post("/api/matches", content=b"", headers=JSON_TYPE)
    assert (r.status_code, r.json()["code"]) == (422, "malformed")
    assert r.json()["message"] == "Нет тела запроса: нужен объект JSON."


async def test_a_fields_error_keeps_its_field_name(user_client: UserClient) -> None:
    ann = await user_client("ann")
    r = await ann.post("/api/tournaments", json={"format": "swiss"})
    assert (r.status_code, r.json()) == (422, {"code": "malformed", "message": "game: обязательное поле"})
    r = await ann.post("/api/tournaments", json={"format": "swiss"}, headers={"Accept-Language": "uk"})
    assert r.json()["message"] == "game: обов'язкове поле"


@pytest.mark.parametrize(
    ("body", "ru"),
    [
        ({"username": "x" * 41, "password": "password123"}, "username: не длиннее 40 символов"),
        ({"username": 5, "password": "password123"}, "username: нужна строка"),
    ],
    ids=["too_long", "not_a_string"],
)
async def test_field_errors_are_in_the_readers_language(
    user_client: UserClient, body: dict[str, object], ru: str
) -> None:
    ann = await user_client("ann")
    r = await ann.post("/api/auth/register", json=body)
    assert (r.status_code, r.json()["code"], r.json()["message"]) == (422, "malformed", ru), r.text


async def test_a_stale_seq_that_is_no_number_says_so(user_client: UserClient) -> None:
    ann = await user_client("ann")
    r = await ann.post("/api/matches/nope/actions", json={"id": "a", "seq": "x", "action": {}})
    assert (r.status_code, r.json()["message"]) == (422, "seq: нужно целое число"), r.text
