"""A bot worker process for tests/play/test_bot_workers.py: the real worker loop (``BotWorker.run``) with
the fake game ``duel`` and a fake bot — ``--bot slow`` sleeps ``--sleep`` seconds before answering (a worker
to kill mid-think), ``--bot first`` answers at once. Prints ``answered <match> <seq> <attempts>``
per answer."""

from __future__ import annotations

import argparse
import random
import threading
import time
from typing import Any

from duel_fake import DUEL, FirstLegalBot

from duelclub.bots.worker import BotWorker
from duelclub.store.db import Database


class SlowBot(FirstLegalBot):
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def choose(self, game: Any, state: Any, seat: int, rng: random.Random) -> Any:
        time.sleep(self.seconds)
        return super().choose(game, state, seat, rng)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--bot", choices=["slow", "first"], default="first")
    parser.add_argument("--sleep", type=float, default=60.0)
    parser.add_argument("--lease", type=float, default=1.5)
    args = parser.parse_args()
    db = Database(args.db)

    def make(slug: str, level: str, think: float | None) -> Any:
        return SlowBot(args.sleep) if args.bot == "slow" else FirstLegalBot()

    def answered(job: Any) -> None:
        print(f"answered {job.match_id} {job.seq} {job.attempts}", flush=True)

    worker = BotWorker(
        db,
        {"duel": DUEL}.__getitem__,
        make,
        name=args.name,
        lease_seconds=args.lease,
        poll_seconds=0.02,
        on_answer=answered,
    )
    print("ready", flush=True)
    worker.run(threading.Event())


if __name__ == "__main__":
    main()
