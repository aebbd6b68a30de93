"""The worker's match cache keeps the live matches and only the most recently used ended ones
(play/cache.py: ENDED_KEPT, CACHE_SIZE; issue 26's arena benchmark grew a worker by ~25 MB a minute)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from duelclub.play import cache as cache_module
from duelclub.play.cache import MatchCache


def _match(i: int, status: str) -> Any:
    return SimpleNamespace(id=f"m{i}", status=status, lock=asyncio.Lock())


def test_only_the_most_recently_used_ended_matches_stay(monkeypatch: Any) -> None:
    monkeypatch.setattr(cache_module, "ENDED_KEPT", 3)
    cache = MatchCache(db=None, game=lambda slug: None)  # type: ignore[arg-type]
    ended = [_match(i, "finished") for i in range(5)]
    live = [_match(10 + i, "active") for i in range(5)]
    for m in ended + live:
        cache.remember(m)
    kept = list(cache._cache)
    assert [k for k in kept if k.startswith("m1")] == [m.id for m in live]  # active ones always stay
    assert [k for k in kept if k in {m.id for m in ended}] == ["m2", "m3", "m4"]  # the 3 most recent


async def test_an_ended_match_in_use_is_not_dropped(monkeypatch: Any) -> None:
    monkeypatch.setattr(cache_module, "ENDED_KEPT", 1)
    cache = MatchCache(db=None, game=lambda slug: None)  # type: ignore[arg-type]
    busy = _match(0, "aborted")
    await busy.lock.acquire()  # held by a writer
    cache.remember(busy)
    for i in range(1, 4):
        cache.remember(_match(i, "finished"))
    assert "m0" in cache._cache and "m3" in cache._cache and "m1" not in cache._cache
