"""The contract's entry points for Сундук войны, by seat (rules/warchest.md): ``game.py`` declares them.

The engine works by side (0 Wolf, 1 Raven); a seat is the player (0 opened the match), ``State.side_of``
maps one to the other. Resignation is the platform's, handled here (the engine never sees it).

>>> from duelclub.games.warchest.actions import WarchestOptions
>>> s = new_match(bytes(32), WarchestOptions(expansions="both"))
>>> legal_actions(s, next(iter(to_move(s))))[0].kind
'pick'
"""

from __future__ import annotations

from duelclub.games.contract import JSON, IllegalAction, Outcome, Seat
from duelclub.games.warchest import draft, engine
from duelclub.games.warchest.actions import Resign, WarchestAction, WarchestOptions
from duelclub.games.warchest.events import Events, ResignEvent
from duelclub.games.warchest.state import OVER, PLAY, State


def new_match(key: bytes, options: WarchestOptions) -> State:
    """Deterministic setup from the 32-byte match key (§5, fairness.md); the random deal starts round 1."""
    s = draft.new_state(key, options)
    if s.phase == PLAY:
        engine.start_round(s, [])
    return s


_NOBODY: frozenset[Seat] = frozenset()
_SEAT: tuple[frozenset[Seat], frozenset[Seat]] = (frozenset({0}), frozenset({1}))


def to_move(state: State) -> frozenset[Seat]:
    """The seat that must act (one at most); empty once the match is over."""
    side = engine.to_move_side(state)
    return _NOBODY if side is None else _SEAT[side ^ state.wolf_seat]


def legal_actions(state: State, seat: Seat) -> list[WarchestAction]:
    """Every legal action of ``seat`` now (resignation excluded)."""
    # engine.legal makes a new list, returned as is (list is invariant in its items; a cast() costs a call)
    return engine.legal(state, state.side_of(seat))  # type: ignore[return-value]


def apply(state: State, seat: Seat, action: WarchestAction) -> Events:
    """Apply ``action`` for ``seat`` and return its events (``events.py``); IllegalAction leaves ``state``
    untouched (``match_over``, ``not_your_turn``, ``illegal_action``)."""
    if isinstance(action, Resign):
        if state.outcome is not None:
            raise IllegalAction("match_over", "the match is over")
        state.outcome = Outcome(1 - seat, "resign")
        state.phase = OVER
        state.pending = None
        state.stack.clear()
        return [ResignEvent(kind="resign", seat=seat, side=state.side_of(seat))]
    if seat not in (0, 1):
        raise IllegalAction("not_your_turn", "no such seat")
    return engine.apply(state, state.side_of(seat), action)


def timeout_action(state: State, seat: Seat) -> WarchestAction:
    """Draft: the first available type; a pending decision: decline (Pass with the drawn coin for
    ``wp_play``) or its first option; a normal turn: Pass with the first hand coin (§16)."""
    return engine.timeout(state, state.side_of(seat))


def action_to_json(action: WarchestAction) -> JSON:
    """An action's JSON with its absent fields left out (as ``legal`` lists them)."""
    return action.model_dump(mode="json", exclude_none=True)
