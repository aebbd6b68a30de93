"""rules/artania.md §Equipment: legal and illegal uses of Нектар могущества, Идол гнева, Часы Базилевса;
D14, D15, D16, windows rules 4 and 5."""

from __future__ import annotations

import pytest
from artania_helpers import chasy, hand, idol, nektar, of_kind, pass_, state

from duelclub.games.artania import GAME
from duelclub.games.artania.actions import PASS, Chasy, Idol, Nektar
from duelclub.games.artania.state import State
from duelclub.games.contract import IllegalAction

# After P2: F (seat 0) has slot 1, S (seat 1) has slots 1 and 2; W2 is F's to open.
F_ROW = ["vityaz_3", "pending", "pending"]
S_ROW = ["razboynik_1", "geroy", "pending"]


def w2(h0: list[str], h1: list[str], **kw: object) -> State:
    return state(hands=(h0, h1), step="W2", first=0, slots=(F_ROW, S_ROW), **kw)  # type: ignore[arg-type]


def _rejects(s: State, seat: int, action: object, code: str) -> None:
    before = GAME.to_position(s)
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(s, seat, action)  # type: ignore[arg-type]
    assert exc.value.code == code
    assert GAME.to_position(s) == before  # windows rule 5: nothing changes, the same player acts
    assert GAME.to_move(s) == frozenset({s.actor})


# -- Нектар могущества ------------------------------------------------------------------------------


def test_nektar_targets_every_class_warrior_on_either_side_but_not_specials_d14() -> None:
    s = w2(["nektar", "berserk_1"], ["strazh_1"])
    assert GAME.legal_actions(s, 0) == [PASS, Nektar(seat=0, slot=1), Nektar(seat=1, slot=1)]


def test_nektar_adds_two_swords_to_its_target_until_the_end_of_the_turn() -> None:
    s = w2(["nektar", "berserk_1"], ["strazh_1"])
    events = nektar(s, 0, 0, 1)
    assert events == [
        {"kind": "nektar", "seat": 0, "window": "W2", "target_seat": 0, "slot": 1, "card": "vityaz_3"}
    ]
    slot = GAME.view(s, 1)["field"][0][0]
    assert (slot["base"], slot["bonus"], slot["nektar"], slot["nektar_by"]) == (3, 2, 2, [0])
    assert slot["total"] == 7
    assert GAME.view(s, None)["discards"][0] == ["nektar"]  # windows rule 4


def test_nektar_on_the_opponents_warrior_is_legal_d14() -> None:
    s = w2(["nektar", "berserk_1"], ["strazh_1"])
    nektar(s, 0, 1, 1)
    slot = GAME.view(s, None)["field"][1][0]
    assert (slot["nektar"], slot["nektar_by"], slot["total"]) == (2, [0], 3)


def test_both_nektars_on_one_warrior_give_four_d14() -> None:
    s = w2(["nektar", "berserk_1"], ["nektar", "strazh_1"])
    nektar(s, 0, 0, 1)
    nektar(s, 1, 0, 1)
    slot = GAME.view(s, None)["field"][0][0]
    assert (slot["nektar"], slot["nektar_by"], slot["total"]) == (4, [0, 1], 3 + 2 + 4)


@pytest.mark.parametrize(
    ("target_seat", "slot", "code"),
    [
        (1, 2, "bad_target"),  # Герой: a special (D14)
        (1, 3, "bad_target"),  # not yet filled
        (0, 2, "bad_target"),  # not yet filled
        (0, 4, "bad_slot"),
        (0, 0, "bad_slot"),
        (2, 1, "bad_seat"),
    ],
)
def test_nektar_illegal_targets(target_seat: int, slot: int, code: str) -> None:
    s = w2(["nektar", "berserk_1"], ["strazh_1"])
    _rejects(s, 0, Nektar(seat=target_seat, slot=slot), code)


def test_nektar_without_a_class_warrior_on_the_battlefield_is_illegal() -> None:
    s = state(hands=(["nektar", "vityaz_1"], ["strazh_1"]), step="W0", first=0)
    assert GAME.legal_actions(s, 0) == [PASS]
    _rejects(s, 0, Nektar(seat=0, slot=1), "bad_target")


