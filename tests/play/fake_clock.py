"""A settable clock for the match service (``MatchService(now=...)``): tests move time without sleeping."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class FakeClock:
    """``clock()`` → the current fake time; ``clock.advance(seconds)`` moves it forward."""

    def __init__(self, start: datetime | None = None) -> None:
        self.t = start or datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.t

    def advance(self, seconds: float) -> datetime:
        self.t += timedelta(seconds=seconds)
        return self.t

    def at(self, when: datetime) -> datetime:
        self.t = when
        return self.t
