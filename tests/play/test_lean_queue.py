"""duelclub.aio.LeanQueue: the one-reader FIFO behind bus subscriptions and the WebSocket protocol."""

from __future__ import annotations

import asyncio

from duelclub.aio import LeanQueue
from duelclub.cli import LEAN_WS_PROTOCOL, uvicorn_options
from duelclub.settings import Settings


async def test_items_come_out_in_order_and_a_waiting_reader_wakes() -> None:
    q = LeanQueue[int]()
    assert q.empty()
    reader = asyncio.create_task(q.get())
    await asyncio.sleep(0)
    assert not reader.done()
    q.put_nowait(1)
    q.put_nowait(2)
    assert await asyncio.wait_for(reader, 1) == 1
    assert not q.empty()
    assert await q.get() == 2
    assert q.empty()


async def test_a_cancelled_reader_leaves_the_queue_usable() -> None:
    q = LeanQueue[str]()
    reader = asyncio.create_task(q.get())
    await asyncio.sleep(0)
    reader.cancel()
    await asyncio.gather(reader, return_exceptions=True)
    q.put_nowait("x")
    assert await asyncio.wait_for(q.get(), 1) == "x"


def test_serve_runs_the_lean_protocol_by_default() -> None:
    options = uvicorn_options(Settings(DATABASE_URL="sqlite:///:memory:"))
    assert options["ws"] == LEAN_WS_PROTOCOL
