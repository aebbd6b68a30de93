"""Дві вежі's level on trial ``expert`` (bots/towers/wide.py): hidden from the lobby, legal and non-mutating,
seeded, blind to what its seat cannot see, within its budget, and takes a winning card."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games"))
from test_towers_helpers import (
    assert_blind_to_hidden_cards,
    assert_seeded_legal_pure,
    mid_match_states,
    state,
)

from duelclub.bots.registry import bot_levels, make_bot
from duelclub.bots.towers import EXPERIMENTAL_PARAMS, LEVEL_PARAMS, LookaheadBot, build
from duelclub.bots.towers.wide import WideRolloutBot
from duelclub.games.towers import GAME
from duelclub.games.towers.actions import play_action

SMALL = {**EXPERIMENTAL_PARAMS["expert"], "playouts": 48, "samples": 4}
"""``expert`` with a thirteenth of its rollouts and a twelfth of its lookahead: the same code paths in a
test's time."""


def _small() -> WideRolloutBot:
    bot = build("expert", SMALL, timed=False)
    assert isinstance(bot, WideRolloutBot)
    return bot


def test_expert_is_not_offered_by_the_lobby() -> None:
    assert "expert" not in GAME.bot_levels and "expert" not in bot_levels("towers")
    assert "expert" not in LEVEL_PARAMS
    with pytest.raises(KeyError):
        make_bot("towers", "expert")
    assert isinstance(build("expert", EXPERIMENTAL_PARAMS["expert"]), WideRolloutBot)


def test_expert_budget_is_within_the_issue_limit() -> None:
    assert 0 < EXPERIMENTAL_PARAMS["expert"]["think"] <= 1.5


def test_expert_plays_legal_seeded_choices_and_leaves_the_state_alone() -> None:
    bot = _small()
    for s in mid_match_states("expert", "crystal_garden"):
        assert_seeded_legal_pure(bot, s)  # the refused call keeps the last choice's count
        if len(GAME.legal_actions(s, s.active)) > 1:
            assert bot.last_playouts > 0


def test_expert_reads_only_what_its_seat_may_know() -> None:
    """The same choice (no clock, same rng) on the real state and on determinizations of it, which re-sample
    the opponent's hand and the pile order: the bot decides on its seat's view alone."""
    bot = _small()
    assert_blind_to_hidden_cards(bot, mid_match_states("expert-blind", "wind_square")[:4])


def test_expert_takes_a_winning_card() -> None:
    s = state(me={"troops": 10, "ore": 30}, en={"tower": 5, "wall": 0}, hands=([78, 31, 28, 8, 10, 16], []))
    assert _small().choose(GAME, s, 0, random.Random(5)) == play_action(78)


def test_expert_keeps_its_clock() -> None:
    s = mid_match_states("expert-clock", "archmage_citadel")[0]
    bot = build("expert", {**EXPERIMENTAL_PARAMS["expert"], "playouts": 10**6, "samples": 10**6}, 0.2)
    start = time.perf_counter()
    assert bot.choose(GAME, s, s.active, random.Random(0)) in GAME.legal_actions(s, s.active)
    assert time.perf_counter() - start < 1.0


def test_a_rollout_without_a_horizon_plays_to_the_end() -> None:
    s = mid_match_states("expert-rollout", "free_steppe")[1]
    bot = WideRolloutBot("expert", turns=0, lookahead=LookaheadBot)
    value = bot.rollout(GAME, GAME.copy(s), s.active)
    assert value in (0.0, 0.5, 1.0)
    cut = WideRolloutBot("expert", turns=1, lookahead=LookaheadBot).rollout(GAME, GAME.copy(s), s.active)
    assert 0.0 <= cut <= 1.0
