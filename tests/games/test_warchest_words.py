"""The match log's words (words.py): hexes by the labels the board shows, unit names declined.

QA found «Волк: выставляет Граф на (-1,-2)»: axial coordinates the board never shows, and a name not declined.
"""

from __future__ import annotations

import re

from warchest_helpers import H, R, W, act, make, play, put

from duelclub.games.warchest.board import HEXES, IS_LOCATION
from duelclub.games.warchest.game import WarchestGame
from duelclub.games.warchest.words import HEX_LABELS, hex_label, hex_ru

COORDS = re.compile(r"\(-?\d+, ?-?\d+\)")


def _texts(events: list[dict[str, object]]) -> str:
    return " | ".join(str(e["text"]) for e in events)


def test_every_hex_has_a_distinct_short_label_in_the_catalog() -> None:
    assert len(set(HEX_LABELS)) == len(HEXES) == 37
    assert all(re.fullmatch(r"[АБВГДЕЖ][1-7]", x) for x in HEX_LABELS)
    assert hex_label(H(0, 0)) == "Г4"  # the centre: row Г (r = 0), fourth of seven
    assert hex_label(H(0, -3)) == "А1" and hex_label(H(3, -3)) == "А4" and hex_label(H(0, 3)) == "Ж4"
    assert WarchestGame().catalog()["hex_labels"] == list(HEX_LABELS)


def test_a_location_is_named_as_such_in_the_log() -> None:
    assert all(hex_ru(h).startswith("локацию ") == IS_LOCATION[h] for h in range(len(HEXES)))


def test_deploy_names_the_hex_by_its_label_and_declines_the_unit() -> None:
    s = make(["earl"], ["knight"], hand={"earl": 1})
    text = _texts(play(s, act("deploy", "earl", to=H(3, -2))))
    assert "выставляет Графа на локацию Б5" in text, text
    assert not COORDS.search(text)


def test_move_and_control_name_labels() -> None:
    s = make(["swordsman"], ["knight"], hand={"swordsman": 1})
    put(s, H(0, 0), W, "swordsman")
    text = _texts(play(s, act("move", "swordsman", H(0, 0), to=H(1, 0))))
    assert "Мечник перемещается на Г5" in text and not COORDS.search(text), text
    s = make(["swordsman"], ["knight"], hand={"swordsman": 1})
    put(s, H(0, -1), W, "swordsman")
    text = _texts(play(s, act("control", "swordsman", H(0, -1))))
    assert "Мечник берёт под контроль локацию В3" in text, text


def test_participles_agree_with_the_unit_and_recruit_declines() -> None:
    s = make(["saboteur"], ["cavalry"], hand={"saboteur": 1})
    put(s, H(0, 0), W, "saboteur")
    put(s, H(1, 0), R, "cavalry")
    text = _texts(play(s, act("tactic", "saboteur", H(0, 0), target=H(1, 0))))
    assert "Кавалерия отравлена" in text and "(а)" not in text, text
    assert "тактика Диверсанта" in text, text
    s = make(["royal_guard"], ["knight"], hand={"royal": 1})
    text = _texts(play(s, act("recruit", "royal", type="royal_guard")))
    assert "нанимает Королевскую гвардию" in text, text
