"""rules/mezha.md §Abilities and §Strength, damage, burning; D5 (гонец), D12, D14."""

from __future__ import annotations

from test_mezha_helpers import hand, kinds, next_season, of_kind, pass_, play, state, unit, units, won_result

from duelclub.games.mezha import GAME
from duelclub.games.mezha.actions import Play
from duelclub.games.mezha.effects import damage

# --- Тайник -----------------------------------------------------------------------------------


def test_cache_unit_always_enters_face_down() -> None:
    s = state(hands=(["ten_v_listve"], ["kuznets"]))
    events = play(s, 0, "ten_v_listve", 1)
    assert events[0]["face_down"] is True
    assert s.halves[1][0][0].face_down


def test_cache_unit_is_hidden_from_the_opponent() -> None:
    s = state(hands=(["sova"], ["kuznets"]))
    play(s, 0, "sova", 0)
    assert GAME.view(s, 1)["fields"][0][0]["units"] == [{"hidden": True, "placement": 1}]
    assert GAME.view(s, 0)["fields"][0][0]["units"][0]["card"] == "sova"


def test_shot_cannot_target_a_face_down_unit() -> None:
    s = state(hands=(["bortnik"], ["arbaletchik"]), fields={(0, 0): ["ten_v_listve"]}, turn=1)
    events = play(s, 1, "arbaletchik", 0)
    assert of_kind(events, "shot") == []
    assert units(s, 0, 0) == [("ten_v_listve", 5)]


def test_shot_passes_over_a_face_down_unit_to_a_face_up_one() -> None:
    s = state(hands=(["bortnik"], ["arbaletchik"]), fields={(0, 0): ["ten_v_listve", "seyanets"]}, turn=1)
    play(s, 1, "arbaletchik", 0)
    assert units(s, 0, 0) == [("ten_v_listve", 5), ("seyanets", 1)]


def test_podzhog_does_not_touch_a_face_down_unit() -> None:
    s = state(hands=(["bortnik"], ["podzhog"]), fields={(2, 0): ["sova", "bortnik"]}, turn=1)
    play(s, 1, "podzhog", 2)
    assert units(s, 2, 0) == [("sova", 3), ("bortnik", 2)]


def test_cache_unit_is_revealed_at_scoring() -> None:
    s = state(hands=(["bortnik"], ["kuznets"]), fields={(0, 0): ["ten_v_listve"]})
    pass_(s, 0)
    events = pass_(s, 1)
    reveal = of_kind(events, "reveal")
    assert reveal == [
        {
            "kind": "reveal",
            "seat": 0,
            "field": 0,
            "placement": 1,
            "card": "ten_v_listve",
            "strength": 5,
            "face_down": False,
        }
    ]
    assert GAME.view(s, 1)["fields"][0][0]["units"][0]["card"] == "ten_v_listve"


# --- Корни ------------------------------------------------------------------------------------


def _pause(**kw: object) -> object:
    return state(phase="pause", passed=(True, True), results=[won_result(1, 0)], **kw)  # type: ignore[arg-type]


def test_root_unit_stays_one_more_season_with_its_strength() -> None:
    # §Abilities — Корни, D3
    s = _pause(hands=(["bortnik"], ["kuznets"]), fields={(1, 0): [unit("stary_dub", strength=7), "bortnik"]})
    events = next_season(s)
    assert units(s, 1, 0) == [("stary_dub", 7)]
    clear = of_kind(events, "clear")[0]
    assert clear["carried"] == [{"seat": 0, "field": 1, "placement": 1, "card": "stary_dub", "strength": 7}]
    assert GAME.view(s, 0)["discards"][0] == ["bortnik"]


def test_carried_root_unit_is_discarded_after_the_next_season() -> None:
    s = state(
        phase="pause",
        passed=(True, True),
        season=2,
        results=[won_result(1, 0), won_result(2, 1)],
        fields={(1, 0): [unit("khozyayka_roshchi", season=1)]},
        hands=(["bortnik"], ["kuznets"]),
    )
    next_season(s)
    assert units(s, 1, 0) == []
    assert GAME.view(s, 0)["discards"][0][-1] == "khozyayka_roshchi"


def test_carried_root_unit_is_shown_as_carried() -> None:
    s = _pause(hands=(["bortnik"], ["kuznets"]), fields={(1, 0): ["stary_dub"]})
    next_season(s)
    assert GAME.view(s, 1)["fields"][1][0]["units"][0]["carried"] is True