def test_nektar_not_in_hand_is_rejected() -> None:
    s = w2(["berserk_1"], ["strazh_1"])
    _rejects(s, 0, Nektar(seat=0, slot=1), "card_not_in_hand")


# -- Идол гнева ---------------------------------------------------------------------------------


def test_idol_targets_every_opponent_warrior_specials_included_d15() -> None:
    s = w2(["idol", "berserk_1"], ["strazh_1"])
    assert GAME.legal_actions(s, 0) == [PASS, Idol(slot=1), Idol(slot=2)]


def test_idol_discards_the_card_and_leaves_the_slot_empty_for_the_turn() -> None:
    s = w2(["idol", "berserk_1"], ["strazh_1"])
    events = idol(s, 0, 2)
    assert events == [
        {"kind": "idol", "seat": 0, "window": "W2", "target_seat": 1, "slot": 2, "card": "geroy"}
    ]
    v = GAME.view(s, None)
    assert v["field"][1][1]["state"] == "removed" and v["field"][1][1]["total"] == 0
    assert v["discards"] == [["idol"], ["geroy"]]


def test_idol_removes_the_bonus_the_removed_card_gave() -> None:
    s = w2(["idol", "berserk_1"], ["strazh_1"])
    assert GAME.view(s, None)["field"][0][0]["bonus"] == 2  # Витязь opposite Разбойник
    idol(s, 0, 1)
    assert GAME.view(s, None)["field"][0][0]["bonus"] == 0


def test_idol_takes_a_nektar_with_the_card_and_the_slot_is_never_refilled() -> None:
    s = w2(["idol", "berserk_1"], ["nektar", "strazh_1"])
    pass_(s, 0)
    nektar(s, 1, 1, 1)
    idol(s, 0, 1)
    v = GAME.view(s, None)
    assert v["field"][1][0]["nektar"] == 0 and v["field"][1][0]["nektar_by"] == []
    pass_(s, 1)
    pass_(s, 0)
    assert v["field"][1][0]["state"] == "removed"
    assert GAME.view(s, None)["placing"] == {"seat": 0, "slots": [2, 3]}


@pytest.mark.parametrize(("slot", "code"), [(3, "bad_target"), (5, "bad_slot")])
def test_idol_illegal_targets(slot: int, code: str) -> None:
    s = w2(["idol", "berserk_1"], ["strazh_1"])
    _rejects(s, 0, Idol(slot=slot), code)


def test_idol_never_targets_your_own_warrior_d15() -> None:
    # seat 1 holds the Idol; its own slots 1–2 hold warriors, the opponent's slot 1 holds Витязь
    s = state(hands=(["berserk_1"], ["idol", "strazh_1"]), step="W2", first=0, slots=(F_ROW, S_ROW))
    pass_(s, 0)
    assert GAME.legal_actions(s, 1) == [PASS, Idol(slot=1)]
    _rejects(s, 1, Idol(slot=2), "bad_target")


def test_idol_with_no_opponent_warrior_is_illegal() -> None:
    s = state(hands=(["idol", "vityaz_1"], ["strazh_1"]), step="W0", first=0)
    assert GAME.legal_actions(s, 0) == [PASS]
    _rejects(s, 0, Idol(slot=1), "bad_target")


# -- Часы Базилевса -----------------------------------------------------------------------------


def test_chasy_offers_every_other_card_of_the_hand_d16() -> None:
    s = w2(["chasy", "berserk_1", "nektar"], ["strazh_1"])
    legal = GAME.legal_actions(s, 0)
    assert legal == [
        PASS,
        Nektar(seat=0, slot=1),
        Nektar(seat=1, slot=1),
        Chasy(discard="berserk_1"),
        Chasy(discard="nektar"),
    ]


