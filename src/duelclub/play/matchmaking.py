"""Matchmaking («поиск соперника», issue 6): ``POST/DELETE /api/queue``.

The queue is the ``queue_entries`` table (store/lobby.py), so every worker shares it. A member has at most
one entry. Two entries are compatible when their ``pool`` is equal: the same game, the same (parsed) options,
the same move clock and both rated or both casual — and two members kept apart by a block (issue 28 §5,
play/blocks.py) are never paired. :class:`Matchmaker` pairs the two oldest entries of each
casual pool; in a rated pool it pairs the oldest entry with the oldest other one whose rating is within both
seekers' windows (:func:`window`: ±200, widening by 100 every 10 s of waiting; issue 14 §3) — at once when a
member joins, and every ``interval`` seconds (a join racing with another worker's join is paired by the next
pass, well within a second). Pairing claims both rows with guarded UPDATEs before the match is committed, so
no entry is used twice; the older entry takes seat 0 and the match starts at once. Both members are told on
``user:{id}`` (play/notify.py); ``GET /api/queue`` answers ``matched`` with the match id too.

An entry stays only while its member is there: the lobby page's socket refreshes it (``touch``) and removes it
when the page closes; an entry not refreshed for :data:`STALE_SECONDS` is dropped.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from duelclub.aio import BackgroundLoop
from duelclub.games.contract import IllegalAction
from duelclub.games.fairness import commitment, new_server_seed
from duelclub.play import lobby, notify, rating_views
from duelclub.play.clock import clock_setting
from duelclub.play.errors import PlayError
from duelclub.play.live import JSON
from duelclub.play.port import LobbyPort
from duelclub.play.schemas import QueueStatus
from duelclub.play.threads import in_thread
from duelclub.store import blocks as blocks_repo
from duelclub.store import lobby as qrepo
from duelclub.store import matches as repo
from duelclub.store import ratings as rating_repo
from duelclub.store.lobby import QueueRecord
from duelclub.store.matches import ACTIVE

log = logging.getLogger(__name__)
STALE_SECONDS = 30.0
"""An entry whose member has not reported for this long is no longer waiting."""
WINDOW, WINDOW_STEP, WINDOW_EVERY_SECONDS = 200, 100, 10.0
"""A rated seeker accepts opponents rated within ±WINDOW, plus WINDOW_STEP per WINDOW_EVERY_SECONDS waited."""


def pool_key(game: str, options: JSON, move_seconds: int | None, rated: bool = False) -> str:
    """The compatibility key: game, rated or casual, clock and canonical options JSON."""
    canon = json.dumps(options, sort_keys=True, separators=(",", ":"))
    return f"{game}|{'rated' if rated else 'casual'}|{move_seconds or 0}|{canon}"[:255]


def window(waited_seconds: float) -> int:
    """How far (±) a rated seeker's opponent's rating may be from theirs after waiting this long."""
    return WINDOW + WINDOW_STEP * int(max(0.0, waited_seconds) // WINDOW_EVERY_SECONDS)


@dataclass(frozen=True, slots=True)
class Seeker:
    """A waiting entry with the member's rating in its game and their window now."""

    entry: QueueRecord
    rating: float
    window: int


Apart = set[frozenset[int]]
"""Pairs of member ids kept apart by a block (either way; store/blocks.py ``pairs_among``)."""


def rated_pairs(seekers: list[Seeker], apart: Apart | None = None) -> list[tuple[Seeker, Seeker]]:
    """Pairs of one rated pool, oldest first: each unpaired seeker, oldest first, with the oldest other one
    whose rating difference is within both windows (each accepts the other) and who is not kept apart from
    them by a block (``apart``, issue 28 §5)."""
    free = list(seekers)
    pairs: list[tuple[Seeker, Seeker]] = []
    while free:
        a = free.pop(0)
        for b in free:
            if apart and frozenset((a.entry.user_id, b.entry.user_id)) in apart:
                continue
            if abs(a.rating - b.rating) <= min(a.window, b.window):
                free.remove(b)
                pairs.append((a, b))
                break
    return pairs


