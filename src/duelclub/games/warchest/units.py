"""Unit types, coin kinds and royal decrees as data (rules/warchest.md §3, §11.2).

Coin kinds are strings: a unit type id (``"archer"`` …), ``"royal"``, ``"decoy:infiltrator"`` or
``"decoy:skirmisher"``. ``COIN_ORDER`` is the canonical order of fairness.md (unit types in §3 table
order, then the Royal coin, then Infiltrator decoys, then Skirmisher decoys).
"""

from __future__ import annotations

from dataclasses import dataclass

from duelclub.i18n import N_

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
             N_("Атакуйте юнита на расстоянии двух полей — промежуточное поле может быть занято."),
             N_("Лучник атакует только своей тактикой.")),
    UnitType("berserker", "Берсерк", "Berserker", 5, BASE, "",
             N_("После манёвра Берсерк может выполнить манёвр снова, сбросив с себя усиленную монету. "
             "Можно повторять, но последнюю монету снимать нельзя.")),
    UnitType("cavalry", "Кавалерия", "Cavalry", 4, BASE, N_("Переместитесь, затем атакуйте."), ""),
    UnitType("crossbowman", "Арбалетчик", "Crossbowman", 5, BASE,
             N_("Атакуйте юнита на расстоянии двух полей по прямой — промежуточное поле должно быть "
                "свободно."),
             ""),
    UnitType("ensign", "Знаменосец", "Ensign", 5, BASE,
             N_("Дружественный юнит в пределах двух полей от Знаменосца выполняет ход, оставаясь в пределах "
             "двух полей от него."), ""),
    UnitType("footman", "Пехотинец", "Footman", 5, BASE,
             N_("Выполните по одному манёвру каждым своим Пехотинцем."),
             N_("На поле можно держать двух Пехотинцев.")),
    UnitType("knight", "Рыцарь", "Knight", 4, BASE, "", N_("Рыцаря могут атаковать только усиленные юниты.")),
    UnitType("lancer", "Улан", "Lancer", 4, BASE,
             N_("Переместитесь на одно-два поля, затем атакуйте — всё по прямой."),
             N_("Улан атакует только своей тактикой.")),
    UnitType("light_cavalry", "Лёгкая кавалерия", "Light Cavalry", 5, BASE,
             N_("Переместитесь на два поля."), ""),
    UnitType("marshal", "Маршал", "Marshal", 5, BASE,
             N_("Дружественный юнит в пределах двух полей от Маршала атакует, если может."), ""),
    UnitType("mercenary", "Наёмник", "Mercenary", 5, BASE, "",
             N_("После найма Наёмника вы можете сразу выполнить им манёвр.")),
    UnitType("pikeman", "Пикинёр", "Pikeman", 4, BASE, "",
             N_("Когда Пикинёра атакует смежный юнит, снимите монету с атакующего.")),
    UnitType("royal_guard", "Королевская гвардия", "Royal Guard", 5, BASE,
             N_("Сбросьте королевскую монету: гвардия перемещается на расстояние до двух полей на локацию "
             "под вашим контролем."),
             N_("Когда гвардию атакуют, вы можете снять её монету из запаса, а не с юнита.")),
    UnitType("scout", "Разведчик", "Scout", 5, BASE, "",
             N_("Разведчика можно выставить рядом с любым дружественным юнитом.")),
    UnitType("swordsman", "Мечник", "Swordsman", 5, BASE, "", N_("После атаки Мечник может переместиться.")),
    UnitType("warrior_priest", "Воин-жрец", "Warrior Priest", 4, BASE, "",
             N_("После атаки или захвата локации возьмите монету из мешка и немедленно используйте её для "
             "любого действия.")),
    UnitType("bannerman", "Штандартоносец", "Bannerman", 5, NOBILITY, "",
             N_("После манёвра Штандартоносца вы можете передвинуть одного смежного вражеского юнита на одно "
             "поле.")),
    UnitType("bishop", "Епископ", "Bishop", 4, NOBILITY, N_("Наймите, затем переместитесь или атакуйте."),
             N_("Епископа не могут атаковать усиленные юниты.")),
    UnitType("earl", "Граф", "Earl", 5, NOBILITY,
             N_("Возьмите под контроль локацию, затем огласите указ без печати — даже уже оглашённый."),
             N_("Сразу после выставления Граф может переместиться.")),
    UnitType("herald", "Герольд", "Herald", 5, NOBILITY,
             N_("Усильте смежного неусиленного дружественного юнита монетой из запаса."),
             N_("После оглашения указа вы можете выполнить манёвр Герольдом.")),
    UnitType("infiltrator", "Лазутчик", "Infiltrator", 5, NIGHTFALL,
             N_("Переместитесь в смежную свободную локацию противника и возьмите её под контроль."),
             N_("Когда Лазутчик берёт локацию под контроль, положите монету-обманку Лазутчика в сброс "
             "противника.")),
    UnitType("skirmisher", "Застрельщик", "Skirmisher", 5, NIGHTFALL,
             N_("Переместитесь на одно-два поля через свободные поля, закончив рядом с вражеским юнитом."),
             N_("Когда Застрельщика атакуют, вы можете положить обманку Застрельщика в сброс атакующего — "
             "монета с юнита не снимается.")),
    UnitType("assassin", "Убийца", "Assassin", 4, NIGHTFALL,
             N_("Переместитесь на одно поле, затем отравите смежного вражеского юнита."),
             N_("После атаки Убийцы по отравленному юниту дополнительно уберите монету этого юнита из "
             "запаса — из игры.")),
    UnitType("saboteur", "Диверсант", "Saboteur", 5, NIGHTFALL,
             N_("Отравите вражеского юнита на расстоянии одного-двух полей по прямой."),
             N_("После найма Диверсанта вы можете сразу бесплатно отравить цель его тактикой.")),
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
    Decree("enlist", "Набор", "Enlist", N_("Наймите 1 или 2 монеты из запаса, одну за другой.")),
    Decree("redeploy", "Передислокация", "Redeploy",
           N_("Переставьте свой юнит (всю стопку) на другое поле, куда его можно было бы выставить.")),
    Decree("reinforce", "Подкрепление", "Reinforce", N_("Верните 1 свою выбывшую монету в запас.")),
    Decree("sortie", "Вылазка", "Sortie",
           N_("Ваш юнит на локации под вашим контролем атакует смежного врага.")),
    Decree("forced_march", "Марш-бросок", "Forced March",
           N_("Ваш юнит перемещается на 1–2 поля (даже отравленный).")),
    Decree("fortify", "Укрепление", "Fortify", N_("Положите монету из запаса на вашего юнита того же типа.")),
    Decree("claim", "Притязание", "Claim",
           N_("Ваш юнит на не вашей локации берёт её под контроль.")),
)  # fmt: skip
DECREE: dict[str, Decree] = {d.id: d for d in DECREES}
DECREE_IDS: tuple[str, ...] = tuple(d.id for d in DECREES)
