"""Helpers for the Артания и Куявия tests: build positions conveniently (imported as ``artania_helpers``).

``state(...)`` fills in everything a scenario does not care about: a seat's cards not named in its hand,
slots, discards or ``tops`` go to its deck under ``tops`` in canonical order, or, with ``rest="discard"``,
to its discard pile (so a deck can be made short or empty). Slots are given per seat as three entries: a card
id, or ``"pending"`` / ``"empty"`` / ``"removed"``; by default every slot whose step has passed is
``"empty"`` and the others ``"pending"``.
"""

from __future__ import annotations

from typing import Any

from duelclub.games.artania import GAME
from duelclub.games.artania.actions import PASS, RESIGN, Chasy, Idol, Nektar, Place
from duelclub.games.artania.cards import IDS
from duelclub.games.artania.position import FILL_STEP
from duelclub.games.artania.state import F_OPENS, STEPS, State
from duelclub.games.contract import JSON

Row = list[str]


def _default_slots(step: str, first: int) -> list[Row]:
    idx = len(STEPS) if step == "over" else STEPS.index(step)
    rows: list[Row] = [[], []]
    for seat in (0, 1):
        role = 0 if seat == first else 1
        rows[seat] = ["pending" if FILL_STEP[role][k] >= idx else "empty" for k in range(3)]
    return rows


def position(
    *,
    hands: tuple[list[str], list[str]] = ([], []),
    step: str = "W0",
    first: int = 0,
    actor: int | None = None,
    passes: int = 0,
    slots: tuple[Row | None, Row | None] = (None, None),
    nektar: tuple[list[list[int]], list[list[int]]] | None = None,
    tops: tuple[list[str], list[str]] = ([], []),
    discards: tuple[list[str], list[str]] = ([], []),
    rest: tuple[str, str] = ("deck", "deck"),
    tokens: tuple[int, int] = (0, 0),
    known: tuple[list[str], list[str]] = ([], []),
    no_warrior: tuple[bool, bool] = (False, False),
    turn: int | None = None,
    sides: tuple[str, str] = ("artania", "kuyavia"),
) -> JSON:
    """A position dict (docs/positions/artania.md) for a scenario.

    ``turn`` defaults to the first turn after enough scored turns for ``tokens``; the scored turns are
    made up (:func:`past_results`): seat 0's wins, then seat 1's, then drawn turns.
    """
    if turn is None:
        turn = sum(tokens) + 1
    defaults = _default_slots(step, first)
    rows = [list(slots[s]) if slots[s] is not None else defaults[s] for s in (0, 1)]  # type: ignore[arg-type]
    decks: list[list[str]] = [[], []]
    disc = [list(discards[0]), list(discards[1])]
    if nektar is not None:
        for owner in (0, 1):
            if any(owner in o for row in nektar for o in row) and "nektar" not in disc[owner]:
                disc[owner].append("nektar")
    for seat in (0, 1):
        used = set(hands[seat]) | set(tops[seat]) | set(disc[seat]) | {c for c in rows[seat] if c in IDS}
        leftovers = [c for c in IDS if c not in used]
        decks[seat] = list(tops[seat]) + (leftovers if rest[seat] == "deck" else [])
        if rest[seat] == "discard":
            disc[seat] += leftovers
    window = step != "over" and STEPS.index(step) % 2 == 0
    if actor is None and window:
        actor = first if F_OPENS[STEPS.index(step)] else 1 - first
    return {
        "game": "artania",
        "version": 1,
        "stream": {"key": "00" * 32, "position": 0},
        "sides": list(sides),
        "turn": turn,
        "first": first,
        "step": step,
        "actor": actor if window else None,
        "passes": passes,
        "tokens": list(tokens),
        "hands": [list(hands[0]), list(hands[1])],
        "known": [list(known[0]), list(known[1])],
        "no_warrior": list(no_warrior),
        "decks": decks,
        "discards": disc,
        "slots": rows,
        "nektar": [[list(o) for o in row] for row in nektar] if nektar else [[[], [], []], [[], [], []]],
        "plays": [],
        "results": past_results(turn, first, tokens),
        "outcome": None,
    }


def past_results(turn: int, first: int, tokens: tuple[int, int]) -> list[JSON]:
    """Records of turns 1…turn−1 (every slot empty) whose winners add up to ``tokens``."""
    winners: list[int | None] = [0] * tokens[0] + [1] * tokens[1]
    assert len(winners) < turn, "each token needs a scored turn"
    winners += [None] * (turn - 1 - len(winners))
    empty = [
        {
            "slot": k,
            "state": "empty",
            "card": None,
            "base": 0,
            "bonus": 0,
            "nektar": 0,
            "nektar_by": [],
            "total": 0,
        }
        for k in (1, 2, 3)
    ]
    out, count = [], [0, 0]
    for t, w in enumerate(winners, start=1):
        if w is not None:
            count[w] += 1
        out.append(
            {
                "turn": t,
                "first": first ^ ((turn - t) % 2),
                "slots": [[dict(x) for x in empty], [dict(x) for x in empty]],
                "totals": [0, 0],
                "tiebreak": [],
                "winner": w,
                "tokens": count[:],
            }
        )
    return out


def state(**kw: Any) -> State:
    """``GAME.from_position(position(**kw))``."""
    return GAME.from_position(position(**kw))


def kinds(events: list[JSON]) -> list[str]:
    return [e["kind"] for e in events]


def of_kind(events: list[JSON], kind: str) -> list[JSON]:
    return [e for e in events if e["kind"] == kind]


def place(s: State, seat: int, *cards: str) -> list[JSON]:
    return GAME.apply(s, seat, Place(cards=cards))


def pass_(s: State, seat: int) -> list[JSON]:
    return GAME.apply(s, seat, PASS)


def nektar(s: State, seat: int, target_seat: int, slot: int) -> list[JSON]:
    return GAME.apply(s, seat, Nektar(seat=target_seat, slot=slot))


def idol(s: State, seat: int, slot: int) -> list[JSON]:
    return GAME.apply(s, seat, Idol(slot=slot))


def chasy(s: State, seat: int, discard: str) -> list[JSON]:
    return GAME.apply(s, seat, Chasy(discard=discard))


def resign(s: State, seat: int) -> list[JSON]:
    return GAME.apply(s, seat, RESIGN)


def hand(s: State, seat: int) -> list[str]:
    hand_ids: list[str] = GAME.full_view(s)["hands"][seat]
    return hand_ids


def close_window(s: State) -> list[JSON]:
    """Both players pass (the window's actor first)."""
    events = pass_(s, s.actor)
    return events + pass_(s, s.actor)


def field_cards(s: State, seat: int) -> list[str | None]:
    return [slot["card"] for slot in GAME.view(s, None)["field"][seat]]
