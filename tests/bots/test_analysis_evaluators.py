"""The evaluators of the post-game analysis per game (issue 27 §4; ``bots/<game>/analysis.py``): each game's
analysis plays the rollout policy (and, where it cuts its playouts, scores the cut by the evaluation) chosen
by ``benchmarks/analysis_quality.py``; the choice is legal, deterministic under a seed and reads only the
mover's information set."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from duelclub.bots.analysis import Analyst, analyse, heuristic_rollout
from duelclub.bots.registry import analysis_settings, make_bot
from duelclub.games.contract import Seat
from duelclub.games.registry import get_game

KEY = bytes(range(32))
GAMES = ("artania", "mezha", "towers", "warchest")


def positions(slug: str, count: int, seed: int = 5) -> list[tuple[Any, Any, Seat]]:
    """(game, state copy, mover) at every decision with a choice of a «Лёгкий» self-play match, at most
    ``count`` of them."""
    game = get_game(slug)
    state = game.new_match(KEY, game.parse_options({}))
    bot = make_bot(slug, "light")
    rng = random.Random(seed)
    out: list[tuple[Any, Any, Seat]] = []
    while game.outcome(state) is None and len(out) < count:
        seat = sorted(game.to_move(state))[0]
        if len(game.legal_actions(state, seat)) > 1:
            out.append((game, game.determinize(state, seat, random.Random(len(out))), seat))
        game.apply(state, seat, bot.choose(game, state, seat, rng))
    return out


def rollout_of(slug: str) -> Any:
    settings = analysis_settings(slug)
    return settings.rollout or heuristic_rollout(slug)


def test_artania_plays_out_with_the_economical_policy_of_master() -> None:
    from duelclub.bots.artania.heuristics import economical_move

    rollout = rollout_of("artania")
    for game, state, seat in positions("artania", 40):
        assert rollout(game, state, seat, game.legal_actions(state, seat), random.Random(1)) == (
            economical_move(state, seat)
        )


def test_mezha_plays_out_with_the_heuristic_of_its_wide_levels() -> None:
    from duelclub.bots.mezha.heuristics import heuristic_action

    rollout = rollout_of("mezha")
    for game, state, seat in positions("mezha", 30):
        legal = game.legal_actions(state, seat)
        assert rollout(game, state, seat, legal, random.Random(3)) == heuristic_action(
            game, state, seat, legal, random.Random(3)
        )


def test_warchest_keeps_the_light_playouts_cut_on_masters_horizon_value() -> None:
    """master's own rollout policy predicted the results no better (bots/warchest/analysis.py), so the
    analysis keeps the light level's playouts, cut at 12 actions and scored as master scores its horizon."""
    from duelclub.bots.warchest import EVAL_SCALE
    from duelclub.bots.warchest.analysis import horizon_value
    from duelclub.bots.warchest.heuristics import evaluate

    settings = analysis_settings("warchest")
    assert settings.rollout is None and settings.playout_cut == 12 and settings.cut_value is horizon_value
    for game, state, seat in positions("warchest", 30):
        x = evaluate(state, state.side_of(seat)) / EVAL_SCALE
        assert horizon_value(game, state, seat) == pytest.approx(1.0 / (1.0 + math.exp(-x)))
        assert horizon_value(game, state, seat) + horizon_value(game, state, 1 - seat) == pytest.approx(1.0)


def test_towers_keeps_the_light_playouts_to_the_end() -> None:
    """The learned value as the cut value and the greedy rollout predicted the results no better
    (bots/towers/analysis.py): the analysis plays the light level to the end of the match."""
    from duelclub.bots.towers.analysis import heuristic_rollout
    from duelclub.bots.towers.heuristics import EasyBot

    settings = analysis_settings("towers")
    assert (
        settings.rollout is heuristic_rollout and settings.playout_cut is None and settings.cut_value is None
    )
    light = EasyBot("light")  # the heuristic the light level plays between its blunders
    for game, state, seat in positions("towers", 20):
        actions = game.legal_actions(state, seat)
        assert heuristic_rollout(game, state, seat, actions, random.Random(3)) == light.choose(
            game, state, seat, random.Random(3)
        )


def test_the_towers_candidate_cut_value_is_the_learned_value_of_the_mover() -> None:
    from duelclub.bots.towers.analysis import greedy_rollout, value_cut
    from duelclub.bots.towers.heuristics import greedy_action
    from duelclub.bots.towers.value import chance
    from duelclub.games.towers.state import MAIN

    for game, state, seat in positions("towers", 30):
        legal = game.legal_actions(state, seat)
        assert greedy_rollout(game, state, seat, legal, random.Random(4)) == greedy_action(state, seat, legal)
        before = game.to_position(state)
        mine, theirs = value_cut(game, state, seat), value_cut(game, state, 1 - seat)
        assert game.to_position(state) == before, "the cut value leaves the state untouched"
        assert 0.0 < mine < 1.0 and mine == pytest.approx(1.0 - theirs)
        if state.phase == MAIN:
            assert mine == pytest.approx(chance(state, seat))


@pytest.mark.parametrize("slug", GAMES)
def test_the_rollout_policy_picks_legal_actions_deterministically(slug: str) -> None:
    rollout = rollout_of(slug)
    for game, state, seat in positions(slug, 25):
        legal = game.legal_actions(state, seat)
        before = game.to_position(state)
        picks = [rollout(game, state, seat, legal, random.Random(9)) for _ in range(2)]
        assert picks[0] in legal and picks[0] == picks[1]
        assert game.to_position(state) == before


@pytest.mark.parametrize("slug", GAMES)
def test_the_analysis_of_a_match_is_reproducible_and_hides_the_opponents_cards(slug: str) -> None:
    game, state, seat = positions(slug, 8)[-1]
    analyst = Analyst(game, 12)
    action = game.legal_actions(state, seat)[-1]
    real = analyst.evaluate(state, seat, action, seed=3, seq=9)
    for n in (1, 2):
        other = game.determinize(state, seat, random.Random(100 + n))
        assert game.view(other, seat) == game.view(state, seat)
        assert analyst.evaluate(other, seat, action, seed=3, seq=9) == real
    log = [(seat, game.action_to_json(action))]
    runs = [analyse(game, game.determinize(state, seat, random.Random(7)), log, match_id="x", iterations=8)]
    runs.append(
        analyse(game, game.determinize(state, seat, random.Random(8)), log, match_id="x", iterations=8)
    )
    assert runs[0] == runs[1]
