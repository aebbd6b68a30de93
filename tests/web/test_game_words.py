"""Game texts in the reader's language (issue 16 §5–6).

Seen by a new member: in the Russian interface every Дві вежі card effect and deck option read in Ukrainian;
a Сундук войны log line pushed after the other member's move came in the mover's language; the Сундук войны
lobby defaulted to both expansions, the hardest setting for a newcomer.
"""

from __future__ import annotations

import asyncio
import csv
import json
import re
from pathlib import Path
from typing import Any

from httpx import AsyncClient
from websockets.asyncio.client import connect

from duelclub.i18n import use_lang
from duelclub.web.routes.pages import lobby_games
from duelclub.words.towers_cards import CARD_TEXT

UKRAINIAN_ONLY = re.compile("[іїєґІЇЄҐ]")
RUSSIAN_ONLY = re.compile("[ыэъёЫЭЪЁ]")
CARDS_CSV = Path(__file__).resolve().parents[2] / "src/duelclub/games/towers/cards.csv"


def seed_texts() -> dict[int, str]:
    with CARDS_CSV.open(encoding="utf-8") as fp:
        return {int(r["id"]): r["effect_uk"] for r in csv.DictReader(fp)}


async def towers_entry(client: AsyncClient, lang: str) -> dict[str, Any]:
    games = (await client.get("/api/games", headers={"Cookie": f"lang={lang}"})).json()
    return next(g for g in games if g["slug"] == "towers")


async def test_towers_effects_and_options_read_russian_in_the_russian_interface(alice: AsyncClient) -> None:
    g = await towers_entry(alice, "ru")
    texts = {c["id"]: c["text"] for c in g["catalog"]["cards"]}
    assert texts == CARD_TEXT and len(texts) == 102
    assert not [t for t in texts.values() if UKRAINIAN_ONLY.search(t)]
    deck = next(f for f in g["options_form"] if f["name"] == "deck")
    assert [c["label"] for c in deck["choices"]] == ["Обычная", "Бесконечная"]
    assert [d["name"] for d in g["catalog"]["decks"]] == ["Обычная", "Бесконечная"]


async def test_towers_effects_are_the_seeds_words_in_the_ukrainian_interface(alice: AsyncClient) -> None:
    g = await towers_entry(alice, "uk")
    assert {c["id"]: c["text"] for c in g["catalog"]["cards"]} == seed_texts()
    deck = next(f for f in g["options_form"] if f["name"] == "deck")
    assert [c["label"] for c in deck["choices"]] == ["Звичайна", "Нескінченна"]
    assert not [c for c in g["catalog"]["cards"] if RUSSIAN_ONLY.search(c["text"])]


async def test_warchest_lobby_starts_a_newcomer_on_the_base_game(app: Any) -> None:
    from starlette.requests import Request

    request = Request({"type": "http", "app": app, "headers": []})
    with use_lang("ru"):
        warchest = next(g for g in lobby_games(request) if g["slug"] == "warchest")
    expansions = next(f for f in warchest["fields"] if f["name"] == "expansions")
    assert expansions["default"] == "base"


async def test_a_games_level_hint_replaces_the_shared_one_where_it_would_not_be_true(app: Any) -> None:
    """Дві вежі's «Средний» plays a random move one time in four (issue 27's spacing): its lobby hint says so,
    in each language, while the other games keep the shared «немного думает наперёд»."""
    from starlette.requests import Request

    request = Request({"type": "http", "app": app, "headers": []})
    for lang, towers_hint, shared in (
        ("ru", "иногда ходит наугад", "немного думает наперёд"),
        ("uk", "іноді ходить навмання", "трохи думає наперед"),
    ):
        with use_lang(lang):
            games = {g["slug"]: g for g in lobby_games(request)}
        hints = {s: {lv["value"]: lv["hint"] for lv in g["bot_levels"]} for s, g in games.items()}
        assert hints["towers"]["medium"] == towers_hint
        assert hints["towers"]["strong"] != hints["mezha"]["strong"], "no lookahead to speak of"
        assert all(hints[s]["medium"] == shared for s in ("mezha", "warchest", "artania"))
        assert hints["towers"]["master"] == hints["mezha"]["master"] != ""


async def test_a_pushed_warchest_log_line_is_in_each_readers_language(served: Any) -> None:
    """alice reads Russian, bob Ukrainian; whoever moves, each socket's log line is in its own language."""
    headers: dict[str, dict[str, str]] = {}
    clients = []
    for name, lang in (("alice", "ru"), ("bob", "uk")):
        c = AsyncClient(base_url=served.http, cookies={"lang": lang})
        assert (
            await c.post("/api/auth/register", json={"username": name, "password": "password123"})
        ).is_success
        headers[name] = {"Cookie": f"duelclub_session={c.cookies['duelclub_session']}; lang={lang}"}
        clients.append(c)
    alice, bob = clients
    try:
        options = {"expansions": "base", "draft": "random", "side": "wolf"}
        made = (
            await alice.post("/api/matches", json={"game": "warchest", "vs": "invite", "options": options})
        ).json()
        assert (await bob.post(f"/api/invites/{made['invite_token']}/accept", json={})).is_success
        url = f"{served.ws}/ws/matches/{made['id']}"
        async with (
            connect(url, additional_headers=headers["alice"]) as wa,
            connect(url, additional_headers=headers["bob"]) as wb,
        ):
            sa, sb = await _state(wa), await _state(wb)
            for _ in range(4):  # both members move: each push was built in the mover's language
                mover, st = (wa, sa) if sa["legal"] else (wb, sb)
                action = next(a for a in st["legal"] if a["kind"] != "resign")
                await mover.send(
                    json.dumps({"type": "act", "id": f"a{st['seq']}", "seq": st["seq"], "action": action})
                )
                sa, sb = await _state(wa, st["seq"] + 1), await _state(wb, st["seq"] + 1)
                ru = " ".join(e["line"]["text"] for e in sa["events"] if "line" in e)
                uk = " ".join(e["line"]["text"] for e in sb["events"] if "line" in e)
                assert ru and uk and not UKRAINIAN_ONLY.search(ru), ru
                assert ru != uk, (ru, uk)
    finally:
        for c in clients:
            await c.aclose()


async def _state(ws: Any, seq: int = 0) -> dict[str, Any]:
    async with asyncio.timeout(5):
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == "state" and msg["seq"] >= seq:
                return dict(msg)
