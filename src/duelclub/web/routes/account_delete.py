"""Account deletion (issue 28 §6): ``DELETE /api/me {password}`` → 204.

The member's password is checked (403 ``wrong_password``, counted like a failed login: 429
``rate_limited``); then, in one transaction, the account becomes ``deleted-{id}`` with no password, address,
language or rights (store/users.py ``anonymize``), the stored results of their matches take that name, and
their sessions, mailed links, queued mails and blocks (by them and of them) are erased; then the member
leaves the matchmaking queue, their open invites and challenges are withdrawn, and they resign every active
match (so no opponent waits for someone who cannot come back). The
matches, their logs, chat and ratings stay for the audit trail under the anonymous name; the deleted member
is left off the leaderboard, and the old name may be registered again by someone new.
"""

from __future__ import annotations

import logging
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field

from duelclub.i18n import gettext as _
from duelclub.play import lobby, matchmaking
from duelclub.play.errors import PlayError
from duelclub.play.service import MatchService
from duelclub.play.threads import in_thread
from duelclub.store import account_tokens, blocks, outbox, sessions, users
from duelclub.store import matches as matches_repo
from duelclub.store.db import Database
from duelclub.store.models import utcnow
from duelclub.web.deps import CurrentUser, get_database, get_service
from duelclub.web.errors import ApiError
from duelclub.web.openapi import errors
from duelclub.web.passwords import Hashing, get_hashing
from duelclub.web.ratelimit import AuthLimiter, client_ip, get_limiter
from duelclub.web.security import csrf_guard
from duelclub.web.strictjson import StrictJsonRoute

log = logging.getLogger(__name__)
router = APIRouter(
    prefix="/api", tags=["auth"], dependencies=[Depends(csrf_guard)], route_class=StrictJsonRoute
)
Db = Annotated[Database, Depends(get_database)]
Limiter = Annotated[AuthLimiter, Depends(get_limiter)]
Hasher = Annotated[Hashing, Depends(get_hashing)]
Service = Annotated[MatchService, Depends(get_service)]


class DeleteBody(BaseModel):
    password: Annotated[str, Field(max_length=1024)]


def _stored_hash(db: Database, user_id: int) -> str | None:
    with db.read_session() as s:
        account = users.get_user(s, user_id)
        return account.password_hash if account is not None and account.deleted_at is None else None


async def _my_matches(service: MatchService, user_id: int) -> list[matches_repo.MatchRecord]:
    def read() -> list[matches_repo.MatchRecord]:
        with service.db.read_session() as s:
            return matches_repo.list_for_user(s, user_id, limit=10_000)

    return await in_thread(read)


async def _leave_play(service: MatchService, user_id: int) -> None:
    """Out of the queue, open invites and challenges withdrawn, active matches resigned (best effort: a
    match that ended meanwhile is fine)."""
    await matchmaking.leave(service, user_id)
    for record in await _my_matches(service, user_id):
        try:
            if record.status == "open":  # their invite or challenge, or a rematch offered to them
                await lobby.cancel_invite(service, record.id, user_id)
            elif record.status == "active":
                live = await service.get_live(record.id)
                await service.act(record.id, user_id, f"delete-{record.id}", live.seq, {"kind": "resign"})
        except PlayError as exc:
            log.info("account %s deleted: match %s left as it was (%s)", user_id, record.id, exc.code)


async def _rename_cached(service: MatchService, user_id: int, name: str) -> None:
    """The matches this worker holds in memory name their seats from the cache: give them the anonymous
    name (a match read afresh from the database has it anyway)."""
    for record in await _my_matches(service, user_id):
        live = await service.get_live(record.id)
        seats = live.record.seat_users
        live.names = (
            name if seats[0] == user_id else live.names[0],
            name if seats[1] == user_id else live.names[1],
        )


@router.delete("/me", status_code=204, responses=errors(429))
async def delete_account(
    body: DeleteBody,
    request: Request,
    user: CurrentUser,
    db: Db,
    service: Service,
    limiter: Limiter,
    hashing: Hasher,
) -> Response:
    """Delete the caller's account (module docstring). 403 ``wrong_password``, 429 ``rate_limited``."""
    ip, key = client_ip(request), users.username_key(user.username)
    await limiter.check_login(ip, key)
    stored = await in_thread(_stored_hash, db, user.id)
    if stored is None:
        raise ApiError(401, "not_authenticated", "log in first")
    if not await hashing.verify(stored, body.password):
        await limiter.login_failed(ip, key)
        raise ApiError(403, "wrong_password", _("Текущий пароль указан неверно."))

    def erase() -> str | None:
        with db.session() as s:
            account = users.get_user(s, user.id)
            if account is None or account.deleted_at is not None:
                return None
            name = users.anonymize(s, account, utcnow())
            matches_repo.rename_in_results(s, user.id, name)
            sessions.end_user_sessions(s, user.id)
            account_tokens.revoke(s, user.id)
            outbox.forget_user(s, user.id)
            blocks.forget_user(s, user.id)
            return name

    name = await in_thread(erase)
    if name is not None:
        await _rename_cached(service, user.id, name)
        await _leave_play(service, user.id)  # after the renaming: the results it stores carry the new name
    watch = getattr(request.app.state, "session_watch", None)
    if watch is not None:
        await watch.announce(user.id)
    request.session.clear()
    return Response(status_code=204)
