"""Межа engine speed: random playouts per second through the public ``Game`` methods.

Run: ``.venv/bin/python benchmarks/mezha_engine.py [seconds-per-figure]`` — prints one line per figure:

- ``playout``: copy a fresh match state, then random legal actions (``legal_actions`` + ``apply``) to the end;
- ``determinize+playout``: what one ISMCTS simulation does (determinize for a seat, then a random playout);
- ``copy``, ``legal_actions``, ``copy+legal+apply``: single operations on typical mid-season states.

Rates are per second of CPU time of this process (steadier than wall time on a busy machine).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from duelclub.games.mezha import GAME
from duelclub.games.mezha.state import State


def random_playout(s: State, rng: random.Random) -> int:
    """Play random legal actions (the lower seat presses next_season) to the end; returns the steps."""
    steps = 0
    to_move, legal, apply = GAME.to_move, GAME.legal_actions, GAME.apply
    while s.outcome is None:
        seat = min(to_move(s))
        acts = legal(s, seat)
        apply(s, seat, acts[rng.randrange(len(acts))])
        steps += 1
    return steps


def rate(fn: Callable[[], object], seconds: float) -> tuple[float, int]:
    n, start = 0, time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        for _ in range(20):
            fn()
        n += 20
    return n / elapsed, n


def _mid_season_states(rng: random.Random, count: int) -> list[State]:
    out = []
    for i in range(count):
        s = GAME.new_match(rng.randbytes(32), GAME.parse_options({"house": ("olkha", "gorn")[i % 2]}))
        for _ in range(rng.randrange(4, 12)):
            if s.outcome is not None:
                break
            seat = min(GAME.to_move(s))
            acts = GAME.legal_actions(s, seat)
            GAME.apply(s, seat, rng.choice(acts))
        if s.outcome is None:
            out.append(s)
    return out


def main(seconds: float) -> None:
    rng = random.Random(2024)
    roots = [
        GAME.new_match(rng.randbytes(32), GAME.parse_options({"house": h})) for h in ("olkha", "gorn") * 8
    ]
    mids = _mid_season_states(rng, 64)
    steps: list[int] = []

    def playout() -> None:
        steps.append(random_playout(GAME.copy(roots[len(steps) % len(roots)]), rng))

    def ismcts_sim() -> None:
        s = mids[rng.randrange(len(mids))]
        random_playout(GAME.determinize(s, min(GAME.to_move(s)), rng), rng)

    def copy() -> None:
        GAME.copy(mids[rng.randrange(len(mids))])

    def legal() -> None:
        s = mids[rng.randrange(len(mids))]
        GAME.legal_actions(s, min(GAME.to_move(s)))

    def apply_one() -> None:
        s = GAME.copy(mids[rng.randrange(len(mids))])
        seat = min(GAME.to_move(s))
        acts = GAME.legal_actions(s, seat)
        GAME.apply(s, seat, acts[rng.randrange(len(acts))])

    per_s, n = rate(playout, seconds)
    print(
        f"playout:              {per_s:10.0f} /s  ({n} playouts, {sum(steps) / len(steps):.1f} actions each)"
    )
    for name, fn in (
        ("determinize+playout", ismcts_sim),
        ("copy", copy),
        ("legal_actions", legal),
        ("copy+legal+apply", apply_one),
    ):
        per_s, n = rate(fn, seconds)
        print(f"{name + ':':21} {per_s:10.0f} /s  ({n} runs)")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)
