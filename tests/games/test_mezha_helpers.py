"""Helpers for the Межа tests: build positions conveniently (imported as ``test_mezha_helpers``).

``position(...)`` fills in everything a scenario does not care about: a seat's cards not named in its hand,
fields or discards go to its deck (``tops`` first, then table order) or, with ``rest="discard"``, to its
discard pile; placement numbers follow the order the units are listed in; ``thaw_used`` follows the units
put onto each field this season.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from duelclub.games.contract import JSON
from duelclub.games.mezha import GAME
from duelclub.games.mezha.actions import NEXT_SEASON, PASS, RESIGN, Play
from duelclub.games.mezha.cards import CARD_INDEX, CARDS, HAS_SHIELD, HIDDEN, HOUSE_KINDS, HOUSES
from duelclub.games.mezha.state import State

UnitSpec = str | dict[str, Any]


def unit(card: str, **over: Any) -> dict[str, Any]:
    """A unit spec: ``card`` plus overrides (strength, shield, face_down, season, placement, …)."""
    return {"card": card, **over}


def _cards_of(house: str) -> Counter[str]:
    return Counter({CARDS[k].id: CARDS[k].copies for k in HOUSE_KINDS[HOUSES.index(house)]})


def _halves(
    fields: dict[tuple[int, int], list[UnitSpec]], season: int
) -> tuple[list[list[list[JSON]]], int, list[list[bool]]]:
    """The units of every half (placements in listing order), the last placement and thaw usage."""
    halves: list[list[list[JSON]]] = [[[], []], [[], []], [[], []]]
    placement = 0
    auto_thaw = [[False] * 3, [False] * 3]
    for (f, seat), specs in fields.items():
        for spec in specs:
            raw = {"card": spec} if isinstance(spec, str) else dict(spec)
            k = CARD_INDEX[raw["card"]]
            placement = max(placement + 1, raw.get("placement", 0))
            u = {
                "card": raw["card"],
                "strength": CARDS[k].strength,
                "shield": HAS_SHIELD[k],
                "placement": placement,
                "face_down": HIDDEN[k],
                "season": season,
                "thaw": False,
                "rosa": 0,
                "opps": 0,
            }
            u.update(raw)
            if u["season"] == season:
                auto_thaw[seat][f] = True
            halves[f][seat].append(u)
    return halves, placement, auto_thaw


def _piles(
    houses: tuple[str, str],
    hands: tuple[list[str], list[str]],
    tops: tuple[list[str], list[str]],
    discards: tuple[list[str], list[str]],
    rest: tuple[str, str],
    halves: list[list[list[JSON]]],
) -> tuple[list[list[str]], list[list[str]]]:
    """Decks and discards: each seat's unused cards go under ``tops`` or onto the discard (``rest``)."""
    decks: list[list[str]] = [[], []]
    disc = [list(discards[0]), list(discards[1])]
    for seat in (0, 1):
        left = _cards_of(houses[seat])
        used = Counter(hands[seat]) + Counter(disc[seat]) + Counter(tops[seat])
        used += Counter(u["card"] for f in range(3) for u in halves[f][seat])
        left.subtract(used)
        assert all(n >= 0 for n in left.values()), f"seat {seat} uses more copies than its deck has"
        leftovers = [c for c, n in left.items() for _ in range(n)]
        decks[seat] = list(tops[seat]) + (leftovers if rest[seat] == "deck" else [])
        if rest[seat] != "deck":
            disc[seat] += leftovers
    return decks, disc


