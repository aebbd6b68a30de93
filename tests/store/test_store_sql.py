"""Persistence on SQLite and PostgreSQL: migrations, constraints, the append-only log, replay after a
restart, and two workers racing for one seq (DESIGN.md §Persistence)."""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Callable
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import event, select
from sqlalchemy.exc import IntegrityError

from duelclub.play import lobby
from duelclub.play.errors import PlayError
from duelclub.play.service import MatchService
from duelclub.store import hot_write, users
from duelclub.store import matches as repo
from duelclub.store.db import Database
from duelclub.store.models import Base, MatchAction, utcnow


def _users(db: Database, *names: str) -> list[int]:
    with db.session() as s:
        return [users.create_user(s, n, "password123").id for n in names]


async def _duel(service: MatchService, a: int, b: int, options: dict[str, Any] | None = None) -> str:
    created = await lobby.create_match(service, a, game="duel", vs="invite", options=options or {})
    assert created.invite_token is not None
    match_id, _ = await lobby.accept_invite(service, created.invite_token, b, "c0ffee")
    return match_id


async def _move(service: MatchService, match_id: str, ids: list[int], aid: str) -> Any:
    """The player to move plays their first legal action."""
    for uid in ids:
        st = await service.state(match_id, uid, None)
        if st.legal:
            return await service.act(match_id, uid, aid, st.seq, st.legal[0])
    raise AssertionError("nobody to move")


def test_migrations_match_the_models(db: Database) -> None:
    with db.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []


def test_usernames_are_unique_case_insensitively(
    db: Database, service_factory: Callable[..., MatchService]
) -> None:
    _users(db, "Олег")
    with pytest.raises(users.UsernameTaken), db.session() as s:
        users.create_user(s, "олег", "password123")
    with db.session() as s:
        found = users.find_user(s, "ОЛЕГ")
        assert found is not None and found.username == "Олег"
        assert users.check_password(found, "password123") and not users.check_password(found, "nope")


def test_foreign_keys_are_enforced(db: Database) -> None:
    now = utcnow()
    record = repo.ActionRecord("ghost", 1, 0, {"kind": "resign"}, "player", None, None, now)
    with pytest.raises((IntegrityError, repo.MatchNotActive)), db.session() as s:
        repo.append_action(s, record)
    with pytest.raises(IntegrityError), db.session() as s:
        s.add(MatchAction(match_id="ghost", seq=1, seat=0, action={}, source="player", created_at=now))
        s.flush()


async def test_seq_and_client_id_conflicts(
    db: Database, service_factory: Callable[..., MatchService]
) -> None:
    a, b = _users(db, "alice", "bob")
    service = service_factory(db)
    mid = await _duel(service, a, b)
    now = utcnow()
    first = repo.ActionRecord(mid, 1, 0, {"kind": "resign"}, "player", "0:x", a, now)
    with db.session() as s:
        repo.append_action(s, first)
    with pytest.raises(repo.SeqConflict), db.session() as s:
        repo.append_action(s, first)
    with pytest.raises(repo.SeqConflict), db.session() as s:
        repo.append_action(s, repo.ActionRecord(mid, 2, 0, {"kind": "resign"}, "player", "0:x", a, now))
    with db.session() as s:
        assert [x.seq for x in repo.actions_after(s, mid)] == [1]
        stored = repo.get_match(s, mid)
        assert stored is not None and stored.created_at.tzinfo is not None


