"""The draw recorder of the fairness stream (games/fairness.py ``recording``; rules/fairness.md).

A finished match's draw log is every ``randint`` of its stream in order; a verifier that knows only ``K``
recomputes it word for word. These tests: the recorder is off by default, records in order, changes no
result, ignores other keys, copies and resumed streams, and — for a random playout of each of the four
games — lists every word the engine read (a fresh stream redrawing the log ends where the engine's did).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from duelclub.games.fairness import Draw, Stream, match_key, recording
from duelclub.games.registry import get_game, lobby_order

S = bytes(range(32))
KEY = match_key(S, "m-0001", "c0ffee", "5eed")


def _use(st: Stream) -> list[int]:
    return [st.randint(2), *st.shuffled(range(1, 21)), st.randint(7)]


def test_off_by_default() -> None:
    st = Stream(KEY)
    _use(st)
    assert st._draws is None
    with recording(KEY) as draws:
        pass
    _use(Stream(KEY))
    assert draws == []


def test_draws_are_recorded_in_order_and_change_nothing() -> None:
    plain = _use(Stream(KEY))
    with recording(KEY) as draws:
        st = Stream(KEY)
        recorded = _use(st)
    assert recorded == plain
    # the fairness.md vector: randint(2) = 1, then shuffle([1..20]) = 1, 18, 6, …
    assert draws[0] == Draw(2, 1)
    assert [d.bound for d in draws] == [2, *range(20, 1, -1), 7]
    assert len(draws) == 21
    redo = Stream(KEY)
    assert [redo.randint(d.bound) for d in draws] == [d.value for d in draws]
    assert redo.position == st.position


def test_other_keys_copies_and_resumed_streams_do_not_record() -> None:
    other = match_key(S, "m-0002")
    with recording(KEY) as draws:
        Stream(other).randint(5)
        st = Stream(KEY)
        st.randint(3)
        st.copy().randint(4)
        Stream.at(KEY, 5).randint(6)
        st.randint(9)
    assert [d.bound for d in draws] == [3, 9]


def test_rejected_words_are_not_draws() -> None:
    # the first two words of K (3819662481, 3858418194) are ≥ the limit 3·2**30 of randint(3·2**30): rejected
    n = 3 * 2**30
    with recording(KEY) as draws:
        st = Stream(KEY)
        value = st.randint(n)
    assert draws == [Draw(n, 1694984375)] == [Draw(n, value)] and st.position == 3


def _playout(slug: str, key: bytes, seed: int) -> tuple[Any, int]:
    game = get_game(slug)
    rng = random.Random(seed)
    state = game.new_match(key, game.parse_options({}))
    moves = 0
    while game.outcome(state) is None and moves < 400:
        seat = min(game.to_move(state))
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        moves += 1
    return state, moves


@pytest.mark.parametrize("slug", lobby_order())
def test_a_playout_records_every_word_the_engine_reads(slug: str) -> None:
    plain, moves = _playout(slug, KEY, 7)
    with recording(KEY) as draws:
        recorded, _ = _playout(slug, KEY, 7)
    game = get_game(slug)
    assert game.full_view(recorded) == game.full_view(plain)  # identical with the recorder on
    assert moves > 5 and len(draws) > 2
    redo = Stream(KEY)
    assert [redo.randint(d.bound) for d in draws] == [d.value for d in draws]
    assert redo.position == plain.stream.position  # no word was read outside the recorded draws
