"""``duelclub set-password`` (issue 28 §2: admins can still set a password from the CLI): the member's
password changes, every session of theirs and every reset link end, and the member is not made an admin."""

from __future__ import annotations

import io
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

from duelclub.cli import main
from duelclub.store import account_tokens, sessions, users
from duelclub.store.db import Database
from duelclub.store.models import AccountToken, UserSession, utcnow


def test_set_password_ends_sessions_and_links(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("SECRET_KEY", "x" * 40)
    assert main(["migrate"]) == 0
    db = Database(url)
    with db.session() as s:
        anna = users.create_user(s, "anna", "password123")
        sessions.create_session(s, anna.id, utcnow())
        account_tokens.issue(s, "tok", anna.id, "password_reset", utcnow(), timedelta(hours=1))
    monkeypatch.setattr("sys.stdin", io.StringIO("a-new-password-1\n"))
    assert main(["set-password", "ANNA", "--password-stdin"]) == 0
    with db.session() as s:
        anna = users.find_user(s, "anna")
        assert anna is not None and not anna.is_admin
        assert users.check_password(anna, "a-new-password-1") and not users.check_password(
            anna, "password123"
        )
        assert s.scalar(select(func.count()).select_from(UserSession)) == 0
        assert s.scalar(select(func.count()).select_from(AccountToken)) == 0
    db.dispose()
    monkeypatch.setattr("sys.stdin", io.StringIO("short\n"))
    with pytest.raises(SystemExit):
        main(["set-password", "anna", "--password-stdin"])
    monkeypatch.setattr("sys.stdin", io.StringIO("a-new-password-1\n"))
    assert main(["set-password", "nobody", "--password-stdin"]) == 1
