"""Rows of the moves the loop writers store (tests/store/test_pg_writer.py, test_sqlite_writer.py): a match to
write to, a move of it, and what the database holds afterwards."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select

from duelclub.play import commit as commit_module
from duelclub.play import lobby
from duelclub.play.service import MatchService
from duelclub.play.threads import in_thread
from duelclub.store import matches as repo
from duelclub.store import users
from duelclub.store.db import Database
from duelclub.store.models import Match, MatchAction

AT = datetime(2026, 12, 6, 8, 0, tzinfo=UTC)


def match_row(db: Database, match_id: str, status: str = "active") -> list[int]:
    """An active (or ``status``) match ``match_id`` of two new members; their ids."""
    with db.session() as s:
        ids = [users.create_user(s, f"{match_id}{n}", "password123").id for n in "ab"]
        s.add(
            Match(
                id=match_id,
                game="duel",
                options={},
                status=status,
                seat0_user_id=ids[0],
                seat1_user_id=ids[1],
                commitment="0" * 64,
                server_seed="0" * 64,
                started_at=AT,
            )
        )
    return ids


def log_rows(db: Database, match_id: str) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
    """(the match row's deadline, last_seq, last_action_at; its log rows without the match id)."""
    with db.session() as s:
        m = s.get(Match, match_id)
        assert m is not None
        log = s.scalars(select(MatchAction).where(MatchAction.match_id == match_id).order_by(MatchAction.seq))
        rows = [(a.seq, a.seat, a.action, a.source, a.client_action_id, a.user_id, a.created_at) for a in log]
        return (m.deadline_at, m.last_seq, m.last_action_at), rows


def move(match_id: str, seq: int, user: int, at: datetime) -> repo.ActionRecord:
    """Action ``seq`` of ``match_id`` (seat by parity), played by ``user`` at ``at``."""
    return repo.ActionRecord(
        match_id, seq, (seq + 1) % 2, {"kind": "play", "n": seq}, "player", f"c{seq}", user, at
    )


async def first_move_of_started_service(
    db: Database, service_factory: Callable[..., MatchService], monkeypatch: pytest.MonkeyPatch
) -> tuple[MatchService, str, int, list[Any]]:
    """Start a match service on ``db``, open a duel between two new members and play its first move with
    play/commit.py's ``in_thread`` counted: (the service, the match id, the seq the move was played at, the
    names of the functions sent to a thread meanwhile). The move must answer an active match."""
    with db.session() as s:
        a, b = (users.create_user(s, n, "password123").id for n in ("svc_a", "svc_b"))
    service = service_factory(db)
    await service.start()
    created = await lobby.create_match(service, a, game="duel", vs="invite", options={"rounds": 3})
    assert created.invite_token is not None
    mid, _ = await lobby.accept_invite(service, created.invite_token, b, "c0ffee")
    threaded: list[Any] = []

    async def counting(fn: Any, *args: Any) -> Any:
        threaded.append(getattr(fn, "__name__", fn))
        return await in_thread(fn, *args)

    monkeypatch.setattr(commit_module, "in_thread", counting)
    uid = a if (await service.state(mid, a, None)).legal else b
    st = await service.state(mid, uid, None)
    result = await service.act(mid, uid, "m0", st.seq, st.legal[0])
    assert result.status == "active"
    return service, mid, st.seq, threaded


async def next_move(service: MatchService, mid: str) -> int:
    """Play the first legal action of whichever member is to move in ``mid`` (still active after it): the
    seq it was played at."""
    live = await service.fresh(mid)
    for uid in live.record.seat_users:
        assert uid is not None
        st = await service.state(mid, uid, None)
        if st.legal:
            result = await service.act(mid, uid, f"m{st.seq}", st.seq, st.legal[0])
            assert result.status == "active"
            return st.seq
    raise AssertionError("nobody may move")
