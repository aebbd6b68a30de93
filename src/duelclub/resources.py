"""Files shipped inside the package (templates, static files, migrations), found with ``importlib.resources``
so an installed wheel runs from any directory (issue 15 §6).

>>> resource_dir("templates").joinpath("base.html").is_file()
True
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def resource_dir(name: str) -> Path:
    """The directory ``name`` inside the installed ``duelclub`` package (``templates``, ``static``,
    ``store/migrations``); a real directory, since the package is never imported from a zip."""
    return Path(str(files("duelclub").joinpath(name)))


TEMPLATES_DIR = resource_dir("templates")
STATIC_DIR = resource_dir("static")
MIGRATIONS_DIR = resource_dir("store/migrations")
ALEMBIC_INI = resource_dir("store/alembic.ini")
