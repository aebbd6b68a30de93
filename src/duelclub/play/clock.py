"""Move clocks (DESIGN.md §Real time — clocks are deadlines on the match row). Not built yet.

Where the clock goes when a game needs one (Mezha has none, rules/mezha.md D19, so ``clock`` is null):
- :func:`next_deadline` — the service stores its value in ``matches.deadline_at`` in the same transaction as
  every action (``store.matches.append_action``), so the deadline and the log never disagree.
- :func:`clock_payload` — the ``clock`` field of state payloads.
- A sweeper task (started next to the bot driver in ``MatchService.start``) would poll active matches whose
  ``deadline_at`` has passed and, for each seat in ``to_move``, apply ``game.timeout_action(state, seat)``
  through ``MatchService.apply_as(..., source="clock")`` — the same path as a bot move, so a timeout is an
  ordinary, replayable log entry and a race with the player's own move is settled by the (match_id, seq) key.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from duelclub.store.matches import MatchRecord


def next_deadline(record: MatchRecord, now: datetime) -> datetime | None:
    """The deadline after a move made at ``now``: None when the match has no move clock."""
    if record.move_seconds is None:
        return None
    return now + timedelta(seconds=record.move_seconds)


def clock_payload(record: MatchRecord) -> dict[str, Any] | None:
    """``{"move_seconds", "deadline_at"}`` for clocked matches, else None."""
    if record.move_seconds is None:
        return None
    deadline = record.deadline_at.isoformat() if record.deadline_at is not None else None
    return {"move_seconds": record.move_seconds, "deadline_at": deadline}
