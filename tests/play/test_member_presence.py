"""The site-socket presence of members (play/member_presence.py, issue 28 §3): the first socket writes the
member seen, a page change within a heartbeat writes nothing more, the heartbeat keeps every member with a
socket seen in one transaction, and a closed socket leaves the member to go stale."""

from __future__ import annotations

from collections.abc import Callable

from fake_clock import FakeClock
from support import new_users, transactions

from duelclub.play.member_presence import MemberPresence
from duelclub.play.service import MatchService
from duelclub.store import notices
from duelclub.store.db import Database


def _seen(db: Database, user_id: int) -> object:
    with db.session() as s:
        return notices.last_seen(s, user_id)


async def test_sockets_write_the_member_seen_once_per_heartbeat(
    db: Database, service_factory: Callable[..., MatchService]
) -> None:
    clock = FakeClock()
    service = service_factory(db)
    service.now = clock
    anna, boris = new_users(db, "anna", "boris")
    tracker = MemberPresence(service, heartbeat=10)
    start = clock.t
    await tracker.connected(anna)
    assert _seen(db, anna) == start and tracker.online_here(anna)
    with transactions(db) as counted:
        for _ in range(3):  # page changes: the socket closes and the next page's opens
            tracker.disconnected(anna)
            clock.advance(2)
            await tracker.connected(anna)
        await tracker.connected(anna)  # a second tab
    assert counted[0] == 0 and _seen(db, anna) == start
    clock.advance(5)
    await tracker.connected(boris)
    await tracker.beat()  # both members, one transaction
    assert _seen(db, anna) == _seen(db, boris) == clock.t
    tracker.disconnected(anna)
    tracker.disconnected(anna)
    assert not tracker.online_here(anna) and tracker.online_here(boris)
    beat_at = clock.t
    clock.advance(10)
    await tracker.beat()
    assert _seen(db, anna) == beat_at and _seen(db, boris) == clock.t  # anna goes stale
