"""The act hot path costs one transaction (issue 12 §2): counted as connections checked out of the
service's own engine, on SQLite and PostgreSQL. A stale cache (another worker wrote meanwhile) costs one
read more and never a wrong write; a presence heartbeat is one transaction per worker, whatever the number
of seats."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from support import duel_between, new_users, transactions

from duelclub.play.errors import PlayError
from duelclub.play.presence import PresenceTracker
from duelclub.play.service import MatchService
from duelclub.store import lobby as prepo
from duelclub.store.db import Database


async def _turn(service: MatchService, mid: str, uids: dict[int, int]) -> tuple[int, int, dict[str, Any]]:
    """(user id, seq, first legal action) of the player to move."""
    live = await service.get_live(mid)
    (seat,) = live.to_move()
    st = await service.state(mid, uids[seat], None)
    return uids[seat], st.seq, st.legal[0]


@pytest.mark.parametrize("started", [False, True], ids=["thread_path", "started"])
async def test_an_act_on_a_warm_cache_is_one_transaction(
    db: Database, service_factory: Callable[..., MatchService], started: bool
) -> None:
    """Also once started: on PostgreSQL its moves are then written from the event loop (store/pg_writer.py),
    one autocommit statement each."""
    service = service_factory(db, bots=False)
    if started:
        await service.start()
    a, b = new_users(db, "hota", "hotb")
    mid = await duel_between(service, a, b)
    uids = {0: a, 1: b}
    for n in range(4):
        uid, seq, action = await _turn(service, mid, uids)
        with transactions(db, service) as counted:
            assert await service.act_seq(mid, uid, f"c{n}", seq, action) == seq + 1
        assert counted[0] == 1, f"act {n}: {counted[0]} transactions"


async def test_a_stale_cache_catches_up_after_the_key_refuses_it(
    db: Database, service_factory: Callable[..., MatchService]
) -> None:
    """Two workers on one database: B's cache misses A's move. A player on B who saw the old state is
    refused by the (match_id, seq) key (stale_seq) and B catches up; nothing is stored twice."""
    one, two = service_factory(db, bots=False), service_factory(db, bots=False)
    a, b = new_users(db, "stalea", "staleb")
    mid = await duel_between(one, a, b)
    uids = {0: a, 1: b}
    await two.get_live(mid)  # B caches the match at seq 0
    uid, seq, action = await _turn(one, mid, uids)
    await one.act_seq(mid, uid, "first", seq, action)  # stored through A
    live_b = await two.get_live(mid)
    assert live_b.seq == 0  # B has not heard
    with pytest.raises(PlayError) as err:
        await two.act_seq(mid, uid, "again", seq, action)  # the same seat, the old seq, through B
    assert err.value.code in ("stale_seq", "not_your_turn")
    assert live_b.seq == 1  # caught up by the refusal
    # A resend of the first action's id through B answers its seq, and stores nothing.
    assert await two.act_seq(mid, uid, "first", seq, action) == 1
    with db.session() as s:
        from duelclub.store import matches as repo

        assert repo.last_seq(s, mid) == 1
    # A player who saw seq 1 acting through B: B is current now — one transaction.
    uid, seq, action = await _turn(two, mid, uids)
    with transactions(db) as counted:
        await two.act_seq(mid, uid, "second", seq, action)
    assert counted[0] == 1


async def test_a_player_ahead_of_the_cache_makes_it_catch_up_first(
    db: Database, service_factory: Callable[..., MatchService]
) -> None:
    one, two = service_factory(db, bots=False), service_factory(db, bots=False)
    a, b = new_users(db, "aheada", "aheadb")
    mid = await duel_between(one, a, b)
    uids = {0: a, 1: b}
    await two.get_live(mid)
    uid, seq, action = await _turn(one, mid, uids)
    await one.act_seq(mid, uid, "m1", seq, action)
    uid, seq, action = await _turn(one, mid, uids)  # the next player saw seq 1 (through A's push)
    assert await two.act_seq(mid, uid, "m2", seq, action) == seq + 1  # B reads, then stores


async def test_a_heartbeat_is_one_transaction_for_all_seats_of_the_worker(
    db: Database, service_factory: Callable[..., MatchService]
) -> None:
    service = service_factory(db, bots=False)
    tracker = PresenceTracker(service)
    a, b = new_users(db, "beata", "beatb")
    mids = [await duel_between(service, a, b) for _ in range(5)]
    for mid in mids:
        for seat in (0, 1):
            await tracker.connected(mid, seat)
    later = service.now() + timedelta(seconds=5)
    service.now = lambda: later
    with transactions(db) as counted:
        await tracker.beat()
    assert counted[0] == 1
    for mid in mids:
        after = _presence(db, mid)
        assert all(after[seat].seen_at == later for seat in (0, 1))


def _presence(db: Database, mid: str) -> dict[int, prepo.PresenceRecord]:
    with db.session() as s:
        return prepo.presence(s, mid)


async def test_a_resignation_is_never_stale(
    db: Database, service_factory: Callable[..., MatchService]
) -> None:
    """A resignation sent from an older state (a bot's or the opponent's move landed first) still counts:
    resigning is legal in every state of an active match. Any other action from that state is stale."""
    service = service_factory(db, bots=False)
    a, b = new_users(db, "resa", "resb")
    mid = await duel_between(service, a, b)
    uids = {0: a, 1: b}
    uid, seq, action = await _turn(service, mid, uids)
    await service.act_seq(mid, uid, "move", seq, action)
    other = b if uid == a else a
    with pytest.raises(PlayError) as err:
        await service.act_seq(mid, other, "late", seq, {"kind": "draw"})
    assert err.value.code == "stale_seq"
    assert await service.act_seq(mid, other, "gg", seq, {"kind": "resign"}) == seq + 2
    live = await service.get_live(mid)
    # rated, and ``other`` had not moved yet: the match ends aborted, unplayed (issue 31 §1)
    assert live.status == "aborted" and live.record.result is not None
    assert (live.record.result["reason"], live.record.result["ended_by"]) == ("unplayed", "resign")
    assert live.record.result["seat"] == (1 if other == b else 0)
