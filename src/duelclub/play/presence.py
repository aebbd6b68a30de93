"""Connection status of seated players, and the win by abandonment (issue 6 §5).

Every worker counts its own match sockets per (match, seat) (:class:`PresenceTracker`): the first socket of
a seat marks it seen, a heartbeat every :data:`HEARTBEAT_SECONDS` keeps it seen (one transaction per worker
per beat for all its seats), and the last one to close
marks when it left (``match_presence``, store/lobby.py), so every worker answers the same. A seat is online
when it was seen within :data:`OFFLINE_AFTER_SECONDS` and has not left since; away since when it left (or
was last seen; or the match started, if it never connected). Each change is published on ``match:{id}`` as
``{"type": "presence"}`` so both players see it at once.

In a match without a move clock, a player whose opponent has been away for the grace period
(``ABANDON_GRACE_SECONDS``, default 60 s) may claim the win (:func:`claim_win`): the server checks it
again, and the match ends ``finished`` with result reason ``abandoned`` — in the same transaction that checks
no move was stored meanwhile, and that rates it when it is rated (issue 14). Clocked matches need no claim:
the clock plays for the absent player.
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import datetime, timedelta

from duelclub.aio import BackgroundLoop
from duelclub.bus import match_channel
from duelclub.bus.messages import PresenceChanged
from duelclub.games.contract import Outcome, PlatformReason, Seat
from duelclub.play import endings
from duelclub.play.errors import PlayError
from duelclub.play.live import JSON, LiveMatch
from duelclub.play.port import LobbyPort
from duelclub.play.schemas import Presence, SeatPresence
from duelclub.play.threads import in_thread
from duelclub.store import lobby as prepo
from duelclub.store.health import is_outage
from duelclub.store.lobby import PresenceRecord
from duelclub.store.matches import ACTIVE, FINISHED, Finish

log = logging.getLogger(__name__)
HEARTBEAT_SECONDS = 10.0
OFFLINE_AFTER_SECONDS = 25.0
ABANDONED: PlatformReason = "abandoned"


class PresenceTracker:
    """This worker's sockets per (match, seat) and their heartbeat task."""

    def __init__(self, service: LobbyPort, *, heartbeat: float = HEARTBEAT_SECONDS) -> None:
        self._service = service
        self._sockets: Counter[tuple[str, Seat]] = Counter()
        self._loop = BackgroundLoop("presence", heartbeat, self.beat, first_delay=heartbeat, logger=log)

    async def start(self) -> None:
        await self._loop.start()

    async def stop(self) -> None:
        await self._loop.stop()

    async def connected(self, match_id: str, seat: Seat) -> None:
        """A socket of ``seat`` opened on this worker."""
        key = (match_id, seat)
        self._sockets[key] += 1
        await in_thread(self._write, match_id, seat, False)
        await self._service.publish(match_channel(match_id), PresenceChanged(type="presence"))

    async def disconnected(self, match_id: str, seat: Seat) -> None:
        """A socket of ``seat`` closed on this worker; the last one marks the seat as gone."""
        key = (match_id, seat)
        self._sockets[key] -= 1
        if self._sockets[key] > 0:
            return
        del self._sockets[key]
        await in_thread(self._write, match_id, seat, True)
        await self._service.publish(match_channel(match_id), PresenceChanged(type="presence"))

    def _write(self, match_id: str, seat: Seat, gone: bool) -> None:
        now = self._service.now()
        with self._service.session() as s:
            (prepo.left if gone else prepo.seen)(s, match_id, seat, now)

    async def beat(self) -> None:
        """One heartbeat: every seat with a socket on this worker is seen now — one transaction for all of
        them (issue 12 §2), none when this worker has no seated socket."""
        seats = list(self._sockets)
        if not seats:
            return
        try:
            await in_thread(self._write_all, seats)
        except Exception as exc:
            if not is_outage(exc):  # an outage is logged once, by the database's health (store/health.py)
                log.exception("presence heartbeat failed (%d seats)", len(seats))

    def _write_all(self, seats: list[tuple[str, Seat]]) -> None:
        now = self._service.now()
        with self._service.session() as s:
            prepo.seen_all(s, seats, now)


def seat_presence(live: LiveMatch, rows: dict[int, PresenceRecord], now: datetime) -> list[SeatPresence]:
    """Both seats' status at ``now`` (bots are always online)."""
    out: list[SeatPresence] = []
    for seat in (0, 1):
        if live.record.seat_bots[seat] is not None:
            out.append(SeatPresence(seat=seat, online=True))
            continue
        row = rows.get(seat)
        fresh = row is not None and now - row.seen_at < timedelta(seconds=OFFLINE_AFTER_SECONDS)
        online = row is not None and fresh and (row.left_at is None or row.left_at < row.seen_at)
        if online:
            out.append(SeatPresence(seat=seat, online=True))
            continue
        if row is None:
            since = live.record.started_at or live.record.created_at
        elif row.left_at is not None and row.left_at >= row.seen_at:
            since = row.left_at
        else:
            since = row.seen_at
        out.append(SeatPresence(seat=seat, online=False, away_since=since))
    return out


