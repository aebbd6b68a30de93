"""duelclub.aio.LeanQueue: the one-reader FIFO behind bus subscriptions."""

from __future__ import annotations

import asyncio

from duelclub.aio import LeanQueue
from duelclub.cli import uvicorn_options
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


def test_serve_runs_uvicorns_own_sansio_protocol_by_default() -> None:
    """Issue 29 §4: no subclass of a uvicorn class, no swapped private attribute."""
    options = uvicorn_options(Settings(DATABASE_URL="sqlite:///:memory:"))
    assert options["ws"] == "websockets-sansio"
