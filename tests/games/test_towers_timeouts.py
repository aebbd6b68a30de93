"""rules/towers.md §9 duel clock at the engine level: the clock-only ``timeout`` action, the worst card
(D25, with ties), the consecutive-timeout counter (D24, D26, D27, D41, D42) and D39."""

from __future__ import annotations

import pytest
from test_towers_helpers import discard, kinds, of_kind, play, state, timeout

from duelclub.games.contract import IllegalAction, Outcome
from duelclub.games.towers import GAME
from duelclub.games.towers.actions import TIMEOUT, discard_action, play_action
from duelclub.games.towers.rules import worst_card
from duelclub.games.towers.state import FORCED_DISCARD, PLAY, TIMEOUT_DISCARD


def _stock(ore: int, mana: int, troops: int) -> list[int]:
    return [20, 5, 2, 2, 2, ore, mana, troops]


# -- the worst card (§9, D25) ------------------------------------------------------------------------------


def test_worst_card_examples_of_section_9() -> None:
    hand = [4, 38, 8, 71]
    assert worst_card(hand, _stock(3, 0, 0)) == 38  # deficits 0, 2, 0, 1
    assert worst_card(hand, _stock(3, 5, 5)) == 4  # all affordable → lowest cost


def test_worst_card_largest_deficit_first() -> None:
    assert worst_card([102, 34, 68], _stock(0, 0, 0)) == 102  # deficits 25, 24, 21


def test_worst_card_deficit_tie_goes_to_lowest_cost() -> None:
    # deficit 3 each: card 34 costs 24 ore with 21 ore, card 43 costs 3 mana with 0 mana
    assert worst_card([34, 43], _stock(21, 0, 0)) == 43


def test_worst_card_cost_tie_goes_to_lowest_id() -> None:
    # cards 43, 44 and 10 cost 3 each, all affordable
    assert worst_card([44, 43, 10], _stock(5, 5, 5)) == 10
    # deficit 1 and cost 3 for both 43 and 44
    assert worst_card([44, 43], _stock(0, 2, 0)) == 43


def test_worst_card_zero_cost_goes_only_when_nothing_is_unaffordable() -> None:
    assert worst_card([1, 2, 8], _stock(1, 0, 0)) == 8  # card 8 costs 2 > 1 ore
    assert worst_card([8, 2, 1], _stock(2, 0, 0)) == 1  # all affordable: cheapest, lowest id


def test_worst_card_duplicate_ids_take_the_earliest_copy() -> None:
    """D25 last tie, D40: the copy earliest in hand order leaves; the rest keeps its order."""
    # ore 5, mana 0: deficits 4→0, 38→2, 8→0, 38→2, 9→0, 1→0 → a 38, the first copy
    s = state(deck="infinite", me={"ore": 5, "mana": 0, "troops": 0}, hands=([4, 38, 8, 38, 9, 1], []))
    timeout(s)
    assert s.hands[0][:5] == [4, 8, 38, 9, 1]


# -- the timeout action --------------------------------------------------------------------------------------


def test_timeout_action_is_clock_only_and_never_legal() -> None:
    s = state(hands=([8], []))
    assert GAME.timeout_action(s, 0) == TIMEOUT
    assert GAME.clock_only(TIMEOUT) and not GAME.clock_only(discard_action(8))
    assert not GAME.clock_only(play_action(8))
    assert TIMEOUT not in GAME.legal_actions(s, 0)
    assert GAME.clock_mode == "required"
    with pytest.raises(IllegalAction):
        GAME.timeout_action(s, 1)  # the clock runs only for the player to move
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(s, 1, TIMEOUT)
    assert exc.value.code == "not_your_turn"


def test_timeout_parses_from_json() -> None:
    assert GAME.parse_action({"kind": "timeout"}) == TIMEOUT


def test_timeout_at_the_main_action_discards_the_worst_and_ends_the_turn() -> None:
    """D24: tag timeout_discard, refill, the opponent's turn; the counter becomes 1."""
    s = state(me={"ore": 0, "mana": 0, "troops": 0}, hands=([1, 2, 4, 36, 69, 102], []))
    events = timeout(s)
    assert kinds(events)[:3] == ["timeout", "discard", "draw"]
    assert events[1] == {"kind": "discard", "seat": 0, "card": 102, "tag": "timeout_discard"}
    assert s.timeouts == [1, 0] and s.active == 1 and s.discard == [102]
    assert s.last[0] == [(102, TIMEOUT_DISCARD)]


