"""Hypothesis properties over random legal play with every expansion setting (issue: never raises,
ends within the round cap, replay reproduces every state, positions round-trip, views are
determinize-invariant)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from duelclub.games.warchest import GAME
from duelclub.games.warchest.actions import RESIGN
from duelclub.games.warchest.state import State

keys = st.binary(min_size=32, max_size=32)
expansions = st.sampled_from(["base", "nobility", "nightfall", "both"])
drafts = st.sampled_from(["club", "eight", "random"])
seeds = st.integers(min_value=0, max_value=2**32 - 1)
MAX_STEPS = 20_000


def _playout(key: bytes, exp: str, dr: str, seed: int, resign_rate: float = 0.0) -> tuple[list, State]:
    rng = random.Random(seed)
    options = GAME.parse_options({"expansions": exp, "draft": dr})
    s = GAME.new_match(key, options)
    steps = []
    while GAME.outcome(s) is None:
        assert len(steps) < MAX_STEPS
        (seat,) = GAME.to_move(s)
        resign = rng.random() < resign_rate
        action = RESIGN if resign else rng.choice(GAME.legal_actions(s, seat))
        steps.append((seat, action, GAME.copy(s)))
        json.dumps(GAME.apply(s, seat, action))
    return steps, s


@settings(max_examples=40, deadline=None)
@given(keys, expansions, drafts, seeds)
def test_random_play_never_raises_and_ends_within_the_round_cap(
    key: bytes, exp: str, dr: str, seed: int
) -> None:
    _, s = _playout(key, exp, dr, seed)
    out = GAME.outcome(s)
    assert out is not None and out.reason in ("control", "round_limit")
    assert s.round <= 100 and GAME.to_move(s) == frozenset()
    assert (out.winner is None) == (out.reason == "round_limit")


@settings(max_examples=15, deadline=None)
@given(keys, expansions, drafts, seeds)
def test_replay_reproduces_every_state(key: bytes, exp: str, dr: str, seed: int) -> None:
    steps, final = _playout(key, exp, dr, seed, resign_rate=0.002)
    options = GAME.parse_options({"expansions": exp, "draft": dr})
    s = GAME.new_match(key, options)
    for seat, action, before in steps:
        assert GAME.to_position(s) == GAME.to_position(before)
        GAME.apply(s, seat, GAME.parse_action(GAME.action_to_json(action)))
    assert GAME.to_position(s) == GAME.to_position(final)


@settings(max_examples=8, deadline=None)
@given(keys, expansions, drafts, seeds)
def test_positions_round_trip(key: bytes, exp: str, dr: str, seed: int) -> None:
    steps, final = _playout(key, exp, dr, seed)
    for _, _, s in [*steps[::7], (0, RESIGN, final)]:
        pos = GAME.to_position(s)
        back = GAME.from_position(json.loads(json.dumps(pos)))
        assert GAME.to_position(back) == pos
        assert GAME.full_view(back) == GAME.full_view(s)


@settings(max_examples=10, deadline=None)
@given(keys, expansions, drafts, seeds)
def test_views_and_events_are_determinize_invariant(key: bytes, exp: str, dr: str, seed: int) -> None:
    rng = random.Random(seed)
    options = GAME.parse_options({"expansions": exp, "draft": dr})
    s = GAME.new_match(key, options)
    while GAME.outcome(s) is None:
        (seat,) = GAME.to_move(s)
        events = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)))
        for viewer in (0, 1):
            d = GAME.determinize(s, viewer, rng)
            assert GAME.view(d, viewer) == GAME.view(s, viewer)
            assert GAME.legal_actions(d, viewer) == GAME.legal_actions(s, viewer)
            for e in events:
                assert GAME.event_view(d, e, viewer) == GAME.event_view(s, e, viewer)
        spectator = GAME.view(s, None)
        assert all("hand" not in side and "bag" not in side for side in spectator["sides"])


def _near_misses(legal: list, seen: list, rng: random.Random) -> list:
    """Actions close to legal ones: one field changed, plus actions legal in earlier states."""
    from duelclub.games.warchest.actions import act
    from duelclub.games.warchest.units import COIN_ORDER

    fields = ("kind", "coin", "unit", "to", "target", "ally", "maneuver", "type", "decree")
    pools = {
        "kind": ["move", "attack", "deploy", "bolster", "control", "tactic", "pass", "recruit", "cure"],
        "coin": [*COIN_ORDER, None, "bogus"],
        "unit": [None, *range(37)],
        "to": [None, *range(37)],
        "target": [None, *range(37)],
        "ally": [None, *range(37)],
        "maneuver": [None, "move", "control", "attack"],
        "type": [None, *COIN_ORDER[:6]],
        "decree": [None, "enlist", "sortie", "claim"],
    }
    out = rng.sample(seen, min(len(seen), 20))
    for a in rng.sample(legal, min(len(legal), 20)):
        vals = {f: getattr(a, f) for f in fields}
        f = rng.choice(fields)
        vals[f] = rng.choice(pools[f])
        out.append(act(**vals))
    return out


@settings(max_examples=12, deadline=None)
@given(keys, expansions, drafts, seeds)
def test_apply_accepts_exactly_the_legal_actions(key: bytes, exp: str, dr: str, seed: int) -> None:
    """``apply`` validates one action without listing them all (issue 17): it must accept exactly the
    members of ``legal_actions`` and leave the state untouched when it rejects one."""
    from duelclub.games.contract import IllegalAction
    from duelclub.games.warchest.actions import key_of

    rng = random.Random(seed)
    s = GAME.new_match(key, GAME.parse_options({"expansions": exp, "draft": dr}))
    seen: list = []
    checked = 0
    while GAME.outcome(s) is None and checked < 60:
        (seat,) = GAME.to_move(s)
        legal = GAME.legal_actions(s, seat)
        if rng.random() < 0.3:
            checked += 1
            keys_ok = {key_of(a) for a in legal}
            for cand in [*legal, *_near_misses(legal, seen, rng)]:
                t = GAME.copy(s)
                before = GAME.to_position(t)
                for other in (1 - seat, seat):  # the seat not to move first: t is still unchanged
                    try:
                        GAME.apply(t, other, cand)
                        accepted = True
                    except IllegalAction:
                        accepted = False
                        assert GAME.to_position(t) == before
                    expected = other == seat and key_of(cand) in keys_ok
                    assert accepted == expected, (cand, other)
            seen.extend(rng.sample(legal, min(3, len(legal))))
        GAME.apply(s, seat, rng.choice(legal))
