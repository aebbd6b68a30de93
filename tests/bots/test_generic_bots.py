"""The game-independent bots (bots/random_bot.py, bots/ismcts.py) on the toy Nim of toygame.py."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from toygame import NIM, Next, Take, nim

from duelclub.bots.base import Bot
from duelclub.bots.ismcts import IsmctsBot, SearchConfig, action_key, reward_for
from duelclub.bots.random_bot import RandomBot
from duelclub.games.contract import Outcome

FAST = SearchConfig(time_budget=None, max_iterations=1500)


def test_bots_satisfy_the_protocol() -> None:
    assert isinstance(RandomBot(), Bot)
    assert isinstance(IsmctsBot("hard"), Bot)


@pytest.mark.parametrize("pile", [1, 2, 3, 5, 6, 7, 9, 10, 11])
def test_ismcts_finds_the_winning_nim_move(pile: int) -> None:
    action = IsmctsBot("hard", FAST).choose(NIM, nim(pile), 0, random.Random(pile))
    assert action == Take(n=pile % 4)


def test_ismcts_wins_as_the_second_seat() -> None:
    state = nim(6, first=1)
    assert IsmctsBot("hard", FAST).choose(NIM, state, 1, random.Random(3)) == Take(n=2)


def test_ismcts_searches_through_a_pause_where_both_seats_act() -> None:
    state = nim(9, pause_at=6)
    bot = IsmctsBot("hard", FAST)
    assert bot.choose(NIM, state, 0, random.Random(1)) == Take(n=1)
    assert bot.last_stats.iterations == FAST.max_iterations


def test_ismcts_leaves_the_state_untouched() -> None:
    state = nim(9, pause_at=5)
    before = NIM.to_position(state)
    IsmctsBot("hard", SearchConfig(time_budget=None, max_iterations=300)).choose(
        NIM, state, 0, random.Random(0)
    )
    assert NIM.to_position(state) == before


@pytest.mark.parametrize("bot", [RandomBot(), IsmctsBot("hard", SearchConfig(None, 200))])
def test_bots_return_next_when_asked_during_a_pause(bot: Any) -> None:
    state = nim(9, pause_at=9)
    NIM.apply(state, 0, Take(n=1))
    assert NIM.to_move(state) == {0, 1}
    assert bot.choose(NIM, state, 1, random.Random(0)) == Next()


@pytest.mark.parametrize("bot", [RandomBot(), IsmctsBot("hard", SearchConfig(None, 200))])
def test_bots_refuse_to_act_out_of_turn(bot: Any) -> None:
    with pytest.raises(ValueError, match="not to move"):
        bot.choose(NIM, nim(5), 1, random.Random(0))


def test_random_bot_plays_only_legal_moves() -> None:
    rng = random.Random(5)
    for pile in range(1, 12):
        state = nim(pile)
        while NIM.outcome(state) is None:
            seat = min(NIM.to_move(state))
            action = RandomBot().choose(NIM, state, seat, rng)
            assert action in NIM.legal_actions(state, seat)
            NIM.apply(state, seat, action)


def test_ismcts_is_deterministic_without_a_time_budget() -> None:
    bot = IsmctsBot("hard", SearchConfig(time_budget=None, max_iterations=200))
    picks = {repr(bot.choose(NIM, nim(13), 0, random.Random(42))) for _ in range(3)}
    assert len(picks) == 1


def test_ismcts_respects_the_time_budget() -> None:
    bot = IsmctsBot("hard", SearchConfig(time_budget=0.05, max_iterations=10**9))
    cpu = time.process_time()
    bot.choose(NIM, nim(40), 0, random.Random(0))
    cpu = time.process_time() - cpu
    assert 0.05 <= bot.last_stats.seconds < 1.0  # wall clock: loose, a busy machine may keep us waiting
    assert cpu < 0.05 + 0.03
    assert bot.last_stats.iterations > 10


def test_ismcts_respects_the_iteration_cap() -> None:
    bot = IsmctsBot("hard", SearchConfig(time_budget=10.0, max_iterations=50))
    bot.choose(NIM, nim(40), 0, random.Random(0))
    assert bot.last_stats.iterations == 50
    assert sum(bot.last_stats.root_visits.values()) == 50


def test_ismcts_follows_the_rollout_policy_and_prior() -> None:
    calls: list[int] = []

    def rollout(game: Any, state: Any, seat: int, actions: list[Any], rng: random.Random) -> Any:
        calls.append(seat)
        return actions[-1]

    def prior(game: Any, state: Any, seat: int, actions: list[Any], rng: random.Random) -> list[float]:
        return [1.0 if a == Take(n=1) else 0.0 for a in actions]

    cfg = SearchConfig(time_budget=None, max_iterations=1, bias_weight=1.0)
    bot = IsmctsBot("hard", cfg, rollout=rollout, prior=prior)
    bot.choose(NIM, nim(20), 0, random.Random(0))
    assert bot.last_stats.root_visits == {action_key(NIM, 0, Take(n=1)): 1}
    assert calls


class _Fixed:
    def __init__(self, result: Outcome | None) -> None:
        self.result = result

    def outcome(self, state: Any) -> Outcome | None:
        return self.result


@pytest.mark.parametrize(
    ("result", "seat", "expected"),
    [(Outcome(0, "x"), 0, 1.0), (Outcome(0, "x"), 1, 0.0), (Outcome(None, "draw"), 1, 0.5), (None, 0, None)],
)
def test_reward_is_one_half_zero_from_the_searching_seat(
    result: Outcome | None, seat: int, expected: float | None
) -> None:
    assert reward_for(_Fixed(result), None, seat) == expected  # type: ignore[arg-type]
