"""rules/towers.md §7 end of the game: conditions, timing, simultaneous cases, resignation, the turn limit;
D16–D19, D28, D29, D38."""

from __future__ import annotations

import pytest
from test_towers_helpers import discard, kinds, of_kind, play, resign, state

from duelclub.games.contract import IllegalAction, Outcome
from duelclub.games.towers import GAME
from duelclub.games.towers.actions import discard_action


def test_destruction() -> None:
    s = state(me={"troops": 10}, en={"tower": 4, "wall": 0}, hands=([78], []))
    events = play(s, 78)
    assert GAME.outcome(s) == Outcome(0, "destruction")
    assert events[-1] == {
        "kind": "match_end",
        "winner": 0,
        "reason": "destruction",
        "battlefield": "archmage_citadel",
    }
    assert GAME.to_move(s) == frozenset() and GAME.legal_actions(s, 0) == []


def test_tower_target_reached_exactly() -> None:
    """D18: ≥ the target (Цитадель Архімага: 50)."""
    s = state(me={"tower": 45, "mana": 5}, hands=([43], []))
    play(s, 43)
    assert GAME.outcome(s) == Outcome(0, "tower")


def test_resource_target_reached_exactly() -> None:
    """D18: any single resource ≥ 150."""
    s = state(me={"ore": 148}, hands=([4], []))
    play(s, 4)
    assert GAME.outcome(s) == Outcome(0, "resource")


def test_win_ends_the_turn_before_refill_and_extra_action() -> None:
    """§6 step 6, §7.2: a «Граємо знову» card wins before its extra action; no refill."""
    s = state(me={"ore": 148}, hands=([4], []))
    events = play(s, 4)
    assert kinds(events) == ["play", "match_end"]
    assert len(s.hands[0]) == 5 and s.phase == 3


def test_production_can_win_at_the_start_of_the_turn() -> None:
    """§5 step 2, D16: the check right after production."""
    s = state(me={}, en={"ore": 149, "mines": 2}, hands=([8], []))
    events = discard(s, 8)
    assert kinds(events)[-2:] == ["turn", "match_end"]
    assert GAME.outcome(s) == Outcome(1, "resource")


def test_no_check_after_a_plain_discard() -> None:
    """D16: a discard changes no counters and runs no check; the next check is after the next production."""
    s = state(en={"tower": 0}, hands=([8], []))  # an unreachable position: only to show when checks run
    events = discard(s, 8)
    assert kinds(events).index("turn") < kinds(events).index("match_end")


def test_both_towers_destroyed_is_a_draw() -> None:
    """§7.3, D17: Розбрат takes 7 from both towers."""
    s = state(me={"tower": 7, "mana": 5}, en={"tower": 5}, hands=([49], []))
    play(s, 49)
    assert GAME.outcome(s) == Outcome(None, "draw")


def test_both_towers_reach_the_target_is_a_draw() -> None:
    """§7.3, D17: Веселка raises both towers to 50."""
    s = state(me={"tower": 49}, en={"tower": 49}, hands=([36], []))
    play(s, 36)
    assert GAME.outcome(s) == Outcome(None, "draw")


def test_lightning_else_branch_destroying_both_towers_is_a_draw() -> None:
    """D14, D17: Блискавка with tower ≤ enemy wall hits both players with 8 normal damage."""
    s = state(me={"tower": 5, "wall": 0, "mana": 11}, en={"wall": 6, "tower": 2}, hands=([60], []))
    play(s, 60)
    assert GAME.outcome(s) == Outcome(None, "draw")


def test_goblin_mob_destroying_both_towers_is_a_draw() -> None:
    """D17: Армія гоблінів — 6 to the enemy, 3 to yourself."""
    s = state(me={"tower": 3, "wall": 0, "troops": 3}, en={"tower": 6, "wall": 0}, hands=([76], []))
    play(s, 76)
    assert GAME.outcome(s) == Outcome(None, "draw")