def test_carried_root_unit_keeps_its_slot() -> None:
    # D3: it occupies its slot in the new season
    s = _pause(
        hands=(["bortnik"], ["kuznets"]), fields={(0, 0): ["stary_dub", "stary_dub", "khozyayka_roshchi"]}
    )
    s.results[0]["winner"] = 0
    next_season(s)  # season 2 omen drought: capacity 3, and the three roots fill Луг
    assert GAME.view(s, 0)["capacity"] == 3
    assert Play(card="bortnik", field=0) not in GAME.legal_actions(s, 0)


# --- Росток -----------------------------------------------------------------------------------


def test_sprout_grows_when_another_own_unit_enters_its_field() -> None:
    s = state(hands=(["bortnik"], ["kuznets"]), fields={(0, 0): ["seyanets"], (1, 0): ["seyanets"]})
    events = play(s, 0, "bortnik", 0)
    assert units(s, 0, 0) == [("seyanets", 4), ("bortnik", 4)]
    assert units(s, 1, 0) == [("seyanets", 3)]
    assert [e["placement"] for e in of_kind(events, "sprout")] == [1]


def test_sprout_ignores_enemy_units() -> None:
    s = state(hands=(["bortnik"], ["kuznets"]), fields={(0, 0): ["seyanets"]}, turn=1)
    play(s, 1, "kuznets", 0)
    assert units(s, 0, 0) == [("seyanets", 3)]


def test_face_down_unit_entering_triggers_sprout() -> None:
    # D14 step 6
    s = state(hands=(["ten_v_listve"], ["kuznets"]), fields={(2, 0): ["seyanets"]})
    play(s, 0, "ten_v_listve", 2)
    assert units(s, 2, 0) == [("seyanets", 4), ("ten_v_listve", 5)]


def test_face_down_sprout_unit_grows() -> None:
    s = state(hands=(["bortnik"], ["kuznets"]), fields={(2, 0): ["sova"]})
    events = play(s, 0, "bortnik", 2)
    assert units(s, 2, 0) == [("sova", 4), ("bortnik", 4)]
    assert of_kind(events, "sprout")[0]["face_down"] is True


# --- Одиночка ---------------------------------------------------------------------------------


def test_loner_gets_three_when_alone() -> None:
    s = state(hands=(["otshelnik"], ["kuznets"]), fields={(0, 1): ["kuznets"]})
    events = play(s, 0, "otshelnik", 0)
    assert units(s, 0, 0) == [("otshelnik", 6)]
    assert of_kind(events, "loner")[0]["amount"] == 3


def test_loner_counts_own_face_down_unit() -> None:
    # D14 step 4: "no other unit" counts the owner's face-down units
    s = state(hands=(["otshelnik"], ["kuznets"]), fields={(0, 0): ["ten_v_listve"]})
    play(s, 0, "otshelnik", 0)
    assert units(s, 0, 0)[1] == ("otshelnik", 3)


def test_loner_counts_carried_root_unit() -> None:
    # D3: a carried root unit counts as "your unit on that field"
    s = _pause(hands=(["otshelnik"], ["kuznets"]), fields={(0, 0): ["stary_dub"]})
    next_season(s)
    play(s, 0, "otshelnik", 0)
    assert units(s, 0, 0) == [("stary_dub", 5), ("otshelnik", 3)]


# --- Клич -------------------------------------------------------------------------------------


def test_rally_gives_one_to_each_other_own_unit_on_the_field() -> None:
    s = state(
        hands=(["bortnik"], ["znamenosets"]), fields={(1, 1): ["kuznets", "golem"], (1, 0): ["bortnik"]}
    )
    s.turn = 1
    events = play(s, 1, "znamenosets", 1)
    assert units(s, 1, 1) == [("kuznets", 6), ("golem", 9), ("znamenosets", 2)]
    assert units(s, 1, 0) == [("bortnik", 4)]
    assert [t["card"] for t in of_kind(events, "rally")[0]["targets"]] == ["kuznets", "golem"]


def test_master_gorna_rallies_too() -> None:
    s = state(hands=(["bortnik"], ["master_gorna"]), fields={(0, 1): ["podmasterye"]}, turn=1)
    play(s, 1, "master_gorna", 0)
    assert units(s, 0, 1) == [("podmasterye", 3), ("master_gorna", 5)]


def test_rally_is_one_time_later_arrivals_get_nothing() -> None:
    # D12
    s = state(hands=(["bortnik"], ["znamenosets", "kuznets"]), fields={(0, 0): ["bortnik"]}, turn=1)
    play(s, 1, "znamenosets", 0)
    pass_(s, 0)
    play(s, 1, "kuznets", 0)
    assert units(s, 0, 1) == [("znamenosets", 2), ("kuznets", 5)]


