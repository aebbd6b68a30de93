"""Helpers for the Дві вежі tests: build positions conveniently (imported as ``test_towers_helpers``).

``state(...)`` fills in what a scenario does not name: counters default to the battlefield's start, hands
are completed to 6 with the lowest unused ids (normal deck) or with card 8 (infinite), and every other card
goes to the draw pile (``tops`` first, then ascending ids) unless it is named in ``discard``.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from duelclub.games.contract import JSON
from duelclub.games.towers import GAME
from duelclub.games.towers.actions import RESIGN, TIMEOUT, discard_action, play_action
from duelclub.games.towers.battlefields import BATTLEFIELD_INDEX, BATTLEFIELDS
from duelclub.games.towers.dsl import ATTRS
from duelclub.games.towers.state import State

KEY = "ab" * 32
FILLER = 8  # Звичайна стіна, cost 2 ore: a harmless card to complete infinite-deck hands


def counters(field: str = "archmage_citadel", **over: int) -> dict[str, int]:
    c = dict(zip(ATTRS, BATTLEFIELDS[BATTLEFIELD_INDEX[field]].start, strict=True))
    for k, v in over.items():
        assert k in c, k
        c[k] = v
    return c


def position(
    *,
    me: dict[str, int] | None = None,
    en: dict[str, int] | None = None,
    hands: tuple[list[int], list[int]] = ([], []),
    active: int = 0,
    field: str = "archmage_citadel",
    deck: str = "normal",
    phase: str = "main",
    turn: int = 5,
    tops: list[int] | None = None,
    discard: list[int] | None = None,
    timeouts: tuple[int, int] = (0, 0),
    again: bool = False,
    full_hands: bool = True,
) -> JSON:
    """A complete position; ``me`` are the active seat's counters, ``en`` the other's (overrides of the
    field's start). With ``full_hands`` each hand is completed to 6."""
    p = [counters(field, **(me or {})), counters(field, **(en or {}))]
    if active == 1:
        p.reverse()
    hs = [list(hands[0]), list(hands[1])]
    discard = list(discard or [])
    tops = list(tops or [])
    if deck == "normal":
        used = set(hs[0]) | set(hs[1]) | set(discard) | set(tops)
        free = [c for c in range(1, 103) if c not in used]
        if full_hands:
            for seat in (0, 1):
                want = 6
                while len(hs[seat]) < want:
                    hs[seat].append(free.pop(0))
        pile = tops + free
        pool = sorted(pile)
    else:
        if full_hands:
            for seat in (0, 1):
                want = 6
                hs[seat] += [FILLER] * (want - len(hs[seat]))
        pile = discard = pool = None  # type: ignore[assignment]
    return {
        "game": "towers",
        "version": 1,
        "stream": {"key": KEY, "position": 0},
        "battlefield": field,
        "deck": deck,
        "players": p,
        "hands": hs,
        "pile": pile,
        "discard": discard,
        "pool": pool,
        "active": active,
        "turn": turn,
        "phase": phase,
        "again": again,
        "timeouts": list(timeouts),
        "last": [[], []],
        "history": [],
        "outcome": None,
    }


def state(**kw: Any) -> State:
    return GAME.from_position(position(**kw))


def play(s: State, card: int, seat: int | None = None) -> list[JSON]:
    return GAME.apply(s, s.active if seat is None else seat, play_action(card))


def discard(s: State, card: int, seat: int | None = None) -> list[JSON]:
    return GAME.apply(s, s.active if seat is None else seat, discard_action(card))


def timeout(s: State) -> list[JSON]:
    return GAME.apply(s, s.active, TIMEOUT)


def resign(s: State, seat: int) -> list[JSON]:
    return GAME.apply(s, seat, RESIGN)


def kinds(events: list[JSON]) -> list[str]:
    return [e["kind"] for e in events]


def of_kind(events: list[JSON], kind: str) -> list[JSON]:
    return [e for e in events if e["kind"] == kind]


def pc(s: State, seat: int) -> dict[str, int]:
    """Seat's counters as a dict."""
    return dict(zip(ATTRS, s.p[seat], strict=True))


def mid_match_states(tag: str, battlefield: str) -> list[State]:
    """Six seeded matches (normal and infinite deck in turn), each played 0–39 random legal actions in;
    the ones still running. ``tag`` seeds the match keys (``f"{tag}{i}"``)."""
    out = []
    for i, deck in enumerate(("normal", "infinite") * 3):
        key = hashlib.sha256(f"{tag}{i}".encode()).digest()
        s = GAME.new_match(key, GAME.parse_options({"battlefield": battlefield, "deck": deck}))
        rng = random.Random(i)
        for _ in range(rng.randrange(0, 40)):
            if GAME.outcome(s) is not None:
                break
            GAME.apply(s, s.active, rng.choice(GAME.legal_actions(s, s.active)))
        if GAME.outcome(s) is None:
            out.append(s)
    return out


def assert_seeded_legal_pure(bot: Any, s: State) -> Any:
    """The bot's choice for the seat to act on ``s``: legal, ``s`` left as it was, the same again under the
    same seed, and a choice for the other seat refused (ValueError). Returns the action."""
    import pytest

    seat = s.active
    before = GAME.to_position(s)
    action = bot.choose(GAME, s, seat, random.Random(4))
    assert action in GAME.legal_actions(s, seat)
    assert GAME.to_position(s) == before
    assert bot.choose(GAME, s, seat, random.Random(4)) == action
    with pytest.raises(ValueError):
        bot.choose(GAME, s, 1 - seat, random.Random(4))
    return action


def assert_blind_to_hidden_cards(bot: Any, states: list[State]) -> None:
    """The bot's choice on each of ``states`` is the same on two determinizations of it for the seat to
    act (the opponent's hand and the pile redrawn, the seat's view unchanged): it reads only what its seat
    sees."""
    rng = random.Random(2)
    for s in states:
        seat = s.active
        want = bot.choose(GAME, s, seat, random.Random(8))
        for _ in range(2):
            d = GAME.determinize(s, seat, rng)
            assert d.hands[1 - seat] != s.hands[1 - seat] or d.pile != s.pile
            assert GAME.view(d, seat) == GAME.view(s, seat)
            assert bot.choose(GAME, d, seat, random.Random(8)) == want
