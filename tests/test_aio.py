"""duelclub/aio.py: ``BackgroundLoop``, the one start/stop loop of background jobs (issue 15 §3)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from duelclub.aio import BackgroundLoop


async def _until(check: object, timeout: float = 2.0) -> None:
    async with asyncio.timeout(timeout):
        while not check():  # type: ignore[operator]
            await asyncio.sleep(0.001)


async def test_runs_its_step_until_stopped_and_stop_cancels_a_pass_in_flight() -> None:
    passes: list[int] = []
    inside = asyncio.Event()
    cancelled = asyncio.Event()

    async def step() -> None:
        passes.append(1)
        if len(passes) == 3:
            inside.set()
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                cancelled.set()
                raise

    loop = BackgroundLoop("test", 0.001, step)
    await loop.start()
    await loop.start()  # a second start does not make a second task
    await asyncio.wait_for(inside.wait(), 2)
    await asyncio.wait_for(loop.stop(), 2)
    assert cancelled.is_set() and not loop.running and len(passes) == 3
    await loop.stop()  # stopping twice is harmless


async def test_a_failing_pass_is_logged_and_the_loop_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    calls = 0

    async def step() -> None:
        nonlocal calls
        calls += 1
        if calls <= 5:
            raise RuntimeError(f"boom {calls}")

    logger = logging.getLogger("duelclub.test.loop")
    loop = BackgroundLoop("flaky", 0.001, step, logger=logger, log_every=3600)
    with caplog.at_level(logging.ERROR, logger="duelclub.test.loop"):
        await loop.start()
        await _until(lambda: calls >= 8)
        await loop.stop()
    assert loop.failures == 5
    failures = [r for r in caplog.records if r.name == "duelclub.test.loop"]
    assert len(failures) == 1, "repeated failures are rate-limited to one line per log_every"
    assert "flaky" in failures[0].getMessage() and failures[0].exc_info is not None


async def test_the_next_line_after_the_quiet_period_counts_what_was_left_out(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def step() -> None:
        raise ValueError("always")

    logger = logging.getLogger("duelclub.test.loop2")
    loop = BackgroundLoop("always", 0.001, step, logger=logger, log_every=0.05)
    with caplog.at_level(logging.ERROR, logger="duelclub.test.loop2"):
        await loop.start()
        await _until(lambda: len([r for r in caplog.records if r.name == "duelclub.test.loop2"]) >= 2)
        await loop.stop()
    second = [r for r in caplog.records if r.name == "duelclub.test.loop2"][1].getMessage()
    assert "more failures not logged" in second


async def test_a_pass_may_choose_the_next_delay_and_the_first_may_wait() -> None:
    loop_time = asyncio.get_running_loop().time
    times: list[float] = []

    async def step() -> float:
        times.append(loop_time())
        return 0.0 if len(times) < 3 else 3600.0

    started = loop_time()
    loop = BackgroundLoop("delays", 3600, step, first_delay=0.05)
    await loop.start()
    await _until(lambda: len(times) >= 3)
    await loop.stop()
    assert times[0] - started >= 0.04, "the first pass waits first_delay"
    assert times[2] - times[0] < 1.0, "a returned delay replaces the interval"
    assert len(times) == 3


async def test_stop_ends_the_loop_even_when_a_pass_swallows_the_cancellation() -> None:
    """On Python 3.11 ``asyncio.wait_for`` returns normally when the awaited event is set as a cancellation
    arrives (the tournament driver's kick during shutdown): the pass swallows the cancellation. The loop
    must still end, or the app's shutdown hangs (stop 34: a quarantined tournament test hung so)."""
    inside = asyncio.Event()
    passes: list[int] = []

    async def step() -> None:
        passes.append(1)
        inside.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            return  # swallowed, as wait_for does in the race

    loop = BackgroundLoop("swallow", 0.0, step)
    await loop.start()
    await _until(inside.is_set)
    stopping = asyncio.create_task(loop.stop())
    done, _ = await asyncio.wait({stopping}, timeout=2.0)
    assert done, "stop() hung: the loop went on after its pass swallowed the cancellation"
    assert passes == [1], "no pass after the stop"
    assert not loop.running
