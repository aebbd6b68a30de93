"""Helpers shared by the server tests, importable by name (tests/play is on sys.path, see tests/conftest.py):
a test module imports these rather than ``conftest``, which is ambiguous with tests/e2e/conftest.py."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from duel_fake import DUEL
from sqlalchemy import event

from duelclub.play import lobby
from duelclub.play.service import MatchService
from duelclub.store import users
from duelclub.store.db import Database


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


@contextmanager
def transactions(db: Database, *services: MatchService) -> Iterator[list[int]]:
    """Counts the transactions on ``db``'s engine inside the block (``counted[0]``): one per connection
    checked out of its pool — a Session's or a Connection's transaction, or the PostgreSQL hot path's one
    autocommit statement, which begins no SQLAlchemy transaction (store/matches.py, issue 29 §1) — and the
    moves that ``services`` (started, on PostgreSQL) wrote from the event loop (store/pg_writer.py)."""
    counted = [0]
    before = [s.writer.moves.statements for s in services]

    def on_checkout(*_args: Any) -> None:
        counted[0] += 1

    event.listen(db.engine.pool, "checkout", on_checkout)
    try:
        yield counted
    finally:
        event.remove(db.engine.pool, "checkout", on_checkout)
        counted[0] += sum(s.writer.moves.statements for s in services) - sum(before)


def new_users(db: Database, *names: str) -> list[int]:
    """Members with these names (password ``password123``); their ids."""
    with db.session() as s:
        return [users.create_user(s, n, "password123").id for n in names]


async def duel_between(service: MatchService, a: int, b: int) -> str:
    """An active invite match of the fake game ``duel``: ``a`` at seat 0, ``b`` at seat 1; its id."""
    created = await lobby.create_match(service, a, game="duel", vs="invite", options={})
    assert created.invite_token is not None
    mid, _ = await lobby.accept_invite(service, created.invite_token, b)
    return mid
