"""rules/artania.md §A turn, §Equipment windows, §Decision points.

Decisions D7, D9, D10, D12, D13, D20, D21, D28, D33."""

from __future__ import annotations

import pytest
from artania_helpers import (
    close_window,
    field_cards,
    hand,
    kinds,
    nektar,
    of_kind,
    pass_,
    place,
    state,
)

from duelclub.games.artania import GAME
from duelclub.games.artania.actions import PASS, Place
from duelclub.games.contract import IllegalAction

H0 = ["vityaz_1", "vityaz_2", "vityaz_3", "sledopyt_1", "sledopyt_2", "sledopyt_3"]
H1 = ["razboynik_1", "razboynik_2", "razboynik_3", "strazh_1", "strazh_2", "strazh_3"]


def _step(s: object) -> str:
    return str(GAME.view(s, None)["step"])


def test_the_turn_runs_w0_p1_w1_p2_w2_p3_w3_p4_w4_with_the_right_actors() -> None:
    s = state(hands=(H0, H1), first=1)  # seat 1 is F, seat 0 is S
    seen = []
    for _ in range(9):
        v = GAME.view(s, None)
        seen.append((v["step"], v["to_move"]))
        seat = v["to_move"][0]
        if v["phase"] == "window":
            close_window(s)
        else:
            GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    assert seen == [
        ("W0", [1]),
        ("P1", [1]),
        ("W1", [0]),
        ("P2", [0]),
        ("W2", [1]),
        ("P3", [1]),
        ("W3", [0]),
        ("P4", [0]),
        ("W4", [1]),
    ]
    assert GAME.view(s, None)["turn"] == 2  # W4 closed: scored, cleaned up, turn 2 started


def test_d7_slots_are_filled_in_facing_order() -> None:
    s = state(hands=(H0, H1), step="P1", first=0)
    place(s, 0, "vityaz_3")
    assert field_cards(s, 0) == ["vityaz_3", None, None]
    close_window(s)
    place(s, 1, "strazh_1", "razboynik_2")  # first id → S-slot 1 (opposite F's card), second → S-slot 2
    assert field_cards(s, 1) == ["strazh_1", "razboynik_2", None]
    close_window(s)
    place(s, 0, "sledopyt_1", "vityaz_1")  # F-slot 2 (opposite S's second card), then F-slot 3
    assert field_cards(s, 0) == ["vityaz_3", "sledopyt_1", "vityaz_1"]
    close_window(s)
    place(s, 1, "razboynik_1")
    assert field_cards(s, 1) == ["strazh_1", "razboynik_2", "razboynik_1"]


def test_d28_placement_is_public_at_once() -> None:
    s = state(hands=(H0, H1), step="P1", first=0)
    events = place(s, 0, "vityaz_3")
    assert events[0] == {
        "kind": "place",
        "seat": 0,
        "step": "P1",
        "cards": [{"slot": 1, "card": "vityaz_3"}],
        "empty": [],
        "automatic": False,
    }
    assert GAME.event_view(s, events[0], 1) == events[0]
    assert GAME.view(s, 1)["field"][0][0]["card"] == "vityaz_3"


def test_two_slot_step_lists_every_ordered_pair_of_distinct_warriors() -> None:
    s = state(
        hands=(H0, ["razboynik_1", "geroy", "nektar"]),
        step="P2",
        first=0,
        slots=(["berserk_1", "pending", "pending"], None),
    )
    legal = GAME.legal_actions(s, 1)
    assert legal == [Place(cards=("razboynik_1", "geroy")), Place(cards=("geroy", "razboynik_1"))]


def test_d9_placement_is_compulsory_there_is_no_pass_in_a_step() -> None:
    s = state(hands=(H0, H1), step="P1", first=0)
    assert PASS not in GAME.legal_actions(s, 0)
    with pytest.raises(IllegalAction) as exc:
        pass_(s, 0)
    assert exc.value.code == "not_window"
    with pytest.raises(IllegalAction) as exc:
        place(s, 0)
    assert exc.value.code == "wrong_count"


def test_d9_any_warrior_may_be_placed_special_included() -> None:
    s = state(hands=(["geroy", "vityaz_1", "chasy"], H1), step="P1", first=0)
    assert GAME.legal_actions(s, 0) == [Place(cards=("vityaz_1",)), Place(cards=("geroy",))]
    place(s, 0, "geroy")
    assert field_cards(s, 0)[0] == "geroy"


