"""Unit types, coin kinds and royal decrees as data (rules/warchest.md §3, §11.2).

Coin kinds are strings: a unit type id (``"archer"`` …), ``"royal"``, ``"decoy:infiltrator"`` or
``"decoy:skirmisher"``. ``COIN_ORDER`` is the canonical order of fairness.md (unit types in §3 table
order, then the Royal coin, then Infiltrator decoys, then Skirmisher decoys).
"""

from __future__ import annotations

from dataclasses import dataclass

BASE, NOBILITY, NIGHTFALL = "base", "nobility", "nightfall"


@dataclass(frozen=True, slots=True)
class UnitType:
    """One of the 24 unit types: id, names (proper names, as the rules give them), coin count and expansion
    (§3.4). Its card texts are words: ``duelclub.words.warchest``."""

    id: str
    ru: str
    en: str
    coins: int
    expansion: str


UNIT_TYPES: tuple[UnitType, ...] = (
    UnitType("archer", "Лучник", "Archer", 4, BASE),
    UnitType("berserker", "Берсерк", "Berserker", 5, BASE),
    UnitType("cavalry", "Кавалерия", "Cavalry", 4, BASE),
    UnitType("crossbowman", "Арбалетчик", "Crossbowman", 5, BASE),
    UnitType("ensign", "Знаменосец", "Ensign", 5, BASE),
    UnitType("footman", "Пехотинец", "Footman", 5, BASE),
    UnitType("knight", "Рыцарь", "Knight", 4, BASE),
    UnitType("lancer", "Улан", "Lancer", 4, BASE),
    UnitType("light_cavalry", "Лёгкая кавалерия", "Light Cavalry", 5, BASE),
    UnitType("marshal", "Маршал", "Marshal", 5, BASE),
    UnitType("mercenary", "Наёмник", "Mercenary", 5, BASE),
    UnitType("pikeman", "Пикинёр", "Pikeman", 4, BASE),
    UnitType("royal_guard", "Королевская гвардия", "Royal Guard", 5, BASE),
    UnitType("scout", "Разведчик", "Scout", 5, BASE),
    UnitType("swordsman", "Мечник", "Swordsman", 5, BASE),
    UnitType("warrior_priest", "Воин-жрец", "Warrior Priest", 4, BASE),
    UnitType("bannerman", "Штандартоносец", "Bannerman", 5, NOBILITY),
    UnitType("bishop", "Епископ", "Bishop", 4, NOBILITY),
    UnitType("earl", "Граф", "Earl", 5, NOBILITY),
    UnitType("herald", "Герольд", "Herald", 5, NOBILITY),
    UnitType("infiltrator", "Лазутчик", "Infiltrator", 5, NIGHTFALL),
    UnitType("skirmisher", "Застрельщик", "Skirmisher", 5, NIGHTFALL),
    UnitType("assassin", "Убийца", "Assassin", 4, NIGHTFALL),
    UnitType("saboteur", "Диверсант", "Saboteur", 5, NIGHTFALL),
)

UNIT: dict[str, UnitType] = {u.id: u for u in UNIT_TYPES}
UNIT_IDS: tuple[str, ...] = tuple(u.id for u in UNIT_TYPES)
ROYAL = "royal"
DECOY_INF = "decoy:infiltrator"
DECOY_SKI = "decoy:skirmisher"
COIN_ORDER: tuple[str, ...] = (*UNIT_IDS, ROYAL, DECOY_INF, DECOY_SKI)
COIN_RANK: dict[str, int] = {c: i for i, c in enumerate(COIN_ORDER)}
DECOYS_PER_UNIT = 3  # D27

TACTIC_ONLY_ATTACKERS = frozenset({"archer", "lancer"})  # §8.1, §8.8
ASSASSIN_SEAL, SABOTEUR_SEAL = 1, 2  # poison seal bits on a unit (§12.1)
SEAL_OF: dict[str, int] = {"assassin": ASSASSIN_SEAL, "saboteur": SABOTEUR_SEAL}


def pool_types(nobility: bool, nightfall: bool) -> list[str]:
    """The draft pool before any shuffle: types in play in §3 table order (§5 step 4)."""
    allowed = {BASE} | ({NOBILITY} if nobility else set()) | ({NIGHTFALL} if nightfall else set())
    return [u.id for u in UNIT_TYPES if u.expansion in allowed]


def sort_coins(coins: list[str]) -> list[str]:
    """Coins in canonical order (fairness.md)."""
    return sorted(coins, key=COIN_RANK.__getitem__)


@dataclass(frozen=True, slots=True)
class Decree:
    """A royal decree (§11.2): id and names (its text: ``duelclub.words.warchest``)."""

    id: str
    ru: str
    en: str


DECREES: tuple[Decree, ...] = (
    Decree("enlist", "Набор", "Enlist"),
    Decree("redeploy", "Передислокация", "Redeploy"),
    Decree("reinforce", "Подкрепление", "Reinforce"),
    Decree("sortie", "Вылазка", "Sortie"),
    Decree("forced_march", "Марш-бросок", "Forced March"),
    Decree("fortify", "Укрепление", "Fortify"),
    Decree("claim", "Притязание", "Claim"),
)
DECREE: dict[str, Decree] = {d.id: d for d in DECREES}
DECREE_IDS: tuple[str, ...] = tuple(d.id for d in DECREES)
