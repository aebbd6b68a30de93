"""Артания и Куявия's words (duelclub/words/artania.py): the match log speaks to its reader («Вы берёте»,
«Соперник: пас»), a spectator reads
the members' usernames («Игрок 1/2» for a bot); options, catalog texts and reasons in both languages.

QA (a new member): «Вы берёт 3 карты», «кругляш берёт вы» — person and number must agree.
"""

from __future__ import annotations

from typing import Any

from duelclub import i18n
from duelclub.games.artania import GAME
from duelclub.words.artania import WORDS


def _lines(events: list[dict[str, Any]], seat: int | None) -> list[tuple[str, str] | None]:
    return [None if x is None else (x["text"], x["cls"]) for x in WORDS.event_lines(events, seat)]


def test_draws_agree_in_person_and_number() -> None:
    events = [
        {"kind": "draw", "seat": 0, "count": 3, "reason": "turn", "cards": []},
        {"kind": "draw", "seat": 1, "count": 1, "reason": "chasy"},
        {"kind": "draw", "seat": 0, "count": 2, "reason": "turn", "cards": ["vityaz_1", "chasy"]},
    ]
    assert _lines(events, 0) == [
        ("Вы берёте 3 карты", "log-me"),
        ("Соперник берёт 1 карту (Часы)", "log-opp"),
        ("Вы берёте 2 карты: Витязь-десятник, Часы Базилевса", "log-me"),
    ]
    assert _lines(events[:2], None) == [
        ("Игрок 1 берёт 3 карты", "log-opp"),
        ("Игрок 2 берёт 1 карту (Часы)", "log-opp"),
    ]
    # a spectator of a match between members reads their usernames; a bot's seat stays «Игрок N»
    named = WORDS.event_lines(events[:2], None, ("alice", None))
    assert [x and x["text"] for x in named] == ["alice берёт 3 карты", "Игрок 2 берёт 1 карту (Часы)"]
    with i18n.use_lang("uk"):
        assert [x and x[0] for x in _lines(events[:2], 0)] == [
            "Ви берете 3 карти",
            "Суперник бере 1 карту (Часы)",
        ]


def test_placements_passes_and_equipment() -> None:
    events = [
        {
            "kind": "place",
            "seat": 0,
            "step": "P1",
            "cards": [{"slot": 1, "card": "vityaz_1"}],
            "empty": [],
            "automatic": False,
        },
        {
            "kind": "place",
            "seat": 1,
            "step": "P2",
            "cards": [{"slot": 2, "card": "geroy"}],
            "empty": [3],
            "automatic": False,
        },
        {"kind": "place", "seat": 1, "step": "P4", "cards": [], "empty": [1, 2], "automatic": True},
        {"kind": "pass", "seat": 1, "window": "W4", "automatic": True, "closed": True},
        {"kind": "pass", "seat": 0, "window": "W0", "automatic": False, "closed": False},
        {"kind": "nektar", "seat": 0, "window": "W1", "target_seat": 1, "slot": 2, "card": "strazh_2"},
        {"kind": "idol", "seat": 1, "window": "W1", "target_seat": 0, "slot": 1, "card": "vityaz_1"},
        {"kind": "chasy", "seat": 1, "window": "W2", "discard": "polkovodets"},
        {"kind": "cleanup", "discarded": [[], []]},
    ]
    assert _lines(events, 0) == [
        ("Вы: Витязь-десятник в слот 1", "log-me"),
        ("Соперник: Герой в слот 2; слот 3 пуст (воинов больше нет)", "log-opp"),
        ("Соперник: нет воинов — слоты 1, 2 пусты", "log-opp"),
        ("Соперник: рука пуста — пас; последнее окно снаряжения закрыто", "log-sys"),
        ("Вы: пас", "log-me"),
        ("Вы: Нектар могущества на Страж-сотник (соперника слот 2) — +2 меча", "log-me"),
        ("Соперник: Идол гнева — Витязь-десятник из слота 1 уходит в сброс", "log-opp"),
        ("Соперник: Часы Базилевса, сброшена карта Полководец", "log-opp"),
        None,
    ]
    assert _lines(events[5:6], None) == [
        ("Игрок 1: Нектар могущества на Страж-сотник (игрока Игрок 2 слот 2) — +2 меча", "log-opp")
    ]


