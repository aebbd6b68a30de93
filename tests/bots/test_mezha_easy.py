"""The ``easy`` heuristic (bots/mezha/heuristics.py) in set-up positions: its rules of thumb."""

from __future__ import annotations

import random
from typing import Any

from duelclub.bots.mezha.heuristics import EasyBot
from duelclub.games.mezha import GAME
from duelclub.games.mezha.actions import Play
from duelclub.games.mezha.cards import CARDS, HOUSE_KINDS, HOUSES
from duelclub.games.mezha.state import State

Half = list[tuple[str, int]]


def scenario(
    *,
    hand: list[str],
    mine: list[Half],
    theirs: list[Half],
    opp_passed: bool = False,
    opp_hand: int = 5,
    omen: str = "fair",
) -> State:
    """Season 1, Горн (seat 0) on turn with ``hand``; fields as ``(card, strength)`` per half; every other
    card of each house in its deck (the opponent's first ``opp_hand`` ones in its hand)."""
    pos: dict[str, Any] = GAME.to_position(GAME.new_match(bytes(32), GAME.parse_options({"house": "gorn"})))
    placement = 0
    fields: list[list[list[dict[str, Any]]]] = [[[], []] for _ in range(3)]
    for seat, halves in ((0, mine), (1, theirs)):
        for f, half in enumerate(halves):
            for card, strength in half:
                placement += 1
                fields[f][seat].append(
                    {
                        "card": card,
                        "strength": strength,
                        "shield": card in ("shchitonosets", "golem"),
                        "placement": placement,
                        "face_down": False,
                        "season": 1,
                    }
                )
    rest = []
    for seat in (0, 1):
        pool = [
            CARDS[k].id
            for k in HOUSE_KINDS[HOUSES.index(pos["houses"][seat])]
            for _ in range(CARDS[k].copies)
        ]
        used = [u["card"] for field in fields for u in field[seat]] + (hand if seat == 0 else [])
        for card in used:
            pool.remove(card)
        rest.append(pool)
    pos.update(
        omens=[omen] + [o for o in ("thaw", "drought", "fair", "storm") if o != omen],
        starter=0,
        turn=0,
        passed=[False, opp_passed],
        placements=placement,
        hands=[hand, rest[1][:opp_hand]],
        decks=[rest[0], rest[1][opp_hand:]],
        fields=fields,
    )
    return GAME.from_position(pos)


def easy(state: State) -> Any:
    return EasyBot().choose(GAME, state, 0, random.Random(0))


def test_passes_once_the_opponent_passed_and_the_season_is_won() -> None:
    state = scenario(
        hand=["kuznets", "golem"],
        mine=[[("kuznets", 5)], [("liteyshchitsa", 4)], []],
        theirs=[[("bortnik", 4)], [("seyanets", 3)], [("pen_velikan", 8)]],
        opp_passed=True,
    )
    assert easy(state).kind == "pass"


def test_wins_a_passed_opponent_with_the_cheapest_card_that_does() -> None:
    state = scenario(
        hand=["golem", "kuznets"],
        mine=[[], [("kuznets", 5)], []],
        theirs=[[("otshelnik", 3)], [], [("pen_velikan", 8), ("bortnik", 4)]],
        opp_passed=True,
    )
    assert easy(state) == Play(card="kuznets", field=0)


def test_shoots_where_the_shot_burns_a_unit_of_a_close_field() -> None:
    state = scenario(
        hand=["pushkar"],
        mine=[[("kuznets", 5)], [("liteyshchitsa", 4)], []],
        theirs=[[("seyanets", 3), ("otshelnik", 3)], [], [("bortnik", 4)]],
    )
    assert easy(state) == Play(card="pushkar", field=0)


def test_concedes_a_hopeless_first_season() -> None:
    state = scenario(
        hand=["podmasterye", "arbaletchik", "znamenosets"],
        mine=[[], [], []],
        theirs=[
            [("pen_velikan", 8), ("bortnik", 4)],
            [("stary_dub", 5), ("bortnik", 4)],
            [("khozyayka_roshchi", 6)],
        ],
        opp_hand=2,
    )
    assert easy(state).kind == "pass"


def test_does_not_pile_onto_a_field_it_already_wins_by_far() -> None:
    state = scenario(
        hand=["kuznets"],
        mine=[[("golem", 8), ("kuznets", 5), ("liteyshchitsa", 4)], [], []],
        theirs=[[("seyanets", 3)], [("bortnik", 4)], []],
    )
    action = easy(state)
    assert not (action.kind == "play" and action.field == 0)
