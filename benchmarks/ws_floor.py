"""The floor under benchmarks/load.py (issue 29 §1): the same players on a WebSocket server that does nothing.

Starts a minimal ASGI app under uvicorn, with the options ``duelclub serve`` gives it (cli.uvicorn_options:
the sans-I/O websockets protocol, no permessage-deflate, uvloop/httptools when installed), in a subprocess,
and plays ``--matches`` two-socket "matches" on it with benchmarks/loadkit.py's :class:`Player` — the client
of load.py, unchanged. The app keeps no game: each ``act`` is answered as our server answers it — with
``--frames 3`` an ``ack`` to the mover and a canned ``state`` (``--view-bytes`` of view, a dozen legal
actions, the next seq) to both sockets (three frames per action, web/ws.py before issue 29), with
``--frames 2`` the state to both sockets, the mover's carrying the ack (``"ack": id``, one frame per act). Its
CPU per acknowledged action is what uvicorn, websockets and asyncio cost for those frames alone: the floor
that load.py's ``cpu_ms_per_action`` is to be read against. With ``--pg`` each act is first stored, as our
server stores a move (one autocommit INSERT on an asyncio psycopg connection, awaited before the frames go
out) in a throw-away PostgreSQL database: the floor of a server that acknowledges only what is durable —
one wake more per action (the database's answer) than the echo. Prints the load average, acks/s, latency
and CPU ms per action; ``--json``: the last line is one JSON object.

    .venv/bin/python benchmarks/ws_floor.py --matches 50 --seconds 20
    .venv/bin/python benchmarks/ws_floor.py --matches 50 --seconds 20 --frames 2
    .venv/bin/python benchmarks/ws_floor.py --matches 50 --seconds 20 --frames 2 --think-ms 1000
    .venv/bin/python benchmarks/ws_floor.py --matches 50 --seconds 20 --frames 2 --think-ms 1000 --pg
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import loadkit as kit

LEGAL = [{"kind": "play", "card": i} for i in range(8)] + [{"kind": "discard", "card": i} for i in range(4)]


FLOOR_TABLE = (
    "CREATE TABLE IF NOT EXISTS floor_actions (match_id text, seq int, action json, created_at timestamptz,"
    " PRIMARY KEY (match_id, seq))"
)
FLOOR_INSERT = "INSERT INTO floor_actions VALUES (%s, %s, %s::json, now())"


def make_app(frames: int, view_bytes: int, pg_dsn: str | None = None) -> Any:
    """The ASGI app: ``/ws/matches/{id}`` sockets paired by match id, ``GET /api/games`` for readiness;
    with ``pg_dsn`` each act is stored before it is answered (the module docstring)."""
    store: list[Any] = []

    async def stored(match: str, seq: int, action: str) -> None:
        if pg_dsn is None:
            return
        if not store:
            import psycopg

            conn = await psycopg.AsyncConnection.connect(pg_dsn, autocommit=True)
            await conn.execute(FLOOR_TABLE)
            store.append(conn)
        await store[0].execute(FLOOR_INSERT, (match, seq, action), prepare=True)

    sockets: dict[str, list[Any]] = {}
    seqs: dict[str, int] = {}
    view = {"hand": [{"card": i, "name": "x" * 20} for i in range(6)], "pad": "v" * view_bytes}

    def state(match: str, seat: int, ack: str | None = None) -> str:
        seq = seqs.get(match, 0)
        msg: dict[str, Any] = {
            "type": "state", "seq": seq, "seat": seat, "status": "active", "view": view,
            "legal": LEGAL if seq % 2 == seat else [], "clock": None, "events": [], "result": None,
            "to_move": [seq % 2], "abortable": False,
        }  # fmt: skip
        if ack is not None:
            msg["ack"] = ack
        return json.dumps(msg, separators=(",", ":"))

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["type"] == "http":
            await receive()
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"[]"})
            return
        match = scope["path"].rsplit("/", 1)[-1]
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        peers = sockets.setdefault(match, [])
        seat = len(peers) % 2
        peers.append(send)
        await send({"type": "websocket.send", "text": state(match, seat)})
        while True:
            event = await receive()
            if event["type"] == "websocket.disconnect":
                peers.remove(send)
                return
            msg = json.loads(event["text"])
            if msg.get("type") != "act":
                continue
            seqs[match] = seqs.get(match, 0) + 1
            await stored(match, seqs[match], json.dumps(msg.get("action")))
            if frames == 3:
                await send({"type": "websocket.send", "text": json.dumps({"type": "ack", "id": msg["id"]})})
            for peer in list(peers):
                mine = peer is send
                text = state(match, seat if mine else 1 - seat, msg["id"] if mine and frames == 2 else None)
                await peer({"type": "websocket.send", "text": text})

    return app


def serve(port: int, frames: int, view_bytes: int, pg_dsn: str | None) -> None:
    import uvicorn

    from duelclub.cli import uvicorn_options
    from duelclub.settings import Settings

    options = uvicorn_options(Settings())
    uvicorn.run(
        make_app(frames, view_bytes, pg_dsn), host="127.0.0.1", port=port, log_level="warning", **options
    )


async def run(args: argparse.Namespace) -> dict[str, Any]:
    port = kit.free_port()
    cmd = [sys.executable, __file__, "--serve", str(port), "--frames", str(args.frames)]
    db = kit.BenchDatabase(Path("."), pg=True) if args.pg else None
    if db is not None:
        cmd += ["--pg-dsn", db.url.replace("postgresql+psycopg://", "postgresql://")]
    proc = subprocess.Popen([*cmd, "--view-bytes", str(args.view_bytes)], start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(timeout=1.0) as client:
            for _ in range(100):
                try:
                    if (await client.get(base + "/api/games")).status_code == 200:
                        break
                except httpx.HTTPError:
                    await asyncio.sleep(0.2)
        stats, api = kit.Stats(), kit.Api(kit.Stats())
        member = kit.Member(0, "floor", "none")
        think = args.think_ms / 1000
        players = [
            kit.Player(api, stats, member, f"m{j}", http=base, ws=f"ws://127.0.0.1:{port}", think=think)
            for j in range(args.matches)
            for _ in (0, 1)
        ]
        sockets = [await p.open() for p in players]
        await asyncio.sleep(1.0)
        cpu0, t0 = kit.cpu_seconds([proc.pid]), time.monotonic()
        until = t0 + args.seconds
        await asyncio.gather(*(p.play(until, s) for p, s in zip(players, sockets, strict=True)))
        cpu = kit.cpu_seconds([proc.pid]) - cpu0
        await api.close()
        return {
            "frames_per_action": args.frames,
            "pg": args.pg,
            "think_ms": args.think_ms,
            "load_avg": kit.load_average(),
            "acked": stats.acks,
            "acked_per_s": round(stats.acks / args.seconds, 1),
            **stats.latency_ms(),
            "cpu_ms_per_action": round(1000 * cpu / stats.acks, 3) if stats.acks else None,
        }
    finally:
        proc.terminate()
        proc.wait(10)
        if db is not None:
            db.drop()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matches", type=int, default=50)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--frames", type=int, choices=(2, 3), default=3, help="server frames per action")
    p.add_argument("--view-bytes", type=int, default=2000, help="padding of the canned view")
    p.add_argument("--think-ms", type=float, default=0.0, help="as load.py's: 0.5-1.5 x this before acting")
    p.add_argument("--pg", action="store_true", help="store each act in PostgreSQL before answering it")
    p.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--pg-dsn", default=None, help=argparse.SUPPRESS)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.serve is not None:
        serve(args.serve, args.frames, args.view_bytes, args.pg_dsn)
        return 0
    result = asyncio.run(run(args))
    print(
        f"# floor: {args.matches} matches, {args.frames} frames per action{', stored' if args.pg else ''};"
        f" load average {result['load_avg']}\n"
        f"  acknowledged {result['acked']} ({result['acked_per_s']}/s); p50 {result['p50_ms']} ms,"
        f" p99 {result['p99_ms']} ms; server CPU {result['cpu_ms_per_action']} ms per action"
    )
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
