"""Pins the Межа engine's observable behaviour while it is optimised (issue 17 §5 "Faster engines").

Seeded random matches (both house options, some ending by resignation) are played through the public
``Game`` contract and everything observable is hashed: each seat's legal actions (as JSON, in order), the
events ``apply`` returns, every seat's view and view of each event, the position after each action, a
``copy`` and a seeded ``determinize`` of the state, and the final outcome. The digests were computed with
the engine on main before the optimisation (commit 1e1ac8d); an engine that changes the legal-action order,
the rng consumption, an event, a view or the deal no longer reproduces them.

A second test offers every possible action (each card on each field, a field out of range, pass,
next_season, resign, a non-action) to both seats at each step and pins which are refused with which code;
each refusal must leave the state exactly as it was, and every refused action is outside the legal list.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from duelclub.games.contract import IllegalAction
from duelclub.games.mezha import GAME
from duelclub.games.mezha.actions import NEXT_SEASON, PASS, RESIGN, MezhaAction, Play
from duelclub.games.mezha.cards import CARDS
from duelclub.games.mezha.state import State

MATCHES = 30
MAX_STEPS = 200
PLAYOUT_DIGEST = "b5a79ee8698896e5f9213a2d575581565b8d4640e600f9588891dd48ff9b0ded"
ILLEGAL_DIGEST = "33ba6b0344b9e31a0e6d44904a9fb5f88515ee33edb6137d7ec804dce0aaa34c"


def _dump(x: Any) -> bytes:
    return json.dumps(x, sort_keys=True, ensure_ascii=False).encode() + b"\n"


def _new(i: int) -> State:
    key = hashlib.sha256(f"mezha-speed-pin-{i}".encode()).digest()
    return GAME.new_match(key, GAME.parse_options({"house": ("olkha", "gorn")[i % 2]}))


def _record_state(h: Any, s: State, step: int, i: int) -> None:
    for seat in (0, 1, None):
        h.update(_dump(GAME.view(s, seat)))
    h.update(_dump(GAME.full_view(s)))
    h.update(_dump(GAME.to_position(s)))
    h.update(_dump(GAME.to_position(GAME.copy(s))))
    drng = random.Random(i * 1000 + step)
    for seat in (0, 1):
        d = GAME.determinize(s, seat, drng)
        h.update(_dump(GAME.to_position(d)))
        h.update(_dump(GAME.view(d, seat)))
    h.update(_dump([GAME.action_to_json(a) for seat in (0, 1) for a in GAME.legal_actions(s, seat)]))
    h.update(_dump(sorted(GAME.to_move(s))))


def _playout_digest() -> str:
    h = hashlib.sha256()
    for i in range(MATCHES):
        rng = random.Random(i)
        s = _new(i)
        resign_at = rng.randrange(5, 40) if i % 5 == 4 else -1
        step = 0
        _record_state(h, s, step, i)
        while GAME.outcome(s) is None:
            assert step < MAX_STEPS
            seat = min(GAME.to_move(s))
            acts = GAME.legal_actions(s, seat)
            h.update(_dump([GAME.action_to_json(a) for a in acts]))
            action: MezhaAction = acts[rng.randrange(len(acts))]
            if step == resign_at:
                seat, action = rng.randrange(2), RESIGN
            events = GAME.apply(s, seat, action)
            h.update(_dump([seat, GAME.action_to_json(action), events]))
            for viewer in (0, 1, None):
                h.update(_dump([GAME.event_view(s, dict(e), viewer) for e in events]))
            step += 1
            _record_state(h, s, step, i)
        outcome = GAME.outcome(s)
        assert outcome is not None
        h.update(_dump(outcome.to_json()))
    return h.hexdigest()


def _offers() -> list[object]:
    """Every action a client could send, legal or not (plus a field out of range and a non-action)."""
    plays: list[object] = [Play(card=c.id, field=f) for c in CARDS for f in (0, 1, 2)]
    return [*plays, Play(card=CARDS[0].id, field=3), Play(card="nope", field=0), PASS, NEXT_SEASON, "pass"]


def _illegal_digest() -> str:
    h = hashlib.sha256()
    offers = _offers()
    for i in range(0, MATCHES, 3):
        rng = random.Random(i)
        s = _new(i)
        while GAME.outcome(s) is None:
            before = GAME.to_position(s)
            for seat in (0, 1, 2):
                legal = GAME.legal_actions(s, seat) if seat < 2 else []
                codes = []
                for action in offers:
                    try:
                        GAME.apply(GAME.copy(s), seat, action)  # type: ignore[arg-type]
                    except IllegalAction as err:
                        assert action not in legal
                        codes.append(err.code)
                    else:
                        assert action in legal
                        codes.append("ok")
                h.update(_dump([seat, codes]))
            # a refusal leaves the real state untouched (not only a copy)
            for action in offers[::7]:
                for seat in (0, 1):
                    if action in GAME.legal_actions(s, seat):
                        continue
                    with pytest.raises(IllegalAction):
                        GAME.apply(s, seat, action)  # type: ignore[arg-type]
                    assert GAME.to_position(s) == before
            seat = min(GAME.to_move(s))
            acts = GAME.legal_actions(s, seat)
            GAME.apply(s, seat, acts[rng.randrange(len(acts))])
        with pytest.raises(IllegalAction) as over:
            GAME.apply(s, 0, RESIGN)
        h.update(_dump(over.value.code))
    return h.hexdigest()


def test_random_playouts_match_the_pinned_engine() -> None:
    assert _playout_digest() == PLAYOUT_DIGEST


def test_illegal_actions_match_the_pinned_engine_and_change_nothing() -> None:
    assert _illegal_digest() == ILLEGAL_DIGEST


if __name__ == "__main__":
    print(_playout_digest())
    print(_illegal_digest())
