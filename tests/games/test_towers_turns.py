"""rules/towers.md §4 setup, §5 the turn, §6 playing, §8 decks, §10.5 stream order; D2–D9, D11, D20–D22,
D35, D36, D40."""

from __future__ import annotations

import hashlib

import pytest
from test_towers_helpers import KEY, discard, kinds, of_kind, pc, play, state

from duelclub.games.contract import IllegalAction
from duelclub.games.fairness import Stream
from duelclub.games.towers import GAME
from duelclub.games.towers.actions import discard_action, play_action
from duelclub.games.towers.state import DISCARD, FORCED_DISCARD, PLAY


def _new(key: bytes, **opts: str):  # type: ignore[no-untyped-def]
    return GAME.new_match(key, GAME.parse_options(opts))


# -- setup (§4, §10.5) -------------------------------------------------------------------------------------


def test_normal_deal_follows_the_stream_order() -> None:
    """D3, D2, §10.5: randint(2) picks the first player, then Fisher–Yates of 1..102, then 6 + 6 cards."""
    key = hashlib.sha256(b"deal").digest()
    st = Stream(key)
    first = st.randint(2)
    pile = st.shuffled(list(range(1, 103)))
    s = _new(key)
    assert s.active == first
    assert s.hands[first] == pile[:6] and s.hands[1 - first] == pile[6:12]
    assert s.pile[::-1] == pile[12:]
    assert s.stream.position == st.position  # nothing else consumed


def test_infinite_deal_draws_12_times_from_the_stream() -> None:
    """§8.2, §10.5: randint(102) + 1 per card, first player's 6 first."""
    key = hashlib.sha256(b"inf").digest()
    st = Stream(key)
    first = st.randint(2)
    cards = [st.randint(102) + 1 for _ in range(12)]
    s = _new(key, deck="infinite")
    assert s.active == first
    assert s.hands[first] == cards[:6] and s.hands[1 - first] == cards[6:]
    assert s.pile == [] and s.discard == []


def test_both_seats_move_first_for_some_keys() -> None:
    """D3: a coin flip; seat A is seat 0 whoever moves first."""
    firsts = {_new(hashlib.sha256(bytes([i])).digest()).active for i in range(20)}
    assert firsts == {0, 1}


def test_turn_1_starts_with_production_of_the_first_player_only() -> None:
    """D4: production at the start of turn 1; the other player has not produced."""
    s = _new(bytes(32), battlefield="wind_square")
    first, other = s.active, 1 - s.active
    assert s.turn == 1
    assert pc(s, first) | {} == {**pc(s, other), "ore": 15 + 3, "mana": 5 + 1, "troops": 10 + 2}
    assert pc(s, other)["ore"] == 15


def test_new_match_is_deterministic() -> None:
    a, b = _new(bytes(32), deck="infinite"), _new(bytes(32), deck="infinite")
    assert GAME.to_position(a) == GAME.to_position(b)


# -- the turn (§5) -----------------------------------------------------------------------------------------


def test_a_play_pays_refills_and_passes_the_turn_with_production() -> None:
    s = state(me={"ore": 5}, hands=([8], []), tops=[50])
    before_opp = pc(s, 1)
    events = play(s, 8)
    assert kinds(events) == ["play", "draw", "turn"]
    assert pc(s, 0)["ore"] == 3 and pc(s, 0)["wall"] == 5 + 3
    assert s.hands[0][-1] == 50 and len(s.hands[0]) == 6  # drawn cards are appended (§5 step 3)
    assert s.active == 1 and s.turn == 6
    assert pc(s, 1)["ore"] == before_opp["ore"] + before_opp["mines"]  # the new turn's production


def test_discard_ends_the_turn_and_costs_nothing() -> None:
    s = state(me={"ore": 0}, hands=([34], []))
    events = discard(s, 34)
    assert kinds(events)[:2] == ["discard", "draw"] and events[0]["tag"] == "discard"
    assert pc(s, 0)["ore"] == 0 and s.discard == [34] and s.active == 1