def test_own_action_resets_the_counter() -> None:
    """D27: a turn ended by the player's own action resets it (a discard, or a play without play_again)."""
    s = state(hands=([8, 9], [10, 11]), timeouts=(2, 2))
    discard(s, 8)
    assert s.timeouts == [0, 2]
    s = state(me={"ore": 5}, hands=([8], []), timeouts=(2, 0))
    play(s, 8)
    assert s.timeouts == [0, 0]


def test_play_again_alone_does_not_reset_until_the_turn_ends() -> None:
    s = state(me={"ore": 5}, hands=([5, 8], []), timeouts=(1, 0))
    play(s, 5)
    assert s.timeouts == [1, 0]  # the turn is not over
    play(s, 8)
    assert s.timeouts == [0, 0]


def test_the_counter_is_per_player_and_ignores_the_opponents_turns() -> None:
    s = state(hands=([8], [9]), timeouts=(1, 0))
    timeout(s)  # seat 0: 2
    discard(s, 9)  # seat 1 acts: seat 0's counter stays
    assert s.timeouts == [2, 0]


def test_third_consecutive_timeout_loses_without_discard_check_or_refill() -> None:
    """D26: on the third, no discard."""
    s = state(hands=([8], []), timeouts=(2, 0))
    hand = s.hands[0][:]
    events = timeout(s)
    assert kinds(events) == ["timeout", "match_end"]
    assert GAME.outcome(s) == Outcome(1, "timeout")
    assert s.hands[0] == hand and s.discard == []


def test_three_timeouts_in_a_row_through_the_engine() -> None:
    s = state(hands=([8], [9]))
    for _ in range(2):
        timeout(s)
        discard(s, s.hands[1][0])
    assert s.timeouts == [2, 0] and GAME.outcome(s) is None
    timeout(s)
    assert GAME.outcome(s) == Outcome(1, "timeout")


def test_timeout_at_an_extra_action_counts_as_a_timed_out_turn() -> None:
    """D42: the player played, got «Граємо знову», then let the clock run out."""
    s = state(me={"ore": 5}, hands=([5], []), timeouts=(1, 0))
    play(s, 5)
    events = timeout(s)
    assert of_kind(events, "discard")[0]["tag"] == "timeout_discard"
    assert s.timeouts == [2, 0] and s.active == 1
    assert [t for _, t in s.last[0]] == [PLAY, TIMEOUT_DISCARD]


def test_timeout_at_a_forced_discard() -> None:
    """D41: the worst card of the hand fulfils the discard, then the check, refill, «Граємо знову» forfeited,
    the turn ends and the counter grows."""
    s = state(me={"mana": 2, "ore": 0, "troops": 0}, hands=([40, 1, 2, 3, 4, 102], []), tops=[34])
    play(s, 40)
    assert s.hands[0] == [1, 2, 3, 4, 102, 34]
    events = timeout(s)
    assert kinds(events)[:3] == ["timeout", "discard", "draw"]
    assert events[1]["card"] == 102  # deficit 25 beats 34's deficit 24
    assert "again" not in kinds(events)
    assert s.active == 1 and s.timeouts == [1, 0]
    assert [t for _, t in s.last[0]] == [PLAY, TIMEOUT_DISCARD]
    assert s.discard == [40, 102]


def test_third_timeout_at_a_forced_discard_keeps_the_hand() -> None:
    s = state(me={"mana": 2}, hands=([40], []), timeouts=(2, 0))
    play(s, 40)
    hand = s.hands[0][:]
    events = timeout(s)
    assert kinds(events) == ["timeout", "match_end"]
    assert s.hands[0] == hand and GAME.outcome(s) == Outcome(1, "timeout")
    assert GAME.to_position(GAME.from_position(GAME.to_position(s))) == GAME.to_position(s)


def test_forced_discard_by_hand_keeps_the_tag() -> None:
    s = state(me={"mana": 2}, hands=([40], []))
    play(s, 40)
    discard(s, s.hands[0][0])
    assert [t for _, t in s.last[0]] == [PLAY, FORCED_DISCARD]


def test_timeout_on_turn_500_ends_in_a_draw() -> None:
    s = state(turn=500, hands=([8], []))
    timeout(s)
    assert GAME.outcome(s) == Outcome(None, "turn_limit")


def test_the_engine_never_times_out_by_itself() -> None:
    """D39: without a ``timeout`` action (a match against a bot never gets one) nothing ends for
    inactivity."""
    s = state(hands=([8], []))
    assert GAME.outcome(s) is None and s.timeouts == [0, 0]
