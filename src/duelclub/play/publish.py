"""After a committed change: what every worker and the bots hear of it (issue 12 §3, DESIGN.md §Real time).

:meth:`ChangePublisher.changed` is the last step of every write (play/commit.py): it builds the seated
players' socket messages once, here on the match's owner, publishes them as one ``change`` on
``match:{id}`` (every worker pushes them to its own sockets, web/ws.py), lets the bot driver look at the
match (a bot seat due gets a job, play/bots.py) and, once the match has ended, releases this worker's lease
on it (play/ownership.py) off the hot path, after the player's ack.
"""

from __future__ import annotations

import asyncio

from duelclub.bus import Bus, match_channel
from duelclub.bus.messages import ActAck, Change
from duelclub.play import views
from duelclub.play.bots import BotDriver
from duelclub.play.live import LiveMatch
from duelclub.play.ownership import Leases
from duelclub.store.matches import ENDED


class ChangePublisher:
    """Publishes the changes of this worker's writes on ``bus``; pokes ``bots``; releases ``leases``."""

    def __init__(self, bus: Bus, bots: BotDriver, leases: Leases) -> None:
        self.bus = bus
        self.bots = bots
        self.leases = leases
        self._releasing: set[asyncio.Task[None]] = set()

    async def changed(self, live: LiveMatch, *, since: int | None = None, ack: ActAck | None = None) -> None:
        """After a committed change: notify every worker, with the players' socket messages built here,
        once (issue 12 §3: pushes are computed by the match's owner), and let the bot driver look.

        The message is a ``change`` (bus/messages.py: ``seq``, ``status``, ``since``, ``push``, ``lang``?):
        ``push`` holds each seated member's ``state`` message with the events after ``since``
        (default: the last action's, ``seq - 1``; a change without an action, such as a start or an
        abort, passes ``since=seq``). A socket that last got ``since`` sends its seat's text as it is;
        any other socket reads the match itself. ``ack``: the player's act this change is (its seat and
        client id), so that the mover's socket, on any worker, sends its push as the act's ack."""
        since = max(live.seq - 1, 0) if since is None else since
        push = {
            str(seat): views.state_message(live, seat, since)
            for seat in (0, 1)
            if live.record.seat_users[seat] is not None and live.state is not None
        }
        message = Change(type="change", seq=live.seq, status=live.status, since=since, push=push)
        lang = views.push_lang(live)
        if lang:  # texts in this language only: a reader of another builds their own (web/ws.py)
            message["lang"] = lang
        if ack is not None:
            message["ack"] = ack
        await self.bus.publish(match_channel(live.id), message)
        self.bots.poke(live)
        if live.status in ENDED:  # off the hot path: the player's ack goes out first
            task = asyncio.create_task(self.leases.release(live.id))
            self._releasing.add(task)
            task.add_done_callback(self._releasing.discard)

    async def aborted(self, live: LiveMatch) -> None:
        """A match just ended without a move of its own (an admin abort, a cancelled invite): its bot jobs are
        forgotten, then :meth:`changed` with ``since=seq``."""
        self.bots.cancel(live.id)
        await self.changed(live, since=live.seq)
