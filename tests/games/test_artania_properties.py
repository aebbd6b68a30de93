"""Property tests for Артания и Куявия: random legal play ends, replay reproduces, positions round-trip,
views and event views are determinize-invariant (hand contents and deck orders never leak)."""

from __future__ import annotations

import hashlib
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from duelclub.games.artania import GAME
from duelclub.games.artania.actions import RESIGN, ArtaniaAction
from duelclub.games.artania.state import State
from duelclub.games.contract import JSON

MAX_STEPS = 2000  # far above any real match: ≤ 11 turns of ≤ 4 placements and short windows
keys = st.binary(min_size=32, max_size=32)
decks = st.sampled_from(["artania", "kuyavia", "random"])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def _choose(s: State, rng: random.Random, resign_rate: float) -> tuple[int, ArtaniaAction]:
    (seat,) = GAME.to_move(s)
    if rng.random() < resign_rate:
        return rng.choice((0, 1)), RESIGN
    return seat, rng.choice(GAME.legal_actions(s, seat))


def _playout(
    key: bytes, deck: str, seed: int, resign_rate: float = 0.0
) -> list[tuple[int, ArtaniaAction, State, list[JSON]]]:
    """A random legal match: (seat, action, state before, events) per step, then (-1, RESIGN, final, [])."""
    rng = random.Random(seed)
    s = GAME.new_match(key, GAME.parse_options({"deck": deck}))
    steps = []
    while GAME.outcome(s) is None:
        assert len(steps) < MAX_STEPS, "the match did not end"
        assert len(GAME.to_move(s)) == 1, "exactly one seat acts at any moment"
        seat, action = _choose(s, rng, resign_rate)
        before = GAME.copy(s)
        events = GAME.apply(s, seat, action)
        json.dumps(events)
        steps.append((seat, action, before, events))
    assert GAME.to_move(s) == frozenset()
    steps.append((-1, RESIGN, s, []))
    return steps


@settings(max_examples=300, deadline=None)
@given(keys, decks, seeds)
def test_random_legal_play_never_raises_and_ends(key: bytes, deck: str, seed: int) -> None:
    steps = _playout(key, deck, seed)
    final = steps[-1][2]
    outcome = GAME.outcome(final)
    assert outcome is not None and outcome.reason in ("five_tokens", "deck_exhausted")
    v = GAME.view(final, None)
    assert v["turn"] <= 11  # rules/artania.md §End of the game — termination
    if outcome.reason == "five_tokens":
        assert v["tokens"][outcome.winner] == 5  # type: ignore[index]
    else:
        assert 0 in v["deck_sizes"] and max(v["tokens"]) < 5
        t0, t1 = v["tokens"]
        assert outcome.winner == (None if t0 == t1 else int(t1 > t0))
    for seat in (0, 1):  # every card is somewhere, once
        full = GAME.full_view(final)
        cards = full["hands"][seat] + full["decks"][seat] + full["discards"][seat]
        cards += [x["card"] for x in full["field"][seat] if x["card"]]
        assert len(cards) == 33 == len(set(cards))


@settings(max_examples=100, deadline=None)
@given(keys, decks, seeds)
def test_replay_reproduces_every_state(key: bytes, deck: str, seed: int) -> None:
    steps = _playout(key, deck, seed, resign_rate=0.003)
    options = GAME.parse_options({"deck": deck})
    s = GAME.new_match(key, options)
    for seat, action, before, _ in steps[:-1]:
        assert GAME.to_position(s) == GAME.to_position(before)
        GAME.apply(s, seat, GAME.parse_action(GAME.action_to_json(action)))
    assert GAME.to_position(s) == GAME.to_position(steps[-1][2])
    log = [(seat, action) for seat, action, _, _ in steps[:-1]]
    assert GAME.to_position(GAME.replay(key, options, log)) == GAME.to_position(steps[-1][2])


@settings(max_examples=60, deadline=None)
@given(keys, decks, seeds)
def test_position_round_trips_at_every_step(key: bytes, deck: str, seed: int) -> None:
    for _, _, s, _ in _playout(key, deck, seed, resign_rate=0.003):
        pos = GAME.to_position(s)
        back = GAME.from_position(json.loads(json.dumps(pos)))
        assert GAME.to_position(back) == pos
        assert GAME.full_view(back) == GAME.full_view(s)


@settings(max_examples=120, deadline=None)
@given(keys, decks, seeds, seeds)
def test_views_and_event_views_are_determinize_invariant(
    key: bytes, deck: str, seed: int, rseed: int
) -> None:
    rng = random.Random(rseed)
    steps = _playout(key, deck, seed)
    for i, (_, _, before, events) in enumerate(steps[:-1]):
        after = steps[i + 1][2]
        for seat in (0, 1):
            d = GAME.determinize(before, seat, rng)
            assert GAME.view(d, seat) == GAME.view(before, seat)
            assert GAME.to_move(d) == GAME.to_move(before)
            assert GAME.legal_actions(d, seat) == GAME.legal_actions(before, seat)
            d_after = GAME.determinize(after, seat, rng)
            for ev in events:
                assert GAME.event_view(d_after, ev, seat) == GAME.event_view(after, ev, seat)


@settings(max_examples=80, deadline=None)
@given(keys, decks, seeds)
def test_determinized_states_play_on_legally(key: bytes, deck: str, seed: int) -> None:
    rng = random.Random(seed)
    steps = _playout(key, deck, seed)
    for _, _, s, _ in steps[:-1:5]:
        (seat,) = GAME.to_move(s)
        d = GAME.determinize(s, 1 - seat, rng)  # the opponent's sample of the mover's hand
        GAME.to_position(GAME.from_position(GAME.to_position(d)))  # a consistent position
        while GAME.outcome(d) is None:
            (mover,) = GAME.to_move(d)
            GAME.apply(d, mover, rng.choice(GAME.legal_actions(d, mover)))


@settings(max_examples=100, deadline=None)
@given(keys, decks, seeds)
def test_opponent_and_spectator_never_see_hands_or_deck_orders(key: bytes, deck: str, seed: int) -> None:
    for _, _, s, events in _playout(key, deck, seed)[:-1]:
        if GAME.outcome(s) is not None:
            break
        full = GAME.full_view(s)
        spectator = GAME.view(s, None)
        assert spectator["hand"] is None and "hands" not in spectator and "decks" not in spectator
        for seat in (0, 1):
            v = GAME.view(s, seat)
            assert v["hand"] == full["hands"][seat] and "hands" not in v and "decks" not in v
            assert v["known"][1 - seat] == [c for c in full["hands"][1 - seat] if c in v["known"][1 - seat]]
        for ev in events:
            if ev["kind"] == "draw":
                for viewer in (None, 1 - ev["seat"]):
                    seen = GAME.event_view(s, ev, viewer)
                    assert seen is not None and "cards" not in seen


def test_random_play_reaches_every_outcome_reason() -> None:
    reasons = set()
    for i in range(400):
        key = hashlib.sha256(b"r" + i.to_bytes(4, "big")).digest()
        final = _playout(key, "artania", i, resign_rate=0.001)[-1][2]
        outcome = GAME.outcome(final)
        assert outcome is not None
        reasons.add((outcome.reason, outcome.winner is None))
        if len(reasons) == 4:
            break
    assert reasons == {
        ("five_tokens", False),
        ("deck_exhausted", False),
        ("deck_exhausted", True),
        ("resign", False),
    }