def test_chasy_discards_both_cards_and_draws_three() -> None:
    s = w2(["chasy", "berserk_1"], ["strazh_1"], tops=(["geroy", "idol", "volkhv_2"], []))
    events = chasy(s, 0, "berserk_1")
    assert events[0] == {"kind": "chasy", "seat": 0, "window": "W2", "discard": "berserk_1"}
    assert events[1] == {
        "kind": "draw",
        "seat": 0,
        "cards": ["geroy", "idol", "volkhv_2"],
        "count": 3,
        "reason": "chasy",
    }
    assert GAME.event_view(s, events[1], 1) == {"kind": "draw", "seat": 0, "count": 3, "reason": "chasy"}
    assert GAME.view(s, None)["discards"][0] == ["chasy", "berserk_1"]
    assert hand(s, 0) == ["volkhv_2", "geroy", "idol"]


def test_cards_drawn_with_chasy_can_be_used_in_the_same_turn() -> None:
    s = w2(["chasy", "berserk_1"], ["strazh_1"], tops=(["idol"], []))
    chasy(s, 0, "berserk_1")
    pass_(s, 1)
    assert Idol(slot=2) in GAME.legal_actions(s, 0)


def test_chasy_may_discard_equipment_d16() -> None:
    s = w2(["chasy", "idol"], ["strazh_1"])
    chasy(s, 0, "idol")
    assert GAME.view(s, None)["discards"][0] == ["chasy", "idol"]


@pytest.mark.parametrize(("left", "drawn"), [(2, 2), (1, 1), (0, 0)])
def test_chasy_with_a_short_deck_draws_what_remains_d16(left: int, drawn: int) -> None:
    tops = ["geroy", "idol"][:left]
    s = w2(["chasy", "berserk_1"], ["strazh_1"], tops=(tops, []), rest=("discard", "deck"))
    events = chasy(s, 0, "berserk_1")
    assert of_kind(events, "draw")[0]["count"] == drawn
    assert GAME.view(s, 0)["hand"] == sorted(tops, key=["geroy", "idol"].index)


def test_chasy_alone_in_hand_is_illegal() -> None:
    s = w2(["chasy"], ["strazh_1"])
    assert GAME.legal_actions(s, 0) == [PASS]
    _rejects(s, 0, Chasy(discard="chasy"), "bad_target")
    _rejects(s, 0, Chasy(discard="berserk_1"), "card_not_in_hand")


def test_chasy_cannot_discard_a_card_not_in_hand() -> None:
    s = w2(["chasy", "berserk_1"], ["strazh_1"])
    _rejects(s, 0, Chasy(discard="geroy"), "card_not_in_hand")
    _rejects(s, 0, Chasy(discard="nothing"), "card_not_in_hand")


def test_chasy_not_in_hand_is_rejected() -> None:
    s = w2(["berserk_1", "geroy"], ["strazh_1"])
    _rejects(s, 0, Chasy(discard="geroy"), "card_not_in_hand")


def test_chasy_is_legal_in_w0_of_turn_one_d26() -> None:
    s = state(hands=(["chasy", "vityaz_1"], ["strazh_1"]), step="W0", first=0)
    assert GAME.legal_actions(s, 0) == [PASS, Chasy(discard="vityaz_1")]


def test_equipment_out_of_turn_is_rejected() -> None:
    s = w2(["berserk_1"], ["idol", "strazh_1"])
    _rejects(s, 1, Idol(slot=1), "not_your_turn")


def test_played_equipment_is_listed_in_the_turns_plays() -> None:
    s = w2(["chasy", "berserk_1"], ["idol", "strazh_1"], tops=(["geroy"], []))
    chasy(s, 0, "berserk_1")
    idol(s, 1, 1)
    plays = GAME.view(s, None)["plays"]
    assert [p["kind"] for p in plays] == ["chasy", "idol"]
    assert plays[0]["discard"] == "berserk_1" and plays[1]["card"] == "vityaz_3"


def test_malformed_action_bodies() -> None:
    for raw in ({"kind": "nektar", "seat": "0", "slot": 1}, {"kind": "idol"}, {"kind": "fly"}):
        with pytest.raises(IllegalAction) as exc:
            GAME.parse_action(raw)
        assert exc.value.code == "malformed_action"
