"""Usernames up to look-alike letters (``username_skeleton``) and migration 0002, which computes the
skeleton of existing accounts, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from duelclub.store import users
from duelclub.store.db import Database, make_engine
from duelclub.store.migrate import alembic_config, upgrade
from duelclub.store.models import User


@pytest.mark.parametrize(
    "name,skeleton",
    [
        ("admin", "admin"),
        ("аdmin", "admin"),
        ("АДМИН", "aдmиh"),
        ("сое", "coe"),
        ("РОР", "pop"),
        ("Олег", "oлeг"),
    ],
)
def test_skeleton_maps_cyrillic_look_alikes_then_casefolds(name: str, skeleton: str) -> None:
    assert users.username_skeleton(name) == skeleton


@pytest.mark.parametrize("name", ["аdmin", "Pаvel", "Олег_Smith", "x_й"])
def test_names_mixing_latin_and_cyrillic_letters_are_refused(name: str) -> None:
    with pytest.raises(users.BadUsername):
        users.check_username(name)


@pytest.mark.parametrize("name", ["alice", "Олег", "ivan_2", "Іван-2", "abc"])
def test_names_in_one_script_are_fine(name: str) -> None:
    assert users.check_username(name) == name


def test_a_look_alike_of_an_existing_name_is_taken(db: Database) -> None:
    with db.session() as s:
        users.create_user(s, "coe", "password123")
    with pytest.raises(users.UsernameTaken), db.session() as s:
        users.create_user(s, "СОЕ", "password123")  # Cyrillic С О Е
    with db.session() as s:
        users.create_user(s, "Олег", "password123")
        users.create_user(s, "Олеся", "password123")


def test_the_skeleton_is_unique_in_the_database(db: Database) -> None:
    with db.session() as s:
        users.create_user(s, "pop", "password123")
    with pytest.raises(IntegrityError), db.session() as s:
        s.add(User(username="РОР", username_key="рор", username_skeleton="pop", password_hash="x"))
        s.flush()


# -- migration 0002 on existing rows ----------------------------------------------------------------
def test_migration_0002_gives_existing_users_a_skeleton(empty_database_url: str) -> None:
    from alembic import command

    upgrade(empty_database_url, "0001")
    engine = make_engine(empty_database_url)
    old = [("admin", "admin"), ("аdmin", "аdmin"), ("Сое", "сое"), ("coE", "coe"), ("Олег", "олег")]
    try:
        with engine.begin() as conn:
            for name, key in old:
                conn.execute(
                    sa.text(
                        "INSERT INTO users (username, username_key, password_hash, is_admin, created_at) "
                        "VALUES (:n, :k, 'h', false, CURRENT_TIMESTAMP)"
                    ),
                    {"n": name, "k": key},
                )
        upgrade(empty_database_url)
        with engine.connect() as conn:
            rows = dict(
                conn.execute(sa.text("SELECT username, username_skeleton FROM users ORDER BY id")).all()
            )
            ids = dict(conn.execute(sa.text("SELECT username, id FROM users")).all())
            conn.execute(sa.text("SELECT token_hash, user_id, expires_at FROM user_sessions")).all()
        assert rows == {
            "admin": "admin",
            "аdmin": f"admin#{ids['аdmin']}",
            "Сое": "coe",
            "coE": f"coe#{ids['coE']}",
            "Олег": "oлeг",
        }
        command.downgrade(alembic_config(empty_database_url), "0001")
        with engine.connect() as conn:
            assert "username_skeleton" not in {c["name"] for c in sa.inspect(conn).get_columns("users")}
            assert not sa.inspect(conn).has_table("user_sessions")
    finally:
        engine.dispose()
