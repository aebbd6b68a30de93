"""Pins the Сундук войны engine's observable behaviour while it is made faster (issue 17 §5).

Twelve seeded matches (every expansion set and draft option) are played with seeded random legal actions to
the end; a SHA-256 over everything observable must equal the digest computed on the engine before the
optimisation: the legal actions of both seats (JSON, in order), ``to_move``, the timeout action, each applied
action's events and their event views, every seat's view (spectator and full view included), the position, a
determinized copy for each seat (its full view and position: the ``rng`` consumption is pinned too) and the
outcome. Views and determinizations are hashed every few steps (a match is ~400 actions). At every step a
battery of probe actions (legal ones rebuilt from JSON, other coins' uses, every field of a legal action
changed, the other seat) is tried on a copy: the result (error code, or the events and position) is hashed
too, and a rejected probe must leave the copy unchanged.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest
from pin_helpers import play_pinned_match, play_rejecting_probes

from duelclub.games.warchest import GAME
from duelclub.games.warchest.actions import RESIGN, Action, WarchestAction
from duelclub.games.warchest.state import State

N_MATCHES = 12
OPTIONS: list[dict[str, Any]] = [
    {"expansions": e, "draft": d}
    for d in ("club", "eight", "random")
    for e in ("base", "nobility", "nightfall", "both")
]
FULL_EVERY = 7  # views and determinizations every 7th step (and at the end)
EXPECTED = "7bb5f831b8c12bc2d5ec49b9d06b059c9baea5bf36e9c2eac335e267f3065d85"  # main at 23b191b

_FIELDS = ("coin", "unit", "to", "target", "ally", "type", "decree", "maneuver")


def _mutate(a: Action, rng: random.Random) -> Action:
    """``a`` with one field changed (to another plausible value, or to null)."""
    d = a.model_dump()
    f = rng.choice(_FIELDS)
    if f in ("unit", "to", "target", "ally"):
        d[f] = rng.choice([None, rng.randrange(37), rng.randrange(-1, 40)])
    elif f == "coin":
        d[f] = rng.choice([None, "royal", "knight", "archer", "footman", "decoy:skirmisher", "nope"])
    elif f == "type":
        d[f] = rng.choice([None, "knight", "archer", "scout", "bishop"])
    elif f == "decree":
        d[f] = rng.choice([None, "sortie", "conscription", "nope"])
    else:
        d[f] = rng.choice([None, "move", "control", "attack"])
    return Action.model_validate(d)


def _probes(s: State, seat: int, rng: random.Random) -> list[WarchestAction]:
    """Actions to try for ``seat``: some legal (as fresh objects from JSON), most of them illegal."""
    legal = GAME.legal_actions(s, seat)
    other = GAME.legal_actions(s, 1 - seat)
    out: list[WarchestAction] = [GAME.parse_action(GAME.action_to_json(a)) for a in legal[:2]]
    if legal:
        out += [legal[rng.randrange(len(legal))]]
        out += [_mutate(legal[rng.randrange(len(legal))], rng) for _ in range(6)]
    out += other[:2]
    out += [Action(kind="decline"), Action(kind="pass", coin="royal"), Action(kind="pick", type="knight")]
    out += [Action(kind="use_supply"), Action(kind="push", target=rng.randrange(37), to=rng.randrange(37))]
    return out


def _match(i: int, h: Any) -> int:
    key = hashlib.sha256(f"warchest-speed-pin-{i}".encode()).digest()
    return play_pinned_match(
        GAME,
        key,
        OPTIONS[i % len(OPTIONS)],
        i,
        h,
        probes=_probes,
        bad_seats=(2, -1),
        bad_seat_action=Action(kind="decline"),
        over_probe=Action(kind="pass", coin="royal"),
        resign=RESIGN,
        full_every=FULL_EVERY,
        max_steps=5000,
    )


def test_observable_behaviour_is_pinned() -> None:
    h = hashlib.sha256()
    steps = [_match(i, h) for i in range(N_MATCHES)]
    assert sum(steps) > N_MATCHES * 100  # real matches were played
    assert h.hexdigest() == EXPECTED


@pytest.mark.parametrize("i", range(2))
def test_illegal_actions_raise_and_leave_the_state_unchanged(i: int) -> None:
    """Every probe that is not legal raises IllegalAction; the state (position and views) is unchanged."""
    key = hashlib.sha256(f"warchest-illegal-{i}".encode()).digest()
    s = GAME.new_match(key, GAME.parse_options(OPTIONS[(5 * i + 3) % len(OPTIONS)]))
    assert play_rejecting_probes(GAME, s, random.Random(-i), _probes) > 1000


def test_two_step_tables_match_the_walk() -> None:
    """``queries.exact2`` / ``reach12`` (from the precomputed ``TWO_STEPS``) equal the plain walk of D15/D34
    on random boards."""
    from duelclub.games.warchest.board import N_HEXES, NEIGH
    from duelclub.games.warchest.queries import exact2, reach12
    from duelclub.games.warchest.state import Unit

    rng = random.Random(5)
    s = GAME.new_match(bytes(32), GAME.parse_options({}))
    for _ in range(300):
        s.units = {h: Unit(0, "knight", 1, 0, h) for h in range(N_HEXES) if rng.random() < 0.4}
        for h in range(N_HEXES):
            walk = {e for m in NEIGH[h] if m not in s.units for e in NEIGH[m] if e != h and e not in s.units}
            assert exact2(s, h) == sorted(walk)
            assert reach12(s, h) == sorted(walk | {n for n in NEIGH[h] if n not in s.units})


def test_cached_actions_equal_model_construct() -> None:
    """``actions.act`` builds its instances without ``model_construct``: the same fields, fields set, private
    and extra attributes, equality, hash, dump, JSON and repr, for every action of some seeded matches."""
    from duelclub.games.warchest.actions import act, key_of

    rng = random.Random(9)
    seen = 0
    for i in range(3):
        s = GAME.new_match(hashlib.sha256(f"construct-{i}".encode()).digest(), GAME.parse_options(OPTIONS[i]))
        while GAME.outcome(s) is None:
            (seat,) = GAME.to_move(s)
            legal = GAME.legal_actions(s, seat)
            for a in legal:
                assert isinstance(a, Action)
                fields: dict[str, Any] = dict(zip(Action.model_fields, key_of(a), strict=True))
                ref = Action.model_construct(**fields)
                assert a is act(*key_of(a))  # type: ignore[arg-type]
                assert (a == ref, hash(a) == hash(ref), repr(a) == repr(ref)) == (True, True, True)
                assert a.model_dump() == ref.model_dump() and a.model_dump_json() == ref.model_dump_json()
                assert a.model_fields_set == ref.model_fields_set
                assert (a.__pydantic_extra__, a.__pydantic_private__) == (None, None)
                assert Action.model_validate(a.model_dump()) == a and a.model_copy() == a
                seen += 1
            GAME.apply(s, seat, legal[rng.randrange(len(legal))])
    assert seen > 1000
