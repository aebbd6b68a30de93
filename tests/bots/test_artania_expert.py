"""Артания и Куявия's level on trial ``expert`` (bots/artania/wide.py): hidden from the lobby, legal, seeded,
within its budget, and blind to what its seat cannot see."""

from __future__ import annotations

import hashlib
import random
import time
from typing import Any

import pytest

from duelclub.bots.artania import EXPERIMENTAL_PARAMS, LEVEL_PARAMS, build
from duelclub.bots.artania.heuristics import economical_move
from duelclub.bots.artania.wide import WideRolloutBot, overruling_by
from duelclub.bots.registry import bot_levels, make_bot
from duelclub.games.artania import GAME

SMALL = {**EXPERIMENTAL_PARAMS["expert"], "playouts": 60}
"""``expert`` with a twentieth of its playouts: the same code paths in a test's time."""


def _positions(n: int) -> list[tuple[Any, int]]:
    """``n`` positions with a choice to make, from economical self-play of a few seeded matches."""
    out: list[tuple[Any, int]] = []
    for k in range(4):
        s = GAME.new_match(hashlib.sha256(f"expert-test/{k}".encode()).digest(), GAME.parse_options({}))
        step = 0
        while GAME.outcome(s) is None:
            seat = min(GAME.to_move(s))
            if len(GAME.legal_actions(s, seat)) > 1 and step % 7 == k:
                out.append((GAME.copy(s), seat))
            GAME.apply(s, seat, economical_move(s, seat))
            step += 1
    return out[:: max(1, len(out) // n)][:n]


def test_expert_is_not_offered_by_the_lobby() -> None:
    assert "expert" not in GAME.bot_levels and "expert" not in bot_levels("artania")
    assert "expert" not in LEVEL_PARAMS
    with pytest.raises(KeyError):
        make_bot("artania", "expert")
    assert isinstance(build("expert", EXPERIMENTAL_PARAMS["expert"]), WideRolloutBot)


def test_expert_budget_is_within_the_issue_limit() -> None:
    assert 0 < EXPERIMENTAL_PARAMS["expert"]["think"] <= 1.5


@pytest.mark.parametrize("i", range(6))
def test_expert_plays_legal_seeded_choices_blind_to_hidden_cards(i: int) -> None:
    state, seat = _positions(6)[i]
    bot = build("expert", SMALL, timed=False)
    assert isinstance(bot, WideRolloutBot)
    rng = random.Random(i)
    a, b = GAME.determinize(state, seat, rng), GAME.determinize(state, seat, rng)
    assert GAME.view(a, seat) == GAME.view(b, seat)
    mine = bot.choose(GAME, a, seat, random.Random(i))
    assert mine in GAME.legal_actions(state, seat)
    # the same rng on another deal of what the seat cannot see: the same choice
    assert bot.choose(GAME, b, seat, random.Random(i)) == mine
    assert bot.last_playouts > 0


def test_expert_keeps_its_clock() -> None:
    state, seat = _positions(3)[1]
    bot = build("expert", {**EXPERIMENTAL_PARAMS["expert"], "playouts": 10**6}, think_seconds=0.2)
    start = time.perf_counter()
    assert bot.choose(GAME, state, seat, random.Random(0)) in GAME.legal_actions(state, seat)
    assert time.perf_counter() - start < 1.0


def test_overruling_needs_margin_and_standard_errors() -> None:
    rows = [[0.5, 0.6]] * 10
    assert overruling_by(rows, 0, 0.02, 1.5) == 1  # no spread: any gain above the margin is clear
    assert overruling_by(rows, 0, 0.2, 1.5) == 0  # below the margin
    noisy = [[0.0, 1.0], [1.0, 0.0]] * 5 + [[0.0, 1.0]]
    assert overruling_by(noisy, 0, 0.02, 1.5) == 0  # a gain of 1/11 is well inside its noise


def test_capped_expert_stops_at_its_work_cap_deterministically() -> None:
    state, seat = _positions(6)[0]
    params = {**EXPERIMENTAL_PARAMS["expert_capped"], "playouts": 400}
    uncapped = build("expert_capped", {**params, "max_steps": None}, timed=False)
    uncapped.choose(GAME, state, seat, random.Random(3))
    assert isinstance(uncapped, WideRolloutBot)
    cap = uncapped.last_steps // 3
    capped = build("expert_capped", {**params, "max_steps": cap}, timed=False)
    assert isinstance(capped, WideRolloutBot)
    first = capped.choose(GAME, state, seat, random.Random(3))
    steps, playouts = capped.last_steps, capped.last_playouts
    # past the cap by at most one round of each phase (a round plays every candidate once)
    per_playout = uncapped.last_steps / uncapped.last_playouts
    assert cap <= steps < cap + 40 * per_playout * 3
    assert playouts < uncapped.last_playouts
    assert capped.choose(GAME, state, seat, random.Random(3)) == first
    assert (capped.last_steps, capped.last_playouts) == (steps, playouts)