async def test_match_actions_are_append_only(
    db: Database, service_factory: Callable[..., MatchService]
) -> None:
    a, b = _users(db, "alice", "bob")
    statements: list[str] = []
    event.listen(db.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    service = service_factory(db)
    mid = await _duel(service, a, b, {"rounds": 3})
    snapshots: list[list[tuple[Any, ...]]] = []
    for i in range(6):
        result = await _move(service, mid, [a, b], f"m{i}")
        with db.session() as s:
            rows = s.scalars(select(MatchAction).where(MatchAction.match_id == mid).order_by(MatchAction.seq))
            snapshots.append(
                [(r.seq, r.seat, r.action, r.source, r.client_action_id, r.created_at) for r in rows]
            )
        if result.status == "finished":
            break
    assert result.status == "finished"
    # the hot path's statements bypass SQLAlchemy's events
    hot = (
        hot_write.PG_HOT_STATEMENTS
        if db.engine.dialect.name == "postgresql"
        else hot_write.SQLITE_HOT_STATEMENTS
    )
    statements.extend(hot)
    for before, after in itertools.pairwise(snapshots):
        assert after[: len(before)] == before and len(after) == len(before) + 1
    touching = [q for q in statements if re.search(r"\b(UPDATE|DELETE FROM)\s+match_actions\b", q, re.I)]
    assert touching == []
    assert any(re.search(r"INSERT INTO match_actions", q, re.I) for q in statements)


async def test_a_restarted_service_rebuilds_the_match_by_replay(
    db: Database, service_factory: Callable[..., MatchService]
) -> None:
    a, b = _users(db, "alice", "bob")
    first = service_factory(db)
    mid = await _duel(first, a, b)
    for i in range(3):
        await _move(first, mid, [a, b], f"m{i}")
    before = [await first.state(mid, uid, 0) for uid in (a, b, None)]
    second = service_factory(db)  # a fresh process: empty cache
    after = [await second.state(mid, uid, 0) for uid in (a, b, None)]
    assert after == before
    assert after[0].events and after[0].events != after[1].events  # own card visible, the other's hidden
    await _move(second, mid, [a, b], "m3")
    assert (await second.state(mid, a, None)).seq == 4


async def test_another_workers_rows_are_caught_up_before_validating(
    db: Database, service_factory: Callable[..., MatchService]
) -> None:
    a, b = _users(db, "alice", "bob")
    w1, w2 = service_factory(db), service_factory(db)
    mid = await _duel(w1, a, b)
    await w2.state(mid, a, None)  # w2 caches the match at seq 0
    await _move(w1, mid, [a, b], "m0")  # w1 appends seq 1
    st = await _move(w2, mid, [a, b], "m1")  # w2 must see seq 1 to accept seq 2
    assert st.seq == 2
    assert (await w1.state(mid, a, None)).seq == 2


async def test_the_loser_of_an_insert_race_reloads(
    db: Database, service_factory: Callable[..., MatchService], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = _users(db, "alice", "bob")
    w1, w2 = service_factory(db), service_factory(db)
    mid = await _duel(w1, a, b)
    st = await w2.state(mid, a, None)
    mover = a if st.legal else b
    st = await w2.state(mid, mover, None)
    real_catch_up = w2.catch_up
    calls = 0

    async def blind_once(live: Any) -> None:  # w2 misses w1's row once: it validates at seq 0
        nonlocal calls
        calls += 1
        if calls > 1:
            await real_catch_up(live)

    monkeypatch.setattr(w2, "catch_up", blind_once)
    await w1.act(mid, mover, "from-w1", 0, st.legal[0])
    with pytest.raises(PlayError) as lost:
        await w2.act(mid, mover, "from-w2", 0, st.legal[0])
    assert lost.value.code == "stale_seq"
    assert (await w2.state(mid, mover, None)).seq == 1
    with db.session() as s:
        assert [x.client_action_id for x in repo.actions_after(s, mid)] == [f"{st.seat}:from-w1"]


async def test_concurrent_bot_moves_apply_once(
    db: Database, service_factory: Callable[..., MatchService]
) -> None:
    a, b = _users(db, "alice", "bob")
    w1, w2 = service_factory(db, bots=False), service_factory(db, bots=False)
    mid = await _duel(w1, a, b)
    st = await w1.state(mid, a, None)
    seat = 0 if st.legal else 1
    st = await w1.state(mid, [a, b][seat], None)
    results = await asyncio.gather(
        w1.apply_as(mid, seat, st.legal[0], source="bot", expected_seq=0),
        w2.apply_as(mid, seat, st.legal[0], source="bot", expected_seq=0),
    )
    assert sorted(results) == [False, True]
    with db.session() as s:
        assert len(repo.actions_after(s, mid)) == 1


async def test_a_resend_after_a_restart_is_still_recognized(
    db: Database, service_factory: Callable[..., MatchService]
) -> None:
    a, b = _users(db, "alice", "bob")
    first = service_factory(db)
    mid = await _duel(first, a, b)
    original = await _move(first, mid, [a, b], "same-id")
    mover = a if original.seat == 0 else b
    second = service_factory(db)
    again = await second.act(mid, mover, "same-id", 0, {"kind": "resign"})  # different body, same id
    assert again == original
    assert (await second.state(mid, a, None)).seq == 1
