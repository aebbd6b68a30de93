"""Межа's words (duelclub/words/mezha.py, mezha_log.py): reasons, lobby texts and the match log from each
reader's side — the lines the page script used to write (mezha.js describe), now worded on the server."""

from __future__ import annotations

import random
import re
import typing
from typing import Any

import pytest

from duelclub.games.mezha import GAME
from duelclub.games.mezha.events import Reason
from duelclub.i18n import use_lang
from duelclub.words.base import PLATFORM_REASONS
from duelclub.words.mezha import WORDS

TIED = {
    "season": 1,
    "omen": "thaw",
    "starter": 0,
    "fields": [1, None, 0],
    "totals": [[2, 9], [5, 5], [7, 1]],
    "strength": [14, 15],
    "winner": 1,
}


def texts(events: list[dict[str, Any]], seat: int | None, lang: str = "ru") -> list[str | None]:
    with use_lang(lang):
        return [line["text"] if line else None for line in WORDS.event_lines(events, seat)]


def test_reasons_cover_the_rules_reason_codes_exactly() -> None:
    assert set(WORDS.reasons) == set(typing.get_args(Reason)) == set(GAME.reason_codes)
    with use_lang("uk"):
        assert WORDS.reason("two_seasons") == "два виграні сезони"
        assert WORDS.reason("abandoned") != "abandoned" and "abandoned" in PLATFORM_REASONS


def test_lobby_texts_and_options_in_both_languages() -> None:
    gorn = GAME.parse_options({"house": "gorn"})
    assert WORDS.options_text(gorn, 0) == "Ваш дом: Дом Горна"
    assert WORDS.options_text(gorn, None) == "Дом Горна у игрока 1"
    with use_lang("uk"):
        assert WORDS.game_title() == "Межа"
        assert WORDS.options_form()[0]["label"] == "Ваш дім"
        assert [f for f in WORDS.catalog()["fields"]] == ["Луг", "Брід", "Пагорб"]


@pytest.mark.parametrize(
    ("seat", "line"),
    [
        (
            0,
            "Сезон 1 — победа соперника: поля 1:1 (Луг — соперник, Брод — никому, Холм — вы), "
            "решила общая сила 14:15",
        ),
        (
            1,
            "Сезон 1 — ваша победа: поля 1:1 (Луг — вы, Брод — никому, Холм — соперник), "
            "решила общая сила 15:14",
        ),
        (
            None,
            "Сезон 1 — победа игрока 2: поля 1:1 (Луг — игрок 2, Брод — никому, Холм — игрок 1), "
            "решила общая сила 14:15",
        ),
    ],
)
def test_season_lines_read_from_the_readers_side(seat: int | None, line: str) -> None:
    event = {"kind": "season_scored", **TIED, "wins": [0, 1], "seq": 9}
    assert texts([event], seat) == [line]
    cls = WORDS.event_lines([event], seat)[0]
    assert cls is not None and cls["cls"] == ("log-season log-bad" if seat == 0 else "log-season")


def test_drawn_seasons_say_what_decided() -> None:
    drawn = {
        "kind": "season_scored",
        "season": 2,
        "omen": "fair",
        "starter": 1,
        "fields": [0, None, 1],
        "totals": [[4, 1], [3, 3], [2, 5]],
        "strength": [9, 9],
        "winner": None,
        "wins": [1, 1],
        "seq": 20,
    }
    assert texts([drawn], 1) == [
        "Сезон 2 — ничья: поля 1:1 (Луг — соперник, Брод — никому, Холм — вы), общая сила тоже поровну — 9:9"
    ]
    by_fields = {**drawn, "fields": [0, 0, 1], "strength": [9, 11], "winner": 0}
    assert texts([by_fields], 1) == [
        "Сезон 2 — победа соперника: поля 1:2 (Луг — соперник, Брод — соперник, Холм — вы)"
    ]


def test_the_match_end_line_takes_the_season_wins_from_its_batch() -> None:
    scored = {"kind": "season_scored", **TIED, "season": 3, "wins": [1, 2], "seq": 30}
    end = {"kind": "match_end", "winner": 1, "reason": "two_seasons", "seq": 30}
    assert texts([scored, end], 0)[1] == "Партия окончена: поражение — соперник выиграл два сезона (1:2)"
    assert texts([scored, end], 1)[1] == "Партия окончена: ваша победа — вы выиграли два сезона (2:1)"
    assert texts([end], 0) == ["Партия окончена: поражение — соперник выиграл два сезона"]
    drawn = [{**scored, "wins": [0, 0]}, {"kind": "match_end", "winner": None, "reason": "draw", "seq": 30}]
    assert (
        texts(drawn, 1)[1]
        == "Партия окончена: ничья — поровну выигранных сезонов (0:0: все три сезона — ничьи)"
    )
    resigned = [{"kind": "resign", "seat": 0}, {"kind": "match_end", "winner": 1, "reason": "resign"}]
    assert texts(resigned, 0) == ["Вы сдались", "Партия окончена: поражение — вы сдались"]
    assert texts(resigned, None) == ["Игрок 1 сдаётся", "Партия окончена: победа: игрок 2 — игрок 1 сдаётся"]


