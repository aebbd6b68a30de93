"""The ``duelclub`` command (README §The ``duelclub`` command).

- ``duelclub serve [--host 127.0.0.1] [--port 8000] [--log-level info]`` — apply the migrations, start
  ``BOT_WORKERS`` bot worker processes (``bots/pool.py``; 0 = none), then serve the app (uvicorn); the workers
  stop with it (SIGINT, or SIGTERM: exit code 143 after the clean stop).
- ``duelclub bots [--workers N] [--metrics-port P] [--metrics-host H]`` — run N bot worker processes alone
  (default ``BOT_WORKERS``, at least 1), on any machine that reaches the same DATABASE_URL; until
  SIGTERM/SIGINT; with ``--metrics-port`` their think times are served at ``http://H:P/metrics``.
- ``duelclub migrate`` — apply the migrations (``alembic upgrade head``) to DATABASE_URL.
- ``duelclub create-admin USERNAME [--password-stdin | --password-file PATH]`` — create an admin, or promote
  an existing user (and set its password when one is given); without either option the password is asked for
  twice on the terminal (only when creating). The password is the first line of stdin or of the file (a
  secrets file of Docker or systemd), never a command-line argument (visible in ``ps``).
- ``duelclub set-password USERNAME [--password-stdin | --password-file PATH]`` — set a member's password (an
  admin's way to help a member with no confirmed address, issue 28 §2) and end every session of theirs; the
  password is read as for ``create-admin`` (asked twice on the terminal without an option).
- ``duelclub verify LOGFILE.json`` — check a finished match's log (exit 0 OK, 1 mismatch).
- ``duelclub ratings rebuild [--check]`` — recompute every rating from the finished rated matches, in the
  order they ended (issue 14); ``--check`` only compares with the stored ratings (exit 1 if they differ).
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import shutil
import signal
import sys
from collections.abc import Sequence
from typing import Any

from duelclub.logs import configure as configure_logging
from duelclub.settings import Settings

WS_MAX_FRAME_BYTES = 1024 * 1024


GC_THRESHOLDS = (50_000, 20, 100)
"""The cyclic collector's thresholds in a web worker (CPython's default: 700, 10, 10)."""


def tune_gc() -> None:
    """Keep the cyclic garbage collector off the hot path (issue 12: it took ~19 % of a busy worker's main
    thread, py-spy --native under benchmarks/load.py). The modules, games and tables loaded at start-up are
    frozen (never scanned again), and collections run after 50,000 new container objects instead of 700:
    the server's garbage is almost all acyclic (freed by reference counting), so this costs little memory."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The server options ``duelclub serve`` gives uvicorn (the tests' real servers use them too).

    - ``ws_max_size``: far above the app's own 64 KiB message cap (web/ws.py), far below uvicorn's 16 MiB
      default; a bigger frame is never buffered and the socket closes with 1009.
    - ``ws_per_message_deflate``: views are a few KB; compressing them cost more CPU and per-socket memory
      (a zlib context per socket) than the bandwidth is worth (issue 12, benchmarks/load.py).
    - ``ws``: the WebSocket implementation (``WS_PROTOCOL``), one of uvicorn's own, unchanged. Its sans-I/O
      one spent 7 % less CPU per acknowledged action and ~7 KB less per socket than the legacy
      ``websockets`` one, and served 20 % more actions/s (benchmarks/load.py --pg --matches 100, same run).
      A subclass of it with a lighter receive queue saved only ~3 KB a socket while swapping a private
      attribute of uvicorn's, so it was dropped (issue 29 §4).
    - ``ws_ping_interval`` (``WS_PING_SECONDS``, 60 s; uvicorn's default is 20 s): the server's WebSocket
      pings find a peer whose network vanished without a close (the page finds a dead server with pings of
      its own, web/ws.py). They were all of the CPU of idle sockets: 1,000 idle sockets cost 1.8–2.4 % of
      a core with a ping every 20 s and none measurable without pings (benchmarks/load.py --idle-sockets,
      issue 29 §4), each ping a timer, a frame out and a pong in. Every 60 s brings that to about a third;
      the price is that a vanished peer is seen gone after 60–80 s rather than 20–40 s (its seat shows
      «на связи» meanwhile; a closed tab or page is seen at once: its socket closes).
    - ``proxy_headers``/``forwarded_allow_ips`` (issue 13 §1.8): uvicorn believes ``X-Forwarded-For`` from
      127.0.0.1 unless told otherwise, so a local client could pass for any address and dodge the per-IP
      limits; here forwarded headers are read only from ``FORWARDED_ALLOW_IPS`` (empty by default: never,
      the client is the TCP peer)."""
    proxies = [p.strip() for p in settings.FORWARDED_ALLOW_IPS.split(",") if p.strip()]
    return {
        "ws_max_size": WS_MAX_FRAME_BYTES,
        "ws_per_message_deflate": settings.WS_PER_MESSAGE_DEFLATE,
        "ws": settings.WS_PROTOCOL,
        "ws_ping_interval": settings.WS_PING_SECONDS or None,
        "proxy_headers": bool(proxies),
        "forwarded_allow_ips": proxies or None,
    }


def served_public_url(settings: Settings, host: str, port: int) -> str:
    """``PUBLIC_URL`` as set, else the address this ``serve`` listens on (``http://host:port``; a wildcard
    host reads as 127.0.0.1), so the links in mails reach the server that ``make run PORT=…`` started."""
    if "PUBLIC_URL" in settings.model_fields_set:
        return settings.PUBLIC_URL
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    return f"http://[{shown}]:{port}" if ":" in shown else f"http://{shown}:{port}"


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from duelclub.bots.pool import WorkerPool
    from duelclub.web.app import create_app

    settings = Settings()
    settings.PUBLIC_URL = served_public_url(settings, args.host, args.port)
    configure_logging(settings.LOG_FORMAT, settings.LOG_LEVEL)
    _upgrade_or_exit(settings.DATABASE_URL)
    # uvicorn shuts down gracefully on SIGTERM, then raises the signal again to die "by it"; with the default
    # handler that would skip the ``finally`` below (bot workers left to the kernel, their metrics files left
    # in DATA_DIR). This handler turns it into SystemExit(143), the exit code of a process ended by SIGTERM.
    signal.signal(signal.SIGTERM, _exit_on_signal)
    # Bots never think in the web process (issue 12): their own processes, stopped when uvicorn returns
    # and killed by the kernel if this process dies (bots/pool.py). They write their think times to a
    # directory of this process, which /metrics reads (bots/metrics.py).
    metrics_dir = settings.DATA_DIR / "bot-metrics" / str(os.getpid()) if settings.BOT_WORKERS else None
    pool = WorkerPool(settings.BOT_WORKERS, metrics_dir=metrics_dir).start()
    app = create_app(settings, bot_metrics_dir=metrics_dir)
    tune_gc()
    try:
        options = uvicorn_options(settings)
        # log_config None: the root logger's handler (duelclub/logs.py) formats uvicorn's records too
        uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, log_config=None, **options)
    finally:
        pool.stop()
        if metrics_dir is not None:
            shutil.rmtree(metrics_dir, ignore_errors=True)
    return 0


def _exit_on_signal(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def _bots(args: argparse.Namespace) -> int:
    from duelclub.bots.pool import WorkerPool

    settings = Settings()
    count = args.workers if args.workers is not None else max(1, settings.BOT_WORKERS)
    if count < 1:
        print("--workers must be at least 1", file=sys.stderr)
        return 2
    configure_logging(settings.LOG_FORMAT, settings.LOG_LEVEL)
    metrics_dir = None
    if args.metrics_port is not None:  # their think times at http://<host>:<port>/metrics (bots/metrics.py)
        from prometheus_client import CollectorRegistry, start_http_server
        from prometheus_client.multiprocess import MultiProcessCollector

        metrics_dir = settings.DATA_DIR / "bot-metrics" / str(os.getpid())
        registry = CollectorRegistry()
        pool = WorkerPool(count, metrics_dir=metrics_dir)
        MultiProcessCollector(registry, path=str(metrics_dir))  # type: ignore[no-untyped-call]
        start_http_server(args.metrics_port, addr=args.metrics_host, registry=registry)
    else:
        pool = WorkerPool(count)

    def _stop(_signum: int, _frame: object) -> None:
        pool.stop()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    pool.start()
    print(f"{count} bot worker(s) on {settings.DATABASE_URL.split('@')[-1]}", flush=True)
    pool.wait()
    pool.stop()
    if metrics_dir is not None:
        shutil.rmtree(metrics_dir, ignore_errors=True)
    return 0


def _upgrade_or_exit(url: str) -> None:
    """``alembic upgrade head`` on ``url``; a database that cannot be reached (a PostgreSQL server down or
    refusing, a SQLite file or folder that cannot be made) ends the command with one line naming the database
    (password hidden) and the cause, exit code 1, instead of a traceback (issue 30 §papercuts)."""
    from sqlalchemy import exc as sa_exc
    from sqlalchemy.engine import make_url

    from duelclub.store.health import describe
    from duelclub.store.migrate import upgrade

    try:
        upgrade(url)
    except (sa_exc.OperationalError, sa_exc.InterfaceError, OSError) as exc:
        where = make_url(url).render_as_string(hide_password=True)
        raise SystemExit(f"duelclub: cannot reach the database {where}: {describe(exc)}") from None


def _migrate(_args: argparse.Namespace) -> int:
    _upgrade_or_exit(Settings().DATABASE_URL)
    print("migrated")
    return 0


def _given_password(args: argparse.Namespace) -> str | None:
    """The password of ``--password-stdin``/``--password-file`` (its first line), or None when neither."""
    if args.password_file is not None:
        try:
            with open(args.password_file, encoding="utf-8") as f:
                return f.readline().rstrip("\r\n")
        except OSError as exc:
            raise SystemExit(f"cannot read {args.password_file}: {exc.strerror}") from None
    if args.password_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    return None


def _ask_password() -> str:
    first = getpass.getpass("Password: ")
    if getpass.getpass("Again: ") != first:
        raise SystemExit("passwords differ")
    return first


def _create_admin(args: argparse.Namespace) -> int:
    from duelclub.store import users
    from duelclub.store.db import Database
    from duelclub.web.account_words import username_message

    try:
        users.check_username(args.username, allow_reserved=True)
    except users.BadUsername as exc:
        print(f"username: {username_message(exc)}", file=sys.stderr)
        return 2
    db = Database(Settings().DATABASE_URL)
    try:
        with db.session() as s:
            user = users.find_user(s, args.username)
            if user is not None:
                user.is_admin = True
                given = _given_password(args)
                if given is not None:
                    users.set_password(s, user, _check_password(given, user.username))
                print(f"{user.username} is now an admin")
                return 0
            given = _given_password(args)
            password = _check_password(_ask_password() if given is None else given, args.username)
            user = users.create_user(s, args.username, password, is_admin=True, allow_reserved=True)
            print(f"created admin {user.username}")
            return 0
    finally:
        db.dispose()


def _set_password(args: argparse.Namespace) -> int:
    from duelclub.store import account_tokens, sessions, users
    from duelclub.store.db import Database

    db = Database(Settings().DATABASE_URL)
    try:
        with db.session() as s:
            user = users.find_user(s, args.username)
            if user is None or user.deleted_at is not None:
                print(f"no member named {args.username}", file=sys.stderr)
                return 1
            given = _given_password(args)
            password = _check_password(_ask_password() if given is None else given, user.username)
            users.set_password(s, user, password)
            ended = sessions.end_user_sessions(s, user.id)
            account_tokens.revoke(s, user.id, "password_reset")
            print(f"password of {user.username} set; {ended} session(s) ended")
            return 0
    finally:
        db.dispose()


def _check_password(password: str, username: str) -> str:
    from duelclub.store import users
    from duelclub.web.account_words import password_message

    try:
        return users.check_new_password(password, username)
    except users.BadPassword as exc:
        raise SystemExit(f"password: {password_message(exc)}") from None


def _verify(args: argparse.Namespace) -> int:
    from duelclub.games.registry import get_game
    from duelclub.play.verify import verify_log

    try:
        with open(args.logfile, encoding="utf-8") as f:
            log = json.load(f)
    except (OSError, ValueError) as exc:
        print(f"cannot read {args.logfile}: {exc}", file=sys.stderr)
        return 1
    if not isinstance(log, dict):
        print("MISMATCH: the log is not a JSON object")
        return 1
    verdict = verify_log(log, get_game)
    if verdict.key is not None:
        print(f"match key K = {verdict.key}")
    print(verdict.message if verdict.ok else f"MISMATCH: {verdict.message}")
    return 0 if verdict.ok else 1


def _ratings_rebuild(args: argparse.Namespace) -> int:
    from duelclub.store import ratings
    from duelclub.store.db import Database

    settings = Settings()
    db = Database(settings.DATABASE_URL)
    try:
        with db.session() as s:
            before = ratings.snapshot(s)
            rated = ratings.rebuild(s, settings.rating_rules())
            after = ratings.snapshot(s)
            if args.check:
                s.rollback()
    finally:
        db.dispose()
    same = before == after
    verdict = "the stored ratings were reproduced exactly" if same else "the stored ratings DIFFERED"
    action = "checked" if args.check else "rebuilt"
    print(f"{action}: {rated} rated matches, {len(after[0])} ratings; {verdict}")
    return 0 if same or not args.check else 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="duelclub", description="duelclub server and tools")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="apply migrations and serve the app")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--log-level", default="info")
    serve.set_defaults(func=_serve)
    bots = sub.add_parser("bots", help="run bot worker processes (no web server)")
    bots.add_argument(
        "--workers", type=int, default=None, help="processes (default: BOT_WORKERS, at least 1)"
    )
    bots.add_argument(
        "--metrics-port", type=int, default=None, help="serve the bots' think times at :PORT/metrics"
    )
    bots.add_argument("--metrics-host", default="127.0.0.1", help="address of --metrics-port")
    bots.set_defaults(func=_bots)
    sub.add_parser("migrate", help="apply the database migrations").set_defaults(func=_migrate)
    admin = sub.add_parser("create-admin", help="create an admin or promote a user")
    admin.add_argument("username")
    source = admin.add_mutually_exclusive_group()
    source.add_argument("--password-stdin", action="store_true", help="read the password from stdin")
    source.add_argument("--password-file", metavar="PATH", help="read the password from a file's first line")
    admin.set_defaults(func=_create_admin)
    setpw = sub.add_parser("set-password", help="set a member's password and end their sessions")
    setpw.add_argument("username")
    source = setpw.add_mutually_exclusive_group()
    source.add_argument("--password-stdin", action="store_true", help="read the password from stdin")
    source.add_argument("--password-file", metavar="PATH", help="read the password from a file's first line")
    setpw.set_defaults(func=_set_password)
    verify = sub.add_parser("verify", help="verify a finished match from its /log JSON")
    verify.add_argument("logfile")
    verify.set_defaults(func=_verify)
    ratings = sub.add_parser("ratings", help="rating tools")
    ratings_sub = ratings.add_subparsers(dest="ratings_command", required=True)
    rebuild = ratings_sub.add_parser("rebuild", help="recompute every rating from the finished rated matches")
    rebuild.add_argument("--check", action="store_true", help="compare only; exit 1 on a difference")
    rebuild.set_defaults(func=_ratings_rebuild)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``duelclub`` console script; returns the exit code."""
    args = build_parser().parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
