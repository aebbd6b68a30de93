"""Межа card data: both house decks, the omens and the fields (rules/mezha.md §Houses and decks, §Omens).

Cards are numbered by a *kind* index ``0..19``: Ольха's table rows are ``0..9`` and Горн's ``10..19``, each in
the rules' table order. The ``id`` strings (D18) are what actions, views, positions and logs use; the kind
index is the engine's fast internal handle. The flag tuples (``STRENGTH``, ``HIDDEN``, …) are indexed by kind.

    >>> CARDS[CARD_INDEX["pushkar"]].shot
    3
"""

from __future__ import annotations

from dataclasses import dataclass

HOUSES: tuple[str, str] = ("olkha", "gorn")
"""House ids; the house index used internally is the position in this tuple."""

HOUSE_NAMES: dict[str, str] = {"olkha": "Дом Ольхи", "gorn": "Дом Горна"}

FIELD_NAMES: tuple[str, str, str] = ("Луг", "Брод", "Холм")
"""Field index 0, 1, 2 (rules/mezha.md §Overview)."""


@dataclass(frozen=True, slots=True)
class CardDef:
    """One row of a house table. ``strength`` is None for a tactic (приём)."""

    id: str
    name: str
    house: str
    strength: int | None
    abilities: tuple[str, ...]
    copies: int
    shot: int = 0  # выстрел damage (Арбалетчик 2, Пушкарь 3), 0 when none

    @property
    def is_tactic(self) -> bool:
        return self.strength is None

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "house": self.house,
            "strength": self.strength,
            "abilities": list(self.abilities),
            "copies": self.copies,
            "shot": self.shot,
        }


# Ability ids (rules/mezha.md §Abilities): тайник=cache, корни=roots, росток=sprout, одиночка=loner,
# клич=rally, выстрел=shot, щит=shield, гонец=messenger; tactics are "rosa" and "podzhog".
CACHE, ROOTS, SPROUT, LONER, RALLY, SHOT, SHIELD, MESSENGER = (
    "cache",
    "roots",
    "sprout",
    "loner",
    "rally",
    "shot",
    "shield",
    "messenger",
)
TACTIC = "tactic"

# rules/mezha.md §Houses and decks — Дом Ольхи
OLKHA: tuple[CardDef, ...] = (
    CardDef("ten_v_listve", "Тень в листве", "olkha", 5, (CACHE,), 3),
    CardDef("seyanets", "Сеянец", "olkha", 3, (SPROUT,), 3),
    CardDef("stary_dub", "Старый дуб", "olkha", 5, (ROOTS,), 2),
    CardDef("otshelnik", "Отшельник", "olkha", 3, (LONER,), 2),
    CardDef("sova", "Сова-дозорная", "olkha", 3, (CACHE, SPROUT), 2),
    CardDef("bortnik", "Бортник", "olkha", 4, (), 2),
    CardDef("khozyayka_roshchi", "Хозяйка рощи", "olkha", 6, (ROOTS,), 1),
    CardDef("pen_velikan", "Пень-великан", "olkha", 8, (), 1),
    CardDef("vedunya", "Ведунья", "olkha", 2, (MESSENGER,), 2),
    CardDef("rosa", "Роса", "olkha", None, (TACTIC,), 2),
)

# rules/mezha.md §Houses and decks — Дом Горна
GORN: tuple[CardDef, ...] = (
    CardDef("podmasterye", "Подмастерье", "gorn", 2, (MESSENGER,), 3),
    CardDef("arbaletchik", "Арбалетчик", "gorn", 3, (SHOT,), 3, shot=2),
    CardDef("shchitonosets", "Щитоносец", "gorn", 4, (SHIELD,), 3),
    CardDef("znamenosets", "Знаменосец", "gorn", 2, (RALLY,), 2),
    CardDef("kuznets", "Кузнец", "gorn", 5, (), 2),
    CardDef("pushkar", "Пушкарь", "gorn", 3, (SHOT,), 2, shot=3),
    CardDef("master_gorna", "Мастер горна", "gorn", 5, (RALLY,), 1),
    CardDef("golem", "Голем-наковальня", "gorn", 8, (SHIELD,), 1),
    CardDef("liteyshchitsa", "Литейщица", "gorn", 4, (), 1),
    CardDef("podzhog", "Поджог", "gorn", None, (TACTIC,), 2),
)

CARDS: tuple[CardDef, ...] = OLKHA + GORN
"""All 20 kinds; ``CARDS[k]`` for kind index ``k``."""

CARD_INDEX: dict[str, int] = {c.id: k for k, c in enumerate(CARDS)}
"""Card id → kind index."""

