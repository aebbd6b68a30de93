"""Blocking (issue 28 §5): a member keeps another out of their games and their chat.

A block is made by one member (``blocker``) against another (``blocked``), but it keeps the *pair* apart,
both ways, so that nobody is seated with someone they cannot talk to:

- **Challenges and invites** (play/lobby.py ``take_seat1``): neither may take the other's open challenge or
  invite (rematch offers included). The blocked member hears 403 ``blocked_by_member`` («Участник … вас
  заблокировал»); the blocker, who may have forgotten, hears 409 ``you_blocked`` (lift the block on the
  account page first). The challenge table leaves out the challenges of everyone the viewer is kept apart
  from (play/challenges.py).
- **Matchmaking** (play/matchmaking.py): two entries kept apart are never paired; each waits for another.
- **Chat** (play/chat.py): a message is refused when its author is kept apart from a player seated in the
  match (403 ``blocked_by_member`` / 409 ``you_blocked``) — so the blocked member can neither write to the
  blocker's matches nor the blocker to the blocked one's. Where both only watch a third party's match, the
  blocked member's messages are left out of what the blocker reads: the history, and live on the socket
  (web/ws.py, :func:`shut_out`, re-read at most every ``SHUT_OUT_SECONDS``).
- Matches already running go on (a block is not a resignation), and tournaments pair as their format says.

Every check is one indexed read in the request that seats or writes; nothing is read per move.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from pydantic import BaseModel
from sqlalchemy.orm import Session

from duelclub.i18n import gettext as _
from duelclub.play.errors import PlayError
from duelclub.play.port import LobbyPort
from duelclub.play.threads import in_thread
from duelclub.store import blocks as repo
from duelclub.store import users

_T = TypeVar("_T")


class Refused(PlayError):
    """A refusal raised in a worker thread, where the request's language is not known: :meth:`worded`, in
    the request's context, is the PlayError with its message in the member's language (ru or uk)."""

    def __init__(self, status: int, code: str, words: Callable[[], str]) -> None:
        super().__init__(status, code, code)
        self.words = words

    def worded(self) -> PlayError:
        return PlayError(self.status, self.code, self.words())


async def worded(fn: Callable[[], _T]) -> _T:
    """``fn()`` in a worker thread; a :class:`Refused` it raises comes out worded."""
    try:
        return await in_thread(fn)
    except Refused as exc:
        raise exc.worded() from None


async def shut_out(service: LobbyPort, user_id: int) -> frozenset[int]:
    """The ids of the members ``user_id`` blocked: their chat messages are left out of what ``user_id``
    reads, in the history and live on the socket (web/ws.py). One indexed read."""

    def read() -> frozenset[int]:
        with service.session() as s:
            return frozenset(r.user_id for r in repo.blocked_by(s, user_id))

    return await in_thread(read)


class BlockedMember(BaseModel):
    """A member the caller blocked and since when."""

    username: str
    blocked_at: datetime


class BlockResult(BaseModel):
    """The answer of a block or unblock: the member, whether the caller now blocks them, and whether this
    request changed anything (False when it was so already)."""

    username: str
    blocked: bool
    changed: bool


def _target(s: Session, user_id: int, username: str) -> Any:
    """The member ``username`` names; PlayError 404 ``member_not_found`` (unknown or deleted), 422
    ``block_self``."""
    member = users.find_user(s, username)
    if member is None or member.deleted_at is not None:
        raise Refused(404, "member_not_found", lambda: _("Участник не найден."))
    if member.id == user_id:
        raise Refused(422, "block_self", lambda: _("Заблокировать самого себя нельзя."))
    return member


async def block(service: LobbyPort, user_id: int, username: str) -> BlockResult:
    """``user_id`` blocks ``username`` (idempotent). Raises PlayError ``member_not_found`` (404),
    ``block_self`` (422)."""

    def write() -> BlockResult:
        with service.session() as s:
            member = _target(s, user_id, username)
            changed = repo.block(s, user_id, member.id, service.now())
            return BlockResult(username=member.username, blocked=True, changed=changed)

    return await worded(write)


async def unblock(service: LobbyPort, user_id: int, username: str) -> BlockResult:
    """``user_id`` lifts their block of ``username`` (idempotent: no block is fine). Raises PlayError
    ``member_not_found`` (404), ``block_self`` (422)."""

    def write() -> BlockResult:
        with service.session() as s:
            member = _target(s, user_id, username)
            changed = repo.unblock(s, user_id, member.id)
            return BlockResult(username=member.username, blocked=False, changed=changed)

    return await worded(write)


async def listing(service: LobbyPort, user_id: int) -> list[BlockedMember]:
    """The members ``user_id`` blocked, newest block first."""

    def read() -> list[BlockedMember]:
        with service.session() as s:
            rows = repo.blocked_by(s, user_id)
        return [BlockedMember(username=r.username, blocked_at=r.created_at) for r in rows]

    return await in_thread(read)


def refuse_if_apart(s: Session, user_id: int, other_id: int | None, what: str) -> None:
    """Raise :class:`Refused` if ``user_id`` and ``other_id`` are kept apart by a block: 409 ``you_blocked``
    (``user_id`` blocked them) or 403 ``blocked_by_member`` (they blocked ``user_id``). ``what`` is
    ``play`` or ``chat`` (the message's wording). Call it in a thread run by :func:`worded`."""
    if other_id is None or other_id == user_id:
        return
    mine, theirs = repo.between(s, user_id, other_id)
    if not (mine or theirs):
        return
    name = users.usernames(s, {other_id}).get(other_id, "?")
    if mine:
        raise Refused(409, "you_blocked", lambda: _you_blocked(name, what))
    raise Refused(403, "blocked_by_member", lambda: _blocked_you(name, what))


def _you_blocked(name: str, what: str) -> str:
    if what == "chat":
        return _("Вы заблокировали участника %(name)s: чат с ним закрыт.", name=name)
    return _("Вы заблокировали участника %(name)s. Чтобы сыграть, снимите блокировку в профиле.", name=name)


def _blocked_you(name: str, what: str) -> str:
    if what == "chat":
        return _("Участник %(name)s вас заблокировал: писать в чат этой партии нельзя.", name=name)
    return _("Участник %(name)s вас заблокировал: сыграть с ним нельзя.", name=name)


async def has_blocked(service: LobbyPort, user_id: int, other_id: int) -> bool:
    """Whether ``user_id`` blocked ``other_id`` (one indexed read)."""

    def read() -> bool:
        with service.session() as s:
            return repo.between(s, user_id, other_id)[0]

    return await in_thread(read)
