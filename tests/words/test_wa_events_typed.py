"""Сундук войны and Артания emit typed data events (issue 15 §1): every event of random legal playouts
validates through the game's ``EVENT_ADAPTER`` (as ``apply`` returns it and as each seat sees it), and the
game's words give each one a line in both languages."""

from __future__ import annotations

import random
import typing
from typing import Any

import pytest

from duelclub import i18n
from duelclub.games.artania import GAME as ARTANIA
from duelclub.games.artania.events import EVENT_ADAPTER as ARTANIA_EVENTS
from duelclub.games.artania.events import Reason as ArtaniaReason
from duelclub.games.warchest import GAME as WARCHEST
from duelclub.games.warchest.events import EVENT_ADAPTER as WARCHEST_EVENTS
from duelclub.games.warchest.events import Reason as WarchestReason
from duelclub.words import words_for

CASES = [
    (
        WARCHEST,
        WARCHEST_EVENTS,
        [{"expansions": e, "draft": d} for e in ("base", "both") for d in ("club", "eight", "random")],
    ),
    (ARTANIA, ARTANIA_EVENTS, [{"deck": d} for d in ("artania", "kuyavia", "random")]),
]
SILENT = {"cleanup"}  # kinds without a log line of their own


def _playout(
    game: Any, options: dict[str, Any], seed: int, limit: int
) -> tuple[Any, list[list[dict[str, Any]]]]:
    """The final state and each action's events of up to ``limit`` random legal actions (now and then a
    resignation)."""
    rng = random.Random(seed)
    state = game.new_match(rng.randbytes(32), game.parse_options(options))
    batches = []
    for _ in range(limit):
        movers = sorted(game.to_move(state))
        if not movers:
            break
        seat = movers[0]
        if rng.random() < 0.002:
            action = game.parse_action({"kind": "resign"})
        else:
            action = rng.choice(game.legal_actions(state, seat))
        batches.append(game.apply(state, seat, action))
    return state, batches


@pytest.mark.parametrize(("game", "adapter", "options"), [(g, a, o) for g, a, os in CASES for o in os])
def test_every_event_of_random_playouts_is_typed_and_worded(
    game: Any, adapter: Any, options: dict[str, Any]
) -> None:
    words = words_for(game.slug)
    kinds: set[str] = set()
    for seed in range(4):
        state, batches = _playout(game, options, seed, 600)
        for events in batches:
            assert adapter.validate_python(events) == events
            kinds.update(e["kind"] for e in events)
            for seat in (0, 1, None):
                seen = [x for e in events if (x := game.event_view(state, e, seat)) is not None]
                assert adapter.validate_python(seen) == seen
                for lang in ("ru", "uk"):
                    with i18n.use_lang(lang):
                        lines = words.event_lines(seen, seat)
                    for e, line in zip(seen, lines, strict=True):
                        assert (line is None) == (e["kind"] in SILENT), (e, line)
                        assert line is None or (line["text"] and "%(" not in line["text"]), line
    assert len(kinds) >= 8, kinds


def test_reason_codes_are_the_reason_literals_and_all_worded() -> None:

    assert WARCHEST.reason_codes == typing.get_args(WarchestReason) == ("control", "round_limit", "resign")
    assert (
        ARTANIA.reason_codes == typing.get_args(ArtaniaReason) == ("five_tokens", "deck_exhausted", "resign")
    )
    for game in (WARCHEST, ARTANIA):
        words = words_for(game.slug)
        assert set(words.reasons) == set(game.reason_codes)
        with i18n.use_lang("uk"):
            assert all(words.reason(c) != c for c in game.reason_codes)
