"""Russian words for event texts (the match log reads «Мечник атакует Пикинёра: −1 монета»)."""

from __future__ import annotations

from duelclub.games.warchest.board import HEXES
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


def hex_ru(h: int) -> str:
    q, r = HEXES[h]
    return f"({q},{r})"


def coins_ru(n: int) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return f"{n} монета"
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return f"{n} монеты"
    return f"{n} монет"
