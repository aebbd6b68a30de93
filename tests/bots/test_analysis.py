"""Post-game analysis (issue 17 §4, §6; bots/analysis.py): one entry per action, marks by lost win chance,
and only the mover's information set — two states that differ only in what the mover cannot see (the
opponent's hidden cards, the deck orders) give the same evaluation."""

from __future__ import annotations

import random
from typing import Any

import pytest

from duelclub.bots.analysis import INACCURACY, MISTAKE, Analyst, analyse, mark_for
from duelclub.bots.registry import make_bot
from duelclub.games.contract import Seat
from duelclub.games.registry import get_game

KEY = bytes(range(32))


def played_match(slug: str, seed: int = 3) -> tuple[Any, list[tuple[Seat, dict[str, Any]]]]:
    """A whole match of ``slug`` between «Новичок» (seat 0) and «Лёгкий» (seat 1): (game, logged actions)."""
    game = get_game(slug)
    state = game.new_match(KEY, game.parse_options({}))
    bots = [make_bot(slug, "novice"), make_bot(slug, "light")]
    rng = random.Random(seed)
    log: list[tuple[Seat, dict[str, Any]]] = []
    while game.outcome(state) is None:
        seat = sorted(game.to_move(state))[0]
        action = bots[seat].choose(game, state, seat, rng)
        log.append((seat, game.action_to_json(action)))
        game.apply(state, seat, action)
    return game, log


def midgame(slug: str, plies: int) -> tuple[Any, Any, Seat]:
    """(game, state, mover) after ``plies`` actions of a played match, at a decision with a real choice."""
    game, log = played_match(slug)
    state = game.new_match(KEY, game.parse_options({}))
    for n, (seat, raw) in enumerate(log):
        mover = sorted(game.to_move(state))[0]
        if n >= plies and len(game.legal_actions(state, mover)) > 2:
            return game, state, mover
        game.apply(state, seat, game.parse_action(raw))
    raise AssertionError("no decision with a choice after that ply")


def test_a_finished_match_has_one_entry_per_action() -> None:
    game, log = played_match("mezha")
    entries = analyse(game, game.new_match(KEY, game.parse_options({})), log, match_id="m1", iterations=24)
    assert [e["seq"] for e in entries] == list(range(1, len(log) + 1))
    assert [e["seat"] for e in entries] == [seat for seat, _ in log]
    for e in entries:
        assert 0.0 <= e["after"] <= 1.0 and 0.0 <= e["before"] <= 1.0
        assert e["mark"] == mark_for(e["loss"])
        assert (e["best"] is not None) == (e["mark"] is not None), "a marked action names the preferred one"
        if e["forced"]:
            assert e["loss"] == 0 and e["before"] == e["after"]


def test_the_analysis_is_reproducible() -> None:
    game, log = played_match("artania")
    runs = [
        analyse(game, game.new_match(KEY, game.parse_options({})), log[:20], match_id="m2", iterations=16)
        for _ in range(2)
    ]
    assert runs[0] == runs[1]


def test_marks_follow_the_lost_win_chance() -> None:
    assert (INACCURACY, MISTAKE) == (0.10, 0.20)
    assert [mark_for(x) for x in (0.0, 0.099, 0.1, 0.19, 0.2, 0.7)] == [
        None,
        None,
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
    ]


def test_a_resignation_leaves_no_win_chance() -> None:
    game, state, mover = midgame("mezha", 6)
    entry = Analyst(game, 16).evaluate(state, mover, game.parse_action({"kind": "resign"}), seed=5)
    assert entry.after == 0.0 and entry.loss == entry.before and entry.mark is None


@pytest.mark.parametrize(("slug", "plies"), [("mezha", 5), ("artania", 9), ("towers", 6), ("warchest", 14)])
def test_hidden_cards_of_the_opponent_do_not_change_the_evaluation(slug: str, plies: int) -> None:
    game, state, mover = midgame(slug, plies)
    one = game.determinize(state, mover, random.Random(1))
    two = game.determinize(state, mover, random.Random(2))
    assert game.to_position(one) != game.to_position(two), "the two states must differ in hidden cards"
    assert game.view(one, mover) == game.view(two, mover), "… and only in what the mover cannot see"
    analyst = Analyst(game, 24)
    for action in (game.legal_actions(state, mover)[0], game.legal_actions(state, mover)[-1]):
        real = analyst.evaluate(state, mover, action, seed=11, seq=7)
        assert analyst.evaluate(one, mover, action, seed=11, seq=7) == real
        assert analyst.evaluate(two, mover, action, seed=11, seq=7) == real
    assert game.to_position(one) == game.to_position(game.determinize(state, mover, random.Random(1))), (
        "evaluating leaves the state untouched"
    )
