"""The bot ladder (issue 17): the Bradley–Terry fit, the stored ratings file, «Подобрать по силе»."""

from __future__ import annotations

import json

import pytest

from duelclub.bots import ladder
from duelclub.bots.ladder import club_rating, fit, ladder_rating, level_for_rating, lobby_text
from duelclub.bots.levels import LEVEL_IDS
from duelclub.games.registry import all_games

LADDER = {
    "games": {
        "towers": {
            "levels": {
                "random": {"rating": 0.0, "low": 0.0, "high": 0.0},
                "novice": {"rating": 300.0, "low": 200.0, "high": 400.0},
                "light": {"rating": 700.0, "low": 600.0, "high": 800.0},
                "medium": {"rating": 1000.0, "low": 900.0, "high": 1100.0},
                "strong": {"rating": 1200.0, "low": 1100.0, "high": 1300.0},
                "master": {"rating": 1400.0, "low": 1300.0, "high": 1500.0},
            }
        }
    }
}


def test_the_fit_recovers_the_ratings_that_made_the_scores() -> None:
    """Expected scores of Elo ratings 0 / 200 / 500 (in whole matches out of 1000 per pair) give back those
    ratings (the weak prior moves them by less than 2 points), and more matches mean narrower errors."""
    true = {"r": 0.0, "a": 200.0, "b": 500.0}
    results: list[tuple[str, str, float]] = []
    for x, y in (("a", "r"), ("b", "r"), ("b", "a")):
        p = 1 / (1 + 10 ** ((true[y] - true[x]) / 400))
        wins = round(1000 * p)
        results += [(x, y, 1.0)] * wins + [(x, y, 0.0)] * (1000 - wins)
    got = fit(results, ["r", "a", "b"], "r")
    assert got["r"] == (0.0, 0.0)
    for name in ("a", "b"):
        assert got[name][0] == pytest.approx(true[name], abs=2.0)
        assert 5 < got[name][1] < 20
    few = fit(results[::10], ["r", "a", "b"], "r")
    assert few["a"][1] > 2.5 * got["a"][1]


def test_draws_count_half_and_a_clean_sweep_stays_finite() -> None:
    even = fit([("a", "r", 0.5)] * 20, ["r", "a"], "r")
    assert even["a"][0] == pytest.approx(0.0, abs=1e-6)
    sweep = fit([("a", "r", 1.0)] * 6, ["r", "a"], "r")
    assert 400 < sweep["a"][0] < 5000
    with pytest.raises(ValueError):
        fit([("a", "x", 1.0)], ["r", "a"], "r")


@pytest.mark.parametrize(
    ("rating", "level"),
    [  # club scale: the ladder + 500 (medium's 1000 sits at a new member's 1500)
        (None, "medium"),
        (0.0, "novice"),
        (999.0, "novice"),
        (1001.0, "light"),
        (1500.0, "medium"),
        (1600.0, "medium"),  # a tie goes to the weaker level
        (1601.0, "strong"),
        (1850.0, "master"),
        (9999.0, "master"),
    ],
)
def test_level_for_rating_picks_the_closest_level(rating: float | None, level: str) -> None:
    assert level_for_rating("towers", rating, LADDER) == level


def test_the_club_scale_puts_the_middle_level_at_a_new_members_rating() -> None:
    """Ladder ratings (random = 0) shift so that medium = 1500; the gaps between levels stay."""
    assert club_rating("towers", "medium", LADDER) == 1500.0
    assert club_rating("towers", "master", LADDER) == 1900.0
    assert club_rating("towers", "random", LADDER) == 500.0
    assert club_rating("towers", "hard", LADDER) == 1700.0  # the old id of strong
    assert club_rating("mezha", "medium", LADDER) is None
    no_middle = {"games": {"towers": {"levels": {"master": {"rating": 10.0}}}}}
    assert club_rating("towers", "master", no_middle) is None


def test_level_for_rating_without_ratings_is_the_middle_level() -> None:
    assert level_for_rating("mezha", 1500.0, LADDER) == "medium"
    assert level_for_rating("towers", 1500.0, {"games": {}}) == "medium"
    assert ladder_rating("towers", "hard", LADDER) == 1200.0  # the old id of strong


def test_the_stored_ladder_rates_every_level_of_every_game() -> None:
    data = json.loads(ladder.LADDER_PATH.read_text(encoding="utf-8"))
    assert data["scale"] == "elo" and data["anchor"] == "random"
    assert set(data["games"]) == set(all_games())
    for slug, entry in data["games"].items():
        # 0 right after a game's bots changed (every logged match is of other code): provisional, unrated
        assert isinstance(entry["matches_per_pair"], int) and entry["matches_per_pair"] >= 0
        assert entry["provisional"] == (entry["matches_per_pair"] < 100 or entry["pairs"] != "all")
        assert set(entry["levels"]) == {"random", *LEVEL_IDS}, slug
        assert entry["levels"]["random"] == {"rating": 0.0, "low": 0.0, "high": 0.0}
        for level in LEVEL_IDS:
            r = entry["levels"][level]
            assert r["low"] <= r["rating"] <= r["high"], (slug, level)
            assert ladder_rating(slug, level) == r["rating"]


def test_the_lobby_shows_only_settled_ratings() -> None:
    settled = {"games": {"towers": {**LADDER["games"]["towers"], "provisional": False}}}
    assert lobby_text("towers", "master", settled) == "≈ 1900"
    assert lobby_text("towers", "hard", settled) == "≈ 1700"
    assert lobby_text("towers", "master", LADDER) == ""  # no "provisional": False — not shown
    assert lobby_text("mezha", "master", settled) == ""
