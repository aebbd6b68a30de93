"""The ``duelclub`` command (migrate, create-admin, verify) and Settings (DESIGN.md §Configuration)."""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from httpx import AsyncClient
from support import free_port

from duelclub.cli import main, served_public_url
from duelclub.settings import Settings
from duelclub.store import users
from duelclub.store.db import Database


def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "BOT_THINK_SECONDS", "DATA_DIR", "VAR_DIR"):
        monkeypatch.delenv(name, raising=False)


def test_settings_defaults_live_in_the_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _clean_environment(monkeypatch)
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "var"))
    s = Settings()
    assert s.DATA_DIR == s.VAR_DIR == tmp_path / "var"
    assert f"sqlite:///{tmp_path / 'var' / 'duelclub.db'}" == s.DATABASE_URL
    assert s.REDIS_URL is None and s.BOT_THINK_SECONDS is None and s.COOKIE_SECURE is False
    assert not (tmp_path / "var").exists()  # reading settings touches no disk (issue 30)
    assert s.prepared() is s
    secret = (tmp_path / "var" / "secret_key").read_text().strip()
    assert secret == s.SECRET_KEY and len(secret) >= 32
    assert secret == Settings().prepared().SECRET_KEY  # generated once
    assert (tmp_path / "var" / "secret_key").stat().st_mode & 0o077 == 0
    assert "SECRET_KEY" not in repr(s)
    assert (s.TEMPLATES_DIR / "base.html").is_file() and (s.STATIC_DIR / "js" / "match.js").is_file()


def test_the_default_data_dir_follows_xdg_not_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 15 §6: ``duelclub serve`` (an installed wheel) works from any directory, and every command run
    from any directory reaches the same database: ``$XDG_DATA_HOME/duelclub``, else
    ``~/.local/share/duelclub``; never the source tree."""
    _clean_environment(monkeypatch)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    default = tmp_path / "home" / ".local" / "share" / "duelclub"
    s = Settings().prepared()
    assert default == s.DATA_DIR
    assert f"sqlite:///{default / 'duelclub.db'}" == s.DATABASE_URL
    assert (default / "secret_key").is_file() and not any(elsewhere.iterdir())
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert tmp_path / "xdg" / "duelclub" == Settings().DATA_DIR
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")  # the XDG spec: relative values are invalid
    assert default == Settings().DATA_DIR


def test_data_dir_accepts_the_older_name_and_relative_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _clean_environment(monkeypatch)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("VAR_DIR", str(tmp_path / "old"))
    assert tmp_path / "old" == Settings().DATA_DIR
    monkeypatch.setenv("DATA_DIR", "new")  # wins over VAR_DIR; made absolute from the working directory
    s = Settings()
    assert (
        tmp_path / "new" == s.DATA_DIR and f"sqlite:///{tmp_path / 'new' / 'duelclub.db'}" == s.DATABASE_URL
    )
    assert tmp_path / "kw" == Settings(VAR_DIR=tmp_path / "kw").DATA_DIR
    assert tmp_path / "kw2" == Settings(DATA_DIR=tmp_path / "kw2").DATA_DIR


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://u@h/db")
    monkeypatch.setenv("REDIS_URL", "redis://h:6379/1")
    monkeypatch.setenv("SECRET_KEY", "k" * 40)
    monkeypatch.setenv("COOKIE_SECURE", "true")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "unused"))
    s = Settings()
    assert (s.DATABASE_URL, s.REDIS_URL, s.SECRET_KEY, s.COOKIE_SECURE) == (
        "postgresql+psycopg://u@h/db",
        "redis://h:6379/1",
        "k" * 40,
        True,
    )
    assert not (tmp_path / "unused").exists()


def test_migrate_and_create_admin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("SECRET_KEY", "x" * 40)
    assert main(["migrate"]) == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("s3cret-password\n"))
    assert main(["create-admin", "Root", "--password-stdin"]) == 0
    db = Database(url)
    with db.session() as s:
        root = users.find_user(s, "root")
        assert root is not None and root.is_admin and users.check_password(root, "s3cret-password")
        users.create_user(s, "plain", "password123")
    assert main(["create-admin", "plain"]) == 0  # promotes without asking for a password
    with db.session() as s:
        plain = users.find_user(s, "plain")
        assert plain is not None and plain.is_admin and users.check_password(plain, "password123")
    db.dispose()
    monkeypatch.setattr("sys.stdin", io.StringIO("short\n"))
    with pytest.raises(SystemExit):
        main(["create-admin", "newbie", "--password-stdin"])
    assert main(["create-admin", "no spaces allowed"]) == 2
    assert main(["create-admin", "аdmin"]) == 2  # a Cyrillic «а» among Latin letters
    for weak in ("        \n", "pass\tword-with-a-tab\n", "p" * 129 + "\n"):
        monkeypatch.setattr("sys.stdin", io.StringIO(weak))
        with pytest.raises(SystemExit):
            main(["create-admin", "newbie", "--password-stdin"])


@pytest.mark.parametrize(
    ("url", "shown", "cause"),
    [
        (
            "postgresql+psycopg://club:s3cret@127.0.0.1:{port}/club",
            "postgresql+psycopg://club:***@127.0.0.1:{port}/club",
            "Connection refused",
        ),
        ("sqlite:///{tmp}/a_file/club.db", "sqlite:///{tmp}/a_file/club.db", "File exists"),
    ],
)
def test_migrate_names_an_unreachable_database_without_a_traceback(
    url: str, shown: str, cause: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    _clean_environment(monkeypatch)
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    port = free_port()  # nothing listens there
    (tmp_path / "a_file").write_text("not a folder")
    monkeypatch.setenv("DATABASE_URL", url.format(port=port, tmp=tmp_path))
    with pytest.raises(SystemExit) as ended:
        main(["migrate"])
    message = str(ended.value.code)
    where = shown.format(port=port, tmp=tmp_path)
    assert message.startswith(f"duelclub: cannot reach the database {where}: ")
    assert cause in message and "s3cret" not in message and "Traceback" not in capsys.readouterr().err


def test_create_admin_reads_the_password_from_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--password-file PATH`` (a Docker/systemd secrets file): its first line is the password, for a new
    admin and for a promoted member alike; a missing file is a clear error; it excludes --password-stdin."""
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("SECRET_KEY", "x" * 40)
    assert main(["migrate"]) == 0
    secret = tmp_path / "admin_password"
    secret.write_text("from-a-file-123\nsecond line ignored\n")
    assert main(["create-admin", "boss", "--password-file", str(secret)]) == 0
    secret.write_text("changed-in-file-456")
    assert main(["create-admin", "boss", "--password-file", str(secret)]) == 0
    db = Database(url)
    with db.session() as s:
        boss = users.find_user(s, "boss")
        assert boss is not None and boss.is_admin and users.check_password(boss, "changed-in-file-456")
    db.dispose()
    with pytest.raises(SystemExit, match="cannot read"):
        main(["create-admin", "other", "--password-file", str(tmp_path / "missing")])
    with pytest.raises(SystemExit):  # argparse: not allowed with --password-stdin
        main(["create-admin", "other", "--password-stdin", "--password-file", str(secret)])
    assert "not allowed with" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals")
