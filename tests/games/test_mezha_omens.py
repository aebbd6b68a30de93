"""rules/mezha.md §Omens: Оттепель (D16), Засуха (D8), Ярмарка (D11), Гроза (D2, D15)."""

from __future__ import annotations

from test_mezha_helpers import hand, next_season, of_kind, pass_, play, state, unit, units, won_result

from duelclub.games.mezha import GAME
from duelclub.games.mezha.actions import Play
from duelclub.games.mezha.state import State

# --- Оттепель ---------------------------------------------------------------------------------


def test_thaw_gives_two_to_the_first_unit_on_a_field() -> None:
    s = state(omens=("thaw",), hands=(["bortnik", "bortnik"], ["kuznets", "kuznets"]))
    events = play(s, 0, "bortnik", 0)
    assert of_kind(events, "thaw")[0]["amount"] == 2
    assert units(s, 0, 0) == [("bortnik", 6)]


def test_thaw_second_unit_on_the_same_field_gets_nothing() -> None:
    s = state(omens=("thaw",), hands=(["bortnik", "bortnik"], ["kuznets", "kuznets"]))
    play(s, 0, "bortnik", 0)
    play(s, 1, "kuznets", 1)
    play(s, 0, "bortnik", 0)
    assert units(s, 0, 0) == [("bortnik", 6), ("bortnik", 4)]


def test_thaw_bonus_is_per_player_and_per_field() -> None:
    s = state(omens=("thaw",), hands=(["bortnik", "bortnik"], ["kuznets", "kuznets"]))
    play(s, 0, "bortnik", 0)
    play(s, 1, "kuznets", 0)
    play(s, 0, "bortnik", 1)
    assert units(s, 0, 0) == [("bortnik", 6)]
    assert units(s, 0, 1) == [("kuznets", 7)]
    assert units(s, 1, 0) == [("bortnik", 6)]


def test_thaw_applies_to_a_face_down_unit_and_stays_hidden() -> None:
    s = state(omens=("thaw",), hands=(["ten_v_listve"], ["kuznets"]))
    events = play(s, 0, "ten_v_listve", 2)
    assert units(s, 2, 0) == [("ten_v_listve", 7)]
    thaw = of_kind(events, "thaw")[0]
    assert GAME.event_view(s, thaw, 1) == {
        "kind": "thaw",
        "seat": 0,
        "field": 2,
        "placement": 1,
        "face_down": True,
    }
    assert GAME.view(s, 1)["fields"][2][0] == {
        "units": [{"hidden": True, "placement": 1}],
        "total": 0,
        "hidden": 1,
    }


def test_thaw_not_given_again_after_the_first_unit_burned_in_play() -> None:
    # D16: the Ведунья takes the bonus (4), burns to two Поджог, and the next unit there gets no bonus
    s = state(omens=("thaw",), hands=(["vedunya", "vedunya", "bortnik"], ["podzhog", "podzhog"]))
    play(s, 0, "vedunya", 0)  # 2 + 2 = 4
    play(s, 1, "podzhog", 0)  # 2
    play(s, 0, "bortnik", 1)
    play(s, 1, "podzhog", 0)  # 0: burns
    assert units(s, 0, 0) == []
    play(s, 0, "vedunya", 0)
    assert units(s, 0, 0) == [("vedunya", 2)]


def test_carried_root_neither_gets_nor_uses_the_thaw_bonus() -> None:
    # D3, D16: the first unit *put* onto the field in the new season still gets it
    s = state(
        omens=("fair", "thaw"),
        phase="pause",
        passed=(True, True),
        results=[won_result(1, 0)],
        hands=(["bortnik"], ["kuznets"]),
        fields={(0, 0): [unit("stary_dub", strength=6)]},
    )
    next_season(s)
    assert units(s, 0, 0) == [("stary_dub", 6)]
    play(s, 0, "bortnik", 0)
    assert units(s, 0, 0) == [("stary_dub", 6), ("bortnik", 6)]


def test_tactic_does_not_use_the_thaw_bonus() -> None:
    s = state(omens=("thaw",), hands=(["rosa", "bortnik"], ["kuznets", "kuznets"]))
    play(s, 0, "rosa", 0)
    play(s, 1, "kuznets", 1)
    play(s, 0, "bortnik", 0)
    assert units(s, 0, 0) == [("bortnik", 6)]


# --- Засуха -----------------------------------------------------------------------------------


def test_drought_half_holds_three_units() -> None:
    s = state(
        omens=("drought",), hands=(["pen_velikan"], ["kuznets"]), fields={(0, 0): ["bortnik"] * 2 + ["sova"]}
    )
    assert GAME.view(s, 0)["capacity"] == 3
    assert Play(card="pen_velikan", field=0) not in GAME.legal_actions(s, 0)


def test_four_units_fit_without_drought() -> None:
    s = state(
        omens=("fair",), hands=(["pen_velikan"], ["kuznets"]), fields={(0, 0): ["bortnik"] * 2 + ["sova"]}
    )
    assert GAME.view(s, 0)["capacity"] == 4
    assert Play(card="pen_velikan", field=0) in GAME.legal_actions(s, 0)


def test_drought_carried_roots_are_not_removed_to_make_room() -> None:
    # D8
    roots = ["stary_dub", "stary_dub", "khozyayka_roshchi"]
    s = state(
        omens=("fair", "drought"),
        phase="pause",
        passed=(True, True),
        results=[won_result(1, 1)],
        hands=(["bortnik"], ["kuznets"]),
        fields={(1, 0): roots},
    )
    next_season(s)
    assert [c for c, _ in units(s, 1, 0)] == roots
    assert Play(card="bortnik", field=1) not in GAME.legal_actions(s, 0)


# --- Ярмарка ----------------------------------------------------------------------------------


