"""Артания и Куявия bots: levels, legal choices, heuristic rules, and that they read nothing hidden."""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path

import pytest

from duelclub.bots.artania import HARD_ROUNDS, RolloutBot
from duelclub.bots.artania.heuristics import economical_move
from duelclub.bots.registry import bot_levels, make_bot
from duelclub.games.artania import GAME
from duelclub.games.artania.actions import PASS, Idol, Nektar, Place

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games"))
from artania_helpers import state


def test_levels() -> None:
    assert bot_levels("artania") == ("random", "novice", "light", "medium", "strong", "master")
    assert GAME.bot_levels == ("novice", "light", "medium", "strong", "master")


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


def _hard(rounds: int = 8) -> RolloutBot:
    return RolloutBot("hard", rounds, time_budget=None)  # no clock: deterministic for a given rng


def test_hard_finds_the_winning_idol() -> None:
    s = state(
        hands=(["idol", "vityaz_1"], ["strazh_1"]),
        step="W4",
        first=0,
        slots=(["vityaz_2", "vityaz_3", "berserk_1"], ["geroy", "berserk_3", "berserk_2"]),
    )
    assert _hard().choose(GAME, s, 0, random.Random(0)) == Idol(slot=1)


def _lost_turn() -> object:
    # Seat 1 is S and places last (P4); seat 0's three specials (12) beat anything seat 1 can still put in.
    return state(
        hands=(["vityaz_1", "sledopyt_2"], ["geroy", "berserk_1", "ratoborets_2", "volkhv_2"]),
        step="P4",
        first=0,
        slots=(["polkovodets", "strateg", "geroy"], ["vityaz_1", "sledopyt_1", "pending"]),
    )


def test_hard_keeps_its_hero_out_of_a_lost_turn_where_easy_spends_it() -> None:
    s = _lost_turn()
    easy = make_bot("artania", "easy").choose(GAME, s, 1, random.Random(0))
    assert easy == Place(cards=("geroy",))  # easy maximises the slot: 4 - 4 beats 1 - 4
    hard = _hard().choose(GAME, s, 1, random.Random(0))
    assert hard in GAME.legal_actions(s, 1) and hard != Place(cards=("geroy",))


def test_hard_can_overrule_the_economical_policy() -> None:
    # The search is no relabelled policy: somewhere in a match its choice differs from the playout policy's.
    s = GAME.new_match(hashlib.sha256(b"overrule").digest(), GAME.parse_options({}))
    rng = random.Random(3)
    hard = _hard(4)
    differ = 0
    while GAME.outcome(s) is None and differ == 0:
        (seat,) = GAME.to_move(s)
        view = GAME.determinize(s, seat, rng)
        action = hard.choose(GAME, view, seat, rng)
        differ += action != economical_move(view, seat)
        GAME.apply(s, seat, action)
    assert differ


def test_hard_is_deterministic_and_reads_only_what_its_seat_sees() -> None:
    # Two different determinizations of one state (the opponent's hand and the decks re-dealt) with the same
    # seed give the same choice: hard depends on the seat's information only, and on nothing else.
    s = GAME.new_match(hashlib.sha256(b"hard-view").digest(), GAME.parse_options({}))
    rng = random.Random(11)
    hard, easy = _hard(3), make_bot("artania", "easy")
    checked = 0
    while GAME.outcome(s) is None and s.turn <= 3:
        (seat,) = GAME.to_move(s)
        a, b = GAME.determinize(s, seat, rng), GAME.determinize(s, seat, rng)
        assert GAME.view(a, seat) == GAME.view(b, seat)
        first = hard.choose(GAME, a, seat, random.Random(seat))
        assert first == hard.choose(GAME, b, seat, random.Random(seat))
        assert first in GAME.legal_actions(s, seat)
        checked += len(GAME.legal_actions(s, seat)) > 1
        GAME.apply(s, seat, first if seat == 0 else easy.choose(GAME, a, seat, rng))
    assert checked >= 4


def test_hard_respects_its_round_cap_and_clock() -> None:
    bot = make_bot("artania", "hard")
    assert isinstance(bot, RolloutBot) and bot.rounds == HARD_ROUNDS <= 100
    s = GAME.new_match(hashlib.sha256(b"clock").digest(), GAME.parse_options({}))
    quick = RolloutBot("hard", rounds=10_000, time_budget=0.05)
    (seat,) = GAME.to_move(s)
    while len(GAME.legal_actions(s, seat)) == 1:
        GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
        (seat,) = GAME.to_move(s)
    quick.choose(GAME, s, seat, random.Random(0))
    assert 1 <= quick.last_rounds < 10_000
