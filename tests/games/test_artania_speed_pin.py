"""Pins the Артания и Куявия engine's observable behaviour while it is made faster (issue 17 §5).

Thirty seeded matches (every deck option) are played with seeded random legal actions to the end; a SHA-256
over everything observable must equal the digest computed on the engine before the optimisation: the legal
actions of both seats (JSON, in order), ``to_move``, the timeout action, each applied action's events and
their event views, every seat's view (spectator and full view included), the position, a determinized copy
for each seat (its full view and position: the ``rng`` consumption is pinned too) and the outcome. At every
step a battery of probe actions (legal ones rebuilt from JSON, wrong seats, wrong kinds, foreign cards, bad
slots and targets) is tried on a copy: the result (error code, or the events) is hashed too, and a rejected
probe must leave the copy unchanged.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest
from pin_helpers import play_pinned_match, play_rejecting_probes

from duelclub.games.artania import GAME
from duelclub.games.artania.actions import PASS, RESIGN, ArtaniaAction, Chasy, Idol, Nektar, Place
from duelclub.games.artania.cards import IDS
from duelclub.games.artania.state import State

N_MATCHES = 30
OPTIONS: list[dict[str, Any]] = [{}, {"deck": "artania"}, {"deck": "kuyavia"}, {"deck": "random"}]
EXPECTED = "e0e8236fc9997053e0f7f3d4427423f343063b681c86f82364f5802996e5dde6"  # main at 1e1ac8d


def _probes(s: State, seat: int, rng: random.Random) -> list[ArtaniaAction]:
    """Actions to try for ``seat``: some legal (as fresh objects from JSON), most of them illegal."""
    full = GAME.full_view(s)
    hand: list[str] = full["hands"][seat]
    other: list[str] = full["hands"][1 - seat]
    legal = GAME.legal_actions(s, seat)
    out: list[ArtaniaAction] = [GAME.parse_action(GAME.action_to_json(a)) for a in legal[:3]]
    out += [PASS, Place(cards=()), Place(cards=tuple(hand[:1])), Place(cards=tuple(hand[:2]))]
    out += [Place(cards=tuple(hand[:3])), Place(cards=tuple(hand[:1] * 2)), Place(cards=tuple(other[:2]))]
    out += [Place(cards=("nektar",)), Place(cards=("nope", "geroy"))]
    out += [Nektar(seat=rng.randrange(-1, 3), slot=rng.randrange(0, 5)) for _ in range(3)]
    out += [Idol(slot=k) for k in (0, 1, 2, 3, 4)]
    out += [Chasy(discard=c) for c in ("chasy", "nope", rng.choice(IDS))]
    if hand:
        out.append(Chasy(discard=rng.choice(hand)))
    return out


def _match(i: int, h: Any) -> int:
    key = hashlib.sha256(f"artania-speed-pin-{i}".encode()).digest()
    return play_pinned_match(
        GAME,
        key,
        OPTIONS[i % len(OPTIONS)],
        i,
        h,
        probes=_probes,
        bad_seats=(2, -1, True, "0"),
        bad_seat_action=PASS,
        over_probe=PASS,
        resign=RESIGN,
        max_steps=2000,
    )


def test_observable_behaviour_is_pinned() -> None:
    h = hashlib.sha256()
    steps = [_match(i, h) for i in range(N_MATCHES)]
    assert sum(steps) > 30 * 50  # real matches were played
    assert h.hexdigest() == EXPECTED


@pytest.mark.parametrize("i", range(3))
def test_illegal_actions_raise_and_leave_the_state_unchanged(i: int) -> None:
    """Every probe that is not legal raises IllegalAction; the state (position and views) is unchanged."""
    key = hashlib.sha256(f"artania-illegal-{i}".encode()).digest()
    s = GAME.new_match(key, GAME.parse_options(OPTIONS[i % len(OPTIONS)]))
    assert play_rejecting_probes(GAME, s, random.Random(-i), _probes) > 100


def test_determinize_shuffles_exactly_as_random_shuffle() -> None:
    """``determinize``'s inlined shuffle makes ``random.shuffle``'s draws: same order, same ``rng`` after."""
    from duelclub.games.artania.determinize import _shuffle

    for n in range(34):
        a, b = list(range(n)), list(range(n))
        r1, r2 = random.Random(n), random.Random(n)
        for _ in range(50):
            r1.shuffle(a)
            _shuffle(r2, b)
            assert a == b
        assert r1.random() == r2.random()

    class Other(random.Random):
        def shuffle(self, x: Any) -> None:
            x.reverse()

    c = [1, 2, 3]
    _shuffle(Other(0), c)
    assert c == [3, 2, 1]  # another generator class keeps its own shuffle
