"""Shared pieces of the engines' speed pins (``test_*_speed_pin.py``): what is hashed, how a probe is tried.

A pin hashes everything observable of seeded matches on the engine before an optimisation; these helpers
keep the hashed bytes identical across the pins that use them (key order included).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from duelclub.games.contract import Game, IllegalAction


def dump(x: Any) -> bytes:
    """One hashed record: JSON, keys in their own order (the order is pinned too), one line."""
    return json.dumps(x, ensure_ascii=False).encode() + b"\n"


def try_on_copy(game: Game[Any, Any, Any], s: Any, seat: Any, action: Any, before: Any) -> Any:
    """Apply ``action`` to a copy of ``s`` (whose position is ``before``): the error code, or the events and
    the position after; a rejected action must leave the copy's position unchanged."""
    c = game.copy(s)
    try:
        events = game.apply(c, seat, action)
    except IllegalAction as exc:
        assert game.to_position(c) == before, "a rejected action changed the state"
        return ["illegal", exc.code]
    return ["ok", list(events), game.to_position(c)]


def record_views(game: Game[Any, Any, Any], s: Any, h: Any, det_seed: int) -> None:
    """Hash every seat's view (spectator and full view included) and a determinized copy for each seat
    (its full view and position, from ``random.Random(det_seed + seat)``)."""
    for who in (0, 1, None):
        h.update(dump(["view", who, game.view(s, who)]))
    h.update(dump(["full", game.full_view(s)]))
    for seat in (0, 1):
        d = game.determinize(game.copy(s), seat, random.Random(det_seed + seat))
        h.update(dump(["det", seat, game.full_view(d), game.to_position(d)]))


def record_apply(game: Game[Any, Any, Any], s: Any, seat: int, action: Any, h: Any) -> None:
    """Apply ``action`` for ``seat``; hash its events and their event views (both seats, a spectator)."""
    events = game.apply(s, seat, action)
    h.update(dump(["apply", seat, game.action_to_json(action), list(events)]))
    for ev in events:
        for who in (0, 1, None):
            h.update(dump(["event_view", who, game.event_view(s, dict(ev), who)]))


def play_rejecting_probes(
    game: Game[Any, Any, Any],
    s: Any,
    rng: random.Random,
    probes: Callable[[Any, int, random.Random], list[Any]],
) -> int:
    """Play ``s`` to the end with ``rng``'s random legal actions. At every step, each probe of
    ``probes(s, seat, rng)`` for both seats that is not legal must raise IllegalAction and leave the position
    and views unchanged (a legal one is applied to a copy). Returns how many probes were rejected."""
    rejected = 0
    while game.outcome(s) is None:
        (seat,) = game.to_move(s)
        legal_json = {json.dumps(game.action_to_json(a), sort_keys=True) for a in game.legal_actions(s, seat)}
        for who in (0, 1):
            for p in probes(s, who, rng):
                is_legal = who == seat and json.dumps(game.action_to_json(p), sort_keys=True) in legal_json
                before = (game.to_position(s), game.view(s, who), game.full_view(s))
                if is_legal:
                    game.apply(game.copy(s), who, p)
                    continue
                try:
                    game.apply(s, who, p)
                except IllegalAction:
                    rejected += 1
                else:
                    raise AssertionError(f"an illegal probe was accepted: {game.action_to_json(p)}")
                assert (game.to_position(s), game.view(s, who), game.full_view(s)) == before
        legal = game.legal_actions(s, seat)
        game.apply(s, seat, legal[rng.randrange(len(legal))])
    return rejected


def record_moves(game: Game[Any, Any, Any], s: Any, h: Any) -> list[int]:
    """Hash who is to move and both seats' legal actions (JSON, in order); returns the seats to move."""
    movers = sorted(game.to_move(s))
    h.update(dump(["to_move", movers]))
    for seat in (0, 1):
        h.update(dump(["legal", seat, [game.action_to_json(a) for a in game.legal_actions(s, seat)]]))
    return movers


def record_probes(
    game: Game[Any, Any, Any],
    s: Any,
    h: Any,
    seat: int,
    pos: Any,
    probes: list[tuple[int, list[Any]]],
    bad_seats: tuple[Any, ...],
    bad_seat_action: Any,
) -> None:
    """Hash the timeout action of ``seat``, then each probe's result on a copy (``probes``: each seat with
    its actions), then ``bad_seat_action`` tried for each of ``bad_seats``."""
    h.update(dump(["timeout", game.action_to_json(game.timeout_action(s, seat))]))
    for who, actions in probes:
        for p in actions:
            h.update(dump(["probe", who, game.action_to_json(p), try_on_copy(game, s, who, p, pos)]))
    for bad_seat in bad_seats:
        h.update(dump(["bad_seat", try_on_copy(game, s, bad_seat, bad_seat_action, pos)]))


def random_step(game: Game[Any, Any, Any], s: Any, seat: int, rng: random.Random, h: Any) -> None:
    """Apply a random legal action of ``seat`` (half the time an equal one rebuilt from its JSON, not the
    engine's cached object) and hash it with :func:`record_apply`."""
    legal = game.legal_actions(s, seat)
    action = legal[rng.randrange(len(legal))]
    if rng.random() < 0.5:
        action = game.parse_action(game.action_to_json(action))
    record_apply(game, s, seat, action, h)


def play_pinned_match(
    game: Game[Any, Any, Any],
    key: bytes,
    options: dict[str, Any],
    i: int,
    h: Any,
    *,
    probes: Callable[[Any, int, random.Random], list[Any]],
    bad_seats: tuple[Any, ...],
    bad_seat_action: Any,
    over_probe: Any,
    resign: Any,
    full_every: int = 1,
    max_steps: int = 5000,
) -> int:
    """One pinned match (seed ``i``): at every step the position, every ``full_every``-th step (and at the
    end) the views and determinizations, the moves, the probes, then a random legal step; at the end the
    outcome and ``over_probe`` / ``resign`` tried for both seats. Returns the number of steps."""
    s = game.new_match(key, game.parse_options(options))
    rng = random.Random(i)
    steps = 0
    while True:
        pos = game.to_position(s)
        h.update(dump(["position", pos]))
        outcome = game.outcome(s)
        if steps % full_every == 0 or outcome is not None:
            record_views(game, s, h, i * 1000 + steps * 2)
        movers = record_moves(game, s, h)
        if outcome is not None:
            h.update(dump(["outcome", outcome.to_json()]))
            assert movers == []
            for seat in (0, 1):
                over = [try_on_copy(game, s, seat, over_probe, pos), try_on_copy(game, s, seat, resign, pos)]
                h.update(dump(["probe_over", seat, *over]))
            return steps
        (seat,) = movers
        tried = [(who, probes(s, who, rng)) for who in (0, 1)]
        record_probes(game, s, h, seat, pos, tried, bad_seats, bad_seat_action)
        random_step(game, s, seat, rng, h)
        steps += 1
        assert steps < max_steps
