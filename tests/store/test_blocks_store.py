"""The ``blocks`` table (issue 28 §5): the store functions on SQLite and PostgreSQL, and migration 0010 up
over existing accounts and down again."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import command

from duelclub.store import blocks, users
from duelclub.store.db import Database, make_engine
from duelclub.store.migrate import alembic_config, upgrade

AT = datetime(2026, 12, 6, 6, 0, tzinfo=UTC)


def _members(db: Database, *names: str) -> list[int]:
    with db.session() as s:
        return [users.create_user(s, n, "password123").id for n in names]


def test_a_block_is_one_row_per_pair_and_keeps_the_pair_apart_both_ways(db: Database) -> None:
    a, b, c = _members(db, "anna", "boris", "vera")
    with db.session() as s:
        assert blocks.block(s, a, b, AT) is True
        assert blocks.block(s, a, b, AT) is False  # idempotent
    with db.session() as s:
        assert blocks.between(s, a, b) == (True, False)
        assert blocks.between(s, b, a) == (False, True)
        assert blocks.between(s, a, c) == (False, False)
        assert blocks.kept_apart(s, b) == {a} and blocks.kept_apart(s, c) == set()
        assert blocks.pairs_among(s, [a, b, c]) == {frozenset((a, b))}
        assert blocks.pairs_among(s, [b, c]) == set()
        assert [(r.user_id, r.username, r.created_at) for r in blocks.blocked_by(s, a)] == [(b, "boris", AT)]
        assert blocks.blocked_by(s, b) == []
    with db.session() as s:
        assert blocks.unblock(s, a, b) is True
        assert blocks.unblock(s, a, b) is False
        assert blocks.between(s, a, b) == (False, False)


def test_forgetting_a_member_erases_their_blocks_both_ways(db: Database) -> None:
    a, b, c = _members(db, "anna", "boris", "vera")
    with db.session() as s:
        blocks.block(s, a, b, AT)
        blocks.block(s, c, a, AT)
        blocks.block(s, b, c, AT)
    with db.session() as s:
        blocks.forget_user(s, a)
    with db.session() as s:
        assert blocks.pairs_among(s, [a, b, c]) == {frozenset((b, c))}


def test_migration_0010_adds_the_blocks_table_and_removes_it(empty_database_url: str) -> None:
    upgrade(empty_database_url, "0009")
    engine = make_engine(empty_database_url)
    try:
        with engine.begin() as conn:
            assert not sa.inspect(conn).has_table("blocks")
            conn.execute(
                sa.text(
                    "INSERT INTO users (username, username_key, username_skeleton, password_hash, is_admin,"
                    " created_at, email_notices) VALUES"
                    " ('anna', 'anna', 'anna', 'h', false, CURRENT_TIMESTAMP, 'off'),"
                    " ('boris', 'boris', 'boris', 'h', false, CURRENT_TIMESTAMP, 'off')"
                )
            )
        upgrade(empty_database_url)
        with engine.begin() as conn:
            ids = dict(conn.execute(sa.text("SELECT username, id FROM users")).all())
            conn.execute(
                sa.text("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (:a, :b, :at)"),
                {"a": ids["anna"], "b": ids["boris"], "at": AT},
            )
            assert conn.execute(sa.text("SELECT count(*) FROM blocks")).scalar() == 1
            indexes = {i["name"] for i in sa.inspect(conn).get_indexes("blocks")}
            assert "ix_blocks_blocked_id" in indexes
        command.downgrade(alembic_config(empty_database_url), "0009")
        with engine.connect() as conn:
            assert not sa.inspect(conn).has_table("blocks")
            assert conn.execute(sa.text("SELECT count(*) FROM users")).scalar() == 2
    finally:
        engine.dispose()