def test_d10_one_warrior_in_a_two_slot_step_goes_to_the_first_slot() -> None:
    s = state(
        hands=(H0, ["razboynik_1", "idol"]),
        step="P2",
        first=0,
        slots=(["berserk_1", "pending", "pending"], None),
    )
    assert GAME.legal_actions(s, 1) == [Place(cards=("razboynik_1",))]
    with pytest.raises(IllegalAction) as exc:
        place(s, 1, "razboynik_1", "idol")
    assert exc.value.code == "wrong_count"
    events = place(s, 1, "razboynik_1")
    assert events[0]["empty"] == [2]
    v = GAME.view(s, 0)
    assert [x["state"] for x in v["field"][1]] == ["card", "empty", "pending"]
    assert v["hand_sizes"][1] == 1 and v["deck_sizes"][1] == 33 - 2  # D10: no draw
    assert v["no_warrior"] == [False, True]


def test_d33_a_step_with_no_warrior_in_hand_is_resolved_at_once() -> None:
    s = state(
        hands=(H0, ["idol", "nektar"]), step="W1", first=0, slots=(["berserk_1", "pending", "pending"], None)
    )
    events = close_window(s)  # W1 closes → P2 for seat 1, who holds no warrior
    auto = of_kind(events, "place")
    assert auto == [
        {"kind": "place", "seat": 1, "step": "P2", "cards": [], "empty": [1, 2], "automatic": True}
    ]
    v = GAME.view(s, None)
    assert v["step"] == "W2" and [x["state"] for x in v["field"][1]] == ["empty", "empty", "pending"]


def test_d10_an_empty_slot_counts_zero_and_gives_no_bonus() -> None:
    s = state(
        hands=(["charodey_3"], []),
        step="W4",
        first=0,
        slots=(["charodey_1", "empty", "empty"], ["empty", "empty", "empty"]),
        tops=(["vityaz_1"], ["vityaz_1"]),
    )
    assert GAME.view(s, None)["totals"] == [1, 0]


def test_a_later_step_fills_a_slot_opposite_an_empty_one() -> None:
    s = state(hands=(H0, H1), step="P2", first=0, slots=(["removed", "pending", "pending"], None))
    place(s, 1, "strazh_1", "strazh_2")
    assert field_cards(s, 1) == ["strazh_1", "strazh_2", None]


def test_window_closes_after_two_passes_in_a_row() -> None:
    s = state(hands=(H0, H1), step="W0", first=0)
    events = pass_(s, 0)
    assert events == [{"kind": "pass", "seat": 0, "window": "W0", "automatic": False, "closed": False}]
    assert GAME.view(s, None)["window"] == {"name": "W0", "actor": 1, "passes": 1}
    events = pass_(s, 1)
    assert events[0]["closed"] is True and _step(s) == "P1"


def test_d13_a_card_play_resets_the_pass_count() -> None:
    s = state(
        hands=([*H0, "nektar"], [*H1, "nektar"]),
        step="W1",
        first=0,
        slots=(["berserk_1", "pending", "pending"], None),
    )
    pass_(s, 1)  # S opens W1
    nektar(s, 0, 0, 1)  # F plays: the window stays open, count back to 0, S acts
    assert GAME.view(s, None)["window"] == {"name": "W1", "actor": 1, "passes": 0}
    nektar(s, 1, 0, 1)  # S answers with its own Нектар
    pass_(s, 0)
    assert GAME.view(s, None)["window"] == {"name": "W1", "actor": 1, "passes": 1}
    pass_(s, 1)
    assert _step(s) == "P2"


def test_windows_rule6_an_empty_hand_is_passed_by_the_engine() -> None:
    s = state(hands=(H0, []), step="W0", first=0, tops=(["berserk_1"], ["geroy"]))
    events = pass_(s, 0)
    assert of_kind(events, "pass")[1] == {
        "kind": "pass",
        "seat": 1,
        "window": "W0",
        "automatic": True,
        "closed": True,
    }
    assert _step(s) == "P1"


