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
    """One of the 24 unit types: id, names, coin count, expansion and its card texts (§3.4)."""

    id: str
    ru: str
    en: str
    coins: int
    expansion: str
    tactic: str
    prop: str


UNIT_TYPES: tuple[UnitType, ...] = (
    UnitType("archer", "Лучник", "Archer", 4, BASE,
             "Атакуйте юнита на расстоянии двух полей — промежуточное поле может быть занято.",
             "Лучник атакует только своей тактикой."),
    UnitType("berserker", "Берсерк", "Berserker", 5, BASE, "",
             "После манёвра Берсерк может выполнить манёвр снова, сбросив с себя усиленную монету. "
             "Можно повторять, но последнюю монету снимать нельзя."),
    UnitType("cavalry", "Кавалерия", "Cavalry", 4, BASE, "Переместитесь, затем атакуйте.", ""),
    UnitType("crossbowman", "Арбалетчик", "Crossbowman", 5, BASE,
             "Атакуйте юнита на расстоянии двух полей по прямой — промежуточное поле должно быть свободно.",
             ""),
    UnitType("ensign", "Знаменосец", "Ensign", 5, BASE,
             "Дружественный юнит в пределах двух полей от Знаменосца выполняет ход, оставаясь в пределах "
             "двух полей от него.", ""),
    UnitType("footman", "Пехотинец", "Footman", 5, BASE,
             "Выполните по одному манёвру каждым своим Пехотинцем.",
             "На поле можно держать двух Пехотинцев."),
    UnitType("knight", "Рыцарь", "Knight", 4, BASE, "", "Рыцаря могут атаковать только усиленные юниты."),
    UnitType("lancer", "Улан", "Lancer", 4, BASE,
             "Переместитесь на одно-два поля, затем атакуйте — всё по прямой.",
             "Улан атакует только своей тактикой."),
    UnitType("light_cavalry", "Лёгкая кавалерия", "Light Cavalry", 5, BASE, "Переместитесь на два поля.", ""),
    UnitType("marshal", "Маршал", "Marshal", 5, BASE,
             "Дружественный юнит в пределах двух полей от Маршала атакует, если может.", ""),
    UnitType("mercenary", "Наёмник", "Mercenary", 5, BASE, "",
             "После найма Наёмника вы можете сразу выполнить им манёвр."),
    UnitType("pikeman", "Пикинёр", "Pikeman", 4, BASE, "",
             "Когда Пикинёра атакует смежный юнит, снимите монету с атакующего."),
    UnitType("royal_guard", "Королевская гвардия", "Royal Guard", 5, BASE,
             "Сбросьте королевскую монету: гвардия перемещается на расстояние до двух полей на локацию "
             "под вашим контролем.",
             "Когда гвардию атакуют, вы можете снять её монету из запаса, а не с юнита."),
    UnitType("scout", "Разведчик", "Scout", 5, BASE, "",
             "Разведчика можно выставить рядом с любым дружественным юнитом."),
    UnitType("swordsman", "Мечник", "Swordsman", 5, BASE, "", "После атаки Мечник может переместиться."),
    UnitType("warrior_priest", "Воин-жрец", "Warrior Priest", 4, BASE, "",
             "После атаки или захвата локации возьмите монету из мешка и немедленно используйте её для "
             "любого действия."),
    UnitType("bannerman", "Штандартоносец", "Bannerman", 5, NOBILITY, "",
             "После манёвра Штандартоносца вы можете передвинуть одного смежного вражеского юнита на одно "
             "поле."),
    UnitType("bishop", "Епископ", "Bishop", 4, NOBILITY, "Наймите, затем переместитесь или атакуйте.",
             "Епископа не могут атаковать усиленные юниты."),
    UnitType("earl", "Граф", "Earl", 5, NOBILITY,
             "Возьмите под контроль локацию, затем огласите указ без печати — даже уже оглашённый.",
             "Сразу после выставления Граф может переместиться."),
    UnitType("herald", "Герольд", "Herald", 5, NOBILITY,
             "Усильте смежного неусиленного дружественного юнита монетой из запаса.",
             "После оглашения указа вы можете выполнить манёвр Герольдом."),
    UnitType("infiltrator", "Лазутчик", "Infiltrator", 5, NIGHTFALL,
             "Переместитесь в смежную свободную локацию противника и возьмите её под контроль.",
             "Когда Лазутчик берёт локацию под контроль, положите монету-обманку Лазутчика в сброс "
             "противника."),
    UnitType("skirmisher", "Застрельщик", "Skirmisher", 5, NIGHTFALL,
             "Переместитесь на одно-два поля через свободные поля, закончив рядом с вражеским юнитом.",
             "Когда Застрельщика атакуют, вы можете положить обманку Застрельщика в сброс атакующего — "
             "монета с юнита не снимается."),
    UnitType("assassin", "Убийца", "Assassin", 4, NIGHTFALL,
             "Переместитесь на одно поле, затем отравите смежного вражеского юнита.",
             "После атаки Убийцы по отравленному юниту дополнительно уберите монету этого юнита из "
             "запаса — из игры."),
    UnitType("saboteur", "Диверсант", "Saboteur", 5, NIGHTFALL,
             "Отравите вражеского юнита на расстоянии одного-двух полей по прямой.",
             "После найма Диверсанта вы можете сразу бесплатно отравить цель его тактикой."),
)  # fmt: skip