def test_mixed_conditions_of_both_players_is_a_draw() -> None:
    """§7.3: no priority between victory types (an unreachable position: the enemy already holds 150 ore
    when our card destroys its tower)."""
    s = state(me={"troops": 10}, en={"tower": 4, "wall": 0, "ore": 150}, hands=([78], []))
    play(s, 78)
    assert GAME.outcome(s) == Outcome(None, "draw")


def test_opponent_wins_on_your_card() -> None:
    """D19: Веселка raises only the enemy to the target."""
    s = state(me={"tower": 20}, en={"tower": 49}, hands=([36], []))
    play(s, 36)
    assert GAME.outcome(s) == Outcome(1, "tower")


def test_your_card_can_destroy_your_own_tower() -> None:
    """§7.3: Берсерк's 3 tower damage to yourself."""
    s = state(me={"tower": 3, "troops": 4}, hands=([79], []))
    play(s, 79)
    assert GAME.outcome(s) == Outcome(1, "destruction")


def test_one_player_meeting_two_conditions_records_destruction_first() -> None:
    """D38 and §7.3: X reaches the tower target and Y's tower is destroyed by one card → X wins, reason
    destruction."""
    s = state(me={"tower": 48, "mana": 4}, en={"tower": 2}, hands=([45], []))
    play(s, 45)
    assert GAME.outcome(s) == Outcome(0, "destruction")
    s = state(me={"tower": 45, "ore": 148, "mana": 5}, hands=([43], []))
    s.p[0][5] = 150  # a (never reached) position where two of X's own conditions hold at one check
    play(s, 43)
    assert GAME.outcome(s) == Outcome(0, "tower")


def test_every_action_is_rejected_once_over() -> None:
    s = state(me={"tower": 45, "mana": 5}, hands=([43], [8]))
    play(s, 43)
    for seat, action in ((0, discard_action(s.hands[0][0])), (1, discard_action(8))):
        with pytest.raises(IllegalAction) as exc:
            GAME.apply(s, seat, action)
        assert exc.value.code == "match_over"
    with pytest.raises(IllegalAction):
        resign(s, 0)


# -- resignation (D28) -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1])
def test_resign_at_any_time_even_on_the_opponents_turn(seat: int) -> None:
    s = state(hands=([8], []))
    events = resign(s, seat)
    assert GAME.outcome(s) == Outcome(1 - seat, "resign")
    assert kinds(events) == ["resign", "match_end"]


def test_resign_at_a_forced_discard() -> None:
    s = state(me={"mana": 2}, hands=([40], []))
    play(s, 40)
    resign(s, 0)
    assert GAME.outcome(s) == Outcome(1, "resign")


# -- the turn limit (D29, §7.4) ----------------------------------------------------------------------------


def test_turn_500_ending_without_a_result_is_a_draw() -> None:
    s = state(turn=500, hands=([8], []))
    events = discard(s, 8)
    assert GAME.outcome(s) == Outcome(None, "turn_limit")
    assert "turn" not in kinds(events)  # turn 501 never starts
    assert s.turn == 500


def test_turn_499_ending_starts_turn_500() -> None:
    s = state(turn=499, hands=([8], []))
    discard(s, 8)
    assert GAME.outcome(s) is None and s.turn == 500 and s.active == 1


def test_a_result_during_turn_500_stands() -> None:
    s = state(turn=500, me={"tower": 45, "mana": 5}, hands=([43], []))
    play(s, 43)
    assert GAME.outcome(s) == Outcome(0, "tower")


def test_a_play_again_chain_is_one_turn() -> None:
    """§7.4: turns are counted, not actions."""
    s = state(turn=500, me={"ore": 5}, hands=([5, 8], []))
    play(s, 5)
    assert GAME.outcome(s) is None
    play(s, 8)
    assert GAME.outcome(s) == Outcome(None, "turn_limit")


def test_match_end_event_is_last() -> None:
    s = state(turn=500, hands=([8], []))
    events = discard(s, 8)
    assert of_kind(events, "match_end") == [events[-1]]
