"""Liveness, readiness and metrics of one worker process (issue 18 §1: ``/readyz`` reports an outage).

- ``GET /healthz`` → 200 ``{"status": "ok"}`` while the process serves requests at all.
- ``GET /readyz`` → 200 ``{"database": "ok", "bus": "ok"}``, or 503 with ``"down"`` for what is down:
  the database when ``SELECT 1`` fails or takes over :data:`DATABASE_TIMEOUT` seconds (run in a worker
  thread), the bus when ``bus.healthy`` is False (Redis unreachable; the in-process bus is always up).
  While the bus is down the worker still serves its own players; other workers' players catch up later.
- ``GET /metrics`` → this process's Prometheus metrics (``app.state.metrics``: bus/metrics.py,
  play/metrics.py, web/observe.py, and the local bot workers' think times, bots/metrics.py), for clients
  from ``METRICS_ALLOW_IPS`` (addresses or networks; loopback by default) or with ``Authorization: Bearer
  <METRICS_TOKEN>``; anyone else gets 403 ``forbidden``.
"""

from __future__ import annotations

import functools
import ipaddress
import secrets
from typing import Any

import anyio
from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import text

from duelclub.settings import Settings
from duelclub.store.db import Database
from duelclub.web.errors import ApiError

router = APIRouter(tags=["health"])
DATABASE_TIMEOUT = 2.0


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """The process is alive."""
    return {"status": "ok"}


def _select_one(db: Database) -> None:
    with db.read_engine.connect() as conn:
        conn.execute(text("SELECT 1"))


async def _database_ok(db: Database) -> bool:
    with anyio.move_on_after(DATABASE_TIMEOUT):
        try:
            await anyio.to_thread.run_sync(_select_one, db, abandon_on_cancel=True)
        except Exception:
            return False
        return True
    return False


@router.get("/readyz", responses={503: {"description": "the database or the bus is down"}})
async def readyz(request: Request) -> Any:
    """``{"database": "ok"|"down", "bus": "ok"|"down"}``; 503 unless both are ok."""
    found = {
        "database": "ok" if await _database_ok(request.app.state.db) else "down",
        "bus": "ok" if request.app.state.bus.healthy else "down",
    }
    ready = all(v == "ok" for v in found.values())
    return JSONResponse(found, status_code=200 if ready else 503)


def metrics_allowed(request: Request) -> bool:
    """Whether this client may read ``/metrics`` (see the module docstring)."""
    settings: Settings = request.app.state.settings
    token = settings.METRICS_TOKEN
    if token:
        given = request.headers.get("authorization", "")
        if given.startswith("Bearer ") and secrets.compare_digest(given[7:].encode(), token.encode()):
            return True
    host = request.client.host if request.client is not None else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in network for network in _networks(settings.METRICS_ALLOW_IPS))


@functools.cache
def _networks(spec: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(p.strip(), strict=False) for p in spec.split(",") if p.strip())


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """Prometheus text exposition of this worker's metrics; 403 ``forbidden`` for other clients."""
    if not metrics_allowed(request):
        raise ApiError(403, "forbidden", "metrics are for the monitoring only")
    return Response(generate_latest(request.app.state.metrics), media_type=CONTENT_TYPE_LATEST)
