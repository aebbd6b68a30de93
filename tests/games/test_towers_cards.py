"""One test per card (rules/towers.md §3, §6, §6.1–6.3, §12): the card is played through ``apply`` from a
fixed state and its effect is compared with the change worked out by hand from the Ukrainian text —
conditionals both ways, ties to the else branch (D15), floors at 0 (D10), normal vs tower damage (§6.1).

The fixed state: the player has tower 20, wall 10, producers 3/3/3 and 30 of each resource; the enemy
tower 25, wall 8, mines 2, monasteries 4, barracks 3 and 30 of each resource. A case overrides some of these.
"""

from __future__ import annotations

import pytest
from test_towers_helpers import of_kind, pc, play, state

from duelclub.games.towers.cards import CARDS, COST, RESOURCE
from duelclub.games.towers.dsl import ATTRS, RESOURCES

ME = {
    "tower": 20,
    "wall": 10,
    "mines": 3,
    "monasteries": 3,
    "barracks": 3,
    "ore": 30,
    "mana": 30,
    "troops": 30,
}
EN = {
    "tower": 25,
    "wall": 8,
    "mines": 2,
    "monasteries": 4,
    "barracks": 3,
    "ore": 30,
    "mana": 30,
    "troops": 30,
}

D = dict[str, int]
# (card, label, overrides of ME, overrides of EN, expected change of ME, of EN) — cost excluded
CASES: list[tuple[int, str, D, D, D, D]] = [
    (1, "both lose 8 ore", {}, {}, {"ore": -8}, {"ore": -8}),
    (1, "floor at 0", {}, {"ore": 5}, {"ore": -8}, {"ore": -5}),
    (2, "both lose a mine", {}, {}, {"mines": -1}, {"mines": -1}),
    (2, "mines floor at 0", {"mines": 0}, {}, {}, {"mines": -1}),
    (3, "mine for wall and mana", {}, {}, {"mines": -1, "wall": 10, "mana": 5}, {}),
    (4, "ore and mana", {}, {}, {"ore": 2, "mana": 2}, {}),
    (5, "wall", {}, {}, {"wall": 1}, {}),
    (6, "wall tower troops", {}, {}, {"wall": 1, "tower": 1, "troops": 2}, {}),
    (7, "everyone gets a mine", {}, {}, {"mines": 1, "mana": 4}, {"mines": 1}),
    (8, "wall", {}, {}, {"wall": 3}, {}),
    (9, "wall for mana", {}, {}, {"wall": 5, "mana": -6}, {}),
    (9, "mana floor at 0", {"mana": 4}, {}, {"wall": 5, "mana": -4}, {}),
    (10, "wall", {}, {}, {"wall": 4}, {}),
    (11, "with a wall +3", {}, {}, {"wall": 3}, {}),
    (11, "no wall +5", {"wall": 0}, {}, {"wall": 5}, {}),
    (12, "mine", {}, {}, {"mines": 1}, {}),
    (13, "more mines +1", {}, {}, {"mines": 1}, {}),
    (13, "fewer mines +2", {"mines": 1}, {}, {"mines": 2}, {}),
    (13, "equal mines +1", {"mines": 2}, {}, {"mines": 1}, {}),
    (14, "enemy loses a mine", {}, {}, {}, {"mines": -1}),
    (14, "enemy mines floor at 0", {}, {"mines": 0}, {}, {}),
    (15, "more mines: nothing", {}, {}, {}, {}),
    (15, "fewer mines: copied", {"mines": 1}, {"mines": 4}, {"mines": 3}, {}),
    (15, "equal mines: nothing", {"mines": 2}, {}, {}, {}),
    (16, "wall", {}, {}, {"wall": 6}, {}),
    (17, "enemy wall lower: enemy hit", {}, {}, {}, {"barracks": -1, "tower": -2}),
    (17, "own wall lower: self hit", {"wall": 5}, {}, {"barracks": -1, "tower": -2}, {}),
    (17, "equal walls: nobody (D12)", {"wall": 8}, {}, {}, {}),
    (17, "floors at 0", {}, {"barracks": 0, "tower": 1}, {}, {"tower": -1}),
    (18, "two mines", {}, {}, {"mines": 2}, {}),
    (19, "wall and a mine", {}, {}, {"wall": 4, "mines": 1}, {}),
    (20, "wall for troops", {}, {}, {"wall": 9, "troops": -5}, {}),
    (21, "all walls -5", {}, {}, {"wall": -5}, {"wall": -5}),
    (21, "wall damage only, excess lost", {"wall": 2}, {"wall": 3}, {"wall": -2}, {"wall": -3}),
    (22, "wall", {}, {}, {"wall": 8}, {}),
    (23, "monastery", {}, {}, {"monasteries": 1}, {}),
    (24, "wall and barracks", {}, {}, {"wall": 5, "barracks": 1}, {}),
    (25, "wall and mana", {}, {}, {"wall": 7, "mana": 7}, {}),
    (26, "equal barracks: no bonus", {}, {}, {"troops": 6, "wall": 6}, {}),
    (26, "fewer barracks: +1", {"barracks": 2}, {}, {"troops": 6, "wall": 6, "barracks": 1}, {}),
    (27, "wall and tower", {}, {}, {"wall": 6, "tower": 3}, {}),
    (28, "wall", {}, {}, {"wall": 12}, {}),
    (29, "wall, 6 damage absorbed", {}, {}, {"wall": 7}, {"wall": -6}),
    (29, "damage spills to tower", {}, {"wall": 2}, {"wall": 7}, {"wall": -2, "tower": -4}),
    (30, "wall and tower", {}, {}, {"wall": 8, "tower": 5}, {}),
    (31, "wall", {}, {}, {"wall": 15}, {}),
    (32, "walls swapped", {}, {}, {"wall": -2}, {"wall": 2}),
    (32, "swap with no wall", {"wall": 0}, {}, {"wall": 8}, {"wall": -8}),
    (33, "wall, 10 damage", {}, {}, {"wall": 6}, {"wall": -8, "tower": -2}),
    (34, "wall and tower", {}, {}, {"wall": 20, "tower": 8}, {}),
    (35, "lower tower +2", {}, {}, {"tower": 2}, {}),
    (35, "higher tower +1", {"tower": 30}, {}, {"tower": 1}, {}),
    (35, "equal towers +1", {"tower": 25}, {}, {"tower": 1}, {}),
    (36, "all towers +1, mana", {}, {}, {"tower": 1, "mana": 3}, {"tower": 1}),
    (37, "tower", {}, {}, {"tower": 1}, {}),
    (38, "tower", {}, {}, {"tower": 3}, {}),
    (39, "1 tower damage", {}, {}, {}, {"tower": -1}),
    (40, "no counters change", {}, {}, {}, {}),
    (41, "3 tower damage ignores the wall", {}, {}, {}, {"tower": -3}),
    (42, "own tower for monasteries", {}, {}, {"tower": -5, "monasteries": 2}, {}),
    (42, "own tower floor at 0", {"tower": 3}, {}, {"tower": -3, "monasteries": 2}, {}),
    (43, "tower", {}, {}, {"tower": 5}, {}),
    (44, "monastery", {}, {}, {"monasteries": 1}, {}),
    (45, "tower, 2 tower damage", {}, {}, {"tower": 2}, {"tower": -2}),
    (46, "5 tower damage", {}, {}, {}, {"tower": -5}),
    (47, "tower for ore", {}, {}, {"tower": 7, "ore": -10}, {}),
    (47, "ore floor at 0", {"ore": 6}, {}, {"tower": 7, "ore": -6}, {}),
    (48, "tower, troops, enemy tower", {}, {}, {"tower": 4, "troops": -3}, {"tower": -2}),
    (
        49,
        "all towers -7, all monasteries -1",
        {},
        {},
        {"tower": -7, "monasteries": -1},
        {"tower": -7, "monasteries": -1},
    ),
    (50, "tower +8 (seed, not classic +3)", {}, {}, {"tower": 8}, {}),
    (51, "monastery, towers", {}, {}, {"monasteries": 1, "tower": 3}, {"tower": 1}),
    (52, "tower", {}, {}, {"tower": 8}, {}),
    (53, "monastery, tower, wall", {}, {}, {"monasteries": 1, "tower": 3, "wall": 3}, {}),
    (54, "tower, enemy ore", {}, {}, {"tower": 5}, {"ore": -6}),
    (55, "fewer monasteries: raised", {}, {}, {"monasteries": 1}, {}),
    (55, "more monasteries: enemy raised", {"monasteries": 6}, {}, {}, {"monasteries": 2}),
    (56, "monastery for 9 tower damage", {}, {}, {"monasteries": -1}, {"tower": -9}),
    (57, "tower for wall", {}, {}, {"tower": 11, "wall": -6}, {}),
    (57, "wall floor at 0", {"wall": 4}, {}, {"tower": 11, "wall": -4}, {}),
    (58, "tower and monastery", {}, {}, {"tower": 5, "monasteries": 1}, {}),
    (59, "tower", {}, {}, {"tower": 11}, {}),
    (60, "tower above enemy wall: 8 tower damage", {}, {}, {}, {"tower": -8}),
    (
        60,
        "tower equal to enemy wall: 8 to all (D14)",
        {"tower": 8, "wall": 3},
        {},
        {"wall": -3, "tower": -5},
        {"wall": -8},
    ),
    (60, "tower below enemy wall: 8 to all", {"tower": 5}, {"wall": 12}, {"wall": -8}, {"wall": -8}),
    (61, "tower and wall", {}, {}, {"tower": 8, "wall": 3}, {}),
    (62, "tower, 4 tower damage", {}, {}, {"tower": 6}, {"tower": -4}),
    (63, "tower and barracks", {}, {}, {"tower": 8, "barracks": 1}, {}),
    (64, "tower, wall, troops", {}, {}, {"tower": 10, "wall": 5, "troops": 5}, {}),
    (65, "tower", {}, {}, {"tower": 15}, {}),
    (66, "tower, 6 damage", {}, {}, {"tower": 12}, {"wall": -6}),
    (67, "tower, troops, ore", {}, {}, {"tower": 13, "troops": 6, "ore": 6}, {}),
    (68, "tower", {}, {}, {"tower": 20}, {}),
    (69, "all troops -6", {}, {}, {"troops": -6}, {"troops": -6}),
    (69, "troops floor at 0", {}, {"troops": 2}, {"troops": -6}, {"troops": -2}),
    (70, "all barracks +1, troops", {}, {}, {"barracks": 1, "troops": 3}, {"barracks": 1}),
    (71, "4 damage, mana", {}, {}, {"mana": -3}, {"wall": -4}),
    (72, "2 damage", {}, {}, {}, {"wall": -2}),
    (73, "3 damage, mana", {}, {}, {"mana": 1}, {"wall": -3}),
    (74, "higher wall: 3 damage", {}, {}, {}, {"wall": -3}),
    (74, "equal walls: 2 damage", {"wall": 8}, {}, {}, {"wall": -2}),
    (75, "no counters change", {}, {}, {}, {}),
    (76, "6 to enemy, 3 to self", {}, {}, {"wall": -3}, {"wall": -6}),
    (76, "self damage spills", {"wall": 1}, {}, {"wall": -1, "tower": -2}, {"wall": -6}),
    (77, "barracks", {}, {}, {"barracks": 1}, {}),
    (78, "5 damage", {}, {}, {}, {"wall": -5}),
    (79, "8 damage, 3 own tower", {}, {}, {"tower": -3}, {"wall": -8}),
    (80, "3 tower damage, 1 damage to self", {}, {}, {"wall": -1}, {"tower": -3}),
    (80, "self damage with no wall hits the tower", {"wall": 0}, {}, {"tower": -1}, {"tower": -3}),
    (81, "4 damage, wall", {}, {}, {"wall": 3}, {"wall": -4}),
    (82, "6 damage", {}, {}, {}, {"wall": -6}),
    (
        83,
        "6 damage, everyone loses 5 of each",
        {},
        {},
        {"ore": -5, "mana": -5, "troops": -5},
        {"wall": -6, "ore": -5, "mana": -5, "troops": -5},
    ),
    (
        83,
        "floors at 0",
        {"ore": 2},
        {"mana": 0, "troops": 4},
        {"ore": -2, "mana": -5, "troops": -5},
        {"wall": -6, "ore": -5, "troops": -4},
    ),
    (84, "6 damage, enemy troops", {}, {}, {}, {"wall": -6, "troops": -3}),
    (85, "4 tower damage", {}, {}, {}, {"tower": -4}),
    (86, "7 damage", {}, {}, {}, {"wall": -7}),
    (87, "2 tower damage", {}, {}, {}, {"tower": -2}),
    (88, "two barracks", {}, {}, {"barracks": 2}, {}),
    (89, "2 damage, wall, tower", {}, {}, {"wall": 4, "tower": 2}, {"wall": -2}),
    (90, "enemy has a wall: 6", {}, {}, {}, {"wall": -6}),
    (90, "enemy has no wall: 10", {}, {"wall": 0}, {}, {"tower": -10}),
    (91, "not more monasteries: 8", {}, {}, {}, {"wall": -8}),
    (91, "equal monasteries: 8", {"monasteries": 4}, {}, {}, {"wall": -8}),
    (91, "more monasteries: 12", {"monasteries": 5}, {}, {}, {"wall": -8, "tower": -4}),
    (92, "9 damage", {}, {}, {}, {"wall": -8, "tower": -1}),
    (93, "higher wall: 6 tower damage", {}, {}, {}, {"tower": -6}),
    (93, "equal walls: 6 normal damage", {"wall": 8}, {}, {}, {"wall": -6}),
    (94, "enemy wall 8 (not > 10): 7", {}, {}, {}, {"wall": -7}),
    (94, "enemy wall 10: 7", {}, {"wall": 10}, {}, {"wall": -7}),
    (94, "enemy wall 12: 10", {}, {"wall": 12}, {}, {"wall": -10}),
    (95, "8 damage, enemy mine", {}, {}, {}, {"wall": -8, "mines": -1}),
    (96, "steal 10 mana, 5 ore: half each", {}, {}, {"mana": 5, "ore": 3}, {"mana": -10, "ore": -5}),
    (
        96,
        "steal what there is, rounded up",
        {},
        {"mana": 7, "ore": 3},
        {"mana": 4, "ore": 2},
        {"mana": -7, "ore": -3},
    ),
    (96, "nothing to steal", {}, {"mana": 0, "ore": 0}, {}, {}),
    (97, "13 damage, mana", {}, {}, {"mana": -3}, {"wall": -8, "tower": -5}),
    (98, "5 tower damage, enemy troops", {}, {}, {}, {"tower": -5, "troops": -6}),
    (99, "10 damage, wall", {}, {}, {"wall": 4}, {"wall": -8, "tower": -2}),
    (100, "10 damage, troops, barracks", {}, {}, {}, {"wall": -8, "tower": -2, "troops": -5, "barracks": -1}),
    (101, "12 tower damage", {}, {}, {}, {"tower": -12}),
    (102, "20 damage, mana, barracks", {}, {}, {}, {"wall": -8, "tower": -12, "mana": -10, "barracks": -1}),
    (102, "tower floor at 0", {}, {"tower": 5, "barracks": 0}, {}, {"wall": -8, "tower": -5, "mana": -10}),
]