def test_serve_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    """``docker stop``/systemd send SIGTERM: serve stops its bot workers and removes their metrics files from
    DATA_DIR, exiting 143 (uvicorn re-raises the signal after its graceful shutdown, which used to kill the
    process before that clean-up)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "VAR_DIR")}
    env.update(DATA_DIR=str(tmp_path / "data"), SECRET_KEY="s" * 40, BOT_WORKERS="1")
    log = tmp_path / "server.log"
    port = free_port()
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "duelclub.cli", "serve", "--port", str(port)],
            env=env,
            stdout=out,
            stderr=out,
        )
    try:
        deadline = time.monotonic() + 120  # a loaded CI machine may take long to start it
        while b"Application startup complete" not in log.read_bytes():
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        metrics = tmp_path / "data" / "bot-metrics" / str(proc.pid)
        assert metrics.is_dir()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 128 + signal.SIGTERM, log.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert not metrics.exists()
    assert (tmp_path / "data" / "duelclub.db").is_file()


async def _finished_mezha_log(client: AsyncClient) -> dict[str, Any]:
    body = {
        "game": "mezha",
        "vs": "bot",
        "bot_level": "easy",
        "options": {"house": "gorn"},
        "client_seed": "c0ffee",
    }
    mid = (await client.post("/api/matches", json=body)).json()["id"]
    for i in range(400):
        st = (await client.get(f"/api/matches/{mid}/state")).json()
        if st["status"] != "active":
            break
        if st["legal"]:
            plays = [a for a in st["legal"] if a["kind"] == "play"] or st["legal"]
            await client.post(
                f"/api/matches/{mid}/actions", json={"id": str(i), "seq": st["seq"], "action": plays[0]}
            )
        else:
            await asyncio.sleep(0.01)
    log: dict[str, Any] = (await client.get(f"/api/matches/{mid}/log")).json()
    assert log["status"] == "finished", log
    return log


async def test_verify_accepts_a_real_log_and_rejects_tampering(
    alice: AsyncClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = await _finished_mezha_log(alice)
    assert {a["source"] for a in log["actions"]} == {"player", "bot"}
    path = tmp_path / "log.json"

    def check(data: dict[str, Any]) -> tuple[int, str]:
        path.write_text(json.dumps(data))
        code = main(["verify", str(path)])
        return code, capsys.readouterr().out

    code, out = check(log)
    assert code == 0 and "OK" in out and "match key K = " in out
    seed = log["server_seed"]
    other_seed = ("0" if seed[0] != "0" else "1") + seed[1:]
    assert check({**log, "server_seed": other_seed})[1].startswith("MISMATCH: commitment")
    assert "MISMATCH" in check({**log, "client_seeds": {"a": "c0ffef", "b": ""}})[1]
    swapped = json.loads(json.dumps(log))
    swapped["actions"] = swapped["actions"][:-1]
    assert check(swapped)[0] == 1
    bad_deal = json.loads(json.dumps(log))
    bad_deal["initial"]["omens"].reverse()
    code, out = check(bad_deal)
    assert code == 1 and "initial deal differs at /omens" in out
    bad_view = json.loads(json.dumps(log))
    bad_view["final_view"]["tampered"] = True
    code, out = check(bad_view)
    assert code == 1 and "final view differs" in out
    path.write_text("not json")
    assert main(["verify", str(path)]) == 1


def test_mail_links_follow_the_served_port_unless_public_url_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh-user QA pass: ``make run PORT=8191`` mailed links to :8000."""
    monkeypatch.delenv("PUBLIC_URL", raising=False)
    plain = Settings(DATABASE_URL="sqlite://", SECRET_KEY="x" * 40)
    assert served_public_url(plain, "127.0.0.1", 8191) == "http://127.0.0.1:8191"
    assert served_public_url(plain, "0.0.0.0", 8010) == "http://127.0.0.1:8010"
    assert served_public_url(plain, "::1", 8010) == "http://[::1]:8010"
    chosen = Settings(DATABASE_URL="sqlite://", SECRET_KEY="x" * 40, PUBLIC_URL="https://club.example")
    assert served_public_url(chosen, "127.0.0.1", 8191) == "https://club.example"
