"""Межа bots (bots/mezha/, bots/registry.py): legal choices everywhere, no peeking, the clock ceiling."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from duelclub.bots.base import Bot
from duelclub.bots.ismcts import IsmctsBot, SearchConfig
from duelclub.bots.mezha.heuristics import EasyBot, heuristic_action
from duelclub.bots.mezha.wide import WideRolloutBot
from duelclub.bots.registry import bot_levels, make_bot
from duelclub.games.mezha import GAME
from duelclub.games.mezha.state import State

HOUSES = ("olkha", "gorn")


def _positions(matches: int, seed: int) -> list[State]:
    """Copies of every state met while a random/easy mix plays ``matches`` matches (both houses)."""
    rng = random.Random(seed)
    easy = EasyBot()
    out: list[State] = []
    for i in range(matches):
        state = GAME.new_match(rng.randbytes(32), GAME.parse_options({"house": HOUSES[i % 2]}))
        while GAME.outcome(state) is None:
            out.append(GAME.copy(state))
            seat = min(GAME.to_move(state))
            legal = GAME.legal_actions(state, seat)
            action = rng.choice(legal) if rng.random() < 0.5 else easy.choose(GAME, state, seat, rng)
            GAME.apply(state, seat, action)
    return out


POSITIONS = _positions(12, seed=2024)
IN_SEASON = [s for s in POSITIONS if len(GAME.to_move(s)) == 1]
PAUSES = [s for s in POSITIONS if len(GAME.to_move(s)) == 2]
SAMPLE = IN_SEASON[::7]


def _small_hard() -> IsmctsBot:
    return IsmctsBot("hard", SearchConfig(time_budget=None, max_iterations=15), rollout=heuristic_action)


def _bots() -> list[Any]:
    return [make_bot("mezha", "random"), make_bot("mezha", "easy"), _small_hard()]


def test_the_sample_covers_all_phases_both_houses_and_both_seats() -> None:
    assert {s.season for s in IN_SEASON} == {1, 2, 3}
    assert PAUSES
    assert any(s.passed[0] or s.passed[1] for s in IN_SEASON)
    assert {(s.houses[s.turn], s.turn) for s in IN_SEASON} == {(0, 0), (0, 1), (1, 0), (1, 1)}


@pytest.mark.parametrize("level", ["random", "easy", "hard"])
def test_bots_choose_a_legal_action_wherever_they_are_to_move(level: str) -> None:
    bot = _small_hard() if level == "hard" else make_bot("mezha", level)
    rng = random.Random(1)
    for state in SAMPLE if level == "hard" else IN_SEASON:
        seat = next(iter(GAME.to_move(state)))
        before = GAME.to_position(state)
        action = bot.choose(GAME, state, seat, rng)
        assert action in GAME.legal_actions(state, seat)
        assert action.kind != "next_season"
        assert GAME.to_position(state) == before


def test_bots_asked_during_the_pause_send_next_season() -> None:
    for bot in _bots():
        for seat in (0, 1):
            assert bot.choose(GAME, PAUSES[0], seat, random.Random(0)).kind == "next_season"


def test_bots_refuse_a_seat_that_is_not_to_move() -> None:
    state = IN_SEASON[0]
    idle = 1 - next(iter(GAME.to_move(state)))
    for bot in _bots():
        with pytest.raises(ValueError, match="not to move"):
            bot.choose(GAME, state, idle, random.Random(0))


def _canonical(state: State, seat: int) -> State:
    """``state`` with ``seat``'s own deck and the later omens sorted: both are hidden from ``seat``, so this
    changes nothing it may know (the engine's determinize shuffles them starting from their real order)."""
    pos = GAME.to_position(state)
    pos["decks"][seat] = sorted(pos["decks"][seat])
    pos["omens"] = pos["omens"][: state.season] + sorted(pos["omens"][state.season :])
    return GAME.from_position(pos)


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_bots_cannot_peek_at_hidden_information(level: str) -> None:
    """States that differ only in what the seat cannot see (opponent's hand, deck, face-down cards) get
    the same answer from a bot with the same rng."""
    differed = 0
    for i, state in enumerate(SAMPLE):
        seat = next(iter(GAME.to_move(state)))
        real = _canonical(state, seat)
        other = _canonical(GAME.determinize(state, seat, random.Random(i)), seat)
        assert GAME.view(real, seat) == GAME.view(other, seat)
        differed += GAME.to_position(real) != GAME.to_position(other)
        bot = EasyBot() if level == "easy" else _small_hard()
        assert bot.choose(GAME, real, seat, random.Random(i)) == bot.choose(
            GAME, other, seat, random.Random(i)
        )
    assert differed > len(SAMPLE) // 2


def test_hard_stops_at_its_clock_ceiling() -> None:
    """``hard`` (``strong``, the wide rollouts of bots/mezha/wide.py) plays by its work caps; a clock given to
    it still cuts the search between determinizations: a 0.05 s ceiling stops it well short of its playouts
    (the first decision of a season costs ~0.2 s of CPU uncut), within about two rounds past the ceiling."""
    bot = make_bot("mezha", "hard", think_seconds=0.05)
    state = IN_SEASON[0]
    seat = next(iter(GAME.to_move(state)))
    cpu = time.process_time()
    bot.choose(GAME, state, seat, random.Random(0))
    cpu = time.process_time() - cpu
    assert isinstance(bot, WideRolloutBot) and bot.time_budget == 0.05
    assert 0 < bot.last_playouts < bot.playouts // 2
    assert cpu < 0.05 + 0.25


@pytest.mark.slow  # a strength test: whole matches between bots
def test_easy_beats_random_in_most_matches() -> None:
    rng = random.Random(7)
    easy, rand = make_bot("mezha", "easy"), make_bot("mezha", "random")
    wins = losses = 0
    for i in range(40):
        state = GAME.new_match(rng.randbytes(32), GAME.parse_options({"house": HOUSES[i // 2 % 2]}))
        easy_seat = i % 2
        while GAME.outcome(state) is None:
            seats = GAME.to_move(state)
            seat = min(seats)
            bot = easy if seat == easy_seat or len(seats) == 2 else rand
            GAME.apply(state, seat, bot.choose(GAME, state, seat, rng))
        winner = GAME.outcome(state).winner  # type: ignore[union-attr]
        wins += winner == easy_seat
        losses += winner == 1 - easy_seat
    assert wins >= 0.85 * (wins + losses)


def test_registry_makes_every_level_and_rejects_unknown_ones() -> None:
    assert set(GAME.bot_levels) <= set(bot_levels("mezha"))
    for level in bot_levels("mezha"):
        bot = make_bot("mezha", level)
        assert isinstance(bot, Bot) and bot.level == level
    hard = make_bot("mezha", "hard", think_seconds=0.3)
    assert isinstance(hard, WideRolloutBot) and hard.time_budget == 0.3
    medium = make_bot("mezha", "medium")
    assert isinstance(medium, IsmctsBot) and medium.config.max_iterations == 55  # levels.toml
    with pytest.raises(KeyError):
        make_bot("mezha", "grandmaster")
    with pytest.raises(KeyError):
        make_bot("chess", "easy")