def test_rally_bonus_stays_when_the_rally_unit_burns() -> None:
    # D12: not an aura. (In play nothing of Ольха can burn a клич unit; burn it through the damage path.)
    s = state(hands=(["rosa"], ["znamenosets"]), fields={(0, 1): ["kuznets"]}, turn=1)
    play(s, 1, "znamenosets", 0)
    rally_unit = s.halves[0][1][1]
    assert damage(s, 0, 1, rally_unit, 5) == (False, True)
    assert units(s, 0, 1) == [("kuznets", 6)]


# --- Выстрел and Щит --------------------------------------------------------------------------


def test_arbaletchik_deals_two_to_the_strongest_face_up_enemy() -> None:
    s = state(hands=(["bortnik"], ["arbaletchik"]), fields={(1, 0): ["seyanets", "pen_velikan"]}, turn=1)
    events = play(s, 1, "arbaletchik", 1)
    assert units(s, 1, 0) == [("seyanets", 3), ("pen_velikan", 6)]
    shot = of_kind(events, "shot")[0]
    assert (shot["card"], shot["target_card"], shot["damage"], shot["shield_absorbed"]) == (
        "arbaletchik",
        "pen_velikan",
        2,
        False,
    )


def test_pushkar_deals_three() -> None:
    s = state(hands=(["bortnik"], ["pushkar"]), fields={(1, 0): ["pen_velikan"]}, turn=1)
    play(s, 1, "pushkar", 1)
    assert units(s, 1, 0) == [("pen_velikan", 5)]


def test_shot_tie_goes_to_the_unit_placed_later() -> None:
    s = state(hands=(["rosa"], ["arbaletchik"]), fields={(0, 0): ["bortnik", "bortnik"]}, turn=1)
    events = play(s, 1, "arbaletchik", 0)
    assert of_kind(events, "shot")[0]["target_placement"] == 2
    assert units(s, 0, 0) == [("bortnik", 4), ("bortnik", 2)]


def test_shot_without_a_face_up_enemy_has_no_effect() -> None:
    s = state(hands=(["rosa"], ["arbaletchik"]), fields={(0, 0): ["bortnik"]}, turn=1)
    events = play(s, 1, "arbaletchik", 1)
    assert kinds(events) == ["play"]


def test_unit_brought_to_zero_burns_and_frees_its_slot() -> None:
    # §Strength, damage, burning; §A season: a burned unit frees its slot at once
    field = ["seyanets", "seyanets", "otshelnik", unit("bortnik", strength=3)]  # all 3: the latest is hit
    s = state(hands=(["pen_velikan"], ["pushkar"]), fields={(0, 0): field}, turn=1)
    assert Play(card="pen_velikan", field=0) not in GAME.legal_actions(s, 0)
    events = play(s, 1, "pushkar", 0)
    assert of_kind(events, "burn") == [
        {"kind": "burn", "seat": 0, "field": 0, "placement": 4, "card": "bortnik", "cause": "shot"}
    ]
    assert GAME.view(s, 1)["discards"][0] == ["bortnik"]
    assert Play(card="pen_velikan", field=0) in GAME.legal_actions(s, 0)


def test_shield_cancels_the_first_damage_whatever_its_size_then_is_spent() -> None:
    # §Abilities — Щит. Only Горн has shields and only lightning can reach a Горн unit in play
    # (test_mezha_omens covers that); the engine's one damage path is checked directly here.

    s = state(hands=(["bortnik"], ["kuznets"]), fields={(0, 1): ["shchitonosets"]})
    u = s.halves[0][1][0]
    assert damage(s, 0, 1, u, 3) == (True, False)
    assert (u.strength, u.shield) == (4, False)
    assert damage(s, 0, 1, u, 3) == (False, False)
    assert u.strength == 1
    assert GAME.view(s, 0)["fields"][0][1]["units"][0]["shield"] == "spent"


# --- Гонец ------------------------------------------------------------------------------------


def test_messenger_draws_one_card() -> None:
    s = state(hands=(["vedunya"], ["kuznets"]), tops=(["pen_velikan"], []))
    events = play(s, 0, "vedunya", 0)
    assert of_kind(events, "draw") == [
        {"kind": "draw", "seat": 0, "card": "pen_velikan", "reason": "messenger"}
    ]
    assert hand(s, 0) == ["pen_velikan"]


