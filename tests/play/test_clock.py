"""Move clocks through the match service (play/clock.py): the deadline on the row, the sweeper applying
``timeout_action`` as an ordinary logged action (source ``clock``) once both players have made their first
action — before that a clock running out aborts the match (issue 14 §2) —, the race between a last-second
move and its deadline, two workers sweeping at once, and the clock settings per ``clock_mode``. Time is a
:class:`FakeClock`: nothing sleeps for real seconds."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from fake_clock import FakeClock

from duelclub.play import lobby
from duelclub.play.clock import MIN_MOVE_SECONDS, SWEEP_SECONDS, clock_setting
from duelclub.play.errors import PlayError
from duelclub.play.service import MatchService
from duelclub.store import matches as repo
from duelclub.store import users
from duelclub.store.db import Database

T = 15


def _users(db: Database, *names: str) -> list[int]:
    with db.session() as s:
        return [users.create_user(s, n, "password123").id for n in names]


async def _clocked(
    service: MatchService, a: int, b: int, options: dict[str, Any] | None = None, seconds: int | None = T
) -> str:
    created = await lobby.create_match(
        service, a, game="duel", vs="invite", options=options or {}, move_seconds=seconds
    )
    assert created.invite_token is not None
    match_id, _ = await lobby.accept_invite(service, created.invite_token, b, "c0ffee")
    return match_id


def _log(db: Database, match_id: str) -> list[repo.ActionRecord]:
    with db.session() as s:
        return repo.actions_after(s, match_id)


def _row(db: Database, match_id: str) -> repo.MatchRecord:
    with db.session() as s:
        record = repo.get_match(s, match_id)
    assert record is not None
    return record


async def _mover(service: MatchService, match_id: str, ids: list[int]) -> tuple[int, Any]:
    for uid in ids:
        st = await service.state(match_id, uid, None)
        if st.legal:
            return uid, st
    raise AssertionError("nobody to move")


async def _open(service: MatchService, match_id: str, ids: list[int]) -> int:
    """Both players make their first action (the match can no longer be aborted); the seq reached."""
    for n in range(2):
        uid, st = await _mover(service, match_id, ids)
        await service.act(match_id, uid, f"open{n}", st.seq, st.legal[0])
    live = await service.fresh(match_id)
    assert live.moved == {0, 1} and not live.abortable()
    return live.seq


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def worker(db: Database, clock: FakeClock, service_factory: Callable[..., MatchService]) -> MatchService:
    service = service_factory(db, bots=False)
    service.now = clock
    return service


async def test_the_deadline_is_set_at_the_start_and_after_every_move(
    db: Database, worker: MatchService, clock: FakeClock
) -> None:
    a, b = _users(db, "alice", "bob")
    mid = await _clocked(worker, a, b)
    assert _row(db, mid).deadline_at == clock() + timedelta(seconds=T)
    uid, st = await _mover(worker, mid, [a, b])
    clock.advance(7)
    after = await worker.act(mid, uid, "m1", st.seq, st.legal[0])
    assert _row(db, mid).deadline_at == clock() + timedelta(seconds=T)
    assert after.clock is not None and after.clock["move_seconds"] == T


async def test_an_expired_clock_plays_the_timeout_as_a_logged_clock_action(
    db: Database, worker: MatchService, clock: FakeClock
) -> None:
    a, b = _users(db, "alice", "bob")
    mid = await _clocked(worker, a, b)
    opened = await _open(worker, mid, [a, b])
    sweeper = worker.clock_sweeper()
    _, st = await _mover(worker, mid, [a, b])
    clock.advance(T - 0.001)
    assert await sweeper.sweep() == 0
    assert len(_log(db, mid)) == opened
    clock.advance(0.001)
    assert await sweeper.sweep() == 1
    entry = _log(db, mid)[-1]
    assert (entry.seq, entry.seat, entry.source) == (opened + 1, st.to_move[0], "clock")
    assert entry.action == {"kind": "timeout"}
    assert entry.user_id is None
    # the clock restarted for the next seat, from the moment of the timeout
    assert _row(db, mid).deadline_at == clock() + timedelta(seconds=T)
    assert await sweeper.sweep() == 0
    # counted for /metrics (issue 13 §2)
    game = _row(db, mid).game
    assert worker.metrics.registry.get_sample_value("duelclub_clock_timeouts_total", {"game": game}) == 1.0


async def test_a_mezha_correspondence_clock_of_7_days_passes_for_the_late_player(
    db: Database, worker: MatchService, clock: FakeClock
) -> None:
    a, b = _users(db, "alice", "bob")
    week = 7 * 86_400
    created = await lobby.create_match(worker, a, game="mezha", vs="invite", options={}, move_seconds=week)
    assert created.invite_token is not None
    mid, _ = await lobby.accept_invite(worker, created.invite_token, b, "c0ffee")
    assert _row(db, mid).deadline_at == clock() + timedelta(seconds=week)
    opened = await _open(worker, mid, [a, b])
    sweeper = worker.clock_sweeper()
    clock.advance(week - 1)
    assert await sweeper.sweep() == 0
    clock.advance(1)
    assert await sweeper.sweep() == 1
    entry = _log(db, mid)[-1]
    assert (entry.seq, entry.source) == (opened + 1, "clock")
    assert entry.action["kind"] in ("pass", "next_season")  # rules.timeout_action


async def test_a_clock_running_out_before_the_first_players_first_action_aborts_the_match(
    db: Database, worker: MatchService, clock: FakeClock
) -> None:
    """No result and nothing logged: the match never began (issue 14 §2). The server seed is revealed."""
    a, b = _users(db, "alice", "bob")
    mid = await _clocked(worker, a, b)
    _, st = await _mover(worker, mid, [a, b])
    clock.advance(T)
    assert await worker.clock_sweeper().sweep() == 1
    record = _row(db, mid)
    assert record.status == "aborted" and record.deadline_at is None
    assert record.result is not None
    assert (record.result["winner"], record.result["reason"], record.result["seat"]) == (
        None,
        "no_first_move",
        st.to_move[0],
    )
    assert _log(db, mid) == []
    assert (await worker.summary(mid)).server_seed is not None


async def test_a_clock_running_out_before_the_second_players_first_action_aborts_it_too(
    db: Database, worker: MatchService, clock: FakeClock
) -> None:
    a, b = _users(db, "alice", "bob")
    mid = await _clocked(worker, a, b)
    uid, st = await _mover(worker, mid, [a, b])
    await worker.act(mid, uid, "first", st.seq, st.legal[0])
    _, second = await _mover(worker, mid, [a, b])
    clock.advance(T)
    assert await worker.clock_sweeper().sweep() == 1
    record = _row(db, mid)
    assert record.status == "aborted" and record.result is not None
    assert (record.result["reason"], record.result["seat"]) == ("no_first_move", second.to_move[0])
    assert [(e.seq, e.source) for e in _log(db, mid)] == [(1, "player")]


async def test_a_late_first_move_is_refused_and_the_match_aborted(
    db: Database, worker: MatchService, clock: FakeClock
) -> None:
    a, b = _users(db, "alice", "bob")
    mid = await _clocked(worker, a, b)
    deadline = _row(db, mid).deadline_at
    assert deadline is not None
    uid, st = await _mover(worker, mid, [a, b])
    clock.at(deadline)
    with pytest.raises(PlayError) as err:
        await worker.act(mid, uid, "too-late", st.seq, st.legal[0])
    assert err.value.code == "clock_expired"
    assert _row(db, mid).status == "aborted" and _log(db, mid) == []


async def test_a_move_before_the_deadline_counts_and_the_timeout_does_not(
    db: Database, worker: MatchService, clock: FakeClock
) -> None:
    a, b = _users(db, "alice", "bob")
    mid = await _clocked(worker, a, b)
    opened = await _open(worker, mid, [a, b])
    deadline = _row(db, mid).deadline_at
    assert deadline is not None
    uid, st = await _mover(worker, mid, [a, b])
    clock.at(deadline - timedelta(milliseconds=1))
    await worker.act(mid, uid, "last-second", st.seq, st.legal[0])
    clock.at(deadline)
    assert await worker.clock_sweeper().sweep() == 0
    assert [(e.seq, e.source) for e in _log(db, mid)][opened:] == [(opened + 1, "player")]


async def test_a_move_at_the_deadline_is_refused_and_the_clock_plays(
    db: Database, worker: MatchService, clock: FakeClock
) -> None:
    a, b = _users(db, "alice", "bob")
    mid = await _clocked(worker, a, b)
    opened = await _open(worker, mid, [a, b])
    deadline = _row(db, mid).deadline_at
    assert deadline is not None
    uid, st = await _mover(worker, mid, [a, b])
    clock.at(deadline)
    with pytest.raises(PlayError) as err:
        await worker.act(mid, uid, "too-late", st.seq, st.legal[-1])
    assert err.value.code == "clock_expired"
    assert [(e.seq, e.source, e.action) for e in _log(db, mid)][opened:] == [
        (opened + 1, "clock", {"kind": "timeout"})
    ]


async def test_two_workers_and_a_late_move_racing_for_one_deadline_store_one_action(
    db: Database, clock: FakeClock, service_factory: Callable[..., MatchService]
) -> None:
    one, two = service_factory(db, bots=False), service_factory(db, bots=False)
    one.now = two.now = clock
    a, b = _users(db, "alice", "bob")
    mid = await _clocked(one, a, b)
    opened = await _open(one, mid, [a, b])
    uid, st = await _mover(two, mid, [a, b])
    clock.advance(T + 1)

    async def late_move() -> str:
        try:
            await two.act(mid, uid, "late", st.seq, st.legal[0])
        except PlayError as exc:
            return exc.code
        return "applied"

    results = await asyncio.gather(one.clock_sweeper().sweep(), two.clock_sweeper().sweep(), late_move())
    entries = _log(db, mid)[opened:]
    assert [e.seq for e in entries] == [opened + 1]
    assert entries[0].source == "clock"
    assert sum(results[:2]) <= 1 and results[2] in ("clock_expired", "stale_seq")
    # both workers' caches agree with the log
    for w in (one, two):
        assert (await w.fresh(mid)).seq == opened + 1


async def test_a_restarted_worker_sweeps_a_deadline_that_passed_while_it_was_down(
    db: Database, clock: FakeClock, service_factory: Callable[..., MatchService]
) -> None:
    first = service_factory(db, bots=False)
    first.now = clock
    a, b = _users(db, "alice", "bob")
    mid = await _clocked(first, a, b)
    opened = await _open(first, mid, [a, b])
    await first.stop()
    clock.advance(3600)
    restarted = service_factory(db, bots=False)
    restarted.now = clock
    sweeper = restarted.clock_sweeper(interval=0.01)
    restarted.add_background(sweeper)
    await restarted.start()
    async with asyncio.timeout(5):
        while len(_log(db, mid)) == opened:
            await asyncio.sleep(0.01)
    assert _log(db, mid)[opened].source == "clock"


async def test_matches_vs_a_bot_and_unclocked_invites_have_no_deadline(
    db: Database, worker: MatchService, service_factory: Callable[..., MatchService]
) -> None:
    a, b = _users(db, "alice", "bob")
    unclocked = await _clocked(worker, a, b, seconds=None)
    assert _row(db, unclocked).move_seconds is None and _row(db, unclocked).deadline_at is None
    bot = await lobby.create_match(service_factory(db), a, game="duel", vs="bot", options={}, move_seconds=30)
    assert _row(db, bot.id).move_seconds is None and _row(db, bot.id).deadline_at is None


def test_clock_settings_follow_the_games_clock_mode(duel: Any) -> None:
    from duelclub.games.mezha import GAME as MEZHA

    class Required:
        slug, clock_mode = "req", "required"

    assert clock_setting(Required(), vs_bot=False, move_seconds=None) == 60  # type: ignore[arg-type]
    assert clock_setting(Required(), vs_bot=False, move_seconds=15) == 15  # type: ignore[arg-type]
    assert clock_setting(Required(), vs_bot=True, move_seconds=15) is None  # type: ignore[arg-type]
    assert clock_setting(duel, vs_bot=False, move_seconds=None) is None
    assert clock_setting(duel, vs_bot=False, move_seconds=86400) == 86400
    assert clock_setting(duel, vs_bot=False, move_seconds=604_800) == 604_800  # issue 28 §4: up to 7 days
    for bad in (9, 604_801):
        with pytest.raises(PlayError) as err:
            clock_setting(duel, vs_bot=False, move_seconds=bad)
        assert err.value.code == "bad_clock"
    # Межа: unlimited by default (rules/mezha.md D19); a correspondence clock of 1 to 7 days on request
    assert clock_setting(MEZHA, vs_bot=False, move_seconds=None) is None
    assert clock_setting(MEZHA, vs_bot=False, move_seconds=86_400) == 86_400
    assert clock_setting(MEZHA, vs_bot=False, move_seconds=604_800) == 604_800
    assert clock_setting(MEZHA, vs_bot=True, move_seconds=86_400) is None
    for bad in (60, 86_399, 604_801):
        with pytest.raises(PlayError) as err:
            clock_setting(MEZHA, vs_bot=False, move_seconds=bad)
        assert err.value.code == "bad_clock"


def test_every_game_offers_correspondence_clocks_of_1_to_7_days() -> None:
    from duelclub.games.registry import all_games
    from duelclub.web.routes.pages import clock_choices

    days = ["86400", "172800", "259200", "432000", "604800"]
    for game in all_games().values():
        values = [c["value"] for c in clock_choices(game.clock_mode)]
        assert values[-len(days) :] == days, game.slug
        default = [c["value"] for c in clock_choices(game.clock_mode) if c["default"]]
        assert default == (["60"] if game.clock_mode == "required" else [""]), game.slug
    mezha = clock_choices(all_games()["mezha"].clock_mode)
    assert [c["value"] for c in mezha] == ["", *days]  # no blitz clock in Межа, no clock by default
    assert [c["label"] for c in mezha] == ["Без часов", "24 ч", "2 дня", "3 дня", "5 дней", "7 дней"]


async def test_a_sweep_pass_is_one_transaction_and_sleeps_until_the_next_deadline(
    db: Database, worker: MatchService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29 §1: an idle worker's clock costs one transaction per pass, and a pass sleeps at most
    SWEEP_SECONDS — never past a deadline: every deadline is set at least MIN_MOVE_SECONDS ahead, so the pass
    after the move that set it reads it before it runs out."""
    assert 0 < SWEEP_SECONDS < MIN_MOVE_SECONDS
    a, b = _users(db, "alice", "bob")
    mid = await _clocked(worker, a, b, seconds=MIN_MOVE_SECONDS)
    await _open(worker, mid, [a, b])
    sweeper = worker.clock_sweeper()
    opened: list[int] = []
    real_session = db.session
    monkeypatch.setattr(db, "session", lambda: opened.append(1) or real_session())
    assert await sweeper._pass() == SWEEP_SECONDS  # the deadline is MIN_MOVE_SECONDS away
    assert len(opened) == 1
    clock.advance(MIN_MOVE_SECONDS - 2)
    assert await sweeper._pass() == pytest.approx(2.0)  # sleeps until the deadline, not the whole interval
    clock.advance(2)
    monkeypatch.setattr(db, "session", real_session)
    assert await sweeper.sweep() == 1
