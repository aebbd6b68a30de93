"""Opening matches: vs a bot (starts at once), by an invite link or as a challenge in the open table (both
start when someone accepts).

Seat 0 is the player who opens the match (vs a bot: the human), seat 1 the bot or the invited player
(rules/fairness.md §Values). The commitment ``C`` exists from creation; the deal needs both client seeds,
so an invite match has no game state until it is accepted. Its opener may cancel it until then.

A challenge («заявка») is an open match with ``listed`` set and no invite token: ``GET /api/challenges`` lists
them, any other member accepts (the same guarded UPDATE as an invite, so a double accept starts one match),
and the author may cancel. Invites and challenges between members carry the match's move clock
(``move_seconds``, play/clock.py); the first deadline is set when the match starts.

Matches between members are rated («рейтинговая») unless the opener chooses casual («товарищеская»): the
``rated`` flag is stored on the match when it is opened (:func:`is_rated`), and never set for a bot match or a
game that is not rated (Межа).
"""

from __future__ import annotations

import secrets
from typing import Any

from duelclub.bots.levels import DEFAULT_LEVEL, canonical
from duelclub.bus import match_channel
from duelclub.bus.messages import RematchOffered
from duelclub.games.contract import IllegalAction
from duelclub.games.fairness import commitment, is_valid_client_seed, new_server_seed
from duelclub.play import blocks, notify, rating_views, views
from duelclub.play.clock import clock_setting, next_deadline
from duelclub.play.errors import PlayError
from duelclub.play.live import JSON, AnyGame, LiveMatch, build
from duelclub.play.port import LobbyPort
from duelclub.play.schemas import CreatedMatch, InviteInfo, MatchSummary
from duelclub.play.threads import in_thread
from duelclub.store import matches as repo
from duelclub.store import users
from duelclub.store.matches import ACTIVE, ENDED, OPEN, MatchRecord


def new_match_id() -> str:
    """A fresh match id ``G``: 12 URL-safe characters (no NUL, fairness.md §Values)."""
    return secrets.token_urlsafe(9)


def is_rated(game: AnyGame, *, vs_bot: bool, rated: bool | None) -> bool:
    """Whether a new match counts for the ratings: a rated game (``Game.rated``) between members, rated
    unless the opener chose casual (``rated=False``; None means the default, rated)."""
    return game.rated and not vs_bot and rated is not False


def seed_or_refuse(client_seed: str | None) -> str:
    """A valid client seed ("" when none); PlayError 422 ``bad_client_seed`` otherwise."""
    seed = client_seed or ""
    if not is_valid_client_seed(seed):
        raise PlayError(422, "bad_client_seed", "a client seed is 0-64 lowercase hex characters")
    return seed


async def create_match(
    service: LobbyPort,
    user_id: int,
    *,
    game: str,
    vs: str,
    options: JSON | None,
    bot_level: str | None = None,
    client_seed: str | None = None,
    move_seconds: int | None = None,
    rematch_of: str | None = None,
    rated: bool | None = None,
) -> CreatedMatch:
    """Open a match for ``user_id`` at seat 0 (``POST /api/matches``, ``POST /api/challenges``).

    ``vs="bot"``: seat 1 is the bot ``bot_level`` (default ``light``; the old ids ``easy``/``hard`` are
    accepted and kept, as aliases of ``light``/``strong``, bots/levels.py); the match is active at
    once, without a clock. ``vs="invite"``: the match is open with an invite token. ``vs="challenge"``: the
    match is open and listed in the challenge table. ``move_seconds`` is the clock (play/clock.py);
    ``rated`` False makes a match between members casual (:func:`is_rated`).
    ``rematch_of`` is the ended match this one follows (play/rematch.py; unique: a second one raises
    sqlalchemy's IntegrityError). Raises PlayError ``unknown_game``, ``bad_options``, ``bad_bot_level``,
    ``bad_client_seed``, ``bad_clock``, ``bad_request`` (422).
    """
    g = service.game(game)
    try:
        opts = g.parse_options(options).model_dump(mode="json")
    except IllegalAction as exc:
        raise PlayError(422, exc.code, exc.message) from None
    seed_a = seed_or_refuse(client_seed)
    if vs not in ("bot", "invite", "challenge"):
        raise PlayError(422, "bad_request", "vs is 'bot', 'invite' or 'challenge'")
    clock = clock_setting(g, vs_bot=vs == "bot", move_seconds=move_seconds)
    level = None
    if vs == "bot":
        default = DEFAULT_LEVEL if DEFAULT_LEVEL in g.bot_levels else next(iter(g.bot_levels), None)
        level = bot_level or default
        if level is None or not {level, canonical(level)} & set(g.bot_levels) or not service.bots_available:
            raise PlayError(422, "bad_bot_level", f"bot levels: {', '.join(g.bot_levels)}")
    server_seed, match_id, now = new_server_seed(), new_match_id(), service.now()
    fields: dict[str, Any] = {
        "id": match_id,
        "game": g.slug,
        "options": opts,
        "status": ACTIVE if level else OPEN,
        "seat0_user_id": user_id,
        "seat1_bot": level,
        "invite_token": secrets.token_urlsafe(24) if vs == "invite" else None,
        "commitment": commitment(server_seed, match_id),
        "server_seed": server_seed.hex(),
        "client_seed_a": seed_a,
        "client_seed_b": "",
        "created_at": now,
        "started_at": now if level else None,
        "move_seconds": clock,
        "listed": vs == "challenge",
        "opened_by": user_id,
        "rematch_of": rematch_of,
        "rated": is_rated(g, vs_bot=vs == "bot", rated=rated),
    }
    record, name = await in_thread(_insert, service, fields, user_id)
    live = await in_thread(build, record, g, (name, None), [])
    service.opened(live)
    if vs == "challenge":
        await notify.challenges_changed(service)
    return CreatedMatch(
        id=record.id,
        status=record.status,
        seat=0,
        commitment=record.commitment,
        invite_token=record.invite_token,
        move_seconds=record.move_seconds,
        rated=record.rated,
    )


