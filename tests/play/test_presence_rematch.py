"""Presence and abandonment (play/presence.py), rematch (play/rematch.py), through the match service with a
FakeClock: a claim too early is refused, after the grace period it wins, and the log still verifies."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fake_clock import FakeClock

from duelclub.play import lobby, presence, rematch
from duelclub.play.errors import PlayError
from duelclub.play.presence import PresenceTracker
from duelclub.play.service import MatchService
from duelclub.play.verify import verify_log
from duelclub.store import users
from duelclub.store.db import Database

GRACE = 60.0


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def service(db: Database, clock: FakeClock, service_factory: Callable[..., MatchService]) -> MatchService:
    svc = service_factory(db)
    svc.now = clock
    svc.abandon_grace_seconds = GRACE
    return svc


def _users(db: Database, *names: str) -> list[int]:
    with db.session() as s:
        return [users.create_user(s, n, "password123").id for n in names]


async def _match(
    service: MatchService, a: int, b: int, seconds: int | None = None, rated: bool | None = None
) -> str:
    created = await lobby.create_match(
        service, a, game="duel", vs="invite", options={}, move_seconds=seconds, rated=rated
    )
    assert created.invite_token is not None
    mid, _ = await lobby.accept_invite(service, created.invite_token, b)
    return mid


async def _claim_code(service: MatchService, mid: str, uid: int) -> str:
    with pytest.raises(PlayError) as err:
        await presence.claim_win(service, mid, uid)
    return err.value.code


async def test_a_claim_before_the_grace_period_is_refused_and_after_it_wins(
    db: Database, service: MatchService, clock: FakeClock
) -> None:
    a, b = _users(db, "alice", "bob")
    mid = await _match(service, a, b, rated=False)  # casual: a rated one would end unplayed (issue 31 §1)
    tracker = PresenceTracker(service)
    await tracker.connected(mid, 0)
    await tracker.connected(mid, 1)
    seen = await presence.presence(service, mid, a)
    assert [s.online for s in seen.seats] == [True, True] and seen.claim_at is None
    assert await _claim_code(service, mid, a) == "opponent_connected"
    left_at = clock.advance(5)
    await tracker.disconnected(mid, 1)
    seen = await presence.presence(service, mid, a)
    assert [s.online for s in seen.seats] == [True, False]
    assert seen.seats[1].away_since == left_at and not seen.can_claim
    clock.advance(GRACE - 1)
    await tracker.beat()  # alice's socket is still there
    assert await _claim_code(service, mid, a) == "claim_too_early"
    assert await _claim_code(service, mid, b) == "opponent_connected"  # bob is the absent one
    clock.advance(1)
    await tracker.beat()
    assert (await presence.presence(service, mid, a)).can_claim
    await presence.claim_win(service, mid, a)
    summary = await service.summary(mid)
    assert summary.status == "finished"
    assert summary.result is not None
    assert (summary.result["winner"], summary.result["reason"]) == (0, "abandoned")
    log = (await service.match_log(mid, a, False)).model_dump(mode="json")
    assert verify_log(log, service.game).ok


async def test_a_player_who_comes_back_in_time_keeps_the_match(
    db: Database, service: MatchService, clock: FakeClock
) -> None:
    a, b = _users(db, "alice", "bob")
    mid = await _match(service, a, b)
    tracker = PresenceTracker(service)
    await tracker.connected(mid, 1)
    await tracker.disconnected(mid, 1)
    clock.advance(GRACE - 10)
    await tracker.connected(mid, 1)  # reconnected
    clock.advance(20)
    await tracker.beat()
    assert await _claim_code(service, mid, a) == "opponent_connected"


async def test_an_opponent_who_never_connected_is_away_since_the_start(
    db: Database, service: MatchService, clock: FakeClock
) -> None:
    a, b = _users(db, "alice", "bob")
    mid = await _match(service, a, b, rated=False)
    tracker = PresenceTracker(service)
    clock.advance(GRACE)
    assert await _claim_code(service, mid, a) == "claimant_not_connected"  # neither came (issue 31 §1)
    await tracker.connected(mid, 0)
    await presence.claim_win(service, mid, a)
    assert (await service.summary(mid)).status == "finished"


async def test_a_stale_heartbeat_counts_as_gone(
    db: Database, service: MatchService, clock: FakeClock
) -> None:
    """A worker that died without saying goodbye: the seat goes offline once its heartbeat is stale."""
    a, b = _users(db, "alice", "bob")
    mid = await _match(service, a, b)
    await PresenceTracker(service).connected(mid, 1)
    clock.advance(presence.OFFLINE_AFTER_SECONDS + 1)
    assert not (await presence.presence(service, mid, a)).seats[1].online


async def test_no_claim_in_a_clocked_match_or_against_a_bot_or_from_a_spectator(
    db: Database, service: MatchService, clock: FakeClock
) -> None:
    a, b, c = _users(db, "alice", "bob", "carol")
    clocked = await _match(service, a, b, seconds=30)
    clock.advance(GRACE * 10)
    assert await _claim_code(service, clocked, a) == "claim_not_allowed"
    vs_bot = await lobby.create_match(service, a, game="duel", vs="bot", options={})
    assert await _claim_code(service, vs_bot.id, a) == "claim_not_allowed"
    plain = await _match(service, a, b)
    assert await _claim_code(service, plain, c) == "not_your_seat"


# -- rematch ---------------------------------------------------------------------------------------
async def _finished(service: MatchService, a: int, b: int, seconds: int | None = 30) -> str:
    mid = await _match(service, a, b, seconds)
    st = await service.state(mid, b, None)
    await service.act(mid, b, "gg", st.seq, {"kind": "resign"})
    return mid


async def test_a_rematch_has_the_same_options_and_clock_with_seats_swapped(
    db: Database, service: MatchService
) -> None:
    a, b = _users(db, "alice", "bob")
    old = await _finished(service, a, b)
    offer = await rematch.offer_or_accept(service, old, a, "aa")
    assert (offer.status, offer.offered_by) == ("open", 0)
    again = await rematch.offer_or_accept(service, old, a)
    assert again.id == offer.id and again.status == "open"  # offering twice changes nothing
    assert (await rematch.rematch_of(service, old)) == offer
    accepted = await rematch.offer_or_accept(service, old, b, "bb")
    assert (accepted.id, accepted.status) == (offer.id, "active")
    new = (await service.fresh(offer.id)).record
    old_record = (await service.fresh(old)).record
    assert new.seat_users == (b, a) and new.client_seeds == ("bb", "aa")
    assert (new.options, new.move_seconds) == (old_record.options, 30)
    assert new.deadline_at is not None and new.rematch_of == old


async def test_a_declined_rematch_is_closed(db: Database, service: MatchService) -> None:
    a, b, c = _users(db, "alice", "bob", "carol")
    old = await _finished(service, a, b)
    offer = await rematch.offer_or_accept(service, old, b)
    with pytest.raises(PlayError) as err:
        await lobby.cancel_invite(service, offer.id, c)
    assert err.value.code == "not_your_match"
    await lobby.cancel_invite(service, offer.id, a)  # alice declines
    with pytest.raises(PlayError) as err:
        await rematch.offer_or_accept(service, old, a)
    assert err.value.code == "rematch_closed"


async def test_no_rematch_of_a_running_match_or_by_a_spectator(db: Database, service: MatchService) -> None:
    a, b, c = _users(db, "alice", "bob", "carol")
    running = await _match(service, a, b)
    with pytest.raises(PlayError) as err:
        await rematch.offer_or_accept(service, running, a)
    assert err.value.code == "match_not_finished"
    done = await _finished(service, a, b)
    with pytest.raises(PlayError) as err:
        await rematch.offer_or_accept(service, done, c)
    assert err.value.code == "not_your_seat"


async def test_a_rematch_against_a_bot_starts_at_once(db: Database, service: MatchService) -> None:
    (a,) = _users(db, "alice")
    created = await lobby.create_match(service, a, game="duel", vs="bot", options={"rounds": 1})
    st = await service.state(created.id, a, None)
    await service.act(created.id, a, "gg", st.seq, {"kind": "resign"})
    again: Any = await rematch.offer_or_accept(service, created.id, a)
    assert again.status == "active"
    record = (await service.fresh(again.id)).record
    assert record.seat_bots == (None, "easy") and record.options["rounds"] == 1
