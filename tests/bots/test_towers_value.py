"""Дві вежі's learned value (bots/towers/value.py) and the level on trial ``valued`` that uses it as its
rollout leaf: the weights file matches the inputs, the value reads sense from clear positions, and the
level is hidden, legal, seeded, blind to what its seat cannot see and within its budget."""

from __future__ import annotations

import json
import random
import sys
from importlib import resources
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
from duelclub.bots.towers import EXPERIMENTAL_PARAMS, LEVEL_PARAMS, LookaheadBot, build, value
from duelclub.games.towers import GAME
from duelclub.games.towers.actions import play_action

SMALL = {**EXPERIMENTAL_PARAMS["valued"], "samples": 4}
"""``valued`` with a twelfth of its determinizations: the same code paths in a test's time."""


def _small() -> LookaheadBot:
    bot = build("valued", SMALL, timed=False)
    assert isinstance(bot, LookaheadBot)
    return bot


def test_the_weights_file_fits_the_inputs() -> None:
    path = resources.files("duelclub.bots.towers").joinpath("value_weights.json")
    raw = json.loads(path.read_text("utf-8"))
    assert raw["features"] == list(value.FEATURE_NAMES)
    w, b, v, _ = value.network()
    assert len(w) == len(b)
    assert len(v) == (len(w) or len(value.FEATURE_NAMES))
    for s in mid_match_states("value-inputs", "misty_harbour"):
        assert len(value.features(s, s.active)) == len(value.FEATURE_NAMES)


def test_the_value_prefers_the_side_that_is_ahead() -> None:
    ahead = state(me={"tower": 45, "wall": 20}, en={"tower": 4, "wall": 0})
    behind = state(me={"tower": 4, "wall": 0}, en={"tower": 45, "wall": 20})
    assert value.chance(ahead, 0) > 0.8 > 0.2 > value.chance(behind, 0)
    even = state()
    assert 0.2 < value.chance(even, 0) < 0.8


def test_valued_is_not_offered_by_the_lobby_and_keeps_the_budget() -> None:
    assert "valued" not in GAME.bot_levels and "valued" not in bot_levels("towers")
    assert "valued" not in LEVEL_PARAMS
    with pytest.raises(KeyError):
        make_bot("towers", "valued")
    assert 0 < EXPERIMENTAL_PARAMS["valued"]["think"] <= 1.5
    bot = build("valued", EXPERIMENTAL_PARAMS["valued"])
    assert isinstance(bot, LookaheadBot) and bot.leaf == "net"


def test_an_unknown_leaf_is_refused() -> None:
    with pytest.raises(ValueError):
        LookaheadBot("x", leaf="oracle")


def test_valued_plays_legal_seeded_choices_and_leaves_the_state_alone() -> None:
    bot = _small()
    for s in mid_match_states("valued", "crystal_garden"):
        assert_seeded_legal_pure(bot, s)


def test_valued_reads_only_what_its_seat_may_know() -> None:
    """The same choice (no clock, same rng) on the real state and on determinizations of it, which re-sample
    the opponent's hand and the pile order: the bot decides on its seat's view alone."""
    bot = _small()
    assert_blind_to_hidden_cards(bot, mid_match_states("valued-blind", "wind_square")[:4])


def test_valued_takes_a_winning_card() -> None:
    s = state(me={"troops": 10, "ore": 30}, en={"tower": 5, "wall": 0}, hands=([78, 31, 28, 8, 10, 16], []))
    assert _small().choose(GAME, s, 0, random.Random(5)) == play_action(78)
