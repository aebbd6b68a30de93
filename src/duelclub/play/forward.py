"""Forwarding a match's writes to the worker that owns it (issue 12 §3, DESIGN.md §Real time).

Each worker listens on its own bus channel ``worker:{worker id}`` (play/ownership.py). An act that reaches a
worker which does not own the match is sent there as ``{"type": "op", "rid", "reply": worker id, "op":
{...}}`` (bus/messages.py ``ForwardedOp``, validated on receipt); the owner runs it with
:meth:`Router.run_local` (play/routing.py) and answers on the caller's channel ``{"type": "answer", "rid",
"ok": result}`` or ``{"type": "answer", "rid", "err": [status, code, message]}`` (a :class:`PlayError`; a
store outage on the owner is 503 ``store_unavailable``, issue 29 §6, never a 500).
The socket stays where it is: only the request travels.

When no answer comes within :data:`FORWARD_TIMEOUT_SECONDS` (the owner died, is frozen, or the bus is down),
:meth:`Forwarder.call` raises :class:`NoAnswer` and the caller writes itself — at once, without waiting, once
the bus has seen that nobody listens on the owner's channel any more (``Bus.unheard``: a dead worker; its
lease lives on until it expires, and each write would otherwise wait the time-out again): the ``(match_id,
seq)`` key and the client action id make that safe even if the owner later runs the same request.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import TypeAdapter, ValidationError

from duelclub.aio import stop_task
from duelclub.bus import Bus, Message, Subscription
from duelclub.bus.messages import ForwardAnswer, ForwardedOp
from duelclub.play.errors import PlayError, store_unavailable
from duelclub.store.health import is_outage

log = logging.getLogger(__name__)
FORWARD_TIMEOUT_SECONDS = 3.0
Handler = Callable[[dict[str, Any]], Awaitable[Any]]
HandOver = Callable[[str, str, dict[str, Any]], Awaitable[str | None]]
"""``(match id, requesting worker, op) -> the lease's new value or None``: after a served op, before its
answer (play/routing.py: the lease follows the players)."""
Answered = Callable[[ForwardAnswer], None]
FORWARDED_OP = TypeAdapter(ForwardedOp)


class NoAnswer(Exception):
    """The owner did not answer in time."""


def worker_channel(worker_id: str) -> str:
    return f"worker:{worker_id}"


class Forwarder:
    """Request/reply between workers over the bus; ``handler(op)`` runs the ops sent to this worker."""

    def __init__(
        self,
        bus: Bus,
        worker_id: str,
        handler: Handler,
        *,
        timeout: float = FORWARD_TIMEOUT_SECONDS,
        holds: Callable[[str], bool] | None = None,
        hand_over: HandOver | None = None,
    ) -> None:
        self._bus = bus
        self.worker_id = worker_id
        self._handler = handler
        self._holds = holds
        """Whether this worker holds a match's lease (said in its answers as ``held``)."""
        self._hand_over = hand_over
        """Whether to give the caller the match's lease (said in the answer as ``lease``, its new value)."""
        self.timeout = timeout
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Message]] = {}
        self._task: asyncio.Task[None] | None = None
        self._running: set[asyncio.Task[None]] = set()
        self.forwarded = 0
        """Requests this worker sent to owners (for tests and benchmarks)."""
        self.served = 0
        """Requests this worker ran for other workers."""

    async def start(self) -> None:
        if self._task is None:
            sub = await self._bus.subscribe(worker_channel(self.worker_id))
            self._task = asyncio.create_task(self._listen(sub), name="forwarder")

    async def stop(self) -> None:
        task, self._task = self._task, None
        await stop_task(task)
        for running in list(self._running):
            running.cancel()
        for fut in self._waiting.values():
            fut.cancel()

    async def call(self, owner: str, op: dict[str, Any], *, answered: Answered | None = None) -> Any:
        """Run ``op`` on worker ``owner``; its result, or the PlayError it raised. Raises NoAnswer.
        ``answered(reply)`` sees the owner's answer first (its ``held`` and ``lease``: play/routing.py)."""
        if self._bus.unheard(worker_channel(owner)):  # a dead owner: nobody would answer (issue 29 §6)
            raise NoAnswer(owner)
        rid = next(self._ids)
        fut: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = fut
        self.forwarded += 1
        try:
            await self._bus.publish(
                worker_channel(owner), ForwardedOp(type="op", rid=rid, reply=self.worker_id, op=op)
            )
            async with asyncio.timeout(self.timeout):
                reply = await fut
        except TimeoutError:
            raise NoAnswer(owner) from None
        finally:
            self._waiting.pop(rid, None)
        if answered is not None:
            answered(reply)  # type: ignore[arg-type]
        if "err" in reply:
            status, code, message = reply["err"]
            raise PlayError(int(status), str(code), str(message))
        return reply.get("ok")

    async def _listen(self, sub: Subscription) -> None:
        try:
            async for message in sub:
                kind = message.get("type")
                if kind == "op":
                    try:  # a write to run here: checked at the boundary (cheap next to the write)
                        op = FORWARDED_OP.validate_python(message)
                    except ValidationError:
                        log.warning("forwarder: malformed op dropped")
                        continue
                    task = asyncio.create_task(self._serve(op))
                    self._running.add(task)
                    task.add_done_callback(self._running.discard)
                elif kind == "answer":
                    fut = self._waiting.get(int(message["rid"]))
                    if fut is not None and not fut.done():
                        fut.set_result(message)
        finally:
            await sub.close()

    async def _serve(self, message: ForwardedOp) -> None:
        self.served += 1
        reply = ForwardAnswer(type="answer", rid=message["rid"])
        match_id = message["op"].get("match")
        try:
            reply["ok"] = await self._handler(message["op"])
        except PlayError as exc:
            reply["err"] = [exc.status, exc.code, exc.message]
        except Exception as exc:
            if is_outage(exc):  # the owner's database is down: the caller answers 503, no traceback
                down = store_unavailable()
                reply["err"] = [down.status, down.code, down.message]
                await self._answer(message, reply, match_id)
                return
            log.exception("forwarded op failed: %s", message["op"].get("kind"))
            reply["err"] = [500, "internal", "the owner of the match failed; retry"]
        await self._answer(message, reply, match_id)

    async def _answer(self, message: ForwardedOp, reply: ForwardAnswer, match_id: Any) -> None:
        if self._hand_over is not None and isinstance(match_id, str) and "ok" in reply:
            lease = await self._hand_over(match_id, str(message["reply"]), message["op"])
            if lease is not None:
                reply["lease"] = lease
        if self._holds is not None and isinstance(match_id, str):
            reply["held"] = self._holds(match_id)  # after the write: a match it ended is released
        await self._bus.publish(worker_channel(str(message["reply"])), reply)
