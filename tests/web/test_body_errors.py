"""A JSON route's refusal of a body that is missing or not a JSON object says so (web/errors.py
``body_message``), in the reader's language, with the code unchanged (422 ``malformed``): an empty POST read
only «Field required», which does not say that the whole body is missing. A field's own error keeps its
Pydantic words and its field name."""

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
    assert (r.status_code, r.json()) == (422, {"code": "malformed", "message": "game: Field required"})
