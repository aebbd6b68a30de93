"""Setup, draft variants, bags and the stream order (rules/warchest.md §4, §5, §6; fairness.md warchest)."""

from __future__ import annotations

import pytest

from duelclub.games.contract import IllegalAction
from duelclub.games.fairness import Stream
from duelclub.games.warchest import GAME
from duelclub.games.warchest.board import (
    DIST,
    HEX_ID,
    HEXES,
    LINE2,
    LOCATIONS,
    NEIGH,
    RING2,
    START_LOCATIONS,
)
from duelclub.games.warchest.state import DRAFT, PLAY
from duelclub.games.warchest.units import DECREE_IDS, UNIT, UNIT_TYPES, pool_types

KEY = bytes(range(32))


def opts(**kw: str) -> object:
    return GAME.parse_options(kw)


def test_board_has_37_hexes_and_10_locations_d1() -> None:
    assert len(HEXES) == 37 and len(LOCATIONS) == 10
    assert all(abs(q) <= 3 and abs(r) <= 3 and abs(q + r) <= 3 for q, r in HEXES)
    assert len(NEIGH[HEX_ID[(0, 0)]]) == 6 and len(NEIGH[HEX_ID[(3, 0)]]) == 3


def test_board_is_point_symmetric_d2() -> None:
    wolf = {HEXES[h] for h in START_LOCATIONS[0]}
    raven = {HEXES[h] for h in START_LOCATIONS[1]}
    assert {(-q, -r) for q, r in wolf} == raven
    assert {(-q, -r) for q, r in (HEXES[h] for h in LOCATIONS)} == {HEXES[h] for h in LOCATIONS}


def test_distance_ring_and_lines() -> None:
    c = HEX_ID[(0, 0)]
    assert DIST[c][HEX_ID[(2, -1)]] == 2 and len(RING2[c]) == 12 and len(LINE2[c]) == 6
    assert (HEX_ID[(2, 0)], HEX_ID[(1, 0)]) in LINE2[c]


def test_coin_counts_d5_d7_d8() -> None:
    base = [u for u in UNIT_TYPES if u.expansion == "base"]
    assert sum(u.coins for u in base) == 74 and sum(u.coins == 4 for u in base) == 6
    assert UNIT["bishop"].coins == 4 and UNIT["assassin"].coins == 4
    assert sum(u.coins for u in UNIT_TYPES if u.expansion == "nobility") == 19
    assert sum(u.coins for u in UNIT_TYPES if u.expansion == "nightfall") == 19


def test_russian_names_d6() -> None:
    assert [UNIT[t].ru for t in ("cavalry", "crossbowman", "light_cavalry", "warrior_priest")] == [
        "Кавалерия", "Арбалетчик", "Лёгкая кавалерия", "Воин-жрец"]  # fmt: skip


def test_pool_sizes() -> None:
    assert (len(pool_types(False, False)), len(pool_types(True, False)), len(pool_types(True, True))) == (
        16, 20, 24)  # fmt: skip


def test_stream_consumers_in_order() -> None:
    s = GAME.new_match(KEY, opts(expansions="both", draft="random"))
    st = Stream(KEY)
    wolf_seat = st.randint(2)
    decrees = st.shuffled(list(DECREE_IDS))
    dealt = st.shuffled(pool_types(True, True))
    assert s.wolf_seat == wolf_seat
    assert s.decrees == decrees[:3] and s.hidden_decrees == decrees[3:]
    assert s.sides[0].types == dealt[:4] and s.sides[1].types == dealt[4:8]


def test_side_option_overrides_the_lot_but_still_reads_it() -> None:
    a = GAME.new_match(KEY, opts(side="raven"))
    b = GAME.new_match(KEY, opts(side="wolf"))
    assert a.wolf_seat == 1 and b.wolf_seat == 0
    assert a.stream.position == b.stream.position


def test_club_draft_order_1_2_2_2_1_raven_first_d4() -> None:
    s = GAME.new_match(KEY, opts(draft="club", expansions="base"))
    seats = []
    while s.phase == DRAFT:
        seat = next(iter(GAME.to_move(s)))
        seats.append(s.side_of(seat))
        GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    assert seats == [1, 0, 0, 1, 1, 0, 0, 1]
    assert s.phase == PLAY and s.round == 1
    assert set(s.sides[0].types).isdisjoint(s.sides[1].types)


def test_picked_type_is_no_longer_available() -> None:
    s = GAME.new_match(KEY, opts(draft="club"))
    seat = next(iter(GAME.to_move(s)))
    first = GAME.legal_actions(s, seat)[0]
    GAME.apply(s, seat, first)
    other = next(iter(GAME.to_move(s)))
    assert first not in GAME.legal_actions(s, other)
    with pytest.raises(IllegalAction):
        GAME.apply(s, other, first)


def test_eight_card_draft_raven_gets_the_last() -> None:
    s = GAME.new_match(KEY, opts(draft="eight"))
    assert len(s.draft_pool) == 8
    n = 0
    while s.phase == DRAFT:
        seat = next(iter(GAME.to_move(s)))
        GAME.apply(s, seat, GAME.legal_actions(s, seat)[-1])
        n += 1
    assert n == 7 and len(s.sides[0].types) == 4 and len(s.sides[1].types) == 4


def test_bags_supply_markers_after_setup() -> None:
    s = GAME.new_match(KEY, opts(draft="random", expansions="nightfall"))
    for side in (0, 1):
        p = s.sides[side]
        total = sum(p.bag.values()) + sum(p.hand.values())
        assert total == 9 and sum(p.hand.values()) == 3
        for t in p.types:
            assert p.supply[t] == UNIT[t].coins - 2
        assert p.reserve == 4
        for t in ("infiltrator", "skirmisher"):
            assert p.decoys.get(t, 0) == (3 if t in p.types else 0)
    assert sum(1 for c in s.control if c == 0) == 2 and sum(1 for c in s.control if c == 1) == 2
    assert s.initiative == 0 and not s.changed


def test_base_game_has_no_decrees() -> None:
    s = GAME.new_match(KEY, opts(expansions="base"))
    assert s.decrees == [] and len(s.draft_pool) == 16


def test_bad_options_rejected() -> None:
    with pytest.raises(IllegalAction):
        GAME.parse_options({"expansions": "all"})
