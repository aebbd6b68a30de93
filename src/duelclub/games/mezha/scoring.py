"""Scoring a season, match end, and the start of the next season (rules/mezha.md §Scoring a season,
§Between seasons and match end, D10, D15, D17)."""

from __future__ import annotations

from typing import cast

from duelclub.games.contract import Outcome
from duelclub.games.mezha.cards import (
    CACHE_KINDS,
    CARDS,
    HAS_ROOTS,
    HOUSES,
    IDS,
    LIGHTNING_DAMAGE,
    OMEN_IDS,
    SEASON_DRAW,
    STORM,
)
from duelclub.games.mezha.effects import burn_event, damage, draw, strongest
from duelclub.games.mezha.events import ClearedUnit, Events, Omen, Reason
from duelclub.games.mezha.state import OVER, PAUSE, SEASON, State, refresh_room

_OMENS = cast(tuple[Omen, ...], OMEN_IDS)
"""``cards.OMEN_IDS`` typed as event omens."""

_SEASON_DRAWS = (0,) * SEASON_DRAW + (1,) * SEASON_DRAW
"""Who draws between seasons, in order: seat 0 first (D5)."""

_CACHE_HOUSE = HOUSES.index("olkha")
assert all(CARDS[k].house == "olkha" for k in CACHE_KINDS), "only Ольха has тайник cards"


def _reveal(state: State, events: Events) -> None:
    # §Scoring a season, step 1: every face-down unit is revealed. Only a тайник card is ever face down and
    # only Ольха's deck has them, so only Ольха's halves are searched.
    seat = 0 if state.houses[0] == _CACHE_HOUSE else 1
    for f, field in enumerate(state.halves):
        for u in field[seat]:
            if u.face_down:
                u.face_down = False
                events.append(
                    {
                        "kind": "reveal",
                        "seat": seat,
                        "field": f,
                        "placement": u.placement,
                        "card": IDS[u.kind],
                        "strength": u.strength,
                        "face_down": False,
                    }
                )


def _lightning(state: State, events: Events) -> None:
    # D15: Луг, Брод, Холм in order; the strongest unit over both halves (ties: placed later); 3 damage (D2)
    for f, field in enumerate(state.halves):
        target = strongest(field[0] + field[1])
        if target is None:
            continue
        seat = 0 if target in field[0] else 1
        absorbed, burned = damage(state, f, seat, target, LIGHTNING_DAMAGE)
        events.append(
            {
                "kind": "lightning",
                "seat": seat,
                "field": f,
                "placement": target.placement,
                "card": IDS[target.kind],
                "strength": target.strength,
                "face_down": target.face_down,
                "damage": LIGHTNING_DAMAGE,
                "shield_absorbed": absorbed,
                "burned": burned,
            }
        )
        if burned:
            events.append(burn_event(seat, f, target, "lightning"))


def _compare(a: int, b: int) -> int | None:
    return 0 if a > b else 1 if b > a else None


