"""rules/mezha.md §Scoring a season, §Between seasons and match end; D3–D5, D10, D17."""

from __future__ import annotations

from typing import Any

import pytest
from test_mezha_helpers import hand, kinds, next_season, of_kind, pass_, play, state, unit, units, won_result

from duelclub.games.contract import IllegalAction, Outcome
from duelclub.games.mezha import GAME
from duelclub.games.mezha.actions import NEXT_SEASON
from duelclub.games.mezha.state import State


def _score(fields: dict[tuple[int, int], list[Any]], **kw: Any) -> tuple[State, dict[str, Any]]:
    """Both pass at once (omen Засуха: nothing changes on passing); returns the season_scored event."""
    kw.setdefault("omens", ("drought", "thaw", "fair", "storm"))
    kw.setdefault("hands", (["rosa"], ["podzhog"]))
    s = state(fields=fields, **kw)
    pass_(s, s.turn)
    events = pass_(s, s.turn)
    return s, of_kind(events, "season_scored")[0]


def test_field_goes_to_more_strength() -> None:
    _, scored = _score({(0, 0): ["pen_velikan"], (0, 1): ["kuznets"]})
    assert scored["fields"][0] == 0 and scored["totals"][0] == [8, 5]


def test_equal_strength_field_goes_to_nobody() -> None:
    _, scored = _score({(1, 0): ["bortnik"], (1, 1): ["liteyshchitsa"]})
    assert scored["fields"][1] is None


def test_empty_half_counts_zero() -> None:
    _, scored = _score({(2, 1): ["podmasterye"]})
    assert scored["fields"] == [None, None, 1] and scored["totals"][2] == [0, 2]


def test_more_fields_wins_the_season() -> None:
    # seat 1 has more strength in total but only one field
    _, scored = _score({(0, 0): ["seyanets"], (1, 0): ["seyanets"], (2, 1): ["golem", "kuznets"]})
    assert scored["fields"] == [0, 0, 1]
    assert scored["strength"] == [6, 13]
    assert scored["winner"] == 0


def test_equal_fields_more_total_strength_wins() -> None:
    # first tie-break: one field each, seat 1 stronger overall
    _, scored = _score({(0, 0): ["pen_velikan"], (1, 1): ["golem", "kuznets"]})
    assert scored["fields"] == [0, 1, None]
    assert scored["winner"] == 1


def test_equal_fields_and_equal_strength_is_a_drawn_season() -> None:
    # second tie-break: nothing left, the season is drawn
    _, scored = _score({(0, 0): ["bortnik"], (1, 1): ["liteyshchitsa"]})
    assert scored["fields"] == [0, 1, None]
    assert scored["winner"] is None


def test_season_scored_event_records_the_result() -> None:
    s, scored = _score({(0, 0): ["bortnik"]})
    assert scored == {
        "kind": "season_scored",
        "season": 1,
        "omen": "drought",
        "starter": 0,
        "fields": [0, None, None],
        "totals": [[4, 0], [0, 0], [0, 0]],
        "strength": [4, 0],
        "winner": 0,
        "wins": [1, 0],
    }
    assert GAME.view(s, 1)["results"] == [{k: v for k, v in scored.items() if k not in ("kind", "wins")}]


def test_scored_season_waits_in_the_pause_with_the_board_in_view() -> None:
    # D17: the scored board stays in view; either seat may send next_season
    s, _ = _score({(0, 0): ["bortnik"]})
    v = GAME.view(s, 1)
    assert (v["phase"], v["turn"], v["to_move"]) == ("pause", None, [0, 1])
    assert GAME.to_move(s) == frozenset({0, 1})
    assert v["fields"][0][0]["units"][0]["card"] == "bortnik"
    assert GAME.legal_actions(s, 0) == GAME.legal_actions(s, 1) == [NEXT_SEASON]


@pytest.mark.parametrize("seat", [0, 1])
def test_either_seat_may_start_the_next_season(seat: int) -> None:
    s, _ = _score({(0, 0): ["bortnik"]})
    assert of_kind(next_season(s, seat), "next_season") == [{"kind": "next_season", "seat": seat}]
    assert GAME.view(s, 0)["season"] == 2


