"""The bot driver: plays bot seats through the match service (DESIGN.md §Layers — play/ schedules bots).

After every change the service calls :meth:`BotDriver.poke`. A bot moves when exactly its seat is in
``to_move`` — never while a human seat may also act, so in Mezha's pause between seasons the bot waits for the
human's «Следующий сезон» (rules/mezha.md D17). The bot thinks in a worker thread on a determinization of
the state, with its own ``random.Random`` (never the match stream), and its action goes through
``MatchService.apply_as(..., source="bot")``; if the match moved meanwhile, the driver looks again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import anyio.to_thread

from duelclub.bots.base import Bot
from duelclub.games.contract import Seat
from duelclub.store import matches as repo

if TYPE_CHECKING:
    from duelclub.play.live import LiveMatch
    from duelclub.play.service import MatchService

log = logging.getLogger(__name__)
BotFactory = Callable[[str, str], Bot]
"""``(game slug, level) -> bot``."""
MAX_STALE_RETRIES = 20


def bot_seat_due(live: LiveMatch) -> Seat | None:
    """The bot seat that must act now: the only seat in ``to_move``, held by a bot; else None."""
    to_move = live.to_move()
    if len(to_move) != 1:
        return None
    (seat,) = to_move
    record = live.record
    if record.seat_bots[seat] is None or record.seat_users[seat] is not None:
        return None
    return seat


class BotDriver:
    """One task per match with a bot to move; tasks end when the bot has nothing to do."""

    def __init__(self, service: MatchService, factory: BotFactory | None) -> None:
        self._service = service
        self._factory = factory
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._closed = False

    @property
    def available(self) -> bool:
        return self._factory is not None

    def poke(self, live: LiveMatch) -> None:
        """Start (or re-arm) the match's bot task if a bot is due."""
        if self._factory is None or self._closed or bot_seat_due(live) is None:
            return
        task = self._tasks.get(live.id)
        if task is not None and not task.done():
            self._again.add(live.id)
            return
        self._tasks[live.id] = asyncio.create_task(self._run(live.id), name=f"bot:{live.id}")

    def cancel(self, match_id: str) -> None:
        task = self._tasks.pop(match_id, None)
        if task is not None:
            task.cancel()

    async def resume(self) -> None:
        """Poke every active match with a bot seat (startup after a restart)."""
        ids = await anyio.to_thread.run_sync(self._active_ids)
        for match_id in ids:
            try:
                self.poke(await self._service.get_live(match_id))
            except Exception:
                log.exception("bot resume failed for match %s", match_id)

    def _active_ids(self) -> list[str]:
        with self._service.db.session() as s:
            return repo.active_bot_match_ids(s)

    async def stop(self) -> None:
        self._closed = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()

    async def _run(self, match_id: str) -> None:
        stale = 0
        try:
            while stale < MAX_STALE_RETRIES:
                self._again.discard(match_id)
                played = await self._turn(match_id)
                if played is None:
                    if match_id in self._again:
                        continue
                    return
                stale = 0 if played else stale + 1
            log.warning("bot for match %s gave up after %d stale attempts", match_id, stale)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot for match %s failed", match_id)
        finally:
            if self._tasks.get(match_id) is asyncio.current_task():
                del self._tasks[match_id]

    async def _turn(self, match_id: str) -> bool | None:
        """One bot decision: None if no bot is due, else whether its action was applied."""
        assert self._factory is not None
        live = await self._service.get_live(match_id)
        async with live.lock:
            await self._service.catch_up(live)
            seat = bot_seat_due(live)
            if seat is None:
                return None
            rng = random.Random(secrets.randbits(64))
            # The bot gets a determinization, never the real state: it cannot see the opponent's hand,
            # the deck orders, future omens or the stream key, whatever its code does.
            seq, game = live.seq, live.game
            state = game.determinize(live.state, seat, rng)
            level = live.record.seat_bots[seat]
        assert level is not None
        bot = self._factory(game.slug, level)
        action: Any = await anyio.to_thread.run_sync(bot.choose, game, state, seat, rng)
        return await self._service.apply_as(
            match_id, seat, game.action_to_json(action), source="bot", expected_seq=seq
        )
