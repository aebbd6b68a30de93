"""The Web Push settings (settings.py, notify/vapid.py): the VAPID key generated once into the data directory
like the secret key, or given in the Web Push tools' forms; the public key derived and checked; the
contact; and migration 0012 up and down."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from pydantic import ValidationError

from duelclub.notify import vapid
from duelclub.settings import Settings
from duelclub.store.db import make_engine
from duelclub.store.migrate import alembic_config, upgrade

VAPID_NAMES = ("VAPID_PRIVATE_KEY", "VAPID_PUBLIC_KEY", "VAPID_SUBJECT", "PUBLIC_URL", "MAIL_FROM")


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (*VAPID_NAMES, "SECRET_KEY", "DATA_DIR", "VAR_DIR"):
        monkeypatch.delenv(name, raising=False)


def test_an_unset_key_is_generated_once_into_the_data_dir(tmp_path: Path) -> None:
    settings = Settings(DATA_DIR=tmp_path / "var")
    assert not (tmp_path / "var").exists()  # reading settings touches no disk
    settings.prepared()
    path = tmp_path / "var" / "vapid_private_key"
    assert path.read_text().strip() == settings.VAPID_PRIVATE_KEY
    assert path.stat().st_mode & 0o077 == 0
    again = Settings(DATA_DIR=tmp_path / "var").prepared()
    assert again.VAPID_PRIVATE_KEY == settings.VAPID_PRIVATE_KEY  # the subscriptions stay valid
    public = vapid.b64url_decode(settings.VAPID_PUBLIC_KEY)
    assert len(public) == 65 and public[0] == 4
    assert "VAPID_PRIVATE_KEY" not in repr(settings) and settings.VAPID_PUBLIC_KEY in repr(settings)


def test_a_key_is_taken_raw_or_as_pem_and_its_public_key_checked(tmp_path: Path) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    raw = vapid.raw_private_key(key)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public = vapid.public_key_of(key)
    for given in (raw, raw + "=", pem):
        settings = Settings(DATA_DIR=tmp_path, VAPID_PRIVATE_KEY=given).prepared()
        derived = settings.VAPID_PUBLIC_KEY
        assert derived == public
    assert not (tmp_path / "vapid_private_key").exists()
    assert Settings(DATA_DIR=tmp_path, VAPID_PRIVATE_KEY=raw, VAPID_PUBLIC_KEY=public + "=").prepared()
    other = vapid.public_key_of(ec.generate_private_key(ec.SECP256R1()))
    with pytest.raises(vapid.BadVapidKey, match="not the public key"):
        Settings(DATA_DIR=tmp_path, VAPID_PRIVATE_KEY=raw, VAPID_PUBLIC_KEY=other).prepared()


@pytest.mark.parametrize(
    "bad",
    [
        "not a key",
        vapid.b64url(b"\x01" * 31),  # a raw key is 32 bytes
        ec.generate_private_key(ec.SECP384R1())
        .private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        .decode(),  # another curve
    ],
)
def test_a_key_that_is_not_a_p256_private_key_is_refused_at_start_up(tmp_path: Path, bad: str) -> None:
    with pytest.raises(ValidationError, match="VAPID_PRIVATE_KEY"):
        Settings(DATA_DIR=tmp_path, VAPID_PRIVATE_KEY=bad)


def test_the_contact_defaults_to_the_https_site_or_the_mail_sender(tmp_path: Path) -> None:
    https = Settings(DATA_DIR=tmp_path, PUBLIC_URL="https://club.example/duel/")
    assert https.vapid_subject() == "https://club.example"
    plain = Settings(
        DATA_DIR=tmp_path, PUBLIC_URL="http://127.0.0.1:8000", MAIL_FROM="Клуб <club@mail.example>"
    )
    assert plain.vapid_subject() == "mailto:club@mail.example"
    given = Settings(
        DATA_DIR=tmp_path, VAPID_SUBJECT="mailto:admin@club.example", PUBLIC_URL="https://club.example"
    )
    assert given.vapid_subject() == "mailto:admin@club.example"
    for bad in ("admin@club.example", "http://club.example", "https://club.example/path", "mailto:nobody"):
        with pytest.raises(ValidationError, match="VAPID_SUBJECT"):
            Settings(DATA_DIR=tmp_path, VAPID_SUBJECT=bad)


def test_migration_0012_adds_the_push_tables_and_removes_them(empty_database_url: str) -> None:
    upgrade(empty_database_url, "0011")
    engine = make_engine(empty_database_url)
    try:
        with engine.begin() as conn:  # a member from before (the columns of 0011; later ones have defaults)
            assert not sa.inspect(conn).has_table("push_subscriptions")
            conn.execute(
                sa.text(
                    "INSERT INTO users (username, username_key, username_skeleton, password_hash, is_admin,"
                    " created_at, email_notices, push_notices)"
                    " VALUES ('anna', 'anna', 'anna', 'h', false, CURRENT_TIMESTAMP, 'off', false)"
                )
            )
        upgrade(empty_database_url, "0012")
        with engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, created_at)"
                    " SELECT id, 'https://push.example/1', 'k', 'a', CURRENT_TIMESTAMP FROM users"
                )
            )
            conn.execute(
                sa.text(
                    "INSERT INTO push_jobs (subscription_id, payload, dedupe_key, status, created_at, due_at,"
                    " attempts) SELECT id, '{}', 'turn#1', 'queued', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 0"
                    " FROM push_subscriptions"
                )
            )
            inspector = sa.inspect(conn)
            assert {i["name"] for i in inspector.get_indexes("push_jobs")} >= {"ix_push_jobs_status_due_at"}
        command.downgrade(alembic_config(empty_database_url), "0011")
        with engine.connect() as conn:
            assert not sa.inspect(conn).has_table("push_jobs")
            assert not sa.inspect(conn).has_table("push_subscriptions")
            assert conn.execute(sa.text("SELECT count(*) FROM users")).scalar() == 1
    finally:
        engine.dispose()
