"""Helpers shared by the server tests, importable by name (tests/play is on sys.path, see tests/conftest.py):
a test module imports these rather than ``conftest``, which is ambiguous with tests/e2e/conftest.py."""

from __future__ import annotations

import socket
from typing import Any

from duel_fake import DUEL


def fake_games() -> dict[str, Any]:
    from duelclub.games.artania import GAME as ARTANIA
    from duelclub.games.mezha import GAME as MEZHA
    from duelclub.games.towers import GAME as TOWERS
    from duelclub.games.warchest import GAME as WARCHEST

    return {"duel": DUEL, "mezha": MEZHA, "towers": TOWERS, "warchest": WARCHEST, "artania": ARTANIA}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
