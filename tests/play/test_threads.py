"""play/threads.py ``in_thread``: blocking work runs in the worker threads, in the caller's context — the
request's language reaches words written in the thread (a refusal worded there was Russian on a Ukrainian
page: stop 34 note)."""

from __future__ import annotations

import asyncio
import contextlib
import threading

from duelclub.i18n import _current, gettext, use_lang
from duelclub.play import threads
from duelclub.play.threads import WorkerThreads, in_thread, use_threads


async def test_the_thread_sees_the_callers_language_and_not_the_loops_thread() -> None:
    def where() -> tuple[str, str, str]:
        return threading.current_thread().name, _current.get(), gettext("Сдаться")

    with use_lang("uk"):
        name, lang, word = await in_thread(where)
    assert name.startswith("db") and (lang, word) == ("uk", "Здатися")
    with use_lang("ru"):
        assert (await in_thread(where))[1:] == ("ru", "Сдаться")


async def test_a_change_made_in_the_thread_stays_in_the_thread() -> None:
    def change() -> str:
        _current.set("uk")
        return _current.get()

    with use_lang("ru"):
        assert await in_thread(change) == "uk"
        assert _current.get() == "ru", "the caller's context is a copy, not shared"


async def test_errors_reach_the_caller_and_a_cancelled_caller_leaves_the_threads_working() -> None:
    """The hand-off without concurrent.futures (issue 29 §1): the thread's exception is raised in the
    caller; a caller cancelled while its work runs does not get the result, the work itself completes, and
    the threads go on serving."""

    def fail() -> None:
        raise LookupError("from the thread")

    try:
        await in_thread(fail)
    except LookupError as exc:
        assert str(exc) == "from the thread"
    else:
        raise AssertionError("the thread's error was lost")
    started, release, done = threading.Event(), threading.Event(), threading.Event()

    def slow() -> str:
        started.set()
        release.wait(5)
        done.set()
        return "late"

    task = asyncio.create_task(in_thread(slow))
    await asyncio.to_thread(started.wait, 5)
    task.cancel()
    release.set()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    assert task.cancelled()
    await asyncio.to_thread(done.wait, 5)
    assert done.is_set(), "a cancelled caller does not stop its work"
    assert await asyncio.gather(*(in_thread(pow, 2, n) for n in range(20))) == [2**n for n in range(20)]


def test_stop_lets_the_queued_jobs_finish_and_resizing_keeps_serving() -> None:
    pool = WorkerThreads(2)
    ran: list[int] = []
    loop = asyncio.new_event_loop()
    size = threads._threads.count
    try:
        futs = [loop.create_future() for _ in range(6)]
        for i, fut in enumerate(futs):
            pool.submit((loop, fut, "ru", ran.append, (i,)))
        pool.stop()
        assert sorted(ran) == list(range(6)), "every job queued before stop ran"
        loop.run_until_complete(asyncio.sleep(0))  # the results are handed to the loop
        assert all(f.done() and f.result() is None for f in futs)
        use_threads(3)
        assert loop.run_until_complete(in_thread(sum, [1, 2])) == 3
    finally:
        use_threads(size)
        loop.close()