def test_d13_the_engine_never_passes_for_a_hand_without_playable_equipment() -> None:
    s = state(hands=(H0, ["idol"]), step="W0", first=0)
    pass_(s, 0)
    assert GAME.to_move(s) == frozenset({1})  # Идол has no target, yet seat 1 must pass itself
    assert GAME.legal_actions(s, 1) == [PASS]


def test_acting_out_of_turn_is_rejected_and_changes_nothing() -> None:
    s = state(hands=(H0, H1), step="W0", first=0)
    before = GAME.to_position(s)
    with pytest.raises(IllegalAction) as exc:
        pass_(s, 1)
    assert exc.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as exc:
        place(s, 0, "vityaz_1")
    assert exc.value.code == "not_placement"
    assert GAME.to_position(s) == before
    assert GAME.legal_actions(s, 1) == []


@pytest.mark.parametrize(
    ("cards", "code"),
    [
        (("vityaz_1", "vityaz_1"), "duplicate_card"),
        (("vityaz_1", "nektar"), "not_a_warrior"),
        (("vityaz_1", "razboynik_1"), "card_not_in_hand"),
        (("vityaz_1", "bogatyr"), "card_not_in_hand"),
        (("vityaz_1",), "wrong_count"),
        (("vityaz_1", "vityaz_2", "vityaz_3"), "wrong_count"),
    ],
)
def test_illegal_placements_are_rejected(cards: tuple[str, ...], code: str) -> None:
    s = state(
        hands=([*H0, "nektar"], H1), step="P2", first=1, slots=(None, ["charodey_1", "pending", "pending"])
    )
    before = GAME.to_position(s)
    with pytest.raises(IllegalAction) as exc:
        place(s, 0, *cards)
    assert exc.value.code == code
    assert GAME.to_position(s) == before


def test_equipment_cannot_be_played_during_a_placement_step_d12() -> None:
    s = state(
        hands=([*H0, "nektar"], H1),
        step="P3",
        first=0,
        slots=(["berserk_1", "pending", "pending"], ["volkhv_1", "volkhv_2", "pending"]),
    )
    with pytest.raises(IllegalAction) as exc:
        nektar(s, 0, 0, 1)
    assert exc.value.code == "not_window"


def test_d20_d21_after_a_turn_roles_swap_and_both_draw_three() -> None:
    s = state(hands=(H0, H1), step="P1", first=0)
    for _ in range(8):
        seat = next(iter(GAME.to_move(s)))
        if GAME.view(s, None)["phase"] == "window":
            pass_(s, seat)
            pass_(s, 1 - seat)
        else:
            GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    v = GAME.view(s, 0)
    assert v["turn"] == 2 and v["first"] == 1 and v["step"] == "W0" and v["to_move"] == [1]
    assert v["hand_sizes"] == [6 - 3 + 3, 6 - 3 + 3]
    assert len(GAME.full_view(s)["results"]) == 1


def test_d21_the_draw_step_draws_what_remains_of_a_short_deck() -> None:
    # seat 1's deck holds 2 cards: the draw step takes both and the game goes on (the deck is empty only
    # after the draw; D22 checks at the next clean-up).
    s = state(
        hands=(H0, H1),
        step="W4",
        first=0,
        slots=(["berserk_3", "berserk_2", "berserk_1"], ["volkhv_1", "volkhv_2", "volkhv_3"]),
        tops=([], ["geroy", "idol"]),
        rest=("deck", "discard"),
    )
    events = close_window(s)
    draws = of_kind(events, "draw")
    assert [(d["seat"], d["count"]) for d in draws] == [(0, 3), (1, 2)]
    assert draws[1]["cards"] == ["geroy", "idol"] and draws[1]["reason"] == "turn"
    assert GAME.view(s, None)["deck_sizes"][1] == 0 and GAME.outcome(s) is None
    assert "idol" in hand(s, 1)


def test_kinds_of_a_full_turn_end() -> None:
    s = state(
        hands=(H0, H1),
        step="W4",
        first=0,
        slots=(["berserk_3", "berserk_2", "berserk_1"], ["volkhv_1", "volkhv_2", "volkhv_3"]),
    )
    assert kinds(close_window(s)) == [
        "pass",
        "pass",
        "turn_scored",
        "token",
        "cleanup",
        "draw",
        "draw",
        "turn_start",
    ]
