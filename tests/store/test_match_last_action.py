"""``matches.last_seq`` / ``matches.last_action_at`` (issue 29 §4): every write of an action — the hot path's
move, the final move, the Session path — copies the log's last row onto the match in the same statement, a
refused write leaves them as they were, and migration 0013 fills them from the log of existing matches and
is undone again, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy import func, select

from duelclub.play import lobby
from duelclub.play.service import MatchService
from duelclub.store import matches as repo
from duelclub.store import users
from duelclub.store.db import Database, make_engine
from duelclub.store.migrate import alembic_config, upgrade
from duelclub.store.models import Match, MatchAction

AT = datetime(2026, 12, 6, 8, 0, tzinfo=UTC)


def _users(db: Database, *names: str) -> list[int]:
    with db.session() as s:
        return [users.create_user(s, n, "password123").id for n in names]


def _copy_and_log(db: Database, match_id: str) -> tuple[tuple[int, datetime | None], tuple[int, Any]]:
    """(the match row's last_seq and last_action_at, the log's last seq and that row's time)."""
    with db.session() as s:
        m = s.get(Match, match_id)
        assert m is not None
        top = s.scalar(select(func.max(MatchAction.seq)).where(MatchAction.match_id == match_id)) or 0
        at = s.scalar(
            select(MatchAction.created_at).where(MatchAction.match_id == match_id, MatchAction.seq == top)
        )
        return (m.last_seq, m.last_action_at), (top, at)


async def test_every_action_write_copies_the_last_row_onto_the_match(
    db: Database, service_factory: Callable[..., MatchService]
) -> None:
    a, b = _users(db, "alice", "bob")
    service = service_factory(db)
    created = await lobby.create_match(service, a, game="duel", vs="invite", options={"rounds": 3})
    assert created.invite_token is not None
    mid, _ = await lobby.accept_invite(service, created.invite_token, b, "c0ffee")
    assert _copy_and_log(db, mid) == ((0, None), (0, None))
    status, moves = "active", 0
    while status == "active":  # moves on the hot path, then the final one (another statement per store)
        st = next(x for x in [await service.state(mid, u, None) for u in (a, b)] if x.legal)
        uid = a if (await service.state(mid, a, None)).legal else b
        status = (await service.act(mid, uid, f"m{moves}", st.seq, st.legal[0])).status
        moves += 1
        copy, log = _copy_and_log(db, mid)
        assert copy == log and copy[0] == moves
    assert status == "finished" and moves > 1


def test_a_refused_write_leaves_the_copy_as_it_was(db: Database) -> None:
    a, b = _users(db, "alice", "bob")
    with db.session() as s:
        s.add(
            Match(
                id="m1",
                game="duel",
                options={},
                status="active",
                seat0_user_id=a,
                seat1_user_id=b,
                commitment="0" * 64,
                server_seed="0" * 64,
                started_at=AT,
            )
        )
    first = repo.ActionRecord("m1", 1, 0, {"kind": "pass"}, "player", "0:x", a, AT)
    with db.session() as s:
        repo.append_action(s, first)
    again = repo.ActionRecord("m1", 1, 1, {"kind": "pass"}, "player", "1:y", b, AT + timedelta(seconds=5))
    with pytest.raises(repo.SeqConflict), db.session() as s:
        repo.append_action(s, again)
    assert _copy_and_log(db, "m1") == ((1, AT), (1, AT))


def test_migration_0013_fills_the_copy_from_the_log_and_is_undone(empty_database_url: str) -> None:
    upgrade(empty_database_url, "0012")
    engine = make_engine(empty_database_url)
    match = (
        "INSERT INTO matches (id, game, options, status, commitment, server_seed, client_seed_a,"
        " client_seed_b, created_at, started_at, listed, rated)"
        " VALUES (:id, 'duel', '{}', :status, 'c', 's', '', '', :at, :at, false, false)"
    )
    action = (
        "INSERT INTO match_actions (match_id, seq, seat, action, source, created_at)"
        " VALUES (:id, :seq, 0, '{}', 'player', :at)"
    )
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(match), [{"id": "played", "status": "finished", "at": AT}])
            conn.execute(sa.text(match), [{"id": "fresh", "status": "active", "at": AT}])
            conn.execute(
                sa.text(action),
                [{"id": "played", "seq": n, "at": AT + timedelta(minutes=n)} for n in (1, 2, 3)],
            )
        upgrade(empty_database_url)
        with engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT id, last_seq, last_action_at FROM matches ORDER BY id"))
            got = {r[0]: (r[1], r[2]) for r in rows}
        assert got["fresh"] == (0, None)
        assert got["played"][0] == 3
        with Database(empty_database_url).session() as s:  # the column's own type reads the time back
            assert s.get(Match, "played").last_action_at == AT + timedelta(minutes=3)  # type: ignore[union-attr]
        command.downgrade(alembic_config(empty_database_url), "0012")
        with engine.connect() as conn:
            columns = {c["name"] for c in sa.inspect(conn).get_columns("matches")}
            assert "last_seq" not in columns and "last_action_at" not in columns
            assert conn.execute(sa.text("SELECT count(*) FROM match_actions")).scalar() == 3
    finally:
        engine.dispose()
