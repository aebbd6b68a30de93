"""Сундук войны bots: legal choices in every phase, no state mutation, hidden information unused."""

from __future__ import annotations

import random
from typing import Any

import pytest

from duelclub.bots.ismcts import SearchConfig
from duelclub.bots.registry import bot_levels, make_bot
from duelclub.bots.warchest import HardBot, Horizon
from duelclub.games.warchest import GAME, engine
from duelclub.games.warchest.actions import act
from duelclub.games.warchest.board import HEX_ID
from duelclub.games.warchest.bot import DRAFT_LOGIT, DRAFT_VALUE, EasyBot, evaluate, play
from duelclub.games.warchest.state import PLAY, Unit


def _states(n: int = 60, seed: int = 3) -> list[Any]:
    rng = random.Random(seed)
    s = GAME.new_match(bytes(32), GAME.parse_options({"expansions": "both"}))
    out = []
    while GAME.outcome(s) is None and len(out) < n:
        out.append(GAME.copy(s))
        (seat,) = GAME.to_move(s)
        GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)))
    return out


def _hard(iterations: int = 12) -> HardBot:
    """A hard bot bounded by iterations only (no clock), so its choice is a function of the rng."""
    return HardBot("hard", SearchConfig(time_budget=None, max_iterations=iterations, bias_weight=0.5))


def _winning_position() -> tuple[Any, int, Any]:
    """A position whose mover wins by one Control: the state, its seat and that action."""
    s = GAME.new_match(bytes(32), GAME.parse_options({"draft": "random"}))
    side = s.turn
    p = s.sides[side]
    t = p.types[0]
    p.hand, p.reserve = {t: 1, "royal": 1}, 1
    s.units = {HEX_ID[(0, -1)]: Unit(side, t, 2, 0, 99)}
    return s, s.seat_of(side), act("control", t, HEX_ID[(0, -1)])


def test_levels_registered() -> None:
    assert {"light", "strong", "random"} <= set(bot_levels("warchest"))


def test_bots_choose_legal_actions_without_mutating() -> None:
    for bot in (EasyBot(), _hard(8)):
        for s in _states():
            (seat,) = GAME.to_move(s)
            before = GAME.to_position(s)
            a = bot.choose(GAME, s, seat, random.Random(1))
            assert a in GAME.legal_actions(s, seat)
            assert GAME.to_position(s) == before


def test_bots_raise_when_not_to_move() -> None:
    s = _states(30)[-1]
    (seat,) = GAME.to_move(s)
    for bot in (EasyBot(), _hard()):
        try:
            bot.choose(GAME, s, 1 - seat, random.Random(0))
        except ValueError:
            continue
        raise AssertionError("a bot chose for a seat that is not to move")


def test_bots_take_a_winning_control() -> None:
    s, seat, win = _winning_position()
    assert EasyBot().choose(GAME, s, seat, random.Random(0)) == win
    assert _hard().choose(GAME, s, seat, random.Random(0)) == win
    assert make_bot("warchest", "hard").choose(GAME, s, seat, random.Random(0)) == win


def test_hard_is_deterministic_for_a_fixed_seed() -> None:
    for s in _states(40)[12::7]:
        (seat,) = GAME.to_move(s)
        picks = {_hard(20).choose(GAME, s, seat, random.Random(9)) for _ in range(2)}
        assert len(picks) == 1


def test_bots_are_blind_to_hidden_information() -> None:
    """Re-dealing what the seat cannot see (opponent's hand, bag, face-down discard, the stream's future)
    changes nothing: with the same rng both bots choose the same action in both worlds."""
    checked = 0
    for seed in (3, 4):
        for s in _states(50, seed)[10::4]:
            if s.phase != PLAY:
                continue
            (seat,) = GAME.to_move(s)
            other = GAME.determinize(s, seat, random.Random(77))
            assert GAME.view(other, seat) == GAME.view(s, seat)
            for bot in (EasyBot(), _hard(10)):
                assert bot.choose(GAME, s, seat, random.Random(5)) == bot.choose(
                    GAME, other, seat, random.Random(5)
                )
            checked += 1
    assert checked >= 6


def test_horizon_cuts_the_search_and_ranks_actions() -> None:
    s = _states(40)[-1]
    (seat,) = GAME.to_move(s)
    side = s.side_of(seat)
    game = Horizon(2, 4, 2, random.Random(0))
    det = game.determinize(s, seat, random.Random(1))
    listed = game.legal_actions(det, seat)
    full = engine.legal(det, side)
    assert 1 <= len(listed) <= 4 and set(listed) <= set(full)
    assert game.scores == sorted(game.scores, reverse=True)
    plies = 0
    while game.outcome(det) is None:
        (mover,) = game.to_move(det)
        game.apply(det, mover, game.legal_actions(det, mover)[0])
        plies += 1
    assert plies == 2 or det.outcome is not None
    assert game.outcome(det) is not None


def test_unchecked_play_matches_the_engine() -> None:
    for s in _states(40):
        (seat,) = GAME.to_move(s)
        side = s.side_of(seat)
        for a in engine.legal(s, side)[:6]:
            x, y = s.copy(), s.copy()
            engine.apply(x, side, a)
            play(y, side, a)
            assert GAME.to_position(x) == GAME.to_position(y)


def test_evaluation_prefers_more_markers() -> None:
    s = _states(30)[-1]
    side = 0
    better = GAME.copy(s)
    better.sides[side].reserve -= 1
    assert evaluate(better, side) > evaluate(s, side)


@pytest.mark.slow  # a strength test: whole matches between bots
def test_easy_beats_random_in_a_short_series() -> None:
    wins = 0
    for i in range(4):
        s = GAME.new_match(bytes([i]) * 32, GAME.parse_options({"expansions": "both"}))
        bots = [make_bot("warchest", "easy"), make_bot("warchest", "random")]
        if i % 2:
            bots.reverse()
        rng = random.Random(i)
        while GAME.outcome(s) is None:
            (seat,) = GAME.to_move(s)
            GAME.apply(s, seat, bots[seat].choose(GAME, s, seat, rng))
        out = GAME.outcome(s)
        assert out is not None
        wins += out.winner == i % 2
    assert wins >= 3


def test_hard_drafts_by_the_fitted_values() -> None:
    s = GAME.new_match(bytes(32), GAME.parse_options({"expansions": "both", "draft": "club"}))
    (seat,) = GAME.to_move(s)
    pool = GAME.legal_actions(s, seat)
    pick = make_bot("warchest", "hard").choose(GAME, s, seat, random.Random(0))
    assert pick.type == max(DRAFT_LOGIT, key=lambda t: DRAFT_LOGIT[t])
    assert {str(a.type) for a in pool} <= set(DRAFT_LOGIT) == set(DRAFT_VALUE)