def test_messenger_draws_with_the_hand_already_smaller() -> None:
    # §A season: the played card leaves the hand first, so a full hand of 10 still draws
    ten = [
        "vedunya",
        "seyanets",
        "seyanets",
        "seyanets",
        "bortnik",
        "bortnik",
        "otshelnik",
        "sova",
        "sova",
        "rosa",
    ]
    s = state(hands=(ten, ["kuznets"]), tops=(["pen_velikan"], []))
    play(s, 0, "vedunya", 0)
    assert len(hand(s, 0)) == 10 and "pen_velikan" in hand(s, 0)


def test_messenger_draws_nothing_from_an_empty_deck() -> None:
    s = state(hands=(["vedunya", "bortnik"], ["kuznets"]), rest=("discard", "deck"))
    events = play(s, 0, "vedunya", 0)
    assert of_kind(events, "draw_skipped") == [
        {"kind": "draw_skipped", "seat": 0, "reason": "messenger", "cause": "deck_empty"}
    ]


def test_podmasterye_is_a_messenger() -> None:
    s = state(hands=(["bortnik"], ["podmasterye"]), tops=([], ["golem"]), turn=1)
    play(s, 1, "podmasterye", 2)
    assert hand(s, 1) == ["golem"]


# --- Роса and Поджог --------------------------------------------------------------------------


def test_rosa_gives_one_and_two_to_sprout_units() -> None:
    s = state(
        hands=(["rosa"], ["kuznets"]),
        fields={(1, 0): ["bortnik", "seyanets", "sova"], (0, 0): ["bortnik"], (1, 1): ["kuznets"]},
    )
    events = play(s, 0, "rosa", 1)
    assert units(s, 1, 0) == [("bortnik", 5), ("seyanets", 5), ("sova", 5)]
    assert units(s, 0, 0) == [("bortnik", 4)]
    assert units(s, 1, 1) == [("kuznets", 5)]
    assert kinds(events) == ["rosa", "rosa_buff", "rosa_buff", "rosa_buff"]
    assert GAME.view(s, 1)["discards"][0] == ["rosa"]


def test_podzhog_deals_two_to_each_face_up_enemy_unit() -> None:
    s = state(
        hands=(["rosa"], ["podzhog"]),
        fields={(0, 0): ["seyanets", unit("bortnik", strength=2), "pen_velikan"], (1, 0): ["bortnik"]},
        turn=1,
    )
    events = play(s, 1, "podzhog", 0)
    assert units(s, 0, 0) == [("seyanets", 1), ("pen_velikan", 6)]
    assert units(s, 1, 0) == [("bortnik", 4)]
    assert kinds(events) == ["podzhog", "podzhog_hit", "podzhog_hit", "burn", "podzhog_hit"]
    assert GAME.view(s, 0)["discards"] == [["bortnik"], ["podzhog"]]


def test_podzhog_does_not_hit_own_units() -> None:
    s = state(hands=(["bortnik"], ["podzhog"]), fields={(0, 1): ["kuznets"], (0, 0): ["bortnik"]}, turn=1)
    play(s, 1, "podzhog", 0)
    assert units(s, 0, 1) == [("kuznets", 5)]


# --- D14 entry sequence -----------------------------------------------------------------------


def test_entry_sequence_thaw_loner_then_sprout() -> None:
    # D14: (3) Оттепель, (4) одиночка, (5) own effect, (6) росток
    s = state(omens=("thaw",), hands=(["otshelnik"], ["kuznets"]))
    assert kinds(play(s, 0, "otshelnik", 0)) == ["play", "thaw", "loner"]
    assert units(s, 0, 0) == [("otshelnik", 8)]


def test_entry_sequence_own_effect_before_sprout() -> None:
    s = state(hands=(["vedunya"], ["kuznets"]), fields={(1, 0): ["seyanets"]})
    assert kinds(play(s, 0, "vedunya", 1)) == ["play", "draw", "sprout"]


def test_play_event_carries_seat_card_field_placement_face_down() -> None:
    s = state(hands=(["bortnik"], ["kuznets"]), fields={(2, 1): ["kuznets"]})
    assert play(s, 0, "bortnik", 2)[0] == {
        "kind": "play",
        "seat": 0,
        "field": 2,
        "placement": 2,
        "card": "bortnik",
        "strength": 4,
        "face_down": False,
    }


def test_season_draws_happen_in_next_season_not_before() -> None:
    s = _pause(hands=(["bortnik"], ["kuznets"]))
    assert len(hand(s, 0)) == 1
    next_season(s)
    assert len(hand(s, 0)) == 3
