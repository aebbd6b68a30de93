"""Rematch (issue 6 §6): the same game, options and clock, seats swapped.

Either player of an ended match between members may offer a rematch (``POST /api/matches/{id}/rematch``): that
creates an open match (rated if the old one was) with both seats already taken — the old seat 1 at seat 0 and
the old seat 0 at seat 1 — and the offering player's client seed. ``matches.rematch_of`` is unique, so there
is one rematch per match: when the other player asks too, that accepts the offer and the match starts (with
its first move deadline). Either player may decline or withdraw it with ``DELETE /api/matches/{new id}``. The
offer is published on the old match's channel (``{"type": "rematch", "id": id}``) so the opponent's page
shows it at once.

Against a bot a rematch is simply a new match against the same level with the same options (the human
keeps seat 0: bots never open matches); it too is the old match's one ``rematch_of``.

Every request is idempotent under double clicks and races (issue 18 §2): offering twice answers the same
offer, accepting twice the same live match, and two requests against a bot start one match.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.exc import IntegrityError

from duelclub.bus import match_channel
from duelclub.bus.messages import RematchOffered
from duelclub.games.fairness import commitment, new_server_seed
from duelclub.play import lobby, notify
from duelclub.play.clock import next_deadline
from duelclub.play.errors import PlayError
from duelclub.play.port import LobbyPort
from duelclub.play.schemas import Rematch
from duelclub.play.threads import in_thread
from duelclub.store import matches as repo
from duelclub.store.matches import ENDED, OPEN, MatchRecord


async def offer_or_accept(
    service: LobbyPort, match_id: str, user_id: int, client_seed: str | None = None
) -> Rematch:
    """Offer a rematch of ended ``match_id``, or accept the opponent's offer; returns the new match.

    Raises PlayError ``match_not_found`` (404), ``not_your_seat`` (403), ``match_not_finished`` (409),
    ``rematch_closed`` (409: the offer was declined or withdrawn), ``rematch_not_allowed`` (409: a tournament
    board — the tournament pairs the next game, as Lichess's arenas and Swiss do), ``bad_client_seed``
    (422)."""
    seed = lobby.seed_or_refuse(client_seed)
    old = await service.fresh(match_id)
    seat = old.seat_of(user_id)
    if seat is None:
        raise PlayError(403, "not_your_seat", "you do not play in this match")
    if old.status not in ENDED or old.state is None:
        raise PlayError(409, "match_not_finished", "a rematch follows a played match")
    if old.in_tournament:
        raise PlayError(409, "rematch_not_allowed", "a tournament board has no rematch: the tournament pairs")
    r = old.record
    bot = r.seat_bots[1 - seat]
    if bot is not None:
        return await _bot_rematch(service, r, user_id, seat, bot, seed)
    new_seat = 1 - seat  # seats swap: my seat in the new match

    def write() -> tuple[MatchRecord, bool]:
        with service.session() as s:
            found = repo.get_rematch(s, match_id)
            if found is None:
                try:
                    with s.begin_nested():
                        return _insert(service, s, r, user_id, new_seat, seed), False
                except IntegrityError:  # the opponent offered at the same moment: accept theirs
                    found = repo.get_rematch(s, match_id)
                    assert found is not None
            if found.opened_by == user_id or found.status != OPEN:
                return _started_or_closed(found), False
            now = service.now()
            if not repo.start_rematch(s, found.id, new_seat, seed, now, next_deadline(found, now)):
                # No longer open: started by this player's other request (a double click, another tab or
                # worker: issue 18 §2), which answers the same live match, or declined meanwhile.
                again = repo.get_match(s, found.id)
                assert again is not None
                return _started_or_closed(again), False
            return found, True

    record, started = await in_thread(write)
    live = await service.fresh(record.id)
    await service.publish(match_channel(match_id), RematchOffered(type="rematch", id=record.id))
    if started:
        await service.changed(live)
        await notify.match_started(service, list(record.seat_users), record.id, "rematch")
    return Rematch(id=record.id, status=live.status, offered_by=_offered_by(r, record))


def _started_or_closed(found: MatchRecord) -> MatchRecord:
    """``found`` unless it ended without being played (declined or withdrawn): PlayError 409
    ``rematch_closed``."""
    if found.status in ENDED and found.started_at is None:
        raise PlayError(409, "rematch_closed", "the rematch was declined or withdrawn")
    return found


async def _bot_rematch(
    service: LobbyPort, old: MatchRecord, user_id: int, seat: int, bot: str, seed: str
) -> Rematch:
    """The new match against the same bot level. It carries ``rematch_of`` like a rematch between members,
    which is unique: two requests at once (issue 18 §2), or again later, answer the one match."""

    def existing() -> MatchRecord | None:
        with service.session() as s:
            return repo.get_rematch(s, old.id)

    found = await in_thread(existing)
    if found is None:
        try:
            created = await lobby.create_match(
                service,
                user_id,
                game=old.game,
                vs="bot",
                options=old.options,
                bot_level=bot,
                client_seed=seed,
                rematch_of=old.id,
            )
            return Rematch(id=created.id, status=created.status, offered_by=seat)
        except IntegrityError:  # the other request inserted it first
            found = await in_thread(existing)
            if found is None:
                raise
    return Rematch(id=found.id, status=found.status, offered_by=seat)


def _insert(
    service: LobbyPort, s: Any, old: MatchRecord, user_id: int, new_seat: int, seed: str
) -> MatchRecord:
    server_seed, new_id = new_server_seed(), lobby.new_match_id()
    return repo.insert_match(
        s,
        id=new_id,
        game=old.game,
        options=old.options,
        status=OPEN,
        seat0_user_id=old.seat_users[1],
        seat1_user_id=old.seat_users[0],
        commitment=commitment(server_seed, new_id),
        server_seed=server_seed.hex(),
        client_seed_a=seed if new_seat == 0 else "",
        client_seed_b=seed if new_seat == 1 else "",
        created_at=service.now(),
        move_seconds=old.move_seconds,
        opened_by=user_id,
        rematch_of=old.id,
        rated=old.rated,
    )


def _offered_by(old: MatchRecord, new: MatchRecord) -> int | None:
    """The seat in the old match of the player who offered ``new``."""
    for seat, uid in enumerate(old.seat_users):
        if uid is not None and uid == new.opened_by:
            return seat
    return None


async def rematch_of(service: LobbyPort, match_id: str) -> Rematch | None:
    """The rematch offered after ``match_id`` (for its summary)."""

    def read() -> tuple[MatchRecord | None, MatchRecord | None]:
        with service.session() as s:
            return repo.get_match(s, match_id), repo.get_rematch(s, match_id)

    old, new = await in_thread(read)
    if old is None or new is None:
        return None
    return Rematch(id=new.id, status=new.status, offered_by=_offered_by(old, new))