def casual_pairs(
    entries: list[QueueRecord], apart: Apart | None = None
) -> list[tuple[QueueRecord, QueueRecord]]:
    """Pairs of one casual pool, oldest first: each unpaired entry with the oldest other one not kept apart
    from it by a block (``apart``); without blocks, the oldest two, the next two, and so on."""
    free = list(entries)
    pairs: list[tuple[QueueRecord, QueueRecord]] = []
    while free:
        a = free.pop(0)
        for b in free:
            if not apart or frozenset((a.user_id, b.user_id)) not in apart:
                free.remove(b)
                pairs.append((a, b))
                break
    return pairs


async def join(
    service: LobbyPort,
    user_id: int,
    *,
    game: str,
    options: JSON | None,
    move_seconds: int | None,
    client_seed: str | None = None,
    matchmaker: Matchmaker | None = None,
    rated: bool | None = None,
) -> QueueStatus:
    """Enter the queue (replacing the member's previous entry) and try to pair at once.

    Idempotent under double clicks and races (issue 18 §2): two joins at once both answer, the entry holds
    one of them. A member whose entry is paired into a match that has not ended stays paired: the answer is
    ``matched`` with that match (a join racing the pairing, or from another tab, never strands the member
    in the queue while their match runs); once it has ended a join replaces the entry.

    ``rated`` False seeks a casual match (default: rated, in a rated game; lobby.is_rated).

    Raises PlayError ``unknown_game``, ``bad_options``, ``bad_clock``, ``bad_client_seed`` (422)."""
    g = service.game(game)
    try:
        opts = g.parse_options(options).model_dump(mode="json")
    except IllegalAction as exc:
        raise PlayError(422, exc.code, exc.message) from None
    clock = clock_setting(g, vs_bot=False, move_seconds=move_seconds)
    seed = lobby.seed_or_refuse(client_seed)
    now = service.now()
    is_rated = lobby.is_rated(g, vs_bot=False, rated=rated)
    pool = pool_key(g.slug, opts, clock, is_rated)
    entry = QueueRecord(user_id, g.slug, opts, clock, pool, seed, now, now, None, is_rated)

    def write() -> None:
        with service.session() as s:
            qrepo.join_queue(s, entry)

    await in_thread(write)
    await (matchmaker or Matchmaker(service)).pair()
    return await status(service, user_id)


async def leave(service: LobbyPort, user_id: int, *, unseen_since: datetime | None = None) -> bool:
    """Leave the queue (``DELETE /api/queue``, or the lobby page closing); True if the member was waiting.

    With ``unseen_since`` the entry stays if a heartbeat reached it at or after that time (another lobby
    page of the member is still open)."""

    def write() -> bool:
        with service.session() as s:
            return qrepo.leave_queue(s, user_id, waiting_only=True, unseen_since=unseen_since)

    return await in_thread(write)


async def touch(service: LobbyPort, user_id: int) -> None:
    """The member is still waiting (heartbeat)."""

    def write() -> None:
        with service.session() as s:
            qrepo.touch_queue(s, user_id, service.now())

    await in_thread(write)


async def status(service: LobbyPort, user_id: int, *, refresh: bool = False) -> QueueStatus:
    """The member's entry: ``waiting``, ``matched`` (with ``match_id``) or ``none``. ``refresh`` counts as a
    heartbeat (a script polling ``GET /api/queue`` stays in the queue)."""

    def read() -> QueueStatus:
        now = service.now()
        with service.session() as s:
            if refresh:
                qrepo.touch_queue(s, user_id, now)
            e = qrepo.queue_entry(s, user_id)
            rating = None
            if e is not None and e.rated:
                rules, rated_games = service.rating_rules, rating_views.rated_games(service.games)
                rating = rating_views.current(s, rules, [(user_id, e.game)], rated_games, now).get(
                    (user_id, e.game)
                )
        if e is None:
            return QueueStatus(status="none")
        waiting = e.match_id is None
        return QueueStatus(
            status="waiting" if waiting else "matched",
            game=e.game,
            options=e.options,
            move_seconds=e.move_seconds,
            match_id=e.match_id,
            since=e.created_at,
            rated=e.rated,
            rating=rating,
            window=window((now - e.created_at).total_seconds()) if e.rated and waiting else None,
        )

    return await in_thread(read)


IDLE_SECONDS = 5.0
"""The background pass's sleep while fewer than two entries wait (issue 29 §1: an idle worker paired nothing
twice a second). Then nothing can be paired until a member joins, and a join runs a pass of its own on the
worker that took it; of two joins racing on two workers, the later pass sees both entries. The pass itself
only drops stale entries then, which may wait these few seconds."""


