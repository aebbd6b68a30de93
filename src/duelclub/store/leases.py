"""Leased work rows — bot jobs (store/botjobs.py) and post-game analyses (store/analysis.py): a worker takes
the oldest *due* row with a lease, and every later write is guarded by the lease token.

A table of leased rows has the columns ``attempts`` (int: the lease token, incremented on every take),
``leased_until`` (aware UTC datetime or NULL) and ``worker`` (str). :func:`take_oldest` leases one due row:

- PostgreSQL: ``SELECT … FOR UPDATE SKIP LOCKED``, so concurrent workers never wait on each other's row;
- SQLite: a guarded UPDATE on the ``attempts`` read (the loser of a race simply finds nothing this round).

:func:`write_leased` is the guarded write of a result or a release: it changes the row only while the
caller's token is still the row's ``attempts``, so a worker whose lease ran out (and was taken again) cannot
overwrite the newer worker's result. Both take an open session and leave the commit to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, select, update
from sqlalchemy.orm import InstrumentedAttribute, Session


def is_postgres(s: Session) -> bool:
    """True when ``s`` talks to PostgreSQL (else SQLite, the embedded default)."""
    return s.get_bind().dialect.name == "postgresql"


def take_oldest(
    s: Session,
    model: type[Any],
    keys: Sequence[InstrumentedAttribute[Any]],
    due: ColumnElement[bool],
    order_by: InstrumentedAttribute[Any],
    worker: str,
    now: datetime,
    lease_seconds: float,
) -> tuple[Any, int] | None:
    """Lease the oldest row of ``model`` (by ``order_by``) matching ``due`` to ``worker`` until
    ``now + lease_seconds``: (the row as read, its new lease token), or None if no row is due or another
    worker took it first. ``keys`` are the primary-key columns; ``due`` must exclude live leases."""
    query = select(model).where(due).order_by(order_by).limit(1)
    if is_postgres(s):
        query = query.with_for_update(skip_locked=True)
    row = s.scalars(query).first()
    if row is None:
        return None
    token = row.attempts + 1
    changed = s.execute(
        update(model)
        .where(*(col == getattr(row, col.key) for col in keys), model.attempts == row.attempts)
        .where(due)
        .values(attempts=token, leased_until=now + timedelta(seconds=lease_seconds), worker=worker)
        .execution_options(synchronize_session=False)
    )
    if not changed.rowcount:  # type: ignore[attr-defined]
        return None
    return row, token


def write_leased(
    s: Session,
    model: type[Any],
    where: Sequence[ColumnElement[bool]],
    token: int,
    values: Mapping[str, Any],
) -> bool:
    """Set ``values`` on the row matching ``where`` while its lease token is still ``token``; False (nothing
    written) if the row is gone, fails ``where``, or was taken again since."""
    changed = s.execute(
        update(model)
        .where(*where, model.attempts == token)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    return bool(changed.rowcount)  # type: ignore[attr-defined]
