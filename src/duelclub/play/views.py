"""Payloads built from a :class:`LiveMatch` for one caller (DESIGN.md §Public JSON API).

Only the caller's seat view is ever built (``game.view(state, seat)``, ``game.event_view``); the server seed
appears only in payloads of ended matches (rules/fairness.md §Values).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import orjson

from duelclub import i18n
from duelclub.games.contract import Seat
from duelclub.games.fairness import SCHEME
from duelclub.play import draws
from duelclub.play.clock import clock_payload
from duelclub.play.live import JSON, AnyGame, LiveMatch
from duelclub.play.schemas import (
    ClientSeeds,
    LoggedAction,
    MatchListItem,
    MatchLog,
    MatchSummary,
    ReplayStep,
    SeatInfo,
    StatePayload,
)
from duelclub.store.matches import ACTIVE, ENDED, OPEN, ActionRecord, MatchRecord
from duelclub.words import words_for

Names = tuple[str | None, str | None]


def options_text(game: AnyGame | None, options: dict[str, Any], seat: Seat | None) -> str:
    """The game's words for stored options (``GameWords.options_text``) for ``seat`` (None: a third party);
    "" for an unknown game."""
    if game is None:
        return ""
    return words_for(game.slug).options_text(game.parse_options(options), seat)


def worded_result(game: str, result: JSON | None) -> JSON | None:
    """A stored result ``{"winner", "reason", …}`` with ``"reason_text"`` added: the reason in the reader's
    words (``GameWords.reason`` of the game ``game``, the platform's reasons included; the code itself when
    nobody words it). None stays None; a result without a reason gets no text."""
    if not result or not result.get("reason"):
        return result
    return {**result, "reason_text": words_for(game).reason(str(result["reason"]))}


def seat_infos(record: MatchRecord, names: Names) -> list[SeatInfo]:
    return [SeatInfo(seat=s, username=names[s], bot=record.seat_bots[s]) for s in (0, 1)]


def seat_name(record: MatchRecord, names: Names, seat: Seat) -> str | None:
    """The username at ``seat``, or ``bot:<level>``."""
    bot = record.seat_bots[seat]
    return f"bot:{bot}" if bot is not None else names[seat]


def state_payload(live: LiveMatch, seat: Seat | None, since: int | None) -> StatePayload:
    """``{seq, seat, status, view, legal, clock, events, result, to_move}`` for ``seat``; the events
    after ``since`` (none when ``since`` is None)."""
    return payload_at(live, seat, live.state, live.seq, since if since is not None else live.seq)


PUSH_REUSE_SECONDS = 0.5
"""How long a built socket message may be reused for the same change (its clock's ``server_now`` ages)."""


def push_lang(live: LiveMatch) -> str:
    """The language a built message is good for: the current request's (every event carries its log line in
    the reader's language, duelclub.words)."""
    return i18n.current_lang()


def _current_pushes(live: LiveMatch) -> dict[tuple[Seat | None, int, str], tuple[JSON, str | None]]:
    """``live.pushes`` for the current change, emptied when the change (or its age) is past."""
    now = time.monotonic()
    seq, status, built = live.pushes_at
    if seq != live.seq or status != live.status or now - built > PUSH_REUSE_SECONDS:
        live.pushes.clear()
        live.pushes_at = (live.seq, live.status, now)
        with contextlib.suppress(RuntimeError):  # on the event loop: drop them once they are stale
            loop = asyncio.get_running_loop()
            _EXPIRING[id(live)] = live
            if _EXPIRY.get("loop") is not loop:
                loop.call_later(PUSH_REUSE_SECONDS, _expire_pushes)
                _EXPIRY["loop"] = loop
    return live.pushes


_EXPIRING: dict[int, LiveMatch] = {}
"""Matches whose built messages are to be freed once stale: one timer sweeps them all (a timer per change
cost more than the messages it freed, issue 29 §1)."""
_EXPIRY: dict[str, asyncio.AbstractEventLoop | None] = {}
"""The loop whose timer will sweep :data:`_EXPIRING` (none scheduled: absent or None)."""


def _expire_pushes() -> None:
    """Free idle matches' built messages (a few KB per seat) once they may no longer be reused; run again
    while any match has some."""
    now = time.monotonic()
    for key, live in list(_EXPIRING.items()):
        if now - live.pushes_at[2] >= PUSH_REUSE_SECONDS:
            live.pushes.clear()
            del _EXPIRING[key]
    _EXPIRY["loop"] = None
    if _EXPIRING:
        loop = asyncio.get_running_loop()
        loop.call_later(PUSH_REUSE_SECONDS, _expire_pushes)
        _EXPIRY["loop"] = loop


def _cached_fields(live: LiveMatch, seat: Seat | None, since: int) -> JSON:
    pushes = _current_pushes(live)
    key = (seat, since, push_lang(live))
    cached = pushes.get(key)
    if cached is None:
        cached = pushes[key] = (fields_at(live, seat, live.state, live.seq, since), None)
    return cached[0]


def cached_payload(live: LiveMatch, seat: Seat | None, since: int) -> StatePayload:
    """:func:`state_payload` for the current change, built once per seat and ``since`` on this worker and
    shared by every socket and answer that needs the same one (issue 12 §2: each seat's view once per
    change), for at most :data:`PUSH_REUSE_SECONDS` (its clock's ``server_now`` ages)."""
    return StatePayload.model_construct(**_cached_fields(live, seat, since))


def state_message(live: LiveMatch, seat: Seat | None, since: int) -> str:
    """The socket message ``{"type": "state", …}`` of :func:`cached_payload` as JSON text, built once too
    (by orjson from the plain fields: no model is validated or dumped on the push path)."""
    fields = _cached_fields(live, seat, since)
    key = (seat, since, push_lang(live))
    text = live.pushes[key][1]
    if text is None:
        text = orjson.dumps({"type": "state", **fields}, option=orjson.OPT_NON_STR_KEYS).decode()
        live.pushes[key] = (fields, text)
    return text


def payload_at(live: LiveMatch, seat: Seat | None, state: Any, seq: int, since: int) -> StatePayload:
    """The payload for ``state`` after ``seq`` actions (the live state, or a replayed earlier one)."""
    return StatePayload.model_construct(**fields_at(live, seat, state, seq, since))


def fields_at(live: LiveMatch, seat: Seat | None, state: Any, seq: int, since: int) -> JSON:
    """:class:`StatePayload`'s fields for ``state`` after ``seq`` actions, as plain JSON-ready data."""
    game, record = live.game, live.record
    to_move: list[int] = []
    legal: list[JSON] = []
    view = None
    if state is not None:
        view = game.view(state, seat)
        if record.status == ACTIVE:
            to_move = sorted(game.to_move(state))
            if seat is not None and seat in to_move:
                legal = [game.action_to_json(a) for a in game.legal_actions(state, seat)]
    events = live.visible_events(seat, since, state, seq) if state is not None else []
    return {
        "seq": seq,
        "seat": seat,
        "status": record.status,
        "view": view,
        "legal": legal,
        "clock": clock_payload(record),
        "events": events,
        "result": worded_result(record.game, record.result),
        "to_move": to_move,
        "abortable": live.abortable(seq) and not live.in_tournament,  # «Отменить партию» (play/abort.py)
    }


def summary(live: LiveMatch) -> MatchSummary:
    r = live.record
    return MatchSummary(
        id=r.id,
        game=r.game,
        status=r.status,
        seq=live.seq,
        seats=seat_infos(r, live.names),
        to_move=sorted(live.to_move()),
        result=worded_result(r.game, r.result),
        commitment=r.commitment,
        client_seeds=ClientSeeds(a=r.client_seeds[0], b=r.client_seeds[1]),
        server_seed=r.server_seed if r.status in ENDED else None,
        options=r.options,
        options_text=options_text(live.game, r.options, None),
        created_at=r.created_at,
        started_at=r.started_at,
        finished_at=r.finished_at,
        move_seconds=r.move_seconds,
        listed=r.listed,
        rematch_of=r.rematch_of,
        rated=r.rated,
    )


def logged_action(a: ActionRecord) -> LoggedAction:
    return LoggedAction(seq=a.seq, seat=a.seat, source=a.source, action=a.action, created_at=a.created_at)


def replay_step(live: LiveMatch, state: Any, seq: int) -> ReplayStep:
    """The step ``seq`` of an ended match's replay; ``state`` is the state after its first ``seq`` actions.
    Its events are whole (the match is over) and worded for a third party (``line``, duelclub.words)."""
    events = [dict(e) for e in live.events[seq - 1]] if seq else []
    return ReplayStep(
        id=live.id,
        game=live.record.game,
        seq=seq,
        last_seq=live.seq,
        action=logged_action(live.actions[seq - 1]) if seq else None,
        events=words_for(live.record.game).describe(events, None, live.names),
        view=live.game.full_view(state),
    )


def match_log(live: LiveMatch) -> MatchLog:
    """The full log of an ended match (callers check the status and who asks). Replays the match with the
    draw recorder on (play/draws.py) for ``initial`` and ``draws``, so call it in a worker thread."""
    r = live.record
    dealt = live.state is not None
    replayed = draws.replay_recorded(live) if dealt else None
    return MatchLog(
        scheme=SCHEME,
        id=r.id,
        game=r.game,
        status=r.status,
        options=r.options,
        commitment=r.commitment,
        server_seed=r.server_seed,
        client_seeds=ClientSeeds(a=r.client_seeds[0], b=r.client_seeds[1]),
        seats=seat_infos(r, live.names),
        actions=[logged_action(a) for a in live.actions],
        result=worded_result(r.game, r.result),
        initial=replayed.initial if replayed else None,
        final_view=replayed.final if replayed else None,
        draws=draws.entries(replayed.draws) if replayed else [],
        created_at=r.created_at,
        started_at=r.started_at,
        finished_at=r.finished_at,
    )


def list_item(record: MatchRecord, names: Names, user_id: int | None, game: AnyGame | None) -> MatchListItem:
    """A list row; ``seat``/``opponent``/``options_text`` from the side of ``user_id`` (None for the admin
    list); ``game`` is the record's game (None if the server no longer offers it)."""
    seat = next((s for s in (0, 1) if user_id is not None and record.seat_users[s] == user_id), None)
    seats = seat_infos(record, names)
    return MatchListItem(
        id=record.id,
        game=record.game,
        status=record.status,
        options=record.options,
        options_text=options_text(game, record.options, seat),
        seat=seat,
        seats=seats,
        opponent=seats[1 - seat] if seat is not None else None,
        result=worded_result(record.game, record.result),
        created_at=record.created_at,
        finished_at=record.finished_at,
        invite_token=record.invite_token if seat == 0 and record.status == OPEN else None,
        rated=record.rated,
    )
