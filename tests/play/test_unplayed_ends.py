"""A rated match that ends before both players have made their first move is aborted and unrated (issue 31
§1, Lichess's rule), whatever ends it: a resignation, an abandonment claim, the clock. Each rated game, on
SQLite and PostgreSQL. A claim needs the claimant to be connected."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fake_clock import FakeClock
from support import new_users

from duelclub.play import lobby
from duelclub.play.errors import PlayError
from duelclub.play.presence import claim_win
from duelclub.play.service import MatchService
from duelclub.store import lobby as prepo
from duelclub.store import ratings
from duelclub.store.db import Database

RATED_GAMES = ["towers", "warchest", "artania"]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def svc(db: Database, clock: FakeClock, service_factory: Callable[..., MatchService]) -> MatchService:
    service = service_factory(db, bots=False)
    service.now = clock
    service.abandon_grace_seconds = 0
    return service


async def _rated(svc: MatchService, game: str, a: int, b: int, *, move_seconds: int | None = None) -> str:
    if game == "towers" and move_seconds is None:
        move_seconds = 3600  # Дві вежі between members always has a clock
    created = await lobby.create_match(
        svc, a, game=game, vs="invite", options=None, rated=True, move_seconds=move_seconds
    )
    assert created.invite_token is not None
    mid, _ = await lobby.accept_invite(svc, created.invite_token, b)
    assert (await svc.summary(mid)).rated
    return mid


async def _move(svc: MatchService, mid: str, uid: int) -> None:
    """``uid`` makes one move that is not a resignation (their first)."""
    st = await svc.state(mid, uid, None)
    action = next(a for a in st.legal if a.get("kind") != "resign")
    await svc.act(mid, uid, f"m{st.seq}", st.seq, action)


async def _resign(svc: MatchService, mid: str, uid: int) -> None:
    st = await svc.state(mid, uid, None)
    await svc.act(mid, uid, f"gg{st.seq}", st.seq, {"kind": "resign"})


async def _first_mover(svc: MatchService, mid: str) -> tuple[int, int]:
    """(the member to move first, the other one)."""
    live = await svc.fresh(mid)
    seat = min(live.to_move())
    first, other = live.record.seat_users[seat], live.record.seat_users[1 - seat]
    assert first is not None and other is not None
    return first, other


def _no_ratings(db: Database) -> None:
    with db.session() as s:
        assert ratings.snapshot(s) == ([], []), "the match moved no rating"


async def _assert_unplayed(svc: MatchService, mid: str, ended_by: str, at_fault: int) -> None:
    summary = await svc.summary(mid)
    assert summary.status == "aborted"
    assert summary.result is not None
    assert summary.result["winner"] is None
    assert summary.result["reason"] == "unplayed"
    assert summary.result["ended_by"] == ended_by
    live = await svc.fresh(mid)
    assert live.record.seat_users[summary.result["seat"]] == at_fault
    assert summary.server_seed is not None, "an ended match publishes its seed"


@pytest.mark.parametrize("game", RATED_GAMES)
async def test_a_resignation_before_anyone_moved_aborts_the_match_unrated(
    db: Database, svc: MatchService, game: str
) -> None:
    a, b = new_users(db, "una", "unb")
    mid = await _rated(svc, game, a, b)
    await _resign(svc, mid, a)
    await _assert_unplayed(svc, mid, "resign", a)
    _no_ratings(db)
    assert (await svc.fresh(mid)).actions[-1].action == {"kind": "resign"}, "the log keeps who resigned"


@pytest.mark.parametrize("game", RATED_GAMES)
async def test_a_resignation_after_one_first_move_aborts_the_match_unrated(
    db: Database, svc: MatchService, game: str
) -> None:
    a, b = new_users(db, "una", "unb")
    for resigner in ("mover", "other"):
        mid = await _rated(svc, game, a, b)
        first, other = await _first_mover(svc, mid)
        await _move(svc, mid, first)
        who = first if resigner == "mover" else other
        await _resign(svc, mid, who)
        await _assert_unplayed(svc, mid, "resign", who)
    _no_ratings(db)


@pytest.mark.parametrize("game", RATED_GAMES)
async def test_a_resignation_after_both_first_moves_is_rated(
    db: Database, svc: MatchService, game: str
) -> None:
    a, b = new_users(db, "una", "unb")
    mid = await _rated(svc, game, a, b)
    while len((await svc.fresh(mid)).moved) < 2:
        first, _ = await _first_mover(svc, mid)
        await _move(svc, mid, first)
    await _resign(svc, mid, a)
    summary = await svc.summary(mid)
    assert summary.status == "finished" and summary.result is not None
    assert summary.result["reason"] == "resign"
    with db.session() as s:
        assert {(c.user_id, c.score) for c in ratings.snapshot(s)[1]} == {(a, 0.0), (b, 1.0)}


@pytest.mark.parametrize("game", RATED_GAMES)
async def test_a_clock_running_out_before_both_first_moves_aborts_unrated(
    db: Database, svc: MatchService, clock: FakeClock, game: str
) -> None:
    a, b = new_users(db, "una", "unb")
    mid = await _rated(svc, game, a, b, move_seconds=60)
    first, _ = await _first_mover(svc, mid)
    await _move(svc, mid, first)
    while (await _first_mover(svc, mid))[0] == first:  # a card that plays again (Дві вежі): still theirs
        await _move(svc, mid, first)
    clock.advance(61)
    assert await svc.run_clock(mid)
    summary = await svc.summary(mid)
    assert summary.status == "aborted"
    assert summary.result is not None and summary.result["winner"] is None
    _no_ratings(db)


@pytest.mark.parametrize("game", ["warchest", "artania"])
async def test_a_claim_needs_the_claimant_connected(db: Database, svc: MatchService, game: str) -> None:
    a, b = new_users(db, "una", "unb")
    mid = await _rated(svc, game, a, b)
    with pytest.raises(PlayError) as err:
        await claim_win(svc, mid, a)  # neither ever opened a socket
    assert (err.value.status, err.value.code) == (409, "claimant_not_connected")
    assert (await svc.fresh(mid)).status == "active"
    _no_ratings(db)


@pytest.mark.parametrize("game", ["warchest", "artania"])
async def test_a_claim_before_both_first_moves_aborts_the_match_unrated(
    db: Database, svc: MatchService, clock: FakeClock, game: str
) -> None:
    a, b = new_users(db, "una", "unb")
    mid = await _rated(svc, game, a, b)
    seat_a = (await svc.fresh(mid)).seat_of(a)
    assert seat_a is not None
    with db.session() as s:
        prepo.seen(s, mid, seat_a, clock())
    clock.advance(1)
    await claim_win(svc, mid, a)
    await _assert_unplayed(svc, mid, "abandoned", b)
    _no_ratings(db)
