"""What every WebSocket message passes before it is parsed (issue 13 §1.4, §1.5): a per-socket message budget,
the size cap, a nesting cap and NUL — all cheap, with no database work.

:class:`MessageGuard` is one socket's guard (``web/wsbase.py``'s ``GuardedSocket``, the base of every socket,
makes one per socket);
:meth:`MessageGuard.check` answers None for a message to handle, or a :class:`Refusal` ``(code, message)``
to send back as an error while the socket stays open:

- ``rate_limited`` — over the budget ``WS_MESSAGE_BUDGET`` (default ``100 per 20 seconds``, in the spirit of
  Lichess' socket limits): a token bucket of that many messages refilled evenly over the window, on
  ``time.monotonic``. A page's normal traffic (an action, a ping every ~25 s, a sync now and then) never comes
  near it. After ``WS_OVER_BUDGET_CLOSE`` refusals in a row :attr:`MessageGuard.exhausted` turns True and the
  socket is closed with 1008 (policy violation).
- ``too_large`` — over ``MAX_BODY_BYTES`` (UTF-8).
- ``malformed`` — JSON nested deeper than ``WS_MAX_NESTING`` (a message of ``"[" * 5000`` used to crash the
  socket with a RecursionError), or holding the escape ``\\u0000`` (no field takes it, and PostgreSQL
  refuses it in text). The nesting check counts brackets first (``str.count``, C speed); only a message with
  more brackets than the cap is scanned for its real depth, strings skipped.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable
from itertools import accumulate
from typing import NamedTuple

from limits import parse

from duelclub.settings import Settings

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
POLICY_VIOLATION = 1008
"""The close code of a socket that keeps sending over its budget (RFC 6455 §7.4.1)."""


_parse = functools.lru_cache(maxsize=8)(parse)


class Refusal(NamedTuple):
    code: str
    message: str


def nesting_depth(text: str) -> int:
    """The deepest ``[``/``{`` nesting of the JSON ``text``, brackets inside strings not counted."""
    brackets = _BRACKETS.findall(_STRINGS.sub("", text))
    return max(accumulate(_STEP[b] for b in brackets), default=0)


class MessageGuard:
    """One socket's budget and limits (the module docstring). ``clock`` is for tests."""

    def __init__(
        self,
        *,
        budget: int,
        window_seconds: float,
        close_after: int,
        max_bytes: int,
        max_nesting: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.capacity = float(budget)
        self.rate = budget / window_seconds
        self.close_after = close_after
        self.max_bytes, self.max_nesting = max_bytes, max_nesting
        self._clock = clock
        self._tokens = self.capacity
        self._at = self._clock()
        self.refused = 0
        """Messages refused over budget in a row."""

    @classmethod
    def from_settings(cls, settings: Settings) -> MessageGuard:
        item = _parse(settings.WS_MESSAGE_BUDGET)
        return cls(
            budget=item.amount,
            window_seconds=float(item.get_expiry()),
            close_after=settings.WS_OVER_BUDGET_CLOSE,
            max_bytes=settings.MAX_BODY_BYTES,
            max_nesting=settings.WS_MAX_NESTING,
        )

    @property
    def exhausted(self) -> bool:
        """True once :attr:`close_after` messages in a row were over budget: close the socket (1008)."""
        return self.refused >= self.close_after

    def spend(self) -> bool:
        """Take one message from the budget; False (and one more refusal) when there is none left."""
        now = self._clock()
        self._tokens = min(self.capacity, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens < 1.0:
            self.refused += 1
            return False
        self._tokens -= 1.0
        self.refused = 0
        return True

    def check(self, text: str | None) -> Refusal | None:
        """None if ``text`` may be parsed and handled, else why not (a binary frame is ``text`` None)."""
        if not self.spend():
            return Refusal("rate_limited", "too many messages; slow down")
        if text is None:
            return Refusal("malformed", "send JSON text frames")
        if len(text) > self.max_bytes // 4 and len(text.encode()) > self.max_bytes:
            return Refusal("too_large", f"messages are at most {self.max_bytes} bytes")
        if text.count("[") + text.count("{") > self.max_nesting and nesting_depth(text) > self.max_nesting:
            return Refusal("malformed", f"JSON nested deeper than {self.max_nesting} levels")
        if "\\u0000" in text:
            return Refusal("malformed", "NUL characters are not accepted")
        return None
