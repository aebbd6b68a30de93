"""Words for event texts (the match log reads «Мечник атакует Пикинёра: −1 монета»).

An event carries its words as data, ``say``: ``[msgid, {name: argument}]`` (JSON), the msgid a Russian
template with ``%(name)s`` placeholders marked for the catalog with ``N_``. The engine stores the Russian
``text`` (``render(say, "ru")``, whatever language the request that applied the action had);
``view.event_view`` renders ``say`` again in the reader's language (``render(say)``), so two players of one
match each read their own language. Arguments are plain values or typed references rendered per language:
``unit(t, case)`` (a unit's name is a proper name, as the rules give it; Russian declines it, Ukrainian quotes
it where Russian declines), ``hex_(h)``, ``coin(c)``, ``coins(n)`` (a counted phrase) and ``decree(d)``.

Hexes are named as the board draws them (``hex_label``): a row letter А…Ж from the top (r = −3 … 3)
and the hex's number inside its row from the left, like a chess board's coordinates: the centre is «Г4».
"""

from __future__ import annotations

from typing import Any

from duelclub import i18n
from duelclub.games.warchest.board import HEXES, IS_LOCATION, RADIUS
from duelclub.games.warchest.units import DECREE, UNIT, coin_ru
from duelclub.i18n import N_

SIDE_RU = ("Волк", "Ворон")

_ACC = {
    "cavalry": "Кавалерию",
    "light_cavalry": "Лёгкую кавалерию",
    "royal_guard": "Королевскую гвардию",
    "warrior_priest": "Воина-жреца",
    "assassin": "Убийцу",
    "ensign": "Знаменосца",
    "footman": "Пехотинца",
    "knight": "Рыцаря",
    "bannerman": "Штандартоносца",
}
_GEN = {
    "cavalry": "Кавалерии",
    "light_cavalry": "Лёгкой кавалерии",
    "royal_guard": "Королевской гвардии",
    "warrior_priest": "Воина-жреца",
    "assassin": "Убийцы",
    "ensign": "Знаменосца",
    "footman": "Пехотинца",
    "knight": "Рыцаря",
    "bannerman": "Штандартоносца",
}


def nom(t: str) -> str:
    return UNIT[t].ru


def acc(t: str) -> str:
    """Accusative («атакует Пикинёра»)."""
    return _ACC.get(t) or UNIT[t].ru + "а"


def gen(t: str) -> str:
    """Genitive («снимает монету с Мечника»)."""
    return _GEN.get(t) or UNIT[t].ru + "а"


_ROWS = "АБВГДЕЖ"
_FEMININE = frozenset({"cavalry", "light_cavalry", "royal_guard"})


def hex_label(h: int) -> str:
    """The label the board shows on hex ``h`` («А1» … «Ж4», the centre «Г4»)."""
    q, r = HEXES[h]
    first_q = max(-RADIUS, -RADIUS - r)
    return f"{_ROWS[r + RADIUS]}{q - first_q + 1}"


HEX_LABELS: tuple[str, ...] = tuple(hex_label(h) for h in range(len(HEXES)))


_LOCATION = N_("локацию %(hex)s")


def hex_ru(h: int) -> str:
    """A hex in a log line: its board label, «локация …» for a location."""
    return _LOCATION % {"hex": HEX_LABELS[h]} if IS_LOCATION[h] else HEX_LABELS[h]


def is_feminine(t: str) -> bool:
    return t in _FEMININE


Say = list[Any]


def say(msgid: str, **args: Any) -> Say:
    """An event's words: ``msgid`` (marked with ``N_``) and its arguments."""
    return [msgid, args]


def done(t: str, masc: str, fem: str) -> Say:
    """A past participle agreeing with the unit name («Мечник отравлен», «Кавалерия отравлена»): ``masc``
    and ``fem`` are whole msgids with a ``%(unit)s`` placeholder."""
    return say(fem if t in _FEMININE else masc, unit=unit(t))


def unit(t: str, case: str = "nom") -> list[Any]:
    """A unit type's name in ``case``: "nom", "acc" («атакует Пикинёра») or "gen" («с Мечника»)."""
    return ["unit", t, case]


def hex_(h: int) -> list[Any]:
    return ["hex", h]


def coin(c: str) -> list[Any]:
    return ["coin", c]


def coins(n: int) -> list[Any]:
    """«1 монета», «3 монеты» — counted in the reader's language."""
    return ["coins", n]


def decree(d: str) -> list[Any]:
    return ["decree", d]


def _arg(a: Any, lang: str) -> Any:
    if not isinstance(a, list):
        return a
    kind, value = a[0], a[1]
    if kind == "unit":
        case = a[2]
        if case == "nom":
            return nom(value)
        if lang == i18n.DEFAULT_LANG:
            return acc(value) if case == "acc" else gen(value)
        return f"«{nom(value)}»"  # a proper name Ukrainian does not decline: quoted
    if kind == "hex":
        if not IS_LOCATION[value]:
            return HEX_LABELS[value]
        if lang == i18n.DEFAULT_LANG:
            return hex_ru(value)
        return i18n.gettext(_LOCATION, hex=HEX_LABELS[value])
    if kind == "coin":
        return coin_ru(value)
    if kind == "coins":
        if lang == i18n.DEFAULT_LANG:
            return coins_ru(value)
        return i18n.ngettext("%(n)s монета", "%(n)s монеты", "%(n)s монет", value)
    if kind == "decree":
        return DECREE[value].ru
    raise ValueError(f"unknown argument {a!r}")


def render(words: Say, lang: str | None = None) -> str:
    """``words`` as text in ``lang`` (default: the current language, ``i18n.current_lang``; a language other
    than Russian must be the current one)."""
    lang = lang or i18n.current_lang()
    msgid, args = words
    values = {k: _arg(v, lang) for k, v in args.items()}
    if lang == i18n.DEFAULT_LANG:
        return str(msgid) % values if values else str(msgid)
    return i18n.gettext(msgid, **values)


def event_text(side: int | None, words: Say, lang: str | None = None) -> str:
    """An event's log line: «Волк: …» (side names are proper names, the same in every language)."""
    body = render(words, lang)
    return body if side is None else f"{SIDE_RU[side]}: {body}"


def coins_ru(n: int) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return f"{n} монета"
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return f"{n} монеты"
    return f"{n} монет"
