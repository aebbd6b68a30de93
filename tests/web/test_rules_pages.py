"""The rules pages ``/games/{slug}/rules`` (issue 16 §1): every game, both languages, every card with its
text, linked from the landing page and the lobby."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape

import pytest
from httpx import AsyncClient

from duelclub.i18n import use_lang
from duelclub.resources import resource_dir
from duelclub.words import words_for

GAMES = ["mezha", "towers", "warchest", "artania"]
UKRAINIAN_ONLY = re.compile("[іїєґ]")
RUSSIAN_ONLY = re.compile("[ыэъё]")


def text_of(html: str) -> str:
    article = html[html.index('id="rules-article"') : html.index("</article>")]
    return unescape(re.sub(r"<[^>]+>", " ", article))


@pytest.mark.parametrize("slug", GAMES)
@pytest.mark.parametrize("lang", ["ru", "uk"])
async def test_a_rules_page_per_game_and_language(
    client_factory: Callable[[], AsyncClient], slug: str, lang: str
) -> None:
    r = await client_factory().get(f"/games/{slug}/rules", headers={"Cookie": f"lang={lang}"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    rules = words_for(slug).rules
    assert rules is not None
    for part in rules.parts:
        assert f'<section id="{part}"' in r.text, part
    with use_lang(lang):
        catalog = words_for(slug).catalog()
    body = text_of(r.text)
    # every card / unit / equipment of the game is there, with its text in the reader's language
    names = [c.get("name") or c.get("ru") for c in catalog.get("cards", catalog.get("units", []))]
    texts = [
        c.get("text") or c.get("tactic") or c.get("property")
        for c in catalog.get("cards", catalog.get("units", []))
    ]
    assert names and all(n in body for n in names), [n for n in names if n not in body]
    # (a text may open a sentence: its first letter is then a capital)
    assert all(t[1:] in body for t in texts if t), [t for t in texts if t and t[1:] not in body]
    words = body  # card and battlefield names are proper names, in the club's language of the game
    for name in [words_for(slug).game_title(), *names, *(b["name"] for b in catalog.get("battlefields", []))]:
        words = words.replace(name, "")
    if lang == "ru":
        assert not UKRAINIAN_ONLY.search(words), UKRAINIAN_ONLY.findall(words)[:5]
    else:
        assert "Цель" not in body and "Ход" not in body.split()


async def test_an_unknown_game_has_no_rules(client_factory: Callable[[], AsyncClient]) -> None:
    r = await client_factory().get("/games/chess/rules")
    assert r.status_code == 404 and "Правила не найдены" in r.text


async def test_the_landing_page_and_the_lobby_link_every_rules_page(
    client_factory: Callable[[], AsyncClient], alice: AsyncClient
) -> None:
    landing = (await client_factory().get("/")).text
    lobby = (await alice.get("/")).text
    for slug in GAMES:
        assert f'href="/games/{slug}/rules"' in landing, slug
        assert f'id="{slug}-rules"' in lobby and f'href="/games/{slug}/rules"' in lobby, slug


async def test_the_match_page_has_a_rules_button(alice: AsyncClient) -> None:
    made = (await alice.post("/api/matches", json={"game": "mezha", "vs": "bot", "bot_level": "easy"})).json()
    page = (await alice.get(f"/matches/{made['id']}")).text
    assert 'id="rules-btn"' in page and "/static/css/rules.css" in page


# Sentences of the pages as they read when each language had its own template (before issue 30 §4), from the
# start, the middle and the end of each page: the one template with the catalog must read the same.
KEY_SENTENCES = {
    ("mezha", "ru"): [
        "«Межа» — собственная карточная дуэль клуба.",
        "Полей поровну — сезон берёт тот, у кого больше общая сила на всех трёх полях; если и она поровну, "
        "сезон ничей.",
        "Время на ход не ограничено; если соперник пропал со связи, через минуту можно засчитать себе "
        "победу.",
    ],
    ("mezha", "uk"): [
        "«Межа» — власна карткова дуель клубу.",
        "Лягає сорочкою догори: суперник не бачить карту й силу, постріли й підпал її не зачіпають.",
        "Час на хід не обмежено; якщо суперник зник зі зв’язку, за хвилину можна зарахувати собі перемогу.",
    ],
    ("towers", "ru"): [
        "Две башни, три ресурса и колода из 102 карт.",
        "Победа проверяется после дохода и после каждой сыгранной карты — у обоих игроков.",
        "Колода тасуется честно: хеш раздачи виден до партии, секрет сервера — после; тасовку можно "
        "проверить.",
    ],
    ("towers", "uk"): [
        "Дві вежі, три ресурси і колода зі 102 карт.",
        "Перемога перевіряється після доходу й після кожної зіграної карти — в обох гравців.",
        "Колода тасується чесно: хеш роздачі видно до партії, секрет сервера — після; тасування можна "
        "перевірити.",
    ],
    ("warchest", "ru"): [
        "«Сундук войны» — дуэль за контроль локаций.",
        "Ваш юнит перемещается на 1–2 поля (даже отравленный).",
        "Соперник не видит вашу руку, мешок и монеты, сыгранные рубашкой вниз.",
    ],
    ("warchest", "uk"): [
        "«Сундук войны» — дуель за контроль локацій.",
        "Ваш юніт на локації під вашим контролем атакує суміжного ворога.",
        "Суперник не бачить вашу руку, мішок і монети, зіграні сорочкою донизу.",
    ],
    ("artania", "ru"): [
        "Один играет колодой Артании, другой — Куявии (колоды одинаковы по составу).",
        "+2 меча одному воину класса на поле боя (любой стороны) до конца хода.",
        "Время на ход задаёт автор партии (необязательно).",
    ],
    ("artania", "uk"): [
        "Один грає колодою Артании, інший — Куявии (колоди однакові за складом).",
        "+2 мечі одному воїнові класу на полі бою (будь-якої сторони) до кінця ходу.",
        "Час на хід задає автор партії (необов’язково).",
    ],
}


@pytest.mark.parametrize(("slug", "lang"), list(KEY_SENTENCES))
async def test_the_one_template_reads_as_the_pages_did(
    client_factory: Callable[[], AsyncClient], slug: str, lang: str
) -> None:
    r = await client_factory().get(f"/games/{slug}/rules", headers={"Cookie": f"lang={lang}"})
    body = re.sub(r"\s+", " ", text_of(r.text))
    body = re.sub(r" ([.,;:)])", r"\1", body)  # the tags' spaces of text_of, not the page's
    missing = [s for s in KEY_SENTENCES[slug, lang] if s not in body]
    assert not missing, missing


def test_no_rules_prose_is_kept_per_language() -> None:
    """One template per game; its prose lives in the catalog, not in a file per language (issue 30 §4)."""
    pages = {p.name for p in (resource_dir("templates") / "rules").glob("*.html")}
    assert not [p for p in pages if p.count(".") > 1], pages
    assert {f"{slug}.html" for slug in GAMES} <= pages
