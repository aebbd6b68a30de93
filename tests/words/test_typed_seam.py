"""Issue 30 §2, the typed seam: each words module words its game's ``Event`` union and ``Reason`` literal.

mypy checks the ``match`` statements for exhaustiveness (``assert_never``); these tests check what it cannot:
the kinds ``event_kinds`` reads off each ``Event`` union (the run-time guard in front of each ``match``) are
the ones the game's adapter tells apart, a kind unknown to the game is answered None rather than reaching
``assert_never``, and the reasons built by ``reason_table`` are the game's ``Reason`` codes.
"""

from __future__ import annotations

import importlib
import typing

import pytest

from duelclub.games.registry import all_games
from duelclub.words import words_for
from duelclub.words.base import event_kinds

SLUGS = list(all_games())


def _event_module(slug: str) -> typing.Any:
    return importlib.import_module(f"duelclub.games.{slug}.events")


@pytest.mark.parametrize("slug", SLUGS)
def test_event_kinds_are_the_kinds_the_adapter_tells_apart(slug: str) -> None:
    events = _event_module(slug)
    schema = events.EVENT_ADAPTER.json_schema()
    mapping = schema["items"]["discriminator"]["mapping"]
    assert event_kinds(events.Event) == frozenset(mapping)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_kind_the_game_does_not_have_gets_no_line(slug: str) -> None:
    words = words_for(slug)
    assert words.event_lines([{"kind": "no_such_kind", "seat": 0, "side": 0}], 0) == [None]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_reason_of_the_rules_has_its_msgid(slug: str) -> None:
    game = all_games()[slug]
    reasons = words_for(slug).reasons
    assert set(reasons) == set(game.reason_codes)
    assert all(reasons.values())
