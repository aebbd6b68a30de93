"""Lobby notifications on the bus (DESIGN.md §Real time): who must hear about a lobby change.

- ``lobby`` — the challenge table changed (published, accepted or cancelled): every lobby page re-reads
  ``GET /api/challenges``; the message is ``{"type": "challenges"}``.
- ``user:{id}`` — something for one member: ``{"type": "match", "id": match id, "why": "challenge" |
  "queue" | "rematch"}`` when a match of theirs starts (their challenge was accepted, the queue paired them).

Match pages hear about their match on ``match:{id}`` (``bus.match_channel``); presence changes are published
there as ``{"type": "presence"}`` and rematch offers as ``{"type": "rematch", "id": id}`` (every bus
message is typed in ``bus/messages.py``).
"""

from __future__ import annotations

from duelclub.bus.messages import ChallengesChanged, MatchStarted
from duelclub.play.port import Publisher

LOBBY_CHANNEL = "lobby"


def user_channel(user_id: int) -> str:
    """The channel of one member's lobby pages: ``user:{id}``."""
    return f"user:{user_id}"


async def challenges_changed(bus: Publisher) -> None:
    await bus.publish(LOBBY_CHANNEL, ChallengesChanged(type="challenges"))


async def match_started(bus: Publisher, user_ids: list[int | None], match_id: str, why: str) -> None:
    """Tell each member in ``user_ids`` that ``match_id`` has started for them."""
    for uid in user_ids:
        if uid is not None:
            await bus.publish(user_channel(uid), MatchStarted(type="match", id=match_id, why=why))