def test_unaffordable_card_is_rejected_and_nothing_changes() -> None:
    """§5 step 3: rejected, P must still act."""
    s = state(me={"ore": 23}, hands=([34], []))
    before = GAME.to_position(s)
    with pytest.raises(IllegalAction) as exc:
        play(s, 34)
    assert exc.value.code == "cannot_afford"
    assert GAME.to_position(s) == before
    assert play_action(34) not in GAME.legal_actions(s, 0)
    assert discard_action(34) in GAME.legal_actions(s, 0)  # unaffordable cards stay discardable


def test_equal_stock_is_enough_and_zero_cost_plays_on_empty_stock() -> None:
    """§6 step 1."""
    s = state(me={"ore": 24, "mana": 0}, hands=([34, 36], []))
    assert {play_action(34), play_action(36)} <= set(GAME.legal_actions(s, 0))


def test_legal_actions_are_plays_then_discards_in_hand_order() -> None:
    s = state(me={"ore": 2, "mana": 0, "troops": 0}, hands=([10, 8, 36, 40, 71, 1], []))
    legal = GAME.legal_actions(s, 0)
    assert legal == [play_action(c) for c in (8, 36, 1)] + [discard_action(c) for c in (10, 8, 36, 40, 71, 1)]
    assert GAME.legal_actions(s, 1) == []


def test_only_the_active_player_may_play_or_discard() -> None:
    s = state(hands=([8], [9]))
    for action in (play_action(9), discard_action(9)):
        with pytest.raises(IllegalAction) as exc:
            GAME.apply(s, 1, action)
        assert exc.value.code == "not_your_turn"


def test_card_not_in_hand() -> None:
    s = state(hands=([8], [9]))
    with pytest.raises(IllegalAction) as exc:
        discard(s, 9)
    assert exc.value.code == "card_not_in_hand"


# -- «Граємо знову» and draw/discard (D5, D7, D8) ----------------------------------------------------------


def test_play_again_refills_then_gives_an_extra_action_without_production() -> None:
    """D5, D7."""
    s = state(me={"ore": 5}, hands=([5, 8], []), tops=[60])
    events = play(s, 5)
    assert kinds(events) == ["play", "draw", "again"]
    assert s.active == 0 and GAME.view(s, 0)["phase"] == "extra" and len(s.hands[0]) == 6
    assert pc(s, 0)["ore"] == 4
    events = play(s, 8)  # the extra action; no production happened in between
    assert pc(s, 0)["ore"] == 2 and s.active == 1 and s.turn == 6
    assert [c for c, _ in s.last[0]] == [5, 8]


def test_play_again_chains() -> None:
    s = state(me={"ore": 5, "mana": 5}, hands=([5, 37, 4], []))
    play(s, 5)
    play(s, 37)
    play(s, 4)
    assert s.active == 0 and s.phase == 1  # still the extra action
    assert pc(s, 0)["wall"] == 6 and pc(s, 0)["tower"] == 21
    discard(s, s.hands[0][0])  # a discard always ends the turn, also as the extra action
    assert s.active == 1


def test_draw_discard_draws_one_then_only_a_discard_is_legal() -> None:
    """D8, §6 step 5: discards only (the new card included), then refill and the extra action. The hand holds
    6 here (6 - the played card + the drawn card), not the 7 that §6 step 5 states: see the position doc."""
    s = state(me={"mana": 5}, hands=([40, 8], []), tops=[55, 60])
    events = play(s, 40)
    assert kinds(events) == ["play", "draw", "forced"]
    assert len(s.hands[0]) == 6 and s.hands[0][-1] == 55 and GAME.view(s, 0)["phase"] == "forced_discard"
    legal = GAME.legal_actions(s, 0)
    assert legal == [discard_action(c) for c in s.hands[0]]
    with pytest.raises(IllegalAction) as exc:
        play(s, 8)
    assert exc.value.code == "must_discard"
    events = discard(s, 55)  # the card just drawn may be the one discarded
    assert kinds(events) == ["discard", "draw", "again"] and events[0]["tag"] == "forced_discard"
    assert s.hands[0][-1] == 60 and len(s.hands[0]) == 6 and s.active == 0 and s.phase == 1
    assert s.discard == [40, 55]  # D6: the played card arrived first


