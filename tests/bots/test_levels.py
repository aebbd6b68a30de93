"""The ladder of levels (issue 17): every game offers the five levels, the old ids still work, levels are
data, and every level decides only from what its seat may know (the same choice, for a fixed rng, on two
states that differ only in what the seat cannot see)."""

from __future__ import annotations

import importlib
import random
from functools import cache
from typing import Any

import pytest

from duelclub.bots.base import Bot
from duelclub.bots.levels import ALIASES, LEVEL_IDS, BlunderBot, canonical, scaled
from duelclub.bots.registry import bot_levels, make_bot
from duelclub.bots.towers.heuristics import EasyBot
from duelclub.games.registry import all_games

GAMES = all_games()
SLUGS = sorted(GAMES)


def _module(slug: str) -> Any:
    return importlib.import_module(f"duelclub.bots.{slug}")


def _mezha_canonical(state: Any, seat: int) -> Any:
    """Межа's determinize shuffles the seat's own deck and the later omens from their real order: sort them
    (both hidden from the seat) so two worlds with the same view start the same."""
    g = GAMES["mezha"]
    pos = g.to_position(state)
    pos["decks"][seat] = sorted(pos["decks"][seat])
    pos["omens"] = pos["omens"][: state.season] + sorted(pos["omens"][state.season :])
    return g.from_position(pos)


def _twins(slug: str, state: Any, seat: int, i: int) -> tuple[Any, Any]:
    """The real state and another world the seat cannot tell from it (a determinization)."""
    g = GAMES[slug]
    other = g.determinize(state, seat, random.Random(1000 + i))
    if slug == "mezha":
        return _mezha_canonical(state, seat), _mezha_canonical(other, seat)
    return state, other


@cache
def _states(slug: str, n: int) -> list[tuple[Any, int]]:
    """States met in one match of two ``light`` bots with some random moves, each with a seat to move."""
    g = GAMES[slug]
    rng = random.Random(42)
    s = g.new_match(rng.randbytes(32), g.parse_options({}))
    light = make_bot(slug, "light")
    out: list[tuple[Any, int]] = []
    while g.outcome(s) is None:
        seats = g.to_move(s)
        seat = min(seats)
        legal = g.legal_actions(s, seat)
        if len(seats) == 1 and len(legal) > 1:
            out.append((g.copy(s), seat))
        if rng.random() < 0.3:
            g.apply(s, seat, rng.choice(legal))
        else:
            g.apply(s, seat, light.choose(g, g.determinize(s, seat, rng), seat, rng))
    return out[5 :: max(1, len(out) // n)][:n]


def _small(params: dict[str, Any]) -> dict[str, Any]:
    """``params`` with a twentieth of the playout counts of a wide rollout level (``scaled`` leaves them)."""
    return {k: max(1, v // 20) if k in ("playouts", "max_steps") else v for k, v in params.items()}


@pytest.mark.parametrize("slug", SLUGS)
def test_every_game_offers_the_five_levels_and_the_old_ids(slug: str) -> None:
    assert GAMES[slug].bot_levels == LEVEL_IDS
    assert set(bot_levels(slug)) == {"random", *LEVEL_IDS}
    params = _module(slug).LEVEL_PARAMS
    assert list(params) == list(LEVEL_IDS)
    for level in LEVEL_IDS:
        bot = make_bot(slug, level)
        assert isinstance(bot, Bot) and bot.level == level
    for old, new in ALIASES.items():
        assert make_bot(slug, old).level == new
        assert type(make_bot(slug, old)) is type(make_bot(slug, new))
    with pytest.raises(KeyError):
        make_bot(slug, "grandmaster")


@pytest.mark.parametrize("slug", SLUGS)
def test_levels_are_data_with_growing_search_work(slug: str) -> None:
    """Levels differ by parameters: the heuristic ones first, by falling blunder rates (novice blunders
    most; issue 27 re-spaced Артания's with two rates and Дві вежі's with four), then the searching ones (at
    least the top level) by strictly growing work caps, every budget within the 1.5 s per decision."""
    params = _module(slug).LEVEL_PARAMS
    kinds = [p["kind"] == "heuristic" for p in params.values()]
    assert kinds == sorted(kinds, reverse=True) and kinds[0] and not kinds[-1]
    blunders = [p.get("blunder", 0.0) for p in params.values() if p["kind"] == "heuristic"]
    assert blunders == sorted(blunders, reverse=True) and len(set(blunders)) == len(blunders)
    assert all(0 <= b < 1 for b in blunders) and blunders[0] > 0
    searching = [p for p in params.values() if p["kind"] != "heuristic"]
    works = [next(p[k] for k in ("iterations", "samples", "rounds", "playouts") if k in p) for p in searching]
    assert works == sorted(works) and len(set(works)) == len(works) >= 1
    # ``think`` is the wall-clock ceiling: within the 1.5 s median, or, for a level with a work cap
    # per decision (Артания's ``max_steps``: its median is measured in benchmarks/), within the 3 s maximum
    assert all(0 < p["think"] <= (3.0 if "max_steps" in p else 1.5) for p in searching)


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("level", LEVEL_IDS)
def test_every_level_sees_only_its_seats_view(slug: str, level: str) -> None:
    g = GAMES[slug]
    mod = _module(slug)
    params = _small(scaled(mod.LEVEL_PARAMS[level], 0.05))
    differed = 0
    for i, (state, seat) in enumerate(_states(slug, 4)):
        real, other = _twins(slug, state, seat, i)
        assert g.view(real, seat) == g.view(other, seat)
        differed += g.to_position(real) != g.to_position(other)
        bot = mod.build(level, params, timed=False)
        mine = bot.choose(g, real, seat, random.Random(i))
        assert mine == bot.choose(g, other, seat, random.Random(i))
        assert mine in g.legal_actions(state, seat)
    assert differed >= 2


def test_blunder_bot_mixes_random_moves_into_its_inner_bot() -> None:
    g = GAMES["towers"]
    s = g.new_match(bytes(32), g.parse_options({}))
    seat = min(g.to_move(s))
    inner = EasyBot("light")  # the greedy heuristic (the light level itself blunders now)
    legal = g.legal_actions(s, seat)
    want = inner.choose(g, s, seat, random.Random(0))
    never, always = BlunderBot("x", inner, 0.0), BlunderBot("x", inner, 1.0)
    assert all(never.choose(g, s, seat, random.Random(i)) == want for i in range(20))
    picks = {g.action_to_json(always.choose(g, s, seat, random.Random(i)))["card"] for i in range(40)}
    assert len(picks) > 1
    assert all(always.choose(g, s, seat, random.Random(i)) in legal for i in range(10))


def test_canonical_and_scaled() -> None:
    assert canonical("easy") == "light" and canonical("hard") == "strong" and canonical("medium") == "medium"
    assert scaled({"kind": "x", "rounds": 10, "think": 1.0}, 0.01) == {"kind": "x", "rounds": 1, "think": 1.0}
