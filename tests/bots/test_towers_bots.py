"""Дві вежі bots: legal, non-mutating, blind to what the seat cannot see; easy takes a win when it has one;
hard (the determinized lookahead) is deterministic without a time budget, keeps to its sample cap and sees
threats easy misses; easy beats random."""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games"))
from test_towers_helpers import mid_match_states, play, state

from duelclub.bots.registry import bot_levels, make_bot
from duelclub.bots.towers import LookaheadBot, overrule
from duelclub.bots.towers.heuristics import EasyBot
from duelclub.games.towers import GAME
from duelclub.games.towers.actions import discard_action, play_action


def _states() -> list[object]:
    return list(mid_match_states("bots", "crystal_garden"))


def test_levels() -> None:
    assert set(bot_levels("towers")) == {"random", "novice", "light", "medium", "strong", "master"}
    assert isinstance(make_bot("towers", "master", think_seconds=0.01), LookaheadBot)
    # issue 27's spacing: the levels below master are the greedy heuristic, blundering less level by level
    assert isinstance(make_bot("towers", "hard", think_seconds=0.01), EasyBot)


@pytest.mark.parametrize("level", ["random", "easy", "hard", "master"])
def test_bots_choose_a_legal_action_and_leave_the_state_alone(level: str) -> None:
    bot = make_bot("towers", level, think_seconds=0.02)
    for s in _states():
        before = GAME.to_position(s)
        action = bot.choose(GAME, s, s.active, random.Random(3))
        assert action in GAME.legal_actions(s, s.active)
        assert GAME.to_position(s) == before
        with pytest.raises(ValueError):
            bot.choose(GAME, s, 1 - s.active, random.Random(3))


def test_easy_reads_only_what_its_seat_may_know() -> None:
    bot = EasyBot()
    rng = random.Random(0)
    for s in _states():
        seat = s.active
        want = bot.choose(GAME, s, seat, random.Random(9))
        for _ in range(5):
            d = GAME.determinize(s, seat, rng)
            assert bot.choose(GAME, d, seat, random.Random(9)) == want


def test_easy_takes_a_winning_card() -> None:
    s = state(me={"troops": 10, "ore": 30}, en={"tower": 5, "wall": 0}, hands=([78, 31, 28, 8, 10, 16], []))
    assert EasyBot().choose(GAME, s, 0, random.Random(0)) == play_action(78)


def test_easy_discards_at_a_forced_discard() -> None:
    s = state(me={"mana": 2}, hands=([40], []))
    play(s, 40)
    action = EasyBot().choose(GAME, s, 0, random.Random(0))
    assert action in [discard_action(c) for c in s.hands[0]]


def _hard(samples: int = 8) -> LookaheadBot:
    return LookaheadBot("hard", time_budget=None, max_samples=samples)


def test_hard_is_deterministic_without_a_time_budget_and_prefers_the_win() -> None:
    bot = _hard()
    s = state(me={"troops": 10, "ore": 30}, en={"tower": 5, "wall": 0}, hands=([78, 31, 28, 8, 10, 16], []))
    a = bot.choose(GAME, s, 0, random.Random(5))
    assert a == bot.choose(GAME, s, 0, random.Random(5)) == play_action(78)
    assert bot.last_samples == 8


def test_hard_reads_only_what_its_seat_may_know() -> None:
    """The opponent's hand and the pile order are re-sampled by ``determinize``: the search (no time budget,
    same rng) must choose exactly the same on any such sample as on the real state."""
    bot = _hard(4)
    rng = random.Random(1)
    for s in _states():
        seat = s.active
        want = bot.choose(GAME, s, seat, random.Random(9))
        for _ in range(3):
            d = GAME.determinize(s, seat, rng)
            assert d.hands[1 - seat] != s.hands[1 - seat] or d.pile != s.pile
            assert bot.choose(GAME, d, seat, random.Random(9)) == want


def test_hard_stops_at_its_time_budget() -> None:
    bot = LookaheadBot("hard", time_budget=0.0, max_samples=1000)
    s = _states()[0]
    bot.choose(GAME, s, s.active, random.Random(0))
    assert bot.last_samples == 1


@pytest.mark.slow  # a strength test: whole matches between bots
def test_easy_beats_random() -> None:
    wins = 0
    for i in range(20):
        key = hashlib.sha256(f"e-r{i}".encode()).digest()
        field = ("archmage_citadel", "wind_square", "misty_harbour", "free_steppe")[i % 4]
        s = GAME.new_match(
            key, GAME.parse_options({"battlefield": field, "deck": ("normal", "infinite")[i % 2]})
        )
        bots = {i % 2: EasyBot(), 1 - i % 2: make_bot("towers", "random")}
        rng = random.Random(i)
        while GAME.outcome(s) is None:
            GAME.apply(s, s.active, bots[s.active].choose(GAME, s, s.active, rng))
        wins += GAME.outcome(s).winner == i % 2  # type: ignore[union-attr]
    assert wins >= 17


def test_hard_sees_the_opponents_production_win_that_easy_misses() -> None:
    """The opponent reaches 150 ore by its next production unless we take some now (Бракована руда): the
    greedy easy bot builds a wall, the search sees the loss one move ahead."""
    s = state(me={"ore": 30}, en={"ore": 149, "mines": 2}, hands=([1, 31, 28, 8, 10, 16], []))
    assert EasyBot().choose(GAME, s, 0, random.Random(0)) == play_action(31)
    assert _hard().choose(GAME, s, 0, random.Random(0)) == play_action(1)


def test_overrule_keeps_the_lookaheads_choice_unless_a_rollout_gain_is_significant() -> None:
    first = [0.5, 0.4, 0.6, 0.5]
    # a steady gain of 0.1 on every determinization overrules
    assert overrule([first, [0.6, 0.5, 0.7, 0.6]], 1.0) == 1
    # a smaller gain (0.075) that varies a lot (standard error 0.165) does not
    assert overrule([first, [0.9, 0.1, 0.9, 0.4]], 1.0) == 0
    # ... and with z = 0 any positive mean gain does
    assert overrule([first, [0.9, 0.1, 0.9, 0.4]], 0.0) == 1
    # a loss never overrules; among several the highest lower bound wins
    assert overrule([first, [0.4, 0.3, 0.5, 0.4]], 1.0) == 0
    assert overrule([first, [0.6, 0.5, 0.7, 0.6], [0.7, 0.6, 0.8, 0.7]], 1.0) == 2
    # one determinization is not evidence
    assert overrule([[0.1], [0.9]], 1.0) == 0


def test_hard_plays_the_lookaheads_first_choice_when_nothing_overrules_it() -> None:
    """With an unreachable threshold the rollouts change nothing: hard plays what its lookahead alone (no
    candidates) plays, on every sampled state."""
    for s in _states()[:3]:
        seat = s.active
        strict = LookaheadBot("hard", time_budget=None, max_samples=4, overrule_z=1e9)
        alone = LookaheadBot("hard", time_budget=None, max_samples=4, candidates=0)
        assert strict.choose(GAME, s, seat, random.Random(3)) == alone.choose(GAME, s, seat, random.Random(3))
