"""The bot workers' side of the post-game analysis (issue 17 §4): take a requested analysis with a lease,
replay the finished match from its revealed seeds, analyse every action (``bots/analysis.py``), store it.

:class:`AnalysisRunner` is the ``side_work`` of :class:`duelclub.bots.worker.BotWorker`: a worker looks for a
bot job first (a live match waits on it) and only then for an analysis, one per step. A runner that fails
gives the request back, due again after ``RETRY_SECONDS × attempts`` (``store/analysis.py`` gives up after
``MAX_ATTEMPTS`` takes).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta

from duelclub.bots.analysis import analyse, iterations_for
from duelclub.bots.base import GameLookup
from duelclub.games.fairness import match_key
from duelclub.store import analysis as store
from duelclub.store import matches
from duelclub.store.db import Database
from duelclub.store.models import utcnow

log = logging.getLogger(__name__)

RETRY_SECONDS = 5.0
"""A failed analysis is due again after ``attempts × RETRY_SECONDS``."""


class AnalysisRunner:
    """Computes requested analyses on ``db`` with the games of ``games``.

    ``effort`` scales every game's iteration count (``ANALYSIS_EFFORT``); ``lease_seconds`` bounds how long a
    request stays with a worker that died (longer than one analysis takes). ``between()`` runs before every
    decision is analysed and says whether it did something (the worker's :meth:`BotWorker.bot_step`: due bot
    jobs are answered first, so a live match never waits for an analysis); it is called until it says no.
    """

    def __init__(
        self, db: Database, games: GameLookup, *, name: str, effort: float = 1.0, lease_seconds: float = 300.0
    ) -> None:
        self.db = db
        self.games = games
        self.name = name
        self.effort = effort
        self.lease_seconds = lease_seconds
        self.between: Callable[[], bool] | None = None

    def step(self) -> bool:
        """Take one due analysis, compute and store it; False if none was due."""
        with self.db.session() as s:
            job = store.take(s, self.name, utcnow(), self.lease_seconds)
        if job is None:
            return False
        try:
            entries, iterations = self.compute(job.match_id)
        except Exception:
            log.exception("analysis of match %s failed", job.match_id)
            with self.db.session() as s:
                store.release(s, job, utcnow() + timedelta(seconds=RETRY_SECONDS * job.attempts))
            return True
        with self.db.session() as s:
            if not store.store(s, job, entries, iterations, utcnow()):
                log.info("analysis of match %s came too late (lease lost)", job.match_id)
        return True

    def compute(self, match_id: str) -> tuple[list[dict[str, object]], int]:
        """The entries of a finished match and the iterations used; ValueError if it is not finished."""
        with self.db.session() as s:
            record = matches.get_match(s, match_id)
            actions = matches.actions_after(s, match_id) if record is not None else []
        if record is None or record.status != matches.FINISHED:
            raise ValueError(f"match {match_id} is not finished")
        game = self.games(record.game)
        key = match_key(bytes.fromhex(record.server_seed), record.id, *record.client_seeds)
        start = game.new_match(key, game.parse_options(record.options))
        iterations = iterations_for(record.game, self.effort)
        logged = [(a.seat, a.action) for a in actions]
        entries = analyse(game, start, logged, match_id=record.id, iterations=iterations, between=self._yield)
        return entries, iterations

    def _yield(self) -> None:
        while self.between is not None and self.between():
            pass
