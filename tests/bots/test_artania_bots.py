"""Артания и Куявия bots: levels, legal choices, heuristic rules, and that they read nothing hidden."""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path

import pytest

from duelclub.bots.artania import TurnHorizon
from duelclub.bots.ismcts import SearchConfig
from duelclub.bots.registry import bot_levels, make_bot
from duelclub.games.artania import GAME
from duelclub.games.artania.actions import PASS, Idol, Nektar, Place

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games"))
from artania_helpers import state


def test_levels() -> None:
    assert bot_levels("artania") == ("random", "easy", "hard")
    assert GAME.bot_levels == ("easy", "hard")


@pytest.mark.parametrize("level", ["random", "easy", "hard"])
def test_every_level_plays_a_whole_match_legally(level: str) -> None:
    bot = make_bot("artania", level, think_seconds=0.02)
    other = make_bot("artania", "easy")
    s = GAME.new_match(hashlib.sha256(level.encode()).digest(), GAME.parse_options({}))
    rng = random.Random(1)
    while GAME.outcome(s) is None:
        (seat,) = GAME.to_move(s)
        player = bot if seat == 0 else other
        action = player.choose(GAME, GAME.determinize(s, seat, rng), seat, rng)
        assert action in GAME.legal_actions(s, seat)
        GAME.apply(s, seat, action)


def test_easy_counters_the_card_opposite() -> None:
    s = state(
        hands=(["vityaz_3"], ["razboynik_1", "strazh_3", "charodey_1"]),
        step="P2",
        first=0,
        slots=(["vityaz_1", "pending", "pending"], None),
    )
    action = make_bot("artania", "easy").choose(GAME, s, 1, random.Random(0))
    # Чародей-1 opposite Витязь gets +2 (3 vs 1); Страж-3 is kept for the open slot 2
    assert action == Place(cards=("charodey_1", "strazh_3"))


def test_easy_plays_idol_in_w4_when_it_turns_the_turn() -> None:
    s = state(
        hands=(["idol", "vityaz_1"], ["strazh_1"]),
        step="W4",
        first=0,
        slots=(["vityaz_2", "vityaz_3", "berserk_1"], ["geroy", "berserk_3", "berserk_2"]),
    )
    assert make_bot("artania", "easy").choose(GAME, s, 0, random.Random(0)) == Idol(slot=1)


def test_easy_plays_nektar_to_break_a_tie_and_passes_when_ahead() -> None:
    s = state(
        hands=(["nektar", "vityaz_1"], ["strazh_1"]),
        step="W4",
        first=0,
        slots=(["vityaz_2", "vityaz_3", "berserk_1"], ["sledopyt_2", "sledopyt_3", "berserk_2"]),
    )
    easy = make_bot("artania", "easy")
    assert easy.choose(GAME, s, 0, random.Random(0)) == Nektar(seat=0, slot=1)
    GAME.apply(s, 0, Nektar(seat=0, slot=1))
    assert easy.choose(GAME, s, 1, random.Random(0)) == PASS  # no equipment in hand


def test_hard_finds_the_winning_idol() -> None:
    s = state(
        hands=(["idol", "vityaz_1"], ["strazh_1"]),
        step="W4",
        first=0,
        slots=(["vityaz_2", "vityaz_3", "berserk_1"], ["geroy", "berserk_3", "berserk_2"]),
    )
    hard = make_bot("artania", "hard", think_seconds=None)
    assert hard.choose(GAME, s, 0, random.Random(0)) == Idol(slot=1)


def test_bots_decide_the_same_on_any_determinization() -> None:
    # What a bot may know is its view; two states with the same view give the same easy choice.
    s = GAME.new_match(hashlib.sha256(b"same").digest(), GAME.parse_options({}))
    rng = random.Random(5)
    easy = make_bot("artania", "easy")
    while GAME.outcome(s) is None:
        (seat,) = GAME.to_move(s)
        a = easy.choose(GAME, GAME.determinize(s, seat, rng), seat, rng)
        b = easy.choose(GAME, GAME.determinize(s, seat, rng), seat, rng)
        assert a == b
        GAME.apply(s, seat, a)


def test_turn_horizon_ends_with_the_turns_token() -> None:
    s = state(
        hands=(["vityaz_1"], ["strazh_1"]),
        step="W4",
        first=0,
        slots=(["vityaz_3", "empty", "empty"], ["berserk_1", "empty", "empty"]),
    )
    horizon = TurnHorizon(1)
    assert horizon.outcome(s) is None
    horizon.apply(s, 0, PASS)
    horizon.apply(s, 1, PASS)
    outcome = horizon.outcome(s)
    assert outcome is not None and outcome.winner == 0 and GAME.outcome(s) is None


def test_hard_respects_its_iteration_cap() -> None:
    bot = make_bot("artania", "hard")
    assert isinstance(bot.search.config, SearchConfig)  # type: ignore[attr-defined]
    assert bot.search.config.max_iterations <= 500  # type: ignore[attr-defined]