def test_fair_first_passer_draws_a_card() -> None:
    s = state(omens=("fair",), hands=(["bortnik"], ["kuznets"]), tops=(["pen_velikan"], ["golem"]))
    events = pass_(s, 0)
    assert of_kind(events, "draw") == [{"kind": "draw", "seat": 0, "card": "pen_velikan", "reason": "fair"}]
    assert hand(s, 0) == ["bortnik", "pen_velikan"]


def test_fair_second_pass_draws_nothing() -> None:
    s = state(omens=("fair",), hands=(["bortnik"], ["kuznets"]), tops=(["pen_velikan"], ["golem"]))
    pass_(s, 0)
    events = pass_(s, 1)
    assert of_kind(events, "draw") == []
    assert hand(s, 1) == ["kuznets"]


def test_fair_automatic_first_pass_draws() -> None:
    # D11: an automatic pass is a pass, even though the card cannot be played this season
    s = state(omens=("fair",), hands=(["bortnik", "bortnik"], []), tops=([], ["golem"]))
    events = play(s, 0, "bortnik", 0)
    assert [e["kind"] for e in events][-2:] == ["pass", "draw"]
    assert hand(s, 1) == ["golem"]
    assert GAME.to_move(s) == frozenset({0})


def test_fair_draw_is_skipped_with_ten_cards() -> None:
    # D5
    ten = ["seyanets"] * 3 + ["bortnik"] * 2 + ["sova"] * 2 + ["rosa"] * 2 + ["vedunya"]
    s = state(omens=("fair",), hands=(ten, ["kuznets"]))
    events = pass_(s, 0)
    assert of_kind(events, "draw_skipped")[0]["cause"] == "hand_full"
    assert len(hand(s, 0)) == 10


def test_no_draw_on_pass_without_fair() -> None:
    s = state(omens=("storm",), hands=(["bortnik"], ["kuznets"]))
    assert of_kind(pass_(s, 0), "draw") == []


# --- Гроза ------------------------------------------------------------------------------------


def _score_storm(fields: dict[tuple[int, int], list[object]]) -> tuple[State, list[dict[str, object]]]:
    s = state(omens=("storm",), hands=(["rosa"], ["podzhog"]), fields=fields)  # type: ignore[arg-type]
    pass_(s, 0)
    return s, pass_(s, 1)


def test_lightning_hits_the_strongest_unit_over_both_halves() -> None:
    s, events = _score_storm({(0, 0): ["pen_velikan"], (0, 1): ["kuznets"]})
    assert units(s, 0, 0) == [("pen_velikan", 5)]
    hit = of_kind(events, "lightning")[0]
    assert (hit["seat"], hit["card"], hit["damage"], hit["strength"], hit["burned"]) == (
        0,
        "pen_velikan",
        3,
        5,
        False,
    )


def test_lightning_tie_goes_to_the_unit_placed_later() -> None:
    s, events = _score_storm({(1, 1): ["kuznets"], (1, 0): ["bortnik", unit("bortnik", strength=5)]})
    assert of_kind(events, "lightning")[0]["placement"] == 3
    assert units(s, 1, 1) == [("kuznets", 5)]


def test_lightning_strikes_after_the_reveal() -> None:
    # §Scoring a season: reveal first, so a face-down unit can be the target
    s, events = _score_storm({(2, 0): ["ten_v_listve"], (2, 1): ["podmasterye"]})
    assert [e["kind"] for e in events].index("reveal") < [e["kind"] for e in events].index("lightning")
    assert units(s, 2, 0) == [("ten_v_listve", 2)]


def test_lightning_is_cancelled_by_a_shield() -> None:
    # D2: lightning is damage, so щит cancels it
    s, events = _score_storm({(0, 1): ["golem"], (0, 0): ["bortnik"]})
    assert units(s, 0, 1) == [("golem", 8)]
    assert of_kind(events, "lightning")[0]["shield_absorbed"] is True
    assert GAME.view(s, 0)["fields"][0][1]["units"][0]["shield"] == "spent"


def test_lightning_burn_counts_for_nothing_in_scoring() -> None:
    # D15: 3 damage to a 3-strength unit burns it before the fields are counted
    _, events = _score_storm({(0, 0): ["otshelnik"], (0, 1): ["podmasterye"]})
    assert of_kind(events, "burn")[0]["cause"] == "lightning"
    scored = of_kind(events, "season_scored")[0]
    assert scored["totals"][0] == [0, 2] and scored["fields"][0] == 1


def test_lightning_burned_root_unit_is_not_carried() -> None:
    # D15
    s, _ = _score_storm({(0, 0): [unit("stary_dub", strength=3)]})
    next_season(s)
    assert units(s, 0, 0) == []
    assert GAME.view(s, 0)["discards"][0][:1] == ["stary_dub"]


def test_lightning_strikes_each_field_once_in_field_order() -> None:
    s, events = _score_storm(
        {(0, 0): ["bortnik"], (1, 1): ["kuznets", "kuznets"], (2, 0): ["seyanets"], (2, 1): ["liteyshchitsa"]}
    )
    hits = of_kind(events, "lightning")
    assert [h["field"] for h in hits] == [0, 1, 2]
    assert units(s, 1, 1) == [("kuznets", 5), ("kuznets", 2)]


def test_lightning_skips_an_empty_field() -> None:
    _, events = _score_storm({(2, 0): ["bortnik"]})
    assert [h["field"] for h in of_kind(events, "lightning")] == [2]


def test_no_lightning_without_storm() -> None:
    s = state(omens=("fair",), hands=(["rosa"], ["podzhog"]), fields={(0, 0): ["pen_velikan"]})
    pass_(s, 0)
    assert of_kind(pass_(s, 1), "lightning") == []
