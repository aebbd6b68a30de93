"""The open challenge table («таблица заявок», issue 6): publish, list, accept, cancel.

A challenge is an open match with ``listed`` set (play/lobby.py): it has its commitment from the start, its
author's options, move clock and rated/casual choice (the table shows the author's rating), and no invite
token. Accepting it is the invite's guarded UPDATE, so two
members accepting at once start one match (the other gets 409 ``challenge_taken``). Every change is
published on the ``lobby`` channel (play/notify.py) so lobby pages redraw the table live.
"""

from __future__ import annotations

from typing import Any

from duelclub.play import lobby, rating_views, views
from duelclub.play.errors import PlayError
from duelclub.play.live import JSON
from duelclub.play.port import LobbyPort
from duelclub.play.schemas import Challenge, CreatedMatch, MatchSummary, RatingBrief
from duelclub.play.threads import in_thread
from duelclub.store import blocks as blocks_repo
from duelclub.store import matches as repo
from duelclub.store import users
from duelclub.store.matches import MatchRecord


async def publish(
    service: LobbyPort,
    user_id: int,
    *,
    game: str,
    options: JSON | None,
    move_seconds: int | None,
    client_seed: str | None = None,
    rated: bool | None = None,
) -> CreatedMatch:
    """Publish a challenge (``POST /api/challenges``), rated unless ``rated`` is False; errors as
    :func:`lobby.create_match`."""
    return await lobby.create_match(
        service,
        user_id,
        game=game,
        vs="challenge",
        options=options,
        client_seed=client_seed,
        move_seconds=move_seconds,
        rated=rated,
    )


async def open_table(service: LobbyPort, viewer: int | None, game: str | None = None) -> list[Challenge]:
    """The open challenges, oldest first (``GET /api/challenges``); ``mine`` marks the viewer's own. The
    challenges of members the viewer is kept apart from by a block (either way, play/blocks.py) are left
    out: neither could take the other's."""

    def read() -> list[Challenge]:
        with service.session() as s:
            records = repo.open_challenges(s, game)
            if viewer is not None and records:
                apart = blocks_repo.kept_apart(s, viewer)
                records = [r for r in records if r.seat_users[0] not in apart]
            names = users.usernames(s, {r.seat_users[0] for r in records if r.seat_users[0] is not None})
            ratings = rating_views.current(
                s,
                service.rating_rules,
                {(r.seat_users[0], r.game) for r in records if r.seat_users[0] is not None},
                rating_views.rated_games(service.games),
                service.now(),
            )
        return [
            _row(
                service,
                r,
                names.get(r.seat_users[0] or -1),
                viewer,
                ratings.get((r.seat_users[0] or -1, r.game)),
            )
            for r in records
        ]

    return await in_thread(read)


def _row(
    service: LobbyPort, r: MatchRecord, author: str | None, viewer: int | None, rating: RatingBrief | None
) -> Challenge:
    mine = viewer is not None and r.seat_users[0] == viewer
    return Challenge(
        id=r.id,
        game=r.game,
        author=author,
        options=r.options,
        # from the reader's seat: the author sits at 0, whoever accepts at 1 (Межа: «Ваш дом» differs)
        options_text=views.options_text(service.games.get(r.game), r.options, 0 if mine else 1),
        move_seconds=r.move_seconds,
        commitment=r.commitment,
        created_at=r.created_at,
        mine=mine,
        rated=r.rated,
        author_rating=rating,
    )


async def accept(service: LobbyPort, match_id: str, user_id: int, client_seed: str | None = None) -> str:
    """Take seat 1 of the challenge and start the match for both (``POST /api/challenges/{id}/accept``).

    Raises PlayError ``challenge_not_found`` (404), ``own_challenge``, ``challenge_taken``,
    ``challenge_closed`` (409), ``bad_client_seed`` (422), ``you_blocked`` (409) / ``blocked_by_member``
    (403) when the caller and the author are kept apart by a block (play/blocks.py)."""
    seed_b = lobby.seed_or_refuse(client_seed)

    def find(s: Any) -> MatchRecord:
        record = repo.get_match(s, match_id)
        if record is None or not record.listed:
            raise PlayError(404, "challenge_not_found", "no such challenge")
        return record

    return await lobby.take_seat1(
        service,
        find,
        user_id,
        seed_b,
        own=("own_challenge", "this is your own challenge; wait for someone to accept it"),
        kind="challenge",
    )


async def cancel(service: LobbyPort, match_id: str, user_id: int) -> MatchSummary:
    """The author withdraws an open challenge (``DELETE /api/challenges/{id}``); as
    :func:`lobby.cancel_invite` (``match_not_open`` once accepted)."""
    return await lobby.cancel_invite(service, match_id, user_id)
