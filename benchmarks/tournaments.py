"""Tournament benchmark (issue 26 §Real time and scale): pairing time per round, and a live arena.

Two parts:

- ``pairing`` — the pure pairers of ``play/tournaments/`` on simulated tournaments with seeded random
  results, at 16, 64 and 256 players (``--sizes``). **Swiss**: ``--swiss-runs`` tournaments of
  ``--rounds`` rounds each (at most what the players allow), every ``swiss.pair_round`` call timed (with
  ``rounds=`` as the driver passes it, so the look-ahead runs). **Arena**: the driver's passes as ticks;
  each game lasts 2..20 ticks, so each tick a random subset of players becomes free, and
  ``arena.pair_pool`` is timed on the free players (inputs built as ``progress.next_step`` builds them),
  ``--arena-calls`` calls with at least two free players per size; the whole step (``next_step``: scores,
  ranking and the pairing, what the driver runs per pass) is timed too. Figures: median, p95 and max CPU
  ms (``time.process_time``) per call, and the free players per arena call.
- ``arena`` — a simulated arena of ``--members`` (64) members on PostgreSQL (a fresh database on
  127.0.0.1:5432, dropped afterwards) with one real ``duelclub serve`` worker (benchmarks/loadkit.py, as
  load.py): the members are seeded with sessions, each opens the lobby socket (``/ws/lobby``), the first
  creates an arena of ``--game`` (minutes enough for ``--seconds``), all join, it starts; each member then
  plays every match the lobby socket announces (``{"type": "match"}``) over the match socket with a random
  legal action as soon as it is to move (``--think-ms``: a pause first), and looks at ``GET
  /api/tournaments/{id}`` (``you.match_id``) only when ``--poll-after`` seconds pass with no match. After
  ``--seconds`` it prints acknowledged acts/s, act latency p50/p99 (send → ack), matches finished,
  the pairing delay p50/p99 as a member sees it (the end state of their match → the next match's
  announcement) and as the database has it (the match's ``finished_at`` → the next board's
  ``created_at``), the driver's lag recording a result, server CPU ms per act (/proc of the worker and its
  children), PostgreSQL transactions per act (pg_stat_database, read without a settle: ±1 s of flushing),
  the server's RSS at the start and the end of the window,
  and the checks: a member paired while still in a game, the same opponent twice in a row, announcements
  missed (found by the poll), socket closes, errors, HTTP 5xx and tracebacks in the worker log; and what
  one read of ``GET /api/tournaments/{id}`` costs at the end (and, after a bare version bump, the read
  that computes the new version and the reads of it that follow), with the rate of ``{"type": "tournament"}``
  pushes a lobby socket hears (the tournament page re-reads on each). ``--page-readers K``: the first K
  members also keep the tournament page open — a read on every push, one in flight (pushes meanwhile
  coalesce into one more read) — and the reads' rate and latency are printed (their CPU is in the
  server's, so "per act" is then not comparable).

Both print /proc/loadavg; ``--json`` makes the last line one JSON object of the figures.

This file is the command line; the parts live beside it: ``tournament_pairing.py`` (the pure pairers),
``tournament_arena.py`` (the members, their sockets and pages) and ``tournament_arena_run.py`` (the run and
its figures).

Command lines (from the project root, after ``make install-dev``):

    .venv/bin/python benchmarks/tournaments.py pairing                       # 16, 64, 256 players
    .venv/bin/python benchmarks/tournaments.py pairing --sizes 64 --swiss-runs 2 --arena-calls 50
    .venv/bin/python benchmarks/tournaments.py arena --seconds 30            # a quick look
    .venv/bin/python benchmarks/tournaments.py arena --seconds 300 --json    # issue 26: 5 minutes
    .venv/bin/python benchmarks/tournaments.py arena --seconds 60 --page-readers 16  # pages open too
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from tournament_arena_run import run_arena
from tournament_pairing import run_pairing


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="part", required=True)
    pair = sub.add_parser("pairing", help="pairing CPU time per call on the pure functions")
    pair.add_argument("--sizes", type=int, nargs="+", default=[16, 64, 256])
    pair.add_argument("--rounds", type=int, default=7, help="Swiss rounds (at most what the players allow)")
    pair.add_argument("--swiss-runs", type=int, default=5, help="Swiss tournaments per size")
    pair.add_argument("--arena-calls", type=int, default=200, help="pair_pool calls per size")
    pair.add_argument("--seed", type=int, default=1)
    pair.add_argument("--json", action="store_true", help="last line: one JSON object of the figures")
    live = sub.add_parser("arena", help="a live arena on PostgreSQL")
    live.add_argument("--seconds", type=float, default=300.0)
    live.add_argument("--members", type=int, default=64)
    live.add_argument("--game", default="towers")
    live.add_argument("--think-ms", type=float, default=0.0, help="a pause of 0.5–1.5 × this before acting")
    live.add_argument("--poll-after", type=float, default=15.0, help="seconds without a match before a GET")
    live.add_argument("--seed", type=int, default=1, help="seed of the members' random choices")
    live.add_argument(
        "--page-readers",
        type=int,
        default=0,
        help="members with the tournament page open (re-read on pushes)",
    )
    live.add_argument("--keep", action="store_true", help="keep the work dir (the worker's log)")
    live.add_argument("--json", action="store_true", help="last line: one JSON object of the figures")
    args = p.parse_args(argv)
    if args.part == "pairing" and (min(args.sizes) < 2 or args.rounds < 1 or args.arena_calls < 1):
        p.error("--sizes at least 2, --rounds and --arena-calls positive")
    if args.part == "arena" and (
        args.seconds <= 0 or not 2 <= args.members <= 256 or not 0 <= args.page_readers <= args.members
    ):
        p.error("--seconds positive, --members 2..256, --page-readers 0..--members")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    result = run_pairing(args) if args.part == "pairing" else asyncio.run(run_arena(args))
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
