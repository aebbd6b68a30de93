"""The players and the throw-away Redis of the outage benchmarks (benchmarks/chaos.py for Redis,
benchmarks/pg_restart.py for PostgreSQL): :class:`Chaos`, the matches with their incident checks, and
:class:`RedisServer`."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import subprocess
import time
from pathlib import Path

import loadkit as kit
import redis


class RedisServer:
    """A throw-away ``redis-server`` on 127.0.0.1:``port`` (no persistence), killed and restarted at will."""

    def __init__(self, workdir: Path) -> None:
        self.port, self.log_path = kit.free_port(), workdir / "redis.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> None:
        cmd = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        cmd += ["--save", "", "--appendonly", "no"]
        with self.log_path.open("ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        client = redis.Redis(port=self.port, socket_connect_timeout=0.5)
        deadline = time.monotonic() + timeout
        while True:
            with contextlib.suppress(redis.RedisError):
                if client.ping():
                    break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start:\n{self.log_path.read_text()[-2000:]}")
            time.sleep(0.05)
        client.close()

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)
        self.proc = None


class Chaos(kit.IncidentClub):
    """The matches, the incidents and the checks."""

    def __init__(self, args: argparse.Namespace, cluster: kit.Cluster, members: list[kit.Member]) -> None:
        super().__init__(args, cluster, members)
        self.lagging: list[int] = []
        """Per check: how many sockets had not caught up."""

    def latest_seqs(self, db: kit.BenchDatabase) -> dict[str, int]:
        """The database's latest seq of every match played (0 for a match without actions)."""
        rows = db.query(
            "SELECT match_id, max(seq) FROM match_actions WHERE match_id = ANY(%s) GROUP BY match_id",
            (self.match_ids,),
        )
        return {match_id: 0 for match_id in self.match_ids} | {m: int(s) for m, s in rows}

    async def check_catch_up(self, db: kit.BenchDatabase, label: str) -> None:
        """Hold new actions for ``--catchup`` s after a recovery, then count the sockets of the current
        matches that have not received their match's latest stored seq (a closed socket has not). Those
        then send ``sync``: a match whose mover missed the last push would otherwise stall for good."""
        self.hold.set()
        await asyncio.sleep(self.args.catchup)
        latest = self.latest_seqs(db)
        behind = [p for players in self.current.values() for p in players if p.seen_seq < latest[p.match_id]]
        self.lagging.append(len(behind))
        ports = {w.http: i for i, w in enumerate(self.cluster.workers)}
        detail = ", ".join(
            f"{p.match_id[:8]} on worker {ports[p.http]}{'' if p.connected else ' (closed)'}:"
            f" seen {p.seen_seq} < {latest[p.match_id]}"
            for p in behind[:6]
        )
        print(f"  {label}: {len(behind)} socket(s) not caught up within {self.args.catchup} s {detail}")
        for p in behind:  # counted; now let them ask, so that the next incident finds the matches moving
            p.request_sync()
        self.hold.clear()

    def stored_vs_acked(self, db: kit.BenchDatabase) -> tuple[list[str], list[str]]:
        """(stored but not acknowledged, acknowledged but not stored) client action ids of our actions."""
        rows = db.query(
            "SELECT client_action_id FROM match_actions"
            " WHERE match_id = ANY(%s) AND client_action_id IS NOT NULL",
            (self.match_ids,),
        )
        stored = {str(cid).split(":", 1)[1] for (cid,) in rows} & self.stats.sent_ids
        return sorted(stored - self.stats.acked_ids), sorted(self.stats.acked_ids - stored)