UNIT: dict[str, UnitType] = {u.id: u for u in UNIT_TYPES}
UNIT_IDS: tuple[str, ...] = tuple(u.id for u in UNIT_TYPES)
ROYAL = "royal"
DECOY_INF = "decoy:infiltrator"
DECOY_SKI = "decoy:skirmisher"
COIN_ORDER: tuple[str, ...] = (*UNIT_IDS, ROYAL, DECOY_INF, DECOY_SKI)
COIN_RANK: dict[str, int] = {c: i for i, c in enumerate(COIN_ORDER)}
DECOY_OF: dict[str, str] = {"infiltrator": DECOY_INF, "skirmisher": DECOY_SKI}
DECOYS_PER_UNIT = 3  # D27

NO_TACTIC = frozenset(
    {"berserker", "knight", "mercenary", "pikeman", "scout", "swordsman", "warrior_priest", "bannerman"}
)
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


def coin_ru(coin: str) -> str:
    """The Russian name of a coin kind (for event texts)."""
    if coin == ROYAL:
        return "Королевская монета"
    if coin == DECOY_INF:
        return "Обманка Лазутчика"
    if coin == DECOY_SKI:
        return "Обманка Застрельщика"
    return UNIT[coin].ru


@dataclass(frozen=True, slots=True)
class Decree:
    """A royal decree (§11.2)."""

    id: str
    ru: str
    en: str
    text: str


DECREES: tuple[Decree, ...] = (
    Decree("enlist", "Набор", "Enlist", "Наймите 1 или 2 монеты из запаса, одну за другой."),
    Decree("redeploy", "Передислокация", "Redeploy",
           "Переставьте свой юнит (всю стопку) на другое поле, куда его можно было бы выставить."),
    Decree("reinforce", "Подкрепление", "Reinforce", "Верните 1 свою выбывшую монету в запас."),
    Decree("sortie", "Вылазка", "Sortie",
           "Ваш юнит на локации под вашим контролем атакует смежного врага."),
    Decree("forced_march", "Марш-бросок", "Forced March",
           "Ваш юнит перемещается на 1–2 поля (даже отравленный)."),
    Decree("fortify", "Укрепление", "Fortify", "Положите монету из запаса на вашего юнита того же типа."),
    Decree("claim", "Притязание", "Claim",
           "Ваш юнит на не вашей локации берёт её под контроль."),
)  # fmt: skip
DECREE: dict[str, Decree] = {d.id: d for d in DECREES}
DECREE_IDS: tuple[str, ...] = tuple(d.id for d in DECREES)
