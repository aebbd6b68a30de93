"""rules/artania.md §Components, §Archetypes and counter-classes: the decks, the 9×9 matrix; D1–D3, D5, D6,
D8, D31, D32."""

from __future__ import annotations

import pytest

from duelclub.games.artania.cards import (
    BONUS,
    CARD_BONUS,
    CLASS_OF,
    CLASSES,
    IDS,
    INDEX,
    IS_WARRIOR,
    N_CARDS,
    SPECIALS,
    SWORDS,
    card_name,
    catalog,
)

# The rules file's full bonus matrix, copied verbatim (row = own warrior, column = the class opposite it).
RULES_MATRIX = """
Витязь      | 0 | 0 | 0 | 2 | 1 | 1 | 0 | 0 | 0
Следопыт    | 0 | 0 | 0 | 1 | 2 | 1 | 0 | 0 | 0
Берсерк     | 0 | 0 | 0 | 1 | 1 | 2 | 0 | 0 | 0
Разбойник   | 0 | 0 | 0 | 0 | 0 | 0 | 2 | 1 | 1
Ратоборец   | 0 | 0 | 0 | 0 | 0 | 0 | 1 | 2 | 1
Страж       | 0 | 0 | 0 | 0 | 0 | 0 | 1 | 1 | 2
Чародей     | 2 | 1 | 1 | 0 | 0 | 0 | 0 | 0 | 0
Волхв       | 1 | 2 | 1 | 0 | 0 | 0 | 0 | 0 | 0
Заклинатель | 1 | 1 | 2 | 0 | 0 | 0 | 0 | 0 | 0
"""
NAMES = [c[1] for c in CLASSES]


def _rules_matrix() -> dict[tuple[str, str], int]:
    out = {}
    for line in RULES_MATRIX.strip().splitlines():
        own, *cells = (x.strip() for x in line.split("|"))
        for opp, cell in zip(NAMES, cells, strict=True):
            out[own, opp] = int(cell)
    return out


MATRIX = _rules_matrix()


@pytest.mark.parametrize(("own", "opp"), sorted(MATRIX))
def test_bonus_matrix_cell(own: str, opp: str) -> None:
    # All 81 cells of the reconstructed table (D5, D6), by class and for every pair of ranks.
    c, o = NAMES.index(own), NAMES.index(opp)
    assert BONUS[c][o] == MATRIX[own, opp]
    for r1 in (1, 2, 3):
        for r2 in (1, 2, 3):
            cid = f"{CLASSES[c][0]}_{r1}"
            oid = f"{CLASSES[o][0]}_{r2}"
            assert CARD_BONUS[INDEX[cid]][INDEX[oid]] == MATRIX[own, opp]


def test_counter_classes_follow_the_cycle() -> None:
    # §Archetypes: Витязь→Разбойник, Следопыт→Ратоборец, … Заклинатель→Берсерк
    pairs = [
        ("Витязь", "Разбойник"),
        ("Следопыт", "Ратоборец"),
        ("Берсерк", "Страж"),
        ("Разбойник", "Чародей"),
        ("Ратоборец", "Волхв"),
        ("Страж", "Заклинатель"),
        ("Чародей", "Витязь"),
        ("Волхв", "Следопыт"),
        ("Заклинатель", "Берсерк"),
    ]
    for own, counter in pairs:
        row = BONUS[NAMES.index(own)]
        assert [NAMES[o] for o, b in enumerate(row) if b == 2] == [counter]


def test_d6_bonuses_are_never_three_and_at_most_one_card_of_a_pair_gets_one() -> None:
    for c in range(9):
        assert sorted(BONUS[c]) == [0] * 6 + [1, 1, 2]
        for o in range(9):
            assert BONUS[c][o] == 0 or BONUS[o][c] == 0


def test_d3_specials_neither_get_nor_give_a_bonus() -> None:
    for special in ("polkovodets", "strateg", "geroy"):
        s = INDEX[special]
        assert CLASS_OF[s] == -1
        for other in range(N_CARDS):
            assert CARD_BONUS[s][other] == 0
            assert CARD_BONUS[other][s] == 0


def test_d1_each_class_has_one_card_of_each_rank() -> None:
    for cid, _, _, _ in CLASSES:
        assert [SWORDS[INDEX[f"{cid}_{r}"]] for r in (1, 2, 3)] == [1, 2, 3]
    assert card_name(INDEX["vityaz_1"]) == "Витязь-десятник"
    assert card_name(INDEX["zaklinatel_3"]) == "Заклинатель-тысячник"


def test_d2_specials_are_four_swords_from_one_table() -> None:
    assert [(s[0], s[2]) for s in SPECIALS] == [("polkovodets", 4), ("strateg", 4), ("geroy", 4)]
    assert [SWORDS[INDEX[s[0]]] for s in SPECIALS] == [4, 4, 4]


def test_d8_d31_d32_the_33_card_deck_in_canonical_order() -> None:
    assert len(IDS) == N_CARDS == 33 and len(set(IDS)) == 33
    assert IDS[:6] == ("vityaz_1", "vityaz_2", "vityaz_3", "sledopyt_1", "sledopyt_2", "sledopyt_3")
    assert IDS[24:27] == ("zaklinatel_1", "zaklinatel_2", "zaklinatel_3")
    assert IDS[27:] == ("polkovodets", "strateg", "geroy", "nektar", "idol", "chasy")
    assert sum(IS_WARRIOR) == 30


def test_catalog_lists_cards_classes_and_the_matrix() -> None:
    cat = catalog()
    assert [c["id"] for c in cat["cards"]] == list(IDS)
    assert cat["bonus"] == [list(r) for r in BONUS]
    counters = {c["id"]: c["counter"] for c in cat["classes"]}
    assert counters["vityaz"] == "razboynik" and counters["zaklinatel"] == "berserk"
    assert [a["beats"] for a in cat["archetypes"]] == ["B", "C", "A"]
