"""Paired rollouts (bots/paired.py): rows of common-random-number rollouts, stopped by a round count, a work
cap or a deadline; the overruling rule."""

from __future__ import annotations

import hashlib
import random
import time
from typing import Any

from duelclub.bots.artania import counted_playout
from duelclub.bots.paired import MIN_CAPPED_ROUNDS, column_means, overruling_by, paired_rounds
from duelclub.games.artania import GAME


def _opening() -> tuple[Any, int, list[Any]]:
    """An Артания position with a choice of several actions, and its seat."""
    s = GAME.new_match(hashlib.sha256(b"paired-test").digest(), GAME.parse_options({}))
    while True:
        seat = min(GAME.to_move(s))
        legal = GAME.legal_actions(s, seat)
        if len(legal) > 2:
            return s, seat, legal[:3]
        GAME.apply(s, seat, legal[0])


def test_rounds_are_paired_counted_and_seeded() -> None:
    s, seat, cands = _opening()
    rows, work = paired_rounds(GAME, s, seat, cands, random.Random(1), counted_playout, rounds=5)
    assert len(rows) == 5 and all(len(row) == len(cands) for row in rows)
    assert work > 5 * len(cands)  # every playout plays many actions from an opening
    assert paired_rounds(GAME, s, seat, cands, random.Random(1), counted_playout, rounds=5) == (rows, work)
    assert len(column_means(rows)) == len(cands)


def test_the_work_cap_stops_between_rounds_after_the_least_rounds() -> None:
    s, seat, cands = _opening()
    _, one_round = paired_rounds(GAME, s, seat, cands, random.Random(2), counted_playout, rounds=1)
    rows, work = paired_rounds(
        GAME, s, seat, cands, random.Random(2), counted_playout, rounds=100, max_work=5 * one_round
    )
    assert MIN_CAPPED_ROUNDS < len(rows) < 100
    assert work >= 5 * one_round  # stops only once the cap is reached ...
    rows, _ = paired_rounds(GAME, s, seat, cands, random.Random(2), counted_playout, rounds=100, max_work=0)
    assert len(rows) == MIN_CAPPED_ROUNDS  # ... and never before the least rounds


def test_a_past_deadline_leaves_one_round() -> None:
    s, seat, cands = _opening()
    rows, _ = paired_rounds(
        GAME, s, seat, cands, random.Random(3), counted_playout, rounds=50, deadline=time.perf_counter()
    )
    assert len(rows) == 1


def test_overruling_takes_the_largest_clear_gain() -> None:
    rows = [[0.5, 0.6, 0.7]] * 8
    assert overruling_by(rows, 0, 0.02, 1.5) == 2
    assert overruling_by(rows, 2, 0.02, 1.5) == 2  # nothing beats the base