def test_only_the_first_next_season_counts() -> None:
    s, _ = _score({(0, 0): ["bortnik"]})
    next_season(s, 1)
    with pytest.raises(IllegalAction) as err:
        next_season(s, 0)
    assert err.value.code == "not_in_pause"


def test_next_season_order_clear_draws_seat0_first_omen_starter() -> None:
    # D17: (1) clearing, (2) each draws 2, seat 0 first, (3) omen visible, (4) starter
    s, _ = _score({(0, 0): ["bortnik"]}, tops=(["pen_velikan", "sova"], ["golem", "kuznets"]))
    events = next_season(s, 1)
    assert kinds(events) == ["next_season", "clear", "draw", "draw", "draw", "draw", "season_start"]
    assert [(e["seat"], e["card"]) for e in of_kind(events, "draw")] == [
        (0, "pen_velikan"),
        (0, "sova"),
        (1, "golem"),
        (1, "kuznets"),
    ]
    assert events[-1] == {"kind": "season_start", "season": 2, "omen": "thaw", "starter": 0}


def test_clearing_moves_units_to_their_owners_discards() -> None:
    # D4: tactics and burned units are already there; units follow in field order
    s, _ = _score(
        {(0, 0): ["bortnik"], (2, 0): ["seyanets"], (1, 1): ["kuznets"]},
        discards=(["rosa"], []),
    )
    next_season(s)
    assert GAME.view(s, 0)["discards"] == [["rosa", "bortnik", "seyanets"], ["kuznets"]]
    assert all(units(s, f, p) == [] for f in range(3) for p in (0, 1))


def test_units_are_discarded_only_on_next_season() -> None:
    s, _ = _score({(0, 0): ["bortnik"]})
    assert GAME.view(s, 0)["discards"] == [[], []]


def test_root_unit_keeps_strength_and_is_carried_then_discarded() -> None:
    # D3: exactly one extra season
    s, _ = _score({(0, 0): [unit("stary_dub", strength=9)], (1, 1): ["kuznets"], (2, 1): ["kuznets"]})
    next_season(s)
    assert units(s, 0, 0) == [("stary_dub", 9)]
    pass_(s, s.turn)
    pass_(s, s.turn)
    next_season(s)
    assert units(s, 0, 0) == []


def test_winner_starts_the_next_season() -> None:
    s, _ = _score({(0, 1): ["kuznets"]}, starter=0, turn=0)
    next_season(s)
    assert GAME.view(s, 0)["starter"] == 1 and GAME.to_move(s) == frozenset({1})


def test_after_a_drawn_season_the_other_player_starts() -> None:
    s, scored = _score({}, starter=1, turn=1)
    assert scored["winner"] is None
    next_season(s)
    assert GAME.view(s, 0)["starter"] == 0


def test_season_draw_is_two_cards_each() -> None:
    s, _ = _score({(0, 0): ["bortnik"]})
    next_season(s)
    assert GAME.view(s, 0)["hand_sizes"] == [3, 3]


def test_hand_limit_nine_cards_draw_one_and_the_second_stays_on_top() -> None:
    # D5: card by card
    nine = ["seyanets"] * 3 + ["bortnik"] * 2 + ["sova"] * 2 + ["vedunya", "rosa"]
    s, _ = _score({}, hands=(nine, ["podzhog"]), tops=(["pen_velikan", "otshelnik"], []))
    events = next_season(s)
    assert [e.get("card") for e in of_kind(events, "draw") if e["seat"] == 0] == ["pen_velikan"]
    assert of_kind(events, "draw_skipped")[0] == {
        "kind": "draw_skipped",
        "seat": 0,
        "reason": "season",
        "cause": "hand_full",
    }
    assert GAME.full_view(s)["decks"][0][0] == "otshelnik"


def test_hand_limit_ten_cards_draw_nothing() -> None:
    ten = ["seyanets"] * 3 + ["bortnik"] * 2 + ["sova"] * 2 + ["vedunya", "rosa", "rosa"]
    s = state(phase="pause", passed=(True, True), results=[won_result(1, 0)], hands=(ten, []))
    next_season(s)
    assert len(hand(s, 0)) == 10 and GAME.view(s, 0)["deck_sizes"][0] == 10


