"""benchmarks/loadkit.py: the pieces load.py and chaos.py rely on that the server could silently break —
the session cookie it forges, and the process tree it reads CPU from."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from fastapi import FastAPI
from httpx import ASGITransport, AsyncClient

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))  # scripts, not a package
import loadkit

TEST_SECRET = "test-secret-key-0123456789abcdef"  # tests/conftest.py make_settings


async def test_seeded_member_cookie_is_accepted_by_the_app(app: FastAPI, sqlite_url: str) -> None:
    members = loadkit.seed_members(sqlite_url, TEST_SECRET, 2, prefix="load")
    async with AsyncClient(transport=ASGITransport(app), base_url="http://testserver") as client:
        r = await client.get("/api/me", headers={"Cookie": f"{loadkit.SESSION_COOKIE}={members[1].cookie}"})
    assert r.status_code == 200, r.text
    assert (r.json()["id"], r.json()["username"]) == (members[1].id, "load1")


async def test_cookie_signed_with_another_secret_is_refused(app: FastAPI, sqlite_url: str) -> None:
    member = loadkit.seed_members(sqlite_url, "some-other-secret", 1)[0]
    async with AsyncClient(transport=ASGITransport(app), base_url="http://testserver") as client:
        r = await client.get("/api/me", headers={"Cookie": f"{loadkit.SESSION_COOKIE}={member.cookie}"})
    assert r.status_code == 401


# A process that starts a child which starts a grandchild; the grandchild burns 0.3 s of CPU (Python's
# start-up alone may cost less than one clock tick, so a tree of sleepers could read 0.0), then each says
# "ok" upwards.
_GRANDCHILD = (
    "import time; t = time.process_time()\n"
    "while time.process_time() - t < 0.3: pass\n"
    "print('ok', flush=True); time.sleep(10)"
)
_TREE = f"""
import subprocess, sys, time
sleeper = [sys.executable, "-c", {_GRANDCHILD!r}]
middle = [sys.executable, "-c", "import subprocess, time; p = subprocess.Popen(%r, stdout=subprocess.PIPE); "
          "p.stdout.readline(); print('ok', flush=True); time.sleep(10)" % (sleeper,)]
child = subprocess.Popen(middle, stdout=subprocess.PIPE)
child.stdout.readline()
print("ok", flush=True)
time.sleep(10)
"""


def test_process_tree_includes_grandchildren() -> None:
    root = subprocess.Popen([sys.executable, "-c", _TREE], stdout=subprocess.PIPE)
    try:
        assert root.stdout is not None and root.stdout.readline().strip() == b"ok"
        tree = loadkit.process_tree([root.pid])
        assert tree[0] == root.pid and len(tree) == 3
        assert loadkit.cpu_seconds([root.pid]) >= 0.25  # the grandchild's 0.3 s, counted from the root
    finally:
        for pid in loadkit.process_tree([root.pid])[::-1]:
            os.kill(pid, signal.SIGKILL)
        root.wait(5)
