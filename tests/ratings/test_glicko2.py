"""Glicko-2 (ratings/glicko2.py) against Glickman's "Example of the Glicko-2 system", and its properties:
symmetric updates, independence from the order of the games and from the absolute rating level, and the
club's rules on top (ratings/rules.py): bounds, RD growth with idle time, the provisional threshold."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duelclub.ratings.glicko2 import SCALE, Game, Rating, expected_score, idle, update
from duelclub.ratings.rules import RatingRules, Side, aged, rate_pair

PAPER_PLAYER = Rating(1500, 200, 0.06)
PAPER_GAMES = [
    Game(Rating(1400, 30, 0.06), 1),
    Game(Rating(1550, 100, 0.06), 0),
    Game(Rating(1700, 300, 0.06), 0),
]
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def test_the_papers_worked_example() -> None:
    """1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300 (τ 0.5): 1464.06 / 151.52 / 0.05999.
    The paper rounds μ′ to −0.2069 before converting back, which is where its 1464.06 comes from."""
    new = update(PAPER_PLAYER, PAPER_GAMES, tau=0.5)
    assert round((new.rating - 1500) / SCALE, 4) == -0.2069
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert round(new.rd, 2) == 151.52
    assert round(new.rd / SCALE, 4) == 0.8722
    assert new.volatility == pytest.approx(0.05999, abs=1e-5) and new.volatility < 0.06


def test_the_update_does_not_depend_on_the_order_of_the_games() -> None:
    forward = update(PAPER_PLAYER, PAPER_GAMES)
    for order in ([2, 0, 1], [1, 2, 0], [2, 1, 0]):
        assert update(PAPER_PLAYER, [PAPER_GAMES[i] for i in order]) == forward


def test_no_games_only_widens_the_deviation() -> None:
    after = update(PAPER_PLAYER, [])
    assert after.rating == 1500 and after.volatility == 0.06
    assert after.rd == pytest.approx(math.sqrt(200**2 + (SCALE * 0.06) ** 2))


def test_equal_players_move_by_the_same_amount_in_opposite_directions() -> None:
    rules = RatingRules()
    a = b = Side(Rating(1500, 200, 0.06), None)
    win_a, loss_b = rate_pair(rules, a, b, 1.0, T0)
    assert win_a.rating - 1500 == pytest.approx(1500 - loss_b.rating)
    assert win_a.rd == loss_b.rd and win_a.volatility == loss_b.volatility
    draw_a, draw_b = rate_pair(rules, a, b, 0.5, T0)
    assert draw_a == draw_b == Rating(1500, draw_a.rd, draw_a.volatility)


ratings = st.builds(
    Rating,
    st.floats(600, 2800),
    st.floats(45, 350),
    st.floats(0.03, 0.1),
)
scores = st.sampled_from([0.0, 0.5, 1.0])


@settings(max_examples=200, deadline=None)
@given(ratings, ratings, scores)
def test_swapping_the_players_swaps_the_answer(a: Rating, b: Rating, score: float) -> None:
    rules = RatingRules()
    new_a, new_b = rate_pair(rules, Side(a, None), Side(b, None), score, T0)
    swapped_b, swapped_a = rate_pair(rules, Side(b, None), Side(a, None), 1.0 - score, T0)
    assert (new_a, new_b) == (swapped_a, swapped_b)


@settings(max_examples=200, deadline=None)
@given(ratings, ratings, scores, st.floats(-900, 900))
def test_shifting_every_rating_by_a_constant_shifts_the_answer(
    a: Rating, b: Rating, score: float, shift: float
) -> None:
    rules = RatingRules()
    new_a, new_b = rate_pair(rules, Side(a, None), Side(b, None), score, T0)
    moved = [Side(Rating(r.rating + shift, r.rd, r.volatility), None) for r in (a, b)]
    up_a, up_b = rate_pair(rules, moved[0], moved[1], score, T0)
    for new, up in ((new_a, up_a), (new_b, up_b)):
        assert up.rating - shift == pytest.approx(new.rating, abs=1e-6)
        assert up.rd == pytest.approx(new.rd, rel=1e-9)
        assert up.volatility == pytest.approx(new.volatility, rel=1e-9)


@settings(max_examples=300, deadline=None)
@given(ratings, ratings, scores)
def test_a_result_moves_the_rating_towards_it_and_keeps_the_bounds(
    a: Rating, b: Rating, score: float
) -> None:
    rules = RatingRules()
    new_a, new_b = rate_pair(rules, Side(a, None), Side(b, None), score, T0)
    expected = expected_score(a, b)
    if score > expected:
        assert new_a.rating > a.rating and new_b.rating < b.rating
    elif score < expected:
        assert new_a.rating < a.rating and new_b.rating > b.rating
    for new in (new_a, new_b):
        assert rules.rd_min <= new.rd <= rules.rd_max
        assert 0 < new.volatility < 0.2
        assert math.isfinite(new.rating)
    # A game between comparable players tells something: a wide deviation shrinks (a narrow one may widen
    # a little — the period's σ² outweighs one game below an RD of about 60, Glicko-2's equilibrium — and
    # so may any one after a game whose result was a foregone conclusion).
    if a.rd >= 150 and abs(a.rating - b.rating) < 400:
        assert new_a.rd < a.rd


@settings(max_examples=100, deadline=None)
@given(ratings, st.lists(st.tuples(ratings, scores), min_size=1, max_size=6), st.randoms())
def test_a_period_of_several_games_is_independent_of_their_order(
    me: Rating, games: list[tuple[Rating, float]], rng: object
) -> None:
    period = [Game(r, s) for r, s in games]
    shuffled = list(period)
    rng.shuffle(shuffled)  # type: ignore[attr-defined]
    assert update(me, period) == update(me, shuffled)


def test_the_deviation_grows_from_60_to_110_in_a_year_without_rated_matches() -> None:
    rules = RatingRules()
    r = Rating(1800, 60, 0.06)
    year = aged(rules, r, T0, T0 + timedelta(days=365))
    assert year.rd == pytest.approx(110, abs=0.5)
    assert year.rating == 1800 and year.volatility == 0.06
    assert aged(rules, r, T0, T0 + timedelta(days=36_500)).rd == rules.rd_max
    assert aged(rules, r, T0, T0 - timedelta(days=3)).rd == 60, "time running backwards counts as none"
    assert idle(r, 0).rd == 60


def test_the_deviation_is_kept_within_its_bounds() -> None:
    rules = RatingRules()
    one, _ = rate_pair(rules, Side(Rating(1500, 46, 0.06), T0), Side(Rating(1500, 46, 0.06), T0), 1.0, T0)
    assert 45 < one.rd < 60
    floor = RatingRules(rd_min=80.0, rd_max=120.0)
    low, _ = rate_pair(floor, Side(Rating(1500, 46, 0.06), T0), Side(Rating(1500, 46, 0.06), T0), 1.0, T0)
    assert low.rd == 80.0
    high, _ = rate_pair(floor, Side(floor.start, None), Side(Rating(1500, 46, 0.06), T0), 1.0, T0)
    from_ceiling, _ = rate_pair(
        floor, Side(Rating(1500, 120, 0.06), None), Side(Rating(1500, 46, 0.06), T0), 1.0, T0
    )
    assert high == from_ceiling, "the start's RD 350 is clamped to the ceiling before the update"
    assert rules.clamp(Rating(1500, 400, 0.06)).rd == rules.rd_max
    assert rules.clamp(Rating(1500, 10, 0.06)).rd == rules.rd_min


def test_a_rating_above_rd_110_is_provisional() -> None:
    rules = RatingRules()
    assert rules.provisional(110.01) and rules.provisional(350)
    assert not rules.provisional(110) and not rules.provisional(45)
    # A new member's rating stays provisional for a while; an established one turns provisional after
    # a long pause.
    new = Side(rules.start, None)
    r = rules.start
    assert rules.provisional(rate_pair(rules, new, Side(Rating(1500, 60, 0.06), T0), 1.0, T0)[0].rd)
    for _ in range(3):
        r, _ = rate_pair(rules, Side(r, T0), Side(Rating(1500, 60, 0.06), T0), 0.5, T0)
    assert rules.provisional(r.rd), "three draws do not establish a rating"
    for _ in range(12):
        r, _ = rate_pair(rules, Side(r, T0), Side(Rating(1500, 60, 0.06), T0), 0.5, T0)
    assert not rules.provisional(r.rd), "fifteen do"
    established = Rating(1600, 90, 0.06)
    assert not rules.provisional(aged(rules, established, T0, T0 + timedelta(days=30)).rd)
    assert rules.provisional(aged(rules, established, T0, T0 + timedelta(days=200)).rd)
