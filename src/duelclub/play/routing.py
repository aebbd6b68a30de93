"""Where a write runs: on the match's owner (issue 12 §3, DESIGN.md §Real time).

A live match is owned by one worker at a time (a lease, play/ownership.py). :class:`Router` claims the lease
for each write: when this worker holds it (or takes the free lease) the write runs here, in play/commit.py;
when another worker does, the write travels there as an op (play/forward.py) and its answer comes back. When
the owner does not answer, or Redis is unreachable, the write runs here too: the (match_id, seq) key and the
client action id keep that safe. The clock never travels: an overdue match owned by another worker is left to
that worker's own sweeper.

An op is ``{"kind": "act", match, user, cid, seq, action, payload, lang}`` (a player's action; ``payload``:
answer the new state rather than the seq; ``lang``: the mover's language, in which the owner words the
pushes; ``here``, set when it is forwarded: the sending worker has a socket of the match, so the owner may
hand it the lease, play/ownership.py) or ``{"kind": "apply_as", match, seat, action, source, expected_seq}``
(a bot's); it is built and read only here.
"""

from __future__ import annotations

import logging
from typing import Any

from duelclub import i18n
from duelclub.bus import Bus, match_channel
from duelclub.bus.messages import ForwardAnswer
from duelclub.games.contract import Seat
from duelclub.play.commit import MatchWriter
from duelclub.play.errors import PlayError
from duelclub.play.forward import Forwarder, NoAnswer
from duelclub.play.live import JSON
from duelclub.play.ownership import Leases
from duelclub.play.schemas import StatePayload

log = logging.getLogger(__name__)


class Router:
    """Sends this worker's writes to their match's owner; runs here the ops that are ours (``writer``) and
    those that other workers forward to us (``forwarder``, listening on this worker's channel of ``bus``)."""

    def __init__(self, bus: Bus, leases: Leases, writer: MatchWriter) -> None:
        self.bus = bus
        self.leases = leases
        self.writer = writer
        self.forwarder = Forwarder(
            bus, leases.worker_id, self._serve_forwarded, holds=leases.owns, hand_over=self._hand_over
        )
        self.handed_over = 0
        """Leases this worker gave to the worker its players' sockets are on (for tests and benchmarks)."""

    async def act(
        self, match_id: str, user_id: int, client_id: str, seq: int, action: JSON, *, payload: bool
    ) -> Any:
        """A player's action on the owner: its new state (``payload``; a ``StatePayload``, or its JSON when
        it was forwarded) or its seq."""
        op = {"kind": "act", "match": match_id, "user": user_id, "cid": client_id, "seq": seq}
        op |= {"action": action, "payload": payload, "lang": i18n.current_lang()}
        return await self._route(match_id, op)

    async def apply_as(
        self, match_id: str, seat: Seat, action: JSON, *, source: str, expected_seq: int
    ) -> bool:
        """A bot's (or the clock's) action for ``seat`` on the owner; False when the match moved on."""
        op = {"kind": "apply_as", "match": match_id, "seat": seat, "action": action, "source": source}
        return bool(await self._route(match_id, {**op, "expected_seq": expected_seq}))

    async def run_clock(self, match_id: str) -> bool:
        """The clock of a match this worker owns (or takes the free lease of): :meth:`MatchWriter.run_clock`;
        False, without a write, when another worker owns it (if it died, its lease expires and then this
        worker takes the match)."""
        owner = await self.leases.claim(match_id)
        if owner is not None and owner != self.leases.worker_id:
            return False
        return await self.writer.run_clock(match_id)

    async def _route(self, match_id: str, op: JSON) -> Any:
        """Run the write ``op`` on the match's owner: here when this worker owns it (or takes the free
        lease), else forwarded (play/forward.py); here too when nobody answers or Redis is unreachable —
        the (match_id, seq) key keeps that safe (play/ownership.py)."""
        owner = await self.leases.claim(match_id)
        if owner is not None and owner != self.leases.worker_id:
            if op["kind"] == "act":  # a socket of the match here: the owner may hand the lease over
                op = {**op, "here": self.bus.listening(match_channel(match_id))}

            def answered(reply: ForwardAnswer) -> None:
                if "lease" in reply:
                    self.leases.adopt(match_id, reply["lease"])
                elif reply.get("held") is True:
                    self.leases.confirm(match_id, owner)

            try:
                return await self.forwarder.call(owner, op, answered=answered)
            except NoAnswer:
                self.leases.forget(match_id)
                log.warning("match %s: owner %s did not answer; writing here", match_id, owner)
        return await self.run_local(op)

    async def run_local(self, op: JSON) -> Any:
        """Run a write op on this worker (the op shapes are in the module's docstring); PlayError 422
        ``bad_request`` for an unknown kind."""
        if op["kind"] == "act":
            return await self.writer.act(
                op["match"], op["user"], op["cid"], op["seq"], op["action"], want_payload=op["payload"]
            )
        if op["kind"] == "apply_as":
            return await self.writer.apply_as(
                op["match"], op["seat"], op["action"], source=op["source"], expected_seq=op["expected_seq"]
            )
        raise PlayError(422, "bad_request", f"unknown op {op.get('kind')!r}")

    async def _hand_over(self, match_id: str, caller: str, op: JSON) -> str | None:
        """After serving ``op`` for worker ``caller``: the lease's new value when it goes to ``caller`` — a
        player's act from a worker with a socket of the match, to an owner with none (the lease follows the
        players, play/ownership.py) — else None (this worker keeps what it holds)."""
        if op.get("kind") != "act" or op.get("here") is not True or not self.leases.owns(match_id):
            return None
        if self.bus.listening(match_channel(match_id)):
            return None
        lease = await self.leases.hand_over(match_id, caller)
        self.handed_over += lease is not None
        return lease

    async def _serve_forwarded(self, op: JSON) -> Any:
        # In the mover's language: the pushes the owner builds for the change are worded in it.
        with i18n.use_lang(str(op.get("lang") or i18n.DEFAULT_LANG)):
            return _encode(await self.run_local(op))


def _encode(result: Any) -> Any:
    """A write's result as JSON-ready data (what a forwarded op answers)."""
    return result.model_dump(mode="json") if isinstance(result, StatePayload) else result