def _full(change: D) -> list[int]:
    return [change.get(a, 0) for a in ATTRS]


@pytest.mark.parametrize(
    ("card", "label", "me_over", "en_over", "me_change", "en_change"),
    CASES,
    ids=[f"{c[0]:03d}-{c[1]}" for c in CASES],
)
def test_card_effect(card: int, label: str, me_over: D, en_over: D, me_change: D, en_change: D) -> None:
    for active in (0, 1):  # the same from either seat
        hands = ([card], []) if active == 0 else ([], [card])
        s = state(me={**ME, **me_over}, en={**EN, **en_over}, hands=hands, active=active)
        before = pc(s, active)
        events = play(s, card)
        [ev] = of_kind(events, "play")
        delta = ev["delta"] if active == 0 else ev["delta"][::-1]
        assert delta == [_full(me_change), _full(en_change)], label
        after = pc(
            s, active
        )  # the player's counters: start - cost + effect (no production on the other's turn)
        paid = RESOURCES[RESOURCE[card]]
        want = {a: before[a] + me_change.get(a, 0) - (COST[card] if a == paid else 0) for a in ATTRS}
        assert after == want


def test_every_card_has_a_case() -> None:
    assert {c[0] for c in CASES} == set(CARDS)


def test_costs_equal_the_classic_costs() -> None:
    # §13: all 102 seed costs equal the classic costs; the colour fixes the resource (§3)
    import csv
    from importlib import resources

    rows = list(
        csv.DictReader(resources.files("duelclub.games.towers").joinpath("cards.csv").open(encoding="utf-8"))
    )
    for row in rows:
        assert int(row["cost"]) == int(row["classic_cost"]) == COST[int(row["id"])]
