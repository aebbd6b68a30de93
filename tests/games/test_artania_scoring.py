"""rules/artania.md §Scoring a turn, §Tie-break, §Clean-up, §End of the game; D17, D18, D22–D24, D27, D30."""

from __future__ import annotations

from artania_helpers import close_window, of_kind, resign, state

from duelclub.games.artania import GAME
from duelclub.games.artania.state import State
from duelclub.games.contract import Outcome

H = (["zaklinatel_3"], ["zaklinatel_3"])


def w4(f_row: list[str], s_row: list[str], **kw: object) -> State:
    kw.setdefault("hands", H)
    return state(step="W4", first=0, slots=(f_row, s_row), **kw)  # type: ignore[arg-type]


def test_totals_sum_base_bonus_and_nektar() -> None:
    # Витязь-3 vs Разбойник-1: +2; Чародей-2 vs Берсерк-2: Чародей's +1 (Берсерк is in Витязь's archetype);
    # Полководец vs Волхв-3: no bonus either way (D3).
    s = w4(
        ["vityaz_3", "charodey_2", "polkovodets"],
        ["razboynik_1", "berserk_2", "volkhv_3"],
        nektar=([[], [], []], [[], [], [0]]),
    )
    v = GAME.view(s, None)
    assert [(x["base"], x["bonus"], x["nektar"]) for x in v["field"][0]] == [(3, 2, 0), (2, 1, 0), (4, 0, 0)]
    assert [(x["base"], x["bonus"], x["nektar"]) for x in v["field"][1]] == [(1, 0, 0), (2, 0, 0), (3, 0, 2)]
    assert v["totals"] == [12, 8]
    events = close_window(s)
    [scored] = of_kind(events, "turn_scored")
    assert scored["totals"] == [12, 8]
    assert of_kind(events, "token") == [{"kind": "token", "seat": 0, "tokens": [1, 0]}]


def test_higher_total_takes_a_token_for_either_seat() -> None:
    s = w4(["vityaz_1", "vityaz_2", "empty"], ["strazh_3", "strazh_2", "strazh_1"])
    close_window(s)
    assert GAME.view(s, None)["tokens"] == [0, 1] and GAME.view(s, None)["pool"] == 8


def test_tiebreak_reveals_tops_and_higher_base_wins_d17_d27() -> None:
    s = w4(["vityaz_2", "empty", "empty"], ["berserk_2", "empty", "empty"], tops=(["vityaz_3"], ["strazh_1"]))
    events = close_window(s)
    assert of_kind(events, "tiebreak") == [
        {
            "kind": "tiebreak",
            "round": 1,
            "cards": ["vityaz_3", "strazh_1"],
            "values": [3, 1],
            "to_hand": [None, None],
        }
    ]
    assert GAME.view(s, None)["tokens"] == [1, 0]


def test_tiebreak_uses_base_swords_only_no_bonus_d17() -> None:
    # Витязь-1 vs Разбойник-1 would be a +2 on the field, but tie-break cards face nothing.
    s = w4(
        ["vityaz_2", "empty", "empty"],
        ["berserk_2", "empty", "empty"],
        tops=(["vityaz_1", "geroy"], ["razboynik_1", "strazh_3"]),
    )
    events = close_window(s)
    rounds = of_kind(events, "tiebreak")
    assert [r["values"] for r in rounds] == [[1, 1], [4, 3]]
    assert GAME.view(s, None)["tokens"] == [1, 0]


def test_tiebreak_repeats_and_equipment_counts_zero_and_goes_to_hand_d17_d35() -> None:
    s = w4(
        ["vityaz_2", "empty", "empty"],
        ["berserk_2", "empty", "empty"],
        tops=(["nektar", "vityaz_3"], ["idol", "strazh_3", "strateg"]),
    )
    events = close_window(s)
    rounds = of_kind(events, "tiebreak")
    assert [(r["cards"], r["values"], r["to_hand"]) for r in rounds] == [
        (["nektar", "idol"], [0, 0], ["nektar", "idol"]),
        (["vityaz_3", "strazh_3"], [3, 3], [None, None]),
        (["vityaz_1", "strateg"], [1, 4], [None, None]),  # seat 0's deck goes on in canonical order
    ]
    v = GAME.view(s, 1)
    assert v["tokens"] == [0, 1]
    assert v["known"] == [["nektar"], ["idol"]]  # D35: public while in hand
    assert "nektar" not in v["discards"][0] and "idol" in v["hand"]


def test_d18_tiebreak_warriors_are_discarded_at_cleanup() -> None:
    s = w4(
        ["vityaz_2", "empty", "empty"],
        ["berserk_2", "empty", "empty"],
        tops=(["vityaz_3", "geroy"], ["strazh_3", "strazh_1"]),
    )
    events = close_window(s)
    [cleanup] = of_kind(events, "cleanup")
    assert cleanup["discarded"] == [["vityaz_2", "vityaz_3", "geroy"], ["berserk_2", "strazh_3", "strazh_1"]]
    assert GAME.view(s, None)["discards"] == cleanup["discarded"]