def test_a_tactic_that_does_nothing_says_so() -> None:
    rosa = {"kind": "rosa", "seat": 0, "card": "rosa", "field": 1, "seq": 4}
    buff = {
        "kind": "rosa_buff",
        "seat": 0,
        "field": 1,
        "placement": 2,
        "card": "bortnik",
        "strength": 5,
        "face_down": False,
        "amount": 1,
        "seq": 4,
    }
    podzhog = {"kind": "podzhog", "seat": 1, "card": "podzhog", "field": 2, "seq": 5}
    passed = {"kind": "pass", "seat": 0, "automatic": False, "seq": 6}
    assert texts([rosa], 0) == ["Вы разыгрываете «Роса» на поле Брод — без эффекта"]
    assert texts([rosa, buff], 0) == ["Вы разыгрываете «Роса» на поле Брод", "Роса: Бортник +1"]
    assert texts([podzhog, passed], 0)[0] == "Соперник разыгрывает «Поджог» на поле Холм — без эффекта"
    # the buff of another action (seq) is not this tactic's effect
    assert texts([rosa, {**buff, "seq": 5}], 0)[0].endswith(" — без эффекта")  # type: ignore[union-attr]
    rally = {
        "kind": "rally",
        "seat": 1,
        "field": 0,
        "placement": 3,
        "card": "znamenosets",
        "strength": 2,
        "face_down": False,
        "targets": [],
    }
    assert texts([rally], 0) == ["Клич: Знаменосец — рядом никого, без эффекта"]


def test_hidden_cards_shields_and_burns() -> None:
    hidden = {"kind": "play", "seat": 1, "field": 2, "placement": 4, "face_down": True}
    assert texts([hidden], 0) == ["Соперник кладёт скрытую карту на поле Холм"]
    assert texts([hidden], None) == ["Игрок 2 кладёт скрытую карту на поле Холм"]
    thaw = {"kind": "thaw", "seat": 1, "field": 2, "placement": 4, "face_down": True}
    assert texts([thaw], 0) == ["Оттепель: скрытая карта соперника получает бонус"]
    shot = {
        "kind": "shot",
        "seat": 0,
        "field": 0,
        "placement": 2,
        "card": "pushkar",
        "damage": 3,
        "target_seat": 1,
        "target_placement": 1,
        "target_card": "shchitonosets",
        "target_strength": 4,
        "shield_absorbed": True,
        "burned": False,
    }
    assert texts([shot], 0) == ["Пушкарь стреляет: щит Щитоносца поглощает урон"]
    assert texts([shot], 0, "uk") == ["Пушкарь стріляє: Щитоносец — щит поглинає шкоду"]
    burn = {"kind": "burn", "seat": 1, "field": 0, "placement": 1, "card": "vedunya", "cause": "shot"}
    assert texts([burn], 0) == ["Ведунья сгорела (отряд соперника)"]
    assert texts([{**burn, "card": "kuznets", "seat": 0}], 0) == ["Кузнец сгорел (ваш отряд)"]


def _playout(seed: int) -> list[list[dict[str, Any]]]:
    rng = random.Random(seed)
    state = GAME.new_match(rng.randbytes(32), GAME.parse_options({"house": rng.choice(["olkha", "gorn"])}))
    batches = []
    while GAME.outcome(state) is None:
        seat = min(GAME.to_move(state))
        batches.append(GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat))))
    return batches


UKRAINIAN_LETTERS = re.compile("[іїєґ]")


@pytest.mark.parametrize("seed", range(6))
def test_every_event_of_a_match_has_a_line_in_both_languages(seed: int) -> None:
    batches = _playout(seed)
    events = [{**e, "seq": n} for n, batch in enumerate(batches, 1) for e in batch]
    for seat in (0, 1, None):
        ru, uk = texts(events, seat), texts(events, seat, "uk")
        assert all(ru) and all(uk), [e for e, t in zip(events, ru, strict=True) if not t]
        assert not [t for t in ru if UKRAINIAN_LETTERS.search(t or "")]
        assert sum(a != b for a, b in zip(ru, uk, strict=True)) > len(events) // 2
