"""The ended-session flag of a match socket (web/ws.py ``MatchSocket.must_recheck``): a check under way
does not clear a notice that arrived during it, and an act waiting on a check is refused."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace
from typing import Any

import pytest

from duelclub.settings import Settings
from duelclub.web import ws as wsmod
from duelclub.web.deps import UserInfo


def _socket() -> wsmod.MatchSocket:
    settings = Settings(DATABASE_URL="sqlite://", SECRET_KEY="x" * 40)  # the socket's limits come from them
    fake_ws: Any = SimpleNamespace(app=SimpleNamespace(state=SimpleNamespace(settings=settings)))
    return wsmod.MatchSocket(fake_ws, Any, "m1", UserInfo(id=1, username="alice", is_admin=False))  # type: ignore[arg-type]


async def test_a_notice_during_a_check_keeps_the_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    reading, release = threading.Event(), threading.Event()

    def slow_lookup(_conn: Any) -> UserInfo:
        reading.set()
        release.wait(5)
        return UserInfo(id=1, username="alice", is_admin=False)  # read before the second session ended

    monkeypatch.setattr(wsmod, "optional_user", slow_lookup)
    sock = _socket()
    sock.must_recheck = True
    check = asyncio.create_task(sock.session_alive())
    await asyncio.to_thread(reading.wait, 5)
    sock.must_recheck = True  # another session ended while the lookup was under way
    release.set()
    assert await check is True
    assert sock.must_recheck  # the second notice still needs its own check


async def test_a_check_that_passes_clears_the_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wsmod, "optional_user", lambda _c: UserInfo(id=1, username="alice", is_admin=False))
    sock = _socket()
    sock.must_recheck = True
    assert await sock.session_alive() is True
    assert not sock.must_recheck


async def test_a_check_that_fails_keeps_the_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wsmod, "optional_user", lambda _c: None)
    sock = _socket()
    sock.must_recheck = True
    assert await sock.session_alive() is False
    assert sock.must_recheck  # an act arriving meanwhile checks again instead of going through
