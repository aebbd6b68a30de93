"""Throttling of logins and registrations with the ``limits`` library (moving windows).

Counters live in memory (one process), or in Redis when ``REDIS_URL`` is set, so that every worker shares
them; the match chat counts its messages in the same storage (play/chat.py, ``AuthLimiter.storage``).
Limits are settings (``LOGIN_FAILURES_PER_USERNAME_IP``, ``LOGIN_FAILURES_PER_IP``, ``REGISTRATIONS_PER_IP``,
in ``limits``' notation such as ``"10 per 15 minutes"``):

- a login is refused before the password is checked while its (username casefolded, client IP) pair or its
  client IP has used up its failed attempts; each failed login (and each wrong old password when changing
  it) counts against both. Nothing is counted per username alone: a guesser elsewhere never locks the
  owner out (issue 13 §1.6), while one client guessing stays throttled by both counters;
- a registration is refused when its IP has used up its attempts; each registration attempt counts.

Refusals are 429 ``{"code": "rate_limited", "message"}`` with ``Retry-After`` (seconds). The client IP is
``request.client.host``: behind a reverse proxy, set ``FORWARDED_ALLOW_IPS`` to the proxy's address so that
it is the real client's (``duelclub serve`` believes ``X-Forwarded-For`` from those addresses only). If the
Redis counters cannot be reached, requests are let through (logged): an outage of the limiter must not lock
everybody out.
"""

from __future__ import annotations

import logging
import math
import time

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter
from starlette.requests import HTTPConnection

from duelclub.i18n import gettext as _
from duelclub.settings import Settings
from duelclub.web.errors import ApiError

log = logging.getLogger(__name__)
KEY_PREFIX = "duelclub:limits"


class AuthLimiter:
    """The login and registration limits of one app (``app.state.limiter``)."""

    def __init__(self, settings: Settings) -> None:
        self.per_username_ip = parse(settings.LOGIN_FAILURES_PER_USERNAME_IP)
        self.per_ip = parse(settings.LOGIN_FAILURES_PER_IP)
        self.registrations = parse(settings.REGISTRATIONS_PER_IP)
        self.storage = _storage(settings.REDIS_URL)
        self.limiter = MovingWindowRateLimiter(self.storage)

    # -- logins ------------------------------------------------------------------------------
    def check_login(self, ip: str, username_key: str) -> None:
        """Raise 429 ``rate_limited`` if this (username, IP) pair or this IP has no failed attempts left."""
        self._check(
            (self.per_username_ip, "login-user-ip", _pair(username_key, ip)),
            (self.per_ip, "login-ip", ip),
            message=_("Слишком много неудачных попыток входа. Подождите и попробуйте снова."),
        )

    def login_failed(self, ip: str, username_key: str) -> None:
        """Count a failed login against the (username, IP) pair and the IP."""
        self._hit(self.per_username_ip, "login-user-ip", _pair(username_key, ip))
        self._hit(self.per_ip, "login-ip", ip)

    # -- registrations -----------------------------------------------------------------------
    def register_attempt(self, ip: str) -> None:
        """Count a registration from ``ip``, or raise 429 ``rate_limited`` if it has none left."""
        self._check(
            (self.registrations, "register-ip", ip),
            message=_("Слишком много регистраций с этого адреса. Попробуйте позже."),
        )
        self._hit(self.registrations, "register-ip", ip)

    # -- the library -------------------------------------------------------------------------
    def _check(self, *buckets: tuple[RateLimitItem, str, str], message: str) -> None:
        wait = 0
        for item, scope, key in buckets:
            try:
                if self.limiter.test(item, scope, key):
                    continue
                reset = self.limiter.get_window_stats(item, scope, key).reset_time
            except Exception:
                log.warning("rate limiter storage failed; letting the request through", exc_info=True)
                continue
            wait = max(wait, math.ceil(reset - time.time()), 1)
        if wait:
            raise ApiError(429, "rate_limited", message, headers={"Retry-After": str(wait)})

    def _hit(self, item: RateLimitItem, scope: str, key: str) -> None:
        try:
            self.limiter.hit(item, scope, key)
        except Exception:
            log.warning("rate limiter storage failed; attempt not counted", exc_info=True)


def _pair(username_key: str, ip: str) -> str:
    """One counter key for a (username, IP) pair (``/`` cannot occur in an address)."""
    return f"{ip}/{username_key}"


def _storage(redis_url: str | None) -> Storage:
    """Redis counters shared by all workers when ``redis_url`` is set, else this process's memory."""
    if not redis_url:
        return MemoryStorage()
    storage = storage_from_string(redis_url, key_prefix=KEY_PREFIX)
    assert isinstance(storage, Storage)  # a redis:// URL gives the synchronous storage
    return storage


def get_limiter(conn: HTTPConnection) -> AuthLimiter:
    """The app's :class:`AuthLimiter`."""
    limiter: AuthLimiter = conn.app.state.limiter
    return limiter


def client_ip(conn: HTTPConnection) -> str:
    """The client's address as the server sees it (see the module docstring about proxies)."""
    return conn.client.host if conn.client is not None else "unknown"
