"""Дві вежі's tree search (``bots/towers/search.py``): legal and non-mutating, deterministic without a time
budget, blind to what its seat cannot see, keeps to its iteration cap and takes a winning card."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games"))
from test_towers_helpers import mid_match_states, state

from duelclub.bots.towers.search import SearchBot
from duelclub.games.towers import GAME
from duelclub.games.towers.actions import play_action


def _states() -> list[object]:
    return list(mid_match_states("search", "wind_square"))


def _bot(iterations: int = 60, **kw: object) -> SearchBot:
    return SearchBot("master", time_budget=None, iterations=iterations, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("policy", ["easy", "fitted"])
def test_search_chooses_a_legal_action_and_leaves_the_state_alone(policy: str) -> None:
    bot = _bot(policy=policy)
    for s in _states():
        before = GAME.to_position(s)
        action = bot.choose(GAME, s, s.active, random.Random(3))
        assert action in GAME.legal_actions(s, s.active)
        assert GAME.to_position(s) == before
        assert bot.last_iterations == 60
        with pytest.raises(ValueError):
            bot.choose(GAME, s, 1 - s.active, random.Random(3))


def test_search_reads_only_what_its_seat_may_know() -> None:
    """The same choice (no time budget, same rng) on the real state and on determinizations of it, which
    re-sample the opponent's hand and the pile order."""
    bot = _bot(80, turns=2)
    rng = random.Random(1)
    for s in _states():
        seat = s.active
        want = bot.choose(GAME, s, seat, random.Random(9))
        for _ in range(3):
            d = GAME.determinize(s, seat, rng)
            assert d.hands[1 - seat] != s.hands[1 - seat] or d.pile != s.pile
            assert bot.choose(GAME, d, seat, random.Random(9)) == want


def test_search_takes_a_winning_card_and_stops_at_its_time_budget() -> None:
    s = state(me={"troops": 10, "ore": 30}, en={"tower": 5, "wall": 0}, hands=([78, 31, 28, 8, 10, 16], []))
    assert _bot(200).choose(GAME, s, 0, random.Random(5)) == play_action(78)
    timed = SearchBot("master", time_budget=0.0, iterations=1000)
    timed.choose(GAME, s, 0, random.Random(0))
    assert timed.last_iterations == 1
