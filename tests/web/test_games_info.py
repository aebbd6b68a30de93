"""The client takes the games' titles, reasons and catalogs from the server (issue 15 §2): ``GET /api/games``
in the reader's language, the page's ``<template id="games-info">`` (static/js/gamesinfo.js), and account
messages worded in web/ from the store's codes."""

from __future__ import annotations

import html as html_lib
import json
import re
from collections.abc import Callable
from typing import get_args

import pytest
from httpx import AsyncClient

from duelclub import i18n
from duelclub.games.registry import lobby_order
from duelclub.store.users import (
    BadPassword,
    BadUsername,
    PasswordProblem,
    UsernameProblem,
    check_new_password,
    check_username,
)
from duelclub.web.account_words import PASSWORD_PROBLEMS, USERNAME_PROBLEMS
from duelclub.words import words_for


@pytest.mark.parametrize("lang", ["ru", "uk"])
async def test_api_games_gives_titles_reasons_and_catalogs_in_the_readers_language(
    client_factory: Callable[[], AsyncClient], lang: str
) -> None:
    client = client_factory()
    client.cookies.set("lang", lang)
    games = {g["slug"]: g for g in (await client.get("/api/games")).json()}
    assert [s for s in games if s in lobby_order()] == list(lobby_order())
    with i18n.use_lang(lang):
        for slug in lobby_order():
            words = words_for(slug)
            assert games[slug]["title"] == words.game_title()
            assert games[slug]["tagline"] == words.tagline_text() != ""
            assert games[slug]["reasons"] == words.reason_texts()
            assert games[slug]["catalog"] == words.catalog()
            own = words.reasons.get("timeout")  # Дві вежі words its own (three missed turns)
            assert games[slug]["reasons"]["timeout"] == i18n.gettext(own or "время вышло")
    if lang == "uk":
        assert games["mezha"]["reasons"]["resign"] == "здача"


async def test_api_games_serves_each_games_rules_panel_hook(
    client_factory: Callable[[], AsyncClient],
) -> None:
    """The match page's «Правила» panel opens the part the game's words name for the view's phase
    (static/js/rulespanel.js has no table of games)."""
    games = {g["slug"]: g for g in (await client_factory().get("/api/games")).json()}
    assert games["warchest"]["rules_panel"] == {"default": "actions", "by_phase": {"draft": "units"}}
    assert games["artania"]["rules_panel"] == {"default": "turn", "by_phase": {"window": "equipment"}}
    assert games["mezha"]["rules_panel"] == {"default": "turn", "by_phase": {"pause": "scoring"}}
    assert games["towers"]["rules_panel"] == {"default": "turn", "by_phase": {}}
    for slug in lobby_order():
        rules = words_for(slug).rules
        assert rules is not None
        panel = games[slug]["rules_panel"]
        assert {panel["default"], *panel["by_phase"].values()} <= set(rules.parts), slug


async def test_every_page_carries_the_games_titles(client_factory: Callable[[], AsyncClient]) -> None:
    client = client_factory()
    client.cookies.set("lang", "uk")
    page = (await client.get("/login")).text
    m = re.search(r'<template id="games-info">(.*?)</template>', page, re.S)
    assert m, "no games info in the page"
    games = json.loads(html_lib.unescape(m.group(1)))
    with i18n.use_lang("uk"):
        assert games == [{"slug": s, "title": words_for(s).game_title()} for s in lobby_order()]


def test_the_store_refuses_with_codes_that_web_words() -> None:
    with pytest.raises(BadPassword) as pw:
        check_new_password("        ")
    assert pw.value.problem == "only_spaces"
    with pytest.raises(BadUsername) as name:
        check_username("admin")
    assert name.value.problem == "reserved"
    assert set(USERNAME_PROBLEMS) == set(get_args(UsernameProblem))
    assert set(PASSWORD_PROBLEMS) == set(get_args(PasswordProblem))
    with i18n.use_lang("uk"):  # every message is translated
        for msgid in [*USERNAME_PROBLEMS.values(), *PASSWORD_PROBLEMS.values()]:
            assert i18n.gettext(msgid) != msgid, msgid


async def test_password_messages_follow_the_language(client_factory: Callable[[], AsyncClient]) -> None:
    client = client_factory()
    client.cookies.set("lang", "uk")
    r = await client.post("/api/auth/register", json={"username": "zoya", "password": "short"})
    assert r.status_code == 422 and r.json()["code"] == "bad_password"
    assert r.json()["message"] == "Пароль має бути від 8 до 128 символів."
