"""Run the Alembic migrations programmatically (``duelclub serve``/``migrate`` and the tests)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from duelclub.resources import ALEMBIC_INI, MIGRATIONS_DIR


def alembic_config(url: str) -> Config:
    """The package's ``store/alembic.ini`` with the database URL passed through ``attributes["url"]``."""
    cfg = Config(str(ALEMBIC_INI))
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.attributes["url"] = url
    return cfg


MIGRATION_LOCK = 0x6475656C  # "duel"
"""The PostgreSQL advisory lock held while migrating: several workers starting at once migrate in turn."""


def upgrade(url: str, revision: str = "head") -> None:
    """``alembic upgrade head`` on the database at ``url``; on PostgreSQL under an advisory lock, so web
    workers started together (docker compose) do not run the same migration twice at once."""
    if not url.startswith("postgresql"):
        command.upgrade(alembic_config(url), revision)
        return
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": MIGRATION_LOCK})
            try:
                command.upgrade(alembic_config(url), revision)
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": MIGRATION_LOCK})
    finally:
        engine.dispose()
