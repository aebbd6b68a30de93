"""Pins Дві вежі's observable behaviour while its engine is optimised (issue 17 §5 "Faster engines").

``test_pinned_playouts`` plays 32 seeded matches (every battlefield with both deck types, twice) with seeded
random legal actions, occasional clock timeouts and a few resignations, and hashes everything a client or a
bot can observe: each step's legal-action lists (both seats, as JSON), the events ``apply`` returns and each
seat's view of them, every seat's view (spectator included), the position (the stream's place, so the
randomness consumed), a ``determinize`` of the state every few steps, and the outcome. The digest was
computed on the engine before the optimisation; any change of legal-action order, randomness consumed,
events or views changes it.

``test_illegal_actions_raise_and_change_nothing`` checks, on states taken from random matches, that every
play and discard of every card id is accepted exactly when it is listed by ``legal_actions`` (on a copy),
and that each rejected action raises ``IllegalAction`` with the expected code and leaves the state unchanged.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from duelclub.games.contract import IllegalAction
from duelclub.games.towers import GAME
from duelclub.games.towers.actions import RESIGN, TIMEOUT, TowersAction, discard_action, play_action
from duelclub.games.towers.battlefields import BATTLEFIELD_IDS
from duelclub.games.towers.cards import COST, N_CARDS, RESOLVE, RESOURCE, RUN
from duelclub.games.towers.state import FORCED, State

PINNED = "58149688afc4ac15c1a7eef0f647c039a46cf2d1497d8507e4456e2d481fbf35"
DECKS = ("normal", "infinite")


def _matches() -> list[tuple[int, str, str]]:
    return [(i, field, deck) for i in range(2) for field in BATTLEFIELD_IDS for deck in DECKS]


def _dump(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()


def _play_match(n: int, field: str, deck: str, h: Any) -> None:
    key = hashlib.sha256(f"towers-speed-pin/{n}/{field}/{deck}".encode()).digest()
    rng = random.Random(f"{n}/{field}/{deck}")
    det_rng = random.Random(f"det/{n}/{field}/{deck}")
    timeout_rate = 0.04 if n == 1 else 0.0
    resign_at = rng.randrange(40, 400) if (n == 1 and deck == "infinite") else -1
    s = GAME.new_match(key, GAME.parse_options({"battlefield": field, "deck": deck}))
    step = 0
    while GAME.outcome(s) is None:
        assert step < 20_000
        for seat in (0, 1, None):
            h.update(_dump(GAME.view(s, seat)))
        h.update(_dump(GAME.to_position(s)))
        seat = min(GAME.to_move(s))
        for who in (0, 1):
            h.update(_dump([GAME.action_to_json(a) for a in GAME.legal_actions(s, who)]))
        legal = GAME.legal_actions(s, seat)
        action: TowersAction
        if step == resign_at:
            seat, action = rng.randrange(2), RESIGN
        elif rng.random() < timeout_rate:
            action = GAME.timeout_action(s, seat)
        else:
            action = legal[rng.randrange(len(legal))]
        h.update(_dump([seat, GAME.action_to_json(action)]))
        events = GAME.apply(s, seat, action)
        h.update(_dump(events))
        for who in (0, 1, None):
            h.update(_dump([GAME.event_view(s, dict(e), who) for e in events]))
        if step % 7 == 0:
            d = GAME.determinize(GAME.copy(s), step % 2, det_rng)
            h.update(_dump(GAME.full_view(d)))
            h.update(_dump(GAME.to_position(d)))
        step += 1
    outcome = GAME.outcome(s)
    assert outcome is not None
    h.update(_dump(outcome.to_json()))
    for seat in (0, 1, None):
        h.update(_dump(GAME.view(s, seat)))
    h.update(_dump(GAME.to_position(s)))


def test_pinned_playouts() -> None:
    h = hashlib.sha256()
    for n, field, deck in _matches():
        _play_match(n, field, deck, h)
    assert h.hexdigest() == PINNED


def _expected_code(s: State, seat: int, action: TowersAction) -> str | None:
    """The code ``apply`` must raise for ``action`` (a play or discard), or None when it is legal."""
    if seat != s.active:
        return "not_your_turn"
    card: int = action.card  # type: ignore[union-attr]
    if card not in s.hands[seat]:
        return "card_not_in_hand"
    if action.kind == "play":
        if s.phase == FORCED:
            return "must_discard"
        if COST[card] > s.p[seat][5 + RESOURCE[card]]:
            return "cannot_afford"
    return None


def _samples() -> list[State]:
    """States met along random matches of every battlefield and deck (forced discards included)."""
    out: list[State] = []
    rng = random.Random(17)
    for field in BATTLEFIELD_IDS:
        for deck in DECKS:
            s = GAME.new_match(rng.randbytes(32), GAME.parse_options({"battlefield": field, "deck": deck}))
            while GAME.outcome(s) is None:
                if rng.random() < 0.1 or s.phase == FORCED:
                    out.append(GAME.copy(s))
                seat = s.active
                legal = GAME.legal_actions(s, seat)
                GAME.apply(s, seat, legal[rng.randrange(len(legal))])
            out.append(s)
    return out


def test_illegal_actions_raise_and_change_nothing() -> None:
    samples = _samples()
    assert any(s.phase == FORCED for s in samples) and any(GAME.outcome(s) for s in samples)
    for s in samples:
        before = GAME.to_position(s)
        over = GAME.outcome(s) is not None
        for seat in (0, 1):
            legal = GAME.legal_actions(s, seat)
            for c in range(1, N_CARDS + 1):
                for action in (play_action(c), discard_action(c)):
                    code = "match_over" if over else _expected_code(s, seat, action)
                    assert (code is None) == (action in legal), (seat, action)
                    if code is None:
                        GAME.apply(GAME.copy(s), seat, action)
                        continue
                    with pytest.raises(IllegalAction) as exc:
                        GAME.apply(s, seat, action)
                    assert exc.value.code == code
                    assert GAME.to_position(s) == before
            bad: list[tuple[Any, Any, str]] = [
                (2, discard_action(s.hands[0][0] if s.hands[0] else 1), "bad_seat"),
                (seat, "discard", "match_over" if over else "malformed_action"),
            ]
            if not over:
                bad.append((1 - s.active, TIMEOUT, "not_your_turn"))
            else:
                bad.append((seat, RESIGN, "match_over"))
                bad.append((seat, TIMEOUT, "match_over"))
            for who, action, code in bad:
                with pytest.raises(IllegalAction) as exc:
                    GAME.apply(s, who, action)
                assert exc.value.code == code, (who, action)
                assert GAME.to_position(s) == before


def test_resolve_reports_every_change_run_makes() -> None:
    """``RESOLVE[c]`` (the ``play`` event's delta) changes the counters as ``RUN[c]`` does and returns exactly
    the difference, on random counters (small values, so walls, towers and conditions hit their edges)."""
    rng = random.Random(5)
    for _ in range(300):
        me0 = [rng.randrange(12) for _ in range(8)]
        en0 = [rng.randrange(12) for _ in range(8)]
        for c in range(1, N_CARDS + 1):
            me, en = me0[:], en0[:]
            RUN[c](me, en)
            me2, en2 = me0[:], en0[:]
            delta = RESOLVE[c](me2, en2)
            assert (me2, en2) == (me, en)
            changes = [[a - b for a, b in zip(p, p0, strict=True)] for p, p0 in ((me, me0), (en, en0))]
            assert delta == changes
