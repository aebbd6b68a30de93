"""The turn notices' tables (issue 28 §3; store/notices.py): preferences, a claim is taken once, member
presence upserts, and migration 0011 up over existing accounts and down again, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from alembic import command

from duelclub.store import notices, users
from duelclub.store.db import Database, make_engine
from duelclub.store.migrate import alembic_config, upgrade
from duelclub.store.notices import Preferences

AT = datetime(2026, 12, 6, 8, 0, tzinfo=UTC)


def test_preferences_are_stored_and_unsubscribe_turns_the_mails_off(db: Database) -> None:
    with db.session() as s:
        uid = users.create_user(s, "anna", "password123").id
    with db.session() as s:
        assert notices.preferences(s, uid) == Preferences("off", False)
        assert notices.set_preferences(s, uid, Preferences("digest", True))
    with db.session() as s:
        assert notices.preferences(s, uid) == Preferences("digest", True)
        assert notices.unsubscribe(s, uid)
        assert not notices.unsubscribe(s, uid + 100)
    with db.session() as s:
        assert notices.preferences(s, uid) == Preferences("off", True)  # the mails only


def test_a_claim_is_taken_once_and_presence_is_an_upsert(db: Database) -> None:
    with db.session() as s:
        uid = users.create_user(s, "anna", "password123").id
    with db.session() as s:
        assert notices.claim(s, uid, "turn", "m1", 3, AT)
        assert not notices.claim(s, uid, "turn", "m1", 3, AT)
        assert notices.claim(s, uid, "turn", "m1", 4, AT)  # the next turn
        assert notices.claim(s, uid, "low_time", "m1", 3, AT)  # another kind
    with db.session() as s:
        assert not notices.claim(s, uid, "turn", "m1", 3, AT)  # committed: still once
        notices.seen(s, uid, AT)
        notices.seen(s, uid, AT + timedelta(seconds=5))
        notices.seen_all(s, [uid], AT + timedelta(seconds=15))
    with db.session() as s:
        assert notices.last_seen(s, uid) == AT + timedelta(seconds=15)


def test_migration_0011_adds_the_notice_tables_and_removes_them(empty_database_url: str) -> None:
    upgrade(empty_database_url, "0010")
    engine = make_engine(empty_database_url)
    try:
        with engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO users (username, username_key, username_skeleton, password_hash, is_admin,"
                    " created_at, email_notices)"
                    " VALUES ('anna', 'anna', 'anna', 'h', false, CURRENT_TIMESTAMP, 'each')"
                )
            )
        upgrade(empty_database_url)
        with engine.begin() as conn:
            row = conn.execute(sa.text("SELECT id, email_notices, push_notices FROM users")).one()
            assert row[1] == "each" and not row[2]
            conn.execute(
                sa.text(
                    "INSERT INTO notice_claims (user_id, kind, match_id, seq, created_at)"
                    " VALUES (:u, 'turn', 'm1', 1, :at)"
                ),
                {"u": row[0], "at": AT},
            )
            conn.execute(
                sa.text("INSERT INTO member_presence (user_id, seen_at) VALUES (:u, :at)"),
                {"u": row[0], "at": AT},
            )
        command.downgrade(alembic_config(empty_database_url), "0010")
        with engine.connect() as conn:
            inspect = sa.inspect(conn)
            assert not inspect.has_table("notice_claims") and not inspect.has_table("member_presence")
            assert "push_notices" not in {c["name"] for c in inspect.get_columns("users")}
            assert conn.execute(sa.text("SELECT count(*) FROM users")).scalar() == 1
    finally:
        engine.dispose()
