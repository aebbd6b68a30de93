"""The computed ``GET /api/tournaments/{id}`` of each tournament, kept while its version stays (issue 26 §Real
time and scale: a tournament page re-reads it on every push, an arena of thousands of boards costs a
hundred milliseconds of CPU to compute).

Every write that changes what the detail shows bumps the tournament row's ``version`` (store/tournaments.py:
joins, leaves, the start, pairings, results, no-show counts, withdrawals, pause, resume, cancel and the
cancel's aborted matches; a board's match status and seed change with its result, which the driver records
as soon as the match ends). So a read asks the row's version (one small query) and, when this worker has the
detail of that version, answers from it: N readers of one version cost one computation per worker, and
readers that come while it is computed wait for it instead of computing it again.

What is kept is the JSON body without ``you`` (the reader's own place) and ``options_text`` (the game options
in the reader's language), encoded once; both are added per reader: ``you`` from a small index (the member's
player number and their match in play), ``options_text`` from the kept ``game`` and ``options``.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import select
from sqlalchemy.orm import Session

from duelclub.play.errors import PlayError
from duelclub.play.threads import in_thread
from duelclub.play.tournament_views import detail
from duelclub.store import tournaments as repo
from duelclub.store import users
from duelclub.store.models import Tournament

JSON = dict[str, Any]
SIZE = 32
"""Tournaments whose detail a worker keeps (the latest version of each), least recently read dropped."""


@dataclass(frozen=True, slots=True)
class Detail:
    """One tournament's detail at ``version``: the encoded JSON object without ``you``, what ``you``
    needs (member → (number, withdrawn); player number → their match in play; the organiser), and the
    tournament's ``game`` slug and stored ``options`` (for their words in each reader's language)."""

    version: int
    body: bytes
    members: dict[int, tuple[int, bool]]
    playing: dict[int, str]
    organiser_id: int
    game: str
    options: dict[str, Any]

    def you(self, viewer: int | None) -> JSON:
        """The reader's place: ``joined``, ``number``, ``withdrawn``, ``organiser``, ``match_id``."""
        number, withdrawn = self.members.get(viewer, (None, False)) if viewer is not None else (None, False)
        return {
            "joined": number is not None,
            "number": number,
            "withdrawn": withdrawn,
            "organiser": viewer is not None and viewer == self.organiser_id,
            "match_id": self.playing.get(number) if number is not None else None,
        }

    def encoded(self, viewer: int | None, options_text: str = "") -> bytes:
        """The whole detail as JSON bytes, ``you`` and ``options_text`` (the options worded for the reader,
        ``GameWords.options_text`` for a third party: «Дом Горна у игрока 1») included."""
        reader = orjson.dumps({"options_text": options_text, "you": self.you(viewer)})
        return self.body[:-1] + b"," + reader[1:]


def compute(s: Session, tournament_id: str) -> Detail | None:
    """Read the tournament and compute its detail (tournament_views.detail); None if unknown."""
    snap = repo.snapshot(s, tournament_id)
    if snap is None:
        return None
    t = snap.tournament
    organiser = users.usernames(s, {t.organiser_id}).get(t.organiser_id)
    out = detail(snap, organiser, None)
    del out["you"]
    playing: dict[int, str] = {}
    for g in snap.games:  # by round: a later match in play wins (as tournament_views._you)
        if g.match_id and g.match_status == "active":
            for number in (g.first, g.second):
                if number is not None:
                    playing[number] = g.match_id
    members = {
        e.user_id: (e.number, e.withdrawn_at is not None) for e in snap.entries if e.user_id is not None
    }
    return Detail(t.version, orjson.dumps(out), members, playing, t.organiser_id, t.game, dict(t.options))


class DetailCache:
    """The latest computed :class:`Detail` of up to ``size`` tournaments (module docstring). ``session``
    opens a database session (``Database.session``)."""

    def __init__(self, session: Callable[[], Any], size: int = SIZE) -> None:
        self._session = session
        self._size = size
        self._kept: OrderedDict[str, Detail] = OrderedDict()
        self._computing: dict[tuple[str, int], asyncio.Task[Detail | None]] = {}
        self.computed = 0
        """How many details this worker computed (benchmarks and tests read it)."""

    async def get(self, tournament_id: str) -> Detail:
        """The detail at the tournament's current version (or newer); PlayError 404
        ``tournament_not_found``."""
        version = await in_thread(self._version, tournament_id)
        if version is None:
            raise PlayError(404, "tournament_not_found", "no such tournament")
        kept = self._kept.get(tournament_id)
        if kept is not None and kept.version >= version:
            self._kept.move_to_end(tournament_id)
            return kept
        key = (tournament_id, version)
        task = self._computing.get(key)
        if task is None:  # the first reader of this version computes it; the others wait for it
            task = asyncio.get_running_loop().create_task(self._computed(tournament_id, key))
            self._computing[key] = task
        found = await asyncio.shield(task)  # a reader that goes away does not stop it for the others
        if found is None:
            raise PlayError(404, "tournament_not_found", "no such tournament")
        return found

    async def _computed(self, tournament_id: str, key: tuple[str, int]) -> Detail | None:
        try:
            found = await in_thread(self._compute, tournament_id)
            self.computed += 1
            self._keep(tournament_id, found)
            return found
        finally:
            self._computing.pop(key, None)

    def _version(self, tournament_id: str) -> int | None:
        with self._session() as s:
            found = s.scalar(select(Tournament.version).where(Tournament.id == tournament_id))
            return int(found) if found is not None else None

    def _compute(self, tournament_id: str) -> Detail | None:
        with self._session() as s:
            return compute(s, tournament_id)

    def _keep(self, tournament_id: str, found: Detail | None) -> None:
        kept = self._kept.get(tournament_id)
        if found is None or (kept is not None and kept.version >= found.version):
            return
        self._kept[tournament_id] = found
        self._kept.move_to_end(tournament_id)
        while len(self._kept) > self._size:
            self._kept.popitem(last=False)
