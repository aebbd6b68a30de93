"""A tournament's game options after a fresh-user QA pass (issue 26 §Create, §Pages): the create form labels
a side option for the first seat («Дом первого игрока»), since a tournament's options set the first seat of
every board, not the organiser's; the tournament's detail and the list word the options for the reader as
match lists do («Дом Горна у игрока 1»), in the reader's language, so the pages can show which variant is
played."""

from __future__ import annotations

from typing import Any

from test_tournaments_api import UserClient, create

YOURS = ("Ваш дом", "Ваша сторона", "Ваша колода")
FIRST_SEAT = ("Дом первого игрока", "Сторона первого игрока", "Колода первого игрока")


async def test_the_create_form_labels_a_side_for_the_first_seat(user_client: UserClient) -> None:
    ann = await user_client("ann")
    form = (await ann.get("/tournaments")).text
    for label in FIRST_SEAT:
        assert label in form, label
    for label in YOURS:
        assert label not in form, label
    lobby = (await ann.get("/")).text
    assert "Ваш дом" in lobby and "Дом первого игрока" not in lobby, "the lobby's own match keeps «Ваш дом»"


async def test_the_uk_create_form_labels_a_side_for_the_first_seat(user_client: UserClient) -> None:
    ann = await user_client("ann")
    ann.cookies.set("lang", "uk")
    form = (await ann.get("/tournaments")).text
    for label in ("Дім першого гравця", "Сторона першого гравця", "Колода першого гравця"):
        assert label in form, label


CASES: list[tuple[str, dict[str, Any], str, str]] = [
    ("mezha", {"house": "gorn"}, "Дом Горна у игрока 1", "Дом Горна у гравця 1"),
    (
        "towers",
        {"battlefield": "free_steppe", "deck": "infinite"},
        "Поле: Вільний степ, колода: бесконечная",
        "Поле: Вільний степ, колода: нескінченна",
    ),
    (
        "warchest",
        {"expansions": "nobility", "side": "raven", "draft": "eight"},
        "+ Знать, драфт из восьми, игрок 1 — Ворон",
        "+ Знать, драфт із восьми, гравець 1 — Ворон",
    ),
    ("artania", {"deck": "kuyavia"}, "Куявия у игрока 1", "Куявия у гравця 1"),
]


async def test_the_detail_and_the_list_word_the_options_for_the_reader(user_client: UserClient) -> None:
    ann = await user_client("ann")
    for game, options, ru, uk in CASES:
        t = await create(ann, game=game, options=options, name=game)
        assert t["options_text"] == ru, (game, t["options_text"])
        for lang, words in (("ru", ru), ("uk", uk)):
            ann.cookies.set("lang", lang)
            detail = (await ann.get(f"/api/tournaments/{t['id']}")).json()
            assert detail["options_text"] == words, (game, lang)
            assert options.items() <= detail["options"].items(), "the stored options stay as they were"
            rows = {r["id"]: r for r in (await ann.get("/api/tournaments?status=open")).json()}
            assert rows[t["id"]]["options_text"] == words, (game, lang)
        ann.cookies.set("lang", "ru")