def test_forced_discard_is_not_the_turn_action() -> None:
    """D8: the discard does not end the turn; the extra action follows."""
    s = state(me={"troops": 5}, hands=([75], []))
    play(s, 75)
    discard(s, s.hands[0][0])
    assert s.active == 0
    assert [t for _, t in s.last[0]] == [PLAY, FORCED_DISCARD]
    discard(s, s.hands[0][0])
    assert [t for _, t in s.last[0]] == [PLAY, FORCED_DISCARD, DISCARD] and s.active == 1


def test_statements_read_the_state_after_the_cost() -> None:
    """D9: Чорт costs 5 troops and then takes 5 more: 7 troops end at 0, not below."""
    s = state(me={"troops": 7}, hands=([83], []))
    play(s, 83)
    assert pc(s, 0)["troops"] == 0


def test_no_upper_limits() -> None:
    """D11."""
    s = state(me={"mines": 120, "wall": 900, "ore": 10}, hands=([18, 31], []))
    play(s, 18)
    assert pc(s, 0)["mines"] == 122
    assert GAME.view(s, 0)["players"][0]["wall"] == 900


def test_a_card_without_effect_is_still_played_and_paid() -> None:
    """D36: Крадіжка технологій with more mines does nothing but is paid and played."""
    s = state(me={"ore": 9, "mines": 5}, hands=([15], []))
    play(s, 15)
    assert pc(s, 0)["ore"] == 4 and s.discard == [15] and s.active == 1


def test_rudna_zhyla_can_be_discarded() -> None:
    """D35."""
    s = state(hands=([50], []))
    assert discard_action(50) in GAME.legal_actions(s, 0)
    discard(s, 50)
    assert s.discard == [50]


# -- decks (§8, D20–D22, D40) ------------------------------------------------------------------------------


def test_one_shared_pile_for_both_players() -> None:
    """D20."""
    s = state(hands=([8], [9]), tops=[20, 21])
    discard(s, 8)
    assert s.hands[0][-1] == 20
    discard(s, 9)
    assert s.hands[1][-1] == 21 and s.discard == [8, 9]


def test_reshuffle_only_when_a_draw_finds_the_pile_empty() -> None:
    """D21, §8.1, §10.5 step 4: the discard pile in arrival order is Fisher–Yates shuffled by the stream."""
    pos_hands = (list(range(1, 7)), list(range(7, 13)))
    s = state(hands=pos_hands, tops=[13], discard=list(range(14, 103)))
    discard(s, 1)  # draws 13, the last card of the pile: no reshuffle yet
    assert s.pile == [] and s.hands[0][-1] == 13 and s.discard[-1] == 1
    arrival = s.discard[:]
    events = discard(s, 7)  # needs a card: reshuffle first
    assert of_kind(events, "reshuffle") == [{"kind": "reshuffle", "cards": len(arrival) + 1}]
    expected = Stream.at(bytes.fromhex(KEY), 0).shuffled([*arrival, 7])
    assert s.hands[1][-1] == expected[0]
    assert s.pile[::-1] == expected[1:] and s.discard == []


def test_infinite_draws_come_from_the_stream_and_cards_leave_the_game() -> None:
    """D22, §8.2: randint(102) + 1 per draw; no piles."""
    s = state(deck="infinite", hands=([8], []))
    st = s.stream.copy()
    discard(s, 8)
    assert s.hands[0][-1] == st.randint(102) + 1
    assert s.discard == [] and s.pile == []
    assert GAME.view(s, None)["history"] == [[0, 8, "discard"]]


def test_earliest_copy_is_taken_and_hand_order_kept() -> None:
    """D40: with two copies the earliest in hand order leaves; the rest keeps its order."""
    s = state(deck="infinite", hands=([38, 8, 38, 12, 13, 14], []))
    play(s, 38)
    assert s.hands[0][:5] == [8, 38, 12, 13, 14]
    assert GAME.legal_actions(state(deck="infinite", hands=([38, 38, 38, 38, 38, 38], [])), 0) == [
        play_action(38),
        discard_action(38),
    ]
