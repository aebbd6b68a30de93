"""Межа's wide rollout search (bots/mezha/wide.py, issue 27): legal choices, determinism under a seed, the
work caps (playouts and rollout actions per decision) and the rollout's reward."""

from __future__ import annotations

import random

from duelclub.bots.mezha import LEVEL_PARAMS, build
from duelclub.bots.mezha.heuristics import EasyBot
from duelclub.bots.mezha.wide import MARGIN_WEIGHT, WideRolloutBot, rollout
from duelclub.games.mezha import GAME
from duelclub.games.mezha.state import State


def _season_states(count: int, seed: int) -> list[State]:
    """States with a seat to move and several legal actions, from matches of two ``light`` bots."""
    rng = random.Random(seed)
    easy = EasyBot()
    out: list[State] = []
    while len(out) < count:
        state = GAME.new_match(
            rng.randbytes(32), GAME.parse_options({"house": rng.choice(["olkha", "gorn"])})
        )
        while GAME.outcome(state) is None:
            seats = GAME.to_move(state)
            seat = min(seats)
            if len(seats) == 1 and len(GAME.legal_actions(state, seat)) > 1 and rng.random() < 0.3:
                out.append(GAME.copy(state))
            GAME.apply(state, seat, easy.choose(GAME, state, seat, rng))
    return out[:count]


STATES = _season_states(8, seed=27)


def _small(playouts: int = 60, max_steps: int = 1500) -> WideRolloutBot:
    return WideRolloutBot("test", playouts=playouts, max_steps=max_steps)


def test_the_levels_are_built_by_work_caps_without_a_clock_when_untimed() -> None:
    for level in ("strong", "master"):
        bot = build(level, LEVEL_PARAMS[level], timed=False)
        assert isinstance(bot, WideRolloutBot) and bot.time_budget is None
        assert bot.playouts == LEVEL_PARAMS[level]["playouts"]
        assert bot.max_steps == LEVEL_PARAMS[level]["max_steps"]
    timed = build("master", LEVEL_PARAMS["master"])
    assert isinstance(timed, WideRolloutBot) and timed.time_budget == LEVEL_PARAMS["master"]["think"]


def test_choices_are_legal_and_leave_the_state_alone() -> None:
    bot = _small()
    for i, state in enumerate(STATES):
        seat = min(GAME.to_move(state))
        before = GAME.to_position(state)
        assert bot.choose(GAME, state, seat, random.Random(i)) in GAME.legal_actions(state, seat)
        assert GAME.to_position(state) == before
        assert bot.last_playouts > 0 and bot.last_steps > 0


def test_the_same_seed_gives_the_same_choice_and_the_same_work() -> None:
    bot = _small()
    for i, state in enumerate(STATES[:4]):
        seat = min(GAME.to_move(state))
        first = bot.choose(GAME, state, seat, random.Random(100 + i))
        work = (bot.last_playouts, bot.last_steps)
        assert bot.choose(GAME, state, seat, random.Random(100 + i)) == first
        assert (bot.last_playouts, bot.last_steps) == work


def test_the_step_cap_stops_each_phase_after_two_rounds() -> None:
    """A cap smaller than one round: the screen plays its two least rounds over every legal action, the final
    two over the heuristic's choice and the ``keep`` best (bots/paired.py ``MIN_CAPPED_ROUNDS``)."""
    bot = _small(playouts=10_000, max_steps=10)
    state = STATES[0]
    seat = min(GAME.to_move(state))
    bot.choose(GAME, state, seat, random.Random(0))
    cands = len(GAME.legal_actions(state, seat))
    assert bot.last_playouts == 2 * cands + 2 * min(bot.keep + 1, cands)


def test_the_playout_count_is_used_when_the_step_cap_allows() -> None:
    bot = _small(playouts=200, max_steps=10**9)
    state = STATES[1]
    seat = min(GAME.to_move(state))
    bot.choose(GAME, state, seat, random.Random(0))
    cands = len(GAME.legal_actions(state, seat))
    screen = max(6, round(100 / cands)) * cands
    final_alive = min(bot.keep + 1, cands)
    assert bot.last_playouts == screen + max(6, round(100 / final_alive)) * final_alive


def test_a_rollout_plays_the_match_out_and_rewards_result_and_season_lead() -> None:
    for i, state in enumerate(STATES):
        seat = min(GAME.to_move(state))
        sim = GAME.determinize(state, seat, random.Random(i))
        value, steps = rollout(GAME, sim, seat, random.Random(i))
        assert sim.outcome is not None and steps > 0
        winner = sim.outcome.winner
        result = 0.5 if winner is None else float(winner == seat)
        assert value == result + MARGIN_WEIGHT * (sim.wins[seat] - sim.wins[1 - seat]) / 2