def _insert(service: LobbyPort, fields: dict[str, Any], user_id: int) -> tuple[MatchRecord, str | None]:
    with service.session() as s:
        user = users.get_user(s, user_id)
        return repo.insert_match(s, **fields), user.username if user is not None else None


async def invite_info(service: LobbyPort, token: str) -> InviteInfo:
    """What an invite link offers (``GET /api/invites/{token}``); PlayError 404 ``invite_not_found``."""

    def read() -> InviteInfo:
        with service.session() as s:
            record = repo.get_by_invite(s, token)
            if record is None:
                raise PlayError(404, "invite_not_found", "no such invite")
            opener = users.usernames(s, {record.seat_users[0] or -1}).get(record.seat_users[0] or -1)
            ratings = rating_views.seat_ratings(
                s, service.rating_rules, [record], rating_views.rated_games(service.games), service.now()
            )
        return InviteInfo(
            id=record.id,
            game=record.game,
            opener=opener,
            options=record.options,
            options_text=views.options_text(service.games.get(record.game), record.options, 1),
            commitment=record.commitment,
            status=record.status,
            rated=record.rated,
            opener_rating=ratings[record.id][0],
            move_seconds=record.move_seconds,
        )

    return await in_thread(read)


async def accept_invite(
    service: LobbyPort, token: str, user_id: int, client_seed: str | None = None
) -> tuple[str, int]:
    """Take seat 1 of an open invite match and start it; returns ``(match id, 1)``.

    Accepting again an invite one already holds returns the same answer. Raises PlayError
    ``invite_not_found`` (404), ``own_invite`` (409), ``invite_taken`` (409), ``invite_closed`` (409:
    cancelled by its opener or aborted), ``bad_client_seed`` (422), ``you_blocked`` (409: the caller blocked
    the opener) and ``blocked_by_member`` (403: the opener blocked the caller; play/blocks.py).
    """
    seed_b = seed_or_refuse(client_seed)

    def find(s: Any) -> MatchRecord:
        record = repo.get_by_invite(s, token)
        if record is None:
            raise PlayError(404, "invite_not_found", "no such invite")
        return record

    match_id = await take_seat1(
        service,
        find,
        user_id,
        seed_b,
        own=("own_invite", "this is your own invite; send the link to someone else"),
    )
    return match_id, 1


async def take_seat1(
    service: LobbyPort,
    find: Any,
    user_id: int,
    seed_b: str,
    *,
    own: tuple[str, str],
    kind: str = "invite",
) -> str:
    """Seat ``user_id`` at seat 1 of the open match ``find(session)`` returns and start it, with its first
    move deadline; tells the opener (``user:{id}``) and, for a challenge, the lobby. Holding the seat
    already answers the same. Raises PlayError ``own`` (409), ``<kind>_closed`` (409, cancelled or
    aborted), ``<kind>_taken`` (409), ``you_blocked`` (409) / ``blocked_by_member`` (403) when the two are
    kept apart by a block (play/blocks.py)."""

    def claim() -> tuple[MatchRecord, bool]:
        with service.session() as s:
            record: MatchRecord = find(s)
            if record.seat_users[0] == user_id:
                raise PlayError(409, own[0], own[1])
            if record.seat_users[1] == user_id:
                return record, False
            if record.status in ENDED:
                raise PlayError(409, f"{kind}_closed", f"this {kind} was cancelled")
            blocks.refuse_if_apart(s, user_id, record.seat_users[0], "play")
            now = service.now()
            if record.status == OPEN and repo.start_invited(
                s, record.id, user_id, seed_b, now, next_deadline(record, now)
            ):
                return record, True
            # Taken meanwhile: by this member's other request (a double click, another tab or worker:
            # issue 18 §2), which answers the same, or by someone else.
            again = repo.get_match(s, record.id)
            if again is not None and again.seat_users[1] == user_id:
                return again, False
            raise PlayError(409, f"{kind}_taken", f"someone has already accepted this {kind}")

    record, started = await blocks.worded(claim)
    if started:
        live = await service.fresh(record.id)
        await service.changed(live)
        await notify.match_started(service, [record.seat_users[0]], record.id, kind)
        if record.listed:
            await notify.challenges_changed(service)
    return record.id


async def cancel_invite(service: LobbyPort, match_id: str, user_id: int) -> MatchSummary:
    """The opener withdraws an open invite (``DELETE /api/matches/{id}``): the match ends ``aborted`` with
    result reason ``cancelled`` and no winner; accepting it afterwards is 409 ``invite_closed``.

    Raises PlayError ``match_not_found`` (404), ``not_your_match`` (403: only the opener may),
    ``match_not_open`` (409: already accepted, ended, or a match vs a bot)."""

    def opener_only(live: LiveMatch) -> None:
        # A rematch offer may be withdrawn by its author or declined by the other player.
        allowed = live.record.seat_users if live.record.rematch_of else (live.record.seat_users[0],)
        if user_id not in allowed:
            raise PlayError(403, "not_your_match", "only the player who opened this invite may cancel it")

    summary = await service.end_unplayed(
        match_id, "cancelled", from_status=(OPEN,), conflict="match_not_open", check=opener_only
    )
    live = await service.get_live(match_id)
    if live.record.listed:
        await notify.challenges_changed(service)
    if live.record.rematch_of:
        await service.publish(
            match_channel(live.record.rematch_of), RematchOffered(type="rematch", id=match_id)
        )
    return summary
