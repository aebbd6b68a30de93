"""The live arena of the tournament benchmark (benchmarks/tournaments.py ``arena``): the members, their
lobby sockets, their matches and the open tournament pages (see that file's docstring)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import loadkit as kit
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.typing import Origin


class ArenaPlayer(kit.Player):
    """A member's seat in one tournament match; ``ended_seen`` is when its end state arrived."""

    ended_seen: float | None = None

    def _take_state(self, payload: dict[str, Any]) -> None:
        super()._take_state(payload)
        if self.ended and self.ended_seen is None:
            self.ended_seen = time.monotonic()


@dataclass
class Seen:
    """What the members saw: pairing delays (s), matches whose end they saw, and the checks."""

    delays: list[float] = field(default_factory=list)
    ended: set[str] = field(default_factory=set)
    missed: int = 0
    early: int = 0
    lobby_closes: int = 0
    pushes: int = 0
    errors: Counter[str] = field(default_factory=Counter)


@dataclass
class Page:
    """An open tournament page: reading now, and pushed to again meanwhile."""

    busy: bool = False
    dirty: bool = False


class ArenaBench:
    """The running arena: members, their lobby sockets and their matches (see the module docstring)."""

    def __init__(self, args: argparse.Namespace, worker: kit.Worker, members: list[kit.Member]) -> None:
        self.args, self.worker, self.members = args, worker, members
        self.stats, self.seen = kit.Stats(), Seen()
        self.api = kit.Api(self.stats)
        self.rng = random.Random(args.seed)
        self.gate = asyncio.Semaphore(16)
        self.tournament_id = ""
        self.until = math.inf
        # --page-readers: members whose tournament page is open (re-read on each push, one read in flight)
        self.pages = {m.id: Page() for m in members[: args.page_readers]}
        self.page_reads: list[float] = []
        self.page_tasks: set[asyncio.Task[None]] = set()

    def page_push(self, member: kit.Member) -> None:
        """A ``{"type": "tournament"}`` push to an open tournament page: read it again (static/js/
        tournament.js reads on every push; this reader coalesces the pushes that come while it reads)."""
        page = self.pages[member.id]
        if page.busy:
            page.dirty = True
        elif self.tournament_id and time.monotonic() < self.until:
            page.busy = True
            task = asyncio.create_task(self.page_read(member, page))
            self.page_tasks.add(task)
            task.add_done_callback(self.page_tasks.discard)

    async def page_read(self, member: kit.Member, page: Page) -> None:
        try:
            while time.monotonic() < self.until:
                page.dirty = False
                t = time.monotonic()
                path = f"/api/tournaments/{self.tournament_id}"
                with contextlib.suppress(httpx.HTTPError):
                    await self.api.call(self.worker.http, member, "GET", path)
                    self.page_reads.append(time.monotonic() - t)
                if not page.dirty:
                    break
        finally:
            page.busy = False

    async def call(self, member: kit.Member, method: str, path: str, body: Any = None) -> Any:
        async with self.gate:
            if body is None and method == "POST":
                body = {}  # a state-changing call is JSON (web/security.py's CSRF guard)
            r = await self.api.call(self.worker.http, member, method, path, body)
        if r.status_code >= 400:
            raise RuntimeError(f"{method} {path}: {r.status_code} {r.text[:300]}")
        return r.json()

    async def lobby(
        self, member: kit.Member, inbox: asyncio.Queue[tuple[str, float]], ready: asyncio.Event
    ) -> None:
        """Keep ``member``'s lobby socket open; each ``{"type": "match"}`` goes to ``inbox`` with its time."""
        headers = {"Cookie": f"{kit.SESSION_COOKIE}={member.cookie}"}
        while True:
            try:
                async with connect(
                    f"{self.worker.ws}/ws/lobby",
                    origin=Origin(self.worker.http),
                    additional_headers=headers,
                    open_timeout=20,
                    ping_interval=None,
                    max_size=2**22,
                ) as sock:
                    async for raw in sock:
                        ready.set()
                        msg = json.loads(raw)
                        if msg.get("type") == "tournament":
                            self.seen.pushes += 1
                            if member.id in self.pages:
                                self.page_push(member)
                        elif msg.get("type") == "match":
                            inbox.put_nowait((str(msg["id"]), time.monotonic()))
            except (ConnectionClosed, InvalidHandshake, InvalidStatus, OSError, TimeoutError):
                pass
            self.seen.lobby_closes += 1
            await asyncio.sleep(0.5)

    async def poll(self, member: kit.Member) -> str | None:
        """``you.match_id`` of ``GET /api/tournaments/{id}`` (None on a failure)."""
        try:
            detail = await self.call(member, "GET", f"/api/tournaments/{self.tournament_id}")
        except (RuntimeError, httpx.HTTPError) as exc:
            self.seen.errors[f"poll:{type(exc).__name__}"] += 1
            return None
        found = detail.get("you", {}).get("match_id")
        return str(found) if found else None

    async def member(self, member: kit.Member, inbox: asyncio.Queue[tuple[str, float]], until: float) -> None:
        """Play every match announced to ``member`` until ``until``."""
        played: set[str] = set()
        last_end: float | None = None
        rng = random.Random(self.rng.random())
        while (left := until - time.monotonic()) > 0:
            try:
                match_id, heard = await asyncio.wait_for(inbox.get(), min(self.args.poll_after, left))
            except TimeoutError:
                if until - time.monotonic() <= 0:
                    return
                found = await self.poll(member)
                if found is None or found in played:
                    continue
                match_id, heard = found, time.monotonic()
                self.seen.missed += 1  # a match the lobby socket did not announce (or not yet)
            if match_id in played:
                continue
            played.add(match_id)
            if last_end is not None:
                self.seen.early += heard < last_end
                self.seen.delays.append(max(0.0, heard - last_end))
            think = self.args.think_ms / 1000
            player = ArenaPlayer(
                self.api,
                self.stats,
                member,
                match_id,
                http=self.worker.http,
                ws=self.worker.ws,
                rng=rng,
                think=think,
            )
            await player.play(until)
            if player.ended_seen is not None:
                last_end = player.ended_seen
                self.seen.ended.add(match_id)
            else:
                last_end = None

    async def setup(self) -> list[asyncio.Queue[tuple[str, float]]]:
        """Lobby sockets open, the arena created and joined by every member; the members' inboxes."""
        inboxes: list[asyncio.Queue[tuple[str, float]]] = [asyncio.Queue() for _ in self.members]
        readies = [asyncio.Event() for _ in self.members]
        self.lobbies = [
            asyncio.create_task(self.lobby(m, q, r))
            for m, q, r in zip(self.members, inboxes, readies, strict=True)
        ]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 60)
        organiser = self.members[0]
        minutes = max(5, math.ceil(self.args.seconds / 60) + 5)
        body = {
            "game": self.args.game,
            "format": "arena",
            "name": "benchmark arena",
            "minutes": minutes,
            "max_players": len(self.members),
        }
        created = await self.call(organiser, "POST", "/api/tournaments", body)
        self.tournament_id = str(created["id"])
        await asyncio.gather(
            *(self.call(m, "POST", f"/api/tournaments/{self.tournament_id}/join") for m in self.members)
        )
        return inboxes

    async def close(self) -> None:
        tasks = [*getattr(self, "lobbies", []), *self.page_tasks]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.api.close()
