"""Bot scheduling in the match service (play/bots.py): bots move when exactly their seat is due, a failing
bot leaves the match waiting, and a restarted service resumes due bots."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest

from duelclub.bus import MemoryBus
from duelclub.play import lobby
from duelclub.play.service import MatchService
from duelclub.store import users
from duelclub.store.db import Database


class BrokenBot:
    level = "easy"

    def choose(self, game: Any, state: Any, seat: int, rng: random.Random) -> Any:
        raise RuntimeError("bot crashed")


class FirstBot:
    level = "easy"

    def choose(self, game: Any, state: Any, seat: int, rng: random.Random) -> Any:
        return game.legal_actions(state, seat)[0]


async def _wait_for(predicate: Callable[[], Any], timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not await predicate():
            await asyncio.sleep(0.01)


@pytest.fixture
def db(sqlite_url: str) -> Any:
    database = Database(sqlite_url)
    yield database
    database.dispose()


async def test_a_restarted_service_resumes_a_due_bot(
    db: Database, duel: Any, caplog: pytest.LogCaptureFixture
) -> None:
    with db.session() as s:
        alice = users.create_user(s, "alice", "password123").id
    broken = MatchService(db, MemoryBus(), {"duel": duel}, lambda slug, level: BrokenBot())
    created = await lobby.create_match(broken, alice, game="duel", vs="bot", options={"rounds": 3})
    mid = created.id
    st = await broken.state(mid, alice, None)
    if st.legal:  # make the bot due
        st = await broken.act(mid, alice, "first", st.seq, st.legal[0])
    assert st.to_move == [1]
    # The bot thinks in a (here: in-process test) bot worker; wait until it has failed at least once.
    async with asyncio.timeout(5):
        while "bot crashed" not in caplog.text:
            await asyncio.sleep(0.01)
    assert (await broken.state(mid, alice, None)).seq == st.seq  # the broken bot did nothing
    await broken.stop()

    healthy = MatchService(db, MemoryBus(), {"duel": duel}, lambda slug, level: FirstBot())
    await healthy.start()
    try:

        async def moved_until_alice_is_due() -> bool:
            # The bot may win the round and lead the next one: it then moves again (another job).
            now = await healthy.state(mid, alice, None)
            return now.seq > st.seq and (now.to_move in ([0], []) or now.status != "active")

        await _wait_for(moved_until_alice_is_due)
    finally:
        await healthy.stop()


async def test_bot_plays_whole_rounds_against_a_human(db: Database, duel: Any) -> None:
    with db.session() as s:
        alice = users.create_user(s, "alice", "password123").id
    service = MatchService(db, MemoryBus(), {"duel": duel}, lambda slug, level: FirstBot())
    try:
        mid = (await lobby.create_match(service, alice, game="duel", vs="bot", options={})).id
        for i in range(20):
            st = await service.state(mid, alice, None)
            if st.status != "active":
                break
            if st.legal:
                await service.act(mid, alice, f"a{i}", st.seq, st.legal[0])
            else:

                async def alice_due() -> bool:
                    s2 = await service.state(mid, alice, None)
                    return bool(s2.legal) or s2.status != "active"

                await _wait_for(alice_due)
        final = await service.state(mid, alice, 0)
        assert final.status == "finished" and final.result is not None
        assert final.result["names"] == ["alice", "bot:easy"]
        assert {e["seat"] for e in final.events if e["kind"] == "played"} == {0, 1}
    finally:
        await service.stop()
