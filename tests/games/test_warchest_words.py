"""The match log's words (words.py): hexes by the labels the board shows, unit names declined.

QA found «Волк: выставляет Граф на (-1,-2)»: axial coordinates the board never shows, and a name not declined.
"""

from __future__ import annotations

import re

from warchest_helpers import H, R, W, act, make, play, put

from duelclub import i18n
from duelclub.games.warchest import view, words
from duelclub.games.warchest.board import HEXES, IS_LOCATION
from duelclub.games.warchest.game import WarchestGame
from duelclub.games.warchest.words import HEX_LABELS, hex_label, hex_ru
from duelclub.i18n import N_

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


def _seen(events: list[dict[str, object]]) -> str:
    """The events as a player of the match reads them (``event_view``) in the current language."""
    return " | ".join(str(view.event_view(None, e, 0)["text"]) for e in events)  # type: ignore[arg-type]


def test_the_log_is_rendered_in_the_readers_language() -> None:
    """The engine keeps the Russian text; each reader gets the words in their own language (Ukrainian:
    unit names stay as the rules give them, quoted where Russian declines them), and ``say`` stays home."""
    s = make(["swordsman"], ["pikeman"], hand={"swordsman": 1})
    put(s, H(0, 0), W, "swordsman")
    put(s, H(1, 0), R, "pikeman")
    with i18n.use_lang("uk"):  # the request that applies the action does not choose the stored language
        events = play(s, act("attack", "swordsman", H(0, 0), target=H(1, 0)))
    assert "Мечник атакует Пикинёра" in _texts(events)
    assert "Волк: Мечник атакует Пикинёра" in _seen(events)
    with i18n.use_lang("uk"):
        text = _seen(events)
        assert "Волк: Мечник атакує «Пикинёр»" in text, text
        assert "Ворон: Пикинёр знімає монету з «Мечник»" in text, text
        assert "(контратака: «Пикинёр»)" in text, text
    assert all("say" not in view.event_view(None, e, 0) for e in events)  # type: ignore[arg-type]


def test_locations_and_counted_coins_in_ukrainian() -> None:
    s = make(["swordsman"], ["knight"], hand={"swordsman": 1})
    put(s, H(0, -1), W, "swordsman")
    events = play(s, act("control", "swordsman", H(0, -1)))
    with i18n.use_lang("uk"):
        assert "Мечник бере під контроль локацію В3" in _seen(events)
        drawn = words.say(N_("раунд %(round)s: тянет %(coins)s"), round=2, coins=words.coins(2))
        assert words.render(drawn) == "раунд 2: тягне 2 монети"
    drawn = words.say(N_("раунд %(round)s: тянет %(coins)s"), round=2, coins=words.coins(5))
    assert words.render(drawn) == "раунд 2: тянет 5 монет"