def test_d17_an_empty_deck_reveals_nothing_and_counts_zero() -> None:
    s = w4(
        ["vityaz_2", "empty", "empty"],
        ["berserk_2", "empty", "empty"],
        tops=([], ["idol", "strazh_1"]),
        rest=("discard", "deck"),
    )
    events = close_window(s)
    rounds = of_kind(events, "tiebreak")
    assert [(r["cards"], r["values"]) for r in rounds] == [
        ([None, "idol"], [0, 0]),
        ([None, "strazh_1"], [0, 1]),
    ]
    assert GAME.view(s, None)["tokens"] == [0, 1]


def test_d17_both_decks_empty_and_still_equal_means_no_token() -> None:
    s = w4(
        ["vityaz_2", "empty", "empty"],
        ["berserk_2", "empty", "empty"],
        tops=(["geroy"], ["strateg"]),
        rest=("discard", "discard"),
    )
    events = close_window(s)
    assert [r["values"] for r in of_kind(events, "tiebreak")] == [[4, 4]]
    assert of_kind(events, "token") == [{"kind": "token", "seat": None, "tokens": [0, 0]}]
    # both decks are now empty: D22 ends the game at clean-up, D23 equal tokens is a draw
    assert GAME.outcome(s) == Outcome(None, "deck_exhausted")


def test_d24_cleanup_discards_the_battlefield_face_up_and_nothing_is_reshuffled() -> None:
    s = w4(["vityaz_3", "vityaz_2", "removed"], ["strazh_1", "empty", "strazh_3"], discards=(["idol"], []))
    events = close_window(s)
    assert of_kind(events, "cleanup")[0]["discarded"] == [["vityaz_3", "vityaz_2"], ["strazh_1", "strazh_3"]]
    v = GAME.view(s, None)
    assert v["discards"] == [["idol", "vityaz_3", "vityaz_2"], ["strazh_1", "strazh_3"]]
    assert [x["state"] for x in v["field"][0]] == ["pending"] * 3
    assert v["deck_sizes"] == [33 - 1 - 3 - 3, 33 - 1 - 2 - 3]  # hand, discards, the draw step


def test_the_turn_record_keeps_the_scored_board() -> None:
    s = w4(["vityaz_3", "empty", "empty"], ["razboynik_1", "empty", "empty"])
    close_window(s)
    [record] = GAME.view(s, None)["results"]
    assert record["turn"] == 1 and record["totals"] == [5, 1] and record["winner"] == 0
    assert record["slots"][0][0]["card"] == "vityaz_3" and record["slots"][0][0]["bonus"] == 2
    assert record["tiebreak"] == [] and record["tokens"] == [1, 0]


def test_fifth_token_wins_at_once_without_draw_step_d30() -> None:
    s = w4(["vityaz_3", "empty", "empty"], ["razboynik_1", "empty", "empty"], tokens=(4, 4))
    events = close_window(s)
    assert GAME.outcome(s) == Outcome(0, "five_tokens")
    assert of_kind(events, "draw") == [] and events[-1] == {
        "kind": "match_end",
        "winner": 0,
        "reason": "five_tokens",
        "tokens": [5, 4],
    }
    assert GAME.to_move(s) == frozenset()


def test_fifth_token_wins_even_when_a_deck_is_empty() -> None:
    s = w4(
        ["vityaz_3", "empty", "empty"],
        ["razboynik_1", "empty", "empty"],
        tokens=(4, 2),
        rest=("discard", "discard"),
    )
    close_window(s)
    assert GAME.outcome(s) == Outcome(0, "five_tokens")


def test_d22_d23_an_empty_deck_at_cleanup_ends_the_game_more_tokens_win() -> None:
    s = w4(
        ["vityaz_3", "empty", "empty"],
        ["razboynik_1", "empty", "empty"],
        tokens=(1, 3),
        rest=("deck", "discard"),
    )
    events = close_window(s)
    assert GAME.outcome(s) == Outcome(1, "deck_exhausted")
    assert of_kind(events, "draw") == []


def test_d23_equal_tokens_at_deck_out_is_a_draw() -> None:
    s = w4(
        ["vityaz_3", "empty", "empty"],
        ["razboynik_1", "empty", "empty"],
        tokens=(1, 2),
        rest=("discard", "deck"),
    )
    close_window(s)
    assert GAME.outcome(s) == Outcome(None, "deck_exhausted")


def test_d22_a_mid_turn_empty_deck_does_not_end_the_turn() -> None:
    s = state(
        hands=(["chasy", "vityaz_1", "vityaz_2"], ["strazh_1"]), step="W0", first=0, rest=("discard", "deck")
    )
    GAME.apply(s, 0, GAME.legal_actions(s, 0)[1])  # Часы with an empty deck: draws nothing
    assert GAME.outcome(s) is None and GAME.view(s, None)["step"] == "W0"


def test_resign_loses_at_any_time() -> None:
    s = w4(["vityaz_3", "empty", "empty"], ["razboynik_1", "empty", "empty"])
    events = resign(s, 1)
    assert events == [
        {"kind": "resign", "seat": 1},
        {"kind": "match_end", "winner": 0, "reason": "resign", "tokens": [0, 0]},
    ]
    assert GAME.outcome(s) == Outcome(0, "resign") and GAME.to_move(s) == frozenset()
