"""Russian words for event texts (the match log reads «Мечник атакует Пикинёра: −1 монета»).

Hexes are named as the board draws them (``hex_label``): a row letter А…Ж from the top (r = −3 … 3)
and the hex's number inside its row from the left, like a chess board's coordinates: the centre is «Г4».
"""

from __future__ import annotations

from duelclub.games.warchest.board import HEXES, IS_LOCATION, RADIUS
from duelclub.games.warchest.units import UNIT

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


def hex_ru(h: int) -> str:
    """A hex in a log line: its board label, «локация …» for a location."""
    return f"локацию {HEX_LABELS[h]}" if IS_LOCATION[h] else HEX_LABELS[h]


def done(t: str, masc: str, fem: str) -> str:
    """A past participle agreeing with the unit name («Мечник отравлен», «Кавалерия отравлена»)."""
    return f"{nom(t)} {fem if t in _FEMININE else masc}"


def coins_ru(n: int) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return f"{n} монета"
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return f"{n} монеты"
    return f"{n} монет"
