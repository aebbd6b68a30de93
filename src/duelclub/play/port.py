"""What the lobby modules may ask of the match service (issue 15 §3): :class:`LobbyPort`.

The lobby modules — invites (``lobby.py``), challenges, the queue (``matchmaking.py``), rematches, presence,
and the player's own ways out (``abort.py``), chat, ratings and replays — open, start and end matches and
read the club's tables. They see the service only through this protocol: no database object, bus, bot driver
or match cache of the service, and they do not import ``play/service.py`` (a test walks the imports).
``MatchService`` implements it; a test double may implement it too.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy.orm import Session

from duelclub.bus import Message
from duelclub.games.contract import Outcome, PlatformReason, Seat
from duelclub.play.live import JSON, AnyGame, LiveMatch
from duelclub.play.schemas import MatchSummary
from duelclub.ratings.rules import RatingRules
from duelclub.store.matches import Finish, MatchRecord


class Publisher(Protocol):
    """What publishes on the bus: ``await publish(channel, message)`` (a ``Bus``, a ``LobbyPort``)."""

    async def publish(self, channel: str, message: Message) -> None: ...


class LobbyPort(Publisher, Protocol):
    """The service as the lobby modules see it.

    Reads and clock: ``games`` (slug → game), :meth:`game` (PlayError 422 ``unknown_game``), ``now()``
    (aware UTC), ``rating_rules``, ``abandon_grace_seconds``, :meth:`session` (a database session, committed
    on a clean exit; blocking — use it inside ``in_thread``).
    Matches: :meth:`get_live` (cached), :meth:`fresh` (caught up with the database), :meth:`catch_up`
    (under the match's lock), :meth:`seated_active`, :meth:`opened` (a new match enters the cache and, when
    a bot is due, the bot driver), :meth:`changed` (after a committed change: every worker hears it),
    :meth:`end_if_at`, :meth:`end_unplayed`, :meth:`result_json`.
    Bots: ``bots_available`` (whether bot matches can be played here). Bus: :meth:`publish`.
    """

    @property
    def games(self) -> Mapping[str, AnyGame]: ...

    @property
    def rating_rules(self) -> RatingRules: ...

    @property
    def abandon_grace_seconds(self) -> float: ...

    @property
    def bots_available(self) -> bool: ...

    def now(self) -> datetime: ...

    def game(self, slug: str) -> AnyGame: ...

    def session(self) -> AbstractContextManager[Session]: ...

    async def get_live(self, match_id: str) -> LiveMatch: ...

    async def fresh(self, match_id: str, known: JSON | None = None) -> LiveMatch: ...

    async def catch_up(self, live: LiveMatch) -> None: ...

    def seated_active(
        self, match_id: str, user_id: int
    ) -> AbstractAsyncContextManager[tuple[LiveMatch, Seat]]: ...

    def opened(self, live: LiveMatch) -> None: ...

    async def changed(self, live: LiveMatch, *, since: int | None = None) -> None: ...

    def end_if_at(self, match: MatchRecord, finish: Finish, seq: int) -> bool: ...

    async def end_unplayed(
        self,
        match_id: str,
        reason: PlatformReason,
        *,
        from_status: tuple[str, ...],
        conflict: str,
        check: Any = None,
    ) -> MatchSummary: ...

    def result_json(self, live: LiveMatch, outcome: Outcome) -> JSON: ...