def position(
    *,
    houses: tuple[str, str] = ("olkha", "gorn"),
    omens: tuple[str, ...] = ("fair", "drought", "thaw", "storm"),
    season: int = 1,
    phase: str = "season",
    starter: int | None = None,
    turn: int | None = -1,
    passed: tuple[bool, bool] = (False, False),
    auto_passed: tuple[bool, bool] = (False, False),
    hands: tuple[list[str], list[str]] = ([], []),
    tops: tuple[list[str], list[str]] = ([], []),
    discards: tuple[list[str], list[str]] = ([], []),
    rest: tuple[str, str] = ("deck", "deck"),
    fields: dict[tuple[int, int], list[UnitSpec]] | None = None,
    results: list[JSON] | None = None,
    outcome: JSON | None = None,
    thaw_used: list[list[bool]] | None = None,
) -> JSON:
    """A complete mezha position (docs/positions.md §mezha) for a test scenario.

    Results from :func:`won_result` get the omen and starter of their season (the omens list, the last
    season's winner); ``starter`` defaults to the one that follows the results, ``turn`` to the starter.
    """
    all_omens = list(omens) + [o for o in ("thaw", "drought", "fair", "storm") if o not in omens]
    chained, next_starter = _chain(results or [], all_omens)
    if starter is None:
        starter = chained[-1]["starter"] if len(chained) == season else next_starter
    turn = starter if turn == -1 else turn
    halves, placement, auto_thaw = _halves(fields or {}, season)
    decks, disc = _piles(houses, hands, tops, discards, rest, halves)
    return {
        "game": "mezha",
        "version": 1,
        "stream": {"key": "00" * 32, "position": 42},
        "houses": list(houses),
        "omens": all_omens,
        "season": season,
        "phase": phase,
        "starter": starter,
        "turn": turn if phase == "season" else None,
        "passed": list(passed),
        "auto_passed": list(auto_passed),
        "thaw_used": thaw_used if thaw_used is not None else auto_thaw,
        "placements": placement,
        "hands": [sorted(h, key=CARD_INDEX.__getitem__) for h in hands],
        "decks": decks,
        "discards": disc,
        "fields": halves,
        "results": chained,
        "outcome": outcome,
    }


def _chain(results: list[JSON], omens: list[str]) -> tuple[list[JSON], int]:
    """Fill each result's missing omen and starter (§Between seasons); returns them and the next starter."""
    out, starter = [], 0
    for r in results:
        r = dict(r)
        if r["omen"] is None:
            r["omen"] = omens[r["season"] - 1]
        if r["starter"] is None:
            r["starter"] = starter
        out.append(r)
        starter = r["winner"] if r["winner"] is not None else 1 - r["starter"]
    return out, starter


def state(**kw: Any) -> State:
    """``GAME.from_position(position(**kw))``."""
    return GAME.from_position(position(**kw))


def play(s: State, seat: int, card: str, field: int) -> list[JSON]:
    return GAME.apply(s, seat, Play(card=card, field=field))


def pass_(s: State, seat: int) -> list[JSON]:
    return GAME.apply(s, seat, PASS)


def next_season(s: State, seat: int = 0) -> list[JSON]:
    return GAME.apply(s, seat, NEXT_SEASON)


def resign(s: State, seat: int) -> list[JSON]:
    return GAME.apply(s, seat, RESIGN)


def units(s: State, field: int, seat: int) -> list[tuple[str, int]]:
    """``(card id, strength)`` of a half, in placement order."""
    return [(CARDS[u.kind].id, u.strength) for u in s.halves[field][seat]]


def kinds(events: list[JSON]) -> list[str]:
    return [e["kind"] for e in events]


def of_kind(events: list[JSON], kind: str) -> list[JSON]:
    return [e for e in events if e["kind"] == kind]


def hand(s: State, seat: int) -> list[str]:
    return GAME.view(s, seat)["hand"]  # type: ignore[no-any-return]


def won_result(season: int, winner: int | None, starter: int | None = None, omen: str | None = None) -> JSON:
    """A past season's result record with ``winner`` taking every field (or none, if drawn); a None
    ``starter`` or ``omen`` is filled in by :func:`position` from the seasons before it."""
    fields = [winner] * 3
    totals = [[1, 0] if winner == 0 else [0, 1] if winner == 1 else [0, 0] for _ in range(3)]
    strength = [sum(t[0] for t in totals), sum(t[1] for t in totals)]
    return {
        "season": season,
        "omen": omen,
        "starter": starter,
        "fields": fields,
        "totals": totals,
        "strength": strength,
        "winner": winner,
    }


def test_helper_position_round_trips() -> None:
    pos = position(
        hands=(["sova", "rosa"], ["golem"]), fields={(1, 0): ["stary_dub"], (1, 1): ["shchitonosets"]}
    )
    assert GAME.to_position(GAME.from_position(pos)) == pos
