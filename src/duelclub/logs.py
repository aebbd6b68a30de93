"""Logging: plain text or one JSON object a line (``LOG_FORMAT=json``), with the request's context, and the
last errors kept in memory for the admin page «Состояние сервера» (issue 13 §2).

- :data:`CONTEXT` — the current request's or socket's ``request_id``, ``user_id`` and ``match_id``; the web
  layer opens it per request (web/observe.py: :func:`open_context`) and fills it as it learns them
  (:func:`bind`; the user is known after the session look-up, which runs in a worker thread — the dict is
  shared, so what the thread binds is seen by the request).
- :class:`JsonFormatter` — ``{"time", "level", "logger", "message", "request_id", "user_id", "match_id",
  "exc"}`` (the context keys only when known).
- :class:`RecentErrors` — a handler keeping the last :data:`RECENT_ERRORS` records of level WARNING and up.
- :func:`configure` — the root logger for ``duelclub serve``/``bots``: one stderr handler in the chosen
  format, and the recent-errors handler.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
from collections import deque
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

CONTEXT: ContextVar[dict[str, Any] | None] = ContextVar("duelclub_log_context", default=None)
CONTEXT_KEYS = ("request_id", "user_id", "match_id")
RECENT_ERRORS = 50


def bind(**values: Any) -> None:
    """Add ``values`` (e.g. ``user_id=3``) to the current context, if one is open."""
    context = CONTEXT.get()
    if context is not None:
        context.update(values)


class ContextFilter(logging.Filter):
    """Copies the context's keys onto every record (None when unknown)."""

    def filter(self, record: logging.LogRecord) -> bool:
        context = CONTEXT.get() or {}
        for key in CONTEXT_KEYS:
            if not hasattr(record, key):
                setattr(record, key, context.get(key))
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per record (see the module docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in CONTEXT_KEYS:
            value = getattr(record, key, None)
            if value is not None:
                out[key] = value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


TEXT_FORMAT = (
    "%(asctime)s %(levelname)s %(name)s [req=%(request_id)s user=%(user_id)s match=%(match_id)s] %(message)s"
)


class RecentErrors(logging.Handler):
    """The last ``size`` records of level WARNING and up, as dicts (newest last); thread-safe."""

    def __init__(self, size: int = RECENT_ERRORS) -> None:
        super().__init__(logging.WARNING)
        self.records: deque[dict[str, Any]] = deque(maxlen=size)
        self._guard = threading.Lock()
        self.addFilter(ContextFilter())

    def emit(self, record: logging.LogRecord) -> None:
        try:
            entry = json.loads(JsonFormatter().format(record))
        except Exception:
            return
        with self._guard:
            self.records.append(entry)

    def snapshot(self) -> list[dict[str, Any]]:
        with self._guard:
            return list(self.records)


_recent: RecentErrors | None = None


def recent_errors() -> RecentErrors:
    """This process's :class:`RecentErrors`, attached to the root logger on first use."""
    global _recent
    if _recent is None:
        _recent = RecentErrors()
        logging.getLogger().addHandler(_recent)
    return _recent


def configure(log_format: str = "text", level: str = "INFO") -> None:
    """Set up the root logger: one stderr handler in ``log_format`` (``text`` or ``json``) at ``level``,
    with the request context on every record; plus :func:`recent_errors`."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    for old in [h for h in root.handlers if not isinstance(h, RecentErrors)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    recent_errors()