async def presence(
    service: LobbyPort,
    match_id: str,
    user_id: int | None,
    live: LiveMatch | None = None,
    known: JSON | None = None,
) -> Presence:
    """Both seats' connection status; for a seated caller of a clock-less active match against a member,
    when the win may be claimed (``GET /api/matches/{id}/presence``). ``live``: the match, caught up with
    the database just now by the caller (a socket that has just opened); None: caught up here — with no
    read of the match when ``known`` (``{seq, status}`` the reader already has) shows the cache is there."""
    live = await service.fresh(match_id, known) if live is None else live
    rows = await in_thread(_rows, service, match_id)
    return _presence(service, live, rows, live.seat_of(user_id))


def _rows(service: LobbyPort, match_id: str) -> dict[int, PresenceRecord]:
    with service.session() as s:
        return prepo.presence(s, match_id)


def _presence(
    service: LobbyPort, live: LiveMatch, rows: dict[int, PresenceRecord], seat: Seat | None
) -> Presence:
    now = service.now()
    seats = seat_presence(live, rows, now)
    grace = service.abandon_grace_seconds
    claim_at = None
    if _claimable_match(live, seat):
        assert seat is not None
        other = seats[1 - seat]
        if not other.online and other.away_since is not None:
            claim_at = other.away_since + timedelta(seconds=grace)
    return Presence(
        seats=seats,
        grace_seconds=grace,
        claim_at=claim_at,
        can_claim=claim_at is not None and claim_at <= now and seat is not None and seats[seat].online,
    )


def _claimable_match(live: LiveMatch, seat: Seat | None) -> bool:
    """A match without a clock against a member — and, in a tournament, once both players have made their
    first move: before that the tournament's no-show rule decides (play/tournament_driver.py: after its grace
    the absent seat forfeits, and two no-shows withdraw it), so a claim can neither come sooner nor turn an
    unplayed board into a won game."""
    r = live.record
    return (
        seat is not None
        and r.status == ACTIVE
        and r.move_seconds is None
        and r.seat_users[1 - seat] is not None
        and r.seat_bots[1 - seat] is None
        and not (live.in_tournament and live.abortable())
    )


def _claimed(service: LobbyPort, live: LiveMatch, seat: Seat) -> Finish:
    """The claim's end: ``seat`` wins by abandonment — or, in a rated match before both players have made
    their first move, the match is aborted unrated (play/endings.py, issue 31 §1)."""
    now = service.now()
    if live.record.rated and live.abortable():
        return endings.unplayed(live, 1 - seat, ABANDONED, now)
    return Finish(FINISHED, service.result_json(live, Outcome(seat, ABANDONED)), now)


async def claim_win(service: LobbyPort, match_id: str, user_id: int) -> Presence:
    """Claim the win over an opponent gone for the grace period (``POST /api/matches/{id}/claim``).

    The claimant must be connected to the match (a socket of theirs is open: issue 31 §1 — a claim by someone
    who never came proves nothing). In a rated match before both players have made their first move the
    claim aborts the match unrated instead of winning it (play/endings.py).

    Raises PlayError ``not_your_seat`` (403), ``match_not_active`` (409), ``claim_not_allowed`` (409: a
    clocked match, a bot opponent, or a tournament board before both first moves), ``opponent_connected``
    (409), ``claimant_not_connected`` (409), ``claim_too_early`` (409, the message says when), ``stale_seq``
    (409: a move was stored meanwhile)."""
    async with service.seated_active(match_id, user_id) as (live, seat):
        if not _claimable_match(live, seat):
            raise PlayError(
                409,
                "claim_not_allowed",
                "only a match without a clock against a member (in a tournament: after both first moves)",
            )
        rows = await in_thread(_rows, service, match_id)
        state = _presence(service, live, rows, seat)
        if state.seats[1 - seat].online:
            raise PlayError(409, "opponent_connected", "your opponent is connected")
        if not state.seats[seat].online:
            raise PlayError(409, "claimant_not_connected", "open the match to claim: you are not connected")
        if not state.can_claim:
            at = state.claim_at.isoformat() if state.claim_at else "later"
            raise PlayError(409, "claim_too_early", f"your opponent may still come back; claim after {at}")
        finish = _claimed(service, live, seat)
        if not await in_thread(service.end_if_at, live.record, finish, live.seq):
            await service.catch_up(live)
            raise PlayError(409, "stale_seq", "the match moved on; look again")
        live.ended(finish.status, finish.result, finish.at)
    await service.changed(live, since=live.seq)
    return state
