"""Артания и Куявия card data (rules/artania.md §Components, §Archetypes and counter-classes).

Both decks hold the same 33 cards (D8). A card is numbered by its *index* ``0..32`` in canonical deck order
(D32): the nine classes in class-table order, each as Десятник, Сотник, Тысячник (index ``3 * class + rank
- 1``); then Полководец, Стратег, Герой (27–29); then Нектар могущества, Идол гнева, Часы Базилевса (30–32).
Ids (D31) are what actions, views, positions and logs use; the index is the engine's fast handle, and a hand
is a 33-bit mask over it (bit ``i`` set = card ``i`` in hand), so "canonical order" is "ascending bit".

    >>> IDS[0], IDS[27], IDS[32]
    ('vityaz_1', 'polkovodets', 'chasy')
    >>> BONUS[CLASS_OF[INDEX["vityaz_1"]]][CLASS_OF[INDEX["razboynik_3"]]]
    2
"""

from __future__ import annotations

DECKS: tuple[str, str] = ("artania", "kuyavia")
DECK_NAMES: dict[str, str] = {"artania": "Артания", "kuyavia": "Куявия"}

# rules/artania.md §Components — class table: (id, name, archetype index A=0 B=1 C=2, position in archetype)
CLASSES: tuple[tuple[str, str, int, int], ...] = (
    ("vityaz", "Витязь", 0, 0),
    ("sledopyt", "Следопыт", 0, 1),
    ("berserk", "Берсерк", 0, 2),
    ("razboynik", "Разбойник", 1, 0),
    ("ratoborets", "Ратоборец", 1, 1),
    ("strazh", "Страж", 1, 2),
    ("charodey", "Чародей", 2, 0),
    ("volkhv", "Волхв", 2, 1),
    ("zaklinatel", "Заклинатель", 2, 2),
)
ARCHETYPES: tuple[str, str, str] = ("A", "B", "C")
RANKS: tuple[tuple[int, str], ...] = ((1, "Десятник"), (2, "Сотник"), (3, "Тысячник"))  # D1

# D2: the special warriors' strengths — one data table, so a printed-card correction is a one-line change.
SPECIALS: tuple[tuple[str, str, int], ...] = (
    ("polkovodets", "Полководец", 4),
    ("strateg", "Стратег", 4),
    ("geroy", "Герой", 4),
)
EQUIPMENT: tuple[tuple[str, str], ...] = (
    ("nektar", "Нектар могущества"),
    ("idol", "Идол гнева"),
    ("chasy", "Часы Базилевса"),
)  # what each does is words: duelclub.words.artania

N_CLASS_CARDS = 3 * len(CLASSES)  # 27
N_CARDS = N_CLASS_CARDS + len(SPECIALS) + len(EQUIPMENT)  # 33
NEKTAR, IDOL, CHASY = N_CARDS - 3, N_CARDS - 2, N_CARDS - 1
FULL_DECK_MASK = (1 << N_CARDS) - 1

IDS: tuple[str, ...] = (
    tuple(f"{cid}_{r}" for cid, _, _, _ in CLASSES for r, _ in RANKS)
    + tuple(s[0] for s in SPECIALS)
    + tuple(e[0] for e in EQUIPMENT)
)
INDEX: dict[str, int] = {cid: i for i, cid in enumerate(IDS)}

CLASS_OF: tuple[int, ...] = tuple(i // 3 if i < N_CLASS_CARDS else -1 for i in range(N_CARDS))
"""Class index of a card, -1 for a special warrior or equipment."""

SWORDS: tuple[int, ...] = (
    tuple(r for _ in CLASSES for r, _ in RANKS) + tuple(s[2] for s in SPECIALS) + (0,) * len(EQUIPMENT)
)
"""Base swords: the rank of a class warrior, the SPECIALS value of a special, 0 for equipment (D17)."""

IS_WARRIOR: tuple[bool, ...] = tuple(i < NEKTAR for i in range(N_CARDS))
WARRIOR_MASK = (1 << NEKTAR) - 1
EQUIPMENT_MASK = FULL_DECK_MASK & ~WARRIOR_MASK


def _bonus(own: int, opposite: int) -> int:
    """rules/artania.md §Archetypes — +2 for the counter-class, +1 for its archetype's other two, else 0."""
    a_own, p_own = CLASSES[own][2], CLASSES[own][3]
    a_opp, p_opp = CLASSES[opposite][2], CLASSES[opposite][3]
    if a_opp != (a_own + 1) % 3:
        return 0
    return 2 if p_opp == p_own else 1


BONUS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_bonus(c, o) for o in range(len(CLASSES))) for c in range(len(CLASSES))
)
"""``BONUS[own class][opposite class]``: the 9×9 counter-class matrix (D5, D6)."""

