"""Ratings through the match service (issue 14 §2, §8), on SQLite and PostgreSQL: a rated match changes both
ratings once, in the transaction that ends it, from the ratings held at the end; casual, bot and Межа
matches never change a rating; «Отменить партию» before both first actions ends a match without a result,
after them it is refused; ``duelclub ratings rebuild`` reproduces the stored ratings exactly."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from fake_clock import FakeClock
from support import new_users, transactions

from duelclub.cli import main as cli_main
from duelclub.play import abort, lobby
from duelclub.play.errors import PlayError
from duelclub.play.presence import claim_win
from duelclub.play.service import MatchService
from duelclub.ratings.glicko2 import Rating
from duelclub.ratings.rules import RatingRules, Side, rate_pair
from duelclub.store import lobby as presence_repo
from duelclub.store import matches as repo
from duelclub.store import ratings
from duelclub.store.db import Database


async def _duel(
    service: MatchService,
    a: int,
    b: int,
    *,
    game: str = "duel",
    options: dict[str, Any] | None = None,
    **kw: Any,
) -> str:
    created = await lobby.create_match(service, a, game=game, vs="invite", options=options or {}, **kw)
    assert created.invite_token is not None
    mid, _ = await lobby.accept_invite(service, created.invite_token, b)
    return mid


async def _first_moves(service: MatchService, mid: str, uids: dict[int, int]) -> None:
    """Both players make their first action."""
    while len((await service.fresh(mid)).moved) < 2:
        (seat,) = (await service.fresh(mid)).to_move()
        st = await service.state(mid, uids[seat], None)
        await service.act(mid, uids[seat], f"m{st.seq}", st.seq, st.legal[0])


async def _resign(service: MatchService, mid: str, uid: int) -> None:
    st = await service.state(mid, uid, None)
    await service.act(mid, uid, f"gg{st.seq}", st.seq, {"kind": "resign"})


def _snapshot(db: Database) -> tuple[list[ratings.RatingRecord], list[ratings.ChangeRecord]]:
    with db.session() as s:
        return ratings.snapshot(s)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def svc(db: Database, clock: FakeClock, service_factory: Callable[..., MatchService]) -> MatchService:
    service = service_factory(db, bots=False)
    service.now = clock
    return service


async def test_a_rated_match_changes_both_ratings_once_from_the_ratings_held_at_its_end(
    db: Database, svc: MatchService, clock: FakeClock
) -> None:
    a, b = new_users(db, "alice", "bob")
    mid = await _duel(svc, a, b)
    await _first_moves(svc, mid, {0: a, 1: b})
    clock.advance(30)
    await _resign(svc, mid, b)
    stored, changes = _snapshot(db)
    assert [(r.user_id, r.matches, r.wins, r.losses, r.streak) for r in stored] == [
        (a, 1, 1, 0, 1),
        (b, 1, 0, 1, -1),
    ]
    start = RatingRules().start
    won, lost = rate_pair(RatingRules(), Side(start, None), Side(start, None), 1.0, clock())
    assert [r.rating for r in stored] == [won, lost]
    assert {(c.user_id, c.score, c.before, c.after, c.at) for c in changes} == {
        (a, 1.0, start, won, clock()),
        (b, 0.0, start, lost, clock()),
    }
    assert round(won.rating) > 1500 > round(lost.rating)
    # At most once: rating the ended match again (a retried transaction, a second writer) changes nothing.
    with db.session() as s:
        record = repo.get_match(s, mid)
        assert record is not None
        assert ratings.rate_match(s, record, RatingRules()) == []
    assert _snapshot(db) == (stored, changes)
    # The next match starts from the ratings the first one left, their RD grown by the ten days between.
    first_end = clock()
    mid2 = await _duel(svc, b, a)
    await _first_moves(svc, mid2, {0: b, 1: a})
    clock.advance(86_400 * 10)
    await _resign(svc, mid2, b)
    _, changes = _snapshot(db)
    second = {c.user_id: c for c in changes if c.match_id == mid2}
    assert {uid: c.before for uid, c in second.items()} == {a: won, b: lost}
    b_after, a_after = rate_pair(RatingRules(), Side(lost, first_end), Side(won, first_end), 0.0, clock())
    assert (second[a].after, second[b].after) == (a_after, b_after)
    no_pause, _ = rate_pair(RatingRules(), Side(won, clock()), Side(lost, clock()), 1.0, clock())
    assert a_after.rd > no_pause.rd, "ten idle days widened the deviation first"


async def test_the_final_action_rates_the_match_in_its_one_transaction(
    db: Database, svc: MatchService
) -> None:
    a, b = new_users(db, "onea", "oneb")
    mid = await _duel(svc, a, b)
    await _first_moves(svc, mid, {0: a, 1: b})
    st = await svc.state(mid, b, None)
    with transactions(db) as counted:
        await svc.act_seq(mid, b, "final", st.seq, {"kind": "resign"})
    assert counted[0] == 1
    assert len(_snapshot(db)[1]) == 2


async def test_casual_bot_and_mezha_matches_never_change_a_rating(
    db: Database, svc: MatchService, service_factory: Callable[..., MatchService], clock: FakeClock
) -> None:
    a, b = new_users(db, "casa", "casb")
    casual = await _duel(svc, a, b, rated=False)
    mezha = await _duel(svc, a, b, game="mezha", options={"house": "olkha"})
    with_bots = service_factory(db)
    bot = await lobby.create_match(with_bots, a, game="duel", vs="bot", options={}, rated=True)
    for mid in (casual, mezha):
        assert (await svc.summary(mid)).rated is False
        await _first_moves(svc, mid, {0: a, 1: b})
        await _resign(svc, mid, b)
    assert (await with_bots.summary(bot.id)).rated is False
    await _resign(with_bots, bot.id, a)
    for mid in (casual, mezha, bot.id):
        assert (await svc.fresh(mid)).status == "finished"
    assert _snapshot(db) == ([], [])


async def test_an_abandonment_claim_is_an_ordinary_rated_result(
    db: Database, service_factory: Callable[..., MatchService], clock: FakeClock
) -> None:
    svc = service_factory(db, bots=False)
    svc.now = clock
    svc.abandon_grace_seconds = 0
    a, b = new_users(db, "clma", "clmb")
    mid = await _duel(svc, a, b)
    await _first_moves(svc, mid, {0: a, 1: b})
    clock.advance(60)
    with db.session() as s:
        presence_repo.seen(s, mid, 0, clock())  # the claimant is connected (issue 31 §1)
    await claim_win(svc, mid, a)
    _, changes = _snapshot(db)
    assert {(c.user_id, c.score) for c in changes} == {(a, 1.0), (b, 0.0)}


async def test_either_player_may_abort_until_both_have_made_their_first_action(
    db: Database, svc: MatchService
) -> None:
    a, b = new_users(db, "abra", "abrb")
    uids = {0: a, 1: b}
    untouched = await _duel(svc, a, b)
    assert (await svc.state(untouched, a, None)).abortable
    summary = await abort.abort(svc, untouched, b)
    assert summary.status == "aborted" and summary.server_seed is not None
    assert summary.result == {
        "winner": None,
        "reason": "player_abort",
        "reason_text": "отменена до первых ходов",
        "names": ["abra", "abrb"],
        "seat": 1,
    }

    one_moved = await _duel(svc, a, b)
    (seat,) = (await svc.fresh(one_moved)).to_move()
    st = await svc.state(one_moved, uids[seat], None)
    await svc.act(one_moved, uids[seat], "first", st.seq, st.legal[0])
    assert (await svc.state(one_moved, uids[seat], None)).abortable
    assert (await abort.abort(svc, one_moved, uids[seat])).status == "aborted"  # the one who moved, too

    both_moved = await _duel(svc, a, b)
    await _first_moves(svc, both_moved, uids)
    assert not (await svc.state(both_moved, a, None)).abortable
    with pytest.raises(PlayError) as err:
        await abort.abort(svc, both_moved, a)
    assert (err.value.status, err.value.code) == (409, "abort_too_late")
    assert _snapshot(db) == ([], []), "aborted matches are never rated"
    with pytest.raises(PlayError) as err:
        await abort.abort(svc, untouched, a)
    assert err.value.code == "match_not_active"
    c = new_users(db, "abrc")[0]
    with pytest.raises(PlayError) as err:
        await abort.abort(svc, both_moved, c)
    assert err.value.code == "not_your_seat"


async def test_a_match_against_a_bot_has_no_abort(
    db: Database, service_factory: Callable[..., MatchService]
) -> None:
    svc = service_factory(db)
    (a,) = new_users(db, "botabort")
    created = await lobby.create_match(svc, a, game="duel", vs="bot", options={})
    assert not (await svc.state(created.id, a, None)).abortable
    with pytest.raises(PlayError) as err:
        await abort.abort(svc, created.id, a)
    assert err.value.code == "abort_too_late"


async def test_the_rebuild_reproduces_the_stored_ratings_exactly(
    db: Database, svc: MatchService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """Four members, rated matches over weeks (resignations, claims, timeouts, draws by score), casual and
    aborted ones between them: ``duelclub ratings rebuild`` recomputes every rating and change, equal to the
    float, and ``--check`` says so."""
    users = new_users(db, "reba", "rebb", "rebc", "rebd")
    pairs = [(0, 1), (2, 3), (0, 2), (1, 3), (3, 0), (1, 2), (0, 1), (2, 0)]
    for n, (i, j) in enumerate(pairs * 2):
        a, b = users[i], users[j]
        mid = await _duel(svc, a, b, rated=n % 5 != 4, options={"rounds": 1 + n % 3})
        if n % 7 == 6:
            await abort.abort(svc, mid, a)
            continue
        await _first_moves(svc, mid, {0: a, 1: b})
        clock.advance(3600 * (1 + n * 7))
        live = await svc.fresh(mid)
        while live.status == "active":  # play on by the first legal action, sometimes resign
            (seat,) = live.to_move()
            uid = (a, b)[seat]
            if n % 3 == 0:
                await _resign(svc, mid, uid)
            else:
                st = await svc.state(mid, uid, None)
                await svc.act(mid, uid, f"p{st.seq}", st.seq, st.legal[0])
            live = await svc.fresh(mid)
    stored = _snapshot(db)
    assert len(stored[0]) == 4 and len(stored[1]) >= 16
    assert any(c.score == 0.5 for c in stored[1]) or any(c.score == 1.0 for c in stored[1])
    monkeypatch.setenv("DATABASE_URL", db.url)
    assert cli_main(["ratings", "rebuild", "--check"]) == 0
    assert "reproduced exactly" in capsys.readouterr().out
    with db.session() as s:  # tamper with one rating: --check sees it, rebuild repairs it
        s.execute(ratings.MemberRating.__table__.update().values(rating=ratings.MemberRating.rating + 1e-9))
    assert cli_main(["ratings", "rebuild", "--check"]) == 1
    assert cli_main(["ratings", "rebuild"]) == 0
    assert _snapshot(db) == stored
    assert cli_main(["ratings", "rebuild", "--check"]) == 0


async def test_two_matches_of_one_member_ending_at_once_on_two_workers_are_rated_one_after_the_other(
    db: Database, service_factory: Callable[..., MatchService]
) -> None:
    """The member's rating row is locked (PostgreSQL; SQLite has one writer): the second rating starts from
    the first one's result, never from the same stale rating."""
    one, two = service_factory(db, bots=False), service_factory(db, bots=False)
    a, b, c = new_users(db, "conca", "concb", "concc")
    first, second = await _duel(one, a, b), await _duel(two, a, c)
    await _first_moves(one, first, {0: a, 1: b})
    await _first_moves(two, second, {0: a, 1: c})
    await asyncio.gather(_resign(one, first, b), _resign(two, second, c))
    stored, changes = _snapshot(db)
    mine = sorted((ch for ch in changes if ch.user_id == a), key=lambda ch: ch.before.rd, reverse=True)
    assert len(mine) == 2
    assert mine[1].before == mine[0].after, "the second rating started from the first one's result"
    assert next(r for r in stored if r.user_id == a).matches == 2


def test_a_rated_result_is_read_from_the_match() -> None:
    """Only finished matches between two members marked rated count; the winner seat gives the score."""
    from datetime import UTC, datetime

    base = repo.MatchRecord(
        id="m",
        game="duel",
        options={},
        status="finished",
        seat_users=(1, 2),
        seat_bots=(None, None),
        invite_token=None,
        commitment="",
        server_seed="",
        client_seeds=("", ""),
        result={"winner": 1, "reason": "resign"},
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
        started_at=None,
        finished_at=None,
        move_seconds=None,
        deadline_at=None,
        rated=True,
    )
    import dataclasses

    assert ratings.score_of_seat0(base) == 0.0
    assert ratings.score_of_seat0(dataclasses.replace(base, result={"winner": 0})) == 1.0
    assert ratings.score_of_seat0(dataclasses.replace(base, result={"winner": None})) == 0.5
    for other in (
        dataclasses.replace(base, rated=False),
        dataclasses.replace(base, status="aborted"),
        dataclasses.replace(base, seat_users=(1, None), seat_bots=(None, "easy")),
        dataclasses.replace(base, seat_users=(1, 1)),
    ):
        assert ratings.score_of_seat0(other) is None
    assert Rating(1500, 350, 0.06) == RatingRules().start
