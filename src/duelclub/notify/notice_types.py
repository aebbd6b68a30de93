"""What a turn notice is (issue 28 §3, §4): plain, typed data that the sweep (play/notices.py) builds and
every channel (notify/dispatch.py) reads — no session objects, so a channel can be tested on its own."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal

from duelclub.store.notices import EmailMode


@dataclass(frozen=True, slots=True)
class Member:
    """The member a notice is for, and what they chose: ``email`` is their confirmed address (None: no
    mail), ``lang`` the language of their notices."""

    user_id: int
    username: str
    email: str | None
    email_mode: EmailMode
    push: bool
    lang: str


@dataclass(frozen=True, slots=True)
class WaitingMatch:
    """A match waiting for the member's move: the game's slug, the opponent's name, since when it waits
    (the last action, or the start), and its page (``PUBLIC_URL/matches/{id}``)."""

    match_id: str
    game: str
    opponent: str
    since: datetime
    url: str


@dataclass(frozen=True, slots=True)
class TurnNotice:
    """``turn``: the member's move has waited (one per turn: ``seq`` is the turn's key); ``low_time``: a
    tenth of the correspondence clock is left (``deadline_at`` is when the clock plays for them)."""

    kind: Literal["turn", "low_time"]
    member: Member
    match: WaitingMatch
    seq: int
    deadline_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class DigestNotice:
    """The daily digest: every match waiting for the member's move on ``day`` (UTC)."""

    member: Member
    day: date
    matches: tuple[WaitingMatch, ...]


Notice = TurnNotice | DigestNotice
