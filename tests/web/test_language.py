"""The UI language over HTTP (web/language.py): the header switcher, the cookie, Accept-Language,
``<html lang>`` and the JS catalog in the page; the games' lobby texts in Ukrainian."""

from __future__ import annotations

import html as html_lib
import json
import re
from collections.abc import Callable

from httpx import AsyncClient

from duelclub import i18n
from duelclub.games.registry import all_games
from duelclub.words import all_words


def _js_catalog(html: str) -> dict[str, object]:
    m = re.search(r'<template id="i18n-messages">(.*?)</template>', html, re.S)
    assert m, "no JS catalog in the page"
    data = json.loads(html_lib.unescape(m.group(1)))
    assert isinstance(data, dict)
    return data


async def test_a_page_is_russian_without_a_cookie(client_factory: Callable[[], AsyncClient]) -> None:
    r = await client_factory().get("/login")
    assert '<html lang="ru">' in r.text
    assert "Имя пользователя" in r.text and "Ім’я користувача" not in r.text
    assert _js_catalog(r.text) == {}
    assert 'id="lang-ru"' in r.text and 'id="lang-uk"' in r.text


async def test_a_page_is_ukrainian_with_the_cookie(client_factory: Callable[[], AsyncClient]) -> None:
    client = client_factory()
    client.cookies.set("lang", "uk")
    r = await client.get("/login")
    assert '<html lang="uk">' in r.text
    assert "Ім’я користувача" in r.text and "Имя пользователя" not in r.text
    assert _js_catalog(r.text)["Ваш ход"] == "Ваш хід"


async def test_accept_language_uk_without_a_cookie_is_ukrainian(
    client_factory: Callable[[], AsyncClient],
) -> None:
    r = await client_factory().get("/register", headers={"Accept-Language": "uk-UA,uk;q=0.9"})
    assert '<html lang="uk">' in r.text and "Зареєструватися" in r.text


async def test_the_cookie_beats_accept_language(client_factory: Callable[[], AsyncClient]) -> None:
    client = client_factory()
    client.cookies.set("lang", "ru")
    r = await client.get("/register", headers={"Accept-Language": "uk"})
    assert '<html lang="ru">' in r.text and "Зарегистрироваться" in r.text


async def test_the_switcher_sets_the_cookie_and_goes_back(alice: AsyncClient) -> None:
    r = await alice.get("/lang/uk", headers={"Referer": "http://testserver/account"})
    assert r.status_code == 303 and r.headers["location"] == "/account"
    assert "lang=uk" in r.headers["set-cookie"] and "Max-Age" in r.headers["set-cookie"]
    page = await alice.get("/account")
    assert '<html lang="uk">' in page.text and "Змінити пароль" in page.text
    assert 'id="lang-uk"' in page.text and 'aria-current="true"' in page.text
    back = await alice.get("/lang/ru", params={"next": "/account"})
    assert "lang=ru" in back.headers["set-cookie"]
    assert "Сменить пароль" in (await alice.get("/account")).text


async def test_the_switcher_ignores_unknown_languages_and_foreign_targets(
    client_factory: Callable[[], AsyncClient],
) -> None:
    r = await client_factory().get("/lang/de", params={"next": "//evil.example"})
    assert r.status_code == 303 and r.headers["location"] == "/"
    assert "set-cookie" not in r.headers
    r = await client_factory().get("/lang/uk", headers={"Referer": "http://evil.example/x"})
    assert r.headers["location"] == "/"


async def test_api_messages_follow_the_language(client_factory: Callable[[], AsyncClient]) -> None:
    client = client_factory()
    client.cookies.set("lang", "uk")
    r = await client.post("/api/auth/register", json={"username": "ab", "password": "password123"})
    assert r.status_code == 422
    assert "Ім’я" in r.json()["message"]


def test_game_lobby_texts_in_ukrainian() -> None:
    games = all_games()
    with i18n.use_lang("uk"):
        mezha, warchest, warchest_words = all_words()["mezha"], games["warchest"], all_words()["warchest"]
        gorn = games["mezha"].parse_options({"house": "gorn"})
        assert i18n.gettext(mezha.tagline).startswith("карткова дуель")
        assert mezha.options_form()[0]["label"] == "Ваш дім"
        # the houses are proper names, as the (Russian) seed gives them, in both languages
        assert mezha.options_text(gorn, 1) == "Ваш дім: Дом Ольхи"
        side = warchest_words.options_text(warchest.parse_options({"side": "wolf"}), None)
        assert side.endswith("гравець 1 — Волк"), side  # a side is a proper name, as the seed gives it
        for words in all_words().values():
            for field in words.options_form():
                assert re.search("[ыэъё]", field["label"]) is None, (words.slug, field["label"])
    assert mezha.options_text(gorn, 1) == "Ваш дом: Дом Ольхи"


def test_game_titles_and_sides_are_proper_names_in_both_languages() -> None:
    """«Межа», «Дві вежі», «Сундук войны», «Артания и Куявия» and the seeds' house/side names read the same in
    Ukrainian (the Ukrainian seed's names are Ukrainian in Russian too)."""
    with i18n.use_lang("uk"):
        for words in all_words().values():
            assert words.game_title() == words.title
            assert i18n.catalog("uk").get(words.title) is not None, words.title  # marked for the catalog
        for name in ("Дом Ольхи", "Дом Горна"):
            assert i18n.gettext(name) == name
        assert i18n.gettext("Волк") == "Волк" and i18n.gettext("Ворон") == "Ворон"
    titles = {words.title for words in all_words().values()}
    assert titles == {"Межа", "Дві вежі", "Сундук войны", "Артания и Куявия"}


async def test_the_api_s_worded_lists_follow_the_language(alice: AsyncClient) -> None:
    """Issue 30 QA: words made in the service's worker threads (``play/threads.py``) — the options of
    «Мои партии» — were always Russian; they follow the request's language like the rest."""
    body = {"game": "mezha", "vs": "invite", "options": {"house": "gorn"}}
    made = await alice.post("/api/matches", json=body)
    assert made.status_code == 201, made.text
    for lang, words in (("uk", "Ваш дім: Дом Горна"), ("ru", "Ваш дом: Дом Горна")):
        listed = (await alice.get("/api/matches", headers={"Accept-Language": lang})).json()
        assert [m["options_text"] for m in listed] == [words], lang
