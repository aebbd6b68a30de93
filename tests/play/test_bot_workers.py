"""Bots think in bot worker processes, never in a web process (issue 12 item 1; play/bots.py,
bots/worker.py, bots/pool.py, store/botjobs.py).

The web side enqueues a job holding only the determinized position; a worker takes it with a lease and
answers; the web side applies the answer through ``apply_as``. A worker killed mid-think loses nothing, a late
or repeated answer is harmless, and ``serve`` with ``BOT_WORKERS=0`` plays bots through a separate
``duelclub bots``."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from duel_fake import DUEL
from support import fake_games
from test_kill import my_turn, play, server

from duelclub.bots.worker import BotWorker
from duelclub.bus import MemoryBus
from duelclub.play import lobby
from duelclub.play.bots import BotWorkers
from duelclub.play.service import MatchService
from duelclub.store import botjobs, users
from duelclub.store.db import Database
from duelclub.store.models import MatchAction, utcnow

HERE = Path(__file__).parent
FAST = BotWorkers(poll_seconds=0.02, sweep_seconds=0.2)
"""The web side with bot worker processes (no in-process worker), short intervals for tests."""


async def _until(predicate: Callable[[], Any], timeout: float = 10.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = await predicate() if asyncio.iscoroutinefunction(predicate) else predicate()
        if value:
            return value
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
async def remote(db: Database) -> AsyncIterator[MatchService]:
    """A match service whose bots think elsewhere (as in production)."""
    service = MatchService(db, MemoryBus(), fake_games(), FAST)
    await service.start()
    yield service
    await service.stop()


async def _bot_due_match(service: MatchService, game: str = "duel", **options: Any) -> tuple[str, int, int]:
    """A match vs a bot where the bot is due: (match id, alice's id, the seq the bot decides at)."""
    with service.db.session() as s:
        alice = users.create_user(s, "alice", "password123").id
    level = "easy" if game != "duel" else None
    created = await lobby.create_match(service, alice, game=game, vs="bot", options=options, bot_level=level)
    st = await service.state(created.id, alice, None)
    if st.legal:
        st = await service.act(created.id, alice, "first", st.seq, st.legal[0])
    assert not st.legal and st.status == "active"
    return created.id, alice, st.seq


def _job(db: Database, match_id: str, seq: int) -> botjobs.Job | None:
    with db.session() as s:
        return botjobs.get(s, match_id, seq)


def _bot_rows(db: Database, match_id: str) -> list[int]:
    with db.session() as s:
        rows = s.query(MatchAction).filter_by(match_id=match_id, source="bot").order_by(MatchAction.seq)
        return [r.seq for r in rows]


@contextmanager
def fake_worker(url: str, name: str, bot: str, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """tests/play/bot_worker_fake.py as a real process (the worker loop with the fake game)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(HERE.parent)])}
    cmd = [sys.executable, str(HERE / "bot_worker_fake.py"), "--db", url, "--name", name, "--bot", bot]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)


# -- the worker's input ------------------------------------------------------------------------------
@pytest.mark.parametrize("slug", ["duel", "mezha", "towers", "warchest", "artania"])
def test_every_game_round_trips_a_determinized_position(slug: str) -> None:
    game = fake_games()[slug]
    rng = random.Random(5)
    state = game.new_match(bytes(32), game.options_model())
    checked = 0
    for step in range(120):
        to_move = sorted(game.to_move(state))
        if not to_move:
            break
        seat = to_move[0]
        position = game.to_position(game.determinize(state, seat, random.Random(step)))
        back = game.from_position(position)
        assert game.to_position(back) == position
        assert game.view(back, seat) == game.view(state, seat)
        checked += 1
        actions = [a for a in game.legal_actions(state, seat) if a.kind != "resign"]
        game.apply(state, seat, rng.choice(actions))
    assert checked > 3


async def test_the_worker_receives_only_the_determinization(remote: MatchService, db: Database) -> None:
    mid, _alice, seq = await _bot_due_match(remote, "mezha", house="olkha")
    job = await _until(lambda: _job(db, mid, seq), what="the bot job")
    live = await remote.get_live(mid)
    game = live.game
    rebuilt = game.from_position(job.position)
    assert game.view(rebuilt, job.seat) == game.view(live.state, job.seat)
    assert job.position != game.to_position(live.state)  # the hidden cards were re-sampled
    assert game.to_move(rebuilt) == {job.seat}


async def test_a_web_worker_never_thinks(remote: MatchService, db: Database) -> None:
    mid, alice, seq = await _bot_due_match(remote)
    await _until(lambda: _job(db, mid, seq), what="the bot job")
    await asyncio.sleep(0.5)
    assert (await remote.state(mid, alice, None)).seq == seq  # nobody thought: no worker runs
    worker = BotWorker(db, {"duel": DUEL}.__getitem__, lambda *_: _FirstBot(), poll_seconds=0.02)
    assert await asyncio.to_thread(worker.step)
    await _until(lambda: _bot_rows(db, mid), what="the bot's move")
    assert _bot_rows(db, mid) == [seq + 1]
    await _until(lambda: _job(db, mid, seq) is None, what="the applied job's deletion")


class _FirstBot:
    level = "easy"

    def choose(self, game: Any, state: Any, seat: int, rng: random.Random) -> Any:
        return game.legal_actions(state, seat)[0]


# -- leases and answers ------------------------------------------------------------------------------
async def test_a_job_is_leased_to_one_worker_at_a_time(remote: MatchService, db: Database) -> None:
    mid, _alice, seq = await _bot_due_match(remote)
    await _until(lambda: _job(db, mid, seq), what="the bot job")
    now = utcnow()
    with db.session() as s:
        first = botjobs.take(s, "a", now, 5.0)
    with db.session() as s:
        assert botjobs.take(s, "b", now + timedelta(seconds=1), 5.0) is None  # leased
    with db.session() as s:
        second = botjobs.take(s, "b", now + timedelta(seconds=6), 5.0)  # the lease ran out
    assert first is not None and second is not None
    assert (first.attempts, second.attempts) == (1, 2)
    assert first.position == second.position and first.seed == second.seed


async def test_a_late_or_repeated_answer_is_harmless(remote: MatchService, db: Database) -> None:
    mid, alice, seq = await _bot_due_match(remote, rounds=1)
    await _until(lambda: _job(db, mid, seq), what="the bot job")
    now = utcnow()
    with db.session() as s:
        late = botjobs.take(s, "late", now, 0.01)
    with db.session() as s:
        fresh = botjobs.take(s, "fresh", now + timedelta(seconds=1), 5.0)
    assert late is not None and fresh is not None
    legal = (await remote.get_live(mid)).game.legal_actions((await remote.get_live(mid)).state, fresh.seat)
    action = DUEL.action_to_json(legal[0])
    with db.session() as s:
        assert not botjobs.answer(s, late, action, utcnow())  # its lease was taken over
    with db.session() as s:
        assert botjobs.answer(s, fresh, action, utcnow())
        assert not botjobs.answer(s, fresh, action, utcnow())  # answered already
    await _until(lambda: _bot_rows(db, mid), what="the bot's move")
    after = await remote.state(mid, alice, None)
    # The applied job is deleted by the web side's collector; until then an enqueue of the same key keeps the
    # answered row (nothing due to take), so wait for it (the race made this test flaky under load).
    await _until(lambda: _job(db, mid, seq) is None, what="the applied job's deletion")
    # The same answer again (a worker that thought it lost it, a second web worker): nothing happens.
    repeat = botjobs.Job(**{**fresh.__dict__, "attempts": 0, "creator": remote.bots.name})
    with db.session() as s:
        botjobs.enqueue(s, repeat, utcnow())
        again = botjobs.take(s, "again", utcnow(), 5.0)
        assert again is not None and botjobs.answer(s, again, action, utcnow())
    await _until(lambda: _job(db, mid, seq) is None, what="the repeated answer's deletion")
    assert (await remote.state(mid, alice, None)).seq == after.seq
    assert _bot_rows(db, mid) == [seq + 1]


async def test_a_worker_killed_mid_think_loses_nothing(
    remote: MatchService, db: Database, database_url: str, tmp_path: Path
) -> None:
    mid, alice, seq = await _bot_due_match(remote, rounds=1)  # the bot moves once in this match
    await _until(lambda: _job(db, mid, seq), what="the bot job")
    with fake_worker(database_url, "doomed", "slow", tmp_path / "doomed.log") as doomed:

        def leased() -> bool:
            job = _job(db, mid, seq)
            with db.session() as s:
                row = s.get(botjobs.BotJob, (mid, seq))
                return job is not None and job.attempts == 1 and row is not None and row.worker == "doomed"

        await _until(leased, 20, "the doomed worker's lease")
        doomed.send_signal(signal.SIGKILL)
        doomed.wait(10)
    assert (await remote.state(mid, alice, None)).seq == seq
    log = tmp_path / "rescuer.log"
    with fake_worker(database_url, "rescuer", "first", log):
        await _until(lambda: _bot_rows(db, mid), 20, "the bot's move after the lease")
        await _until(lambda: _job(db, mid, seq) is None, what="the applied job's deletion")
    assert _bot_rows(db, mid) == [seq + 1]
    assert f"answered {mid} {seq} 2" in log.read_text()  # taken a second time, answered once
    final = await remote.state(mid, alice, None)
    assert final.seq == seq + 1 and (final.status == "finished" or final.to_move == [0])


# -- processes -----------------------------------------------------------------------------------------
def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait(predicate: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _env(url: str, tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "VAR_DIR": str(tmp_path / "var"),
        "SECRET_KEY": "bots-test-secret-0123456789abcdef",
        "BOT_THINK_SECONDS": "0.05",
        **extra,
    }
    env.pop("REDIS_URL", None)
    return env


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_serve_without_bot_workers_plays_through_duelclub_bots(database_url: str, tmp_path: Path) -> None:
    env = _env(database_url, tmp_path, BOT_WORKERS="0")
    with server(env, tmp_path / "server.log") as (proc, base), httpx.Client(base_url=base) as c:
        assert _children(proc.pid) == []  # no local pool
        r = c.post("/api/auth/register", json={"username": "alice", "password": "password123"})
        assert r.status_code == 201
        body = {"game": "mezha", "vs": "bot", "bot_level": "easy", "options": {"house": "olkha"}}
        mid = c.post("/api/matches", json=body).json()["id"]
        st = c.get(f"/api/matches/{mid}/state").json()
        if st["legal"]:
            st = play(c, mid, st, "first")
        time.sleep(1.0)
        assert c.get(f"/api/matches/{mid}/state").json()["seq"] == st["seq"]  # nobody thinks
        with (tmp_path / "bots.log").open("wb") as out:
            bots = subprocess.Popen(
                [sys.executable, "-m", "duelclub.cli", "bots", "--workers", "1"],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        try:
            bot_moves = 0
            for i in range(40):
                st = my_turn(c, mid)
                log = c.get(f"/api/matches/{mid}/state", params={"since": 0}).json()
                bot_moves = sum(1 for e in log["events"] if e.get("seat") == 1)
                if st["status"] != "active" or bot_moves >= 3:
                    break
                play(c, mid, st, f"a{i}")
            assert bot_moves >= 3 or st["status"] == "finished", (tmp_path / "bots.log").read_text()
            workers = _wait(lambda: _children(bots.pid), 10, "the bot worker process")
        finally:
            bots.send_signal(signal.SIGTERM)
            assert bots.wait(15) == 0
        assert not any(_alive(pid) for pid in workers)


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_serve_restarts_a_dead_bot_worker_and_leaves_no_orphans(tmp_path: Path) -> None:
    env = _env(f"sqlite:///{tmp_path / 'pool.db'}", tmp_path, BOT_WORKERS="2")
    with server(env, tmp_path / "server.log") as (proc, _base):
        first = _wait(lambda: len(_children(proc.pid)) == 2 and _children(proc.pid), 20, "two bot workers")
        os.kill(first[0], signal.SIGKILL)
        restarted = _wait(
            lambda: (kids := _children(proc.pid)) and len(kids) == 2 and first[0] not in kids and kids,
            20,
            "a restarted bot worker",
        )
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        _wait(lambda: not any(_alive(pid) for pid in restarted), 10, "the bot workers to die with serve")


async def test_the_first_job_after_an_idle_spell_is_collected_at_once(db: Database) -> None:
    """Issue 29 §1: a collector with no job of its own out sleeps ``sweep_seconds × idle_sweep_factor``
    (here a minute); its first new job wakes it, so on SQLite (no NOTIFY) the answer is polled for at once,
    not after the long sleep."""
    slow_sweep = BotWorkers(poll_seconds=0.02, sweep_seconds=30.0, idle_sweep_factor=2.0)
    service = MatchService(db, MemoryBus(), fake_games(), slow_sweep)
    await service.start()
    try:
        await asyncio.sleep(0.2)  # the collector is in its long sleep
        mid, _alice, seq = await _bot_due_match(service)
        await _until(lambda: _job(db, mid, seq), what="the bot job")
        worker = BotWorker(db, {"duel": DUEL}.__getitem__, lambda *_: _FirstBot(), poll_seconds=0.02)
        assert await asyncio.to_thread(worker.step)
        await _until(lambda: _bot_rows(db, mid), timeout=10.0, what="the bot's move")
    finally:
        await service.stop()