HOUSE_KINDS: tuple[range, range] = (range(0, 10), range(10, 20))
"""Kind indexes of each house (by house index), in table order."""

ROSA = CARD_INDEX["rosa"]
PODZHOG = CARD_INDEX["podzhog"]

# Fast per-kind flags for the engine's hot path.
STRENGTH: tuple[int, ...] = tuple(c.strength or 0 for c in CARDS)
IS_TACTIC: tuple[bool, ...] = tuple(c.is_tactic for c in CARDS)
HIDDEN: tuple[bool, ...] = tuple(CACHE in c.abilities for c in CARDS)
HAS_ROOTS: tuple[bool, ...] = tuple(ROOTS in c.abilities for c in CARDS)
HAS_SPROUT: tuple[bool, ...] = tuple(SPROUT in c.abilities for c in CARDS)
HAS_LONER: tuple[bool, ...] = tuple(LONER in c.abilities for c in CARDS)
HAS_RALLY: tuple[bool, ...] = tuple(RALLY in c.abilities for c in CARDS)
HAS_SHIELD: tuple[bool, ...] = tuple(SHIELD in c.abilities for c in CARDS)
HAS_MESSENGER: tuple[bool, ...] = tuple(MESSENGER in c.abilities for c in CARDS)
SHOT_DAMAGE: tuple[int, ...] = tuple(c.shot for c in CARDS)
IDS: tuple[str, ...] = tuple(c.id for c in CARDS)
NO_ENTRY, LONER_ENTRY, RALLY_ENTRY, SHOT_ENTRY, MESSENGER_ENTRY = 0, 1, 2, 3, 4
ENTRY: tuple[int, ...] = tuple(
    LONER_ENTRY
    if HAS_LONER[k]
    else RALLY_ENTRY
    if HAS_RALLY[k]
    else SHOT_ENTRY
    if SHOT_DAMAGE[k]
    else MESSENGER_ENTRY
    if HAS_MESSENGER[k]
    else NO_ENTRY
    for k in range(len(CARDS))
)
"""What a unit does on entry besides Оттепель and росток (D14 steps 4-5): одиночка, клич, выстрел, гонец or
nothing (no card has two of them)."""
assert all(
    HAS_LONER[k] + HAS_RALLY[k] + bool(SHOT_DAMAGE[k]) + HAS_MESSENGER[k] <= 1 for k in range(len(CARDS))
)

CACHE_KINDS: tuple[int, ...] = tuple(k for k in range(len(CARDS)) if HIDDEN[k])
"""The тайник kinds (Тень в листве, Сова-дозорная): the only cards that can be face down."""


def deck_list(house: int) -> list[int]:
    """The unshuffled deck of a house: table rows top to bottom, each row's copies consecutively
    (rules/mezha.md §Match setup, step 2)."""
    return list(HOUSE_DECKS[house])


HOUSE_DECKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k in HOUSE_KINDS[house] for _ in range(CARDS[k].copies)) for house in (0, 1)
)
""":func:`deck_list` of each house, as tuples."""


# rules/mezha.md §Omens — the shuffle input order of fairness.md (Оттепель, Засуха, Ярмарка, Гроза).
OMENS: tuple[tuple[str, str], ...] = (
    ("thaw", "Оттепель"),
    ("drought", "Засуха"),
    ("fair", "Ярмарка"),
    ("storm", "Гроза"),
)
THAW, DROUGHT, FAIR, STORM = 0, 1, 2, 3
OMEN_IDS: tuple[str, ...] = tuple(o[0] for o in OMENS)
OMEN_INDEX: dict[str, int] = {o: i for i, o in enumerate(OMEN_IDS)}

HAND_LIMIT = 10  # D5
START_HAND = 8  # §Match setup, step 4
SEASON_DRAW = 2  # §Between seasons
HALF_SLOTS = 4  # §A season
DROUGHT_SLOTS = 3  # §Omens — Засуха
THAW_BONUS = 2
LONER_BONUS = 3
LIGHTNING_DAMAGE = 3  # D2
PODZHOG_DAMAGE = 2


def catalog() -> dict[str, object]:
    """Static data for the UI: houses, cards (in table order), omens and field names."""
    return {
        "houses": [{"id": h, "name": HOUSE_NAMES[h]} for h in HOUSES],
        "cards": [c.to_json() for c in CARDS],
        "omens": [{"id": i, "name": n} for i, n in OMENS],
        "fields": list(FIELD_NAMES),
        "hand_limit": HAND_LIMIT,
    }
