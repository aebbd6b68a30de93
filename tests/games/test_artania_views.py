"""rules/artania.md §What each player sees, D34 (timeouts), D35 (known hand cards), positions."""

from __future__ import annotations

import json
import random

import pytest
from artania_helpers import chasy, close_window, of_kind, pass_, position, state

from duelclub.games.artania import GAME
from duelclub.games.artania.actions import PASS, Place
from duelclub.games.contract import IllegalAction


def test_own_hand_in_canonical_order_opponent_hand_and_decks_hidden() -> None:
    s = state(hands=(["chasy", "geroy", "vityaz_3", "berserk_1"], ["strazh_1"]), step="W0", first=0)
    v0, v1, spec = GAME.view(s, 0), GAME.view(s, 1), GAME.view(s, None)
    assert v0["hand"] == ["vityaz_3", "berserk_1", "geroy", "chasy"]  # D32
    assert v1["hand"] == ["strazh_1"] and spec["hand"] is None
    for v in (v0, v1, spec):
        assert "hands" not in v and "decks" not in v
        assert v["hand_sizes"] == [4, 1] and v["deck_sizes"] == [29, 32]
    text = json.dumps(v1)
    for secret in ("chasy", "geroy", "vityaz_3", "berserk_1"):
        assert secret not in text


def test_the_view_names_the_window_its_actor_and_pass_count() -> None:
    s = state(hands=(["vityaz_1"], ["strazh_1"]), step="W0", first=1)
    pass_(s, 1)
    v = GAME.view(s, 0)
    assert v["phase"] == "window" and v["window"] == {"name": "W0", "actor": 0, "passes": 1}
    assert v["first"] == 1 and v["second"] == 0 and v["placing"] is None


def test_d35_a_tiebreak_equipment_card_stays_public_until_it_leaves_the_hand() -> None:
    s = state(
        hands=(["zaklinatel_3"], ["zaklinatel_3"]),
        step="W4",
        first=0,
        slots=(["vityaz_2", "empty", "empty"], ["berserk_2", "empty", "empty"]),
        tops=(["chasy", "vityaz_3"], ["strazh_1", "strazh_2"]),
    )
    close_window(s)
    assert GAME.view(s, 1)["known"] == [["chasy"], []]
    rng = random.Random(3)
    for _ in range(20):
        d = GAME.determinize(s, 1, rng)
        assert "chasy" in GAME.full_view(d)["hands"][0]  # determinize keeps it there
    # turn 2: seat 1 is F; seat 0 plays Часы in W0 after seat 1 passes
    pass_(s, 1)
    chasy(s, 0, "zaklinatel_3")
    assert GAME.view(s, 1)["known"] == [[], []]


def test_draw_events_show_cards_to_the_drawer_only() -> None:
    s = state(
        hands=(["zaklinatel_3"], ["zaklinatel_3"]),
        step="W4",
        first=0,
        slots=(["vityaz_3", "empty", "empty"], ["berserk_2", "empty", "empty"]),
    )
    events = close_window(s)
    for ev in of_kind(events, "draw"):
        owner = ev["seat"]
        assert GAME.event_view(s, ev, owner) == ev
        for other in (1 - owner, None):
            seen = GAME.event_view(s, ev, other)
            assert seen is not None and "cards" not in seen and seen["count"] == 3


def test_after_the_end_everything_is_public() -> None:
    s = state(
        hands=(["zaklinatel_3"], ["zaklinatel_3"]),
        step="W4",
        first=0,
        slots=(["vityaz_3", "empty", "empty"], ["berserk_2", "empty", "empty"]),
        tokens=(4, 0),
    )
    events = close_window(s)
    v = GAME.view(s, None)
    assert v["phase"] == "over" and v["hands"] == [["zaklinatel_3"], ["zaklinatel_3"]] and "decks" in v
    for ev in events:
        assert GAME.event_view(s, ev, None) == ev


# -- D34 timeouts -------------------------------------------------------------------------------


def test_d34_timeout_in_a_window_is_pass() -> None:
    s = state(
        hands=(["nektar", "vityaz_1"], ["strazh_1"]),
        step="W2",
        first=0,
        slots=(["vityaz_3", "pending", "pending"], ["strazh_2", "strazh_3", "pending"]),
    )
    assert GAME.timeout_action(s, 0) == PASS
    assert GAME.clock_only(PASS) is False


def test_d34_timeout_in_a_step_places_the_first_warriors_in_canonical_order() -> None:
    s = state(
        hands=(["vityaz_3"], ["idol", "geroy", "strazh_2", "razboynik_3"]),
        step="P2",
        first=0,
        slots=(["vityaz_1", "pending", "pending"], None),
    )
    action = GAME.timeout_action(s, 1)
    assert action == Place(cards=("razboynik_3", "strazh_2"))
    assert action in GAME.legal_actions(s, 1)


def test_d34_timeout_with_one_warrior_in_a_two_slot_step() -> None:
    s = state(
        hands=(["vityaz_3"], ["idol", "geroy"]),
        step="P2",
        first=0,
        slots=(["vityaz_1", "pending", "pending"], None),
    )
    assert GAME.timeout_action(s, 1) == Place(cards=("geroy",))


def test_timeout_for_a_seat_not_to_act_or_after_the_end_raises() -> None:
    s = state(hands=(["vityaz_3"], ["geroy"]), step="W0", first=0)
    with pytest.raises(IllegalAction):
        GAME.timeout_action(s, 1)
    GAME.apply(s, 0, GAME.parse_action({"kind": "resign"}))
    with pytest.raises(IllegalAction):
        GAME.timeout_action(s, 0)


# -- positions ---------------------------------------------------------------------------------


def test_position_round_trips_exactly() -> None:
    s = state(
        hands=(["nektar", "vityaz_1"], ["idol"]),
        step="W2",
        first=1,
        slots=(["vityaz_3", "strazh_2", "pending"], ["berserk_2", "pending", "pending"]),
        nektar=([[1], [], []], [[], [], []]),
        known=([], ["idol"]),
        tokens=(2, 1),
        turn=4,
    )
    pos = GAME.to_position(s)
    assert GAME.to_position(GAME.from_position(json.loads(json.dumps(pos)))) == pos


@pytest.mark.parametrize(
    "change",
    [
        {"game": "mezha"},
        {"version": 2},
        {"step": "W9"},
        {"sides": ["artania", "artania"]},
        {
            "slots": [["vityaz_3", "pending", "pending"], ["pending", "pending", "pending"]]
        },  # P1 not yet played
        {"known": [["geroy"], []]},
        {"tokens": [6, 0]},
        {"nektar": [[[0], [], []], [[], [], []]]},  # Нектар on an empty slot
    ],
)
def test_from_position_rejects_inconsistent_positions(change: dict[str, object]) -> None:
    pos = position(hands=(["vityaz_1"], ["strazh_1"]), step="W0", first=0)
    pos.update(change)
    with pytest.raises(ValueError):
        GAME.from_position(pos)


def test_from_position_rejects_a_card_twice() -> None:
    pos = position(hands=(["vityaz_1"], ["strazh_1"]), step="W0", first=0)
    pos["discards"][0].append("vityaz_1")
    with pytest.raises(ValueError):
        GAME.from_position(pos)