CARD_BONUS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        BONUS[CLASS_OF[c]][CLASS_OF[o]] if CLASS_OF[c] >= 0 and CLASS_OF[o] >= 0 else 0
        for o in range(N_CARDS)
    )
    for c in range(N_CARDS)
)
"""``CARD_BONUS[own card][opposite card]``; 0 whenever either is a special (D3)."""

START_HAND = 5  # §Setup step 3
TURN_DRAW = 3  # D21
CHASY_DRAW = 3  # §Equipment — Часы Базилевса
TOKENS_TO_WIN = 5
TOKEN_POOL = 9
NEKTAR_BONUS = 2


def card_name(i: int) -> str:
    """The Russian name of card ``i``: «Витязь-десятник», «Полководец», «Нектар могущества»."""
    if i < N_CLASS_CARDS:
        return f"{CLASSES[i // 3][1]}-{RANKS[i % 3][1].lower()}"
    if i < NEKTAR:
        return SPECIALS[i - N_CLASS_CARDS][1]
    return EQUIPMENT[i - NEKTAR][1]


def _byte_table(offset: int) -> tuple[tuple[int, ...], ...]:
    """``table[b]``: the card indexes ``offset + i`` of the set bits ``i`` of the byte ``b``, ascending."""
    return tuple(
        tuple(offset + i for i in range(8) if b >> i & 1 and offset + i < N_CARDS) for b in range(256)
    )


_B0, _B1, _B2, _B3, _B4 = (_byte_table(8 * j) for j in range(5))  # a 33-bit mask is five bytes
_ID_B0, _ID_B1, _ID_B2, _ID_B3, _ID_B4 = (
    tuple(tuple(IDS[i] for i in row) for row in table) for table in (_B0, _B1, _B2, _B3, _B4)
)


def mask_ids(mask: int) -> list[str]:
    """The cards of a bit mask as ids, in canonical order (D32)."""
    return [
        *_ID_B0[mask & 255],
        *_ID_B1[mask >> 8 & 255],
        *_ID_B2[mask >> 16 & 255],
        *_ID_B3[mask >> 24 & 255],
        *_ID_B4[mask >> 32 & 255],
    ]


def mask_indexes(mask: int) -> list[int]:
    """The card indexes of a bit mask in canonical order."""
    return [
        *_B0[mask & 255],
        *_B1[mask >> 8 & 255],
        *_B2[mask >> 16 & 255],
        *_B3[mask >> 24 & 255],
        *_B4[mask >> 32 & 255],
    ]


def catalog() -> dict[str, object]:
    """Static data for the UI: decks, classes with archetypes and counter-classes, cards, the bonus matrix
    (names are proper names; ``duelclub.words.artania`` adds the equipment texts)."""
    cards: list[dict[str, object]] = []
    for i, cid in enumerate(IDS):
        c = CLASS_OF[i]
        kind = "class" if c >= 0 else ("special" if IS_WARRIOR[i] else "equipment")
        card: dict[str, object] = {"id": cid, "name": card_name(i), "kind": kind, "swords": SWORDS[i]}
        if c >= 0:
            card.update(
                {"class": CLASSES[c][0], "archetype": ARCHETYPES[CLASSES[c][2]], "rank": RANKS[i % 3][1]}
            )
        cards.append(card)
    counter = {
        CLASSES[c][0]: CLASSES[next(o for o in range(len(CLASSES)) if BONUS[c][o] == 2)][0]
        for c in range(len(CLASSES))
    }
    return {
        "decks": [{"id": d, "name": DECK_NAMES[d]} for d in DECKS],
        "classes": [
            {"id": cid, "name": name, "archetype": ARCHETYPES[a], "position": p, "counter": counter[cid]}
            for cid, name, a, p in CLASSES
        ],
        "archetypes": [
            {"id": a, "classes": [c[0] for c in CLASSES if c[2] == k], "beats": ARCHETYPES[(k + 1) % 3]}
            for k, a in enumerate(ARCHETYPES)
        ],
        "cards": cards,
        "bonus": [list(row) for row in BONUS],
        "tokens_to_win": TOKENS_TO_WIN,
        "token_pool": TOKEN_POOL,
    }
