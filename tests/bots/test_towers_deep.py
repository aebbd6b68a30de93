"""Дві вежі's levels on trial ``deep`` and ``widenet`` (issue 27: the learned value in the lookahead as
well as at the rollouts' end) and ``value.reply_chance`` that they share: hidden from the lobby, within the
budget, legal and non-mutating, seeded, blind to what their seat cannot see; the reply reads a lethal
answer."""

from __future__ import annotations

import math
import random
import sys
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
from duelclub.bots.towers import (
    EXPERIMENTAL_PARAMS,
    LEVEL_PARAMS,
    MIN_CAPPED_SAMPLES,
    LookaheadBot,
    build,
    value,
)
from duelclub.bots.towers.wide import WideRolloutBot
from duelclub.games.towers import GAME
from duelclub.games.towers.actions import play_action

SMALL = {
    "deep": {**EXPERIMENTAL_PARAMS["deep"], "samples": 4},
    "widenet": {**EXPERIMENTAL_PARAMS["widenet"], "playouts": 48, "samples": 4},
}
"""The two levels with a twentieth of their work: the same code paths in a test's time."""

LEVELS = sorted(SMALL)


@pytest.mark.parametrize("level", LEVELS)
def test_the_level_is_hidden_and_keeps_the_budget(level: str) -> None:
    assert level not in GAME.bot_levels and level not in bot_levels("towers")
    assert level not in LEVEL_PARAMS
    with pytest.raises(KeyError):
        make_bot("towers", level)
    assert 0 < EXPERIMENTAL_PARAMS[level]["think"] <= 1.5
    bot = build(level, EXPERIMENTAL_PARAMS[level])
    assert isinstance(bot, LookaheadBot | WideRolloutBot)
    assert bot.leaf == "net" and bot.look_leaf == "net"


def test_unknown_leaves_are_refused() -> None:
    with pytest.raises(ValueError):
        LookaheadBot("x", look_leaf="oracle")
    with pytest.raises(ValueError):
        WideRolloutBot("x", lookahead=LookaheadBot, leaf="oracle")


@pytest.mark.parametrize("level", LEVELS)
def test_the_level_plays_legal_seeded_choices_and_leaves_the_state_alone(level: str) -> None:
    bot = build(level, SMALL[level], timed=False)
    for s in mid_match_states(f"{level}-legal", "crystal_garden"):
        assert_seeded_legal_pure(bot, s)


@pytest.mark.parametrize("level", LEVELS)
def test_the_level_reads_only_what_its_seat_may_know(level: str) -> None:
    """The same choice (no clock, same rng) on the real state and on determinizations of it, which re-sample
    the opponent's hand and the pile order: the bot decides on its seat's view alone."""
    bot = build(level, SMALL[level], timed=False)
    assert_blind_to_hidden_cards(bot, mid_match_states(f"{level}-blind", "wind_square")[:3])


@pytest.mark.parametrize("level", LEVELS)
def test_the_level_takes_a_winning_card(level: str) -> None:
    s = state(me={"troops": 10, "ore": 30}, en={"tower": 5, "wall": 0}, hands=([78, 31, 28, 8, 10, 16], []))
    assert build(level, SMALL[level], timed=False).choose(GAME, s, 0, random.Random(5)) == play_action(78)


def test_counter_features_are_the_features_of_the_state() -> None:
    for s in mid_match_states("value-parts", "misty_harbour"):
        seat = s.active
        parts = (s.p[seat], s.p[1 - seat], s.hands[seat], s.hands[1 - seat], s.field, s.infinite)
        assert value.counter_features(*parts) == value.features(s, seat)


def test_the_reply_sees_the_enemys_lethal_card() -> None:
    """Seat 1 to move holds card 78 (10 troops of damage) against seat 0's tower of 5 and no wall: the worst
    answer for seat 0 ends the match. Without that card the reply leaves seat 0 a chance, no better than
    the enemy's discard."""
    lethal = state(
        active=1,
        me={"troops": 10, "ore": 30},
        en={"tower": 5, "wall": 0},
        hands=([31, 28, 8, 10, 16, 20], [78]),
    )
    assert value.reply_chance(lethal, 0) == 0.0
    calm = state(active=1, me={"troops": 0, "ore": 0, "mana": 0}, en={"tower": 30, "wall": 10})
    v = value.reply_chance(calm, 0)
    assert 0.0 < v < 1.0
    mine = list(calm.p[0])
    for stock, source in ((5, 2), (6, 3), (7, 4)):  # seat 0's production
        mine[stock] += mine[source]
    parts = (mine, calm.p[1], calm.hands[0], calm.hands[1], calm.field, calm.infinite)
    assert v <= 1.0 / (1.0 + math.exp(-value.logit_of(value.counter_features(*parts)))) + 1e-12


def test_the_reply_cap_stops_the_lookahead_after_its_least_samples() -> None:
    capped = LookaheadBot("x", time_budget=None, max_samples=50, candidates=0, max_replies=1, look_leaf="net")
    free = LookaheadBot("x", time_budget=None, max_samples=12, candidates=0, look_leaf="net")
    for s in mid_match_states("reply-cap", "azure_valley")[:3]:
        if len(GAME.legal_actions(s, s.active)) < 2:
            continue
        capped.choose(GAME, s, s.active, random.Random(3))
        assert capped.last_samples == MIN_CAPPED_SAMPLES
        free.choose(GAME, s, s.active, random.Random(3))
        assert free.last_samples == 12
