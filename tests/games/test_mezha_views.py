"""rules/mezha.md §What each player sees: view, full_view, event_view; D7; positions and determinize."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from test_mezha_helpers import of_kind, pass_, play, position, resign, state, unit, won_result

from duelclub.games.mezha import GAME
from duelclub.games.mezha.cards import CARD_INDEX


def _board() -> object:
    return state(
        omens=("thaw", "storm", "fair", "drought"),
        hands=(["seyanets", "bortnik", "seyanets"], ["golem", "kuznets"]),
        fields={
            (0, 0): [unit("sova", strength=6, thaw=True, opps=1)],
            (0, 1): [unit("shchitonosets", shield=False)],
            (1, 0): [unit("stary_dub", season=1)],
        },
        discards=(["rosa"], ["podzhog"]),
    )


def test_view_lists_own_hand_in_table_order() -> None:
    assert GAME.view(_board(), 0)["hand"] == ["seyanets", "seyanets", "bortnik"]


def test_view_gives_the_opponent_hand_and_deck_sizes_only() -> None:
    v = GAME.view(_board(), 1)
    assert v["hand"] == ["kuznets", "golem"]
    assert v["hand_sizes"] == [3, 2] and v["deck_sizes"] == [14, 16]
    assert "hands" not in v and "decks" not in v


def test_spectator_sees_no_hand() -> None:
    v = GAME.view(_board(), None)
    assert v["hand"] is None and v["you"] is None


def test_discards_are_public_in_arrival_order() -> None:
    assert GAME.view(_board(), None)["discards"] == [["rosa"], ["podzhog"]]


def test_opponent_face_down_unit_shows_only_hidden_and_placement() -> None:
    v = GAME.view(_board(), 1)
    assert v["fields"][0][0] == {"units": [{"hidden": True, "placement": 1}], "total": 0, "hidden": 1}


def test_spectator_sees_face_down_units_as_hidden() -> None:
    assert GAME.view(_board(), None)["fields"][0][0]["units"] == [{"hidden": True, "placement": 1}]


def test_owner_sees_face_down_unit_fully_with_exact_total() -> None:
    half = GAME.view(_board(), 0)["fields"][0][0]
    assert half == {
        "units": [
            {
                "card": "sova",
                "strength": 6,
                "shield": None,
                "placement": 1,
                "face_down": True,
                "carried": False,
            }
        ],
        "total": 6,
        "hidden": 0,
    }


def test_face_up_units_show_strength_shield_state_and_placement() -> None:
    u = GAME.view(_board(), 0)["fields"][0][1]["units"][0]
    assert u == {
        "card": "shchitonosets",
        "strength": 4,
        "shield": "spent",
        "placement": 2,
        "face_down": False,
        "carried": False,
    }


def test_view_shows_season_omen_turn_phase_and_flags() -> None:
    v = GAME.view(_board(), 0)
    assert (v["season"], v["omen"], v["phase"], v["turn"], v["starter"]) == (1, "thaw", "season", 0, 0)
    assert (v["passed"], v["auto_passed"], v["wins"], v["results"]) == (
        [False, False],
        [False, False],
        [0, 0],
        [],
    )
    assert (v["capacity"], v["houses"], v["outcome"], v["you"]) == (4, ["olkha", "gorn"], None, 0)


def test_later_omens_are_not_in_any_view() -> None:
    # D7: only the current season's omen is visible
    for seat in (0, 1, None):
        v = GAME.view(_board(), seat)
        assert "omens" not in v
        assert "storm" not in json.dumps(v) and "drought" not in json.dumps(v)


def test_past_omens_and_results_are_in_the_view() -> None:
    s = state(
        season=2,
        omens=("storm", "fair"),
        starter=1,
        turn=1,
        results=[won_result(1, 1, omen="storm")],
        hands=(["bortnik"], ["kuznets"]),
    )
    v = GAME.view(s, None)
    assert v["results"][0]["omen"] == "storm" and v["wins"] == [0, 1]


def test_view_is_deterministic_json() -> None:
    s = _board()
    assert json.dumps(GAME.view(s, 0), sort_keys=False) == json.dumps(GAME.view(GAME.copy(s), 0))
    json.dumps(GAME.full_view(s))


def test_full_view_shows_everything() -> None:
    full = GAME.full_view(_board())
    assert full["hands"] == [["seyanets", "seyanets", "bortnik"], ["kuznets", "golem"]]
    assert len(full["decks"][0]) == 14 and full["omens"] == ["thaw", "storm", "fair", "drought"]
    assert full["fields"][0][0]["units"][0]["card"] == "sova"


def test_view_after_the_match_is_over_is_the_full_view() -> None:
    s = _board()
    resign(s, 0)
    v = GAME.view(s, 1)
    assert v["fields"][0][0]["units"][0]["card"] == "sova"
    assert v["hands"][0] == ["seyanets", "seyanets", "bortnik"]
    assert v["outcome"] == {"winner": 1, "reason": "resign"}


# --- event_view -------------------------------------------------------------------------------


def test_drawn_card_id_goes_to_the_drawer_only() -> None:
    s = state(hands=(["vedunya"], ["kuznets"]), tops=(["pen_velikan"], []))
    draw = of_kind(play(s, 0, "vedunya", 0), "draw")[0]
    assert GAME.event_view(s, draw, 0)["card"] == "pen_velikan"
    assert GAME.event_view(s, draw, 1) == {"kind": "draw", "seat": 0, "reason": "messenger"}
    assert "card" not in GAME.event_view(s, draw, None)


def test_face_down_entry_event_hides_card_and_strength() -> None:
    s = state(hands=(["ten_v_listve"], ["kuznets"]))
    ev = play(s, 0, "ten_v_listve", 1)[0]
    expected = {"kind": "play", "seat": 0, "field": 1, "placement": 1, "face_down": True}
    assert GAME.event_view(s, ev, 1) == expected
    assert GAME.event_view(s, ev, None) == expected
    assert GAME.event_view(s, ev, 0) == ev


def test_rosa_on_a_face_down_unit_is_redacted_and_its_sprout_not_shown_at_all() -> None:
    s = state(hands=(["rosa", "bortnik"], ["kuznets", "golem"]), fields={(2, 0): ["sova"]})
    events = play(s, 0, "bortnik", 2) + play(s, 1, "kuznets", 0) + play(s, 0, "rosa", 2)
    sprout, rosa_buff = [e for e in events if e.get("face_down")]
    assert (sprout["kind"], rosa_buff["kind"]) == ("sprout", "rosa_buff")
    # a growth event, even redacted, would name the card: Сова is the only тайник card with росток
    assert GAME.event_view(s, sprout, 1) is None
    assert GAME.event_view(s, sprout, None) is None
    assert GAME.event_view(s, sprout, 0) == sprout
    seen = GAME.event_view(s, rosa_buff, 1)
    assert seen is not None
    assert not {"card", "strength", "amount"} & seen.keys()


def test_face_up_events_are_not_redacted() -> None:
    s = state(hands=(["bortnik"], ["kuznets"]))
    ev = play(s, 0, "bortnik", 0)[0]
    assert GAME.event_view(s, ev, 1) == ev == GAME.event_view(s, ev, None)


def test_every_event_is_public_after_the_match_ends() -> None:
    s = state(hands=(["ten_v_listve"], ["kuznets"]))
    ev = play(s, 0, "ten_v_listve", 1)[0]
    resign(s, 1)
    assert GAME.event_view(s, ev, 1) == ev == GAME.event_view(s, ev, None)


# --- positions --------------------------------------------------------------------------------


def test_position_round_trips_exactly() -> None:
    s = GAME.new_match(bytes(range(32)), GAME.parse_options({"house": "gorn"}))
    pos = GAME.to_position(s)
    assert GAME.to_position(GAME.from_position(pos)) == pos
    assert pos["game"] == "mezha" and pos["version"] == 1


def test_position_keeps_the_stream_position() -> None:
    s = GAME.new_match(bytes(range(32)), GAME.parse_options({}))
    back = GAME.from_position(GAME.to_position(s))
    assert back.stream.position == s.stream.position and back.stream.word() == s.stream.copy().word()


@pytest.mark.parametrize(
    ("key", "value"),
    [("game", "towers"), ("version", 2), ("season", 4), ("phase", "lunch"), ("houses", ["olkha", "olkha"])],
)
def test_malformed_position_raises_value_error(key: str, value: object) -> None:
    pos = position(hands=(["bortnik"], ["kuznets"]))
    pos[key] = value
    with pytest.raises(ValueError):
        GAME.from_position(pos)


def test_position_with_a_wrong_card_count_raises_value_error() -> None:
    pos = position(hands=(["bortnik"], ["kuznets"]))
    pos["hands"][0].append("pen_velikan")
    with pytest.raises(ValueError):
        GAME.from_position(pos)


def test_position_with_a_card_of_the_other_house_raises_value_error() -> None:
    pos = position(hands=(["bortnik"], ["kuznets"]))
    pos["hands"][0] = ["kuznets"]
    with pytest.raises(ValueError):
        GAME.from_position(pos)


def test_position_missing_a_key_raises_value_error() -> None:
    pos = position()
    del pos["fields"]
    with pytest.raises(ValueError):
        GAME.from_position(pos)


# --- determinize ------------------------------------------------------------------------------


def test_determinize_keeps_the_view_and_resamples_the_opponent_hand() -> None:
    s = GAME.new_match(bytes(range(32)), GAME.parse_options({}))
    hands = set()
    for i in range(20):
        d = GAME.determinize(s, 0, random.Random(i))
        assert GAME.view(d, 0) == GAME.view(s, 0)
        assert Counter(GAME.full_view(d)["hands"][1] + GAME.full_view(d)["decks"][1]) == Counter(
            GAME.full_view(s)["hands"][1] + GAME.full_view(s)["decks"][1]
        )
        hands.add(tuple(GAME.full_view(d)["hands"][1]))
    assert len(hands) > 1


def test_determinize_hides_the_stream_key() -> None:
    s = GAME.new_match(bytes(range(32)), GAME.parse_options({}))
    d = GAME.determinize(s, 1, random.Random(0))
    assert d.stream.key != s.stream.key and d.stream.position == s.stream.position


def test_determinize_face_down_identity_is_a_cache_card_with_consistent_strength() -> None:
    s = state(
        omens=("thaw",),
        hands=(["rosa"], ["kuznets"]),
        fields={(0, 0): [unit("ten_v_listve", strength=8, thaw=True, rosa=1)]},
    )
    seen = set()
    for i in range(40):
        u = GAME.determinize(s, 1, random.Random(i)).halves[0][0][0]
        seen.add((u.kind, u.strength))
    assert seen == {(CARD_INDEX["ten_v_listve"], 8), (CARD_INDEX["sova"], 7)}


def test_determinize_does_not_know_a_face_down_unit_that_grew_unseen() -> None:
    # another own unit entered its field; the opponent never saw whether it grew (event_view hides it)
    s = state(hands=(["rosa"], ["kuznets"]), fields={(0, 0): [unit("sova", strength=4, opps=1), "bortnik"]})
    seen = set()
    for i in range(40):
        u = GAME.determinize(s, 1, random.Random(i)).halves[0][0][0]
        seen.add((u.kind, u.strength))
    assert seen == {(CARD_INDEX["sova"], 4), (CARD_INDEX["ten_v_listve"], 5)}


def test_determinize_shuffles_only_unseen_omens() -> None:
    s = state(
        season=2,
        results=[won_result(1, 0)],
        omens=("fair", "thaw", "drought", "storm"),
        hands=(["bortnik"], ["kuznets"]),
    )
    orders = {tuple(GAME.full_view(GAME.determinize(s, 0, random.Random(i)))["omens"]) for i in range(30)}
    assert {o[:2] for o in orders} == {("fair", "thaw")}
    assert len(orders) == 2


def test_determinize_after_the_match_is_a_plain_copy() -> None:
    s = state(hands=(["bortnik"], ["kuznets"]))
    resign(s, 0)
    d = GAME.determinize(s, 0, random.Random(1))
    assert GAME.to_position(d) == GAME.to_position(s)


def test_copy_is_independent() -> None:
    s = state(hands=(["bortnik"], ["kuznets"]), fields={(0, 0): ["seyanets"]})
    c = GAME.copy(s)
    play(c, 0, "bortnik", 0)
    pass_(c, 1)
    assert GAME.to_position(s) == position(hands=(["bortnik"], ["kuznets"]), fields={(0, 0): ["seyanets"]})


def test_determinize_output_does_not_depend_on_the_hidden_orders() -> None:
    # Own deck order and later omens are hidden from the seat: two states differing only there must
    # determinize identically for the same rng, or a caller knowing the rng seed could undo the shuffle.
    a = state(season=1, omens=("fair", "thaw", "drought", "storm"), hands=(["bortnik"], ["kuznets"]))
    b = GAME.copy(a)
    b.decks[0].reverse()
    b.omens[1:] = list(reversed(b.omens[1:]))
    da = GAME.determinize(a, 0, random.Random(123))
    db = GAME.determinize(b, 0, random.Random(123))
    assert GAME.to_position(da) == GAME.to_position(db)


def test_view_shows_which_thaw_bonuses_are_used() -> None:
    s = state(hands=(["bortnik"], ["kuznets"]), omens=("thaw", "fair", "drought", "storm"))
    play(s, 0, "bortnik", 2)
    assert GAME.view(s, 1)["thaw_used"] == [[False, False, True], [False, False, False]]
