"""Дві вежі's duel clock through the match service (rules/towers.md §9, D24, D39): a duel between members
with 15-second moves; once both players have made their first move (before that a timeout aborts the match,
issue 14 §2), each expiry discards the worst card as a logged ``clock`` action and ends the turn, and a
seat's third consecutive timeout loses. The clock is a FakeClock: no real seconds pass."""

from __future__ import annotations

from typing import Any

import pytest
from fake_clock import FakeClock

from duelclub.bus import MemoryBus
from duelclub.play import lobby
from duelclub.play.service import MatchService
from duelclub.store import matches as repo
from duelclub.store import users
from duelclub.store.db import Database

towers = pytest.importorskip("duelclub.games.towers")


@pytest.fixture
def service(db: Database) -> Any:
    svc = MatchService(db, MemoryBus(), {"towers": towers.GAME}, None, now=FakeClock())
    yield svc


async def test_a_towers_duel_with_15_second_moves_ends_on_the_third_consecutive_timeout(
    db: Database, service: MatchService
) -> None:
    clock: FakeClock = service.now  # type: ignore[assignment]
    with db.session() as s:
        a, b = (users.create_user(s, n, "password123").id for n in ("alice", "bob"))
    created = await lobby.create_match(service, a, game="towers", vs="invite", options={}, move_seconds=15)
    assert created.invite_token is not None
    mid, _ = await lobby.accept_invite(service, created.invite_token, b, "beef")
    sweeper = service.clock_sweeper()
    uids = {0: a, 1: b}
    while len((await service.fresh(mid)).moved) < 2:  # both players' first moves (a card may play again)
        (seat,) = (await service.fresh(mid)).to_move()
        st = await service.state(mid, uids[seat], None)
        await service.act(mid, uids[seat], f"open{st.seq}", st.seq, st.legal[0])
    opened = (await service.fresh(mid)).seq
    first = (await service.state(mid, a, None)).to_move[0]
    seats: list[int] = []
    for _ in range(5):
        clock.advance(14.999)
        assert await sweeper.sweep() == 0, "the clock ran out early"
        clock.advance(0.001)
        live = await service.fresh(mid)
        hand_before = list(towers.GAME.view(live.state, min(live.to_move()))["hand"])
        assert await sweeper.sweep() == 1
        live = await service.fresh(mid)
        seat = live.actions[-1].seat
        seats.append(seat)
        events = live.events[-1]
        timeout = next(e for e in events if e["kind"] == "timeout")
        assert timeout["seat"] == seat
        if len(seats) < 5:
            discard = next(e for e in events if e["kind"] == "discard")
            assert discard["tag"] == "timeout_discard" and discard["card"] in hand_before
            assert live.status == "active"
    # the seats alternate; the first player's third timeout (the fifth in all) loses
    assert seats == [first, 1 - first, first, 1 - first, first]
    with db.session() as s:
        record = repo.get_match(s, mid)
        log = repo.actions_after(s, mid)
    assert record is not None and record.status == "finished"
    assert record.result is not None
    assert (record.result["winner"], record.result["reason"]) == (1 - first, "timeout")
    assert [(e.source, e.action) for e in log[opened:]] == [("clock", {"kind": "timeout"})] * 5
    assert record.deadline_at is None


async def test_a_towers_invite_without_a_chosen_move_time_gets_the_default_clock(db: Database) -> None:
    svc = MatchService(db, MemoryBus(), {"towers": towers.GAME}, None)
    with db.session() as s:
        a = users.create_user(s, "alice", "password123").id
    created = await lobby.create_match(svc, a, game="towers", vs="invite", options={})
    with db.session() as s:
        record = repo.get_match(s, created.id)
    assert record is not None and record.move_seconds == 60  # required: the default T
