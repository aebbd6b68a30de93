"""What the server benchmarks ``load.py`` (issue 12 §4), ``chaos.py`` (issue 18 §3) and ``pg_restart.py``
(issue 29 §6) share, in one kit (``import loadkit as kit``): the ground (loadbase.py: a throw-away database,
``duelclub serve`` workers as subprocesses, members with ready-made session cookies, figures read from /proc
and pg_stat_database), the JSON API and a player that plays one seat of one match over its WebSocket with
random legal actions (loadplayer.py), and here the club that seats the players on the workers.

Everything targets 127.0.0.1 only and every loop is bounded by a deadline. Run the benchmarks as scripts from
the project's venv (``.venv/bin/python benchmarks/load.py``); these modules are imported from the same folder.
"""

from __future__ import annotations

import asyncio
import random
import time
import zlib
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from loadbase import (
    PG_ADMIN_DSN,
    PG_STATS_SETTLE_S,
    REPO,
    SESSION_COOKIE,
    BenchDatabase,
    Cluster,
    Member,
    Worker,
    cpu_seconds,
    free_port,
    load_average,
    percentile,
    process_tree,
    seed_members,
    workdir,
)
from loadplayer import Api, Player, Stats
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, InvalidHandshake

__all__ = [
    "PG_ADMIN_DSN",
    "PG_STATS_SETTLE_S",
    "REPO",
    "SESSION_COOKIE",
    "Api",
    "BenchDatabase",
    "Club",
    "Cluster",
    "IncidentClub",
    "Member",
    "Player",
    "Seated",
    "Stats",
    "Worker",
    "cpu_seconds",
    "free_port",
    "load_average",
    "percentile",
    "process_tree",
    "seed_members",
    "workdir",
]


PLACEMENTS = ("split", "sticky")
"""Where a match's two sockets connect on several workers (:class:`Club`)."""
Seated = list[tuple[Player, ClientConnection]]
"""The players of one match with their open sockets."""


class Club:
    """Members playing matches on a cluster: human slot ``j`` is members ``2j`` and ``2j + 1``, seat 0 on
    worker ``j`` and seat 1 on worker ``j + 1`` (modulo the worker count: different workers when there are
    several) — ``placement="split"``, the worst case; with ``placement="sticky"`` both sockets of a match go
    to one worker chosen by a hash of the match id, as a load balancer that routes ``/ws/match/{id}`` by its
    id does (docs/architecture.md §Several workers). ``player_options`` go to every :class:`Player`;
    ``current[slot]`` is what a slot plays now; ``match_ids`` every match it started."""

    def __init__(
        self,
        cluster: Cluster,
        members: list[Member],
        game: str,
        *,
        stats: Stats | None = None,
        seed: int | None = None,
        api_timeout: float = 30.0,
        create_concurrency: int = 16,
        placement: str = "split",
        **player_options: Any,
    ) -> None:
        if placement not in PLACEMENTS:
            raise ValueError(f"placement {placement!r}: one of {PLACEMENTS}")
        self.cluster, self.members, self.game = cluster, members, game
        self.placement = placement
        self.api = Api(stats or Stats(), timeout=api_timeout)
        self.rng = random.Random(seed)
        self.create_gate = asyncio.Semaphore(create_concurrency)
        self.player_options = player_options
        self.current: dict[int, list[Player]] = {}
        self.match_ids: list[str] = []
        self.move_seconds: int | None = None
        """The move clock of the matches it starts (None: the game's default)."""

    def worker(self, index: int) -> Worker:
        return self.cluster.workers[index % len(self.cluster.workers)]

    def seat_workers(self, slot: int, match_id: str) -> tuple[Worker, Worker]:
        """Where the two sockets of slot ``slot``'s match ``match_id`` connect (the class docstring)."""
        if self.placement == "sticky":
            where = self.worker(zlib.crc32(match_id.encode()))
            return where, where
        return self.worker(slot), self.worker(slot + 1)

    def pair(self, slot: int) -> tuple[Member, Member]:
        return self.members[2 * slot], self.members[2 * slot + 1]

    async def new_match(self, slot: int) -> str:
        """A started invite match of ``slot`` (opened on the seat-0 worker, accepted on the seat-1 one)."""
        a, b = self.pair(slot)
        async with self.create_gate:
            match_id = await self.api.invite_match(
                (self.worker(slot).http, a), (self.worker(slot + 1).http, b), self.game, self.move_seconds
            )
        self.match_ids.append(match_id)
        return match_id

    def player(self, stats: Stats, member: Member, match_id: str, where: Worker, **options: Any) -> Player:
        """A player of ``member`` on worker ``where`` (not yet connected)."""
        options = {**self.player_options, **options}
        if len(self.cluster.workers) > 1:
            others = [w for w in self.cluster.workers if w is not where]
            options.setdefault("alt_http", others[0].http)
        rng = random.Random(self.rng.random())
        return Player(self.api, stats, member, match_id, http=where.http, ws=where.ws, rng=rng, **options)

    async def human_match(self, slot: int, stats: Stats) -> Seated:
        """A new match of ``slot`` and both players' open sockets."""
        match_id = await self.new_match(slot)
        seats = zip(self.pair(slot), self.seat_workers(slot, match_id), strict=True)
        players = [self.player(stats, m, match_id, w) for m, w in seats]
        self.current[slot] = players
        return [(p, await p.open()) for p in players]

    async def keep_playing(
        self, slot: int, first: Seated | None, again: Callable[[], Awaitable[Seated]], until: float
    ) -> None:
        """Play ``first`` (or a match from ``again()``) until it ends, then further matches from
        ``again()``, until ``until`` (time.monotonic()). A failed start is retried after 1 s."""
        current = first
        while time.monotonic() < until:
            if current is None:
                try:
                    current = await asyncio.wait_for(again(), max(0.1, until - time.monotonic()))
                except (httpx.HTTPError, OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
                    await asyncio.sleep(1.0)
                    continue
            await asyncio.gather(*(p.play(until, sock) for p, sock in current))
            current = None
        self.current.pop(slot, None)


class IncidentClub(Club):
    """A club for the incident suites (chaos.py, kill9.py): every player shares one :class:`Stats` and one
    ``hold`` event (a quiet spell), and takes ``--game``, ``--seed``, ``--http-every`` and
    ``--resend-after`` from the suite's arguments."""

    def __init__(self, args: Any, cluster: Cluster, members: list[Member]) -> None:
        self.stats, self.hold = Stats(), asyncio.Event()
        super().__init__(
            cluster,
            members,
            args.game,
            stats=self.stats,
            seed=args.seed,
            api_timeout=10.0,
            http_every=args.http_every,
            resend_after=args.resend_after,
            hold=self.hold,
        )
        self.args = args
