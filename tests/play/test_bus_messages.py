"""Bus messages are typed (bus/messages.py, issue 15 §3): everything the service and the lobby modules publish
in a match's life validates against the discriminated union, and receivers tell them apart by ``type``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError
from support import duel_between, new_users

from duelclub.bus import MemoryBus, Message
from duelclub.bus.base import RESYNC
from duelclub.bus.messages import BUS_MESSAGE
from duelclub.play import abort, lobby, notify, rematch
from duelclub.play.presence import PresenceTracker
from duelclub.play.service import MatchService
from duelclub.store.db import Database


class SpyBus(MemoryBus):
    """The in-process bus, recording every published (channel, message)."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[tuple[str, Message]] = []

    async def publish(self, channel: str, message: Message) -> None:
        self.sent.append((channel, message))
        await super().publish(channel, message)


async def _play_to_the_end(service: MatchService, mid: str, users: list[int]) -> None:
    for _ in range(40):
        live = await service.fresh(mid)
        if live.status != "active":
            return
        seat = sorted(live.to_move())[0]
        legal = live.game.legal_actions(live.state, seat)
        await service.act_seq(mid, users[seat], f"c{live.seq}", live.seq, live.game.action_to_json(legal[0]))


async def test_every_message_of_a_match_life_is_a_typed_bus_message(
    db: Database, service_factory: Callable[..., MatchService]
) -> None:
    bus = SpyBus()
    service = service_factory(db, bus)
    a, b = new_users(db, "alice", "bob")
    tracker = PresenceTracker(service)
    await notify.challenges_changed(service)
    mid = await duel_between(service, a, b)
    await tracker.connected(mid, 0)
    await tracker.disconnected(mid, 0)
    await _play_to_the_end(service, mid, [a, b])
    offer = await rematch.offer_or_accept(service, mid, a)
    await rematch.offer_or_accept(service, mid, b)
    second = await lobby.create_match(service, a, game="duel", vs="invite", options={})
    await lobby.cancel_invite(service, second.id, a)
    third = await duel_between(service, a, b)
    await abort.abort(service, third, a)

    kinds = set()
    for channel, message in bus.sent:
        typed: Any = BUS_MESSAGE.validate_python(message)
        assert typed == message, channel
        kinds.add(message["type"])
    assert {"challenges", "change", "presence", "match", "rematch"} <= kinds, kinds
    assert offer.id
    assert BUS_MESSAGE.validate_python(RESYNC) == {"type": "resync"}


@pytest.mark.parametrize(
    "message",
    [
        {"seq": 3, "status": "active"},  # the untyped change notice of old
        {"type": "change", "seq": 3, "status": "active", "since": 2},  # no push
        {"type": "rematch"},
        {"type": "whatever"},
    ],
)
def test_untyped_or_incomplete_messages_are_refused(message: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        BUS_MESSAGE.validate_python(message)
