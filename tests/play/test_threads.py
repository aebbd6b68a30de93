"""play/threads.py ``in_thread``: blocking work runs in the worker threads, in the caller's context — the
request's language reaches words written in the thread (a refusal worded there was Russian on a Ukrainian
page: stop 34 note)."""

from __future__ import annotations

import threading

from duelclub.i18n import _current, gettext, use_lang
from duelclub.play.threads import in_thread


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
