"""Сундук войны's wide level (bots/warchest/wide.py, issue 27): legal, seeded, within its work cap and
clock, and blind to what its seat cannot see."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from duelclub.bots.warchest import EXPERIMENTAL_PARAMS, LEVEL_PARAMS, build
from duelclub.bots.warchest.wide import WideHorizonBot, horizon_rollout
from duelclub.games.warchest import GAME
from duelclub.games.warchest.actions import act
from duelclub.games.warchest.board import HEX_ID
from duelclub.games.warchest.state import PLAY, Unit

WIDE = next(p for p in (*LEVEL_PARAMS.values(), *EXPERIMENTAL_PARAMS.values()) if p["kind"] == "wide")
SMALL = {**WIDE, "playouts": 40, "max_steps": 300}
"""The wide level with a sixteenth of its work: the same code paths in a test's time."""


def _positions(n: int, seed: int = 3) -> list[Any]:
    """Play-phase positions with a choice to make, from random play of a seeded match (both expansions)."""
    rng = random.Random(seed)
    s = GAME.new_match(bytes([seed]) * 32, GAME.parse_options({"expansions": "both"}))
    out = []
    while GAME.outcome(s) is None and len(out) < n:
        (seat,) = GAME.to_move(s)
        legal = GAME.legal_actions(s, seat)
        if s.phase == PLAY and len(legal) > 1:
            out.append(GAME.copy(s))
        GAME.apply(s, seat, rng.choice(legal))
    return out


def _small() -> WideHorizonBot:
    bot = build("wide", SMALL, timed=False)
    assert isinstance(bot, WideHorizonBot)
    return bot


def test_wide_params_keep_the_issue_budget() -> None:
    assert 0 < WIDE["think"] <= 3.0
    assert WIDE["max_steps"] <= 6000  # ~0.3 ms of CPU per rollout ply: ~1.5 s at most


def test_wide_chooses_legal_actions_without_mutating() -> None:
    bot = _small()
    for s in _positions(40)[::5]:
        (seat,) = GAME.to_move(s)
        before = GAME.to_position(s)
        assert bot.choose(GAME, s, seat, random.Random(1)) in GAME.legal_actions(s, seat)
        assert GAME.to_position(s) == before
        assert bot.last_steps > 0


def test_wide_raises_when_not_to_move() -> None:
    s = _positions(10)[-1]
    (seat,) = GAME.to_move(s)
    with pytest.raises(ValueError):
        _small().choose(GAME, s, 1 - seat, random.Random(0))


def test_wide_takes_a_winning_control_unsearched() -> None:
    s = GAME.new_match(bytes(32), GAME.parse_options({"draft": "random"}))
    side = s.turn
    p = s.sides[side]
    t = p.types[0]
    p.hand, p.reserve = {t: 1, "royal": 1}, 1
    s.units = {HEX_ID[(0, -1)]: Unit(side, t, 2, 0, 99)}
    bot = _small()
    assert bot.choose(GAME, s, s.seat_of(side), random.Random(0)) == act("control", t, HEX_ID[(0, -1)])
    assert bot.last_steps == 0


def test_wide_is_deterministic_and_blind_to_hidden_information() -> None:
    """The same rng gives the same choice, also after what the seat cannot see is re-dealt."""
    checked = 0
    for s in _positions(40, 4)[4::8]:
        (seat,) = GAME.to_move(s)
        other = GAME.determinize(s, seat, random.Random(77))
        assert GAME.view(other, seat) == GAME.view(s, seat)
        first = _small().choose(GAME, s, seat, random.Random(5))
        assert _small().choose(GAME, s, seat, random.Random(5)) == first
        assert _small().choose(GAME, other, seat, random.Random(5)) == first
        checked += 1
    assert checked >= 4


def test_wide_stops_at_its_work_cap() -> None:
    s = _positions(12)[-1]
    (seat,) = GAME.to_move(s)
    n = len(GAME.legal_actions(s, seat))
    bot = build("wide", {**WIDE, "playouts": 10**6, "max_steps": 200}, timed=False)
    assert isinstance(bot, WideHorizonBot)
    bot.choose(GAME, s, seat, random.Random(2))
    # each phase stops at its cap after its two first rounds; a round plays every candidate once
    horizon = WIDE["horizon"]
    assert bot.last_steps <= 200 + 2 * n * horizon + 2 * (1 + WIDE["keep"]) * horizon
    assert bot.last_playouts <= 2 * n + 2 * (1 + WIDE["keep"]) + n + 1 + WIDE["keep"]


def test_wide_keeps_its_clock() -> None:
    s = _positions(12)[-1]
    (seat,) = GAME.to_move(s)
    bot = build("wide", {**WIDE, "playouts": 10**6, "max_steps": 10**9}, think_seconds=0.2)
    start = time.perf_counter()
    assert bot.choose(GAME, s, seat, random.Random(0)) in GAME.legal_actions(s, seat)
    assert time.perf_counter() - start < 1.5


def test_rollout_scores_in_the_unit_interval_and_counts_its_plies() -> None:
    s = _positions(8)[-1]
    (seat,) = GAME.to_move(s)
    value, steps = horizon_rollout(GAME, GAME.copy(s), seat, horizon=5, scale=8.0, rng=random.Random(0))
    assert 0.0 <= value <= 1.0 and 1 <= steps <= 5
