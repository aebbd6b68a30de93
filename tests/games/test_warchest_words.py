"""The match log's words (duelclub/words/warchest.py): hexes by the labels the board shows, unit names
declined, participles agreeing, each reader's language and side.

QA found «Волк: выставляет Граф на (-1,-2)»: axial coordinates the board never shows, and a name not declined.
The engine emits data only (kinds and fields); the words turn the events as a seat sees them into lines.
"""

from __future__ import annotations

import re

from warchest_helpers import H, R, W, act, make, play, put

from duelclub import i18n
from duelclub.games.warchest import view
from duelclub.games.warchest.board import HEXES, IS_LOCATION
from duelclub.words.warchest import HEX_LABELS, WORDS, hex_label, hex_words

COORDS = re.compile(r"\(-?\d+, ?-?\d+\)")


def _texts(events: list[dict[str, object]], seat: int | None = None) -> str:
    """The events' log lines as ``seat`` reads them (None: a spectator) in the current language."""
    seen = [view.event_view(None, e, seat) for e in events]  # type: ignore[arg-type]
    return " | ".join(str(x["text"]) for x in WORDS.event_lines(seen, seat) if x is not None)


def test_every_hex_has_a_distinct_short_label_in_the_catalog() -> None:
    assert len(set(HEX_LABELS)) == len(HEXES) == 37
    assert all(re.fullmatch(r"[АБВГДЕЖ][1-7]", x) for x in HEX_LABELS)
    assert hex_label(H(0, 0)) == "Г4"  # the centre: row Г (r = 0), fourth of seven
    assert hex_label(H(0, -3)) == "А1" and hex_label(H(3, -3)) == "А4" and hex_label(H(0, 3)) == "Ж4"
    assert WORDS.catalog()["hex_labels"] == list(HEX_LABELS)


def test_a_location_is_named_as_such_in_the_log() -> None:
    assert all(hex_words(h).startswith("локацию ") == IS_LOCATION[h] for h in range(len(HEXES)))


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


def test_the_log_is_rendered_in_the_readers_language() -> None:
    """The engine emits data; each reader gets the words in their own language (Ukrainian: unit names stay
    as the rules give them, quoted where Russian declines them)."""
    s = make(["swordsman"], ["pikeman"], hand={"swordsman": 1})
    put(s, H(0, 0), W, "swordsman")
    put(s, H(1, 0), R, "pikeman")
    with i18n.use_lang("uk"):  # the request that applies the action does not matter: events are data
        events = play(s, act("attack", "swordsman", H(0, 0), target=H(1, 0)))
    assert not any("text" in e or "say" in e for e in events)
    assert "Волк: Мечник атакует Пикинёра" in _texts(events)
    with i18n.use_lang("uk"):
        text = _texts(events)
        assert "Волк: Мечник атакує «Пикинёр»" in text, text
        assert "Ворон: Пикинёр знімає монету з «Мечник»" in text, text
        assert "(контратака: «Пикинёр»)" in text, text


def test_locations_and_counted_coins_in_ukrainian() -> None:
    s = make(["swordsman"], ["knight"], hand={"swordsman": 1})
    put(s, H(0, -1), W, "swordsman")
    events = play(s, act("control", "swordsman", H(0, -1)))
    draws = [{"kind": "draw", "seat": 0, "side": 0, "round": 2, "count": n} for n in (2, 5, 1, 21)]
    assert _texts(draws) == (
        "Волк: раунд 2: тянет 2 монеты | Волк: раунд 2: тянет 5 монет | Волк: раунд 2: тянет 1 монета"
        " | Волк: раунд 2: тянет 21 монета"
    )
    with i18n.use_lang("uk"):
        assert "Мечник бере під контроль локацію В3" in _texts(events)
        assert _texts(draws[:2]) == "Волк: раунд 2: тягне 2 монети | Волк: раунд 2: тягне 5 монет"


def test_log_marks_the_readers_side() -> None:
    """QA: the log said «Волк: …» / «Ворон: …» without telling the reader which side is theirs. A player reads
    «Волк (вы): …» on their own side's lines (the resignation too); a spectator reads the bare side names."""
    events = [
        {
            "kind": "move",
            "seat": 1,
            "side": 0,
            "unit": H(0, 0),
            "to": H(1, 0),
            "type": "swordsman",
            "how": "move",
        },
        {"kind": "damage", "seat": 0, "side": 1, "hex": H(1, 0), "type": "pikeman"},
        {"kind": "resign", "seat": 0, "side": 1},
    ]
    assert _texts(events, 1).split(" | ") == [
        "Волк (вы): Мечник перемещается на Г5",
        "Ворон: Пикинёр: −1 монета",
        "Ворон: сдаётся",
    ]
    assert _texts(events, 0).split(" | ") == [
        "Волк: Мечник перемещается на Г5",
        "Ворон (вы): Пикинёр: −1 монета",
        "Ворон (вы): сдаётся",
    ]
    assert _texts(events, None).split(" | ") == [
        "Волк: Мечник перемещается на Г5",
        "Ворон: Пикинёр: −1 монета",
        "Ворон: сдаётся",
    ]
    with i18n.use_lang("uk"):
        assert _texts(events[2:], 0) == "Ворон (ви): здається"
    assert WORDS.event_lines([{"kind": "win", "seat": 0, "side": 1}], 0) == [
        {"text": "Ворон (вы): все маркеры на поле — победа", "cls": "log-win"}
    ]


def test_private_coins_stay_out_of_the_words() -> None:
    """A face-down coin is named to nobody in the log (its owner sees it on the board)."""
    s = make(["swordsman"], ["knight"], hand={"swordsman": 1})
    events = play(s, act("pass", "swordsman"))
    assert events[0]["secret"] == {"coin": "swordsman"}
    for seat in (0, 1, None):
        assert _texts(events, seat).endswith(
            "Волк" + (" (вы)" if seat == s.seat_of(W) else "") + ": монета рубашкой вниз — пас"
        )
