"""Дві вежі's words (duelclub/words/towers.py): reasons, the card texts (Russian msgids, the seed's
Ukrainian), options, and the match log from each reader's side — the lines towers.js used to write, now
on the server."""

from __future__ import annotations

import csv
import random
import re
import typing
from pathlib import Path
from typing import Any

import pytest

from duelclub.games.towers import GAME
from duelclub.games.towers.events import Reason
from duelclub.i18n import use_lang
from duelclub.words.towers import WORDS
from duelclub.words.towers_cards import CARD_TEXT

UKRAINIAN_ONLY = re.compile("[іїєґІЇЄҐ]")
RUSSIAN_ONLY = re.compile("[ыэъёЫЭЪЁ]")
CARDS_CSV = Path(__file__).resolve().parents[2] / "src/duelclub/games/towers/cards.csv"


def texts(events: list[dict[str, Any]], seat: int | None, lang: str = "ru") -> list[str | None]:
    with use_lang(lang):
        return [line["text"] if line else None for line in WORDS.event_lines(events, seat)]


def test_reasons_cover_the_rules_reason_codes_exactly() -> None:
    assert set(WORDS.reasons) == set(typing.get_args(Reason)) == set(GAME.reason_codes)
    assert "" not in GAME.reason_codes


def test_card_texts_are_russian_msgids_and_the_seeds_ukrainian() -> None:
    with CARDS_CSV.open(encoding="utf-8") as fp:
        seed = {int(r["id"]): r["effect_uk"] for r in csv.DictReader(fp)}
    with use_lang("ru"):
        ru = {c["id"]: c["text"] for c in WORDS.catalog()["cards"]}
    with use_lang("uk"):
        uk = {c["id"]: c["text"] for c in WORDS.catalog()["cards"]}
        decks = [d["name"] for d in WORDS.catalog()["decks"]]
    assert ru == CARD_TEXT and len(ru) == 102 and not [t for t in ru.values() if UKRAINIAN_ONLY.search(t)]
    assert uk == seed and decks == ["Звичайна", "Нескінченна"]


def test_options_in_words() -> None:
    opts = GAME.parse_options({"battlefield": "free_steppe", "deck": "infinite"})
    assert WORDS.options_text(opts, None) == "Поле: Вільний степ, колода: бесконечная"
    with use_lang("uk"):
        assert WORDS.options_text(opts, 0).endswith("колода: нескінченна")
    assert [f["name"] for f in WORDS.options_form()] == ["battlefield", "deck"]


def test_turn_lines_count_their_income() -> None:
    events = [
        {"kind": "turn", "seat": 1, "turn": 7, "produced": [2, 3, 1]},
        {"kind": "turn", "seat": 0, "turn": 8, "produced": [5, 1, 21]},
    ]
    assert texts(events, 0) == [
        "Ход 7, ходит соперник (доход: +2 руды, +3 маны, +1 отряд)",
        "Ход 8, ходите вы (доход: +5 руды, +1 маны, +21 отряд)",
    ]
    assert texts(events[:1], 0, "uk") == ["Хід 7, ходить суперник (дохід: +2 руди, +3 мани, +1 загін)"]


def test_plays_discards_and_draws() -> None:
    play = {"kind": "play", "seat": 0, "card": 78, "delta": [[0] * 8, [-5, -1, 0, 0, 0, 0, 0, 0]]}
    assert texts([play], 0)[0] == "Вы играете «Орк» (3 отряда) — у соперника: башня −5, стена −1"
    assert texts([{**play, "delta": [[0] * 8, [0] * 8]}], 1)[0] == (
        "Соперник играет «Орк» (3 отряда) — без изменений"
    )
    assert texts([{"kind": "draw", "seat": 1}], 0) == [None]  # the opponent's hidden draw
    assert texts([{"kind": "draw", "seat": 1, "card": 40}], None) == ["Игрок 2 тянет «Призма»"]
    timed = {"kind": "discard", "seat": 1, "card": 40, "tag": "timeout_discard"}
    assert texts([timed], 0) == ["Время вышло: соперник сбрасывает «Призма»"]
    assert texts([{"kind": "reshuffle", "cards": 21}], 0) == ["Колода кончилась: сброс перемешан (21 карта)"]


@pytest.mark.parametrize(
    ("seat", "winner", "reason", "line"),
    [
        (0, 1, "destruction", "Партия окончена — Поражение. Ваша башня разрушена."),
        (0, 0, "timeout", "Партия окончена — Победа. Соперник трижды подряд не успел сходить."),
        (0, 1, "timeout", "Партия окончена — Поражение. Вы трижды подряд не успели сходить."),
        (1, 1, "tower", "Партия окончена — Победа. Ваша башня достигла цели (50)."),
        (None, 0, "resource", "Партия окончена — Победа: Игрок 1. Игрок 1 собрал запас ресурса 150."),
        (0, None, "turn_limit", "Партия окончена — Ничья. Сыграно 500 ходов без результата."),
    ],
)
def test_the_result_says_who_did_what(seat: int | None, winner: int | None, reason: str, line: str) -> None:
    end = {"kind": "match_end", "winner": winner, "reason": reason, "battlefield": "archmage_citadel"}
    assert texts([end], seat) == [line]


@pytest.mark.parametrize("seed", range(4))
def test_every_event_of_a_match_has_a_line_in_both_languages(seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_match(
        rng.randbytes(32), GAME.parse_options({"deck": rng.choice(["normal", "infinite"])})
    )
    events: list[dict[str, Any]] = []
    for _ in range(150):
        if GAME.outcome(state) is not None:
            break
        seat = min(GAME.to_move(state))
        events += GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    for seat in (0, 1, None):
        ru, uk = texts(events, seat), texts(events, seat, "uk")
        assert all(ru) and all(uk)  # engine events: every draw still names its card
        assert not [t for t in ru if UKRAINIAN_ONLY.search(t.replace("«", "[").split("[")[0])]  # type: ignore[union-attr]
        assert not [t for t in uk if RUSSIAN_ONLY.search(t or "")]