def score_season(state: State, events: Events) -> None:
    """Both players passed: reveal, lightning (Гроза), field winners, season winner; then match end or pause.

    Emits ``reveal``/``lightning``/``burn`` events, then ``season_scored {season, omen, starter, fields,
    totals, strength, winner, wins}`` (``fields[f]`` and ``winner`` are a seat or None; ``totals[f]`` is
    ``[seat0, seat1]``), then ``match_end {winner, reason}`` if the match is over.
    """
    _reveal(state, events)
    if state.omens[state.season - 1] == STORM:
        _lightning(state, events)
    totals = []  # each field's strength sums [seat 0, seat 1]
    for field in state.halves:
        a = b = 0
        for u in field[0]:
            a += u.strength
        for u in field[1]:
            b += u.strength
        totals.append([a, b])
    fields = [0 if a > b else 1 if b > a else None for a, b in totals]  # _compare of each field
    # §Scoring a season, step 4: more fields; equal fields → more total strength; equal too → drawn
    strength = [totals[0][0] + totals[1][0] + totals[2][0], totals[0][1] + totals[1][1] + totals[2][1]]
    winner = _compare(fields.count(0), fields.count(1))
    if winner is None:
        winner = _compare(strength[0], strength[1])
    if winner is not None:
        state.wins[winner] += 1
    result: dict[str, object] = {
        "season": state.season,
        "omen": OMEN_IDS[state.omens[state.season - 1]],
        "starter": state.starter,
        "fields": fields,
        "totals": totals,
        "strength": strength,
        "winner": winner,
    }
    state.results.append(result)
    events.append(
        {
            "kind": "season_scored",
            "season": state.season,
            "omen": _OMENS[state.omens[state.season - 1]],
            "starter": state.starter,
            "fields": fields[:],
            "totals": [totals[0][:], totals[1][:], totals[2][:]],
            "strength": strength[:],
            "winner": winner,
            "wins": state.wins[:],
        }
    )
    state.turn = -1
    outcome = match_result(state.wins, state.season)
    if outcome is None:
        state.phase = PAUSE  # D17: wait for «Следующий сезон»
        return
    state.phase = OVER
    state.outcome = outcome
    events.append({"kind": "match_end", "winner": outcome.winner, "reason": outcome.reason})


def match_result(wins: list[int], season: int) -> Outcome[Reason] | None:
    """§Between seasons and match end, D10: two wins end it; after season 3 more wins win, else a draw.
    The reason is an :data:`~duelclub.games.mezha.events.Reason`."""
    for seat in (0, 1):
        if wins[seat] >= 2:
            return Outcome(seat, "two_seasons")
    if season < 3:
        return None
    w = _compare(wins[0], wins[1])
    return Outcome(None, "draw") if w is None else Outcome(w, "more_seasons")


def next_starter(state: State) -> int:
    """§Between seasons: the last season's winner starts; after a drawn season, the one who did not start."""
    last = state.results[-1]
    winner = last["winner"]
    return winner if isinstance(winner, int) else 1 - state.starter


def _clear(state: State, events: Events) -> None:
    # D3, D4: units go to their owners' discards (fields in order, each half in placement order), except
    # корни units put onto the field in the season just scored, which stay with strength and shield.
    discarded: list[ClearedUnit] = []
    carried: list[ClearedUnit] = []
    season = state.season
    for f, field in enumerate(state.halves):
        for seat in (0, 1):
            half = field[seat]
            if not half:
                continue
            keep = []
            discard = state.discards[seat]
            for u in half:
                row: ClearedUnit = {"seat": seat, "field": f, "placement": u.placement, "card": IDS[u.kind]}
                if HAS_ROOTS[u.kind] and u.season == season:  # корни, put onto the field this season (D3)
                    keep.append(u)
                    row["strength"] = u.strength
                    carried.append(row)
                else:
                    discard.append(u.kind)
                    discarded.append(row)
            field[seat] = keep
    events.append({"kind": "clear", "discarded": discarded, "carried": carried})


def start_next_season(state: State, seat: int, events: Events) -> None:
    """D17 on ``next_season`` from ``seat``: clear, draw 2 each (seat 0 first, D5), reveal the omen, and
    set the starter. Automatic passes are applied by the caller (``rules.settle``).

    Emits ``next_season {seat}``, ``clear {discarded, carried}``, draws, ``season_start {season, omen,
    starter}``.
    """
    events.append({"kind": "next_season", "seat": seat})
    _clear(state, events)
    for s in _SEASON_DRAWS:
        draw(state, s, "season", events)
    starter = next_starter(state)
    state.season += 1
    state.phase = SEASON
    state.starter = starter
    state.turn = starter
    state.passed = [False, False]
    state.auto = [False, False]
    state.thaw_used = [[False, False, False], [False, False, False]]
    refresh_room(state)
    omen = _OMENS[state.omens[state.season - 1]]
    events.append({"kind": "season_start", "season": state.season, "omen": omen, "starter": starter})
