"""Run the Alembic migrations programmatically (``duelclub serve``/``migrate`` and the tests)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from duelclub.settings import PROJECT_ROOT


def alembic_config(url: str) -> Config:
    """The project's alembic.ini with the database URL passed through ``attributes["url"]``."""
    cfg = Config(str(PROJECT_ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(PROJECT_ROOT / "migrations"))
    cfg.attributes["url"] = url
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    """``alembic upgrade head`` on the database at ``url``."""
    command.upgrade(alembic_config(url), revision)
