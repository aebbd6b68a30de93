"""Сундук войны bots: legal choices in every phase, no state mutation, hidden information unused."""

from __future__ import annotations

import random

from duelclub.bots.registry import bot_levels, make_bot
from duelclub.games.warchest import GAME
from duelclub.games.warchest.actions import act
from duelclub.games.warchest.board import HEX_ID
from duelclub.games.warchest.bot import EasyBot, HardBot, evaluate
from duelclub.games.warchest.state import Unit


def _states(n: int = 60) -> list[object]:
    rng = random.Random(3)
    s = GAME.new_match(bytes(32), GAME.parse_options({"expansions": "both"}))
    out = []
    while GAME.outcome(s) is None and len(out) < n:
        out.append(GAME.copy(s))
        (seat,) = GAME.to_move(s)
        GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)))
    return out


def test_levels_registered() -> None:
    assert {"easy", "hard", "random"} <= set(bot_levels("warchest"))


def test_bots_choose_legal_actions_without_mutating() -> None:
    for bot in (EasyBot(), HardBot(think_seconds=0.02, max_iterations=12)):
        for s in _states():
            (seat,) = GAME.to_move(s)
            before = GAME.to_position(s)
            a = bot.choose(GAME, s, seat, random.Random(1))
            assert a in GAME.legal_actions(s, seat)
            assert GAME.to_position(s) == before


def test_easy_takes_a_winning_control() -> None:
    s = GAME.new_match(bytes(32), GAME.parse_options({"draft": "random"}))
    side = s.turn
    p = s.sides[side]
    t = p.types[0]
    p.hand, p.reserve = {t: 1}, 1
    s.units = {HEX_ID[(0, -1)]: Unit(side, t, 2, 0, 99)}
    choice = EasyBot().choose(GAME, s, s.seat_of(side), random.Random(0))
    assert choice == act("control", t, HEX_ID[(0, -1)])


def test_evaluation_prefers_more_markers() -> None:
    s = _states(30)[-1]
    side = 0
    better = GAME.copy(s)
    better.sides[side].reserve -= 1
    assert evaluate(better, side) > evaluate(s, side)


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