class Matchmaker:
    """Pairs compatible entries; one background task per worker (:meth:`start`) plus a pass per join. The
    background pass runs every ``interval`` seconds while two or more entries wait (rated windows widen with
    time, a third member may join a pair kept apart), every ``idle`` seconds otherwise
    (:data:`IDLE_SECONDS`)."""

    def __init__(self, service: LobbyPort, *, interval: float = 0.5, idle: float = IDLE_SECONDS) -> None:
        self._service = service
        self._idle = idle
        self._waiting_count = 0
        self._loop = BackgroundLoop("matchmaker", interval, self._pass, logger=log)

    async def start(self) -> None:
        await self._loop.start()

    async def stop(self) -> None:
        await self._loop.stop()

    async def _pass(self) -> float | None:
        await self.pair()
        return None if self._waiting_count > 1 else self._idle

    async def pair(self) -> list[str]:
        """One pass: pair every pool's waiting entries (casual: the oldest two; rated: within their rating
        windows, :func:`rated_pairs`); the ids of the matches started."""
        service = self._service
        entries, ratings, apart = await in_thread(self._waiting)
        self._waiting_count = len(entries)
        pools: dict[str, list[QueueRecord]] = {}
        for e in entries:
            pools.setdefault(e.pool, []).append(e)
        started: list[str] = []
        for group in pools.values():
            for a, b in self._pairs(group, ratings, apart):
                try:
                    match_id = await in_thread(self._start, a, b)
                except Exception:
                    log.exception("matchmaking: pairing %s and %s failed", a.user_id, b.user_id)
                    match_id = None
                if match_id is None:
                    continue
                started.append(match_id)
                live = await service.fresh(match_id)
                await service.changed(live)
                await notify.match_started(service, [a.user_id, b.user_id], match_id, "queue")
        return started

    def _pairs(
        self, group: list[QueueRecord], ratings: dict[tuple[int, str], float], apart: Apart
    ) -> list[tuple[QueueRecord, QueueRecord]]:
        if not group[0].rated:
            return casual_pairs(group, apart)
        now, start = self._service.now(), self._service.rating_rules.start.rating
        seekers = [
            Seeker(e, ratings.get((e.user_id, e.game), start), window((now - e.created_at).total_seconds()))
            for e in group
        ]
        return [(a.entry, b.entry) for a, b in rated_pairs(seekers, apart)]

    def _waiting(self) -> tuple[list[QueueRecord], dict[tuple[int, str], float], Apart]:
        """The waiting entries, oldest first, the stored ratings of the rated seekers, and the pairs of
        waiting members kept apart by a block (read only when two or more wait)."""
        now = self._service.now()
        with self._service.session() as s:
            qrepo.drop_stale(s, now - timedelta(seconds=STALE_SECONDS))
            entries = qrepo.waiting(s, now - timedelta(seconds=STALE_SECONDS))
            stored = rating_repo.ratings_of(s, {(e.user_id, e.game) for e in entries if e.rated})
            apart = blocks_repo.pairs_among(s, {e.user_id for e in entries}) if len(entries) > 1 else set()
        return entries, {pair: r.rating.rating for pair, r in stored.items() if r.matches > 0}, apart

    def _start(self, a: QueueRecord, b: QueueRecord) -> str | None:
        """Create the match of ``a`` (seat 0) and ``b`` (seat 1) and claim both entries, in one transaction;
        None if either entry was taken or withdrawn meanwhile."""
        service = self._service
        server_seed, match_id, now = new_server_seed(), lobby.new_match_id(), service.now()
        fields: dict[str, Any] = {
            "id": match_id,
            "game": a.game,
            "options": a.options,
            "status": ACTIVE,
            "seat0_user_id": a.user_id,
            "seat1_user_id": b.user_id,
            "commitment": commitment(server_seed, match_id),
            "server_seed": server_seed.hex(),
            "client_seed_a": a.client_seed,
            "client_seed_b": b.client_seed,
            "created_at": now,
            "started_at": now,
            "move_seconds": a.move_seconds,
            "deadline_at": now + timedelta(seconds=a.move_seconds) if a.move_seconds else None,
            "opened_by": a.user_id,
            "invite_token": None,
            "rated": a.rated,
        }
        with service.session() as s:
            repo.insert_match(s, **fields)
            if not qrepo.claim_pair(s, a, b, match_id):
                s.rollback()
                return None
        return match_id
