"""Blocks between members in the database (issue 28 §5; the ``blocks`` table in store/models.py).

Plain functions over a session, as the other repositories. A block is directed (``blocker`` blocked
``blocked``), but what it keeps apart is the pair: the checks ask whether either member blocked the other
(:func:`between`, :func:`pairs_among`, :func:`kept_apart`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from duelclub.store.models import Block, User


@dataclass(frozen=True, slots=True)
class BlockRecord:
    """A member the caller blocked: their id and name and when the block was made."""

    user_id: int
    username: str
    created_at: datetime


def block(s: Session, blocker_id: int, blocked_id: int, at: datetime) -> bool:
    """Record that ``blocker_id`` blocked ``blocked_id``; True if new, False if it was there (idempotent,
    also when two requests race: the loser's insert is rolled back to a savepoint)."""
    if s.get(Block, (blocker_id, blocked_id)) is not None:
        return False
    try:
        with s.begin_nested():
            s.add(Block(blocker_id=blocker_id, blocked_id=blocked_id, created_at=at))
    except IntegrityError:
        return False
    return True


def unblock(s: Session, blocker_id: int, blocked_id: int) -> bool:
    """Lift the block; True if there was one (idempotent)."""
    result = s.execute(delete(Block).where(Block.blocker_id == blocker_id, Block.blocked_id == blocked_id))
    return bool(getattr(result, "rowcount", 0))


def blocked_by(s: Session, blocker_id: int) -> list[BlockRecord]:
    """The members ``blocker_id`` blocked, newest block first."""
    rows = s.execute(
        select(Block.blocked_id, User.username, Block.created_at)
        .join(User, User.id == Block.blocked_id)
        .where(Block.blocker_id == blocker_id)
        .order_by(Block.created_at.desc(), User.username_key)
    )
    return [BlockRecord(uid, name, at) for uid, name, at in rows]


def between(s: Session, a: int, b: int) -> tuple[bool, bool]:
    """``(a blocked b, b blocked a)``: one indexed read."""
    rows = s.execute(
        select(Block.blocker_id).where(
            or_(
                (Block.blocker_id == a) & (Block.blocked_id == b),
                (Block.blocker_id == b) & (Block.blocked_id == a),
            )
        )
    ).scalars()
    found = set(rows)
    return a in found, b in found


def kept_apart(s: Session, user_id: int) -> set[int]:
    """Everyone ``user_id`` blocked or who blocked ``user_id``."""
    out = set(s.scalars(select(Block.blocked_id).where(Block.blocker_id == user_id)))
    out.update(s.scalars(select(Block.blocker_id).where(Block.blocked_id == user_id)))
    return out


def pairs_among(s: Session, ids: Iterable[int]) -> set[frozenset[int]]:
    """The pairs of ``ids`` kept apart by a block (either way), as frozensets of two ids."""
    members = set(ids)
    if len(members) < 2:
        return set()
    rows = s.execute(
        select(Block.blocker_id, Block.blocked_id).where(
            Block.blocker_id.in_(members), Block.blocked_id.in_(members)
        )
    )
    return {frozenset((a, b)) for a, b in rows}


def forget_user(s: Session, user_id: int) -> None:
    """Erase every block by or of ``user_id`` (account deletion: nobody can meet a deleted account)."""
    s.execute(delete(Block).where(or_(Block.blocker_id == user_id, Block.blocked_id == user_id)))