def test_empty_deck_draws_nothing_and_discards_are_never_reshuffled() -> None:
    # D4, D5
    s = state(
        phase="pause",
        passed=(True, True),
        results=[won_result(1, 0)],
        hands=(["bortnik"], ["kuznets"]),
        rest=("discard", "deck"),
    )
    events = next_season(s)
    assert [e["cause"] for e in of_kind(events, "draw_skipped")] == ["deck_empty", "deck_empty"]
    assert GAME.view(s, 0)["deck_sizes"][0] == 0 and hand(s, 0) == ["bortnik"]


def test_two_season_wins_end_the_match() -> None:
    s, scored = _score({(0, 1): ["kuznets"]}, season=2, results=[won_result(1, 1)])
    assert scored["wins"] == [0, 2]
    assert GAME.outcome(s) == Outcome(1, "two_seasons")
    assert GAME.to_move(s) == frozenset()
    assert GAME.view(s, 0)["phase"] == "over"


def test_match_end_event_follows_the_deciding_season() -> None:
    s = state(
        season=2, results=[won_result(1, 0)], hands=(["rosa"], ["podzhog"]), fields={(0, 0): ["bortnik"]}
    )
    pass_(s, 0)
    events = pass_(s, 1)
    assert events[-1] == {"kind": "match_end", "winner": 0, "reason": "two_seasons"}


def test_one_one_then_a_drawn_third_season_is_a_draw() -> None:
    s, scored = _score({}, season=3, results=[won_result(1, 0), won_result(2, 1)])
    assert scored["winner"] is None
    assert GAME.outcome(s) == Outcome(None, "draw")


def test_three_drawn_seasons_are_a_draw() -> None:
    s, _ = _score({}, season=3, results=[won_result(1, None), won_result(2, None)])
    assert GAME.outcome(s) == Outcome(None, "draw")


def test_one_win_and_two_drawn_seasons_wins_by_more_seasons() -> None:
    # D10
    s, _ = _score({}, season=3, results=[won_result(1, None), won_result(2, 1)])
    assert GAME.outcome(s) == Outcome(1, "more_seasons")


def test_win_in_season_three_after_one_one_is_two_seasons() -> None:
    s, _ = _score({(1, 0): ["bortnik"]}, season=3, results=[won_result(1, 0), won_result(2, 1)])
    assert GAME.outcome(s) == Outcome(0, "two_seasons")


def test_play_then_score_full_season() -> None:
    s = state(hands=(["pen_velikan", "bortnik"], ["kuznets", "golem"]))
    play(s, 0, "pen_velikan", 0)
    play(s, 1, "golem", 1)
    play(s, 0, "bortnik", 2)
    events = pass_(s, 1)  # seat 0's hand is empty: its automatic pass ends the season
    assert of_kind(events, "pass")[1] == {"kind": "pass", "seat": 0, "automatic": True}
    assert of_kind(events, "season_scored")[0]["winner"] == 0


def test_placement_numbers_are_match_wide_and_a_carried_root_keeps_its_number() -> None:
    # D13: one counter over both players and all seasons; the carried root counts as placed earlier,
    # so under Гроза a new unit of equal strength is the one struck
    s = state(
        omens=("fair", "storm"),
        phase="pause",
        passed=(True, True),
        results=[won_result(1, 1)],
        hands=(["rosa"], ["kuznets"]),
        fields={(0, 0): ["stary_dub"], (2, 1): ["liteyshchitsa"]},
    )
    next_season(s)
    events = play(s, 1, "kuznets", 0)
    assert events[0]["placement"] == 3
    assert GAME.view(s, 1)["fields"][0][0]["units"][0]["placement"] == 1
    pass_(s, 0)
    events = pass_(s, 1)
    assert of_kind(events, "lightning")[0]["card"] == "kuznets"


def test_omens_become_visible_season_by_season() -> None:
    # D7: the order is fixed at the start; each omen shows when its season starts
    s, _ = _score({(0, 1): ["kuznets"]}, omens=("drought", "storm", "thaw", "fair"))
    assert GAME.view(s, 0)["omen"] == "drought"
    next_season(s)
    assert GAME.view(s, 0)["omen"] == "storm" and GAME.view(s, 0)["season"] == 2
