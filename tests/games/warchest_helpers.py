"""Scenario helpers for the Сундук войны tests: build a mid-game state by hand and play actions."""

from __future__ import annotations

from duelclub.games.warchest import draft, engine
from duelclub.games.warchest.actions import Action, WarchestOptions, act
from duelclub.games.warchest.board import HEX_ID
from duelclub.games.warchest.state import State, Unit
from duelclub.games.warchest.units import UNIT

W, R = 0, 1


def H(q: int, r: int) -> int:
    """Hex id of axial (q, r)."""
    return HEX_ID[(q, r)]


def make(
    wolf: list[str],
    raven: list[str],
    *,
    decrees: list[str] | None = None,
    hand: dict[str, int] | None = None,
    raven_hand: dict[str, int] | None = None,
) -> State:
    """A state in round 1 with the given drafts, empty bags, Wolf to play holding ``hand``.

    Raven holds ``raven_hand`` (default one Royal coin, so the round does not end after Wolf's play).
    """
    s = draft.new_state(bytes(32), WarchestOptions(expansions="both", draft="random"))
    s.sides[W].types, s.sides[R].types = list(wolf), list(raven)
    for p in s.sides:
        p.bag, p.supply, p.decoys = {}, {}, {}
        for t in p.types:
            p.supply[t] = UNIT[t].coins - 2
            if t in ("infiltrator", "skirmisher"):
                p.decoys[t] = 3
    if decrees is not None:
        s.decrees = list(decrees)
    s.sides[W].hand = dict(hand or {"royal": 1})
    s.sides[R].hand = dict(raven_hand or {"royal": 1})
    s.round, s.turn, s.initiative = 1, W, W
    return s


def put(s: State, h: int, side: int, type_: str, height: int = 1, poison: int = 0) -> int:
    s.uid += 1
    s.units[h] = Unit(side, type_, height, poison, s.uid)
    return h


def side_to_move(s: State) -> int:
    side = engine.to_move_side(s)
    assert side is not None
    return side


def legal(s: State) -> list[Action]:
    return engine.legal(s, side_to_move(s))


def is_legal(s: State, a: Action) -> bool:
    return a in legal(s)


def play(s: State, a: Action) -> list[dict[str, object]]:
    return engine.apply(s, side_to_move(s), a)


def kinds(s: State, kind: str) -> list[Action]:
    return [a for a in legal(s) if a.kind == kind]


__all__ = ["H", "R", "W", "act", "is_legal", "kinds", "legal", "make", "play", "put", "side_to_move"]
