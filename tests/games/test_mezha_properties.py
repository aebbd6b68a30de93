"""Property tests for Межа: random legal play, replay, positions, determinize and spectator privacy."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from duelclub.games.mezha import GAME
from duelclub.games.mezha.actions import RESIGN, MezhaAction
from duelclub.games.mezha.state import State

MAX_STEPS = 200  # far above any real match: ≤ 40 cards played, ≤ 6 passes and 2 next_season
keys = st.binary(min_size=32, max_size=32)
houses = st.sampled_from(["olkha", "gorn"])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def _choose(s: State, rng: random.Random, resign_rate: float) -> tuple[int, MezhaAction]:
    seat = rng.choice(sorted(GAME.to_move(s)))
    if rng.random() < resign_rate:
        return rng.choice((0, 1)), RESIGN
    return seat, rng.choice(GAME.legal_actions(s, seat))


def _playout(
    key: bytes, house: str, seed: int, resign_rate: float = 0.0
) -> list[tuple[int, MezhaAction, State]]:
    """A random legal match; returns (seat, action, state before the action) for every step."""
    rng = random.Random(seed)
    s = GAME.new_match(key, GAME.parse_options({"house": house}))
    steps = []
    while GAME.outcome(s) is None:
        assert len(steps) < MAX_STEPS, "the match did not end"
        assert GAME.to_move(s), "an active match must have a seat to move"
        seat, action = _choose(s, rng, resign_rate)
        steps.append((seat, action, GAME.copy(s)))
        events = GAME.apply(s, seat, action)
        json.dumps(events)
    assert GAME.to_move(s) == frozenset()
    steps.append((-1, RESIGN, s))
    return steps


@settings(max_examples=300, deadline=None)
@given(keys, houses, seeds)
def test_random_legal_play_never_raises_and_ends(key: bytes, house: str, seed: int) -> None:
    final = _playout(key, house, seed)[-1][2]
    outcome = GAME.outcome(final)
    assert outcome is not None and outcome.reason in ("two_seasons", "more_seasons", "draw")
    assert (outcome.winner is None) == (outcome.reason == "draw")


@settings(max_examples=100, deadline=None)
@given(keys, houses, seeds)
def test_replay_reproduces_every_state(key: bytes, house: str, seed: int) -> None:
    steps = _playout(key, house, seed, resign_rate=0.01)
    options = GAME.parse_options({"house": house})
    s = GAME.new_match(key, options)
    for seat, action, before in steps[:-1]:
        assert GAME.to_position(s) == GAME.to_position(before)
        GAME.apply(s, seat, GAME.parse_action(GAME.action_to_json(action)))
    assert GAME.to_position(s) == GAME.to_position(steps[-1][2])
    log = [(seat, action) for seat, action, _ in steps[:-1]]
    assert GAME.to_position(GAME.replay(key, options, log)) == GAME.to_position(steps[-1][2])


@settings(max_examples=80, deadline=None)
@given(keys, houses, seeds)
def test_position_round_trips_at_every_step(key: bytes, house: str, seed: int) -> None:
    for _, _, s in _playout(key, house, seed, resign_rate=0.01):
        pos = GAME.to_position(s)
        back = GAME.from_position(json.loads(json.dumps(pos)))
        assert GAME.to_position(back) == pos
        assert GAME.full_view(back) == GAME.full_view(s)


@settings(max_examples=150, deadline=None)
@given(keys, houses, seeds, seeds)
def test_determinize_keeps_each_seats_view_at_every_step(
    key: bytes, house: str, seed: int, rseed: int
) -> None:
    rng = random.Random(rseed)
    for _, _, s in _playout(key, house, seed):
        for seat in (0, 1):
            d = GAME.determinize(s, seat, rng)
            assert GAME.view(d, seat) == GAME.view(s, seat)
            assert GAME.to_move(d) == GAME.to_move(s)
            assert GAME.legal_actions(d, seat) == GAME.legal_actions(s, seat)


def _secrets(s: State) -> list[tuple[int, dict[str, Any]]]:
    """(owner, full unit JSON) of every face-down unit."""
    full = GAME.full_view(s)
    return [
        (seat, u)
        for field in full["fields"]
        for seat, half in enumerate(field)
        for u in half["units"]
        if u.get("face_down")
    ]


@settings(max_examples=100, deadline=None)
@given(keys, houses, seeds)
def test_spectator_and_opponent_never_see_hands_or_face_down_identities(
    key: bytes, house: str, seed: int
) -> None:
    rng = random.Random(seed)
    s = GAME.new_match(key, GAME.parse_options({"house": house}))
    while GAME.outcome(s) is None:
        spectator = GAME.view(s, None)
        assert spectator["hand"] is None and "hands" not in spectator and "decks" not in spectator
        for owner, u in _secrets(s):
            for viewer in (None, 1 - owner):
                v = GAME.view(s, viewer)
                shown = [
                    x for f in v["fields"] for x in f[owner]["units"] if x["placement"] == u["placement"]
                ]
                assert shown == [{"hidden": True, "placement": u["placement"]}]
        seat, action = _choose(s, rng, 0.0)
        for ev in GAME.apply(s, seat, action):
            if GAME.outcome(s) is not None:
                break
            for viewer in (None, 1 - ev.get("seat", 0)):
                seen = GAME.event_view(s, ev, viewer)
                if ev["kind"] == "sprout" and ev.get("face_down"):
                    assert seen is None  # its existence alone would name a Сова
                elif ev.get("face_down") or ev["kind"] == "draw":
                    assert seen is not None
                    assert "card" not in seen and "strength" not in seen


def test_all_omen_orders_appear_over_many_seeds() -> None:
    orders = set()
    for i in range(400):
        key = hashlib.sha256(i.to_bytes(4, "big")).digest()
        orders.add(tuple(GAME.full_view(GAME.new_match(key, GAME.parse_options({})))["omens"]))
    assert len(orders) == 24


def test_random_play_reaches_every_outcome_reason() -> None:
    reasons = set()
    for i in range(400):
        key = hashlib.sha256(b"r" + i.to_bytes(4, "big")).digest()
        final = _playout(key, ("olkha", "gorn")[i % 2], i, resign_rate=0.002)[-1][2]
        outcome = GAME.outcome(final)
        assert outcome is not None
        reasons.add(outcome.reason)
        if len(reasons) == 4:
            break
    assert reasons == {"two_seasons", "more_seasons", "draw", "resign"}
