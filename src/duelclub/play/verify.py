"""Verify a finished match from its ``/log`` export (rules/fairness.md §Reveal and verification).

Checks, in order: the commitment ``C`` against the server seed and match id, the match key ``K``, the deal
``new_match(K, options)`` against the logged ``initial`` full view (when the log has one), the replay of
every logged action (consecutive seqs, each legal), the result, the final full view, and the logged
``draws`` (when the log has them) against the draws the replay made (``games.fairness.recording``) — the
list the verify page recomputes from ``K`` in the browser. The first disagreement is reported.

A win by abandonment (result reason ``abandoned``, play/presence.py) is the platform's decision, not the
rules': for it the replay must simply not have ended by the rules.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from duelclub.games.contract import AnyGame, IllegalAction
from duelclub.games.fairness import Draw, commitment, match_key, recording


@dataclass(frozen=True)
class Verdict:
    """``ok`` and a one-line ``message`` (the first mismatch, or a summary); ``key`` is K in hex if known."""

    ok: bool
    message: str
    key: str | None = None


def _first_difference(a: Any, b: Any, path: str = "") -> str | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                return f"{path}/{k}"
            diff = _first_difference(a[k], b[k], f"{path}/{k}")
            if diff is not None:
                return diff
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path} (length {len(a)} vs {len(b)})"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            diff = _first_difference(x, y, f"{path}/{i}")
            if diff is not None:
                return diff
        return None
    return None if a == b else (path or "/")


def verify_log(log: dict[str, Any], get_game: Callable[[str], AnyGame]) -> Verdict:
    """Check a match log (the JSON of ``GET /api/matches/{id}/log``); never raises on bad input."""
    try:
        server_seed = bytes.fromhex(log["server_seed"])
        match_id, seeds = str(log["id"]), log["client_seeds"]
        if commitment(server_seed, match_id) != log["commitment"]:
            return Verdict(False, "commitment mismatch: the server seed and id do not hash to the commitment")
        key = match_key(server_seed, match_id, seeds["a"], seeds["b"])
        game = get_game(log["game"])
        with recording(key) as drawn:
            state = game.new_match(key, game.parse_options(log["options"]))
    except (KeyError, TypeError, ValueError, IllegalAction) as exc:
        return Verdict(False, f"malformed log: {exc!r}")
    verdict = _replay(log, game, state, key)  # the state's stream goes on recording into ``drawn``
    if verdict is not None:
        return verdict
    return _check_draws(log, drawn, key)


def _check_draws(log: dict[str, Any], drawn: list[Draw], key: bytes) -> Verdict:
    n = len(log.get("actions", []))
    logged = log.get("draws")
    if logged is None:
        return Verdict(True, f"OK: commitment, key and {n} actions replay to the logged result", key.hex())
    if log.get("initial") is None:
        drawn = []  # aborted before the deal: nothing was drawn
    for i, (want, got) in enumerate(zip(drawn, logged, strict=False), start=1):
        if not isinstance(got, dict) or (got.get("bound"), got.get("value")) != (want.bound, want.value):
            return Verdict(
                False, f"draw #{i} differs: the replay drew {want.value} of {want.bound}", key.hex()
            )
    if len(logged) != len(drawn):
        return Verdict(False, f"the log lists {len(logged)} draws, the replay made {len(drawn)}", key.hex())
    return Verdict(
        True,
        f"OK: commitment, key, {n} actions and {len(drawn)} draws replay to the logged result",
        key.hex(),
    )


def _replay(log: dict[str, Any], game: AnyGame, state: Any, key: bytes) -> Verdict | None:
    """The replay checks after the deal; None when they all pass."""
    if log.get("initial") is not None:
        diff = _first_difference(json.loads(json.dumps(game.full_view(state))), log["initial"])
        if diff is not None:
            return Verdict(False, f"initial deal differs at {diff}", key.hex())
    for expected_seq, entry in enumerate(log.get("actions", []), start=1):
        if entry.get("seq") != expected_seq:
            got = entry.get("seq")
            return Verdict(False, f"action seq {got} where {expected_seq} was expected", key.hex())
        try:
            game.apply(state, int(entry["seat"]), game.parse_action(entry["action"]))
        except (IllegalAction, KeyError, TypeError, ValueError) as exc:
            return Verdict(False, f"action #{expected_seq} does not replay: {exc}", key.hex())
    outcome = game.outcome(state)
    result = log.get("result") or {}
    if log.get("status") == "finished" and result.get("reason") == "abandoned":
        if outcome is not None:
            return Verdict(False, f"the replay ended by the rules ({outcome.to_json()}), not by abandonment")
    elif log.get("status") == "finished":
        if outcome is None:
            return Verdict(False, "the replay has not ended but the log says finished", key.hex())
        if outcome.to_json() != {"winner": result.get("winner"), "reason": result.get("reason")}:
            return Verdict(False, f"result mismatch: replay gives {outcome.to_json()}", key.hex())
    final = json.loads(json.dumps(game.full_view(state)))
    if log.get("final_view") is not None:
        diff = _first_difference(final, log["final_view"])
        if diff is not None:
            return Verdict(False, f"final view differs at {diff}", key.hex())
    return None