def test_scoring_tokens_and_turns_from_the_readers_side() -> None:
    events = [
        {"kind": "turn_scored", "turn": 3, "first": 0, "slots": [[], []], "totals": [7, 9]},
        {"kind": "tiebreak", "round": 1, "cards": [None, "geroy"], "values": [0, 4], "to_hand": [None, None]},
        {"kind": "token", "seat": 1, "tokens": [2, 3]},
        {"kind": "token", "seat": None, "tokens": [2, 3]},
        {"kind": "turn_start", "turn": 4, "first": 1},
    ]
    assert _lines(events, 1) == [
        ("Ход 3: мечи — вы 9, соперник 7", "log-season"),
        ("Ничья — вскрытие 1: Герой (4) против колода пуста (0)", "log-season"),
        ("Кругляш: вы (3 : 2)", "log-season"),
        ("Кругляш никто не взял", "log-season"),
        ("Ход 4: первым действуете вы", "log-sys"),
    ]
    assert _lines(events[4:], 0) == [("Ход 4: первым действует соперник", "log-sys")]
    assert _lines(events[4:], None) == [("Ход 4: первым действует Игрок 2", "log-sys")]


def test_the_end_in_words() -> None:
    def end(winner: int | None, reason: str, tokens: list[int]) -> dict[str, Any]:
        return {"kind": "match_end", "winner": winner, "reason": reason, "tokens": tokens}

    assert _lines([{"kind": "resign", "seat": 1}, end(0, "resign", [1, 2])], 1) == [
        ("Вы сдались", "log-season"),
        ("Партия окончена — Поражение. Вы сдались.", "log-season"),
    ]
    assert _lines([{"kind": "resign", "seat": 1}, end(0, "resign", [1, 2])], 0)[0] == (
        "Соперник сдался",
        "log-season",
    )
    texts = [x and x[0] for x in _lines([end(0, "five_tokens", [5, 3]), end(1, "deck_exhausted", [2, 3])], 0)]
    assert texts == [
        "Партия окончена — Победа. Вы первыми собрали пять кругляшей.",
        "Партия окончена — Поражение. Колода закончилась, у соперника больше кругляшей (2 : 3).",
    ]
    assert _lines([end(None, "deck_exhausted", [3, 3])], None)[0] == (
        "Партия окончена — Ничья. Колода закончилась, кругляшей поровну (3 : 3).",
        "log-season",
    )
    assert _lines([end(1, "deck_exhausted", [2, 3])], None)[0] == (
        "Партия окончена — Победа: Игрок 2. Колода закончилась, больше кругляшей у игрока Игрок 2 (2 : 3).",
        "log-season",
    )


def test_options_form_and_text() -> None:
    [field] = WORDS.options_form()
    assert field["name"] == "deck" and field["label"] == "Ваша колода"
    values = [c["value"] for c in field["choices"]]
    assert values == ["artania", "kuyavia", "random"]
    for v in values:
        GAME.parse_options({"deck": v})
    opts = GAME.parse_options({"deck": "kuyavia"})
    assert WORDS.options_text(opts, 0) == "Ваша колода: Куявия"
    assert WORDS.options_text(opts, 1) == "Ваша колода: Артания"
    assert WORDS.options_text(opts, None) == "Куявия у игрока 1"
    assert WORDS.options_text(GAME.parse_options({"deck": "random"}), 0) == "Колода: по жребию"


def test_catalog_has_the_equipment_texts_in_the_readers_language() -> None:
    texts = {c["id"]: c.get("text") for c in WORDS.catalog()["cards"]}
    assert texts["idol"] == "соперник сбрасывает своего воина с поля боя — по вашему выбору"
    assert texts["vityaz_1"] is None
    with i18n.use_lang("uk"):
        uk = {c["id"]: c.get("text") for c in WORDS.catalog()["cards"]}
    assert uk["idol"] and uk["idol"] != texts["idol"]
    assert WORDS.reason("five_tokens") == "пять кругляшей"
